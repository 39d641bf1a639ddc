/* run_scenario.c -- see run_scenario.h. */
#define _GNU_SOURCE
#include "run_scenario.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[256];

const char *sc_tmpdir(void) {
  if (!tmpdir[0]) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pomp-measure-test-XXXXXX");
    if (!mkdtemp(tmpdir)) {
      perror("mkdtemp");
      exit(1);
    }
  }
  return tmpdir;
}

static void slurp(const char *path, char *buf, size_t size) {
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  if (!f) return;
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = '\0';
  fclose(f);
}

const char *sc_file(const char *dir, const char *name) {
  static char buf[65536];
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  slurp(path, buf, sizeof buf);
  return buf;
}

void sc_run(const char *program, const char *tag, const char *const *args, const char *const *env,
            sc_result *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->dir, sizeof r->dir, "%s/%s", sc_tmpdir(), tag);
  snprintf(r->trace, sizeof r->trace, "%s/traces.otf2", r->dir);
  char exe[1024], out[600], err[600];
  snprintf(exe, sizeof exe, "%s/%s", SCENARIO_DIR, program);
  snprintf(out, sizeof out, "%s/%s.stdout", sc_tmpdir(), tag);
  snprintf(err, sizeof err, "%s/%s.stderr", sc_tmpdir(), tag);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    setenv("POMP_EXPERIMENT", r->dir, 1);
    setenv("OMP_NUM_THREADS", "2", 1);
    unsetenv("POMP_FILTER");
    unsetenv("POMP_BUFFER");
    for (int i = 0; env && env[i]; i++) putenv((char *)env[i]);
    int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    const char *argv[16] = {exe};
    for (int i = 0; args && args[i] && i < 14; i++) argv[i + 1] = args[i];
    execv(exe, (char *const *)argv);
    _exit(127);
  }
  waitpid(pid, &r->status, 0);
  slurp(out, r->out, sizeof r->out);
  slurp(err, r->err, sizeof r->err);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *f) {
  (void)st, (void)flag, (void)f;
  return remove(path);
}

void sc_cleanup(void) {
  if (tmpdir[0]) nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  tmpdir[0] = '\0';
}
