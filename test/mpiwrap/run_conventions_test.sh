#!/bin/sh
# run_conventions_test.sh TRACEGEN MW_CHECK TRACE WORK [MESSAGE...]: mw_check
# refuses a trace that breaks Score-P's conventions (old_conventions.trace)
# and names every broken one: it is the check that every mpiwrap e2e test
# relies on. With MESSAGEs (broken_rma.trace): those must be named instead.
tracegen=$1 check=$2 trace=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work" || exit 1
"$tracegen" "$trace" "$work/exp" || exit 1
"$check" "$work/exp/traces.otf2" >"$work/out" 2>"$work/err"
status=$?
failures=0
[ "$status" = 1 ] || { echo "FAIL: mw_check exited $status, expected 1"; failures=1; }
[ $# -gt 0 ] || set -- "location ids are not Score-P's thread << 32 | rank" \
  "MPI region MPI_Isend: source file '', not 'MPI'" \
  "location 0: MpiIsend at 15, its call entered at 10" \
  "location 4294967296: MpiIrecvRequest at 12, its call entered at 10" \
  "a rank leaves MPI_Finalize at 40, before another enters it at 45" \
  "location 4294967296: named 'Master thread', not 'OMP thread 1'"
for want in "$@"; do
  grep -qF "$want" "$work/err" || { echo "FAIL: no '$want' in: $(cat "$work/err")"; failures=1; }
done
[ "$failures" = 0 ] && echo "ok: every broken convention named"
exit "$failures"
