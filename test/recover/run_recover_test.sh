#!/usr/bin/env bash
# run_recover_test.sh -- one pomp-recover end-to-end test:
#   run_recover_test.sh WORK RECOVER CHECK RANKS [options] -- COMMAND...
# Runs COMMAND (RANKS = 0: a process without MPI, else under mpirun -n
# RANKS) with POMP_EXPERIMENT=WORK/exp; the run must die (no traces.otf2)
# and leave fragments. Then pomp-recover WORK/exp must succeed and print
# each --line given; CHECK (mw_check) reads the recovered trace back and
# dumps every location's records; a second pomp-recover says "nothing to
# recover". Options:
#   --status N       the run's exit status must be N
#   --line TEXT      pomp-recover prints this line
#   --match REGEX    pomp-recover prints a line matching this (grep -E, whole line)
#   --golden FILE    the dump equals FILE
#   --prefix-of DIR  every location's records (TRACE BUFFER FLUSH left out)
#                    are a prefix (non-empty for master threads) of those in DIR/dump (a
#                    complete run of the same program), those of --whole
#                    ranks equal them
#   --whole R        rank R must have all its records (with --prefix-of)
#   --analyze BIN    pomp-analyze BIN completes on the recovered experiment
#   --env NAME=VAL   in the run's environment
#   --interrupt FILE once FILE exists (the program creates it when ready),
#                    mpirun gets SIGINT, as from Ctrl-C
#   --cut            the run was interrupted anywhere: mw_check may find
#                    collectives or messages some ranks did not reach
#   --reference      the run must instead write a whole trace and leave no
#                    fragments (a run to compare with); only the dump is made
set -uo pipefail
work=$1 recover=$2 check=$3 ranks=$4
shift 4
status= golden= prefix= analyze= reference= interrupt= cut= lines=() matches=() whole=() envs=()
while [ "$1" != -- ]; do
  case $1 in
    --status) status=$2 ;; --line) lines+=("$2") ;; --golden) golden=$2 ;;
    --match) matches+=("$2") ;;
    --prefix-of) prefix=$2 ;; --whole) whole+=("$2") ;; --analyze) analyze=$2 ;;
    --env) envs+=("$2") ;;
    --interrupt) interrupt=$2 ;;
    --reference) reference=1; shift; continue ;;
    --cut) cut=1; shift; continue ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
shift
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
exp=$work/exp
if [ "$ranks" = 0 ]; then
  env POMP_EXPERIMENT="$exp" "${envs[@]}" timeout 60 "$@" >"$work/run.out" 2>&1
elif [ -n "$interrupt" ]; then
  rm -f "$interrupt"
  env POMP_EXPERIMENT="$exp" "${envs[@]}" mpirun -n "$ranks" "$@" >"$work/run.out" 2>&1 &
  pid=$!
  for _ in $(seq 300); do [ -e "$interrupt" ] && break; sleep 0.1; done
  [ -e "$interrupt" ] || { kill -KILL "$pid"; fail "the program never got ready"; }
  kill -INT "$pid"
  wait "$pid"
else
  env POMP_EXPERIMENT="$exp" "${envs[@]}" timeout 60 mpirun -n "$ranks" "$@" >"$work/run.out" 2>&1
fi
rc=$?
[ "$rc" = 124 ] && fail "the run hung"
if [ -n "$reference" ]; then
  [ -f "$exp/traces.otf2" ] || fail "the reference run wrote no trace"
  [ -e "$exp/fragments" ] && fail "the reference run left fragments"
  "$check" --dump "$work/dump" "$exp/traces.otf2" >"$work/check.out" 2>&1 ||
    { cat "$work/check.out" >&2; fail "mw_check found problems"; }
  echo "ok: reference, $(wc -l <"$work/dump") records"
  exit 0
fi
[ -z "$status" ] || [ "$rc" = "$status" ] || fail "exit status $rc, expected $status"
[ -e "$exp/traces.otf2" ] && fail "the run wrote a whole trace"
ls "$exp"/fragments/*.frag >/dev/null 2>&1 || fail "no fragments in $exp"
"$recover" "$exp" >"$work/recover.out" 2>&1 || { cat "$work/recover.out" >&2; fail "pomp-recover failed"; }
for l in "${lines[@]}"; do
  grep -qxF -- "$l" "$work/recover.out" || { cat "$work/recover.out" >&2; fail "no line '$l'"; }
done
for m in "${matches[@]}"; do
  grep -qxE -- "$m" "$work/recover.out" || { cat "$work/recover.out" >&2; fail "no line like '$m'"; }
done
[ -f "$exp/traces.otf2" ] || fail "no traces.otf2 after recovery"
"$check" --dump "$work/dump" "$exp/traces.otf2" >"$work/check.out" 2>&1
crc=$?
[ -f "$work/dump" ] || { cat "$work/check.out" >&2; fail "the recovered trace cannot be read"; }
# a partial rank's messages may lack their partner: only a complete run must check clean
[ -n "$prefix$cut" ] || [ "$crc" = 0 ] || { cat "$work/check.out" >&2; fail "mw_check found problems"; }
if [ -n "$golden" ] && ! diff -u "$golden" "$work/dump"; then fail "records differ from $golden"; fi
if [ -n "$prefix" ]; then
  for loc in $(cut -d' ' -f1 "$prefix/dump" | sort -u); do
    grep "^$loc " "$prefix/dump" | grep -v 'TRACE BUFFER FLUSH' >"$work/full.$loc"
    grep "^$loc " "$work/dump" | grep -v 'TRACE BUFFER FLUSH' >"$work/part.$loc"
    n=$(wc -l <"$work/part.$loc")
    # a master thread flushed at least once; other threads may never have
    [ "$n" -gt 0 ] || [ "${loc#*.}" != 0 ] || fail "location $loc: nothing recovered"
    head -n "$n" "$work/full.$loc" | cmp -s - "$work/part.$loc" ||
      fail "location $loc: records are not a prefix of the complete run's"
    for r in "${whole[@]}"; do
      [ "$loc" != "$r.0" ] || cmp -s "$work/full.$loc" "$work/part.$loc" ||
        fail "rank $r: not all its records"
    done
    echo "location $loc: $n of $(wc -l <"$work/full.$loc") records"
  done
fi
again=$("$recover" "$exp" 2>&1) || fail "second pomp-recover failed"
[ "$again" = "$exp: nothing to recover" ] || fail "second pomp-recover: $again"
if [ -n "$analyze" ]; then
  "$analyze" -q -o "$work/report.pomp" "$exp" >"$work/analyze.out" 2>&1 || { cat "$work/analyze.out" >&2; fail "pomp-analyze failed"; }
fi
echo "ok: $(tail -n 1 "$work/recover.out")"
