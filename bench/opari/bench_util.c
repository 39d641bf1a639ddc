/* bench_util.c -- see bench_util.h. */
#define _DEFAULT_SOURCE
#include "bench_util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bench_clock.h"

/* One function of 100 lines with five directives (and five more decoys). */
static long write_function(FILE *f, long k, long *pragmas) {
  static const char *const body[] = {
      "/* f%ld: #pragma omp parallel in a comment must stay a comment */",
      "void f%ld(double *a, int n, omp_lock_t *l) {",
      "  int i;",
      "  double s = 0.0;",
      "  const char *decoy = \"#pragma omp parallel for\";",
      "#pragma omp parallel private(i) shared(a, n)",
      "  {",
      "#pragma omp for schedule(static) reduction(+:s)",
      "    for (i = 0; i < n; i++) {",
      "      s += a[i] * 2.0;",
      "    }",
      "#pragma omp critical",
      "    { a[0] += s; }",
      "#pragma omp single",
      "    a[1] = (double)decoy[0];",
      "    omp_set_lock(l); /* omp_set_lock(l) in a comment */",
      "    a[2] += 1.0;",
      "    omp_unset_lock(l);",
      "  }",
      "#pragma omp parallel for num_threads(4) schedule(dynamic, 8)",
      "  for (i = 0; i < n; i++)",
      "    a[i] = a[i] * 0.5 + (double)i;",
  };
  long lines = 0;
  for (size_t i = 0; i < sizeof body / sizeof *body; i++, lines++) {
    fprintf(f, body[i], k);
    fputc('\n', f);
  }
  for (; lines < 99; lines++)
    fprintf(f, "  s = s * 1.0001 + a[%ld %% (n + 1)] - %ld.0;\n", lines, k);
  fputs("}\n", f);
  *pragmas += 5;
  return lines + 1;
}

void bench_generate(const char *path, long want, long *lines, long *pragmas) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs("#include <omp.h>\n", f);
  *lines = 1;
  *pragmas = 0;
  for (long k = 0; *lines + 100 <= want; k++) *lines += write_function(f, k, pragmas);
  fclose(f);
}

Run bench_run(char *const argv[]) {
  Run best = {1e30, 1e30, 0, 0};
  for (int rep = 0; rep < 3; rep++) {
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
      int null = open("/dev/null", 1);
      dup2(null, 1);
      dup2(null, 2);
      execvp(argv[0], argv);
      _exit(127);
    }
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    double wall = bench_now() - t0;
    double t = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec * 1e-6;
    if (t < best.seconds) best.seconds = t;
    if (wall < best.wall) best.wall = wall;
    if (ru.ru_maxrss > best.rss_kb) best.rss_kb = ru.ru_maxrss;
    best.status = status;
  }
  return best;
}
