#!/usr/bin/env bash
# kill_test.sh -- SIGKILL of one rank at a random moment (issue 18 item 2):
#   kill_test.sh WORK RECOVER ANALYZE STEADY TIMES RANKS INTERVAL
# RANKS ranks of STEADY (rct_steady) record steadily with the default
# POMP_BUFFER (16M: no buffer flush in this run) and POMP_FLUSH_INTERVAL
# INTERVAL ("" = the default, 10 s); after a known time (3 s) plus a random
# 0-1 s one rank, chosen at random, gets SIGKILL (mpirun then SIGKILLs the
# others). Every rank's events must have been kept up to at least the kill
# time less the interval (on every location that recorded), pomp-recover
# must say per rank how far they reach and how to keep more, and
# pomp-analyze must complete.
set -uo pipefail
work=$1 recover=$2 analyze=$3 steady=$4 times=$5 ranks=$6 interval=$7
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
exp=$work/exp
envs=(POMP_EXPERIMENT="$exp" POMP_CLOCK=monotonic)
[ -n "$interval" ] && envs+=(POMP_FLUSH_INTERVAL="$interval")
interval_ns=$(awk -v s="${interval:-10}" 'BEGIN { printf "%d", s * 1e9 }')
env "${envs[@]}" timeout 120 mpirun -n "$ranks" "$steady" "$work/ready" 60 >"$work/run.out" 2>&1 &
mpirun_pid=$!
for _ in $(seq 300); do
  n=$(ls "$work"/ready.* 2>/dev/null | wc -l)
  [ "$n" = "$ranks" ] && break
  sleep 0.1
done
[ "$n" = "$ranks" ] || { kill -KILL "$mpirun_pid"; fail "the ranks never got ready"; }
sleep "3.$(printf %03d $((RANDOM % 1000)))"
victim=$((RANDOM % ranks))
pid=$(cat "$work/ready.$victim")
t_kill=$("$times" now)
kill -KILL "$pid"
wait "$mpirun_pid"
echo "rank $victim (pid $pid) killed at $t_kill"
[ -e "$exp/traces.otf2" ] && fail "the run wrote a whole trace"
"$recover" "$exp" >"$work/recover.out" 2>"$work/recover.err" ||
  { cat "$work/recover.out" "$work/recover.err" >&2; fail "pomp-recover failed"; }
cat "$work/recover.out"
for r in $(seq 0 $((ranks - 1))); do
  grep -qE "^rank $r: events up to [0-9]+\.[0-9]{3} s after its first: [1-9][0-9]* events \(buffer flush\)$" \
    "$work/recover.out" || fail "no kept-events line for rank $r"
done
expected_note="pomp-recover: note: $exp: $ranks of $ranks ranks kept their events up to their last copy to disk (every ${interval:-10} s, POMP_FLUSH_INTERVAL); a shorter POMP_FLUSH_INTERVAL keeps more"
[ "$(cat "$work/recover.err")" = "$expected_note" ] ||
  fail "stderr '$(cat "$work/recover.err")', expected '$expected_note'"
"$times" "$exp/traces.otf2" >"$work/times" || fail "the recovered trace cannot be read"
cat "$work/times"
# thread 0 of every rank recorded all the time
for r in $(seq 0 $((ranks - 1))); do
  # thread 0 of rank r: location id r (Score-P ids: thread << 32 | rank)
  read -r _ events _ last < <(awk -v id=$r '$1 == id' "$work/times")
  [ "${events:-0}" -gt 0 ] || fail "rank $r kept no events"
  lost=$(((t_kill - last) / 1000000))
  echo "rank $r: last event kept $lost ms before the kill"
  [ "$last" -ge $((t_kill - interval_ns)) ] ||
    fail "rank $r: events kept up to $lost ms before the kill (interval $((interval_ns / 1000000)) ms)"
done
"$analyze" -q "$exp" -o "$work/report.pomp" 2>"$work/analyze.err" ||
  { cat "$work/analyze.err" >&2; fail "pomp-analyze failed"; }
echo "ok: every rank kept its events up to the last interval before the kill"
