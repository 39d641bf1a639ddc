#!/bin/sh
# cube_test.sh POMP_REPORT POMP_ANALYZE POMP_TUI TESTDATA GOLDEN_DIR -- CUBE4
# import and export:
# Scalasca 2.6's .cubex files of two pomp traces read with the values
# pomp-analyze computes on the same traces; pomp-report cube read back
# with the same cells and values; compressed rows; malformed files end
# with a message naming file and position and exit status 1; a small
# handmade file (make_cube.py) with what Scalasca's files lack, in every
# byte order and compression, read as golden/cube_synthetic*.out says.
set -u
report=$1 analyze=$2 tui=$3 data=$4 golden=$5
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$data/p2p_waits_2x1/scout.cubex" ] || { echo "no CUBE test data in $data: skipped"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-cube-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
. "$here/../pomp_expect.sh" # fail, report_cells

# cells FILE M1 [M2...]: "callpath,rank,thread|value" summed over the
# metrics, sorted (rows of exactly zero left out).
cells() { report_cells "$report" "$@"; }

# same NAME A B: the same cells, values equal within 1e-9 relative (CUBE
# keeps inclusive values: exclusive ones come back as differences).
same() {
  if ! join -t'|' -a1 -a2 -e MISSING -o 0,1.2,2.2 "$2" "$3" | awk -F'|' -v name="$1" '
      { d = $2 - $3; if (d < 0) d = -d; m = ($2 < 0 ? -$2 : $2)
        if ($2 == "MISSING" || $3 == "MISSING" || d > 1e-9 * m + 1e-15) {
          print name ": " $0; bad = 1 } }
      END { exit bad }'; then
    fail "$1 differs"
  fi
  [ -s "$2" ] || fail "$1: no values at all"
}

for t in p2p_waits_2x1 collective_waits_3x1; do
  "$analyze" -q "$data/$t/traces.otf2" -o "$t.pomp" || fail "$t: pomp-analyze"
  for cube in scout trace; do
    c="$data/$t/$cube.cubex"
    for m in mpi_latesender mpi_latereceiver mpi_barrier_wait mpi_barrier_completion \
      mpi_wait_nxn mpi_nxn_completion mpi_latebroadcast mpi_earlyreduce mpi_finalize_wait visits; do
      cells "$t.pomp" $m > a && cells "$c" $m > b || fail "$t/$cube $m: dump"
      [ "$m" = visits ] || [ -s a ] || continue
      same "$t/$cube $m" a b
    done
    # Scalasca's time (scout: no child metrics) is pomp's whole time tree
    # (delay costs, the wait-state classification, the critical path and
    # the performance impact are trees of their own, not time)
    if [ $cube = scout ]; then
      "$report" dump "$t.pomp" | awk -F, '$1 != "metric" && $1 != "visits" && $1 !~ /^bytes/ && $1 !~ /^(delay|waitstates_|mpi_wait_(direct|indirect|propagating|terminal)|critical_|performance_impact|non_critical_path)/ {
        s[$2 "," $3 "," $4] += $5 } END { for (k in s) printf "%s|%.17g\n", k, s[k] }' |
        sort -t'|' -k1,1 > a
      cells "$c" time > b
      same "$t/$cube time" a b
    fi
    # pomp's wrong-order late sender is Scalasca's, split by source
    cells "$t.pomp" mpi_latesender_wo > a
    cells "$c" mpi_latesender_wo mpi_lswo_different mpi_lswo_same > b
    [ "$t" = collective_waits_3x1 ] || same "$t/$cube mpi_latesender_wo" a b
  done
  # export and read back: every cell, Scalasca's names for pomp's
  "$report" cube "$t.pomp" -o "$t.cubex" || fail "$t: pomp-report cube"
  "$report" dump "$t.pomp" | sort > a
  "$report" dump "$t.cubex" | sed -e 's/^omp_time,/omp,/' \
    -e 's/^omp_lock_contention_critical,/omp_critical_contention,/' \
    -e 's/^omp_lock_contention_api,/omp_lock_contention,/' -e 's/^bytes_rcvd,/bytes_received,/' \
    -e 's/^mpi_wait_\(propagating\|terminal\)_ls,/mpi_wait_\1_latesender,/' \
    -e 's/^mpi_wait_\(propagating\|terminal\)_lr,/mpi_wait_\1_latereceiver,/' |
    sort > b
  cut -d, -f1-4 a > ka && cut -d, -f1-4 b > kb
  cmp -s ka kb || fail "$t: round trip cells differ: $(diff ka kb | head -3)"
  cut -d, -f5 a > va && cut -d, -f5 b > vb
  paste -d' ' va vb | awk -v t="$t" '{ d = $1 - $2; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1
      if (d > 1e-9 * m + 1e-15) { print t ": round trip: line " NR ": " $0; bad = 1 } }
      END { exit bad }' || fail "$t: round trip values differ"
  # stat ranks a report and its .cubex alike: ties (rank 1's 17.6 ms at
  # collective_waits_3x1 equals another rank's) by name, rank and thread,
  # not by the ids, which differ, and values back from CUBE's inclusive
  # sums equal to the report's though their last bits differ
  "$report" stat "$t.pomp" -n 5 | sed 1d > a
  "$report" stat "$t.cubex" -n 5 | sed -e 1d -e 's/^bytes_rcvd /bytes_received /' > b
  cmp -s a b || fail "$t: stat of the .cubex ranks otherwise: $(diff a b | head -5)"
done

# Scalasca's remapped file (171 metrics, derived ones) written again by
# pomp-report cube reads back with the same values
"$report" cube "$data/collective_waits_3x1/trace.cubex" -o re.cubex || fail "re-export"
for f in "$data/collective_waits_3x1/trace.cubex" re.cubex; do
  "$report" dump "$f" | awk -F, 'NR > 1 { printf "%s,%s,%s,%s|%.17g\n", $1, $2, $3, $4, $5 }' |
    sort -t'|' -k1,1 > "$(basename "$f").cells"
done
same "trace.cubex written again" trace.cubex.cells re.cubex.cells

# the export has Scalasca's call tree and system tree of the same trace
mkdir x s && (cd x && tar xf ../p2p_waits_2x1.cubex) && (cd s && tar xf "$data/p2p_waits_2x1/scout.cubex")
for what in '<cnode ' '<location ' '<locationgroup '; do
  [ "$(grep -c "$what" x/anchor.xml)" = "$(grep -c "$what" s/anchor.xml)" ] ||
    fail "export: number of $what differs from scout's"
done
grep -q '<uniq_name>mpi_latesender</uniq_name>' x/anchor.xml &&
  grep -q '@mirror@scalasca_patterns.html#mpi_latesender' x/anchor.xml &&
  grep -q 'mod="MPI"' x/anchor.xml || fail "export: Scalasca names, URLs, MPI module"
# the root-cause metrics: Scalasca's names and pattern pages, as in scout's
# own report (its classification's children are _ls and _lr)
for m in delay_latesender delay_latesender_longterm mpi_wait_direct_latesender \
  mpi_wait_terminal_ls mpi_wait_terminal_lr mpi_wait_propagating_ls critical_path \
  critical_imbalance_impact mpi_finalize_wait; do
  grep -q "<uniq_name>$m</uniq_name>" x/anchor.xml &&
    grep -q "@mirror@scalasca_patterns.html#$m<" x/anchor.xml ||
    fail "export: $m without Scalasca's name or URL"
done
grep -q "<uniq_name>mpi_wait_terminal_ls</uniq_name>" "$data/p2p_waits_2x1/trace.cubex" ||
  fail "Scalasca's own name for terminal Late Sender waits is not mpi_wait_terminal_ls"

# compressed rows (ZCUBEX.DATA), as CubeW writes them with zlib
python3 - x <<'PY' || fail "cannot compress"
import os, struct, sys, zlib
os.chdir(sys.argv[1])
for f in os.listdir('.'):
    if not f.endswith('.data'):
        continue
    raw = open(f, 'rb').read()[10:]
    idx = open(f[:-5] + '.index', 'rb').read()
    n = struct.unpack_from('<I', idx, 18)[0]
    size = len(raw) // n if n else 0
    blobs, sub, at = [], [], 0
    for k in range(n):
        z = zlib.compress(raw[k * size:(k + 1) * size], 1)
        sub += [k * size, at, len(z)]
        blobs.append(z)
        at += len(z)
    open(f, 'wb').write(b'ZCUBEX.DATA' + struct.pack('<Q', n) +
                        struct.pack('<%dQ' % len(sub), *sub) + b''.join(blobs))
PY
(cd x && tar --format=ustar -cf ../z.cubex anchor.xml *.index *.data)
"$report" dump p2p_waits_2x1.cubex > a && "$report" dump z.cubex > b && cmp -s a b ||
  fail "compressed rows read differently"

# the output must not replace the input (it is read while writing)
cp p2p_waits_2x1.pomp same.pomp
"$report" cube same.pomp -o same.pomp 2> err
[ $? -eq 2 ] && grep -q "would overwrite input" err && cmp -s same.pomp p2p_waits_2x1.pomp ||
  fail "cube onto its own input: $(cat err)"

# malformed files: a message naming the file and where, status 1
bad() {
  name=$1 file=$2 want=$3
  "$report" stat "$file" > out 2> err
  st=$?
  [ $st -eq 1 ] || fail "$name: exit status $st"
  grep -q "$want" err || fail "$name: message '$(cat err)' lacks '$want'"
}
head -c 2000 p2p_waits_2x1.cubex > cut.cubex
bad cut_member cut.cubex "cut.cubex: offset 1024: tar member runs past the end of the file"
head -c 3000 p2p_waits_2x1.cubex > trunc.cubex
bad truncated trunc.cubex "trunc.cubex: offset [0-9]*: \(tar member runs past the end\|archive truncated\)"
mkdir y && cp x/* y/ && printf '<cube version="4.4"><metrics>\n<metric id="0">' > y/anchor.xml
(cd y && tar --format=ustar -cf ../xml.cubex anchor.xml)
bad bad_xml xml.cubex "xml.cubex: anchor.xml line 2 column [0-9]*: "
rm -r y && mkdir y && (cd y && tar xf ../p2p_waits_2x1.cubex) && printf 'CUBEX.INDEY' | dd of=y/1.index conv=notrunc 2>/dev/null
(cd y && tar --format=ustar -cf ../index.cubex anchor.xml *.index *.data)
bad bad_index index.cubex "index.cubex: 1.index: offset 0: not a CUBE index"
rm -r y && mkdir y && (cd y && tar xf ../p2p_waits_2x1.cubex)
printf '\001\000\000\000\000\000\001\377\377\377\377' | dd of=y/1.index bs=1 seek=11 conv=notrunc 2>/dev/null
(cd y && tar --format=ustar -cf ../count.cubex anchor.xml *.index *.data)
bad bad_count count.cubex "count.cubex: 1.index: offset 18: index count larger"

# dense INCLUSIVE rows in CubeW's order, unsigned and signed 32-bit rows,
# derived and histogram metrics, deep system tree, big-endian, zlib
for opts in "" --big-endian --compress "--big-endian --compress"; do
  python3 "$here/make_cube.py" syn.cubex $opts || fail "make_cube.py $opts"
  "$report" dump syn.cubex > out 2>&1 && diff -u "$golden/cube_synthetic.out" out ||
    fail "synthetic cube $opts: dump differs"
  "$report" defs syn.cubex > out 2>&1 && diff -u "$golden/cube_synthetic_defs.out" out ||
    fail "synthetic cube $opts: definitions differ"
done

# pomp-tui opens a .cubex like a report
"$tui" --batch --size 160x60 "$data/p2p_waits_2x1/scout.cubex" > screen 2>&1 &&
  grep -q "MPI Late Sender" screen || fail "pomp-tui on scout.cubex: $(head -3 screen)"

[ $failures -eq 0 ] && echo "cube_test: all passed"
exit $((failures != 0))
