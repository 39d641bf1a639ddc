#!/bin/sh
# az_parallel_node_procs: the node's analysis processes from the
# launcher's variable, with no collective; else MPI_Comm_split_type on
# every process: without the variables, with one not a number, with one
# above MPI_COMM_WORLD's processes (left over from a launcher outside).
# SPLIT_COUNT (split_count.c, preloaded) says each MPI_Comm_split_type.
# Usage: node_procs_test.sh MPIEXEC POMP_ANALYZE POMP_TRACEGEN DATA_DIR SPLIT_COUNT
set -u
mpiexec=$1 analyze=$2 tracegen=$3 data=$4 shim=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-nodes.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$tracegen" "$data/late_sender.trace" "$work/t" || { echo "FAIL: tracegen"; exit 1; }
"$analyze" -q "$work/t" || { echo "FAIL: serial analysis"; exit 1; }
# an ASan build: the preloaded library comes before ASan's runtime
asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
failures=0
# splits WANT WHAT ENV...: mpiexec -n 3 pomp-analyze, each process with
# ENV, makes WANT calls of MPI_Comm_split_type and the serial report
splits() {
  want=$1 what=$2
  shift 2
  "$mpiexec" -n 3 env "$@" LD_PRELOAD="$shim" ASAN_OPTIONS="$asan" \
    "$analyze" -q -o "$work/p.pomp" "$work/t" 2>"$work/err"
  rc=$?
  got=$(grep -c '^MPI_Comm_split_type$' "$work/err")
  if [ $rc -eq 0 ] && [ "$got" -eq "$want" ] && cmp -s "$work/t/report.pomp" "$work/p.pomp"; then
    echo "ok: $what: $got MPI_Comm_split_type, identical report"
  else
    echo "FAIL: $what: exit $rc, $got MPI_Comm_split_type (want $want)"
    cat "$work/err"
    failures=$((failures + 1))
  fi
}
no_vars="-u MPI_LOCALNRANKS -u OMPI_COMM_WORLD_LOCAL_SIZE"
# the launchers set their variable in each process (env -u before mpiexec
# would not remove it); one that sets neither skips this case
if "$mpiexec" -n 1 env | grep -q '^\(MPI_LOCALNRANKS\|OMPI_COMM_WORLD_LOCAL_SIZE\)=[1-9]'; then
  splits 0 "the launcher's count"
else
  echo "skipped: $mpiexec sets neither MPI_LOCALNRANKS nor OMPI_COMM_WORLD_LOCAL_SIZE"
fi
# shellcheck disable=SC2086 # $no_vars: several words
splits 3 "no launcher's count" $no_vars
# shellcheck disable=SC2086
splits 3 "a count not a number" $no_vars MPI_LOCALNRANKS=3x OMPI_COMM_WORLD_LOCAL_SIZE=x3
# shellcheck disable=SC2086
splits 3 "a count above the world's processes" $no_vars MPI_LOCALNRANKS=64 \
  OMPI_COMM_WORLD_LOCAL_SIZE=64
[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
