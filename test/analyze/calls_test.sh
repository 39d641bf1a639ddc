#!/bin/bash
# calls_test.sh NM 'OBJ;OBJ;...' ['OBJ;...']: the files of analyze/ call
# each other one way only (analyze/README.md, "Who calls whom").  From the
# symbols of the object files: file A calls file B when A's object needs a
# symbol B's defines.  Fails when two files call each other or the calls
# form a longer cycle, naming the files and symbols; prints the listing.
set -u
nm=$1
shift
objs=$(printf '%s;' "$@" | tr ';' '\n' | grep -v '^$' | sort -u)
[ -n "$objs" ] || { echo "no object files given"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for o in $objs; do
  f=$(basename "$o"); f=${f%%.*}
  "$nm" -g --defined-only "$o" | awk -v f="$f" 'NF == 3 {print $3, f}'
done | sort -u > "$work/defined"
for o in $objs; do
  f=$(basename "$o"); f=${f%%.*}
  "$nm" -u "$o" | awk -v f="$f" '{print $NF, f}'
done | sort -u > "$work/needed"
# "caller callee symbol" for each symbol one file needs and another defines
join "$work/needed" "$work/defined" | awk '$2 != $3 {print $2, $3, $1}' |
  sort > "$work/calls"
awk '{k = $1 " -> " $2; s[k] = s[k] " " $3} END {for (k in s) print k ":" s[k]}' \
  "$work/calls" | sort
status=0
awk '{print $1, $2}' "$work/calls" | sort -u > "$work/pairs"
awk 'NR == FNR {p[$1 " " $2] = 1; next} ($2 " " $1) in p && $1 < $2' \
  "$work/pairs" "$work/pairs" > "$work/mutual"
if [ -s "$work/mutual" ]; then
  echo "FAIL: files that call each other:"
  sed 's/ / <-> /' "$work/mutual"
  status=1
fi
if ! tsort "$work/pairs" > /dev/null 2> "$work/cycle"; then
  echo "FAIL: a cycle of calls:"
  cat "$work/cycle"
  status=1
fi
[ $status = 0 ] && echo "ok: $(wc -l < "$work/pairs") file-to-file call edges, no cycle"
exit $status
