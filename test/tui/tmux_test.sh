#!/bin/sh
# tmux_test.sh POMP_TUI WRITE_FIXTURE WORKDIR -- pomp-tui in a real terminal
# (tmux): the screen a user sees equals the batch screen for the same keys
# and size, also after a resize; 256 colours reach the terminal, NO_COLOR
# removes them; q exits with status 0.  Polls the pane until the expected
# text appears (no fixed sleeps); gives up after 20 s.
set -u
tui=$1 fixture=$2 work=$3
command -v tmux >/dev/null || { echo "tmux not found: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$fixture" small small.pomp && "$fixture" alike alike.pomp || exit 1
report=small.pomp # what the session opens
# One private tmux server per session (a fresh socket each time: a server
# being killed must not race with the next one).
runs=0
sock="pomp-tui-test-$$-0"
t() { tmux -L "$sock" -f /dev/null "$@"; }
trap 't kill-server 2>/dev/null' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# wait_for TEXT: polls until the pane shows TEXT.
wait_for() {
  i=0
  while [ $i -lt 400 ]; do
    if t capture-pane -p -t s 2>/dev/null | grep -qF -- "$1"; then return 0; fi
    i=$((i + 1))
    sleep 0.05
  done
  fail "timed out waiting for '$1'"
  t capture-pane -p -t s
  return 1
}

# same_as_batch KEYS W H: the pane equals pomp-tui --batch for KEYS.
same_as_batch() {
  t capture-pane -p -t s >pane.txt
  LANG=C.UTF-8 "$tui" --batch --at-top --size "$2x$3" --keys "$1" "$report" >batch.txt
  # tmux drops trailing blank lines of the pane only when they are empty;
  # compare line by line with trailing blanks removed on both sides.
  sed 's/ *$//' pane.txt >pane.trim && sed 's/ *$//' batch.txt >batch.trim
  if ! cmp -s pane.trim batch.trim; then
    fail "terminal differs from batch for keys '$1' at $2x$3"
    diff pane.trim batch.trim | head -20
  fi
}

# The session runs pomp-tui, then prints its exit status and whether the
# terminal is back in cooked mode ("icanon echo"), then waits.  The shell
# survives Ctrl-C (a trap, not an ignore, which pomp-tui would inherit).
# --at-top: the trees from the top, the state the keys below assume (the
# opening on the top bottleneck is checked by test_screens.c).
cat >run.sh <<EOF
trap true INT
env TERM=tmux-256color LANG=C.UTF-8 "\$@" '$tui' --at-top --no-mouse "\$REPORT"
echo "EXIT=\$? TTY=\$(stty -a | tr ' ' '\\n' | grep -x -e '-*icanon' -e '-*echo' | tr -d '\\n')"
read x
EOF

launch() { # launch ENV...: pomp-tui in a fresh 120x30 session
  t kill-server 2>/dev/null
  runs=$((runs + 1))
  sock="pomp-tui-test-$$-$runs"
  t new-session -d -s s -x 120 -y 30 "REPORT=$report sh run.sh $*"
}
start() { launch "$@"; wait_for "Properties [% of total]"; }

start
t send-keys -t s E Tab E Tab E
wait_for "cluster  excl - [% of total]" && same_as_batch "E<Tab>E<Tab>E" 120 30
# 256 colours: Computation's icon (58 %, level 14) and the legend's top step.
t capture-pane -p -e -t s >colour.txt
grep -q "38;5;227m█" colour.txt || fail "no 256-colour gradient in the pane"

# Resize to a narrow terminal: one pane with tabs, the focus kept.
t resize-window -t s -x 70 -y 20
wait_for "[3 Locations]" && same_as_batch "E<Tab>E<Tab>E<resize 70x20>" 70 20
t resize-window -t s -x 120 -y 30
wait_for "Properties [% of total]" && same_as_batch "E<Tab>E<Tab>E" 120 30

t send-keys -t s q
wait_for "EXIT=0 TTY=icanonecho"

# NO_COLOR: no colour sequences at all, the weight glyphs stay.
start NO_COLOR=1
t capture-pane -p -e -t s >mono.txt
grep -q "38;5;" mono.txt && fail "colours despite NO_COLOR"
grep -q "█  100.00 Time" mono.txt || fail "weight glyph missing in monochrome"
t send-keys -t s q
wait_for "EXIT=0 TTY=icanonecho"

# Eight colours (TERM=screen): 100 % is red, 26 % (Idle threads) cyan.
start TERM=screen
t send-keys -t s E
wait_for "26.00 Idle threads"
t capture-pane -p -e -t s >eight.txt
grep -q "38;5;" eight.txt && fail "256 colours on an 8-colour terminal"
grep -q "$(printf '\033')\[31m█" eight.txt || fail "100 % is not red in 8 colours"
grep -q "$(printf '\033')\[36m▃" eight.txt || fail "26 % is not cyan in 8 colours"
t send-keys -t s q
wait_for "EXIT=0 TTY=icanonecho"

# An unknown terminal type: a message, exit 1, the terminal untouched.
launch TERM=no-such-terminal
wait_for "EXIT=1 TTY=icanonecho"
t capture-pane -p -t s | grep -qx "pomp-tui: cannot use terminal type 'no-such-terminal'" ||
  fail "no message for an unknown terminal type"

# A terminal that cannot move the cursor: refused like an unknown type.
launch TERM=dumb
wait_for "EXIT=1 TTY=icanonecho"
t capture-pane -p -t s | grep -qx "pomp-tui: terminal type 'dumb' cannot move the cursor; use --batch" ||
  fail "no message for TERM=dumb"

# TERM unset (or empty): the same hint, not ncurses' own message.
launch TERM=
wait_for "EXIT=1 TTY=icanonecho"
t capture-pane -p -t s | grep -qx "pomp-tui: TERM is not set: no terminal type to draw on; set TERM or use --batch" ||
  fail "no message for an unset TERM"

# Ctrl-C: ncurses restores the terminal before the program ends.
start
t send-keys -t s C-c
wait_for "TTY=icanonecho"

# --follow: the terminal looks at the experiment every second, keys or
# not: the snapshot first, then the final report written meanwhile (by
# rename, as libpomp-report writes), the place kept; q exits with 0.
mkdir -p exp && "$fixture" snapshot exp/snapshot.pomp || exit 1
cat >follow.sh <<EOF
env TERM=tmux-256color LANG=C.UTF-8 '$tui' --at-top --no-mouse --follow exp
echo "EXIT=\$?"
read x
EOF
t kill-server 2>/dev/null
runs=$((runs + 1))
sock="pomp-tui-test-$$-$runs"
t new-session -d -s s -x 120 -y 30 "sh follow.sh"
wait_for "following: snapshot of 2.0 s, updated"
t send-keys -t s Tab E
wait_for "MPI_Recv"
"$fixture" small exp/report.tmp && mv exp/report.tmp exp/report.pomp
wait_for "following: run finished, updated"
wait_for "MPI_Send" # the final report's new call path, in the expanded tree
t send-keys -t s q
wait_for "EXIT=0"

# At 80x24, as a user types it: /MPI_Recv lands on the heavier of the two
# receives (solve's, though setup's comes first in the tree), n on the
# other, each "match k of 2".
report=alike.pomp
start
t resize-window -t s -x 80 -y 24
wait_for "[1 Properties]"
t send-keys -t s Tab /MPI_Recv Enter
wait_for "match 1 of 2 for 'MPI_Recv'" &&
  same_as_batch "<resize 80x24><Tab>/MPI_Recv<Enter>" 80 24
t send-keys -t s n
wait_for "match 2 of 2 for 'MPI_Recv'" &&
  same_as_batch "<resize 80x24><Tab>/MPI_Recv<Enter>n" 80 24
t send-keys -t s q
wait_for "EXIT=0 TTY=icanonecho"
report=small.pomp

# The report truncated on disk while open (cp over it): the terminal is
# restored, the file named, exit 1 (not a SIGBUS).  Last: small.pomp is
# gone afterwards.
start
: >small.pomp
t send-keys -t s E Down Down Down Down Tab E End Up Up Tab E
wait_for "EXIT=1 TTY=icanonecho"
t capture-pane -p -t s | grep -qx "pomp-tui: small.pomp: changed on disk while open; reopen it" ||
  fail "no message for a report truncated while open"

[ $failures = 0 ] && echo "all tmux checks passed"
exit $failures
