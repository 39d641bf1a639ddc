/* pm_experiment.c -- the experiment directory (ARCHITECTURE.md section 3):
   named after the program and its shape, created once, never reused. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm_runtime.h"
#include "pm_trace.h"

char pm_experiment_dir[4096];

/* The program's file name: the target of /proc/self/exe, else "app". */
static void app_name(char *buf, size_t size) {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  const char *base = "app";
  if (n > 0) {
    path[n] = '\0';
    const char *slash = strrchr(path, '/');
    base = slash ? slash + 1 : path;
  }
  snprintf(buf, size, "%.200s", base); /* a name, not a path: keep it short */
}

void pm_experiment_name(char *buf, size_t size, int ranks, int threads) {
  if (pm_cfg.experiment) {
    snprintf(buf, size, "%s", pm_cfg.experiment);
    return;
  }
  char app[256];
  app_name(app, sizeof app);
  snprintf(buf, size, "pomp_%s_%dx%d", app, ranks, threads);
}

int pm_experiment_create(const char *dir) {
  if (mkdir(dir, 0755) == 0) return 0;
  if (errno == EEXIST)
    pm_err("experiment directory '%s' exists; measurement disabled (remove it or "
           "set POMP_EXPERIMENT)", dir);
  else
    pm_err("cannot create experiment directory '%s': %s; measurement disabled", dir,
           strerror(errno));
  return -1;
}
