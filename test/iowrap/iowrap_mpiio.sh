#!/bin/sh
# iowrap_mpiio.sh POMP_CC POMP_ANALYZE POMP_REPORT SOURCE
# mpiio_counts.c on 2 ranks through pomp-cc: per rank one IoCreateHandle /
# IoDestroyHandle of "mpiio.dat", 7 operations begun and completed (the
# non-blocking ones completed in MPI_Wait), the collective ones flagged, and
# in the report (and a profile's) the bytes written and read per call
# path and rank, the time of MPI_File_* under mpi_io.
set -u
cc=$1 analyze=$2 report=$3 src=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$cc" mpicc -O2 "$src" -o mpiio_counts || fail "pomp-cc"
POMP_EXPERIMENT=exp timeout 60 mpirun -n 2 ./mpiio_counts || fail "run"
otf2-print exp/traces.otf2 >print 2>&1 || fail "otf2-print"
count() { grep -c "^$1 " print || true; }
[ "$(count IO_OPERATION_BEGIN)" = 14 ] || fail "IoOperationBegin: $(count IO_OPERATION_BEGIN), want 14"
[ "$(count IO_OPERATION_COMPLETE)" = 14 ] || fail "IoOperationComplete: $(count IO_OPERATION_COMPLETE)"
[ "$(count IO_OPERATION_ISSUED)" = 4 ] || fail "IoOperationIssued: $(count IO_OPERATION_ISSUED), want 4"
[ "$(count IO_CREATE_HANDLE)" = 2 ] || fail "IoCreateHandle: $(count IO_CREATE_HANDLE), want 2"
[ "$(count IO_DESTROY_HANDLE)" = 2 ] || fail "IoDestroyHandle: $(count IO_DESTROY_HANDLE), want 2"
[ "$(grep -c '^IO_OPERATION_BEGIN .*COLLECTIVE' print)" = 6 ] || fail "collective flags"
[ "$(grep -c '^IO_OPERATION_BEGIN .*NON_BLOCKING' print)" = 4 ] || fail "non-blocking flags"
# every Begin's matching id completes on the same location
sed -n 's/^IO_OPERATION_BEGIN  *\([0-9]*\) .*Matching Id: \([0-9]*\)$/\1 \2/p' print | sort >begins
sed -n 's/^IO_OPERATION_COMPLETE  *\([0-9]*\) .*Matching Id: \([0-9]*\)$/\1 \2/p' print | sort >completes
diff -u begins completes || fail "Begin/Complete do not match"
# the non-blocking completes lie in MPI_Wait
# (per location: otf2-print merges the locations' records by time)
awk '/^ENTER .*"MPI_Wait"/ {w[$2] = 1} /^LEAVE .*"MPI_Wait"/ {w[$2] = 0}
     /^IO_OPERATION_COMPLETE/ && w[$2] {n++} END {exit n == 4 ? 0 : 1}' print ||
  fail "non-blocking completions outside MPI_Wait"
otf2-print -G exp/traces.otf2 >defs 2>&1 || fail "otf2-print -G"
grep -q '^IO_PARADIGM .*"MPI-IO"' defs || fail "IoParadigm MPI-IO"
# unified: one file for both ranks, one handle per rank
[ "$(grep -c '^IO_REGULAR_FILE .*"mpiio.dat"' defs)" = 1 ] || fail "IoRegularFile mpiio.dat once"
[ "$(grep -c '^IO_HANDLE .*"mpiio.dat"' defs)" = 2 ] || fail "IoHandle mpiio.dat per rank"

"$analyze" exp >/dev/null || fail "pomp-analyze"
want() { printf '%s\n' "$@" | sort; }
"$report" dump exp --metric io_bytes_written | grep -v ^metric, | sort >written
want 'io_bytes_written,main;MPI_File_write_at,0,0,1000' 'io_bytes_written,main;MPI_File_write_at,1,0,1000' \
  'io_bytes_written,main;MPI_File_write_at_all,0,0,500' 'io_bytes_written,main;MPI_File_write_at_all,1,0,500' \
  'io_bytes_written,main;MPI_File_iwrite_at,0,0,200' 'io_bytes_written,main;MPI_File_iwrite_at,1,0,200' |
  diff -u - written || fail "io_bytes_written"
"$report" dump exp --metric io_bytes_read | grep -v ^metric, | sort >read
want 'io_bytes_read,main;MPI_File_read_at,0,0,1000' 'io_bytes_read,main;MPI_File_read_at,1,0,1000' \
  'io_bytes_read,main;MPI_File_read_at_all,0,0,500' 'io_bytes_read,main;MPI_File_read_at_all,1,0,500' \
  'io_bytes_read,main;MPI_Wait,0,0,200' 'io_bytes_read,main;MPI_Wait,1,0,200' |
  diff -u - read || fail "io_bytes_read"
# profile mode: the same bytes per call path and rank (the non-blocking
# read's at its MPI_Wait) as the trace's analysis
POMP_MODE=profile POMP_EXPERIMENT=prof timeout 60 mpirun -n 2 ./mpiio_counts || fail "run profile"
for m in written read; do
  "$report" dump prof --metric io_bytes_$m | grep -v ^metric, | sort | diff -u $m - ||
    fail "profile's io_bytes_$m differs from the trace's"
done
"$report" dump exp --metric mpi_io | grep -q '^mpi_io,main;MPI_File_open,0,0,' || fail "mpi_io time"
# the collective transfers are collectives on the file's communicator:
# rank 0 waits for rank 1, 0.3 s late, in the collective write (at least
# 0.1 s of it on a loaded machine), rank 1 not at all
[ "$(count MPI_COLLECTIVE_END)" -ge 4 ] || fail "MpiCollectiveEnd of the collective transfers"
"$report" dump exp --metric mpi_io_collective_wait | grep -v ^metric, >wait
awk -F, '$2 == "main;MPI_File_write_at_all" && $3 == 0 && $5 >= 0.1 {ok = 1}
         $3 == 1 && $5 > 0.1 {bad = 1} END {exit ok && !bad ? 0 : 1}' wait ||
  { cat wait; fail "mpi_io_collective_wait"; }
echo ok
