#!/usr/bin/env bash
# recover_cli.sh RECOVER CHECK RCT_DIE ANALYZE RCT_KILL WORK -- pomp-recover's command line
# and its answers to damaged or missing fragments: exact messages naming
# file and byte offset, exit status 1, never a crash; a missing rank is
# recovered without it.
set -uo pipefail
recover=$1 check=$2 prog=$3 analyze=$4 killed=$5 work=$6
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { # expect STATUS "STDERR" -- ARGS...
  local status=$1 err=$2
  shift 3
  local out rc
  out=$("$recover" "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = "$status" ] || fail "pomp-recover $*: exit $rc, expected $status ($out)"
  [ "$out" = "$err" ] || fail "pomp-recover $*: '$out', expected '$err'"
}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$recover" --help | grep -q '^Usage: pomp-recover \[OPTION\]... EXPERIMENT_DIR$' || fail "--help"
"$recover" --version | grep -q '^pomp-recover (pomp) ' || fail "--version"
out=$("$recover" 2>&1); [ $? = 2 ] || fail "no argument: not exit 2"
out=$("$recover" a b 2>&1); [ $? = 2 ] || fail "two arguments: not exit 2"
out=$("$recover" --bogus 2>&1); [ $? = 2 ] || fail "unknown option: not exit 2"
[ "$out" = "pomp-recover: unknown option '--bogus'
Try 'pomp-recover --help'." ] || fail "unknown option: $out"
expect 1 "pomp-recover: nowhere: No such file or directory" -- nowhere
touch file && expect 1 "pomp-recover: file: not an experiment directory" -- file
# no trace and nothing to recover it from (a run killed before its first
# flush, or whose own handler called _exit): an error, pointing at the log
mkdir empty
expect 1 "pomp-recover: empty: no trace (traces.otf2) and no fragments to recover it from: the run ended before writing any (killed early, or its own signal handler exited?); see empty/measure.log" -- empty

POMP_EXPERIMENT=exp timeout 60 mpirun -n 2 "$prog" abort >/dev/null 2>&1
[ -f exp/fragments/0.frag ] && [ -f exp/fragments/1.frag ] || fail "no fragments"
fresh() { rm -rf "$1" && cp -r exp "$1"; }
H=$'\npomp-recover: hint: --skip-damaged recovers the other ranks, this one as missing'

fresh cut && truncate -s 100 cut/fragments/1.frag
expect 1 "pomp-recover: cut/fragments/1.frag: offset 97: host or boot id is cut or not terminated$H" -- cut
[ -e cut/traces.otf2 ] && fail "a failed recovery left traces.otf2"

fresh flip && size=$(stat -c %s flip/fragments/0.frag)
printf '\xff' | dd of=flip/fragments/0.frag bs=1 seek=150 conv=notrunc status=none
expect 1 "pomp-recover: flip/fragments/0.frag: offset $((size - 8)): checksum mismatch (the fragment is damaged)$H" -- flip

fresh magic && printf 'X' | dd of=magic/fragments/1.frag bs=1 seek=0 conv=notrunc status=none
expect 1 "pomp-recover: magic/fragments/1.frag: offset 0: not a pomp fragment (no POMPFRAG magic)$H" -- magic

fresh renamed && mv renamed/fragments/1.frag renamed/fragments/5.frag
expect 1 "pomp-recover: renamed/fragments/5.frag: offset 12: rank 1 in a file named for rank 5$H" -- renamed

# two pomp-recover at once: one recovers, the other waits and then has
# nothing to do; no OTF2 errors
fresh twice
"$recover" twice >twice.1 2>twice.1e & p1=$!
"$recover" twice >twice.2 2>twice.2e & p2=$!
wait $p1 || fail "twice: first failed: $(cat twice.1e)"
wait $p2 || fail "twice: second failed: $(cat twice.2e)"
[ "$(cat twice.1 twice.2 | grep -c ': trace recovered: ')" = 1 ] || fail "twice: not one recovery"
[ "$(cat twice.1 twice.2 | grep -cxF 'twice: nothing to recover')" = 1 ] || fail "twice: not one 'nothing'"
grep -q OTF2 twice.1e twice.2e && fail "twice: OTF2 errors"

# a complete rank's event file cut after it was closed: checked, repaired
# like a partial rank's (here: less than a chunk left, so an empty one)
fresh cutdone && evt=cutdone/traces/0.evt && size=$(stat -c %s "$evt") && truncate -s -5 "$evt"
expect 0 "pomp-recover: warning: $evt: the event file of a complete rank does not end as OTF2 ends one (cut?); repaired as a partial rank's
pomp-recover: warning: $evt: last chunk cut short ($((size - 5)) of 4194304 bytes); truncated to 0 bytes" -- cutdone
"$check" --dump cutdone.dump cutdone/traces.otf2 >/dev/null 2>&1
[ -f cutdone.dump ] && ! grep -q '^0\.0 ' cutdone.dump && grep -q '^1\.0 ' cutdone.dump ||
  fail "cutdone: not read back as rank 0 empty, rank 1 whole"

# --skip-damaged: the damaged fragment is a warning, its rank missing
fresh skip && truncate -s 100 skip/fragments/1.frag
out=$("$recover" --skip-damaged skip 2>skip.err) || fail "--skip-damaged: failed: $(cat skip.err)"
[ "$(cat skip.err)" = "pomp-recover: warning: skip/fragments/1.frag: offset 97: host or boot id is cut or not terminated; its rank is recovered as missing" ] ||
  fail "--skip-damaged warning: $(cat skip.err)"
echo "$out" | grep -qxF "rank 1: missing (no fragment; its events are not in the trace)" ||
  fail "--skip-damaged: rank 1 not missing: $out"

# rank 1 lost its fragment: the others are recovered, rank 1 said missing
fresh missing && rm missing/fragments/1.frag
out=$("$recover" missing) || fail "missing rank: recovery failed"
echo "$out" | grep -qxF "rank 1: missing (no fragment; its events are not in the trace)" ||
  fail "missing rank not reported: $out"
"$check" --dump missing.dump missing/traces.otf2 >/dev/null 2>&1
[ "$(cut -d' ' -f1 missing.dump | sort -u | tr '\n' ' ')" = "0.0 " ] || fail "missing rank: locations"
grep -q "^rank 1: missing" missing/fragments/RECOVERED || fail "RECOVERED lacks the missing rank"
# the missing rank's place in the system tree: a node "unknown host"
# under the machine (not the machine itself)
if command -v otf2-print >/dev/null; then
  otf2-print -G missing/traces.otf2 | grep -q 'LOCATION_GROUP  *1  Name: "MPI Rank 1" <[0-9]*>, Type: PROCESS, Parent: "node::unknown host"' ||
    fail "missing rank not under an 'unknown host' node"
fi
grep -q "pomp-recover: trace completed from fragments: 2 ranks, 1 complete, 0 partial, 1 missing" \
  missing/measure.log || fail "measure.log lacks the recovery line"
"$analyze" -q -o missing.pomp missing || fail "pomp-analyze fails on a trace with a missing rank"

# a run still going (stopped, alive) is not recovered; once killed it is
POMP_EXPERIMENT=live POMP_BUFFER=256k "$killed" 250000 stop >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do case $(ps -o stat= -p "$pid") in T*) break ;; esac; sleep 0.1; done
expect 1 "pomp-recover: live: the run is still going (rank 0 is pid $pid on this host); recover it once it has ended" -- live
[ -e live/traces.otf2 ] && fail "a run still going was recovered"
kill -KILL "$pid"; wait "$pid" 2>/dev/null
"$recover" live >/dev/null 2>&1 || fail "the killed run was not recovered"

# killed after 3 flushes of 256k, which OTF2 still held in memory (its
# 4 MiB file buffer): no events on disk, said per rank and warned
POMP_EXPERIMENT=noevt POMP_BUFFER=256k "$killed" 40000 >/dev/null 2>&1
[ "$(stat -c %s noevt/traces/0.evt)" = 0 ] || fail "noevt: events on disk"
out=$("$recover" noevt 2>noevt.err) || fail "noevt: recovery failed"
echo "$out" | grep -qxF "rank 0: events up to its last buffer flush: no events on disk (buffer flush)" ||
  fail "noevt: $out"
[ "$(cat noevt.err)" = "pomp-recover: warning: noevt: rank 0 has no events on disk (killed before a buffer flush or a copy to disk reached it); see noevt/measure.log
pomp-recover: note: noevt: 1 of 1 ranks kept their events up to their last buffer flush (no copy to disk was taken: the run was shorter than POMP_FLUSH_INTERVAL, default 10 s, or it was 0); a shorter POMP_FLUSH_INTERVAL keeps more" ] ||
  fail "noevt warning: $(cat noevt.err)"

# with a buffer of 4 MiB or more every flush reaches the disk (chunks of
# 4 MiB pass OTF2's file buffer): after SIGKILL, all flushed chunks are there
POMP_EXPERIMENT=durable POMP_BUFFER=6M "$killed" 1500000 >/dev/null 2>&1
flushes=$(grep -c "flushed to disk" durable/measure.log)
[ "$flushes" -gt 0 ] && [ "$(stat -c %s durable/traces/0.evt)" = $((flushes * 4194304)) ] ||
  fail "durable: $flushes flushes, $(stat -c %s durable/traces/0.evt) bytes on disk"

# a write cut short by SIGKILL: 1000 bytes of a next chunk
POMP_EXPERIMENT=cutevt POMP_BUFFER=256k "$killed" 250000 >/dev/null 2>&1
evt=cutevt/traces/0.evt
size=$(stat -c %s "$evt")
[ $((size % 262144)) = 0 ] && [ "$size" -gt 0 ] || fail "unexpected event file size $size"
head -c 1000 /dev/urandom >>"$evt"
expect 0 "pomp-recover: warning: $evt: last chunk cut short (1000 of 262144 bytes); truncated to $size bytes
pomp-recover: note: cutevt: 1 of 1 ranks kept their events up to their last buffer flush (no copy to disk was taken: the run was shorter than POMP_FLUSH_INTERVAL, default 10 s, or it was 0); a shorter POMP_FLUSH_INTERVAL keeps more" -- cutevt
"$check" --dump cut.dump cutevt/traces.otf2 >/dev/null 2>&1
[ "$(grep -c '^0.0 Enter step' cut.dump)" -gt 100000 ] || fail "cut event file: events not read back"
# a program without OpenMP is named Nx1, whatever OMP_NUM_THREADS says
OMP_NUM_THREADS=2 "$killed" 10 int >/dev/null 2>&1
[ -d pomp_rct_kill_1x1 ] || fail "program without OpenMP: $(ls -d pomp_rct_kill_* 2>/dev/null)"
echo ok
