#!/bin/sh
# A trace that fails only in the backward passes (a Leave of an undefined
# region: the forward pass warns, the delay pass's and the critical path's
# handlers fail at it) on one location of a ring of 4 ranks, read in
# several windows: MPIEXEC -n 2, 3, 4 pomp-analyze must end as the serial
# analysis does, in time (no process waits for an end never sent), with
# its exit status and the one line it says, whichever analysis process
# reads the location (0, 1 or another), with the delay pass or without
# (--no-rootcause: the critical path's handlers alone), at the first
# event the backward passes read or halfway.  The forward pass's failure
# too: one line, process 0's.
# Usage: parallel_fail_test.sh MPIEXEC POMP_ANALYZE POMP_TRACEGEN
set -u
mpiexec=$1 analyze=$2 tracegen=$3
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-pfail.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
# bad WHERE RANK EVENT: the ring with EVENT (leave/enter) of region 99 on
# RANK's location, after its last event (end: the backward passes' first)
# or after its 12000th (middle: an Enter of work before, to keep nesting)
bad() {
  "$here/ring_trace.sh" 3000 | awk -v loc="loc $2.0" -v where="$1" -v ev="$3" '
    function bad() {
      if (where == "middle") print last " enter work"
      print last " " ev " @99"; done = 1
    }
    /^loc / { if (cur == loc && where == "end") bad(); cur = $0; n = 0 }
    /^[0-9]/ { last = $1; n++ }
    { print }
    cur == loc && where == "middle" && n == 12000 && !done { bad() }
    END { if (cur == loc && where == "end") bad() }'
}
# same NAME P [SWITCH]: mpiexec -n P ends as the serial analysis (-q:
# the error alone; SWITCH --verbose: without -q, the warnings too)
same() {
  opt="-q ${3:-}" lines=1
  [ "${3:-}" = --verbose ] && opt='' lines=3 # the warning, the error, the count
  # shellcheck disable=SC2086 # $opt: options
  "$analyze" $opt -o "$work/s.pomp" "$work/$1" 2>"$work/s.err" >/dev/null
  serial=$?
  # shellcheck disable=SC2086
  timeout 120 "$mpiexec" -n "$2" "$analyze" $opt -o "$work/p.pomp" "$work/$1" \
    2>"$work/p.err" >/dev/null
  status=$?
  what="$1, $2 analysis processes${3:+ $3}"
  if [ "$serial" = 0 ] || [ "$(wc -l <"$work/s.err")" != $lines ]; then
    echo "FAIL: $what: the serial analysis exited $serial: $(cat "$work/s.err")"
    failures=$((failures + 1))
  elif [ "$status" != "$serial" ] || ! cmp -s "$work/s.err" "$work/p.err"; then
    echo "FAIL: $what: exit $status (serial $serial), said: $(cat "$work/p.err")"
    echo "  serial said: $(cat "$work/s.err")"
    failures=$((failures + 1))
  else
    echo "ok: $what: exit $status, $(grep -v warning "$work/p.err" | head -n 1)"
  fi
}
for where in end middle; do
  for rank in 0 1 2 3; do
    name=$where$rank
    bad $where $rank leave >"$work/$name.trace" || { echo "FAIL: trace $name"; exit 1; }
    "$tracegen" "$work/$name.trace" "$work/$name" || { echo "FAIL: tracegen $name"; exit 1; }
    for p in 2 3 4; do
      same "$name" $p
      same "$name" $p --no-rootcause
    done
  done
done
for p in 2 3 4; do same middle2 $p --verbose; done
# a failure in the middle of the walk while process 1's walker thread has
# every window of its queue (one) or walks on the replay thread (0)
for queue in 1 0; do
  export POMP_ANALYZE_WALK_QUEUE=$queue
  for rank in 0 1 3; do
    same middle$rank 3
    same middle$rank 4 --no-rootcause
  done
done
unset POMP_ANALYZE_WALK_QUEUE
# an Enter of an undefined region fails the forward pass
bad middle 2 enter >"$work/forward.trace" || { echo "FAIL: trace forward"; exit 1; }
"$tracegen" "$work/forward.trace" "$work/forward" || { echo "FAIL: tracegen forward"; exit 1; }
for p in 2 3 4; do same forward $p; done
exit "$failures"
