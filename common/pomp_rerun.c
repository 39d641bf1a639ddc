/* pomp_rerun.c -- see pomp_rerun.h. */
#define _XOPEN_SOURCE 700 /* localtime_r, realpath */
#include "pomp_rerun.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "pomp_util.h"

/* The files of an experiment directory a reader is given instead of it;
   any other file (a report copied elsewhere) is no experiment's. */
static int experiment_file(const char *path) {
  static const char *const files[] = {"report.pomp", "traces.otf2", "snapshot.pomp"};
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    if (!strcmp(base, files[i])) return 1;
  return 0;
}

/* The experiment directory path names, as path spells it (no trailing
   '/'); "." and ".." resolved, since their names say nothing. Returns 0
   when path names no experiment. */
static int experiment_dir(const char *path, char *dir, size_t size) {
  struct stat st;
  snprintf(dir, size, "%s", path);
  if (stat(path, &st) != 0) return 0;
  if (!S_ISDIR(st.st_mode)) { /* a file in it */
    if (!experiment_file(path)) return 0;
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else snprintf(dir, size, ".");
  }
  for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--) dir[n - 1] = '\0';
  const char *slash = strrchr(dir, '/');
  const char *leaf = slash ? slash + 1 : dir;
  char real[PATH_MAX];
  if ((!strcmp(leaf, ".") || !strcmp(leaf, "..")) && realpath(dir, real))
    snprintf(dir, size, "%s", real);
  return 1;
}

/* The number a re-run appended to a name: "name.N" gives N and the length
   of "name"; anything else -1. */
static long rerun_number(const char *name, size_t *stem) {
  const char *dot = strrchr(name, '.');
  if (!dot || dot == name || !dot[1] || strlen(dot + 1) > 9) return -1;
  for (const char *d = dot + 1; *d; d++)
    if (*d < '0' || *d > '9') return -1;
  *stem = (size_t)(dot - name);
  return strtol(dot + 1, NULL, 10);
}

int pu_newer_rerun(const char *path, char *newer, size_t size, long long *written) {
  char dir[PU_DIR_MAX];
  if (!experiment_dir(path, dir, sizeof dir)) return 0;
  const char *slash = strrchr(dir, '/');
  const char *leaf = slash ? slash + 1 : dir;
  size_t parent_len = (size_t)(leaf - dir), stem = strlen(leaf);
  long own = rerun_number(leaf, &stem);
  if (own < 0) own = 0, stem = strlen(leaf);
  char parent[PU_DIR_MAX];
  snprintf(parent, sizeof parent, "%.*s", (int)parent_len, dir);
  DIR *d = opendir(parent_len ? parent : ".");
  if (!d) return 0;
  long best = own;
  struct dirent *e;
  char candidate[PU_PATH_MAX];
  while ((e = readdir(d)) != NULL) {
    size_t e_stem;
    long n = rerun_number(e->d_name, &e_stem);
    struct stat st;
    if (n <= best || e_stem != stem || strncmp(e->d_name, leaf, stem) != 0) continue;
    if (snprintf(candidate, sizeof candidate, "%s%s", parent, e->d_name) >= (int)sizeof candidate)
      continue; /* a path too long to be a run of ours */
    if (stat(candidate, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    best = n;
    snprintf(newer, size, "%s", candidate);
    *written = (long long)st.st_mtime;
  }
  closedir(d);
  return best > own;
}

void pu_note_newer_rerun(const char *path) {
  char newer[PU_PATH_MAX], dir[PU_DIR_MAX], when[32];
  long long written;
  if (!pu_newer_rerun(path, newer, sizeof newer, &written)) return;
  experiment_dir(path, dir, sizeof dir);
  time_t t = (time_t)written, now = time(NULL);
  struct tm then, today;
  localtime_r(&t, &then);
  localtime_r(&now, &today);
  /* the hour is enough today; another day needs its date */
  int same_day = then.tm_year == today.tm_year && then.tm_yday == today.tm_yday;
  strftime(when, sizeof when, same_day ? "%H:%M" : "%Y-%m-%d %H:%M", &then);
  pu_print_prefix(stderr);
  fprintf(stderr, "note: %s is newer (written %s); this is %s\n", newer, when, dir);
}

int pu_say_not_analysed(const char *path) {
  static const char *const signs[] = {"measure.log", "traces.otf2", "fragments"};
  struct stat st;
  char file[PU_PATH_MAX];
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
  snprintf(file, sizeof file, "%s/report.pomp", path);
  if (stat(file, &st) == 0) return 0;
  for (size_t i = 0; i < sizeof signs / sizeof signs[0]; i++) {
    snprintf(file, sizeof file, "%s/%s", path, signs[i]);
    if (stat(file, &st) == 0) {
      pu_error("%s: not analysed yet (no report.pomp); run: pomp-analyze %s", path, path);
      return 1;
    }
  }
  return 0;
}
