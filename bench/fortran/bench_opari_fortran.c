/*
 * bench_opari_fortran.c -- throughput of pomp-opari's Fortran front end.
 *
 *   bench-opari-fortran POMP_OPARI [LINES]
 *
 * Generates a free-form and a fixed-form Fortran unit of about LINES lines
 * each (default 1,000,000), one OpenMP directive per ~10 lines (parallel
 * with continuation, DO with and without END DO, labelled DO, critical,
 * atomic, single, PARALLEL DO, lock calls, decoy directives in comments
 * and strings), and times, best of 3 in this same run, `cp` of each file
 * (the baseline: reading and writing that many bytes) and pomp-opari on
 * it.  Prints CPU seconds (user + system: on a shared machine the wall
 * clock mostly measures other processes), the ratio to the baseline, time
 * per million lines and peak RSS.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* One subroutine in each form; %ld is its number. */
static const char *const free_body[] = {
    "! s%ld: !$omp parallel in a comment stays a comment",
    "subroutine s%ld(a, n, l)",
    "  use omp_lib",
    "  integer :: n, i, j",
    "  real :: a(n), s",
    "  integer(omp_lock_kind) :: l",
    "  character(len=20) :: decoy = '!$omp barrier'",
    "  s = 0",
    "!$omp parallel private(i, j) &",
    "!$omp& shared(a, n, s, l)",
    "!$omp do schedule(static) reduction(+:s)",
    "  do i = 1, n",
    "    s = s + a(i) * 2.0",
    "  end do",
    "!$omp do",
    "  do i = 1, n",
    "    a(i) = a(i) + 1",
    "  end do",
    "!$omp end do nowait",
    "!$omp critical (upd)",
    "  a(1) = a(1) + s",
    "!$omp end critical (upd)",
    "!$omp atomic",
    "  a(2) = a(2) + 1",
    "!$omp single",
    "  call omp_set_lock(l)   ! call omp_set_lock(l) in a comment",
    "  a(3) = a(3) + 1",
    "  call omp_unset_lock(l)",
    "!$omp end single",
    "!$omp end parallel",
    "!$omp parallel do num_threads(4) schedule(dynamic, 8)",
    "  do i = 1, n",
    "    a(i) = a(i) * 0.5 + i",
    "  end do",
    "end subroutine s%ld",
};
static const char *const fixed_body[] = {
    "C     S%ld: !$OMP PARALLEL IN A COMMENT STAYS A COMMENT",
    "      SUBROUTINE S%ld(A, N)",
    "      INTEGER N, I",
    "      REAL A(N), S",
    "      CHARACTER*20 T",
    "      T = '!$OMP BARRIER'",
    "      S = 0",
    "C$OMP PARALLEL PRIVATE(I)",
    "C$OMP+SHARED(A, N, S)",
    "C$OMP DO REDUCTION(+:S)",
    "      DO 10 I = 1, N",
    "         S = S + A(I)",
    "   10 CONTINUE",
    "C$OMP CRITICAL",
    "      A(1) = A(1) + S",
    "C$OMP END CRITICAL",
    "C$OMP BARRIER",
    "C$OMP END PARALLEL",
    "C$OMP PARALLEL DO",
    "      DO 20 I = 1, N",
    "         A(I) = A(I) * 0.5",
    "   20 CONTINUE",
    "C$OMP END PARALLEL DO",
    "      END",
};

static long generate(const char *path, const char *const *body, size_t nbody, long want,
                     long *directives) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  long lines = 0;
  *directives = 0;
  for (long k = 0; lines < want; k++)
    for (size_t i = 0; i < nbody; i++, lines++) {
      fprintf(f, body[i], k, k);
      fputc('\n', f);
      if (body[i][1] == '$' && (body[i][0] == '!' || body[i][0] == 'C') && body[i][5] == ' ')
        ++*directives;
    }
  fclose(f);
  return lines;
}

typedef struct {
  double cpu;
  long rss_kb;
} Run;

/* Best of 3 runs of argv (CPU time of the child). */
static Run run(char *const argv[]) {
  Run best = {1e30, 0};
  for (int rep = 0; rep < 3; rep++) {
    pid_t pid = fork();
    if (pid == 0) {
      execv(argv[0], argv);
      _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
      fprintf(stderr, "bench-opari-fortran: %s failed\n", argv[0]);
      exit(1);
    }
    double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
                 ru.ru_stime.tv_usec * 1e-6;
    if (cpu < best.cpu) best.cpu = cpu;
    if (ru.ru_maxrss > best.rss_kb) best.rss_kb = ru.ru_maxrss;
  }
  return best;
}

static void bench(const char *opari, const char *form, const char *ext, const char *const *body,
                  size_t nbody, long want) {
  char in[64], out[64], copy[64];
  snprintf(in, sizeof in, "/tmp/bench-opari-f-%d.%s", (int)getpid(), ext);
  snprintf(out, sizeof out, "/tmp/bench-opari-f-%d.mod.%s", (int)getpid(), ext);
  snprintf(copy, sizeof copy, "/tmp/bench-opari-f-%d.copy", (int)getpid());
  long directives, lines = generate(in, body, nbody, want, &directives);
  char *cp_argv[] = {"/bin/cp", in, copy, NULL};
  char *op_argv[] = {(char *)opari, in, out, NULL};
  Run base = run(cp_argv), r = run(op_argv);
  printf("%-5s %9ld lines %7ld directive lines | cp %.3f s | pomp-opari %.3f s CPU, %.2f s per M "
         "lines, %.0fx cp, peak RSS %ld MB\n",
         form, lines, directives, base.cpu, r.cpu, r.cpu * 1e6 / (double)lines,
         base.cpu > 0 ? r.cpu / base.cpu : 0.0, r.rss_kb / 1024);
  char companion[80];
  snprintf(companion, sizeof companion, "%s.pomp.c", out);
  unlink(in);
  unlink(out);
  unlink(copy);
  unlink(companion);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3 || strcmp(argv[1], "--help") == 0) {
    fprintf(argc < 2 ? stderr : stdout, "usage: %s POMP_OPARI [LINES]\n", argv[0]);
    return argc < 2 ? 2 : 0;
  }
  long want = argc == 3 ? atol(argv[2]) : 1000000;
  if (want <= 0) {
    fprintf(stderr, "%s: LINES must be a positive number\n", argv[0]);
    return 2;
  }
  bench(argv[1], "free", "f90", free_body, sizeof free_body / sizeof *free_body, want);
  bench(argv[1], "fixed", "f", fixed_body, sizeof fixed_body / sizeof *fixed_body, want);
  return 0;
}
