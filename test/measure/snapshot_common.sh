# snapshot_common.sh: sourced by snapshot_test.sh and snapshot_mpi_test.sh
# with their arguments SCENARIO POMP_REPORT POMP_TUI: a work directory
# (removed at exit, the program in $pid killed if still running), the
# experiment path in it, fail, and attr FILE KEY (a report attribute).
set -u
sc=$1 report=$2 tui=$3
work=$(mktemp -d)
exp=$work/exp
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
attr() { "$report" defs "$1" --compact | grep -o "\"$2\":\"[^\"]*\"" | cut -d'"' -f4; }
