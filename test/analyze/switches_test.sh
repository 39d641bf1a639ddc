#!/bin/sh
# switches_test.sh POMP_ANALYZE POMP_TRACEGEN DATA_DIR POMP_REPORT --
# pomp-analyze --no-rootcause / --no-critical-path and the report
# attribute not_computed as users see them: the summary names what was not
# computed once; the dump of a switched-off analysis is the full one's
# without the switched-off metrics, line for line; pomp-report pop (text
# and JSON) and stat say "not computed" and why, for a switch and for the
# model limit of a trace with OpenMP tasks; the CUBE export leaves the
# metrics out and keeps the attribute.  (Reports without the attribute:
# test/report's pop goldens, test_analyze_switches.)
set -u
analyze=$1 tracegen=$2 data=$3 report=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-switches.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect NAME FILE: FILE holds exactly the lines on stdin (in order)
expect() {
  cat >"$work/expected"
  if cmp -s "$work/expected" "$2"; then echo "ok: $1"; else
    fail "$1"
    diff "$work/expected" "$2"
  fi
}

for t in hybrid omp_tasks; do
  "$tracegen" "$data/$t.trace" "$work/$t" || { echo "FAIL: tracegen $t"; exit 1; }
done

# The summary names what was not computed, once.
"$analyze" --no-critical-path -o "$work/hybrid/ncp.pomp" "$work/hybrid" >"$work/out" 2>&1 ||
  fail "--no-critical-path exited $?"
grep 'not computed' "$work/out" >"$work/got"
expect "summary names what --no-critical-path left out" "$work/got" <<'E'
not computed: critical_path performance_impact (switched off: --no-critical-path)
E

# Switched off: the full analysis's values without those metrics.
rootcause='^(delay[a-z0-9_]*|waitstates_[a-z_]*|mpi_wait_(direct|indirect|propagating|terminal)[a-z_]*),'
critical='^(critical_path[a-z_]*|critical_imbalance_impact|non_critical_path_activities|performance_impact[a-z_]*),'
"$analyze" -q -o "$work/hybrid/full.pomp" "$work/hybrid" || fail "full analysis"
"$analyze" -q --no-rootcause -o "$work/hybrid/nrc.pomp" "$work/hybrid" || fail "--no-rootcause"
"$report" dump "$work/hybrid/full.pomp" >"$work/full.csv"
for sw in "nrc:$rootcause" "ncp:$critical"; do
  name=${sw%%:*} pattern=${sw#*:}
  grep -Ev "$pattern" "$work/full.csv" >"$work/expected.csv"
  "$report" dump "$work/hybrid/$name.pomp" >"$work/$name.csv"
  grep -Eq "$pattern" "$work/full.csv" || fail "$name: the full analysis has none of them"
  if cmp -s "$work/expected.csv" "$work/$name.csv"; then
    echo "ok: $name: the full analysis's values less the switched-off metrics"
  else
    fail "$name: values differ"
    diff "$work/expected.csv" "$work/$name.csv" | head
  fi
done

# pop, text and JSON: a switch and a model limit.
"$report" pop "$work/hybrid/ncp.pomp" | grep -E 'Serialisation|Transfer' >"$work/got"
expect "pop text: switched off" "$work/got" <<'E'
    Serialisation efficiency             n/a (not computed: switched off: --no-critical-path)
    Transfer efficiency                  n/a (not computed: switched off: --no-critical-path)
E
"$analyze" "$work/omp_tasks" >/dev/null 2>"$work/err" || fail "omp_tasks: exit $?"
grep -q "the trace has OpenMP tasks" "$work/err" || fail "omp_tasks: no warning"
"$report" pop "$work/omp_tasks" | grep -E 'Serialisation|Transfer' >"$work/got"
expect "pop text: model limit" "$work/got" <<'E'
    Serialisation efficiency             n/a (not computed: model limit: the trace has OpenMP tasks)
    Transfer efficiency                  n/a (not computed: model limit: the trace has OpenMP tasks)
E
"$report" pop --format json "$work/omp_tasks" |
  grep -E '"(not_computed|ideal_runtime|serialisation_efficiency|transfer_efficiency)"' >"$work/got"
expect "pop json: model limit" "$work/got" <<'E'
  "not_computed": "delay_omp critical_path performance_impact (model limit: the trace has OpenMP tasks)",
  "ideal_runtime": null,
  "serialisation_efficiency": null,
  "transfer_efficiency": null,
    "serialisation_efficiency": "not computed: model limit: the trace has OpenMP tasks",
    "transfer_efficiency": "not computed: model limit: the trace has OpenMP tasks"
E
"$report" pop --format json "$work/hybrid/full.pomp" | grep '"not_computed"' >"$work/got"
expect "pop json: all computed" "$work/got" <<'E'
  "not_computed": null,
E

# stat: one line.
"$report" stat "$work/omp_tasks" | grep 'not computed' >"$work/got"
expect "stat names what was not computed" "$work/got" <<'E'
not computed: delay_omp critical_path performance_impact (model limit: the trace has OpenMP tasks)
E

# diff: what either side did not compute is not computed in the difference.
"$report" diff -o "$work/d1.pomp" "$work/hybrid/full.pomp" "$work/hybrid/ncp.pomp" ||
  fail "diff full - ncp"
"$report" diff -o "$work/d2.pomp" "$work/hybrid/nrc.pomp" "$work/hybrid/ncp.pomp" ||
  fail "diff nrc - ncp"
for d in d1 d2; do "$report" stat "$work/$d.pomp" | grep 'not computed'; done >"$work/got"
expect "diff: the union of both sides' not_computed" "$work/got" <<'E'
not computed: critical_path performance_impact (switched off: --no-critical-path)
not computed: delay waitstates_propagating_vs_terminal waitstates_direct_vs_indirect (switched off: --no-rootcause); critical_path performance_impact (switched off: --no-critical-path)
E

# CUBE: the metrics not computed left out, the attribute kept.
"$report" cube -o "$work/t.cubex" "$work/omp_tasks/report.pomp" || fail "cube export"
"$report" defs "$work/t.cubex" >"$work/defs" || fail "cube read back"
for m in critical_path critical_path_imbalance performance_impact delay_omp delay_ompidle; do
  ! grep -q "\"name\":[[:space:]]*\"$m\"" "$work/defs" || fail "cube: $m exported"
done
for m in delay delay_n2n mpi_wait_nxn; do
  grep -q "\"name\":[[:space:]]*\"$m\"" "$work/defs" || fail "cube: $m left out"
done
grep -q '"not_computed":.*model limit: the trace has OpenMP tasks' "$work/defs" ||
  fail "cube: attribute lost"
# (CUBE keeps inclusive values: exclusive ones come back as differences)
"$report" dump "$work/t.cubex" >"$work/cube.csv"
"$report" dump "$work/omp_tasks/report.pomp" >"$work/pomp.csv"
if awk -F, 'NR == FNR { v[$1 FS $2 FS $3 FS $4] = $5; nv++; next }
    { if ($1 == "bytes_rcvd") $1 = "bytes_received" # the name in Scalasca
      k = $1 FS $2 FS $3 FS $4; d = v[k] - $5; if (d < 0) d = -d
      if (!(k in v) || d > 1e-12 * ($5 < 0 ? -$5 : $5) + 1e-18) bad = 1; n++ }
    END { exit bad || n != nv }' "$work/pomp.csv" "$work/cube.csv"; then
  echo "ok: cube keeps every other value"
else
  fail "cube: values differ"
fi

exit "$failures"
