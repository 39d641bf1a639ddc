#!/usr/bin/env bash
# scaling.sh -- parallel efficiency of `mpiexec -n P pomp-analyze` on a
# machine of more cores than this one (issue 15's targets: >= 80 % at P = 8
# on an 8-rank 100 M-event trace, >= 60 % at P = 16 on a 16-rank 30 M-event
# trace).  Such a machine starts bare, so the programs travel with their
# shared libraries and the loader:
#
#   bench/analyze/scaling.sh bundle BUILD_DIR BUNDLE_DIR [PROGRAM...] (here)
#   bench/analyze/scaling.sh run BUNDLE_DIR [OUT_DIR]       (there, as root)
#
# `bundle` copies pomp-analyze, bench_analyze, mpiexec.hydra and
# hydra_pmi_proxy (and any further PROGRAM, e.g. an instrumented
# application) with the libraries ldd lists and the loader, and points
# them (patchelf) at /opt/pomp, where `run` copies the bundle.  `run`
# generates the traces (bench_analyze --generate), analyses each serially
# and under mpiexec -n P, compares the reports with the serial one and
# prints wall and CPU seconds, speed-up and efficiency per P.  Not a test:
# it never runs in ctest.  Each parallel run also prints the CPU seconds of
# every analysis process (which one bounds it).  POMP_SCALING_APP (below)
# adds an instrumented application bundled with it, e.g. heat-pomp.
set -euo pipefail
prog=${0##*/}
die() { echo "$prog: $*" >&2; exit 1; }
PREFIX=/opt/pomp

bundle() {
  local build=$1 out=$2
  shift 2
  command -v patchelf >/dev/null || die "patchelf is needed (apt-get install patchelf)"
  rm -rf "$out" && mkdir -p "$out/bin" "$out/lib"
  local bins=("$build/analyze/pomp-analyze" "$build/bench/analyze/bench_analyze"
    "$(readlink -f "$(command -v mpiexec.hydra)")" "$(command -v hydra_pmi_proxy)" "$@")
  for b in "${bins[@]}"; do
    [ -x "$b" ] || die "$b: not built"
    [ -e "$out/bin/${b##*/}" ] && die "$b: a program of that name is in the bundle already"
    cp "$b" "$out/bin/"
    ldd "$b" | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' |
      while read -r lib; do cp -n "$(readlink -f "$lib")" "$out/lib/$(basename "$lib")"; done
  done
  # UCX (MPICH's ch4 device here) loads its transports from ucx/ beside libucs
  if [ -d /usr/lib/x86_64-linux-gnu/ucx ]; then
    mkdir -p "$out/lib/ucx"
    cp /usr/lib/x86_64-linux-gnu/ucx/libuct_cma.so.0 "$out/lib/ucx/" 2>/dev/null || true
  fi
  local loader
  loader=$(basename "$(ls "$out"/lib/ld-linux-*.so.*)")
  strip --strip-debug "$out"/bin/* "$out"/lib/*.so* 2>/dev/null || true # 64 MiB travel
  for b in "$out"/bin/*; do
    patchelf --set-interpreter "$PREFIX/lib/$loader" --set-rpath "$PREFIX/lib" "$b"
  done
  for l in "$out"/lib/*.so* "$out"/lib/ucx/*.so*; do
    [ "$(basename "$l")" = "$loader" ] || patchelf --set-rpath "$PREFIX/lib" "$l"
  done
  du -sh "$out"
}

# "WALL CPU": seconds of one command (CPU: user + system of its processes);
# its errors go to $log
timed() {
  local TIMEFORMAT='%R %U %S'
  { time "$@" >/dev/null 2>>"$log"; } 2>&1 | awk '{ print $1, $2 + $3 }'
}
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }

# cpu_of: a wrapper that runs its command and writes the CPU seconds of it
# (bash's `times`: a bare machine may have no /usr/bin/time) to
# $POMP_CPU_DIR/<its MPI rank>, so a parallel run says which process bounds it
write_cpu_of() {
  cpu_of=$out/cpu-of
  cat >"$cpu_of" <<'EOF'
#!/usr/bin/env bash
"$@"
rc=$?
f=$POMP_CPU_DIR/${PMI_RANK:-0}
times >"$f" # not in a pipe: a subshell would count its own children
awk 'NR == 2 { split($1 " " $2, t, /[ms ]+/); v = t[1] * 60 + t[2] + t[3] * 60 + t[4] }
  END { printf "%.2f\n", v }' "$f" >"$f.s" && mv "$f.s" "$f"
exit $rc
EOF
  chmod +x "$cpu_of"
}

# "  CPU per process: rank seconds, ..." of the last run (of $1 processes)
# under cpu_of
cpu_per_process() {
  local r line="  CPU per process:"
  for ((r = 0; r < $1; r++)); do line+=" $r $(cat "$POMP_CPU_DIR/$r" 2>/dev/null || echo -),"; done
  echo "${line%,}"
  rm -f "$POMP_CPU_DIR"/*
}

run() {
  local src=$1 out=${2:-/tmp/pomp-scaling}
  log=$out/errors.log
  mkdir -p "$PREFIX" "$out" "$out/cpu" && cp -r "$src"/. "$PREFIX"/
  export POMP_CPU_DIR=$out/cpu
  write_cpu_of
  export PATH=$PREFIX/bin:$PATH
  echo "machine: $(nproc) cores, $(uname -r)"
  # POMP_SCALING_DIVIDE=N: traces N times smaller (a dry run here);
  # POMP_SCALING_BASE=PROGRAM: another pomp-analyze (the one before a
  # change, bundled under another name) timed at P = 1 and the largest P
  base=${POMP_SCALING_BASE:-}
  local div=${POMP_SCALING_DIVIDE:-1}
  # POMP_SCALING_THREADS=N: pomp-analyze --threads N in every run
  # (default 1: processes against one process, as before --threads);
  # P=1 is also timed with --threads 3 (decoding threads)
  threads=${POMP_SCALING_THREADS:-1}
  # POMP_SCALING_P8, POMP_SCALING_P16: the numbers of processes of each
  scale "$out/t8" $((100000000 / div)) 8 "${POMP_SCALING_P8:-2 4 8}"
  scale "$out/t16" $((30000000 / div)) 16 "${POMP_SCALING_P16:-2 4 8 16}"
  # POMP_SCALING_APP="PROGRAM ARGS..." with POMP_SCALING_APP_RANKS=N: an
  # instrumented application of the bundle, run under mpiexec -n N, whose
  # trace is analysed with and without the root-cause passes
  if [ -n "${POMP_SCALING_APP:-}" ]; then
    local cmd
    read -ra cmd <<<"$POMP_SCALING_APP"
    app "$out/app" "${POMP_SCALING_APP_RANKS:-16}" "${cmd[@]}"
  fi
}

# app DIR RANKS PROGRAM ARGS... : the application's trace, then the cost of
# delay costs and critical path (all passes against --no-rootcause
# --no-critical-path) serially and with one analysis process per rank
app() {
  local dir=$1 ranks=$2 wall cpu
  shift 2
  read -r wall cpu < <(POMP_EXPERIMENT=$dir OMP_WAIT_POLICY=passive timed mpiexec.hydra \
    -n "$ranks" "$@")
  printf '%s on %s ranks: wall %7.2f s; ' "$*" "$ranks" "$wall"
  pomp-analyze -o "$dir/serial.pomp" "$dir" 2>>"$log" | head -1
  local p only
  for p in 1 "$ranks"; do
    read -r wall cpu < <(timed mpiexec.hydra -n "$p" pomp-analyze -q --threads "$threads" \
      --no-rootcause --no-critical-path -o "$dir/only$p.pomp" "$dir")
    only=$wall
    printf 'P=%-3s without root cause wall %7.2f s  CPU %7.2f s\n' "$p" "$wall" "$cpu"
    read -r wall cpu < <(timed mpiexec.hydra -n "$p" "$cpu_of" pomp-analyze -q \
      --threads "$threads" -o "$dir/all$p.pomp" "$dir")
    local same=identical
    cmp -s "$dir/serial.pomp" "$dir/all$p.pomp" || same=DIFFERENT
    printf 'P=%-3s all passes wall %7.2f s  CPU %7.2f s  (%.2fx)  report %s\n' "$p" "$wall" \
      "$cpu" "$(calc "$wall / $only")" "$same"
    cpu_per_process "$p"
  done
  rm -rf "$dir"
}

# scale DIR EVENTS RANKS "P..." : the trace, then serial and parallel runs
scale() {
  local dir=$1 events=$2 ranks=$3 ps=$4
  bench_analyze --generate "$events" "$ranks" "$dir" 2>>"$log"
  local serial wall cpu
  read -r wall cpu < <(timed pomp-analyze -q --threads "$threads" -o "$dir/serial.pomp" "$dir")
  serial=$wall
  printf 'P=1   wall %7.2f s  CPU %7.2f s\n' "$wall" "$cpu"
  read -r wall cpu < <(timed pomp-analyze -q --threads 3 -o "$dir/t3.pomp" "$dir")
  local same=identical
  cmp -s "$dir/serial.pomp" "$dir/t3.pomp" || same=DIFFERENT
  printf 'P=1 --threads 3 wall %7.2f s  CPU %7.2f s  speed-up %5.2fx  report %s\n' "$wall" "$cpu" \
    "$(calc "$serial / $wall")" "$same"
  if [ -n "$base" ]; then
    local top=${ps##* }
    read -r wall cpu < <(timed "$base" -q -o "$dir/base.pomp" "$dir")
    printf '%s P=1   wall %7.2f s  CPU %7.2f s\n' "$base" "$wall" "$cpu"
    read -r wall cpu < <(timed mpiexec.hydra -n "$top" "$cpu_of" "$base" -q \
      -o "$dir/base$top.pomp" "$dir")
    printf '%s P=%-3s wall %7.2f s  CPU %7.2f s  speed-up %5.2fx against this serial\n' "$base" \
      "$top" "$wall" "$cpu" "$(calc "$serial / $wall")"
    cpu_per_process "$top"
  fi
  for p in $ps; do
    read -r wall cpu < <(timed mpiexec.hydra -n "$p" "$cpu_of" pomp-analyze -q --threads "$threads" \
      -o "$dir/p$p.pomp" "$dir")
    local same=identical
    cmp -s "$dir/serial.pomp" "$dir/p$p.pomp" || same=DIFFERENT
    printf 'P=%-3s wall %7.2f s  CPU %7.2f s  speed-up %5.2fx  efficiency %5.1f %%  report %s\n' \
      "$p" "$wall" "$cpu" "$(calc "$serial / $wall")" \
      "$(calc "100 * $serial / $wall / $p")" "$same"
    cpu_per_process "$p"
  done
  rm -rf "$dir"
}

case ${1:-} in
bundle) [ $# -ge 3 ] || die "usage: $prog bundle BUILD_DIR BUNDLE_DIR [PROGRAM...]"; shift; bundle "$@" ;;
run) [ $# -ge 2 ] || die "usage: $prog run BUNDLE_DIR [OUT_DIR]"; run "$2" "${3:-}" ;;
-h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' ;;
*) die "usage: $prog bundle BUILD_DIR BUNDLE_DIR | run BUNDLE_DIR [OUT_DIR]" ;;
esac
