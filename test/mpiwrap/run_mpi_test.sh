#!/usr/bin/env bash
# run_mpi_test.sh -- one libpomp-mpi end-to-end test:
#   run_mpi_test.sh linked|preload|disabled RANKS PLAIN TRACED LIBPOMPMPI CHECK WORKDIR
#                   [--golden FILE] [--analyze POMP-ANALYZE] [CHECK-OPTIONS...]
# Runs PLAIN (no wrappers) and, with the wrappers, TRACED (linked with
# -lpomp-mpi; "linked") or PLAIN again with LD_PRELOAD=LIBPOMPMPI
# ("preload") on RANKS ranks; fails unless both print the same, the traced
# run left a trace, and CHECK (mw_check) accepts it with the message and
# collective counts the program itself reported. "disabled" runs TRACED
# with POMP_ENABLE=0: same output, and no experiment at all. With --golden, the
# trace's records (mw_check --dump) must also equal FILE line for line.
# With --analyze, pomp-analyze must analyse the trace without a warning.
# The programs run in WORKDIR, so files they name relatively are the test's own.
set -euo pipefail
mode=$1 ranks=$2 plain=$3 traced=$4 lib=$5 check=$6 work=$7
shift 7
# absolute: the programs run in WORKDIR (below)
plain=$(realpath "$plain") traced=$(realpath "$traced") lib=$(realpath "$lib")
check=$(realpath "$check") work=$(realpath -m "$work")
golden= analyze=
if [ "${1:-}" = --golden ]; then
  golden=$(realpath "$2")
  shift 2
  set -- --dump "$work/records.txt" "$@"
fi
if [ "${1:-}" = --analyze ]; then
  analyze=$(realpath "$2")
  shift 2
fi
rm -rf "$work"
mkdir -p "$work"
# The programs run inside WORKDIR: a file a program names relatively
# (mwt_f08's MPI-IO file) is then this test's own. In the build directory,
# the cwd ctest gives every test, mpiwrap_f08_2 and mpiwrap_f08_preload_3
# shared mwt_f08.dat under ctest -j: one truncated or deleted it while the
# other read it back, and the plain and traced outputs differed.
cd "$work"
# hydra oversubscribes on its own; a hung rank must not hang the suite
run() { timeout 60 mpirun -n "$ranks" "$@"; }

env -u MWT_EXPECT -u POMP_EXPERIMENT timeout 60 mpirun -n "$ranks" "$plain" >"$work/plain.out"
if [ "$mode" = disabled ]; then
  POMP_ENABLE=0 POMP_EXPERIMENT="$work/exp" run "$traced" >"$work/traced.out"
  diff -u "$work/plain.out" "$work/traced.out"
  [ ! -e "$work/exp" ] || { echo "POMP_ENABLE=0 still wrote $work/exp" >&2; exit 1; }
  exit 0
elif [ "$mode" = preload ]; then
  POMP_EXPERIMENT="$work/exp" MWT_EXPECT="$work/expect" \
    run -genv LD_PRELOAD "$lib" "$plain" >"$work/traced.out"
else
  POMP_EXPERIMENT="$work/exp" MWT_EXPECT="$work/expect" run "$traced" >"$work/traced.out"
fi
if ! diff -u "$work/plain.out" "$work/traced.out"; then
  echo "output differs with libpomp-mpi ($mode, $ranks ranks)" >&2
  exit 1
fi
[ -s "$work/plain.out" ] || { echo "no output" >&2; exit 1; }
[ -f "$work/exp/traces.otf2" ] || { echo "no trace in $work/exp" >&2; exit 1; }
"$check" --expect "$work/expect" --ranks "$ranks" "$@" "$work/exp/traces.otf2"
if [ -n "$golden" ] && ! diff -u "$golden" "$work/records.txt"; then
  echo "the trace's records differ from $golden" >&2
  exit 1
fi
if [ -n "$analyze" ]; then
  "$analyze" -o "$work/report.pomp" "$work/exp" >"$work/analyze.out" 2>&1 ||
    { cat "$work/analyze.out" >&2; echo "pomp-analyze failed" >&2; exit 1; }
  # the root-cause model's limits (MPI on several threads: no delay costs,
  # no critical path) are a documented warning, not a fault of the trace
  grep "warning" "$work/analyze.out" | grep -Ev "root-cause model|their model does not hold" \
    >"$work/warnings" || true
  if [ -s "$work/warnings" ]; then
    cat "$work/warnings" >&2
    echo "pomp-analyze warned about the trace" >&2
    exit 1
  fi
fi
