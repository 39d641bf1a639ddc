#!/usr/bin/env bash
# test_pomp_cc.sh POMP_CC SOURCES BUILD_DIR -- end-to-end tests of pomp-cc:
# command line, one-step and separate builds, make, C++, MPI, errors, and
# the installed copy. Traces are checked with otf2-print (exact counts).
set -u
. "$(dirname "$0")/../pomp_expect.sh" # fail, expect_eq
pcc=$1 src=$2 build=$3
work=$(mktemp -d /tmp/pomp-cc-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$src"/*.c "$src"/*.cpp "$src"/*.f90 "$src"/Makefile "$work"/
cp -r "$src"/launcher "$work"/
cd "$work"
export OMP_NUM_THREADS=2
# count of trace lines matching an extended regex
count() { otf2-print "$1/traces.otf2" 2>/dev/null | grep -cE "$2"; }
# run PROGRAM [args]: runs it with its own experiment directory $exp;
# its standard output is in $out
runs=0
run() {
  runs=$((runs + 1))
  exp=$work/exp_$runs
  out=$(POMP_EXPERIMENT=$exp "$@")
}

# --- command line -------------------------------------------------------
out=$("$pcc" --help); rc=$?
expect_eq "--help exit" "$rc" 0
expect_eq "--help first line" "$(echo "$out" | head -n 1)" \
  "Usage: pomp-cc [OPTION]... COMPILER [ARG]..."
expect_eq "--version" "$("$pcc" --version)" "pomp-cc (pomp) 0.1.0"
err=$("$pcc" 2>&1 >/dev/null); rc=$?
expect_eq "no compiler exit" "$rc" 2
expect_eq "no compiler message" "$err" \
  "pomp-cc: missing COMPILER
Try 'pomp-cc --help'."
err=$("$pcc" --frobnicate gcc app.c 2>&1); rc=$?
expect_eq "unknown option exit" "$rc" 2
expect_eq "unknown option message" "$err" \
  "pomp-cc: unknown option '--frobnicate'
Try 'pomp-cc --help'."
err=$("$pcc" -V); rc=$?
expect_eq "-V" "$rc $err" "0 pomp-cc (pomp) 0.1.0"
err=$("$pcc" no-such-cc app.c 2>&1); rc=$?
expect_eq "missing compiler exit" "$rc" 1
expect_eq "missing compiler message" "$err" "pomp-cc: error: compiler 'no-such-cc' not found"
err=$("$pcc" gcc -c app.c twice.c -o x.o 2>&1); rc=$?
expect_eq "-o with -c and two sources" "$rc" 2
# no input: the compiler's own answer, not a link of libpomp alone
err=$("$pcc" gcc 2>&1); rc=$?
expect_eq "no input exit" "$rc" 1
expect_eq "no input message" "$(echo "$err" | head -n 1)" "gcc: fatal error: no input files"
expect_eq "-dumpversion" "$("$pcc" gcc -dumpversion)" "$(gcc -dumpversion)"
# -x: the command runs unchanged, with a warning when it builds something
err=$("$pcc" gcc -fopenmp -x c app.c twice.c -o app_x 2>&1); rc=$?
expect_eq "-x exit" "$rc" 0
expect_eq "-x warning" "$err" \
  "pomp-cc: warning: -x given: the command runs unchanged, the program is not measured"
expect_eq "-x: nothing instrumented" "$(nm app_x | grep -c POMP_)" 0
err=$("$pcc" gcc -E -x c app.c 2>&1 >/dev/null); rc=$?
expect_eq "-E -x: no warning" "$rc:$err" "0:"

# --- one step: OpenMP constructs and user functions ----------------------
inlined_work_calls=0
"$pcc" --verbose gcc -c twice.c -o /dev/null 2>&1 | grep -q 'user functions: GCC plugin' ||
  inlined_work_calls=8 # no plugin in this build: -finstrument-functions records it
# --all-functions: twice() is a straight-line leaf, which the GCC plugin
# leaves out by default
"$pcc" --all-functions gcc -fopenmp -O1 -o app app.c twice.c || fail "one-step build"
run ./app
expect_eq "one-step output" "$out" "sum=66"
expect_eq "parallel regions" "$(count "$exp" 'ENTER .*"!\$omp parallel @app.c:11"')" 2
expect_eq "loop regions" "$(count "$exp" 'ENTER .*"!\$omp for @app.c:11"')" 2
expect_eq "implicit barriers" "$(count "$exp" 'ENTER .*"!\$omp implicit barrier @app.c:12"')" 2
expect_eq "critical acquisitions" "$(count "$exp" 'THREAD_ACQUIRE_LOCK')" 2
# work() is inlined into the loop: not recorded (with the GCC plugin)
expect_eq "work() calls" "$(count "$exp" 'ENTER .*Region: "work"')" "$inlined_work_calls"
expect_eq "twice() calls" "$(count "$exp" 'ENTER .*Region: "twice"')" 8
expect_eq "main" "$(count "$exp" 'ENTER .*Region: "main"')" 1
expect_eq "no registration function" "$(count "$exp" 'pomp_register')" 0

# measure.log counts the descriptors the units registered (at the end:
# the program's constructors run after libpomp has started)
expect_eq "descriptors registered" \
  "$(grep -c '^3 descriptors registered by instrumented units$' "$exp/measure.log")" 1

# --- region names: the base name of the source, its path in the File field --
"$pcc" gcc -fopenmp -O1 -o app_abs "$work/app.c" "$work/twice.c" || fail "absolute-path build"
run ./app_abs
expect_eq "absolute path: parallel regions" "$(count "$exp" 'ENTER .*"!\$omp parallel @app.c:11"')" 2
expect_eq "absolute path: no path in names" "$(count "$exp" '"!\$omp [^"]*@/')" 0
expect_eq "absolute path: File field" "$(otf2-print -G "$exp/traces.otf2" |
  grep -cE "^REGION .*Name: \"!\\\$omp parallel @app.c:11\".*File: \"$work/app.c\"")" 1

# --- response files (@FILE): expanded with GCC's quoting rules, nested -----
printf '%s\n' "-O1 -o 'app rsp'" '"app.c" @inner.rsp' >outer.rsp
printf '%s\n' 'tw\ice.c' >inner.rsp
"$pcc" --all-functions gcc -fopenmp @outer.rsp || fail "response file build"
run "./app rsp"
expect_eq "response file output" "$out" "sum=66"
expect_eq "response file: parallel regions" "$(count "$exp" 'ENTER .*"!\$omp parallel @app.c:11"')" 2
expect_eq "response file: twice() calls" "$(count "$exp" 'ENTER .*Region: "twice"')" 8
printf '%s\n' "-o 'unterminated app.c" >bad.rsp
err=$("$pcc" gcc @bad.rsp 2>&1); rc=$?
expect_eq "bad response file" "$rc:$err" "1:pomp-cc: error: bad.rsp: unterminated ' quote"
printf '%s\n' "@loop.rsp" >loop.rsp
err=$("$pcc" gcc @loop.rsp 2>&1); rc=$?
expect_eq "recursive response file" "$rc:$err" \
  "1:pomp-cc: error: loop.rsp: response files nested more than 10 deep"

# --- --no-functions ------------------------------------------------------
"$pcc" --no-functions gcc -fopenmp -O1 -o app_nf app.c twice.c || fail "--no-functions build"
run ./app_nf
expect_eq "--no-functions output" "$out" "sum=66"
expect_eq "--no-functions: no user functions" "$(count "$exp" 'Region: "(work|twice|main)"')" 0
expect_eq "--no-functions: OpenMP kept" "$(count "$exp" 'ENTER .*"!\$omp parallel @app.c:11"')" 2

# --- --keep leaves the instrumented unit ---------------------------------
"$pcc" --keep gcc -fopenmp -o app_keep app.c twice.c || fail "--keep build"
grep -q "POMP_Parallel_fork" app.mod.i || fail "--keep: no instrumented app.mod.i"

# --- preprocessing (C/C++): --no-preprocess instruments the source itself;
# -save-temps keeps the instrumented .i where the compiler keeps its own;
# -c with several sources gives one object each --------------------------
"$pcc" --no-preprocess --keep gcc -fopenmp -o app_np app.c twice.c || fail "--no-preprocess build"
grep -q "POMP_Parallel_fork" app.mod.c || fail "--no-preprocess --keep: no instrumented app.mod.c"
run ./app_np
expect_eq "--no-preprocess output" "$out" "sum=66"
expect_eq "--no-preprocess: parallel regions" "$(count "$exp" 'ENTER .*"!\$omp parallel @app.c:11"')" 2
mkdir st && (cd st && "$pcc" gcc -fopenmp -save-temps -c ../app.c -o app.o) || fail "-save-temps build"
grep -q "POMP_Parallel_fork" st/app.i || fail "-save-temps: no instrumented st/app.i"
[ -f st/app.s ] && [ -f st/app.o ] || fail "-save-temps: no st/app.s or st/app.o"
mkdir two && (cd two && "$pcc" gcc -fopenmp -c ../app.c ../twice.c) || fail "-c with two sources"
"$pcc" gcc -fopenmp -o app_two two/app.o two/twice.o || fail "link of two/*.o"
run ./app_two
expect_eq "-c with two sources: output" "$out" "sum=66"

# --- separate compilation and link; -MD names the source -----------------
"$pcc" gcc -fopenmp -O1 -MD -c app.c -o app_sep.o || fail "compile app.c"
"$pcc" --all-functions gcc -fopenmp -O1 -c twice.c || fail "compile twice.c"
[ -f twice.o ] || fail "twice.o not created in the current directory"
grep -q "app.c" app_sep.d && ! grep -q "pomp-cc\." app_sep.d || fail "app_sep.d: $(cat app_sep.d)"
"$pcc" gcc -fopenmp -o app_sep app_sep.o twice.o || fail "link"
run ./app_sep
expect_eq "separate output" "$out" "sum=66"
expect_eq "separate: twice() calls" "$(count "$exp" 'ENTER .*Region: "twice"')" 8

# a source and an object in one command: the object goes to the link only,
# not to the source's compile (gcc would warn "linker input file unused")
err=$("$pcc" --all-functions gcc -fopenmp -O1 -o app_mixed app.c twice.o 2>&1); rc=$?
expect_eq "source + object: status and stderr" "$rc:$err" "0:"
run ./app_mixed
expect_eq "source + object: output" "$out" "sum=66"

# -MD at a link step: the dependency files gcc itself would write there
mkdir md && (cd md && "$pcc" gcc -fopenmp -MD ../app.c ../twice.c) || fail "-MD link build"
expect_eq "-MD at a link: dependency files" "$(cd md && echo *.d)" "a-app.d a-twice.d"
expect_eq "-MD at a link: first line" "$(head -n 1 md/a-app.d | cut -d' ' -f1-2)" "app.o: ../app.c"

# -Wp,-MD,FILE / -Wp,-MMD,FILE (kernel-style builds): the preprocessor's
# own dependency file names the source, with the preprocessor's default
# target (the source's base name, whatever -o says), in both modes; a
# second make then has nothing to do
for np in "" --no-preprocess; do
  d=wp$np
  mkdir "$d" && cp app.c "$d"/ && mkdir "$d/sub"
  printf '%s\n' 'app.o: app.c' '	$(CC) -fopenmp -Wp,-MD,app.d -c app.c' '-include app.d' >"$d/Makefile"
  (cd "$d" && make -s CC="$pcc $np gcc" >/dev/null) || fail "$d: make"
  (cd "$d" && make -q CC="$pcc $np gcc") || fail "$d: a second make has work: $(head -n 1 "$d/app.d")"
  expect_eq "$d: -Wp,-MD first line" "$(head -n 1 "$d/app.d" | cut -d' ' -f1-2)" "app.o: app.c"
  (cd "$d" && "$pcc" ${np:+"$np"} gcc -fopenmp -Wp,-MMD,x.d,-MP -c app.c -o sub/x.o) || fail "$d: -Wp,-MMD"
  expect_eq "$d: -Wp,-MMD first line" "$(head -n 1 "$d/x.d" | cut -d' ' -f1-2)" "app.o: app.c"
  expect_eq "$d: temporary names" "$(cat "$d/app.d" "$d/x.d" | grep -c 'pomp-cc\.')" 0
done

# --- commands that build nothing behave as the compiler's ------------------
# -fsyntax-only: checked through preprocessing and pomp-opari, as a build
# would compile them (pomp-opari's errors show), nothing written
mkdir syn && cd syn
for np in "" --no-preprocess; do
  err=$("$pcc" ${np:+"$np"} gcc -fopenmp -fsyntax-only ../app.c ../twice.c 2>&1); rc=$?
  expect_eq "-fsyntax-only $np" "$rc:$err:$(ls)" "0::"
  err=$("$pcc" ${np:+"$np"} gcc -fopenmp -c -fsyntax-only ../bad_omp.c 2>&1); rc=$?
  expect_eq "-fsyntax-only $np: pomp-opari error" "$rc:$(echo "$err" | head -n 1 | cut -d' ' -f1-2)" \
    "1:../bad_omp.c:3: error:"
done
if command -v gfortran >/dev/null; then
  err=$("$pcc" gfortran -fopenmp -fsyntax-only ../app.f90 2>&1); rc=$?
  expect_eq "Fortran -fsyntax-only" "$rc:$err:$(ls)" "0::"
fi
# questions to the driver: its answer, nothing compiled
answer() { "$@" 2>&1 | head -n 1; echo "exit ${PIPESTATUS[0]}"; }
expect_eq "-print-prog-name with a source" "$(answer "$pcc" gcc -print-prog-name=cc1 ../app.c)" \
  "$(answer gcc -print-prog-name=cc1)"
expect_eq "--version with a source" "$(answer "$pcc" gcc --version ../app.c)" "$(answer gcc --version)"
expect_eq "-dumpmachine with a source" "$(answer "$pcc" gcc -dumpmachine ../app.c)" "$(answer gcc -dumpmachine)"
err=$("$pcc" gcc -fopenmp -'###' ../app.c 2>&1); rc=$?
expect_eq "-### exit" "$rc" 0
expect_eq "-### names the source" "$(echo "$err" | grep -c '/app\.c')" 1
expect_eq "nothing written" "$(ls)" ""
# -S: the instrumented assembly, where the compiler writes it
"$pcc" gcc -fopenmp -S ../app.c || fail "-S"
expect_eq "-S: fork calls" "$(grep -c 'call.*POMP_Parallel_fork' app.s)" 2
cd "$work"

# --- make CC="pomp-cc gcc" -----------------------------------------------
rm -f app.o twice.o
make -s CC="$pcc gcc" app >/dev/null || fail "make"
run ./app
expect_eq "make output" "$out" "sum=66"
expect_eq "make: parallel regions" "$(count "$exp" 'ENTER .*"!\$omp parallel @app.c:11"')" 2

# --- C++ -----------------------------------------------------------------
"$pcc" --all-functions g++ -fopenmp -O1 -o app_cxx app.cpp || fail "C++ build"
run ./app_cxx
expect_eq "C++ output" "$out" "s=14"
expect_eq "C++ demangled" "$(count "$exp" 'ENTER .*Region: "calc::square\(int\)"')" 4

# --- Fortran: a companion C file of descriptors, one object per source -----
if command -v gfortran >/dev/null; then
  "$pcc" gfortran -fopenmp -O1 -c app.f90 -o app_f.o || fail "Fortran compile"
  "$pcc" gfortran -fopenmp -o app_f app_f.o || fail "Fortran link"
  run ./app_f
  expect_eq "Fortran output" "$out" "sum=36"
  expect_eq "Fortran parallel regions" "$(count "$exp" 'ENTER .*"!\$omp parallel @app.f90:6"')" 2
  expect_eq "Fortran loops" "$(count "$exp" 'ENTER .*"!\$omp do @app.f90:6"')" 2
  # the companion file of descriptors is C: gfortran's C compiler, the
  # user's code-shaping flags only, no warnings
  err=$("$pcc" --verbose gfortran -fopenmp -O2 -g -fallow-argument-mismatch -c app.f90 -o app_fc.o 2>&1) ||
    fail "Fortran compile (companion)"
  expect_eq "Fortran companion command" "$(echo "$err" | grep '\.pomp\.c ' | cut -d' ' -f2-5)" "gcc -w -O2 -g"
  # -Wp,-MD: the preprocessor's default target is the source's, as for C
  cp app.f90 app_up.F90 && mkdir fsub
  for np in "" --no-preprocess; do
    "$pcc" ${np:+"$np"} gfortran -fopenmp -Wp,-MD,f.d -c app_up.F90 -o fsub/x.o || fail "Fortran -Wp,-MD $np"
    expect_eq "Fortran -Wp,-MD $np: first line" "$(head -n 1 f.d | cut -d' ' -f1-2)" "app_up.o: app_up.F90"
  done
  # compiler messages name the user's file, also for lines before the first
  # directive (free form) and in a unit without any (fixed form)
  printf 'program p\n  integer :: i\n  i = 1 +\n!$omp parallel\n!$omp end parallel\nend program\n' >bad_early.f90
  printf '      program p\n      integer i\n      i = 1 +\n      end\n' >bad_plain.f
  for f in bad_early.f90 bad_plain.f; do
    err=$("$pcc" gfortran -fopenmp -c "$f" -o /dev/null 2>&1)
    expect_eq "Fortran error names $f" "$(echo "$err" | grep -m1 -o "^[^ :]*:3:")" "$f:3:"
  done
fi

# --- constructs passed through: one warning per name and file -------------
printf 'void f(float *a, int n) {\n#pragma omp simd\n  for (int i = 0; i < n; i++) a[i] *= 2;\n#pragma omp simd\n  for (int i = 0; i < n; i++) a[i] += 1;\n}\n' >simd2.c
err=$("$pcc" gcc -fopenmp -c simd2.c -o simd2.o 2>&1); rc=$?
expect_eq "two 'omp simd': one warning" "$rc:$err" \
  "0:simd2.c:2: warning: 'omp simd' is not instrumented: passed through unchanged with everything inside it (said once per file)"

# --- errors ----------------------------------------------------------------
err=$("$pcc" gcc -fopenmp -c bad_omp.c 2>&1); rc=$?
expect_eq "pomp-opari error exit" "$rc" 1
echo "$err" | grep -q "^bad_omp.c:3: error: " || fail "pomp-opari error message: $err"
err=$("$pcc" gcc -c bad_c.c 2>&1); rc=$?
expect_eq "compiler error exit" "$rc" 1
echo "$err" | grep -q "bad_c.c:2:.*error: .undefined_variable" || fail "compiler error: $err"

# --- MPI: libpomp-mpi linked for mpicc -----------------------------------
if [ -e "$build/mpiwrap/libpomp-mpi.so" ] && command -v mpicc >/dev/null; then
  "$pcc" mpicc -o mpi_app mpi_app.c || fail "MPI build"
  readelf -d mpi_app | grep -q 'libpomp-mpi' || fail "libpomp-mpi not linked"
  exp=$work/exp_mpi
  POMP_EXPERIMENT=$exp timeout 60 mpiexec -n 2 ./mpi_app || fail "MPI run"
  expect_eq "MPI sends" "$(count "$exp" '^MPI_SEND ')" 1
  expect_eq "MPI receives" "$(count "$exp" '^MPI_RECV ')" 1
  expect_eq "MPI main on both ranks" "$(count "$exp" 'ENTER .*Region: "main"')" 2
  # measurement off on one rank only: off on all, no hang, a clear message
  exp=$work/exp_mpi_half
  err=$(POMP_EXPERIMENT=$exp timeout 60 mpiexec -n 1 -env POMP_ENABLE 0 ./mpi_app : -n 1 ./mpi_app 2>&1)
  expect_eq "half-disabled MPI run" "$?" 0
  expect_eq "half-disabled message" "$err" \
    "libpomp: error: measurement is disabled on some ranks (POMP_ENABLE, POMP_FILTER?); disabled on all"
  [ -e "$exp" ] && fail "half-disabled run created $exp"
  # definitions made in different orders on the ranks come out unified
  "$pcc" --all-functions mpicc -O1 -o mpi_order mpi_order.c || fail "MPI build (order)"
  exp=$work/exp_mpi_order
  POMP_EXPERIMENT=$exp timeout 60 mpiexec -n 2 ./mpi_order || fail "MPI run (order)"
  first_user() { # the first two user functions of a location, in order
    otf2-print -L "$1" "$exp/traces.otf2" 2>/dev/null |
      grep -oE '^ENTER .*Region: "(alpha|beta)"' | grep -oE '(alpha|beta)' | head -n 2 | tr '\n' ' '
  }
  expect_eq "rank 0 calls" "$(first_user 0)" "alpha beta "
  expect_eq "rank 1 calls" "$(first_user 1)" "beta alpha " # location id thread << 32 | rank
  expect_eq "allreduce on the dup on both ranks" \
    "$(count "$exp" 'MPI_COLLECTIVE_END .*Operation: ALLREDUCE')" 2
  world=$(count "$exp" 'MPI_COLLECTIVE_END .*Operation: ALLREDUCE.*Communicator: "MPI_COMM_WORLD"')
  expect_eq "the dup is not MPI_COMM_WORLD" "$world" 0
  "$pcc" gcc -o plain app.c twice.c -fopenmp
  readelf -d plain | grep -q 'libpomp-mpi' && fail "libpomp-mpi linked without MPI"
  # MPI lines of measure.log carry their rank, each line whole
  expect_eq "measure.log lines without rank" \
    "$(grep -vcE '^\[rank [01]\] ' "$work/exp_mpi_order/measure.log")" 0
  # killed by a signal: no trace, and the killed rank's log line says why
  "$pcc" mpicc -o mpi_signal mpi_signal.c || fail "MPI build (signal)"
  exp=$work/exp_mpi_signal
  POMP_EXPERIMENT=$exp timeout 60 mpiexec -n 2 ./mpi_signal >/dev/null 2>&1
  [ -e "$exp/traces.otf2" ] && fail "MPI run killed by a signal wrote a trace"
  expect_eq "MPI signal line of rank 1" "$(grep '^\[rank 1\] signal SIGTERM' "$exp/measure.log")" \
"[rank 1] signal SIGTERM received: MPI run: writing this rank's complete fragment"
  # ... but leaves complete fragments (rank 0 on the peer signal) for pomp-recover
  [ -f "$exp/fragments/0.frag" ] && [ -f "$exp/fragments/1.frag" ] ||
    fail "MPI run killed by a signal left no fragments"
fi

# --- MPI whatever the link order -----------------------------------------
if [ -e "$build/mpiwrap/libpomp-mpi.so" ] && command -v mpicc >/dev/null; then
  # CMake with pomp-cc as launcher: MPI::MPI_C's full-path libmpich.so
  # comes before what pomp-cc adds, directly and through response files
  for rsp in OFF ON; do
    cmake -S launcher -B "launcher-$rsp" -DCMAKE_C_COMPILER_LAUNCHER="$pcc" \
      -DCMAKE_C_LINKER_LAUNCHER="$pcc" -DCMAKE_C_USE_RESPONSE_FILE_FOR_LIBRARIES=$rsp \
      -DCMAKE_C_USE_RESPONSE_FILE_FOR_OBJECTS=$rsp >/dev/null 2>&1 &&
      cmake --build "launcher-$rsp" >/dev/null 2>&1 || fail "CMake launcher build ($rsp)"
    exp=$work/exp_launcher_$rsp
    POMP_EXPERIMENT=$exp timeout 60 mpiexec -n 2 "launcher-$rsp/mpi_app" || fail "launcher run ($rsp)"
    expect_eq "launcher ($rsp): MPI sends" "$(count "$exp" '^MPI_SEND ')" 1
    expect_eq "launcher ($rsp): MPI receives" "$(count "$exp" '^MPI_RECV ')" 1
  done
  # linked by hand with the MPI library first: MPI_* are not ours; rank 0
  # says so loudly and measures itself as a process without MPI
  mpicc -finstrument-functions -c mpi_app.c -o mpi_first.o &&
    gcc -o mpi_first mpi_first.o $(mpicc -show | cut -d' ' -f2-) -Wl,--no-as-needed \
      -L"$build/mpiwrap" -Wl,-rpath,"$build/mpiwrap" -lpomp-mpi \
      -L"$build/measure" -Wl,-rpath,"$build/measure" -lpomp || fail "MPI-first build"
  exp=$work/exp_mpi_first
  err=$(POMP_EXPERIMENT=$exp timeout 60 mpiexec -n 2 ./mpi_first 2>&1) || fail "MPI-first run"
  expect_eq "MPI-first: one warning (rank 0)" "$(echo "$err" | grep -c 'MPI calls are NOT recorded')" 1
  expect_eq "MPI-first: in measure.log" "$(grep -c 'MPI calls are NOT recorded' "$exp/measure.log")" 1
  expect_eq "MPI-first: no MPI events" "$(count "$exp" '^MPI_')" 0
  # pomp-cc mpicc, no MPI_Init: the OpenMP events are kept, and it says so
  "$pcc" mpicc -fopenmp -o no_init no_init.c || fail "no-MPI_Init build"
  exp=$work/exp_no_init
  err=$(POMP_EXPERIMENT=$exp ./no_init 2>&1 >/dev/null) || fail "no-MPI_Init run"
  expect_eq "no MPI_Init: parallel regions entered" "$(count "$exp" '^ENTER .*"!\$omp parallel @no_init.c:7"')" 2
  expect_eq "no MPI_Init: warning" "$err" \
    "libpomp: warning: this program links libpomp-mpi but never called MPI_Init: no MPI events; its trace is written as that of a process without MPI"
fi
# a run that recorded nothing says so
"$pcc" --no-opari gcc -o no_events twice.c app.c -fopenmp 2>/dev/null
err=$(POMP_EXPERIMENT=$work/exp_no_events POMP_FUNCTIONS=0 ./no_events 2>&1 >/dev/null)
expect_eq "0 events: warning" "$(echo "$err" | grep -c 'libpomp: warning: the trace in .* has no events')" 1

# --- Fortran MPI: nothing calls a C MPI_ symbol, libpomp-mpi kept anyway ----
# (--no-as-needed); 2 ranks give one experiment pomp_f_2x2 with MPI events
if [ -e "$build/mpiwrap/libpomp-mpi.so" ] && command -v mpif90 >/dev/null; then
  mkdir fmpi && cd fmpi
  err=$("$pcc" mpif90 -fopenmp -o f ../mpi_hyb.f90 2>&1) || fail "Fortran MPI build: $err"
  expect_eq "Fortran MPI build: no messages (companion not compiled with Fortran flags)" "$err" ""
  readelf -d f | grep -q 'libpomp-mpi' || fail "Fortran MPI: libpomp-mpi not linked"
  out=$(timeout 60 mpiexec -n 2 ./f 2>&1) || fail "Fortran MPI run: $out"
  expect_eq "Fortran MPI output" "$(echo $out)" "1001000.0000000000"
  expect_eq "Fortran MPI experiments" "$(echo pomp_f_*)" "pomp_f_2x2"
  exp=pomp_f_2x2
  expect_eq "Fortran MPI allreduce" "$(count "$exp" '^MPI_COLLECTIVE_END .*Operation: ALLREDUCE')" 2
  expect_eq "Fortran MPI_Init regions" "$(count "$exp" '^ENTER .*Region: "MPI_Init"')" 2
  expect_eq "Fortran MPI parallel regions" \
    "$(count "$exp" 'ENTER .*"!\$omp parallel @mpi_hyb.f90:11"')" 4
  cd "$work"
fi

# --- the installed copy ----------------------------------------------------
if cmake --install "$build" --prefix "$work/inst" >/dev/null 2>&1; then
  "$work/inst/bin/pomp-cc" gcc -fopenmp -O1 -o app_inst app.c twice.c || fail "installed build"
  run ./app_inst
  expect_eq "installed output" "$out" "sum=66"
  expect_eq "installed: parallel regions" "$(count "$exp" 'ENTER .*"!\$omp parallel @app.c:11"')" 2
  readelf -d app_inst | grep -q "$work/inst" || fail "installed libpomp not in the rpath"
  if [ "$inlined_work_calls" = 0 ]; then # the build has the GCC plugin: installed next to libpomp
    "$work/inst/bin/pomp-cc" --verbose gcc -c twice.c -o /dev/null 2>&1 |
      grep -q "^pomp-cc: user functions: GCC plugin $work/inst/lib.*/pomp_gcc_plugin.so" ||
      fail "installed pomp-cc does not use the installed plugin"
  fi
else
  fail "cmake --install"
fi

[ "$failures" = 0 ] && echo "pomp-cc: all checks passed"
exit $((failures > 0))
