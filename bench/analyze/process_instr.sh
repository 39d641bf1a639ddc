#!/usr/bin/env bash
# process_instr.sh -- instructions of each analysis process of
# `mpiexec -n P pomp-analyze` (callgrind), against the serial analysis of
# the same trace measured in the same run, and the efficiency they model:
# serial / (P x the largest process's).  Instructions, unlike seconds,
# are not disturbed by other work on the machine, and P processes need
# not have P cores: what bounds a parallel analysis on a machine of P
# cores, before any waiting (docs/analyze/parallel.md, "Parallel analysis:
# where the time goes").
#
#   bench/analyze/process_instr.sh ANALYZE TRACE P [OPTION]...
#
# TRACE: an experiment directory or traces.otf2; OPTIONs go to every
# pomp-analyze (e.g. --no-rootcause).  Waits sleep
# (POMP_ANALYZE_WAIT=sleep: polling would count the spinning), one
# decoding thread (--threads 1).  Checks that the parallel report is
# byte-identical to the serial one.  With KEEP=DIR in the environment the
# callgrind outputs stay in DIR (serial/cg.0, par/cg.RANK) for
# callgrind_annotate.  With BY_THREAD=1 each analysis process counts as
# its largest thread (callgrind --separate-threads=yes; the outputs
# cg.RANK-01, -02, ...): what bounds a process whose threads each have a
# core, such as process 1 with its walker thread
# (docs/analyze/critical-path.md, "The walker thread"), the lines say
# every thread's count; an optimistic model (a thread waiting for
# another counts nothing; the walk of the last window comes after the
# replay's), so say which one a figure is.  The waits, though, are those
# of runs under valgrind, which runs one thread of a process at a time:
# the others wait at the backward agreement for process 1's walker too
# (docs/analyze/parallel.md, "Why the delay processes wait for process 1
# at the backward agreement").  Heavy (valgrind: about 50
# times the CPU time of each run): not a test, never run in ctest.
set -euo pipefail
prog=${0##*/}
die() { echo "$prog: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: $prog ANALYZE TRACE P [OPTION]..."
analyze=$1 trace=$2 np=$3
shift 3
[ -x "$analyze" ] || die "$analyze: not an executable"
[ "$np" -ge 2 ] 2>/dev/null || die "P must be 2 or more"
command -v valgrind >/dev/null || die "valgrind is needed"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export POMP_ANALYZE_WAIT=sleep

# One analysis process under callgrind, its output named by its rank.
cat >"$work/one.sh" <<'EOF'
#!/usr/bin/env bash
rank=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}}
dir=$1
shift
exec valgrind -q --tool=callgrind ${BY_THREAD:+--separate-threads=yes} \
  --callgrind-out-file="$dir/cg.$rank" "$@"
EOF
chmod +x "$work/one.sh"

# The instructions (Ir) a callgrind output counted, and those of them
# spent waiting for other processes (parallel.c's wait_until: MPI_Test
# and the pauses between tests; how many depends on how the processes
# were scheduled, P of them on this machine's cores).
instr() { awk '/^(summary|totals):/ && !n {n = $2} END {printf "%.0f\n", n}' "$1"; }
waiting() {
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
    awk '/parallel\.c:wait_until / && !n {gsub(",", "", $1); n = $1} END {printf "%.0f\n", n}'
}
# The outputs of one run: the file itself, or (BY_THREAD) one per thread.
outputs() { if [ -n "${BY_THREAD:-}" ]; then ls "$1"-[0-9]*; else echo "$1"; fi; }
# One run's count into $counted: its largest thread's with BY_THREAD,
# else the whole run's; $whole: all its threads'; threads[]: each
# thread's (without: instructions less those waiting).
counted=0 whole=0 threads=()
count() {
  local f n
  counted=0 whole=0 threads=()
  for f in $(outputs "$1"); do
    n=$(instr "$f")
    if [ "$2" = without ]; then n=$((n - $(waiting "$f"))); fi
    threads+=("$(giga "$n")")
    whole=$((whole + n))
    if ((n > counted)); then counted=$n; fi
  done
}
giga() { awk -v n="$1" 'BEGIN {printf "%.3f", n / 1e9}'; }

mkdir -p "$work/serial"
# valgrind's and MPI's notes go to a log, shown when a run fails
"$work/one.sh" "$work/serial" "$analyze" -q --threads 1 -o "$work/serial.pomp" "$@" "$trace" \
  2>"$work/log" || { cat "$work/log" >&2; die "the serial analysis failed"; }
count "$work/serial/cg.0" with
serial=$counted
mkdir -p "$work/par"
mpiexec -n "$np" "$work/one.sh" "$work/par" "$analyze" -q --threads 1 -o "$work/par.pomp" "$@" \
  "$trace" 2>"$work/log" || { cat "$work/log" >&2; die "the parallel analysis failed"; }
cmp -s "$work/serial.pomp" "$work/par.pomp" || echo "$prog: the reports differ" >&2
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp -r "$work/serial" "$work/par" "$KEEP/"; fi

echo "trace $trace, options: ${*:-none}; instructions (G), callgrind" \
  "${BY_THREAD:+(each process: its largest thread)}"
echo "serial: $(giga "$serial")"
sum=0 largest=0 wsum=0 wlargest=0 line="" wline=""
for ((r = 0; r < np; r++)); do
  count "$work/par/cg.$r" with
  n=$counted
  sum=$((sum + whole))
  line="$line $(giga "$n")"
  if [ -n "${BY_THREAD:-}" ]; then line="$line (threads ${threads[*]})"; fi
  count "$work/par/cg.$r" without
  w=$counted
  wsum=$((wsum + whole))
  wline="$wline $(giga "$w")"
  if [ -n "${BY_THREAD:-}" ]; then wline="$wline (threads ${threads[*]})"; fi
  if ((n > largest)); then largest=$n; fi
  if ((w > wlargest)); then wlargest=$w; fi
done
echo "mpiexec -n $np, process 0..$((np - 1)):$line"
echo "  without waiting:$wline"
awk -v s="$serial" -v sum="$sum" -v big="$largest" -v wsum="$wsum" -v wbig="$wlargest" \
  -v p="$np" 'BEGIN {
  printf "all processes: %.3f (%.2fx serial); largest %.3f; modelled efficiency %.1f %%\n",
         sum / 1e9, sum / s, big / 1e9, 100 * s / (p * big)
  printf "without waiting: %.3f (%.2fx serial); largest %.3f; modelled efficiency %.1f %%\n",
         wsum / 1e9, wsum / s, wbig / 1e9, 100 * s / (p * wbig) }'
