#!/bin/sh
# cli_test.sh POMP_REPORT MAKE_FIXTURE GOLDEN_DIR -- runs pomp-report on the
# fixture reports and compares stdout, stderr and exit status with the
# expected ones.  Each check: name, expected status, command.
set -u
report=$1 make_fixture=$2 golden=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-cli-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
"$make_fixture" plain f.pomp && "$make_fixture" empty e.pomp &&
  "$make_fixture" extra x.pomp && "$make_fixture" incomplete i.pomp &&
  "$make_fixture" own o.pomp || { echo "cannot make fixtures"; exit 1; }
for v in balanced imbalanced mpi_wait hybrid no_cp; do
  "$make_fixture" pop_$v pop_$v.pomp || { echo "cannot make pop_$v"; exit 1; }
done
mkdir exp && cp f.pomp exp/report.pomp
printf 'not a report at all' > junk.pomp
head -c 100 f.pomp > short.pomp
failures=0

. "$(dirname "$0")/check.sh"

check dump_csv 0 "$report" dump f.pomp
check dump_csv_dir 0 "$report" dump exp
check dump_metric 0 "$report" dump f.pomp --metric mpi_latesender
check dump_json 0 "$report" dump f.pomp --metric=mpi --format json
check dump_empty_json 0 "$report" dump e.pomp --format json
check fold_time 0 "$report" fold f.pomp --metric time
check fold_visits 0 "$report" fold f.pomp -m visits
check stat 0 "$report" stat f.pomp -n 2
check stat_incomplete 0 "$report" stat i.pomp -n 1
# own parts named by their regions: "mostly" above half, else "largest part"
check stat_own 0 "$report" stat o.pomp
check stat_own_n0 0 "$report" stat o.pomp -n 0
# seconds as pomp-tui shows them, "394 µs" in the column of "1.00 s"
"$make_fixture" micro m.pomp || { echo "cannot make micro"; exit 1; }
check stat_micro 0 "$report" stat m.pomp -n 2
check defs 0 "$report" defs f.pomp --compact
# names measured as raw bytes (a Latin-1 file name): valid UTF-8 JSON,
# the byte written as U+FFFD (issue 18); csv keeps the bytes
"$make_fixture" latin1 l.pomp
"$report" defs l.pomp > l.json || { echo "defs latin1: failed"; failures=$((failures + 1)); }
"$report" dump l.pomp --format json > l.dump.json || { echo "dump latin1: failed"; failures=$((failures + 1)); }
for f in l.json l.dump.json; do
  iconv -f UTF-8 -t UTF-8 "$f" > /dev/null 2>&1 || { echo "$f: not valid UTF-8"; failures=$((failures + 1)); }
  grep -q "$(printf 'caf\357\277\275')" "$f" || { echo "$f: no U+FFFD for the Latin-1 byte"; failures=$((failures + 1)); }
done
check diff_self 0 "$report" diff f.pomp f.pomp -o d1.pomp
check diff_self_dump 0 "$report" dump d1.pomp
# a difference's values are no run's: no POP efficiencies, trace size or
# search of it (stat, dump, fold and pomp-tui show it)
check pop_diff 1 "$report" pop d1.pomp
check score_diff 1 "$report" score d1.pomp
check search_diff 1 "$report" search d1.pomp
check diff_empty 0 "$report" diff f.pomp e.pomp -o d2.pomp
check diff_empty_dump 0 "$report" dump d2.pomp
check diff_extra 0 "$report" diff f.pomp x.pomp -o d3.pomp
check diff_extra_dump 0 "$report" dump d3.pomp
# a difference is only as complete as both runs: its run_status names the
# input(s) that did not finish, and stat warns
check diff_incomplete_b 0 "$report" diff x.pomp i.pomp -o d4.pomp
check stat_diff_incomplete_b 0 "$report" stat d4.pomp -n 1
check diff_incomplete_a 0 "$report" diff i.pomp f.pomp -o d5.pomp
check stat_diff_incomplete_a 0 "$report" stat d5.pomp
cp i.pomp i2.pomp
check diff_incomplete_both 0 "$report" diff i.pomp i2.pomp -o d6.pomp
check stat_diff_incomplete_both 0 "$report" stat d6.pomp
check stat_diff_complete 0 "$report" stat d1.pomp
cp f.pomp f2.pomp
check diff_onto_input 2 "$report" diff f2.pomp e.pomp -o f2.pomp
check diff_onto_dir_input 2 "$report" diff f.pomp exp -o exp/report.pomp
cmp -s f.pomp f2.pomp && cmp -s f.pomp exp/report.pomp ||
  { echo "diff: an input was overwritten"; failures=$((failures + 1)); }
# without -o: diff.pomp here, said on stderr (cube_diff's diff.cubex); it
# replaces an earlier difference, never an input or another file
check diff_help 0 "$report" diff --help
mkdir dd && cd dd || exit 1
"$report" diff ../f.pomp ../e.pomp -o named.pomp && "$report" diff ../f.pomp ../x.pomp -o named2.pomp ||
  { echo "diff -o in dd: failed"; failures=$((failures + 1)); }
check diff_default 0 "$report" diff ../f.pomp ../e.pomp
cmp -s diff.pomp named.pomp || { echo "diff_default: not what -o writes"; failures=$((failures + 1)); }
check diff_default_again 0 "$report" diff ../f.pomp ../x.pomp
cmp -s diff.pomp named2.pomp || { echo "diff_default_again: not replaced"; failures=$((failures + 1)); }
check diff_default_input 2 "$report" diff diff.pomp ../f.pomp
cmp -s diff.pomp named2.pomp || { echo "diff_default_input: input overwritten"; failures=$((failures + 1)); }
cp ../f.pomp diff.pomp
check diff_default_other 2 "$report" diff ../f.pomp ../e.pomp
cmp -s diff.pomp ../f.pomp || { echo "diff_default_other: a run's report overwritten"; failures=$((failures + 1)); }
cd .. || exit 1
# cube without -o: where square leaves a .cubex (an experiment's
# trace.cubex, a profile's summary.cubex), else x.cubex next to x.pomp,
# said on stderr; it replaces a .cubex pomp-report wrote, never an input
# or another file
check cube_help 0 "$report" cube --help
mkdir cc cc/exp cc/prof && cd cc || exit 1
cp ../f.pomp f.pomp && cp f.pomp exp/report.pomp && "$make_fixture" profile prof/report.pomp &&
  "$report" cube f.pomp -o named.cubex && "$report" cube prof -o named_prof.cubex ||
  { echo "cube -o in cc: failed"; failures=$((failures + 1)); }
check cube_default 0 "$report" cube f.pomp
cmp -s f.cubex named.cubex || { echo "cube_default: not what -o writes"; failures=$((failures + 1)); }
check cube_default_exp 0 "$report" cube exp
cmp -s exp/trace.cubex named.cubex || { echo "cube_default_exp: not what -o writes"; failures=$((failures + 1)); }
check cube_default_again 0 "$report" cube exp/report.pomp
cmp -s exp/trace.cubex named.cubex || { echo "cube_default_again: not replaced"; failures=$((failures + 1)); }
check cube_default_profile 0 "$report" cube prof/
cmp -s prof/summary.cubex named_prof.cubex ||
  { echo "cube_default_profile: not what -o writes"; failures=$((failures + 1)); }
check cube_default_input 2 "$report" cube f.cubex
cmp -s f.cubex named.cubex || { echo "cube_default_input: input overwritten"; failures=$((failures + 1)); }
cp f.pomp exp/trace.cubex
check cube_default_other 2 "$report" cube exp
cmp -s exp/trace.cubex f.pomp || { echo "cube_default_other: a report overwritten"; failures=$((failures + 1)); }
check cube_onto_input 2 "$report" cube exp -o exp/report.pomp
cmp -s exp/report.pomp f.pomp || { echo "cube_onto_input: input overwritten"; failures=$((failures + 1)); }
cd .. || exit 1
check generate 0 "$report" generate -o g1.pomp --cnodes 50 --locations 8 \
  --threads 2 --metrics 40 --density 0.3 --seed 7
check generate_again 0 "$report" generate -o g2.pomp --cnodes 50 \
  --locations 8 --threads 2 --metrics 40 --density 0.3 --seed 7
cmp -s g1.pomp g2.pomp || { echo "generate: not deterministic"; failures=$((failures + 1)); }
# POP efficiencies of planted runs (values by hand in pop_fixture.c)
check pop_balanced 0 "$report" pop pop_balanced.pomp
check pop_balanced_json 0 "$report" pop pop_balanced.pomp --format json
check pop_imbalanced 0 "$report" pop pop_imbalanced.pomp
check pop_imbalanced_json 0 "$report" pop pop_imbalanced.pomp -f json
check pop_mpi_wait_json 0 "$report" pop pop_mpi_wait.pomp --format=json
check pop_hybrid 0 "$report" pop pop_hybrid.pomp
check pop_hybrid_json 0 "$report" pop pop_hybrid.pomp --format json
check pop_callpath_json 0 "$report" pop pop_hybrid.pomp --callpath 'main;!$omp parallel @a.c:5' -f json
# a call path by its labels (functions without parameter lists)
check pop_callpath_label 0 "$report" pop pop_imbalanced.pomp -c 'main;compute'
check pop_callpath_no_computation_json 0 "$report" pop pop_imbalanced.pomp \
  -c 'main;MPI_Allreduce' --format json
check pop_no_cp_json 0 "$report" pop pop_no_cp.pomp --format json
check pop_incomplete 0 "$report" pop i.pomp
check pop_incomplete_json 0 "$report" pop i.pomp --format json
# a call path that is not there: what can follow its longest known
# prefix, or the roots
check pop_no_callpath 1 "$report" pop pop_hybrid.pomp --callpath 'main;solve'
check pop_no_callpath_root 1 "$report" pop pop_hybrid.pomp --callpath 'solve'
# a call path's tail, as a user types a region's name: the paths it ends
check pop_callpath_tail 1 "$report" pop pop_hybrid.pomp --callpath '!$omp parallel @a.c:5'
"$report" generate -o t1.pomp --cnodes 3 --locations 2 --metrics 1 > /dev/null
check pop_no_comp 1 "$report" pop t1.pomp
check pop_bad_format 2 "$report" pop pop_hybrid.pomp --format xml
check pop_help 0 "$report" pop --help

check no_args 2 "$report"
check unknown_command 2 "$report" frobnicate
check unknown_command_typo 2 "$report" stats f.pomp
check unknown_option_typo 2 "$report" stat f.pomp --tpo 2
check unknown_option 2 "$report" dump f.pomp --colour
check bad_format 2 "$report" dump f.pomp --format xml
check fold_needs_metric 2 "$report" fold f.pomp
check generate_bad_density 2 "$report" generate -o g3.pomp --density 2
check missing_file 1 "$report" dump nothere.pomp
check junk_file 1 "$report" stat junk.pomp
check short_file 1 "$report" dump short.pomp
check no_metric 1 "$report" dump f.pomp --metric nope
# a part of a name: the metrics that hold it
check no_metric_suggest 1 "$report" fold f.pomp --metric latesender
# an experiment not analysed yet: the command to run, as pomp-tui says it
mkdir noreport && echo "[rank 0] libpomp" > noreport/measure.log
check not_analysed 1 "$report" stat noreport
# a re-run wrote exp.1 beside exp: a note on stderr, as pomp-tui gives it
mkdir exp.1 && cp f.pomp exp.1/report.pomp
"$report" defs exp > /dev/null 2> err
grep -qx "pomp-report: defs: note: exp.1 is newer (written [0-9:]*); this is exp" err ||
  { echo "newer re-run: no note: $(cat err)"; failures=$((failures + 1)); }
# diff of a run with its re-run: no note (the user named both); with
# another report the note stays
"$report" diff exp exp.1/report.pomp -o rr.pomp 2> err && [ ! -s err ] ||
  { echo "diff with the re-run: $(cat err)"; failures=$((failures + 1)); }
"$report" diff exp f.pomp -o rr.pomp 2> err && grep -q "^pomp-report: diff: note: exp.1 is newer" err ||
  { echo "diff with another report: no note: $(cat err)"; failures=$((failures + 1)); }
# Every input error of every command, found on opening (a report cut in
# half) or while reading its rows (a row's byte changed), is one line that
# starts with the program name, as every pomp command says its errors, and
# the command's, as the option errors do ("pomp-report: stat: half.pomp: ").
size=$(wc -c < f.pomp)
head -c $((size / 2)) f.pomp > half.pomp
"$report" generate -o gen.pomp --cnodes 20 > /dev/null && cp gen.pomp rowbad.pomp &&
  size=$(wc -c < gen.pomp) &&
  printf '\377' | dd of=rowbad.pomp bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null ||
  { echo "cannot make rowbad.pomp"; failures=$((failures + 1)); }
for cmd in "dump half.pomp" "stat half.pomp" "fold half.pomp --metric time" "defs half.pomp" \
  "score half.pomp" "pop half.pomp" "search half.pomp" "cube half.pomp -o h.cubex" \
  "diff f.pomp half.pomp -o h.pomp" "dump rowbad.pomp" "stat rowbad.pomp" "pop rowbad.pomp" \
  "search rowbad.pomp" "cube rowbad.pomp -o h.cubex" "diff rowbad.pomp gen.pomp -o h.pomp"; do
  # shellcheck disable=SC2086 # the words of the command
  "$report" $cmd > /dev/null 2> err
  st=$?
  [ $st -eq 1 ] && [ "$(wc -l < err)" -eq 1 ] && grep -q "^pomp-report: ${cmd%% *}: [a-z]*\\.pomp: " err ||
    { echo "$cmd: exit status $st, stderr: $(cat err)"; failures=$((failures + 1)); }
done
check version 0 "$report" --version
check help 0 "$report" --help
check dump_help 0 "$report" dump --help
# -n/--top says which list it cuts and its default, in each command
check stat_help 0 "$report" stat --help
check score_help 0 "$report" score --help

echo "$failures failures"
[ "$failures" -eq 0 ]
