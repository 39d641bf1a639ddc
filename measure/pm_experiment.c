/* pm_experiment.c -- the experiment directory (docs/ARCHITECTURE.md §3):
   named after the program and its shape, created once, never reused: an
   existing one makes the run write "<name>.1", "<name>.2", ... */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <errno.h>
#include <link.h>
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

/* Does an object of the program, other than libpomp (which links the
   OpenMP runtime itself), need an OpenMP runtime? Its DT_NEEDED entries
   say (glibc has relocated DT_STRTAB in the loaded image). */
static int needs_openmp(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  const char *name = info->dlpi_name;
  if (name && (strstr(name, "libpomp") || strstr(name, "libgomp") || strstr(name, "libomp")))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *p = &info->dlpi_phdr[i];
    if (p->p_type != PT_DYNAMIC) continue;
    const ElfW(Dyn) *d = (const ElfW(Dyn) *)(info->dlpi_addr + p->p_vaddr);
    const char *strtab = NULL;
    for (const ElfW(Dyn) *e = d; e->d_tag != DT_NULL; e++)
      if (e->d_tag == DT_STRTAB) strtab = (const char *)e->d_un.d_ptr;
    if (!strtab || (uintptr_t)strtab < info->dlpi_addr) continue; /* not relocated: unsure */
    for (const ElfW(Dyn) *e = d; e->d_tag != DT_NULL; e++) {
      const char *lib = e->d_tag == DT_NEEDED ? strtab + e->d_un.d_val : "";
      if (strstr(lib, "libgomp") || strstr(lib, "libomp") || strstr(lib, "libiomp")) return 1;
    }
  }
  return 0;
}

void pm_experiment_name(char *buf, size_t size, int ranks, int threads) {
  /* OMP_NUM_THREADS=2 says nothing about a program without OpenMP */
  if (!dl_iterate_phdr(needs_openmp, NULL)) threads = 1;
  if (pm_cfg.experiment) {
    snprintf(buf, size, "%s", pm_cfg.experiment);
    return;
  }
  char app[256];
  app_name(app, sizeof app);
  snprintf(buf, size, "pomp_%s_%dx%d", app, ranks, threads);
}

/* An existing directory is never reused nor overwritten (an earlier
   run's results stay): the run goes to the first free "<dir>.N", said on
   stderr and in measure.log, so that re-running needs no rm -rf. */
int pm_experiment_create(char *dir, size_t size) {
  char base[4096];
  snprintf(base, sizeof base, "%s", dir);
  for (int n = 1; mkdir(dir, 0755) != 0; n++) {
    if (errno != EEXIST || n > PM_EXPERIMENT_MAX_NUMBER) {
      pm_err("cannot create experiment directory '%s': %s; measurement disabled", dir,
             errno == EEXIST ? "it and its numbered successors exist" : strerror(errno));
      return -1;
    }
    if ((size_t)snprintf(dir, size, "%s.%d", base, n) >= size) {
      pm_err("experiment directory '%s' exists; measurement disabled", base);
      return -1;
    }
  }
  if (strcmp(dir, base) != 0)
    pm_warn("experiment directory '%s' exists; writing '%s' (POMP_EXPERIMENT names another)", base,
            dir);
  return 0;
}
