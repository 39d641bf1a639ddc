#!/usr/bin/env bash
# run_rma_waits_test.sh -- one-sided wait states end to end:
#   run_rma_waits_test.sh PROGRAM EXPECT ANALYZE REPORT E2E-CHECK WORKDIR
# Runs PROGRAM (mwt_rmawaits, linked with libpomp-mpi) on 3 ranks, analyses
# its trace and checks the report against EXPECT with pomp-e2e-check: every
# planted wait at its property, call path and ranks within its tolerance.
# The planted waits are sleeps: as test/e2e does, a failed check is run
# once more (a wrong analysis fails both times, a scheduling accident on a
# loaded machine rarely twice).
set -euo pipefail
prog=$1 expect=$2 analyze=$3 report=$4 check=$5 work=$6
attempt() {
  local dir=$work/attempt$1
  rm -rf "$dir"
  mkdir -p "$dir"
  POMP_EXPERIMENT="$dir/exp" timeout 60 mpirun -n 3 "$prog" >"$dir/run.out"
  "$analyze" "$dir/exp" >"$dir/analyze.out" 2>&1 || { cat "$dir/analyze.out" >&2; return 1; }
  if grep -q "warning" "$dir/analyze.out"; then
    grep "warning" "$dir/analyze.out" >&2
    return 1
  fi
  "$report" dump "$dir/exp" --format csv >"$dir/report.csv"
  "$check" --ranks 3 --threads 1 "$expect" "$dir/report.csv"
}
attempt 1 || { echo "attempt 1 failed; once more" >&2; attempt 2; }
