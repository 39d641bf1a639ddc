#!/usr/bin/env bash
# test_check_layers.sh CHECK_LAYERS ARCHITECTURE_MD -- tools/check-layers
# on small trees made in a temporary folder, under the repository's own
# component table: a clean tree passes, each planted violation is named by
# file:line and edge, and a document without the table, or with a cycle in
# it, is a usage error.
set -u
check=$1 doc=$2
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
failures=0

# expect NAME STATUS EXPECTED_STDOUT: runs the checker on $tmp/tree
expect() {
  local name=$1 status=$2 want=$3 got rc
  got=$("$check" --root "$tmp/tree" --doc "$tmp/tree/docs/ARCHITECTURE.md" 2>"$tmp/stderr")
  rc=$?
  if [[ $rc -ne $status || "$got" != "$want" ]]; then
    printf 'FAIL %s: status %d (want %d)\n--- stdout\n%s\n--- want\n%s\n--- stderr\n' \
      "$name" "$rc" "$status" "$got" "$want"
    cat "$tmp/stderr"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

put() { mkdir -p "$(dirname "$tmp/tree/$1")" && printf '%b' "$2" >"$tmp/tree/$1"; }

mkdir -p "$tmp/tree/docs" && cp "$doc" "$tmp/tree/docs/ARCHITECTURE.md"
put include/pomp.h '/* api */\n'
put include/pomp_report.h '/* report api */\n'
put common/pomp_util.h '/* util */\n'
put measure/pomp_measure.h '#include "pomp.h"\n'
put measure/pm_trace.h '/* private */\n'
put measure/pm_event.c '#include "pm_trace.h"\n#include "pomp_util.h"\n#include <pomp.h>\n#include <stdio.h>\n'
put mpiwrap/mw.c '#include "pomp_measure.h"\n#include "mw_fn.h" /* generated */\n'
put unify/pomp_unify.h '/* unify api */\n'
put recover/rc.h '#include "pomp_unify.h"\n'
put analyze/az.h '#include "pomp_report.h"\n'
put tui/app.c '#include "pomp_report.h"\n#include "pomp_util.h"\n'
put test/measure/t.c '#include "pm_trace.h"\n#include "az.h"\n#include "fixture_that_is_not_here.h"\n'
expect "the clean tree passes" 0 ""

put tui/bad.c '/* a view */\n\n#include "pomp_measure.h"\n'
put mpiwrap/mw2.c '#include "pomp_util.h"\n#include "pm_trace.h"\n'
put measure/pm_up.c '#include "az.h"\n'
put measure/pm_lost.c '#include "nowhere.h"\n'
expect "planted violations are named" 1 \
'measure/pm_lost.c:1: "nowhere.h" is no file of the tree
measure/pm_up.c:1: #include "az.h": measure -> analyze is not an allowed dependency (measure may include: include, common, unify, report)
mpiwrap/mw2.c:2: #include "pm_trace.h": measure/pm_trace.h is private to measure (its public headers: measure/pomp_measure.h)
tui/bad.c:3: #include "pomp_measure.h": tui -> measure is not an allowed dependency (tui may include: common, report)'

rm "$tmp/tree"/tui/bad.c "$tmp/tree"/mpiwrap/mw2.c "$tmp/tree"/measure/pm_up.c "$tmp/tree"/measure/pm_lost.c
put recover/rc_more.c '#include "pm_trace.h"\n'
expect "recover/ may not include measure/" 1 \
'recover/rc_more.c:1: #include "pm_trace.h": recover -> measure is not an allowed dependency (recover may include: common, unify)'

rm "$tmp/tree"/recover/rc_more.c
sed 's/^| measure | `measure\/` \(.*\)| include, common, unify, report |$/| measure | `measure\/` \1| include, common, unify, report, mpiwrap |/' \
  "$doc" >"$tmp/tree/docs/ARCHITECTURE.md"
expect "a table whose dependencies form a cycle is a usage error" 2 ""
if ! grep -q "'measure' may include 'mpiwrap', which is not above it" "$tmp/stderr"
then echo "FAIL the cycle is not named"; failures=$((failures + 1)); fi

printf '# no table here\n' >"$tmp/tree/docs/ARCHITECTURE.md"
expect "a document without the table is a usage error" 2 ""

exit $((failures > 0))
