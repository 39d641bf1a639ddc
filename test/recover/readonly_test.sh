#!/usr/bin/env bash
# readonly_test.sh -- a run that died, on storage that cannot be written
# (issue 18 item 8): pomp-analyze -o elsewhere recovers it in a temporary
# directory and analyses it; the experiment is left exactly as it was and
# the temporary directory is removed.
#   readonly_test.sh WORK KILLED ANALYZE
# Read-only: a read-only bind mount when root (root ignores permissions),
# else chmod; skipped with a message when neither works.
set -uo pipefail
work=$1 killed=$2 analyze=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
mounted=
trap '[ -n "$mounted" ] && umount "$mounted"; chmod -R u+w "$work" 2>/dev/null' EXIT
[ -d "$work" ] && chmod -R u+w "$work" && rm -rf "$work"
mkdir -p "$work/src" "$work/ro" "$work/tmp"
POMP_EXPERIMENT=$work/src/exp POMP_BUFFER=256k "$killed" 250000 >/dev/null 2>&1
[ -d "$work/src/exp/fragments" ] || fail "the killed run left no fragments"
listing() { (cd "$1" && find . -printf '%p %s %y %l\n' | sort); }
listing "$work/src/exp" >"$work/before"
if [ "$(id -u)" = 0 ]; then
  if mount --bind "$work/src" "$work/ro" 2>/dev/null; then
    mounted=$work/ro
    mount -o remount,ro,bind "$work/ro" 2>/dev/null || { echo "skipped: cannot remount read-only"; exit 0; }
  else
    echo "skipped: a read-only bind mount needs root with mount rights"
    exit 0
  fi
  exp=$work/ro/exp
else
  chmod -R a-w "$work/src/exp"
  exp=$work/src/exp
fi
touch "$exp/probe" 2>/dev/null && fail "the experiment is still writable"
TMPDIR=$work/tmp "$analyze" "$exp" -o "$work/report.pomp" >"$work/out" 2>"$work/err" ||
  fail "pomp-analyze -o elsewhere: exit $?: $(cat "$work/err")"
[ -s "$work/report.pomp" ] || fail "no report written"
sed -n 2p "$work/out" | grep -q "^incomplete: no rank recorded its end (killed?); trace recovered from 1 ranks" ||
  fail "status line: $(sed -n 2p "$work/out")"
grep -q "^pomp-analyze: $exp: cannot be written (.*): recovered in $work/tmp/pomp-recover\.[A-Za-z0-9]*, removed after the analysis$" "$work/err" ||
  fail "no line saying where it was recovered: $(cat "$work/err")"
listing "$exp" >"$work/after"
cmp -s "$work/before" "$work/after" || { diff "$work/before" "$work/after"; fail "the experiment changed"; }
[ -z "$(ls -A "$work/tmp")" ] || fail "temporary files left: $(ls -A "$work/tmp")"
# without -o the report cannot be written next to the trace: one error
TMPDIR=$work/tmp "$analyze" -q "$exp" 2>"$work/err"
[ $? = 1 ] || fail "without -o: not exit 1"
[ "$(tail -n 1 "$work/err")" = "pomp-analyze: $exp/report.pomp: cannot be written (read-only storage): give -o FILE to write the report elsewhere" ] ||
  fail "without -o: $(cat "$work/err")"
[ -z "$(ls -A "$work/tmp")" ] || fail "without -o: temporary files left: $(ls -A "$work/tmp")"
echo "ok: analysed from read-only storage, the experiment untouched"
