#!/bin/sh
# End-to-end test of the pomp-analyze command line: help, version, usage
# errors, exit codes, the report it writes and the summary it prints.
# Usage: cli_test.sh POMP_ANALYZE POMP_TRACEGEN DATA_DIR POMP_TUI
set -u
analyze=$1 tracegen=$2 data=$3 tui=$4
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
head -n 1 "$work/out" | grep -q '^Usage: pomp-analyze \[OPTION\]... EXPERIMENT_DIR|traces.otf2$' || fail "--help"
grep -Eq '^  -o, --output=FILE +write the report to FILE' "$work/out" || fail "--help: -o"
grep -Eq '^      --top=N +wait states and overheads listed in the summary,$' "$work/out" ||
  fail "--help: --top"
# the parallel analysis, which the options do not show, is in the help
grep -qx "For a big trace, 'mpirun -n P pomp-analyze EXPERIMENT_DIR' divides the" "$work/out" ||
  fail "--help: mpirun"
expect 0 "$analyze" --version
same "$work/out" "pomp-analyze (pomp) 0.1.0"
expect 2 "$analyze"
same "$work/err" "pomp-analyze: missing EXPERIMENT_DIR|traces.otf2
Try 'pomp-analyze --help'."
# an unknown option: one line and a hint, not the whole help
expect 2 "$analyze" --bogus x
same "$work/err" "pomp-analyze: unknown option '--bogus'
Try 'pomp-analyze --help'."
expect 2 "$analyze" x -o
same "$work/err" "pomp-analyze: option '-o' needs a value
Try 'pomp-analyze --help'."
expect 2 "$analyze" --top= x
same "$work/err" "pomp-analyze: option '--top': '' is not a whole number between 0 and 1000
Try 'pomp-analyze --help'."
expect 2 "$analyze" --topx=1 x
same "$work/err" "pomp-analyze: unknown option '--topx=1'; did you mean '--top'?
Try 'pomp-analyze --help'."
expect 2 "$analyze" a b
same "$work/err" "pomp-analyze: unexpected argument 'b'
Try 'pomp-analyze --help'."

# input problems name the file and say why (errno where there is one)
expect 1 "$analyze" "$work/nothing"
same "$work/err" "pomp-analyze: $work/nothing: No such file or directory"
mkdir -p "$work/empty" "$work/odd/traces.otf2"
# a directory no run wrote, a file that is no trace: said as such, with
# what to give instead (not as a missing or corrupt trace)
expect 1 "$analyze" "$work/empty"
same "$work/err" "pomp-analyze: $work/empty: not an experiment directory (no traces.otf2, measure.log or fragments/): give the directory a run wrote (pomp_APP_RxT)"
echo 'int main(void) { return 0; }' > "$work/app.c"
expect 1 "$analyze" "$work/app.c"
same "$work/err" "pomp-analyze: $work/app.c: not a trace: give the experiment directory a run wrote (pomp_APP_RxT) or its traces.otf2"
expect 1 "$analyze" "$work/odd"
same "$work/err" "pomp-analyze: $work/odd/traces.otf2: Is a directory"
# the log of a run that wrote no trace (MPI_Abort, a signal) says why
mkdir "$work/aborted" && echo "[rank 1] MPI_Abort: ..." > "$work/aborted/measure.log"
expect 1 "$analyze" "$work/aborted"
same "$work/err" "pomp-analyze: $work/aborted: no trace was written; see $work/aborted/measure.log"
[ -e "$work/aborted/report.pomp" ] && fail "report written for a run without trace"

"$tracegen" "$data/late_sender.trace" "$work/exp" || fail "tracegen"
expect 0 "$analyze" "$work/exp"
[ -s "$work/exp/report.pomp" ] || fail "no report.pomp in the experiment"
same "$work/out" "pomp-analyze: wrote $work/exp/report.pomp (10 events)
total time 400 ns over 2 locations
wait states and overheads (own part: a property's time without that of its sub-properties; MPI start-up left out):
  property                     own time  % time  worst call path
  mpi_latesender                50.0 ns  12.50%  main;MPI_Recv
  mpi_point2point               28.0 ns   7.00%  main;MPI_Recv
  cause: 50.0 ns Late Sender at main;MPI_Recv on rank 0, caused by main on rank 1 (100% of its delay costs)
computation and start-up (not problems by themselves):
  comp                           322 ns  80.50%  main"
[ -s "$work/err" ] && fail "stderr not empty: $(cat "$work/err")"

# functions libpomp switched off (throttled.txt): summed over the ranks
# into the report's "throttled" attribute and the summary; a bad line is
# named and ignored
cp -r "$work/exp" "$work/thr" && rm "$work/thr/report.pomp"
printf '# pomp throttled functions 1: rank, ...\n0\t100000\t200000\ttiny\n1\t100000\t50\ttiny\n1\t100000\t7\tns::get(int) const\nbroken\n' \
  >"$work/thr/throttled.txt"
expect 0 "$analyze" "$work/thr"
[ "$(sed -n 3p "$work/out")" = "throttled (POMP_THROTTLE): 2 functions, 200057 calls not recorded: tiny (200050), ns::get(int) const (7)" ] ||
  fail "throttled summary: $(sed -n 3p "$work/out")"
grep -q "^pomp-analyze: warning: $work/thr/throttled.txt:5: not a line of rank, calls recorded, calls not recorded and function; ignored$" "$work/err" ||
  fail "throttled.txt bad line: $(cat "$work/err")"

# overwriting the report is fine; -o and --quiet; the anchor file works too
expect 0 "$analyze" --quiet -o "$work/other.pomp" "$work/exp/traces.otf2"
[ -s "$work/out" ] && fail "--quiet printed something"
cmp -s "$work/other.pomp" "$work/exp/report.pomp" || fail "-o report differs"
expect 0 "$analyze" --top 1 "$work/exp"
[ "$(wc -l < "$work/out")" = 8 ] || fail "--top 1 printed $(wc -l < "$work/out") lines"
# --opt=value forms, and "--" before a directory whose name starts with '-'
expect 0 "$analyze" --top=2 --output="$work/eq.pomp" "$work/exp"
[ "$(wc -l < "$work/out")" = 9 ] || fail "--top=2 printed $(wc -l < "$work/out") lines"
cmp -s "$work/eq.pomp" "$work/exp/report.pomp" || fail "--output= report differs"
cp -r "$work/exp" "$work/-x"
rm "$work/-x/report.pomp"
(cd "$work" && "$analyze" -q -- -x) || fail "-- -x exited $?"
[ -s "$work/-x/report.pomp" ] || fail "-- -x: no report"

# a missing or damaged file of the archive: exit 1 naming it, no report
for damage in "rm" "truncate -s 10"; do
  rm -rf "$work/bad" && cp -r "$work/exp" "$work/bad" && rm "$work/bad/report.pomp"
  $damage "$work/bad/traces/1.def"
  expect 1 "$analyze" -q "$work/bad"
  [ -e "$work/bad/report.pomp" ] && fail "$damage .def: report written"
  grep -q "^pomp-analyze: $work/bad/traces/1.def: rank 1 thread 0 (location 1): local definitions: " "$work/err" ||
    fail "$damage .def: $(cat "$work/err")"
done
rm -rf "$work/bad" && cp -r "$work/exp" "$work/bad" && rm "$work/bad/report.pomp"
truncate -s 10 "$work/bad/traces/0.evt"
expect 1 "$analyze" "$work/bad"
grep -q "^pomp-analyze: $work/bad/traces/0.evt: rank 0 thread 0 (location 0): event 1: cannot read the event file: truncated or corrupt (" "$work/err" ||
  fail "truncated .evt: $(cat "$work/err")"

rm -rf "$work/bad" && cp -r "$work/exp" "$work/bad" && rm "$work/bad/report.pomp"
rm "$work/bad/traces.def"
expect 1 "$analyze" "$work/bad"
same "$work/err" "pomp-analyze: $work/bad/traces.def: No such file or directory"
rm -rf "$work/bad" && cp -r "$work/exp" "$work/bad" && rm "$work/bad/report.pomp"
truncate -s 30 "$work/bad/traces.def"
expect 1 "$analyze" "$work/bad"
grep -q "^pomp-analyze: $work/bad/traces.def: global definition [0-9]*: " "$work/err" ||
  fail "truncated traces.def: $(cat "$work/err")"
[ -e "$work/bad/report.pomp" ] && fail "truncated traces.def: report written"

# collectives of different operations are never paired: one warning
"$tracegen" "$data/coll_mismatch.trace" "$work/mismatch" || fail "tracegen"
expect 0 "$analyze" "$work/mismatch"
same "$work/err" "pomp-analyze: warning: rank 0 thread 0 (location 0): event 4: collective 1 on communicator 0 is MPI_Barrier, but on rank 1 thread 0 (location 1) (event 4) MPI_Allreduce; this communicator's collectives are not analysed from here on
pomp-analyze: 1 warning: 1 unmatched collectives"
grep -q mpi_barrier "$work/out" && fail "a barrier wait state after the mismatch"

# warnings: printed (with where), counted and summarised; --quiet: none
"$tracegen" "$data/unmatched.trace" "$work/unmatched" || fail "tracegen"
expect 0 "$analyze" "$work/unmatched"
same "$work/err" "pomp-analyze: warning: rank 0 thread 0 (location 0): event 3: receive from rank 1 (communicator 0, tag 3) has no matching send
pomp-analyze: warning: rank 1 thread 0 (location 1): event 3: send to rank 0 (communicator 0, tag 4) has no matching receive
pomp-analyze: 2 warnings: 2 unmatched messages"
expect 0 "$analyze" --quiet "$work/unmatched"
[ -s "$work/err" ] && fail "--quiet printed warnings: $(cat "$work/err")"

# an experiment recovered from fragments (pomp-recover's record): the
# records that end early are said once per location, the operations left
# without partner only counted; the summary starts with how the run ended
cat >"$work/ended.trace" <<'EOT'
process 0 threads 1
process 1 threads 1
process 2 threads 1
region main compiler function main
region send mpi point2point MPI_Send
region recv mpi point2point MPI_Recv
region work user function work
loc 0.0
0 enter main
100 enter recv
180 recv 2 0 7 8
190 leave
250 enter work
loc 1.0
0 enter main
200 enter send
205 send 0 0 3 4
300 leave
400 leave
loc 2.0
0 enter main
90 enter work
EOT
"$tracegen" "$work/ended.trace" "$work/ended" || fail "tracegen"
mkdir "$work/ended/fragments"
cat >"$work/ended/fragments/RECOVERED" <<'EOT'
recovered by pomp-recover 0.1.0: 3 ranks, 1 complete, 2 partial, 0 missing
reason: rank 1: MPI_Abort(MPI_COMM_WORLD, 3)
rank 0: events up to its last buffer flush (buffer flush)
rank 1: complete (MPI_Abort(MPI_COMM_WORLD, 3))
rank 2: events up to its last buffer flush (buffer flush)
EOT
expect 0 "$analyze" "$work/ended"
same "$work/err" "pomp-analyze: warning: rank 0 thread 0 (location 0): the run ended after event 5, inside work (2 regions open end there)
pomp-analyze: warning: rank 2 thread 0 (location 2): the run ended after event 2, inside work (2 regions open end there)
pomp-analyze: 4 warnings: 2 unmatched messages, 2 locations whose record ends early
pomp-analyze: the run did not finish: operations whose partner never came have no wait state (--verbose lists them)"
[ "$(sed -n 2p "$work/out")" = "incomplete: rank 1: MPI_Abort(MPI_COMM_WORLD, 3); trace recovered from 3 ranks (1 complete, 2 up to their last flush, 0 missing); up to their last flush: ranks 0, 2" ] ||
  fail "recovered experiment: $(sed -n 2p "$work/out")"
expect 0 "$analyze" --verbose "$work/ended"
[ "$(grep -c 'has no matching' "$work/err")" = 2 ] || fail "--verbose: $(cat "$work/err")"

# The summary names the root cause of a wait state (delay costs): the
# chain of barrier waits over four ranks ends on rank 0's work.
"$tracegen" "$data/delay_chain.trace" "$work/chain" || fail "tracegen delay_chain"
expect 0 "$analyze" "$work/chain"
grep -qx '  cause: 1.20 µs Wait at MPI Barrier at main;MPI_Barrier, caused by main;work on rank 0 (100% of its delay costs)' "$work/out" ||
  fail "summary: no cause line: $(cat "$work/out")"
grep -q '^  delay' "$work/out" && fail "summary ranks the delay costs: $(cat "$work/out")"
# ... and of point-to-point waits: the chain of Late Senders goes back to
# rank 0's work; the Late Receiver, all on rank 3, names its rank.
"$tracegen" "$data/delay_p2p.trace" "$work/p2p" || fail "tracegen delay_p2p"
expect 0 "$analyze" "$work/p2p"
grep -qx '  cause: 1.20 µs Late Sender at main;MPI_Recv, caused by main;work on rank 0 (100% of its delay costs)' "$work/out" ||
  fail "summary: no Late Sender cause: $(cat "$work/out")"
grep -qx '  cause: 50.0 ns Late Receiver at main;MPI_Send on rank 3, caused by main;work on rank 0 (100% of its delay costs)' "$work/out" ||
  fail "summary: no Late Receiver cause: $(cat "$work/out")"
grep -q '^  mpi_wait_' "$work/out" && fail "summary ranks the wait-state classification: $(cat "$work/out")"
# pomp-tui's problem list (w) says the same causes, each under the problem
# at its call path
"$tui" --batch --size 120x40 --keys w "$work/p2p" >"$work/screen" 2>&1 || fail "pomp-tui w: $(cat "$work/screen")"
grep -A1 '^ 1\. 1.20 µs' "$work/screen" |
  grep -q '^    cause: 1.20 µs Late Sender at main;MPI_Recv, caused by main;work on rank 0 (100% of its delay costs) *$' ||
  fail "pomp-tui w: no Late Sender cause under problem 1: $(cat "$work/screen")"
# A cause that is itself a wait says so, and the long-term costs name the
# computation at the root of the chain.
"$tracegen" "$data/delay_waiting_cause.trace" "$work/wc" || fail "tracegen delay_waiting_cause"
expect 0 "$analyze" "$work/wc"
grep -qx '  cause: 1.05 µs Late Sender at main;MPI_Recv on rank 2, caused by rank 1 waiting in main;MPI_Recv for another rank (43% of its delay costs); root cause: main;work on rank 0, long-term (19%)' "$work/out" ||
  fail "summary: no waiting cause: $(cat "$work/out")"
# MPI start-up is left out of the problems, but Wait at Finalize, the
# waiting for the last rank to finish (200 + 100 ns), is the run's imbalance
"$tracegen" "$data/finalize.trace" "$work/fin" || fail "tracegen finalize"
expect 0 "$analyze" "$work/fin"
grep -qx '  mpi_finalize_wait              300 ns   7.41%  main;MPI_Finalize' "$work/out" ||
  fail "summary: no Wait at Finalize: $(cat "$work/out")"

# A re-run wrote "<dir>.N" beside the experiment (libpomp never overwrites
# one): a note names the newest on stderr, the report is still written;
# --quiet, the newest itself and names that are no re-run's say nothing.
mkdir "$work/rerun" && cp -r "$work/exp/traces.otf2" "$work/exp/traces.def" "$work/exp/traces" "$work/rerun/"
mkdir "$work/rerun.1" "$work/rerun.2" "$work/rerun.x" && : >"$work/rerun.3"
TZ=UTC touch -d "2026-01-02 03:04" "$work/rerun.2"
expect 0 env TZ=UTC "$analyze" "$work/rerun"
same "$work/err" "pomp-analyze: note: $work/rerun.2 is newer (written 2026-01-02 03:04); this is $work/rerun"
[ -s "$work/rerun/report.pomp" ] || fail "no report beside a newer re-run"
[ "$(head -n 1 "$work/out")" = "pomp-analyze: wrote $work/rerun/report.pomp (10 events)" ] ||
  fail "beside a newer re-run: $(head -n 1 "$work/out")"
expect 0 env TZ=UTC "$analyze" -o "$work/r.pomp" "$work/rerun/traces.otf2"
same "$work/err" "pomp-analyze: note: $work/rerun.2 is newer (written 2026-01-02 03:04); this is $work/rerun"
expect 0 "$analyze" --quiet "$work/rerun"
[ -s "$work/err" ] && fail "--quiet printed the note: $(cat "$work/err")"
cp -r "$work/rerun/traces.otf2" "$work/rerun/traces.def" "$work/rerun/traces" "$work/rerun.1/"
touch "$work/rerun.2"
expect 0 "$analyze" "$work/rerun.1/"
same "$work/err" "pomp-analyze: note: $work/rerun.2 is newer (written $(date -r "$work/rerun.2" +%H:%M)); this is $work/rerun.1"
mv "$work/rerun.1" "$work/rerun.2b" && rm -r "$work/rerun.2" && mv "$work/rerun.2b" "$work/rerun.2"
expect 0 "$analyze" "$work/rerun.2"
[ -s "$work/err" ] && fail "the newest run got a note: $(cat "$work/err")"

[ "$failures" = 0 ] && echo "all pomp-analyze CLI checks passed"
exit "$failures"
