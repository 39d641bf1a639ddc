#!/bin/sh
# cli.sh OPARI -- the command line for Fortran units: --lang overrides the
# extension, the companion OUTPUT.pomp.c is written with OUTPUT, and a
# failure writes neither (nor touches an older companion).
set -u
opari=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
printf '!$omp parallel\n!$omp end parallel\n' >free.txt
printf 'C$OMP PARALLEL\nC$OMP END PARALLEL\n' >fixed.txt
"$opari" --lang=f90 free.txt out.f90 || fail "--lang=f90"
grep -q '^call pomp_[0-9a-f]\{8\}_parallel_fork(0)$' out.f90 || fail "free form not instrumented"
grep -q 'POMP_Register(pomp_rd, 1)' out.f90.pomp.c || fail "no companion"
"$opari" --lang=f77 fixed.txt out.f || fail "--lang=f77"
grep -q '^      call pomp_[0-9a-f]\{8\}_parallel_fork(0)$' out.f || fail "fixed form not instrumented"
# the unit id depends on the source and the output name: two outputs differ
"$opari" --lang=f90 free.txt other.f90 || fail "second output"
[ "$(grep -o 'pomp_[0-9a-f]*_' out.f90 | head -1)" != "$(grep -o 'pomp_[0-9a-f]*_' other.f90 | head -1)" ] ||
  fail "same unit id for two outputs"
printf '!$omp parallel\n' >bad.f90
echo old >bad.out.pomp.c
"$opari" bad.f90 bad.out 2>err; status=$?
[ $status -eq 1 ] || fail "exit $status for a bad unit"
grep -qx 'bad.f90:1: error: .*' err || fail "diagnostic: $(cat err)"
[ ! -e bad.out ] || fail "partial output"
[ "$(cat bad.out.pomp.c)" = old ] || fail "older companion touched"
expected="bad.f90 bad.out.pomp.c err fixed.txt free.txt other.f90 other.f90.pomp.c out.f out.f.pomp.c out.f90 out.f90.pomp.c"
[ "$(LC_ALL=C ls | tr '\n' ' ')" = "$expected " ] || fail "files left: $(ls | tr '\n' ' ')"
"$opari" --help | grep -q 'f77|f90' || fail "--help does not name the Fortran languages"
exit 0
