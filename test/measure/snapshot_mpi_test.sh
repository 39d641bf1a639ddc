#!/bin/sh
# snapshot_mpi_test.sh SC_SNAPSHOT_MPI POMP_REPORT POMP_TUI
# POMP_MODE=profile POMP_SNAPSHOT on 2 MPI ranks: each rank writes its own
# snapshot.<rank>.pomp. Once both have MPI_Allreduce they are copied (each
# file is replaced by rename, so a copy is whole) and read as the experiment
# directory they form: pomp-report merges them, with both ranks'
# locations (MPI_Allreduce's visits on rank 0 and on rank 1), ranks 2 and
# snapshot_ranks "2 of 2 ranks" (pomp-report stat says so); rank 1's file alone gives rank 1's
# location and "1 of 2 ranks"; pomp-tui --follow says how many ranks it
# shows. The program then ends: its report.pomp is complete and no
# snapshot is left. No timing is asserted: the poll bound only ends a
# hung run.
. "$(dirname "$0")/snapshot_common.sh"
# rank,thread of each location with MPI_Allreduce visits
allreduce_locations() {
  "$report" dump "$1" --metric visits | awk -F, '$2 == "MPI_Allreduce" { print $3 "," $4 }' | sort
}

POMP_MODE=profile POMP_SNAPSHOT=0.2 POMP_EXPERIMENT="$exp" timeout 150 \
  mpirun -n 2 "$sc" "$work/stop" >"$work/out" 2>&1 &
pid=$!

# a copy of both ranks' snapshots once each has called MPI_Allreduce (the
# first ones may come before: MPI_Init alone)
mkdir "$work/both" "$work/one"
polls=0
until [ "$(allreduce_locations "$work/both/snapshot.0.pomp" 2>/dev/null)" = "0,0" ] &&
  [ "$(allreduce_locations "$work/both/snapshot.1.pomp" 2>/dev/null)" = "1,0" ]; do
  polls=$((polls + 1))
  [ $polls -lt 1200 ] || fail "no snapshot of each rank with MPI_Allreduce: $(ls "$exp" 2>&1)"
  sleep 0.1
  cp "$exp/snapshot.0.pomp" "$exp/snapshot.1.pomp" "$work/both/" 2>/dev/null
done
[ ! -e "$exp/snapshot.pomp" ] || fail "an MPI run wrote snapshot.pomp"
cp "$work/both/snapshot.1.pomp" "$work/one/"

[ "$(attr "$work/both/snapshot.1.pomp" snapshot_ranks)" = "rank 1 of 2" ] ||
  fail "rank 1's snapshot_ranks: $(attr "$work/both/snapshot.1.pomp" snapshot_ranks)"
[ "$(allreduce_locations "$work/both" | tr '\n' ' ')" = "0,0 1,0 " ] ||
  fail "merged locations: $(allreduce_locations "$work/both" | tr '\n' ' ')"
[ "$(attr "$work/both" snapshot_ranks)" = "2 of 2 ranks" ] ||
  fail "merged snapshot_ranks: $(attr "$work/both" snapshot_ranks)"
[ "$(attr "$work/both" ranks)" = 2 ] || fail "merged ranks: $(attr "$work/both" ranks)"
[ "$(attr "$work/both" run_status)" = running ] || fail "merged run_status"
[ "$(allreduce_locations "$work/one")" = "1,0" ] ||
  fail "rank 1 alone: $(allreduce_locations "$work/one")"
[ "$(attr "$work/one" snapshot_ranks)" = "1 of 2 ranks" ] ||
  fail "rank 1 alone: snapshot_ranks $(attr "$work/one" snapshot_ranks)"
"$report" stat "$work/both" >"$work/stat" || fail "pomp-report stat on the snapshots"
grep -q '^snapshot of a running program at [0-9.]* s (2 of 2 ranks): the values so far$' \
  "$work/stat" || fail "pomp-report stat: $(head -3 "$work/stat")"
"$tui" --follow --batch --at-top --size 120x12 "$work/both" >"$work/tui" 2>&1 ||
  fail "pomp-tui --follow: $(cat "$work/tui")"
grep -q 'following: snapshot of [0-9.]* s (2 of 2 ranks), updated [0-9:]*' "$work/tui" ||
  fail "pomp-tui --follow: no follow line with the ranks: $(cat "$work/tui")"

touch "$work/stop"
wait "$pid" || fail "the program failed: $(cat "$work/out")"
pid=
[ "$(attr "$exp/report.pomp" run_status)" = complete ] || fail "final run_status"
[ "$(allreduce_locations "$exp" | tr '\n' ' ')" = "0,0 1,0 " ] || fail "final report's locations"
left=$(ls "$exp" | grep '^snapshot')
[ -z "$left" ] || fail "snapshots left after the final report: $left"
cat "$work/tui" >&2; "$report" dump "$work/both" --metric visits >&2; echo "ok: both ranks' snapshots merged; $(cat "$work/out")"
