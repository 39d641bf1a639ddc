#!/bin/sh
# cli.sh OPARI: the command line contract: --help/--version exit 0,
# usage errors exit 2 with a message naming the program, I/O and input
# errors exit 1 without leaving OUTPUT behind.
set -u
opari=$1
include=$(cd "$(dirname "$0")/../../include" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect STATUS STDERR-PATTERN ARGS...
  want=$1 pattern=$2; shift 2
  "$opari" "$@" >"$work/out" 2>"$work/err"; got=$?
  [ $got -eq "$want" ] || fail "'$*' exited $got, not $want"
  grep -q -- "$pattern" "$work/err" || fail "'$*': stderr lacks '$pattern': $(cat "$work/err")"
}
"$opari" --help | grep -q '^Usage: pomp-opari \[OPTION\]... INPUT OUTPUT$' || fail "--help"
"$opari" --help | grep -q '^      --nosrc  *no #line directives$' || fail "--help: --nosrc"
"$opari" --help | grep -q '^Rewrites the OpenMP constructs of the C, C++ or Fortran unit INPUT into$' ||
  fail "--help: languages"
"$opari" --version | grep -q '^pomp-opari (pomp) ' || fail "--version"
expect 2 "pomp-opari: unknown option '--frob'" --frob a b
grep -qx "Try 'pomp-opari --help'." "$work/err" || fail "no hint after a usage error"
expect 2 "pomp-opari: option '--pomp-disable': unknown construct 'frob'" --pomp-disable=for,frob a b
expect 2 "pomp-opari: option '--lang': 'f66' is not one of c, c++, f77, f90" --lang=f66 a b
expect 2 'pomp-opari: missing OUTPUT' only-one-file
expect 2 "pomp-opari: unexpected argument 'c'" a b c
expect 1 'pomp-opari: .*missing.c: No such file' "$work/missing.c" "$work/out.c"
# only regular files are read: devices and FIFOs would never end or block
expect 1 'pomp-opari: /dev/zero: not a regular file' /dev/zero "$work/z.c"
mkfifo "$work/fifo"
expect 1 'fifo: not a regular file' "$work/fifo" "$work/f.c"
expect 1 'pomp-opari: .*: Is a directory' "$work" "$work/d.c"
# a failure to create OUTPUT names OUTPUT, not the temporary file
printf 'int x;\n' >"$work/ok.c"
expect 1 'pomp-opari: /nonexistent/out.c: cannot create' "$work/ok.c" /nonexistent/out.c
# a leading UTF-8 byte-order mark is dropped, as compilers do, so the
# instrumented unit still compiles
printf '\357\273\277#include <stdio.h>\nint main(void) {\n#pragma omp parallel\n  puts("x");\n  return 0;\n}\n' >"$work/bom.c"
"$opari" "$work/bom.c" "$work/bom.mod.c" || fail "bom.c"
${CC:-cc} -fopenmp -fsyntax-only -I"$include" "$work/bom.mod.c" 2>"$work/cc.err" ||
  fail "unit with a BOM does not compile: $(cat "$work/cc.err")"
printf '#pragma omp parallel\n' >"$work/bad.c"
expect 1 'bad.c:1: error: cannot find the end' "$work/bad.c" "$work/bad.mod.c"
[ -e "$work/bad.mod.c" ] && fail "partial output left behind"
ls "$work" | grep -q 'bad.mod.c.' && fail "temporary file left behind"
# language from the extension, overridable: R"(...)" is a raw string in C++ only
printf 'const char *s = R"x(\n#pragma omp barrier\n)x";\n' >"$work/raw.cc"
"$opari" "$work/raw.cc" "$work/raw.out" || fail "raw.cc"
grep -q "POMP_Barrier_enter(pomp_rd" "$work/raw.out" && fail "pragma inside a raw string instrumented"
"$opari" --lang=c "$work/raw.cc" "$work/raw.out" 2>/dev/null
grep -q "POMP_Barrier_enter(pomp_rd" "$work/raw.out" || fail "--lang=c did not lex as C"
# #line: the compiler's diagnostics point at INPUT's own lines, from any directory
printf 'int f(int n) {\n#pragma omp parallel for\n  for (int i = 0; i < n; i++)\n    n += i;\n  return undeclared_name;\n}\n' >"$work/lines.c"
"$opari" "$work/lines.c" "$work/sub.c" || fail "lines.c"
mkdir "$work/elsewhere"
(cd "$work/elsewhere" && ${CC:-cc} -fopenmp -fsyntax-only -I"$include" ../sub.c) 2>"$work/cc.err" &&
  fail "the compiler accepted an undeclared name"
grep -q "pomp.h" "$work/cc.err" && fail "pomp.h not found: $(cat "$work/cc.err")"
grep -q "lines.c:5:[0-9]*: error: .undeclared_name" "$work/cc.err" || fail "diagnostic not at lines.c:5: $(cat "$work/cc.err")"
# the documented limit of source input: a directive-making macro defined in
# the source is warned about at its #define; one from a header cannot be
# seen (headers are not read): both uses are left as written
printf '#define HPAR _Pragma("omp parallel")\n' >"$work/macros.h"
printf '#include "macros.h"\n#define PAR _Pragma("omp parallel")\nvoid f(void) {\nHPAR\n{ }\nPAR\n{ }\n}\n' >"$work/mac.c"
"$opari" "$work/mac.c" "$work/mac.mod.c" 2>"$work/err" || fail "mac.c"
[ "$(cut -d' ' -f1-4 "$work/err")" = "$work/mac.c:2: warning: macro 'PAR'" ] ||
  fail "macro warnings: $(cat "$work/err")"
[ "$(grep -c "POMP_Parallel_fork(pomp_rd" "$work/mac.mod.c")" = 0 ] || fail "a macro-made directive instrumented"
exit 0
