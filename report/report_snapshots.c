/* report_snapshots.c -- the profile snapshots of a running program as one
   report (pomp_report.h, "Profile snapshots").  libpomp writes one file
   per process: snapshot.pomp without MPI, snapshot.<rank>.pomp per MPI
   rank (no rank waits for another: the snapshot thread may not call
   MPI).  A reader merges whatever ranks' files exist, in rank order:
   definitions by what they name (a metric by name; a region by name,
   file, lines, paradigm and role; a call path by its region and parent;
   machines and nodes by name), each rank's processes and threads as they
   are, values cell by cell.  Each file is replaced whole by a rename, so
   a merge reads each file as one snapshot, never half of one. */
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pomp_util.h"
#include "report_internal.h"

/* ---- the files ---------------------------------------------------------- */

/* printf into a new string. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = pu_malloc((size_t)(n < 0 ? 0 : n) + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* The rank of a file name snapshot.<rank>.pomp, or -1 for any other. */
static int32_t rank_of(const char *name) {
  static const char prefix[] = "snapshot.", suffix[] = ".pomp";
  size_t n = strlen(name), p = sizeof prefix - 1, s = sizeof suffix - 1;
  if (n <= p + s || strncmp(name, prefix, p) != 0 || strcmp(name + n - s, suffix) != 0) return -1;
  int32_t rank = 0;
  for (size_t i = p; i < n - s; i++) {
    if (name[i] < '0' || name[i] > '9' || rank > (INT32_MAX - 9) / 10) return -1;
    rank = rank * 10 + (name[i] - '0');
  }
  return rank;
}

static int by_rank(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* The ranks with a snapshot file in dir, increasing (caller frees *ranks);
   the count, 0 when none (or dir cannot be read). */
static size_t rank_files(const char *dir, int32_t **ranks) {
  *ranks = NULL;
  DIR *d = opendir(dir);
  if (!d) return 0;
  size_t n = 0, cap = 0;
  for (struct dirent *e; (e = readdir(d));) {
    int32_t rank = rank_of(e->d_name);
    if (rank >= 0) PU_PUSH(*ranks, n, cap, rank);
  }
  closedir(d);
  if (n) qsort(*ranks, n, sizeof **ranks, by_rank);
  return n;
}

/* dir's snapshot of rank (-1: the one of a process without MPI). */
static char *snapshot_file(const char *dir, int32_t rank) {
  if (rank < 0) return format("%s/%s", dir, POMP_REPORT_SNAPSHOT);
  char name[64];
  snprintf(name, sizeof name, POMP_REPORT_RANK_SNAPSHOT, (int)rank);
  return format("%s/%s", dir, name);
}

/* FNV-1a of the bytes of v, continuing h. */
static uint64_t mix(uint64_t h, const void *v, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)v)[i]) * 0x100000001b3u;
  return h;
}

/* Counts the file into *s: its identity (inode, size, modification time)
   into the stamp, its time into the newest. */
static void look_at(pomp_report_snapshots *s, const char *path, int32_t rank) {
  struct stat st;
  if (stat(path, &st) != 0) return;
  int64_t id[5] = {rank, (int64_t)st.st_ino, (int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                   (int64_t)st.st_mtim.tv_nsec};
  s->stamp = mix(s->stamp, id, sizeof id);
  if (!s->files || st.st_mtim.tv_sec > s->newest_mtime) s->newest_mtime = st.st_mtim.tv_sec;
  s->files++;
}

pomp_report_snapshots pomp_report_snapshots_look(const char *dir) {
  pomp_report_snapshots s = {0, 0, 0xcbf29ce484222325u};
  char *single = snapshot_file(dir, -1);
  look_at(&s, single, -1);
  free(single);
  int32_t *ranks = NULL;
  size_t n = s.files ? 0 : rank_files(dir, &ranks);
  for (size_t i = 0; i < n; i++) {
    char *path = snapshot_file(dir, ranks[i]);
    look_at(&s, path, ranks[i]);
    free(path);
  }
  free(ranks);
  if (!s.files) s.stamp = 0;
  else if (!s.stamp) s.stamp = 1;
  return s;
}

/* ---- merging ------------------------------------------------------------ */

typedef struct {
  pomp_report *out;
  report_strmap regions; /* region key -> id in out */
  report_strmap places;  /* "kind parent name" of a machine or node -> id in out */
  int32_t merged;        /* files merged so far */
  int32_t world;         /* N of their snapshot_ranks "rank K of N", 0: none */
  char *seconds;         /* the oldest snapshot's snapshot_seconds */
  unsigned long long dropped;
  long threads;
} merge;

static int32_t merge_region(merge *m, const pomp_region *g) {
  char *key = format("%s\x1f%s\x1f%" PRId32 "\x1f%" PRId32 "\x1f%s\x1f%s", g->name, g->file,
                     g->begin_line, g->end_line, g->paradigm, g->role);
  int32_t id = report_strmap_get(&m->regions, key);
  if (id < 0) {
    id = pomp_report_add_region(m->out, g->name, g->file, g->begin_line, g->end_line, g->paradigm,
                                g->role);
    report_strmap_put(&m->regions, key, id);
  }
  free(key);
  return id;
}

/* A sysnode as a node of out: machines and nodes shared by name,
   processes and threads (each rank's own) added. */
static int32_t merge_sysnode(merge *m, const pomp_sysnode *s, int32_t parent) {
  if (s->kind >= POMP_SYS_PROCESS)
    return pomp_report_add_sysnode(m->out, s->kind, s->name, parent, s->rank, s->thread);
  char *key = format("%d %" PRId32 " %s", (int)s->kind, parent, s->name);
  int32_t id = report_strmap_get(&m->places, key);
  if (id < 0) {
    id = pomp_report_add_sysnode(m->out, s->kind, s->name, parent, -1, -1);
    report_strmap_put(&m->places, key, id);
  }
  free(key);
  return id;
}

/* The first file's metrics (every snapshot has the same catalogue). */
static void copy_metrics(merge *m, const pomp_report *in) {
  for (int32_t i = 0; i < pomp_report_num_metrics(in); i++) {
    const pomp_metric *x = pomp_report_metric(in, i);
    pomp_report_add_metric(m->out, x->name, x->display, x->unit, x->description, x->parent);
  }
}

/* Ids of in's definitions in out (parents precede children in every
   tree, so a parent is mapped before its children); -1: left out. */
typedef struct {
  int32_t *metric, *cnode;
  int32_t first_location; /* out's location of in's location 0 */
} id_maps;

static id_maps map_definitions(merge *m, const pomp_report *in) {
  id_maps ids = {NULL, NULL, pomp_report_num_locations(m->out)};
  int32_t nm = pomp_report_num_metrics(in), nr = pomp_report_num_regions(in);
  int32_t nc = pomp_report_num_cnodes(in), ns = pomp_report_num_sysnodes(in);
  ids.metric = pu_malloc(((size_t)nm + 1) * sizeof *ids.metric);
  for (int32_t i = 0; i < nm; i++)
    ids.metric[i] = pomp_report_find_metric(m->out, pomp_report_metric(in, i)->name);
  int32_t *region = pu_malloc(((size_t)nr + 1) * sizeof *region);
  for (int32_t i = 0; i < nr; i++) region[i] = merge_region(m, pomp_report_region(in, i));
  ids.cnode = pu_malloc(((size_t)nc + 1) * sizeof *ids.cnode);
  for (int32_t i = 0; i < nc; i++) {
    const pomp_cnode *c = pomp_report_cnode(in, i);
    int32_t parent = c->parent < 0 ? -1 : ids.cnode[c->parent];
    ids.cnode[i] = c->parent >= 0 && parent < 0
                       ? -1
                       : pomp_report_add_cnode(m->out, region[c->region], parent);
  }
  int32_t *sys = pu_malloc(((size_t)ns + 1) * sizeof *sys);
  for (int32_t i = 0; i < ns; i++) {
    const pomp_sysnode *s = pomp_report_sysnode(in, i);
    sys[i] = merge_sysnode(m, s, s->parent < 0 ? -1 : sys[s->parent]);
  }
  free(region);
  free(sys);
  return ids;
}

/* Every value of in into out. */
static pomp_report_status merge_values(merge *m, const pomp_report *in, const id_maps *ids,
                                       pomp_report_error *err) {
  size_t cap = (size_t)pomp_report_num_locations(in) + 1;
  int32_t *locs = pu_malloc(cap * sizeof *locs);
  double *values = pu_malloc(cap * sizeof *values);
  pomp_report_status st = POMP_REPORT_OK;
  for (int64_t i = 0, rows = pomp_report_num_rows(in); i < rows && st == POMP_REPORT_OK; i++) {
    int32_t metric, cnode, count;
    double sum;
    pomp_report_row_at(in, i, &metric, &cnode, &count, &sum);
    int32_t n = pomp_report_row_get(in, metric, cnode, locs, values, err);
    if (n < 0) st = err->status;
    for (int32_t k = 0; k < n && ids->metric[metric] >= 0 && ids->cnode[cnode] >= 0; k++)
      pomp_report_add_value(m->out, ids->metric[metric], ids->cnode[cnode],
                            ids->first_location + locs[k], values[k]);
  }
  free(locs);
  free(values);
  return st;
}

/* What the merged report says of itself: the first file's attributes,
   with the counts of all of them. */
static void note_attributes(merge *m, const pomp_report *in) {
  const char *seconds = pomp_report_attr(in, "snapshot_seconds");
  if (seconds && (!m->seconds || strtod(seconds, NULL) < strtod(m->seconds, NULL))) {
    free(m->seconds);
    m->seconds = pu_strdup(seconds);
  }
  const char *ranks = pomp_report_attr(in, "snapshot_ranks");
  unsigned k, world;
  if (ranks && sscanf(ranks, "rank %u of %u", &k, &world) == 2 && world <= INT32_MAX &&
      (int32_t)world > m->world)
    m->world = (int32_t)world;
  const char *dropped = pomp_report_attr(in, "profile_paths_dropped");
  if (dropped) m->dropped += strtoull(dropped, NULL, 10);
  const char *threads = pomp_report_attr(in, "threads");
  if (threads && strtol(threads, NULL, 10) > m->threads) m->threads = strtol(threads, NULL, 10);
  if (m->merged++ == 0)
    for (int32_t i = 0; i < pomp_report_num_attrs(in); i++) {
      const char *key = pomp_report_attr_key(in, i);
      pomp_report_set_attr(m->out, key, pomp_report_attr(in, key));
    }
}

static void set_counts(merge *m) {
  char buf[96];
  if (m->seconds) pomp_report_set_attr(m->out, "snapshot_seconds", m->seconds);
  if (m->world) snprintf(buf, sizeof buf, "%" PRId32 " of %" PRId32 " ranks", m->merged, m->world);
  else snprintf(buf, sizeof buf, "%" PRId32 " ranks", m->merged);
  pomp_report_set_attr(m->out, "snapshot_ranks", buf);
  snprintf(buf, sizeof buf, "%" PRId32, m->merged);
  pomp_report_set_attr(m->out, "ranks", buf);
  snprintf(buf, sizeof buf, "%ld", m->threads);
  pomp_report_set_attr(m->out, "threads", buf);
  snprintf(buf, sizeof buf, "%llu", m->dropped);
  pomp_report_set_attr(m->out, "profile_paths_dropped", buf);
}

/* Merges the file of rank into m. */
static pomp_report_status merge_file(merge *m, const char *dir, int32_t rank,
                                     pomp_report_error *err) {
  char *path = snapshot_file(dir, rank);
  pomp_report *in = pomp_report_open(path, err);
  free(path);
  if (!in) return err->status;
  if (m->merged == 0) copy_metrics(m, in);
  note_attributes(m, in);
  id_maps ids = map_definitions(m, in);
  pomp_report_status st = merge_values(m, in, &ids, err);
  free(ids.metric);
  free(ids.cnode);
  pomp_report_free(in);
  return st;
}

pomp_report *pomp_report_open_snapshots(const char *dir, pomp_report_error *err) {
  char *single = snapshot_file(dir, -1);
  struct stat st;
  if (stat(single, &st) == 0) { /* a process without MPI: its file as it is */
    pomp_report *r = pomp_report_open(single, err);
    free(single);
    return r;
  }
  free(single);
  int32_t *ranks;
  size_t n = rank_files(dir, &ranks);
  if (!n) {
    report_fail(err, POMP_REPORT_ERR_IO, "%s: no %s or %s", dir, POMP_REPORT_SNAPSHOT,
                "snapshot.RANK.pomp");
    return NULL;
  }
  merge m = {.out = pomp_report_new()};
  pomp_report_status status = POMP_REPORT_OK;
  for (size_t i = 0; i < n && status == POMP_REPORT_OK; i++)
    status = merge_file(&m, dir, ranks[i], err);
  set_counts(&m);
  free(m.out->path);
  m.out->path = format("%s/snapshot.*.pomp", dir);
  report_strmap_free(&m.regions);
  report_strmap_free(&m.places);
  free(m.seconds);
  free(ranks);
  if (status != POMP_REPORT_OK) {
    pomp_report_free(m.out);
    return NULL;
  }
  report_freeze(m.out); /* the row store now: queries may come from several threads */
  return m.out;
}
