# pomp_expect.sh -- sourced by the shell-driven tests: failure counting and
# exact comparisons. The test ends with `[ "$failures" = 0 ]`.
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# expect_eq WHAT ACTUAL EXPECTED
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"; }
