#!/bin/sh
# golden.sh OPARI INPUT EXPECTED [CC]
# Runs pomp-opari on INPUT (from INPUT's directory, so descriptors name the
# file as given) and compares the output exactly with EXPECTED, the path of
# the source directory in #line replaced by @SRCDIR@.  Inputs named err_*
# must fail: EXPECTED then holds the diagnostics and the exit status.
# Options for pomp-opari come from a first line "// opari: OPTIONS".
# With POMP_REGEN_GOLDEN=1 EXPECTED is rewritten instead (review the diff!).
# With CC given, the output must also compile (-fsyntax-only -fopenmp),
# and with clang when clang has OpenMP (not preprocessed inputs *.i: they
# stand for the preprocessor's output without the real headers).
set -u
opari=$1 input=$2 expected=$3 cc=${4:-}
dir=$(cd "$(dirname "$input")" && pwd -P)
name=$(basename "$input")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
opts=$(sed -n '1s|^// opari: ||p' "$input")
case $(head -1 "$input") in "// opari:"*) ;; *) opts= ;; esac
(cd "$dir" && "$opari" $opts "$name" "$work/out.c") >"$work/stdout" 2>"$work/stderr"
status=$?
case $name in
err_*)
  { cat "$work/stderr"; echo "exit $status"; } >"$work/actual"
  [ -e "$work/out.c" ] && { echo "FAIL: partial output written"; exit 1; } ;;
*)
  if [ $status -ne 0 ]; then cat "$work/stderr"; echo "FAIL: exit $status"; exit 1; fi
  { sed "s|$dir|@SRCDIR@|g" "$work/out.c"; sed 's/^/stderr: /' "$work/stderr"; } >"$work/actual"
  lang=$(case $name in *.c) echo c;; *.i) echo none;; *) echo c++;; esac)
  [ "$lang" = none ] && cc=
  # clang too when it has OpenMP: it rejects some things gcc accepts
  clang=; [ "$lang" != none ] && printf '#include <omp.h>\n' | clang -fsyntax-only -fopenmp -x c - 2>/dev/null && clang=clang
  for compiler in $cc $clang; do
    "$compiler" -fsyntax-only -fopenmp -I"$dir" -I"$(dirname "$0")/../../include" \
      -x "$lang" "$work/out.c" || {
      echo "FAIL: instrumented output does not compile with $compiler"; exit 1; }
  done ;;
esac
if [ "${POMP_REGEN_GOLDEN:-0}" = 1 ]; then cp "$work/actual" "$expected"; exit 0; fi
diff -u "$expected" "$work/actual" || { echo "FAIL: output differs from $expected"; exit 1; }
