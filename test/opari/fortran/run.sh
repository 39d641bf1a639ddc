#!/bin/sh
# run.sh OPARI POMP_LOG_LIB INPUT EXPECTED_LOG FC CC [THREADS] [sorted]
# Compile-and-run test of the Fortran front end: INPUT is built as is and
# instrumented (its companion C file compiled with CC, linked with the
# logging POMP library); both run with OMP_NUM_THREADS=THREADS (default 4)
# and must print the same; the per-thread POMP event log must equal
# EXPECTED_LOG exactly ("sorted": thread ids dropped and lines sorted, for
# constructs whose thread assignment is not deterministic).
# With POMP_REGEN_GOLDEN=1 EXPECTED_LOG is rewritten instead.
set -u
opari=$1 lib=$2 input=$3 expected=$4 fc=$5 cc=$6 threads=${7:-4} mode=${8:-}
. "$(dirname "$0")/common.sh"
instrument_and_build_orig
"$cc" -c -Wall -Wextra -Werror -I"$include" -o "$work/companion.o" "$work/inst.$ext.pomp.c" ||
  { echo "FAIL: companion does not build"; exit 1; }
"$fc" -fopenmp -J"$work" -Wall -Werror -Wno-unused-variable -o "$work/inst" "$work/inst.$ext" \
  "$work/companion.o" "$lib" || { echo "FAIL: instrumented program does not build"; exit 1; }
export OMP_NUM_THREADS=$threads OMP_DYNAMIC=false
"$work/orig" >"$work/orig.out" || { echo "FAIL: original exits $?"; exit 1; }
POMP_LOG="$work/log" POMP_LOG_SORTED=$([ "$mode" = sorted ] && echo 1 || echo 0) \
  "$work/inst" >"$work/inst.out" || { echo "FAIL: instrumented exits $?"; exit 1; }
diff -u "$work/orig.out" "$work/inst.out" || { echo "FAIL: instrumented program prints something else"; exit 1; }
if [ "${POMP_REGEN_GOLDEN:-0}" = 1 ]; then cp "$work/log" "$expected"; exit 0; fi
diff -u "$expected" "$work/log" || { echo "FAIL: event log differs from $expected"; exit 1; }
