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
"$recover" --help | grep -q '^usage: pomp-recover EXPERIMENT_DIR$' || fail "--help"
"$recover" --version | grep -q '^pomp-recover (pomp) ' || fail "--version"
out=$("$recover" 2>&1); [ $? = 2 ] || fail "no argument: not exit 2"
out=$("$recover" a b 2>&1); [ $? = 2 ] || fail "two arguments: not exit 2"
out=$("$recover" --bogus 2>&1); [ $? = 2 ] || fail "unknown option: not exit 2"
expect 1 "pomp-recover: nowhere: No such file or directory" -- nowhere
touch file && expect 1 "pomp-recover: file: not an experiment directory" -- file
mkdir empty && [ "$("$recover" empty)" = "empty: nothing to recover" ] || fail "empty dir"

POMP_EXPERIMENT=exp timeout 60 mpirun -n 2 "$prog" abort >/dev/null 2>&1
[ -f exp/fragments/0.frag ] && [ -f exp/fragments/1.frag ] || fail "no fragments"
fresh() { rm -rf "$1" && cp -r exp "$1"; }

fresh cut && truncate -s 100 cut/fragments/1.frag
expect 1 "pomp-recover: cut/fragments/1.frag: offset 97: host or boot id is cut or not terminated" -- cut
[ -e cut/traces.otf2 ] && fail "a failed recovery left traces.otf2"

fresh flip && size=$(stat -c %s flip/fragments/0.frag)
printf '\xff' | dd of=flip/fragments/0.frag bs=1 seek=150 conv=notrunc status=none
expect 1 "pomp-recover: flip/fragments/0.frag: offset $((size - 8)): checksum mismatch (the fragment is damaged)" -- flip

fresh magic && printf 'X' | dd of=magic/fragments/1.frag bs=1 seek=0 conv=notrunc status=none
expect 1 "pomp-recover: magic/fragments/1.frag: offset 0: not a pomp fragment (no POMPFRAG magic)" -- magic

fresh renamed && mv renamed/fragments/1.frag renamed/fragments/5.frag
expect 1 "pomp-recover: renamed/fragments/5.frag: offset 12: rank 1 in a file named for rank 5" -- renamed

# rank 1 lost its fragment: the others are recovered, rank 1 said missing
fresh missing && rm missing/fragments/1.frag
out=$("$recover" missing) || fail "missing rank: recovery failed"
echo "$out" | grep -qxF "rank 1: missing (no fragment; its events are not in the trace)" ||
  fail "missing rank not reported: $out"
"$check" --dump missing.dump missing/traces.otf2 >/dev/null 2>&1
[ "$(cut -d' ' -f1 missing.dump | sort -u | tr '\n' ' ')" = "0.0 " ] || fail "missing rank: locations"
grep -q "^rank 1: missing" missing/fragments/RECOVERED || fail "RECOVERED lacks the missing rank"
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

# a write cut short by SIGKILL: 1000 bytes of a next chunk
POMP_EXPERIMENT=cutevt POMP_BUFFER=256k "$killed" 250000 >/dev/null 2>&1
evt=cutevt/traces/0.evt
size=$(stat -c %s "$evt")
[ $((size % 262144)) = 0 ] && [ "$size" -gt 0 ] || fail "unexpected event file size $size"
head -c 1000 /dev/urandom >>"$evt"
expect 0 "pomp-recover: warning: $evt: last chunk cut short (1000 of 262144 bytes); truncated to $size bytes" -- cutevt
"$check" --dump cut.dump cutevt/traces.otf2 >/dev/null 2>&1
[ "$(grep -c '^0.0 Enter step' cut.dump)" -gt 100000 ] || fail "cut event file: events not read back"
echo ok
