#!/bin/sh
# help_width.sh COMMAND... -- every COMMAND --help, and each subcommand's
# --help of a command that lists them in a "Commands" section (pomp-report's
# stat, diff, cube, ...), exits 0 and fits 80 columns: a terminal's width,
# which pomp_opt.h wraps the options and commands to.
set -u
. "$(dirname "$0")/pomp_expect.sh"
export LC_ALL=C.UTF-8 # wc -L counts characters, not bytes

# fits NAME CMD...: CMD's output (its --help) exits 0, is not empty and has
# no line wider than 80 columns.
fits() {
  name=$1
  shift
  help=$("$@" 2>&1)
  expect_eq "$name: exit status" "$?" 0
  [ -n "$help" ] || fail "$name: no help"
  [ "$(printf '%s\n' "$help" | wc -L)" -le 80 ] ||
    fail "$name: lines over 80 columns:
$(printf '%s\n' "$help" | awk 'length($0) > 80')"
}

for cmd in "$@"; do
  fits "$(basename "$cmd") --help" "$cmd" --help
  for sub in $("$cmd" --help | awk '/^Commands/ { listed = 1; next }
      /^$/ { listed = 0 } listed && /^  [a-z]/ { print $1 }'); do
    fits "$(basename "$cmd") $sub --help" "$cmd" "$sub" --help
  done
done
echo "$# commands: $failures failures"
[ "$failures" -eq 0 ]
