#!/bin/sh
# pcc_run.sh POMP_CC POMP_LOG_LIB EXPECTED_LOG CC THREADS SOURCE [FLAGS...]
# pomp-cc (preprocessing first, as by default) compiles SOURCE with FLAGS
# (-c, from SOURCE's directory, so descriptors name files as written); the
# object is linked with the logging POMP library pomp_log.c.  The program,
# also built plainly, must print the same, and the per-thread POMP event
# log must equal EXPECTED_LOG exactly. $POMP_CC_OPTS: more pomp-cc options.  POMP_REGEN_GOLDEN=1 rewrites it.
set -u
pcc=$1 lib=$2 expected=$3 cc=$4 threads=$5 input=$6
shift 6
dir=$(cd "$(dirname "$input")" && pwd -P)
name=$(basename "$input")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$dir" || exit 1
# Fortran module files go to the work directory, not next to the source
case $name in *.f | *.F | *.f90 | *.F90) set -- "$@" -J"$work" ;; esac
"$pcc" --no-functions ${POMP_CC_OPTS:-} "$cc" -fopenmp -Wall -Wextra -Werror "$@" -c "$name" -o "$work/inst.o" ||
  { echo "FAIL: pomp-cc"; exit 1; }
"$cc" -fopenmp -o "$work/inst" "$work/inst.o" "$lib" || { echo "FAIL: link"; exit 1; }
"$cc" -fopenmp "$@" -o "$work/orig" "$name" || { echo "FAIL: original does not build"; exit 1; }
export OMP_NUM_THREADS=$threads OMP_DYNAMIC=false
"$work/orig" >"$work/orig.out" || { echo "FAIL: original exits $?"; exit 1; }
POMP_LOG="$work/log" "$work/inst" >"$work/inst.out" || { echo "FAIL: instrumented exits $?"; exit 1; }
diff -u "$work/orig.out" "$work/inst.out" || { echo "FAIL: instrumented program prints something else"; exit 1; }
if [ "${POMP_REGEN_GOLDEN:-0}" = 1 ]; then cp "$work/log" "$expected"; exit 0; fi
diff -u "$expected" "$work/log" || { echo "FAIL: event log differs from $expected"; exit 1; }
