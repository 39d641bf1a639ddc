#!/usr/bin/env bash
# run_profile_test.sh PROGRAM POMP-REPORT POMP-ANALYZE POMP-TUI WORKDIR
# POMP_MODE=profile on 2 MPI ranks (progs/mwt_profile.c): no trace, one
# report.pomp written by rank 0 with the exact visits and bytes of every
# MPI call path on each rank, the same as pomp-analyze finds in a trace of
# the same program; pomp-analyze says it is a profile (exit 0), pomp-report
# stat and pomp-tui open it and say that wait states need a trace.
set -euo pipefail
prog=$1 report=$2 analyze=$3 tui=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
exp=$work/exp
POMP_MODE=profile POMP_EXPERIMENT="$exp" OMP_NUM_THREADS=2 timeout 60 mpirun -n 2 "$prog" \
  >"$work/out"
fail() { echo "run_profile_test: $*" >&2; exit 1; }
[ "$(cat "$work/out")" = "sum 1" ] || fail "program output: $(cat "$work/out")"
[ -f "$exp/report.pomp" ] || fail "no report.pomp in $exp"
[ ! -e "$exp/traces.otf2" ] || fail "a trace was written in profile mode"
if [ -d "$exp/fragments" ] && [ -n "$(ls -A "$exp/fragments")" ]; then fail "fragments left"; fi
# metric,callpath,rank,thread,value without the times
"$report" dump "$exp" | grep -E '^(visits|bytes_sent|bytes_received),' | sort >"$work/dump"
cat >"$work/expected" <<'END'
bytes_received,MPI_Allreduce,0,0,32
bytes_received,MPI_Allreduce,1,0,32
bytes_received,MPI_Recv,1,0,1200
bytes_received,MPI_Waitall,0,0,64
bytes_received,MPI_Waitall,1,0,64
bytes_sent,MPI_Allreduce,0,0,32
bytes_sent,MPI_Allreduce,1,0,32
bytes_sent,MPI_Isend,0,0,64
bytes_sent,MPI_Isend,1,0,64
bytes_sent,MPI_Send,0,0,1200
visits,MPI_Allreduce,0,0,1
visits,MPI_Allreduce,1,0,1
visits,MPI_Finalize,0,0,1
visits,MPI_Finalize,1,0,1
visits,MPI_Init_thread,0,0,1
visits,MPI_Init_thread,1,0,1
visits,MPI_Irecv,0,0,1
visits,MPI_Irecv,1,0,1
visits,MPI_Isend,0,0,1
visits,MPI_Isend,1,0,1
visits,MPI_Recv,1,0,3
visits,MPI_Send,0,0,3
visits,MPI_Waitall,0,0,1
visits,MPI_Waitall,1,0,1
END
diff -u "$work/expected" "$work/dump" || fail "visits or bytes differ"
# the same run traced and analysed: the same call paths, visits and bytes
POMP_EXPERIMENT="$work/trace" timeout 60 mpirun -n 2 "$prog" >/dev/null
"$analyze" -q "$work/trace"
"$report" dump "$work/trace" | grep -E '^(visits|bytes_sent|bytes_received),' | sort \
  >"$work/dump.trace"
diff -u "$work/dump.trace" "$work/dump" || fail "the profile differs from the trace's report"
"$report" stat "$exp" >"$work/stat"
grep -q '^profile: wait-state properties need a trace (POMP_MODE=trace)$' "$work/stat" \
  || fail "pomp-report stat does not say it is a profile"
"$analyze" "$exp" >"$work/analyze" || fail "pomp-analyze failed on a profile"
grep -q 'holds a profile (POMP_MODE=profile)' "$work/analyze" || fail "pomp-analyze: $(cat "$work/analyze")"
(cd "$work" && "$tui" --batch --size 140x12 exp) >"$work/tui"
grep -q 'ranks 2 .*profile: wait-state properties need a trace' "$work/tui" \
  || fail "pomp-tui's title: $(head -1 "$work/tui")"
grep -q 'MPI_Send' <("$tui" --batch --size 140x30 --keys '<Tab>x' "$exp") \
  || fail "pomp-tui does not show the MPI call paths"
echo "profile of 2 ranks: visits and bytes exact"
