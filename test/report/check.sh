# check.sh -- sourced by the test/report scripts: compares what a command
# prints with golden files.  The caller sets golden (the golden directory)
# and failures (0) and runs in a scratch directory.

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
    if [ -f "$golden/$name.$s" ] && ! diff -u "$golden/$name.$s" $s; then
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
  diff -u "$golden/$file" screen.txt ||
    { echo "$file: screen differs"; failures=$((failures + 1)); }
}
