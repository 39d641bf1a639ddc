#!/bin/sh
# scout_delay_test.sh POMP_REPORT POMP_ANALYZE TESTDATA DEVIATIONS -- delay
# costs and the classification of point-to-point waits against Scalasca
# 2.6's scout on the same traces (TESTDATA/*/trace.cubex, see its
# README.md, data/scout/*/scout.cubex and data/scout_omp/*/scout.cubex
# here): every (metric, call path, rank, thread) cell of pomp's
# delay_* and mpi_wait_{direct,indirect,propagating,terminal}_* equals
# scout's within 5 ns + 1e-6 relative, except the cells DEVIATIONS names,
# each with the rule that makes it differ (docs/PROPERTIES.md, "Delay
# costs against Scalasca 2.6"); a listed cell that agrees fails too (the
# list is kept exact).  Without the shared test data, data/scout alone.
#
# Tolerance: scout sums doubles in seconds; pomp charges whole ticks
# (1 ns in these traces), each charge rounded to the nearest one, so a
# cell made of k charges may differ by k/2 ns; the cells here have at
# most 8.  1e-6 relative covers scout's seconds-as-doubles arithmetic.
#
# The compared metrics are leaves of both metric trees, so CUBE's
# inclusive values are exclusive ones there; scout names the
# propagating/terminal leaves _ls and _lr, pomp _latesender and
# _latereceiver.
set -u
report=$1 analyze=$2 data=$3 deviations=$4
here=$(cd "$(dirname "$0")" && pwd)
own=$here/data/scout
shared="$data/p2p_waits_2x1/trace.cubex $data/collective_waits_3x1/trace.cubex"
[ -f "$data/p2p_waits_2x1/trace.cubex" ] || {
  echo "no CUBE test data in $data: only data/scout compared"
  shared=
}
dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-scout-delay-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "$here/../pomp_expect.sh" # fail, metric_cells, differing_cells, check_listed

# cells TRACE FILE: "trace|metric|callpath|rank,thread|value" of the
# compared metrics, scout's names made pomp's, summed per cell.
cells() {
  metric_cells "$report" "$1" "$2" '
    if ($1 ~ /^delay_(barrier|n2n|n21|12n|latesender|latereceiver|ompbarrier|ompidle)(_longterm)?$/ ||
        $1 ~ /^mpi_wait_(direct|indirect|propagating|terminal)_(ls|lr|latesender|latereceiver)$/) {
      m = $1; sub(/_ls$/, "_latesender", m); sub(/_lr$/, "_latereceiver", m) }'
}

# the shared data's remapped reports and this folder's raw ones
# (data/scout/README.md): the compared metrics are the same in both;
# data/scout_omp: synthetic traces (tracegen) of single OpenMP delay rules,
# raw reports too (data/scout_omp/README.md)
for ref in $shared "$own"/*/scout.cubex "$here"/data/scout_omp/*/scout.cubex; do
  t=$(basename "$(dirname "$ref")")
  echo "$t" >> "$dir/compared"
  "$analyze" -q "$(dirname "$ref")/traces.otf2" -o "$dir/$t.pomp" || fail "$t: pomp-analyze"
  cells "$t" "$dir/$t.pomp" > "$dir/$t.a" || fail "$t: dump of pomp's report"
  cells "$t" "$ref" > "$dir/$t.b" || fail "$t: dump of $ref"
  if [ ! -s "$dir/$t.a" ] || [ ! -s "$dir/$t.b" ]; then fail "$t: no delay costs at all"; fi
  differing_cells 5e-9 1e-6 "$dir/$t.a" "$dir/$t.b" >> "$dir/differ"
done

# DEVIATIONS: "trace|metric|callpath|rank,thread|reason", # comments
# (of the traces compared: without the shared data, only data/scout's)
check_listed "$deviations" "$dir/differ" "$dir/compared"
total=$(cat "$dir"/*.a "$dir"/*.b | cut -d'|' -f1-4 | sort -u | wc -l)
echo "$(wc -l < "$dir/differ") of $total cells differ from scout's"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "scout delay comparison: OK"
