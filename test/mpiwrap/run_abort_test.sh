#!/usr/bin/env bash
# run_abort_test.sh PLAIN TRACED WORKDIR -- MPI_Abort ends a 2-rank run
# with the same (failing) exit status with and without libpomp-mpi.
plain=$1 traced=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
env -u POMP_EXPERIMENT timeout 60 mpirun -n 2 "$plain" >/dev/null 2>&1
a=$?
POMP_EXPERIMENT="$work/exp" timeout 60 mpirun -n 2 "$traced" >/dev/null 2>&1
b=$?
echo "exit status without libpomp-mpi $a, with $b"
[ "$a" -ne 0 ] && [ "$a" -ne 124 ] && [ "$a" -eq "$b" ]
