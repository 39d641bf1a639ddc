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
