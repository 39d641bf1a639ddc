#!/bin/sh
# run.sh OPARI POMP_LOG_LIB INPUT EXPECTED_LOG CC [THREADS] [sorted]
# Compile-and-run test: INPUT is built as is and instrumented (with the
# logging POMP library pomp_log.c); both run with OMP_NUM_THREADS=THREADS
# (default 4) and must print the same (pomp-opari's options from a first
# line "// opari: OPTIONS"); the per-thread POMP event log must
# equal EXPECTED_LOG exactly ("sorted": lines without thread ids, sorted,
# for constructs whose thread assignment is not deterministic).
# With POMP_REGEN_GOLDEN=1 EXPECTED_LOG is rewritten instead.
set -u
opari=$1 lib=$2 input=$3 expected=$4 cc=$5 threads=${6:-4} mode=${7:-}
dir=$(cd "$(dirname "$input")" && pwd -P)
name=$(basename "$input")
include=$(cd "$(dirname "$0")/../../include" && pwd -P)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
opts=$(sed -n '1s|^// opari: ||p' "$input")
case $(head -1 "$input") in "// opari:"*) ;; *) opts= ;; esac
(cd "$dir" && "$opari" $opts "$name" "$work/inst.${name##*.}") || { echo "FAIL: pomp-opari"; exit 1; }
"$cc" -fopenmp -o "$work/orig" "$input" || { echo "FAIL: original does not build"; exit 1; }
"$cc" -fopenmp -Wall -Wextra -Werror -I"$dir" -I"$include" -o "$work/inst" "$work/inst.${name##*.}" "$lib" ||
  { echo "FAIL: instrumented program does not build"; exit 1; }
export OMP_NUM_THREADS=$threads
OMP_DYNAMIC=false "$work/orig" >"$work/orig.out" || { echo "FAIL: original exits $?"; exit 1; }
POMP_LOG="$work/log" POMP_LOG_SORTED=$([ "$mode" = sorted ] && echo 1 || echo 0) OMP_DYNAMIC=false \
  "$work/inst" >"$work/inst.out" || { echo "FAIL: instrumented exits $?"; exit 1; }
diff -u "$work/orig.out" "$work/inst.out" || { echo "FAIL: instrumented program prints something else"; exit 1; }
if [ "${POMP_REGEN_GOLDEN:-0}" = 1 ]; then cp "$work/log" "$expected"; exit 0; fi
diff -u "$expected" "$work/log" || { echo "FAIL: event log differs from $expected"; exit 1; }
