#!/bin/sh
# scout_waits_test.sh POMP_REPORT POMP_ANALYZE TESTDATA -- the wait states
# against Scalasca 2.6's scout on the same traces (scout.cubex of
# TESTDATA/{p2p_waits_2x1,collective_waits_3x1}, see its README.md, and of
# data/scout/* here): every (metric, call path, rank, thread) cell of the
# MPI and OpenMP wait states, Wait at Finalize among them, equals scout's
# within 5 ns + 1e-6 relative, with no exception.  Without the shared
# test data, data/scout alone.
#
# Tolerance: as analyze_scout_delay's (scout sums doubles in seconds, pomp
# whole ticks).  scout's raw report is flat, each pattern's own
# (exclusive) value, as pomp's: its mpi_latesender_wo and the two parts
# mpi_lswo_different and mpi_lswo_same make pomp's mpi_latesender_wo;
# pomp's omp_critical_contention is scout's omp_lock_contention_critical.
# Not compared: lock API contention (omp_lock_contention): scout 2.6
# computes the wait but writes no value for it (0.26 s in pomp on two
# threads of openmp_waits_1x3; docs/PROPERTIES.md, "Critical and lock
# contention").
set -u
report=$1 analyze=$2 data=$3
here=$(cd "$(dirname "$0")" && pwd)
refs=
for t in p2p_waits_2x1 collective_waits_3x1; do
  [ -f "$data/$t/scout.cubex" ] && refs="$refs $data/$t/scout.cubex"
done
[ -n "$refs" ] || echo "no CUBE test data in $data: only data/scout compared"
dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-scout-waits-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "$here/../pomp_expect.sh" # fail, metric_cells, differing_cells

# cells TRACE FILE: "trace|metric|callpath|rank,thread|value" of the
# compared metrics in pomp's names, summed per cell.
cells() {
  metric_cells "$report" "$1" "$2" '
    n = $1
    if (n == "omp_lock_contention_critical") n = "omp_critical_contention"
    if (n ~ /^mpi_lswo_(different|same)$/) n = "mpi_latesender_wo"
    if (n ~ /^mpi_(latesender(_wo)?|latereceiver|barrier_wait|barrier_completion|wait_nxn|nxn_completion|latebroadcast|earlyreduce|earlyscan|finalize_wait)$/ ||
        n ~ /^omp_([ei]barrier_wait|critical_contention)$/) m = n'
}

for ref in $refs "$here"/data/scout/*/scout.cubex; do
  t=$(basename "$(dirname "$ref")")
  "$analyze" -q "$(dirname "$ref")/traces.otf2" -o "$dir/$t.pomp" || fail "$t: pomp-analyze"
  cells "$t" "$dir/$t.pomp" > "$dir/$t.a" || fail "$t: dump of pomp's report"
  cells "$t" "$ref" > "$dir/$t.b" || fail "$t: dump of $ref"
  [ -s "$dir/$t.b" ] || fail "$t: no wait states at all"
  differing_cells 5e-9 1e-6 "$dir/$t.a" "$dir/$t.b" >> "$dir/differ"
done
# Wait at Finalize is in every MPI reference (openmp_waits_1x3 has no MPI)
for t in $(cd "$dir" && ls ./*.b | sed 's|^\./||; s|\.b$||'); do
  [ "$t" = openmp_waits_1x3 ] || grep -q '|mpi_finalize_wait|' "$dir/$t.b" ||
    fail "$t: scout has no Wait at Finalize"
done
if [ -s "$dir/differ" ]; then
  fail "wait states differ from scout's:"
  cat "$dir/differ"
fi
echo "$(cat "$dir"/*.b | wc -l) cells compared"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "scout wait-state comparison: OK"
