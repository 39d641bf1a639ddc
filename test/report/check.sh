# check.sh -- sourced by the test/report scripts: compares what a command
# prints with golden files.  The caller sets golden (the golden directory)
# and failures (0) and runs in a scratch directory.  With
# POMP_REPORT_UPDATE_GOLDEN=1 a difference rewrites the golden file instead
# of failing (review the change with git diff, as for the TUI's goldens).

# No file a command writes here may pass 64 MiB: a command that prints
# without end (a recursion gone wrong once filled 11 GB per run before
# ctest's timeout killed the script, too late for its clean-up trap) then
# fails at once, with SIGXFSZ, instead of filling the disk.
ulimit -f 131072

# differs GOLDEN GOT: 0 when they are equal or the golden was updated.
differs() {
  diff -u "$1" "$2" && return 1
  [ "${POMP_REPORT_UPDATE_GOLDEN:-0}" = 1 ] || return 0
  cp "$2" "$1" && echo "updated $1" && return 1
}

# check NAME STATUS CMD...: stdout must equal golden/NAME.out (if it
# exists), stderr golden/NAME.err (if it exists), the status STATUS.
check() {
  name=$1 want=$2
  shift 2
  "$@" > out 2> err
  got=$?
  ok=1
  [ "$got" -eq "$want" ] || { echo "$name: exit status $got, want $want"; ok=0; }
  for s in out err; do
    if [ -f "$golden/$name.$s" ] && differs "$golden/$name.$s" $s; then
      echo "$name: std$s differs"; ok=0
    fi
  done
  [ $ok -eq 1 ] || failures=$((failures + 1))
}

# check_screen GOLDEN_FILE POMP_TUI SIZE KEYS REPORT [OPTION]...: pomp-tui's
# batch screen after KEYS (with the OPTIONs) must equal golden/GOLDEN_FILE.
check_screen() {
  file=$1 tui=$2 size=$3 keys=$4 rep=$5
  shift 5
  "$tui" --batch --size "$size" --keys "$keys" "$@" "$rep" > screen.txt 2> err.txt ||
    { echo "$file: pomp-tui exited $?: $(cat err.txt)"; failures=$((failures + 1)); return; }
  if differs "$golden/$file" screen.txt; then
    echo "$file: screen differs"; failures=$((failures + 1))
  fi
}
