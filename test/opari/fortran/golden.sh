#!/bin/sh
# golden.sh OPARI INPUT EXPECTED [FC CC]
# Golden test of the Fortran front end: runs pomp-opari on INPUT (from its
# directory) and compares the Fortran output followed by its companion C
# file exactly with EXPECTED, after normalising the source directory to
# @SRCDIR@ and the unit id in pomp_<id>_ names to pomp_UNIT_.  Inputs
# named err_* must fail: EXPECTED then holds the diagnostics, the exit
# status, and no output file may exist.  Options come from a first line
# "! opari: OPTIONS".  With FC and CC given, the output must compile
# (FC -fsyntax-only -fopenmp, companion with CC -Wall -Wextra -Werror).
# With POMP_REGEN_GOLDEN=1 EXPECTED is rewritten instead (review the diff!).
set -u
opari=$1 input=$2 expected=$3 fc=${4:-} cc=${5:-}
. "$(dirname "$0")/common.sh"
opts=
case $(head -1 "$input") in "! opari:"*) opts=$(sed -n '1s|^! opari: ||p' "$input") ;; esac
out="$work/out.$ext"
(cd "$dir" && "$opari" $opts "$name" "$out") >"$work/stdout" 2>"$work/stderr"
status=$?
normalise() { sed -e "s|$dir|@SRCDIR@|g" -e 's/pomp_[0-9a-f]\{8\}_/pomp_UNIT_/g' "$@"; }
case $name in
err_*)
  { cat "$work/stderr"; echo "exit $status"; } >"$work/actual"
  if [ -e "$out" ] || [ -e "$out.pomp.c" ]; then echo "FAIL: partial output written"; exit 1; fi ;;
*)
  if [ $status -ne 0 ]; then cat "$work/stderr"; echo "FAIL: exit $status"; exit 1; fi
  { normalise "$out"; echo "---- companion $name.pomp.c ----"; normalise "$out.pomp.c"
    sed 's/^/stderr: /' "$work/stderr"; } >"$work/actual"
  if [ -n "$fc" ]; then
    (cd "$work" && "$fc" -fsyntax-only -fopenmp -I"$dir" "$out") ||
      { echo "FAIL: instrumented output does not compile with $fc"; exit 1; }
    "$cc" -fsyntax-only -Wall -Wextra -Werror -I"$include" "$out.pomp.c" ||
      { echo "FAIL: companion does not compile with $cc"; exit 1; }
  fi ;;
esac
if [ "${POMP_REGEN_GOLDEN:-0}" = 1 ]; then cp "$work/actual" "$expected"; exit 0; fi
diff -u "$expected" "$work/actual" || { echo "FAIL: output differs from $expected"; exit 1; }
