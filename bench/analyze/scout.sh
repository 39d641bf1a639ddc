#!/bin/bash
# scout.sh EXP RANKS THREADS [ROUNDS]: pomp-analyze against Scalasca's scout
# on the same pomp experiment: interleaved rounds of scout.hyb (full
# analysis, then without root cause and critical path) and pomp-analyze
# (serial, then `mpiexec -n RANKS`), medians of wall and CPU seconds and
# the ratios scout / pomp (issue 15: pomp at least 10x faster than scout's
# full analysis).  Not built, not in ctest.
#
#   SCOUT=/path/to/scout.hyb  (default: scout.hyb on PATH)
#   PA=/path/to/pomp-analyze  (default: build/analyze/pomp-analyze)
#
# A fair comparison needs RANKS x THREADS free cores: scout's processes
# and threads poll, so on fewer cores its time is mostly waiting for one.
#
# Scalasca 2.6 against Debian's OTF2 3.0.2 (libopen-trace-format2-dev):
# OTF2 3.0 added one argument to four global-definition callbacks and
# writers that pearl uses (its Otf2DefCallbacks and Otf2Writer), which
# must be adapted by hand; Debian has no otf2-config, which configure's
# --with-otf2 wants (a small script answering --cppflags, --ldflags,
# --libs and --interface-version will do); its bundled CubeW is used.
# Then: configure --prefix=... --with-otf2=DIR_OF_THAT_SCRIPT
# --with-mpi=mpich3 --with-nocross-compiler-suite=gcc; make; make install
# (about 3 minutes of make on two cores).  pomp's experiments need no
# conversion (docs/TRACE.md, "Score-P conventions"); bench_analyze's
# synthetic traces lack the OpenMP definitions scout asks for.
set -u
[ $# -ge 3 ] || { echo "usage: $0 EXP RANKS THREADS [ROUNDS]" >&2; exit 2; }
exp=$(cd "$1" && pwd) ranks=$2 threads=$3 rounds=${4:-3}
scout=${SCOUT:-scout.hyb}
pa=$(realpath "${PA:-$(dirname "$0")/../../build/analyze/pomp-analyze}")
command -v "$scout" > /dev/null || { echo "$0: no scout ($scout): set SCOUT" >&2; exit 2; }
[ -x "$pa" ] || { echo "$0: no pomp-analyze at $pa: set PA" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-scout-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cp -rl "$exp"/traces "$exp"/traces.otf2 "$exp"/traces.def "$work"/ 2> /dev/null ||
  cp -r "$exp"/traces "$exp"/traces.otf2 "$exp"/traces.def "$work"/
cd "$work" || exit 1
export OMP_WAIT_POLICY=passive OMP_NUM_THREADS=$threads

# one run: "TAG WALL CPU" into times.txt, or a line saying it failed
run() {
  local tag=$1
  shift
  if /usr/bin/time -f "$tag %e %U %S" -o t.one "$@" > out.one 2>&1; then
    awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' t.one >> times.txt
  else
    echo "$tag failed: $(tail -n 2 out.one | tr '\n' ' ')" >&2
  fi
  rm -f scout.cubex trace.stat p.pomp
}

for _ in $(seq "$rounds"); do
  run scout mpiexec -n "$ranks" "$scout" traces.otf2
  run scout_waits_only mpiexec -n "$ranks" "$scout" --no-rootcause --no-critical-path traces.otf2
  run pomp_serial "$pa" -q . -o p.pomp
  run "pomp_n$ranks" mpiexec -n "$ranks" "$pa" -q . -o p.pomp
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
printf '%-18s %9s %9s   (medians of %s rounds, load %s)\n' run wall_s cpu_s "$rounds" \
  "$(cut -d' ' -f1 /proc/loadavg)"
for tag in scout scout_waits_only pomp_serial "pomp_n$ranks"; do
  w=$(awk -v t="$tag" '$1 == t { print $2 }' times.txt | median)
  c=$(awk -v t="$tag" '$1 == t { print $3 }' times.txt | median)
  printf '%-18s %9s %9s\n' "$tag" "${w:--}" "${c:--}"
  eval "wall_$tag=\${w:-}"
done
ratio() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx\n", a / b }'; }
echo "scout (full) / pomp serial:      $(ratio "${wall_scout:-}" "${wall_pomp_serial:-}")"
echo "scout (full) / pomp -n $ranks:   $(ratio "${wall_scout:-}" "$(eval echo "\${wall_pomp_n$ranks:-}")")"
