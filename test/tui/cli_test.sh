#!/bin/sh
# cli_test.sh POMP_TUI WRITE_FIXTURE WORKDIR -- the pomp-tui command line:
# options, exit codes, messages for bad input (before any terminal use),
# experiment directories, and batch output of the real program.
set -u
tui=$1 fixture=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failures=0

# expect CODE "STDERR" CMD...: runs CMD, checks the exit code and that
# stderr equals the given text exactly.
expect() {
  want_rc=$1 want_err=$2
  shift 2
  "$@" >out.txt 2>err.txt
  rc=$?
  got_err=$(cat err.txt)
  if [ "$rc" != "$want_rc" ] || [ "$got_err" != "$want_err" ]; then
    echo "FAIL: $*"
    echo "  exit $rc (want $want_rc), stderr: $got_err"
    echo "  want stderr: $want_err"
    failures=$((failures + 1))
  fi
}

# expect_re CODE REGEX CMD...: the same, stderr matched by an extended
# regular expression (messages worded by the report library).
expect_re() {
  want_rc=$1 want_re=$2
  shift 2
  "$@" >out.txt 2>err.txt
  rc=$?
  if [ "$rc" != "$want_rc" ] || ! grep -Eq "$want_re" err.txt || [ "$(wc -l <err.txt)" != 1 ]; then
    echo "FAIL: $*"
    echo "  exit $rc (want $want_rc), stderr: $(cat err.txt)"
    echo "  want stderr matching: $want_re"
    failures=$((failures + 1))
  fi
}

"$fixture" small small.pomp || exit 1

expect 0 "" "$tui" --help
grep -q "^Usage: pomp-tui \[OPTION\]... EXPERIMENT_DIR|REPORT" out.txt || { echo "FAIL: --help text"; failures=$((failures + 1)); }
# --top says which list it cuts (pomp-analyze's and pomp-report's --top cut others)
grep -q '^      --top=N  *children of a location node listed, heaviest first, the$' out.txt ||
  { echo "FAIL: --help: --top"; failures=$((failures + 1)); }
expect 0 "" "$tui" --version
[ "$(cat out.txt)" = "pomp-tui (pomp) 0.1.0" ] || { echo "FAIL: --version text"; failures=$((failures + 1)); }

expect 2 "pomp-tui: missing EXPERIMENT_DIR|REPORT
Try 'pomp-tui --help'." "$tui" --batch
expect 2 "pomp-tui: unknown option '--frobnicate'
Try 'pomp-tui --help'." "$tui" --frobnicate small.pomp
expect 2 "pomp-tui: option '--size': '80by24' is not WxH (1 to 10000 each)
Try 'pomp-tui --help'." "$tui" --batch --size 80by24 small.pomp
expect 2 "pomp-tui: option '--keys': offset 1: unknown key token starting '<Nope>'
Try 'pomp-tui --help'." "$tui" --batch --keys "j<Nope>" small.pomp
expect 2 "pomp-tui: option '--keys' needs --batch
Try 'pomp-tui --help'." "$tui" --keys j small.pomp
expect 2 "pomp-tui: unexpected argument 'b.pomp'
Try 'pomp-tui --help'." "$tui" --batch small.pomp b.pomp

# Bad input: a message naming the file (and the offset), exit 1, and
# nothing on stdout (the terminal is never touched).
expect 1 "pomp-tui: missing.pomp: No such file or directory" "$tui" --batch missing.pomp
head -c 300 small.pomp >truncated.pomp
expect_re 1 "^pomp-tui: truncated.pomp: offset [0-9]+: .*truncated" \
  "$tui" --batch truncated.pomp
[ -s out.txt ] && { echo "FAIL: stdout written for a bad report"; failures=$((failures + 1)); }
cp small.pomp newer.pomp
printf '\002' | dd of=newer.pomp bs=1 seek=8 conv=notrunc 2>/dev/null
expect_re 1 "^pomp-tui: newer.pomp: offset 8: .*version 2.0 is newer" \
  "$tui" --batch newer.pomp
: >empty.pomp
expect_re 1 "^pomp-tui: empty.pomp: offset 0: not a pomp report" \
  "$tui" --batch empty.pomp
expect 1 "pomp-tui: not a terminal; use --batch for scripted output" "$tui" small.pomp </dev/null
# What is wrong with the file comes before where the output goes.
expect 1 "pomp-tui: missing.pomp: No such file or directory" "$tui" missing.pomp </dev/null
# A FIFO (or device) is refused by its type: opening it would block.
mkfifo fifo.pomp
expect 1 "pomp-tui: fifo.pomp: not a regular file" timeout 10 "$tui" --batch fifo.pomp
expect 1 "pomp-tui: /dev/zero: not a regular file" "$tui" --batch /dev/zero

# A damaged value row: browsing goes on, the status line names the row,
# and batch mode exits 1 so that scripts notice.
# The values section starts at the header's 64-bit field at byte 32
# (docs/FORMAT.md); its first row gets four bad bytes.
values=$(od -An -t u8 -j 32 -N 8 small.pomp | tr -d ' ')
cp small.pomp badrow.pomp
printf '\377\377\377\377' | dd of=badrow.pomp bs=1 seek=$((values + 4)) conv=notrunc 2>/dev/null
expect_re 1 "^pomp-tui: badrow.pomp: offset $values: row" \
  "$tui" --batch --size 120x8 badrow.pomp
tail -n 1 out.txt | grep -q "^badrow.pomp: offset $values: row" ||
  { echo "FAIL: corrupt row not on the status line"; failures=$((failures + 1)); }

# An experiment directory opens its report.pomp.
mkdir -p pomp_app_2x2 && cp small.pomp pomp_app_2x2/report.pomp
expect 0 "" "$tui" --batch --at-top --size 100x8 --keys "<Tab>x" pomp_app_2x2
tail -n 1 out.txt | grep -q "^main;solve;MPI_Recv  incl 10.00 \[% of total\]$" ||
  { echo "FAIL: experiment directory"; cat out.txt; failures=$((failures + 1)); }
expect 1 "pomp-tui: empty_dir/report.pomp: No such file or directory" sh -c "mkdir -p empty_dir && '$tui' --batch empty_dir"
# An experiment not analysed yet: the command that analyses it.
mkdir -p pomp_app_4x2 && : >pomp_app_4x2/measure.log
expect 1 "pomp-tui: pomp_app_4x2: not analysed yet (no report.pomp); run: pomp-analyze pomp_app_4x2" \
  "$tui" --batch pomp_app_4x2
# A re-run wrote pomp_app_2x2.N beside it (libpomp never overwrites): one
# note names the newest, on stderr; the batch screen is the same.
expect 0 "" "$tui" --batch --at-top --size 100x8 --keys "<Tab>x" pomp_app_2x2
cp out.txt plain_screen.txt
mkdir -p pomp_app_2x2.1 pomp_app_2x2.2 pomp_app_2x2.x && : >pomp_app_2x2.3 # .x and a file: no run
TZ=UTC touch -d "2026-01-02 03:04" pomp_app_2x2.2
expect 0 "pomp-tui: note: pomp_app_2x2.2 is newer (written 2026-01-02 03:04); this is pomp_app_2x2" \
  env TZ=UTC "$tui" --batch --at-top --size 100x8 --keys "<Tab>x" pomp_app_2x2
cmp -s out.txt plain_screen.txt ||
  { echo "FAIL: the screen changed with a newer re-run"; diff plain_screen.txt out.txt; failures=$((failures + 1)); }
expect 0 "pomp-tui: note: pomp_app_2x2.2 is newer (written 2026-01-02 03:04); this is pomp_app_2x2" \
  env TZ=UTC "$tui" --batch --at-top --size 100x8 --keys "<Tab>x" pomp_app_2x2/report.pomp
cp small.pomp pomp_app_2x2.1/report.pomp && cp small.pomp pomp_app_2x2.2/report.pomp
touch pomp_app_2x2.2
expect 0 "pomp-tui: note: pomp_app_2x2.2 is newer (written $(date -r pomp_app_2x2.2 +%H:%M)); this is pomp_app_2x2.1" \
  "$tui" --batch --size 100x8 pomp_app_2x2.1/
expect 0 "" "$tui" --batch --size 100x8 pomp_app_2x2.2

# The source view warns about a source edited after the run (newer than
# the trace, here the report), not about an older one.
mkdir -p src && cp small.pomp src/report.pomp && cp "$(dirname "$0")/data/app.c" src/app.c
now=$(date +%s)
touch -d "@$((now + 3600))" src/app.c
expect 0 "" "$tui" --batch --at-top --size 120x10 --keys "<Tab>Ej<Enter>v" src/report.pomp
sed -n 2p out.txt | grep -q "src/app.c:.*(edited after the run: lines may have moved)" ||
  { echo "FAIL: no warning for a source newer than the run"; cat out.txt; failures=$((failures + 1)); }
touch -d "@$((now - 3600))" src/app.c
expect 0 "" "$tui" --batch --at-top --size 120x10 --keys "<Tab>Ej<Enter>v" src/report.pomp
sed -n 2p out.txt | grep -q "edited after the run" &&
  { echo "FAIL: warning for a source older than the run"; failures=$((failures + 1)); }

# A report file of a run that did not finish: the warning line survives
# the file and shows in batch mode.
"$fixture" incomplete incomplete.pomp || exit 1
expect 0 "" "$tui" --batch --size 200x8 incomplete.pomp
[ "$(sed -n 2p out.txt)" = " WARNING: incomplete run: rank 1 called MPI_Abort(MPI_COMM_WORLD, 3); rank 0 ended at its last flush; values cover what the trace recorded" ] ||
  { echo "FAIL: incomplete run warning"; cat out.txt; failures=$((failures + 1)); }

# <dump> prints intermediate screens, separated by a form feed line; q stops.
expect 0 "" "$tui" --batch --at-top --size 60x7 --keys "<dump>q<Down>" small.pomp
[ "$(grep -c "$(printf '\f')" out.txt)" = 1 ] || { echo "FAIL: dump separator"; failures=$((failures + 1)); }
[ "$(tail -n 1 out.txt)" = "Time (time)  incl 100.00 [% of total]" ] ||
  { echo "FAIL: keys after q were replayed"; failures=$((failures + 1)); }

# --follow: an experiment directory; without a snapshot or report a batch
# run says what to set (the terminal waits for the first snapshot);
# <reload> outside --follow says so on the status line.
expect 1 "pomp-tui: small.pomp: not an experiment directory" "$tui" --follow --batch small.pomp
mkdir -p running
expect 1 "pomp-tui: running: no snapshot.pomp or report.pomp (run with POMP_MODE=profile POMP_SNAPSHOT=1)" \
  "$tui" --follow --batch running
"$fixture" snapshot running/snapshot.pomp || exit 1
expect 0 "" "$tui" --follow --batch --size 120x10 running
grep -q '^ following: snapshot of 2.0 s, updated [0-9][0-9]:[0-9][0-9]:[0-9][0-9] (re-read when it changes)' out.txt ||
  { echo "FAIL: --follow line: $(cat out.txt)"; failures=$((failures + 1)); }
expect 0 "" "$tui" --batch --size 120x10 running/snapshot.pomp
grep -q '^ snapshot of a running program at 2.0 s' out.txt ||
  { echo "FAIL: snapshot line: $(cat out.txt)"; failures=$((failures + 1)); }
expect 0 "" "$tui" --batch --size 120x10 --keys '<reload>' small.pomp
tail -1 out.txt | grep -q 'not following a running program' ||
  { echo "FAIL: <reload> without --follow: $(tail -1 out.txt)"; failures=$((failures + 1)); }

[ $failures = 0 ] && echo "all pomp-tui command line checks passed"
exit $failures
