#!/usr/bin/env bash
# threads.sh -- pomp-analyze --threads N against --threads 1 (the replay
# alone) on the same traces, runs interleaved: wall and CPU seconds
# (user + system) of the command, medians, and the ratios; the reports of
# every N compared with that of 1 (they must be byte-identical).
#
#   bench/analyze/threads.sh BUILD_DIR [ROUNDS [THREADS...]]
#                            default 7 rounds, threads 2
#
# Traces (bench_analyze --generate, kept in $TMPDIR/pomp-bench-threads):
# one rank x 16 OpenMP threads (6 M events) and bench_analyze's 8 ranks
# (8 M events).  The load average is printed before and after: on a shared
# machine the wall-clock figures move with it; the replay thread's CPU
# seconds (with perf) hardly.  Not a test.
set -euo pipefail
build=${1:?usage: threads.sh BUILD_DIR [ROUNDS [THREADS...]]}
rounds=${2:-7}
shift $(($# >= 2 ? 2 : 1))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(2)
analyze=$build/analyze/pomp-analyze
gen=$build/bench/analyze/bench_analyze
dir=${TMPDIR:-/tmp}/pomp-bench-threads
mkdir -p "$dir"
[ -e "$dir/r1t16/traces.otf2" ] || "$gen" --generate 6000000 1 "$dir/r1t16" 16 >/dev/null
[ -e "$dir/r8/traces.otf2" ] || "$gen" --generate 8000000 8 "$dir/r8" 1 >/dev/null

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for trace in r1t16 r8; do
  "$analyze" -q --threads 1 -o "$dir/$trace.1.pomp" "$dir/$trace"
  for n in "${counts[@]}"; do
    "$analyze" -q --threads "$n" -o "$dir/$trace.$n.pomp" "$dir/$trace"
    cmp -s "$dir/$trace.1.pomp" "$dir/$trace.$n.pomp" ||
      { echo "threads.sh: $trace: the report of --threads $n differs" >&2; exit 1; }
  done
  for ((r = 0; r < rounds; r++)); do
    for n in 1 "${counts[@]}"; do
      /usr/bin/time -f "%e %U %S" -o "$dir/time" "$analyze" -q --threads "$n" -o "$dir/x.pomp" \
        "$dir/$trace"
      read -r wall user sys <"$dir/time"
      echo "$wall" >>"$dir/$trace.$n.wall.$$"
      echo "$user $sys" | awk '{ print $1 + $2 }' >>"$dir/$trace.$n.cpu.$$"
    done
  done
  w1=$(median <"$dir/$trace.1.wall.$$") c1=$(median <"$dir/$trace.1.cpu.$$")
  printf '%-6s --threads 1: wall %.3f s  CPU %.3f s\n' "$trace" "$w1" "$c1"
  for n in "${counts[@]}"; do
    w=$(median <"$dir/$trace.$n.wall.$$") c=$(median <"$dir/$trace.$n.cpu.$$")
    printf '%-6s --threads %d: wall %.3f s  CPU %.3f s  (wall %.2fx faster, CPU %.2fx)  reports identical\n' \
      "$trace" "$n" "$w" "$c" "$(echo "$w1 / $w" | bc -l)" "$(echo "$c / $c1" | bc -l)"
  done
  rm -f "$dir"/*."$$"
done
# CPU seconds of the replay thread (the busiest one), which bounds the wall
# time once every thread has a core of its own: perf samples each thread
# every millisecond of its CPU time.  A shared machine's wall figures move
# with its load; these hardly.
if perf record -q -e task-clock -c 1000000 -o "$dir/perf.data" true 2>/dev/null; then
  for trace in r1t16 r8; do
    for n in 1 "${counts[@]}"; do
      for ((r = 0; r < rounds; r++)); do
        perf record -q -e task-clock -c 1000000 -o "$dir/perf.data" -- \
          "$analyze" -q --threads "$n" -o "$dir/x.pomp" "$dir/$trace" 2>/dev/null
        perf script -i "$dir/perf.data" -F tid 2>/dev/null | sort | uniq -c | sort -rn |
          awk 'NR == 1 { print $1 / 1000 }'
      done | median | xargs printf '%-6s --threads %d: replay thread CPU %.3f s (median)\n' "$trace" "$n"
    done
  done
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
