#!/bin/sh
# End-to-end test of the pomp-analyze command line: help, version, usage
# errors, exit codes, the report it writes and the summary it prints.
# Usage: cli_test.sh POMP_ANALYZE POMP_TRACEGEN DATA_DIR
set -u
analyze=$1 tracegen=$2 data=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE CMD...: runs CMD, checks the exit status
expect() {
  want=$1; shift
  "$@" >"$work/out" 2>"$work/err"
  got=$?
  [ "$got" = "$want" ] || fail "$* exited $got, expected $want"
}

same() { # same FILE TEXT
  printf '%s\n' "$2" | cmp -s - "$1" || {
    fail "$1 differs:"; diff "$1" - <<EOT
$2
EOT
  }
}

expect 0 "$analyze" --help
head -n 1 "$work/out" | grep -q '^Usage: pomp-analyze \[-o FILE\]' || fail "--help"
expect 0 "$analyze" --version
same "$work/out" "pomp-analyze (pomp) 0.1.0"
expect 2 "$analyze"
head -n 1 "$work/err" > "$work/err1"
same "$work/err1" "pomp-analyze: no experiment directory or trace given"
expect 2 "$analyze" --bogus x
head -n 1 "$work/err" > "$work/err1"
same "$work/err1" "pomp-analyze: unknown option or missing argument: '--bogus'"
expect 2 "$analyze" a b
expect 1 "$analyze" "$work/nothing"
same "$work/err" "pomp-analyze: $work/nothing: cannot open the trace archive"

"$tracegen" "$data/late_sender.trace" "$work/exp" || fail "tracegen"
expect 0 "$analyze" "$work/exp"
[ -s "$work/exp/report.pomp" ] || fail "no report.pomp in the experiment"
same "$work/out" "pomp-analyze: wrote $work/exp/report.pomp (10 events)
total time 4e-07 s over 2 locations
  property                        seconds  % time  worst call path
  comp                           3.22e-07  80.50%  main
  mpi_latesender                    5e-08  12.50%  main;MPI_Recv
  mpi_point2point                 2.8e-08   7.00%  main;MPI_Recv"
[ -s "$work/err" ] && fail "stderr not empty: $(cat "$work/err")"

# overwriting the report is fine; -o and --quiet; the anchor file works too
expect 0 "$analyze" --quiet -o "$work/other.pomp" "$work/exp/traces.otf2"
[ -s "$work/out" ] && fail "--quiet printed something"
cmp -s "$work/other.pomp" "$work/exp/report.pomp" || fail "-o report differs"
expect 0 "$analyze" --top 1 "$work/exp"
[ "$(wc -l < "$work/out")" = 4 ] || fail "--top 1 printed $(wc -l < "$work/out") lines"

# warnings: printed (with where), counted and summarised; --quiet: none
"$tracegen" "$data/unmatched.trace" "$work/unmatched" || fail "tracegen"
expect 0 "$analyze" "$work/unmatched"
same "$work/err" "pomp-analyze: warning: rank 0 thread 0 (location 0): event 3: receive from rank 1 (communicator 0, tag 3) has no matching send
pomp-analyze: warning: rank 1 thread 0 (location 4294967296): event 3: send to rank 0 (communicator 0, tag 4) has no matching receive
pomp-analyze: 2 warnings: 2 unmatched messages"
expect 0 "$analyze" --quiet "$work/unmatched"
[ -s "$work/err" ] && fail "--quiet printed warnings: $(cat "$work/err")"

[ "$failures" = 0 ] && echo "all pomp-analyze CLI checks passed"
exit "$failures"
