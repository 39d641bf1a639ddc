/* rc_fragments.c -- reading an experiment's fragments. Every byte comes
   from a process that may have died while writing (although rename()
   makes that unlikely) or from a damaged disk, so everything is checked,
   and a problem is named by file and byte offset. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pomp_unify.h"
#include "pomp_util.h"
#include "rc.h"

#define MAX_RANKS (1u << 22)      /* a sanity bound before allocating */
#define MAX_FRAGMENT (1ull << 31) /* bytes */

void rc_path(char *buf, size_t size, const char *dir, const char *name) {
  snprintf(buf, size, "%s/%s", dir, name);
}

/* "<digits>.frag": the rank the file is named for, else -1. */
static long rank_of_name(const char *name) {
  char *end;
  if (name[0] < '0' || name[0] > '9') return -1;
  errno = 0;
  unsigned long r = strtoul(name, &end, 10);
  if (errno || strcmp(end, ".frag") != 0 || r >= MAX_RANKS) return -1;
  return (long)r;
}

static int read_file(const char *path, unsigned char **bytes, size_t *size) {
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (!f || fstat(fileno(f), &st) != 0) {
    pu_error("%s: cannot open: %s", path, strerror(errno));
    if (f) fclose(f);
    return -1;
  }
  if ((unsigned long long)st.st_size > MAX_FRAGMENT) {
    pu_error("%s: offset 0: %lld bytes, too large for a fragment", path, (long long)st.st_size);
    fclose(f);
    return -1;
  }
  *size = (size_t)st.st_size;
  *bytes = pu_malloc(*size ? *size : 1);
  int ok = fread(*bytes, 1, *size, f) == *size;
  fclose(f);
  if (!ok) pu_error("%s: read error", path);
  return ok ? 0 : -1;
}

/* A fragment that cannot be used: the error, or with --skip-damaged a
   warning, and its rank is then missing. Always -1 to the caller. */
static int damaged(rc_set *set, const char *path, size_t at, const char *what) {
  if (set->skip_damaged) {
    pu_warn("%s: offset %zu: %s; its rank is recovered as missing", path, at, what);
  } else {
    pu_error("%s: offset %zu: %s", path, at, what);
    set->damaged = 1;
  }
  return -1;
}

/* The first fragment fixes the run's shape; every other must agree. */
static int fits(rc_set *set, const char *path, const pm_frag *f) {
  if (!set->ranks) {
    set->nranks = f->nranks;
    set->mpi = f->mpi;
    set->evt_chunk = f->evt_chunk;
    set->def_chunk = f->def_chunk;
    if (f->nranks > MAX_RANKS) {
      pu_error("%s: offset 16: %u ranks, more than pomp-recover handles", path, f->nranks);
      return -1;
    }
    set->ranks = pu_calloc(f->nranks, sizeof *set->ranks);
    return 0;
  }
  const char *what = NULL;
  size_t at = 0;
  if (f->nranks != set->nranks) what = "number of ranks differs from the other fragments", at = 16;
  else if (f->mpi != set->mpi) what = "MPI flag differs from the other fragments", at = 20;
  else if (f->evt_chunk != set->evt_chunk)
    what = "event chunk size differs from the other fragments", at = 32;
  else if (f->def_chunk != set->def_chunk)
    what = "definition chunk size differs from the other fragments", at = 40;
  return what ? damaged(set, path, at, what) : 0;
}

/* One file: decoded, its definitions checked, stored at its rank. */
static int load_one(rc_set *set, const char *path, long named_rank) {
  unsigned char *bytes = NULL;
  size_t size = 0, at;
  const char *what;
  pm_frag f;
  if (read_file(path, &bytes, &size) != 0) goto fail;
  if (pm_frag_decode(bytes, size, &f, &at, &what) != 0) {
    damaged(set, path, at, what);
    goto fail;
  }
  if ((long)f.rank != named_rank) {
    char why[96];
    snprintf(why, sizeof why, "rank %u in a file named for rank %ld", f.rank, named_rank);
    damaged(set, path, 12, why);
    goto fail;
  }
  if (fits(set, path, &f) != 0) goto fail;
  pm_merge_error err;
  uint32_t len = f.defs_len;
  if (pm_unify_merge(NULL, f.defs, &len, 1, (int)f.mpi, 0, 0, NULL, &err) != 0) {
    damaged(set, path, f.defs_at + err.offset, "malformed definitions");
    goto fail;
  }
  rc_rank *r = &set->ranks[f.rank];
  r->present = 1;
  snprintf(r->path, sizeof r->path, "%s", path);
  r->bytes = bytes;
  r->size = size;
  r->frag = f;
  return 0;
fail:
  free(bytes);
  return -1;
}

int rc_load(const char *dir, int skip_damaged, rc_set *set) {
  memset(set, 0, sizeof *set);
  set->dir = dir;
  set->skip_damaged = skip_damaged;
  char fdir[PU_DIR_MAX];
  rc_path(fdir, sizeof fdir, dir, "fragments");
  DIR *d = opendir(fdir);
  if (!d) {
    pu_error("%s: cannot open: %s", fdir, strerror(errno));
    return -1;
  }
  int rc = 0, any = 0;
  struct dirent *e;
  while ((e = readdir(d)) && rc == 0) {
    long rank = rank_of_name(e->d_name);
    if (rank < 0) continue; /* RECOVERED, *.tmp, the work directory */
    char path[PU_PATH_MAX];
    rc_path(path, sizeof path, fdir, e->d_name);
    any = 1;
    rc = load_one(set, path, rank);
    if (rc != 0 && set->skip_damaged) rc = 0; /* its rank stays missing */
    else if (rc == 0 && (uint32_t)rank >= set->nranks) {
      pu_error("%s: offset 12: rank %ld, but the run had %u ranks", path, rank, set->nranks);
      rc = -1;
    }
  }
  closedir(d);
  if (rc == 0 && !any) {
    pu_error("%s: no fragments (<rank>.frag)", fdir);
    rc = -1;
  } else if (rc == 0 && !set->ranks) {
    pu_error("%s: no usable fragment", fdir);
    rc = -1;
  }
  if (rc != 0 && set->damaged)
    fprintf(stderr, "%s: hint: --skip-damaged recovers the other ranks, this one as missing\n",
            pu_progname());
  if (rc != 0) rc_free(set);
  return rc;
}

void rc_free(rc_set *set) {
  for (uint32_t r = 0; set->ranks && r < set->nranks; r++) free(set->ranks[r].bytes);
  free(set->ranks);
  set->ranks = NULL;
}
