#!/bin/sh
# pop_e2e_test.sh TRACEGEN ANALYZE REPORT DATA GOLDEN -- pomp-report pop on
# what pomp-analyze makes of data/pop_hybrid.trace (values by hand in
# that file), for the whole run and for the parallel region's sub-tree.
# The JSON is compared with the goldens without the three keys that need
# the critical path (ideal_runtime, serialisation_efficiency,
# transfer_efficiency) and the not_available block; those are checked on
# their own: null with the reason while pomp-analyze writes no
# critical_path, the hand values once it does.
set -u
tracegen=$1 analyze=$2 report=$3 data=$4 golden=$5
dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-pop-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
failures=0
"$tracegen" "$data/pop_hybrid.trace" exp > /dev/null &&
  "$analyze" exp > analyze.txt 2>&1 || { cat analyze.txt; echo "cannot analyse"; exit 1; }
if "$report" dump exp --metric critical_path 2> /dev/null | grep -q '^critical_path,'; then
  has_cp=1
else
  has_cp=0
fi

# check_pop NAME IDEAL SER TRANSFER [ARGS...]: the JSON of pop with ARGS.
check_pop() {
  name=$1 ideal=$2 ser=$3 transfer=$4
  shift 4
  "$report" pop exp --format json "$@" > out.json 2> err.txt ||
    { echo "$name: pomp-report pop failed: $(cat err.txt)"; failures=$((failures + 1)); return; }
  sed -e '/"ideal_runtime"/d' -e '/"serialisation_efficiency"/d' -e '/"transfer_efficiency"/d' \
    -e '/"not_available"/,$d' out.json > got.json
  diff -u "$golden/$name.json" got.json || { echo "$name: differs"; failures=$((failures + 1)); }
  if [ "$has_cp" -eq 0 ]; then
    ideal=null ser=null transfer=null
    grep -q '"serialisation_efficiency": "needs the critical path: pomp-analyze a trace"' out.json ||
      { echo "$name: no reason for the missing critical path"; failures=$((failures + 1)); }
  fi
  for kv in "ideal_runtime $ideal" "serialisation_efficiency $ser" "transfer_efficiency $transfer"; do
    set -- $kv
    grep -q "^  \"$1\": $2,\$" out.json ||
      { echo "$name: want \"$1\": $2"; grep "\"$1\"" out.json; failures=$((failures + 1)); }
  done
}

check_pop pop_e2e_run 8 1 0.8888888888888888
check_pop pop_e2e_parallel 6 1 1 --callpath 'main;!$omp parallel @pop.c:10'

echo "$failures failures"
[ "$failures" -eq 0 ]
