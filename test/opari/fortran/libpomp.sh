#!/bin/sh
# libpomp.sh OPARI LIBPOMP INPUT FC CC DESCRIPTORS
# An instrumented Fortran program against the real libpomp (not the
# logging test library): it prints what the original prints, writes an
# experiment with a trace, and libpomp saw exactly DESCRIPTORS
# descriptors registered by the companion file's constructor.
set -u
opari=$1 libpomp=$2 input=$3 fc=$4 cc=$5 descriptors=$6
. "$(dirname "$0")/common.sh"
instrument_and_build_orig
"$cc" -c -I"$include" -o "$work/companion.o" "$work/inst.$ext.pomp.c" || exit 1
"$fc" -fopenmp -J"$work" -o "$work/inst" "$work/inst.$ext" "$work/companion.o" "$libpomp" \
  -Wl,-rpath,"$(dirname "$libpomp")" || { echo "FAIL: instrumented program does not link"; exit 1; }
export OMP_NUM_THREADS=4 OMP_DYNAMIC=false
"$work/orig" >"$work/orig.out" || { echo "FAIL: original exits $?"; exit 1; }
POMP_EXPERIMENT="$work/exp" "$work/inst" >"$work/inst.out" || { echo "FAIL: instrumented exits $?"; exit 1; }
diff -u "$work/orig.out" "$work/inst.out" || { echo "FAIL: instrumented program prints something else"; exit 1; }
[ -s "$work/exp/traces.otf2" ] || { echo "FAIL: no trace in the experiment"; exit 1; }
grep -qx "$descriptors descriptors registered by instrumented units" "$work/exp/measure.log" ||
  { cat "$work/exp/measure.log"; echo "FAIL: expected $descriptors registered descriptors"; exit 1; }
