#!/bin/sh
# iowrap_counts.sh POMP_CC POMP_ANALYZE POMP_REPORT SOURCE
# io_counts.c built by pomp-cc and run: the trace holds exactly its I/O
# calls (regions, balanced IoOperationBegin/Complete, one IoCreateHandle
# per open and one IoDestroyHandle per close, the files by name), and the
# report the bytes written and read per call path, a profile
# (POMP_MODE=profile) the same bytes, the search io_blocking for a read
# that blocks and small_io_ops for many small writes; POMP_IO=0 records no
# I/O, and a bad POMP_IO is reported and the default used.
set -u
cc=$1 analyze=$2 report=$3 src=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$cc" cc -O2 "$src" -o io_counts || fail "pomp-cc"

count() { grep -c "^$1 " "$work/print" || true; }
POMP_EXPERIMENT=on ./io_counts || fail "run"
otf2-print on/traces.otf2 >print 2>&1 || fail "otf2-print"
[ "$(count IO_OPERATION_BEGIN)" = 14 ] || fail "IoOperationBegin: $(count IO_OPERATION_BEGIN), want 14"
[ "$(count IO_OPERATION_COMPLETE)" = 14 ] || fail "IoOperationComplete: $(count IO_OPERATION_COMPLETE)"
[ "$(count IO_CREATE_HANDLE)" = 4 ] || fail "IoCreateHandle: $(count IO_CREATE_HANDLE), want 4"
[ "$(count IO_DESTROY_HANDLE)" = 4 ] || fail "IoDestroyHandle: $(count IO_DESTROY_HANDLE), want 4"
[ "$(count IO_SEEK)" = 2 ] || fail "IoSeek: $(count IO_SEEK), want 2"
[ "$(count ENTER)" = "$(count LEAVE)" ] || fail "Enter/Leave unbalanced"
# every Begin's matching id completes, on the same handle
sed -n 's/^IO_OPERATION_BEGIN .*Handle: \(.*\), Mode.*Matching Id: \([0-9]*\)$/\1 \2/p' print | sort >begins
sed -n 's/^IO_OPERATION_COMPLETE .*Handle: \(.*\), Bytes.*Matching Id: \([0-9]*\)$/\1 \2/p' print | sort >completes
[ -s begins ] && diff -u begins completes || fail "Begin/Complete do not match"
grep -q 'Handle: "posix.dat" <[0-9]*>, Access Mode: WRITE_ONLY, Creation Flags: {CREATE, TRUNCATE}' print ||
  fail "open's IoCreateHandle"
grep -q 'IO_OPERATION_COMPLETE .*Handle: "(invalid descriptor)".*Bytes Result: 18446744073709551615' print ||
  fail "a failed read has an undefined result"
otf2-print -G on/traces.otf2 >defs 2>&1 || fail "otf2-print -G"
for p in POSIX ISOC; do grep -q "^IO_PARADIGM .*\"$p\"" defs || fail "IoParadigm $p"; done
grep -q '^IO_REGULAR_FILE .*"posix.dat"' defs || fail "IoRegularFile posix.dat"

"$analyze" on >/dev/null || fail "pomp-analyze"
"$report" dump on --metric io_bytes_written | grep -v ^metric, | sort >written
printf '%s\n' 'io_bytes_written,main;fprintf,0,0,7' 'io_bytes_written,main;fputs,0,0,4' \
  'io_bytes_written,main;fwrite,0,0,70' 'io_bytes_written,main;pwrite,0,0,50' \
  'io_bytes_written,main;write,0,0,3000' 'io_bytes_written,main;writev,0,0,300' | sort |
  diff -u - written || fail "io_bytes_written"
"$report" dump on --metric io_bytes_read | grep -v ^metric, | sort >read
printf '%s\n' 'io_bytes_read,main;fread,0,0,81' 'io_bytes_read,main;pread,0,0,10' \
  'io_bytes_read,main;read,0,0,3300' | sort | diff -u - read || fail "io_bytes_read"
# profile mode: the same bytes per call path as the trace's analysis
POMP_MODE=profile POMP_EXPERIMENT=prof ./io_counts || fail "run POMP_MODE=profile"
for m in io_bytes_written io_bytes_read; do
  "$report" dump prof --metric $m | grep -v ^metric, | sort >prof_$m
  [ $m = io_bytes_written ] && want=written || want=read
  diff -u $want prof_$m || fail "profile's $m differs from the trace's"
done
"$report" dump on --metric visits | grep -E ';(open|close|write|read|fopen|fclose),' | sort >visits
printf '%s\n' 'visits,main;close,0,0,2' 'visits,main;fclose,0,0,2' 'visits,main;fopen,0,0,2' \
  'visits,main;open,0,0,2' 'visits,main;read,0,0,2' 'visits,main;write,0,0,3' | sort |
  diff -u - visits || fail "visits"
"$report" dump on --metric posix_io | grep -q '^posix_io,main;fsync,0,0,' || fail "posix_io time"
"$report" dump on --metric comp | grep -q ';fsync,' && fail "fsync's time in comp"

# the search: io_blocking true on POSIX I/O, small_io_ops false for a read
# that blocks until a child's work is done (not the run above: its fsync
# dominates its few microseconds of computation only while no other
# process preempts it, which a loaded machine does now and then)...
POMP_EXPERIMENT=blocking ./io_counts blocking || fail "run blocking"
"$analyze" blocking >/dev/null || fail "pomp-analyze blocking"
"$report" search blocking >search || fail "pomp-report search"
grep -q '^  io_blocking @ (program) on the only location: true' search || fail "io_blocking not true"
grep -q '^    posix_io @ (program) on the only location: true' search || fail "io_blocking not on posix_io"
grep -q '^        posix_io @ main;read on the only location: true' search || fail "io_blocking not on read"
grep -q '^  small_io_ops @ (program) on the only location: false' search || fail "small_io_ops not false"
# ... and true for 20000 writes of 16 bytes
POMP_EXPERIMENT=small ./io_counts small || fail "run small"
"$analyze" small >/dev/null || fail "pomp-analyze small"
"$report" search small >search || fail "pomp-report search small"
grep -q '^  small_io_ops @ (program) on the only location: true' search || fail "small_io_ops not true"
grep -q 'Small I/O operations in main.*write take .* (16 bytes per call on average)' search ||
  fail "small_io_ops bottleneck sentence"

# fork/exec: the child's write is not recorded, the parent's handle stays
POMP_EXPERIMENT=fork ./io_counts fork || fail "run fork"
[ "$(stat -c %s fork.dat)" = 110 ] || fail "fork.dat: $(stat -c %s fork.dat) bytes, want 110"
otf2-print fork/traces.otf2 >print 2>&1 || fail "otf2-print fork"
[ "$(count IO_OPERATION_BEGIN)" = 1 ] && [ "$(count IO_OPERATION_COMPLETE)" = 1 ] &&
  [ "$(count IO_CREATE_HANDLE)" = 1 ] && [ "$(count IO_DESTROY_HANDLE)" = 1 ] ||
  fail "fork: not exactly the parent's open, write, close"
grep -q '^IO_OPERATION_BEGIN .*"fork.dat".*Bytes Request: 10,' print || fail "fork: parent's write"

# _FORTIFY_SOURCE: fprintf becomes __fprintf_chk, recorded as fprintf
"$cc" cc -O2 -D_FORTIFY_SOURCE=2 "$src" -o io_fortified || fail "pomp-cc -D_FORTIFY_SOURCE=2"
nm io_fortified | grep -q ' U __wrap___fprintf_chk$' || fail "fortified: no __fprintf_chk call"
POMP_EXPERIMENT=fortified ./io_fortified || fail "run io_fortified"
[ "$(otf2-print fortified/traces.otf2 2>/dev/null | grep -c '^IO_OPERATION_BEGIN ')" = 14 ] ||
  fail "fortified: not 14 operations"
"$analyze" fortified >/dev/null || fail "pomp-analyze fortified"
"$report" dump fortified --metric io_bytes_written | grep -qx 'io_bytes_written,main;fprintf,0,0,7' ||
  fail "fortified: fprintf's bytes"

# without user-function hooks the first I/O call starts the measurement
"$cc" --no-functions cc -O2 "$src" -o io_plain || fail "pomp-cc --no-functions"
POMP_EXPERIMENT=plain ./io_plain || fail "run io_plain"
[ "$(otf2-print plain/traces.otf2 2>/dev/null | grep -c '^IO_OPERATION_BEGIN ')" = 14 ] ||
  fail "I/O alone did not start the measurement"

POMP_IO=0 POMP_EXPERIMENT=off ./io_counts || fail "run POMP_IO=0"
otf2-print off/traces.otf2 >print 2>&1 || fail "otf2-print off"
[ "$(grep -c '^IO_' print)" = 0 ] || fail "POMP_IO=0 recorded I/O"
grep -q '"write"' print && fail "POMP_IO=0 entered write"
POMP_IO=maybe POMP_EXPERIMENT=bad ./io_counts 2>err || fail "run POMP_IO=maybe"
grep -q 'POMP_IO=maybe is not valid' err || fail "bad POMP_IO not reported"
[ "$(otf2-print bad/traces.otf2 | grep -c '^IO_OPERATION_BEGIN ')" = 14 ] || fail "bad POMP_IO: default on"
echo ok
