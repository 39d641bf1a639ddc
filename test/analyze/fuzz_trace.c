/* libFuzzer target of the reader side (built with -DPOMP_FUZZ=ON and
   CC=clang).  A valid hybrid trace is written once; each input replaces one
   of its files (first byte: which) with the rest of the input, and the
   whole analysis runs on it.  It must end with a result or an error
   message: never a crash, a hang or a sanitizer report.  The anchor file
   traces.otf2 is left alone: OTF2 3.0.2 itself leaks the archive when
   OTF2_Reader_Open fails on a corrupt anchor, and a few bytes when a
   corrupt global definition file is read (both found by this target);
   leaks with libopen-trace-format2 on the stack are suppressed below. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_output.h"
#include "tracegen.h"

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libopen-trace-format2\n"; }

static char dir[256];
static const char *const files[] = {"traces/0.evt", "traces/1.evt", "traces/4294967296.evt",
                                    "traces.def", "traces/0.def"};
enum { NFILES = sizeof files / sizeof *files };
static unsigned char *original[NFILES];
static size_t original_size[NFILES];

static const char *const trace =
    "process 0 threads 2\nprocess 1 threads 1\nteam 5\ncomm 2 ranks 1 0\n"
    "region main compiler function main\n"
    "region par openmp parallel !$omp parallel @a.c:1\n"
    "region ibar openmp implicit_barrier !$omp implicit barrier @a.c:2\n"
    "region crit openmp critical !$omp critical @a.c:3\n"
    "region isend mpi point2point MPI_Isend\n"
    "region wait mpi point2point MPI_Wait\n"
    "region recv mpi point2point MPI_Recv\n"
    "region bar mpi barrier MPI_Barrier\n"
    "region scan mpi coll_other MPI_Scan\n"
    "loc 0.0\n0 enter main\n10 fork 2\n10 teambegin 5\n11 enter par\n"
    "12 enter crit\n13 acquire 1 1\n14 release 1 1\n15 leave\n"
    "20 enter ibar\n30 leave\n40 leave\n40 teamend 5\n41 join\n"
    "50 enter recv\n60 recv 1 0 0 8\n61 leave\n"
    "70 enter bar\n70 collbegin\n80 collend 0 0 - 0 0\n80 leave\n"
    "82 enter scan\n82 collbegin\n88 collend 14 2 - 4 4\n88 leave\n90 leave\n"
    "loc 0.1\n10 teambegin 5\n12 enter par\n13 enter crit\n15 acquire 1 2\n"
    "16 release 1 2\n17 leave\n25 enter ibar\n30 leave\n39 leave\n"
    "39 teamend 5\n"
    "loc 1.0\n0 enter main\n55 enter isend\n56 isend 0 0 0 8 3\n57 leave\n"
    "58 enter wait\n59 isendcomplete 3\n62 leave\n"
    "75 enter bar\n75 collbegin\n80 collend 0 0 - 0 0\n80 leave\n"
    "84 enter scan\n84 collbegin\n88 collend 14 2 - 4 4\n88 leave\n90 leave\n";

static void put(const char *name, const unsigned char *data, size_t n) {
  char path[400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  fwrite(data, 1, n, f);
  fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(dir, sizeof dir, "%s/pomp-fuzz-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  char err[256];
  if (!mkdtemp(dir) || tg_write(dir, trace, err, sizeof err)) abort();
  for (int i = 0; i < NFILES; i++) {
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    fseek(f, 0, SEEK_END);
    original_size[i] = (size_t)ftell(f);
    rewind(f);
    original[i] = malloc(original_size[i] + 1);
    if (fread(original[i], 1, original_size[i], f) != original_size[i]) abort();
    fclose(f);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int which = data[0] % NFILES;
  put(files[which], data + 1, size - 1);
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
  az_analysis a;
  /* also as the trace of a run that did not finish, where a cut-off
     event file is a warning instead of an error */
  az_options opt = {.run_status = (data[0] / NFILES) & 1 ? "incomplete: fuzz" : NULL};
  if (az_analyze(&a, anchor, &opt) == 0) {
    pomp_report *r = az_report_build(&a, anchor, NULL);
    pomp_report_free(r);
  } else if (!a.diag.first_error[0]) {
    abort(); /* a failure must say why */
  }
  az_analysis_free(&a);
  put(files[which], original[which], original_size[which]);
  return 0;
}
