#!/usr/bin/env bash
# process_cpu.sh -- CPU seconds (user + system) of each analysis process of
# `mpiexec -n P pomp-analyze`, for two builds run alternately on the same
# trace: what bounds a parallel analysis on a machine of few cores, where
# its wall-clock time says nothing (P processes share the cores).
#
#   bench/analyze/process_cpu.sh BASE_ANALYZE NEW_ANALYZE TRACE P [RUNS]
#
# TRACE: an experiment directory or traces.otf2 (bench_analyze --generate
# writes one).  Prints, per build, the median over RUNS (default 5) of
# each process's CPU time (process 0 first), their peak RSS and the load
# average; checks that both builds' reports are byte-identical.  P = 1:
# the serial analysis.  Not a test: it never runs in ctest.
set -euo pipefail
prog=${0##*/}
die() { echo "$prog: $*" >&2; exit 1; }
[ $# -ge 4 ] || die "usage: $prog BASE_ANALYZE NEW_ANALYZE TRACE P [RUNS]"
base=$1 new=$2 trace=$3 np=$4 runs=${5:-5}
for b in "$base" "$new"; do [ -x "$b" ] || die "$b: not an executable"; done
command -v /usr/bin/time >/dev/null || die "/usr/bin/time is needed"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run of build $1 (tag $2): each process appends "rank cpu rss_kb".
cat >"$work/one.sh" <<'EOF'
#!/usr/bin/env bash
rank=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}}
out=$1/t.$$
shift
/usr/bin/time -f "%U %S %M" -o "$out" "$@"
read -r user sys rss <"$out"
echo "$rank $(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.3f", u + s}') $rss" >>"$(dirname "$out")/ranks"
EOF
chmod +x "$work/one.sh"

run() { # build tag
  rm -f "$work/ranks"
  if [ "$np" = 1 ]; then
    "$work/one.sh" "$work" "$1" -q -o "$work/$2.pomp" "$trace"
  else
    mpiexec -n "$np" "$work/one.sh" "$work" "$1" -q -o "$work/$2.pomp" "$trace"
  fi
  sort -n "$work/ranks" | while read -r rank cpu rss; do
    echo "$cpu" >>"$work/$2.cpu.$rank"
    echo "$rss" >>"$work/$2.rss.$rank"
  done
}

median() { sort -n "$1" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

for ((i = 0; i < runs; i++)); do
  run "$base" base
  run "$new" new
done
cmp -s "$work/base.pomp" "$work/new.pomp" || echo "$prog: the two builds' reports differ" >&2
how="mpiexec -n $np"
[ "$np" = 1 ] && how=serial
echo "trace $trace, $how, medians of $runs runs alternated (CPU s per process 0..$((np - 1)))"
for tag in base new; do
  line="$tag:"
  for ((r = 0; r < np; r++)); do line="$line $(median "$work/$tag.cpu.$r")"; done
  echo "$line   peak RSS process 0: $(sort -n "$work/$tag.rss.0" | tail -1) KB"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
