#!/usr/bin/env bash
# modes.sh -- one pomp-analyze build, every way of running it, one report.
#
#   bench/analyze/modes.sh ANALYZE OUTDIR TRACE... [-- REFDIR]
#
# Analyses each TRACE (an experiment directory or traces.otf2) four ways:
# serially (--threads 1), with --threads 2, and under `mpiexec -n 3` and
# `-n 5`, and checks that the four reports are byte-identical (the promise
# of docs/analyze/parallel.md).  The serial report is kept as
# OUTDIR/NAME.pomp (NAME: the trace's directory name); with `-- REFDIR`
# each is also compared with REFDIR/NAME.pomp, the reports of another
# build written by an earlier run of this script: what a change to analyze/
# that must not change a report is checked against.  A report names its
# trace as given on the command line: run both builds from the same
# directory with the same TRACE paths (relative ones travel best), or
# every reference differs.  Prints one line per
# trace and mode; exit status 1 when any report differs or any run fails.
# Not a test (it takes minutes and needs traces that are not in the tree).
set -uo pipefail
prog=${0##*/}
die() { echo "$prog: $*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: $prog ANALYZE OUTDIR TRACE... [-- REFDIR]"
analyze=$1 out=$2
shift 2
[ -x "$analyze" ] || die "$analyze: not an executable"
traces=() ref=
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then ref=${2:?"-- needs REFDIR"}; break; fi
  traces+=("$1")
  shift
done
mkdir -p "$out" || die "$out: cannot create"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export POMP_ANALYZE_WAIT=sleep
status=0

say() { printf '%-24s %-12s %s\n' "$1" "$2" "$3"; }

for trace in "${traces[@]}"; do
  dir=$trace
  [ -d "$dir" ] || dir=$(dirname "$trace")
  name=$(basename "$dir")
  serial=$out/$name.pomp
  if ! "$analyze" -q --threads 1 -o "$serial" "$trace" 2>"$work/err"; then
    say "$name" serial "FAILED: $(head -n1 "$work/err")"
    status=1
    continue
  fi
  say "$name" serial ok
  for mode in threads2 np3 np5; do
    case $mode in
    threads2) cmd=("$analyze" -q --threads 2) ;;
    np3) cmd=(mpiexec -n 3 "$analyze" -q --threads 1) ;;
    np5) cmd=(mpiexec -n 5 "$analyze" -q --threads 1) ;;
    esac
    if ! "${cmd[@]}" -o "$work/r.pomp" "$trace" 2>"$work/err"; then
      say "$name" "$mode" "FAILED: $(head -n1 "$work/err")"
      status=1
    elif cmp -s "$serial" "$work/r.pomp"; then
      say "$name" "$mode" identical
    else
      say "$name" "$mode" "DIFFERS from serial"
      status=1
    fi
  done
  if [ -n "$ref" ]; then
    if cmp -s "$serial" "$ref/$name.pomp"; then
      say "$name" reference identical
    else
      say "$name" reference "DIFFERS from $ref/$name.pomp"
      status=1
    fi
  fi
done
exit $status
