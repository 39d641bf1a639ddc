# pomp_expect.sh -- sourced by the shell-driven tests: failure counting and
# exact comparisons. The test ends with `[ "$failures" = 0 ]`.
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# expect_eq WHAT ACTUAL EXPECTED
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"; }
# report_cells POMP_REPORT FILE M1 [M2...]: the cells of a report (or .cubex)
# as sorted "callpath,rank,thread|value" lines, summed over the metrics,
# cells of exactly zero left out (for join and per-cell comparisons).
report_cells() {
  rc_report=$1 rc_file=$2
  shift 2
  for m in "$@"; do "$rc_report" dump "$rc_file" --metric "$m" || return 1; done |
    awk -F, '$1 != "metric" { s[$2 "," $3 "," $4] += $5 }
      END { for (k in s) if (s[k] != 0) printf "%s|%.17g\n", k, s[k] }' | sort -t'|' -k1,1
}
# metric_cells POMP_REPORT TRACE FILE NAMING: the cells of a report (or
# .cubex) as sorted "TRACE|metric|callpath|rank,thread|value" lines, summed
# per cell, cells of exactly zero left out; NAMING is awk code that sets m
# from $1, the row's metric: its name in the comparison, or "" to leave
# the row out (call paths may hold commas: the last three fields are the
# rank, thread and value).
metric_cells() {
  "$1" dump "$3" | awk -F, -v t="$2" '
    $1 == "metric" { next }
    { m = ""
      '"$4"'
      if (m == "") next
      key = m "|" $2
      for (i = 3; i < NF - 2; i++) key = key "," $i
      s[t "|" key "|" $(NF - 2) "," $(NF - 1)] += $NF }
    END { for (k in s) if (s[k] != 0) printf "%s|%.17g\n", k, s[k] }' | sort -t'|' -k1,4
}
# differing_cells ABS REL A B: the cells of A (pomp's) and B (the
# reference's), "key|value" lines whose key is the first four fields
# (trace|metric|callpath|rank,thread), that differ by more than
# ABS + REL * |B's value| (a cell missing on one side is 0 there), as
# "key|pomp X scout Y", sorted.
differing_cells() {
  awk -F'|' -v abs="$1" -v rel="$2" '
    FNR == NR { a[$1 "|" $2 "|" $3 "|" $4] = $5; next }
    { b[$1 "|" $2 "|" $3 "|" $4] = $5 }
    END {
      for (k in b) if (!(k in a)) a[k] = 0
      for (k in a) {
        x = a[k]; y = (k in b) ? b[k] : 0; d = x - y; if (d < 0) d = -d
        m = y < 0 ? -y : y
        if (d > abs + rel * m) printf "%s|pomp %.9f scout %.9f\n", k, x, y } }' "$3" "$4" | sort
}
# check_listed DEVIATIONS DIFFER TRACES: the cells of DIFFER (differing_cells'
# lines) against the list DEVIATIONS ("key|reason" lines, # comments), both
# of the traces named in the file TRACES: a cell that differs unlisted
# fails, and so does a listed one that agrees (the list stays exact).
check_listed() {
  cl_dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-listed-XXXXXX") || return 1
  grep -v '^#' "$1" | grep -v '^$' | cut -d'|' -f1-4 |
    awk -F'|' -v c="$3" 'BEGIN { while ((getline t < c) > 0) seen[t] = 1 } $1 in seen' |
    sort > "$cl_dir/listed"
  cut -d'|' -f1-4 "$2" | sort > "$cl_dir/found"
  comm -23 "$cl_dir/found" "$cl_dir/listed" > "$cl_dir/unlisted"
  comm -13 "$cl_dir/found" "$cl_dir/listed" > "$cl_dir/agreeing"
  if [ -s "$cl_dir/unlisted" ]; then
    fail "cells differ from scout's, not listed in $1:"
    grep -F -f "$cl_dir/unlisted" "$2"
  fi
  if [ -s "$cl_dir/agreeing" ]; then
    fail "listed cells agree with scout's now (remove them from $1):"
    cat "$cl_dir/agreeing"
  fi
  rm -rf "$cl_dir"
}
