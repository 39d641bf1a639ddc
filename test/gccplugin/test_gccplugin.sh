#!/usr/bin/env bash
# test_gccplugin.sh POMP_CC SOURCES -- user functions instrumented by
# pomp-cc with pomp's GCC plugin (gccplugin/), its compile-time filter, and
# the fallbacks (--no-plugin: -finstrument-functions; clang:
# -finstrument-functions-after-inlining). Exact event counts from
# otf2-print; exit 77 (skipped) when the build has no plugin.
set -u
. "$(dirname "$0")/../pomp_expect.sh" # fail, expect_eq
pcc=$1 src=$2
work=$(mktemp -d /tmp/pomp-gccplugin-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$src"/*.cpp "$src"/*.c "$src"/*.f90 "$work"/
cd "$work" || exit 1
export OMP_NUM_THREADS=2
# run EXP PROGRAM: runs it with experiment directory EXP, output in $out
run() {
  out=$(POMP_EXPERIMENT=$work/$1 "./$2") || fail "$2 exited with $?"
}
# enters EXP NAME: number of Enter events of the region named NAME
enters() {
  otf2-print "$work/$1/traces.otf2" 2>/dev/null | grep '^ENTER ' | grep -cF "Region: \"$2\""
}
# calls of the hooks in function NAME's code in BINARY (0: costs nothing)
hook_calls() {
  objdump -d --no-show-raw-insn -C "$1" |
    awk -v f="<$2>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' | grep -c '__cyg_profile_func'
}

"$pcc" --verbose g++ -c accessors.cpp -o /dev/null 2>&1 | grep -q 'user functions: GCC plugin' || {
  echo "no GCC plugin in this build: skipped"
  exit 77
}

# --- C++: accessors inlined into the hot loop are not recorded -----------
"$pcc" g++ -fopenmp -O2 -o acc accessors.cpp || fail "C++ build"
run e_acc acc
expect_eq "C++ output" "$out" "$(printf 'caught 1\ncaught 3\ntotal=937.500 sizes=4')"
expect_eq "Field::at not recorded" "$(enters e_acc 'Field::at(int)')" 0
expect_eq "Field::size not recorded" "$(enters e_acc 'Field::size() const')" 0
expect_eq "relax recorded" "$(enters e_acc 'relax(Field&)')" 4
expect_eq "sweep (inlined by GCC) kept: leads to OpenMP" "$(enters e_acc 'sweep(Field&, double&)')" 1
expect_eq "main" "$(enters e_acc main)" 1
# 4 regions of 2 threads
expect_eq "parallel regions" "$(otf2-print e_acc/traces.otf2 | grep -c 'ENTER .*"!\$omp parallel @accessors.cpp:22"')" 8
# the call tree: main > the constructor (a phase of main: it has a loop),
# then main > sweep > relax > the parallel region
expect_eq "call tree" "$(otf2-print -L 0 e_acc/traces.otf2 | grep -oE '^ENTER .*Region: "[^"]*"' |
  sed 's/.*Region: //' | head -n 5 | tr -d '"' | tr '\n' '|')" \
  "main|Field::Field(int)|sweep(Field&, double&)|relax(Field&)|!\$omp parallel @accessors.cpp:22|"

# --- C++ exceptions: the Leaves of the unwound functions come first -------
expect_eq "exception: balanced, in order" "$(otf2-print -L 0 e_acc/traces.otf2 |
  grep -oE '^(ENTER|LEAVE) .*Region: "(guarded|check|note_caught)\(int\)"' |
  sed -E 's/^(ENTER|LEAVE) .*Region: "([a-z_]*).*/\1 \2/' | tr '\n' ',')" \
  "$(for k in 0 1 2 3; do
       printf 'ENTER guarded,ENTER check,LEAVE check,LEAVE guarded,'
       [ $((k % 2)) = 1 ] && printf 'ENTER note_caught,LEAVE note_caught,'
     done)"

# --- compile-time filter: no hook in the code of an excluded function -----
printf '# tests\nexclude excluded_*\n' >leaf.filter
"$pcc" --filter leaf.filter gcc -O2 -o leaf leaf.c || fail "C build with --filter"
run e_leaf leaf
expect_eq "C output" "$out" "s=49146.25"
expect_eq "filter: excluded_sum not recorded" "$(enters e_leaf excluded_sum)" 0
expect_eq "filter: no hook call in excluded_sum" "$(hook_calls leaf excluded_sum)" 0
expect_eq "smooth recorded" "$(enters e_leaf smooth)" 5
expect_eq "straight-line leaf mix not recorded" "$(enters e_leaf mix)" 0
expect_eq "no hook call in mix" "$(hook_calls leaf mix)" 0
"$pcc" --all-functions gcc -O2 -o leaf_all leaf.c || fail "C build with --all-functions"
run e_leaf_all leaf_all
expect_eq "--all-functions: mix recorded" "$(enters e_leaf_all mix)" 495
expect_eq "--all-functions: excluded_sum recorded" "$(enters e_leaf_all excluded_sum)" 5
# --- the instrumentation used is said: measure.log, the report, stat ------
said="GCC plugin (after inlining) in 1 object; compile-time filter $work/leaf.filter in 1 object"
expect_eq "measure.log names mechanism and filter" \
  "$(grep -F 'instrumentation: ' e_leaf/measure.log)" "instrumentation: $said"
expect_eq "instrumentation.txt" "$(cat e_leaf/instrumentation.txt)" "$said"
"$POMP_ANALYZE" e_leaf >/dev/null 2>&1 || fail "pomp-analyze e_leaf"
expect_eq "pomp-report stat prints it" \
  "$("$POMP_REPORT" stat e_leaf/report.pomp | grep '^instrumentation: ')" "instrumentation: $said"
POMP_MODE=profile POMP_EXPERIMENT=$work/e_leaf_prof ./leaf >/dev/null || fail "profile run"
expect_eq "profile report has it" \
  "$("$POMP_REPORT" stat e_leaf_prof/report.pomp | grep '^instrumentation: ')" "instrumentation: $said"
# objects compiled separately, by two mechanisms: both counted at the link
printf 'int extra_add(int x) { return x + 1; }\n' >extra.c
"$pcc" --no-plugin gcc -O2 -c leaf.c -o leaf_fb.o && "$pcc" gcc -O2 -c extra.c -o extra.o &&
  "$pcc" gcc -o leaf_mixed leaf_fb.o extra.o || fail "mixed build"
run e_mixed leaf_mixed
expect_eq "mixed mechanisms said" "$(grep -F 'instrumentation: ' e_mixed/measure.log)" \
  "instrumentation: -finstrument-functions (inlined functions too) in 1 object, GCC plugin (after inlining) in 1 object; no compile-time filter"
# a program whose objects pomp-cc did not compile: not recorded, no file
gcc -O2 -finstrument-functions -c leaf.c -o leaf_plain.o && "$pcc" gcc -o leaf_plain leaf_plain.o || fail "plain build"
run e_plain leaf_plain
grep -qF 'instrumentation: not recorded (no object of the program was compiled by pomp-cc' \
  e_plain/measure.log || fail "plain objects: not said"
[ ! -e e_plain/instrumentation.txt ] || fail "plain objects: instrumentation.txt written"

# a bad filter file: the compiler names file and line
printf 'exclude a\nkeep b\n' >bad.filter
err=$("$pcc" --filter bad.filter gcc -O2 -c leaf.c -o bad.o 2>&1); rc=$?
[ "$rc" != 0 ] || fail "bad filter: exit 0"
echo "$err" | grep -qF "bad.filter:2: unknown rule 'keep' (expected include or exclude)" ||
  fail "bad filter message: $err"
err=$("$pcc" --filter missing.filter gcc -c leaf.c 2>&1); rc=$?
expect_eq "missing filter" "$rc:$err" "1:pomp-cc: error: cannot read filter file 'missing.filter'"

# --- Fortran ---------------------------------------------------------------
"$pcc" gfortran -fopenmp -O2 -o kern kernels.f90 || fail "Fortran build"
run e_kern kern
expect_eq "Fortran output" "$(echo $out)" "1000.0"
expect_eq "Fortran: kernels::scale recorded" "$(enters e_kern 'kernels::scale')" 3
expect_eq "Fortran: kernels::half not recorded" "$(enters e_kern 'kernels::half')" 0
# `program main` is MAIN__ to gfortran as any program; pomp-opari's
# companion names it from its PROGRAM statement: main;main (gfortran's own
# C main calls it), not "program"
expect_eq "Fortran: program main" "$(enters e_kern main):$(enters e_kern program)" "2:0"
# a named main program by its name, as Score-P's plugin shows it, also to
# the compile-time filter
sed -e 's/^program main$/program kern_demo/' -e 's/^end program main$/end program kern_demo/' \
  kernels.f90 >named.f90
"$pcc" gfortran -fopenmp -O2 -o named named.f90 || fail "Fortran named program build"
run e_named named
expect_eq "Fortran: the program's name" "$(enters e_named kern_demo):$(enters e_named program)" "1:0"
# ... and under -finstrument-functions, from pomp-opari's companion file
"$pcc" --no-plugin gfortran -fopenmp -O2 -o named_fb named.f90 || fail "Fortran --no-plugin build"
run e_named_fb named_fb
expect_eq "Fortran --no-plugin: the program's name" \
  "$(enters e_named_fb kern_demo):$(enters e_named_fb program)" "1:0"
printf 'exclude kern_demo\n' >program.filter
"$pcc" --filter program.filter gfortran -fopenmp -O2 -o named_f named.f90 || fail "filtered build"
expect_eq "Fortran: the program filtered by its name" "$(hook_calls named_f MAIN__)" 0

# --- the fallback: -finstrument-functions records the inlined accessors ----
err=$("$pcc" --verbose --no-plugin g++ -fopenmp -O2 -o acc_fb accessors.cpp 2>&1) || fail "fallback build"
echo "$err" | grep -q '^pomp-cc: user functions: -finstrument-functions' || fail "fallback not said: $err"
run e_fb acc_fb
expect_eq "fallback: Field::at recorded" "$(enters e_fb 'Field::at(int)')" 8000
expect_eq "fallback: exception balanced" "$(otf2-print -L 0 e_fb/traces.otf2 |
  grep -cE '^(ENTER|LEAVE) .*Region: "(guarded|check)\(int\)"')" 16
printf 'exclude relax*\n' >relax.filter
err=$("$pcc" --no-plugin --filter relax.filter g++ -fopenmp -O2 -c accessors.cpp -o fb.o 2>&1)
expect_eq "fallback with --filter: said" "$err" \
  "pomp-cc: note: user functions: -finstrument-functions (every function, inlined ones too); --filter acts at run time only: run with POMP_FILTER=$work/relax.filter"

# --- clang: -finstrument-functions-after-inlining ---------------------------
if command -v clang >/dev/null; then
  "$pcc" clang -O2 -o leaf_clang leaf.c || fail "clang build"
  run e_clang leaf_clang
  expect_eq "clang: smooth recorded" "$(enters e_clang smooth)" 5
fi

[ "$failures" = 0 ] && echo "gccplugin: all checks passed"
[ "$failures" = 0 ]
