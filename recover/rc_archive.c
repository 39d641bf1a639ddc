/* rc_archive.c -- writing the missing archive files from the fragments.
 *
 * OTF2 writes an archive only as a whole, so a fresh one is opened in a
 * work directory inside the experiment (serial collectives, the run's
 * chunk sizes), given the global definitions (pm_unify_merge, as at
 * MPI_Finalize) and every location's local definitions but no events;
 * then its files are renamed into place, the anchor traces.otf2 last, so
 * that an experiment either has a whole trace or none. Event files the run
 * never wrote (a thread that never flushed before a SIGKILL) are written
 * empty by the same archive; an event file of a partial rank whose last
 * chunk was cut short is truncated to its last whole chunk.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pomp_unify.h"
#include "pomp_util.h"
#include "rc.h"

#define WORK "fragments/.recover"

static OTF2_FlushType pre_flush(void *u, OTF2_FileType t, OTF2_LocationRef l, void *c, bool f) {
  (void)u, (void)t, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType t, OTF2_LocationRef l) {
  (void)u, (void)t, (void)l;
  return 0;
}
static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

/* Buffer memory: each location's definition writer takes a whole
   definition chunk (4 MiB) and gives it back when closed. Fresh memory
   for every one of hundreds of locations costs the kernel a page fault
   and a page clear per 4 KiB; a pool hands the same chunks round again.
   Recovery runs on one thread: no locking. */
typedef struct pool_chunk {
  struct pool_chunk *next;
  uint64_t size;
} pool_chunk;
enum { POOL_HEADER = 64 }; /* keeps the chunk cache-line aligned */
static pool_chunk *pool;

static void *pool_allocate(void *u, OTF2_FileType t, OTF2_LocationRef l, void **mine,
                           uint64_t size) {
  (void)u, (void)t, (void)l;
  pool_chunk **p = &pool;
  while (*p && (*p)->size != size) p = &(*p)->next;
  pool_chunk *c = *p;
  if (c) *p = c->next;
  else c = pu_malloc(POOL_HEADER + size);
  c->size = size;
  c->next = *mine; /* the buffer's own chunks */
  *mine = c;
  return (char *)c + POOL_HEADER;
}

static void pool_free_all(void *u, OTF2_FileType t, OTF2_LocationRef l, void **mine, bool final) {
  (void)u, (void)t, (void)l, (void) final;
  for (pool_chunk *c = *mine, *next; c; c = next) {
    next = c->next;
    c->next = pool;
    pool = c;
  }
  *mine = NULL;
}

static void pool_drain(void) {
  for (pool_chunk *next; pool; pool = next) {
    next = pool->next;
    free(pool);
  }
}

static const OTF2_MemoryCallbacks memory_callbacks = {pool_allocate, pool_free_all};

/* Removes the work directory (traces/ inside, its files, itself). */
static void remove_work(const char *work) {
  const char *subs[] = {"traces", ""};
  for (int s = 0; s < 2; s++) {
    char d[PU_PATH_MAX];
    snprintf(d, sizeof d, "%s/%s", work, subs[s]);
    DIR *dir = opendir(d);
    if (!dir) continue;
    struct dirent *e;
    while ((e = readdir(dir))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char p[4600];
      snprintf(p, sizeof p, "%s/%s", d, e->d_name);
      unlink(p);
    }
    closedir(dir);
    rmdir(d);
  }
}

/* An event file written only by buffer flushes ends with a chunk whose
   last record is END_OF_CHUNK, and OTF2's reader then asks for a next
   chunk forever. So a last chunk is appended that holds no event, only
   END_OF_FILE, exactly as OTF2 ends an empty event file: chunk header
   (CHUNK_HEADER, endianness byte, first and last event number as full
   u64, first = last + 1 of the chunk before), END_OF_FILE, END_OF_BUFFER. */
enum { CHUNK_HEADER = 3, END_OF_FILE = 2, END_OF_BUFFER = 1, HEADER_BYTES = 18 };

static int end_file(const char *path, uint64_t whole, uint64_t chunk, uint64_t *events) {
  FILE *f = fopen(path, "r+b");
  unsigned char head[HEADER_BYTES];
  if (!f) return -1;
  int rc = -1;
  if (fseek(f, (long)(whole - chunk), SEEK_SET) == 0 &&
      fread(head, 1, sizeof head, f) == sizeof head && head[0] == CHUNK_HEADER &&
      head[1] == 0x42 /* little-endian, as written here */) {
    uint64_t last;
    memcpy(&last, head + 10, 8);
    *events = last; /* events are numbered from 1 */
    uint64_t first = last + 1;
    unsigned char tail[HEADER_BYTES + 2] = {CHUNK_HEADER, 0x42};
    memcpy(tail + 2, &first, 8);
    memcpy(tail + 10, &last, 8);
    tail[18] = END_OF_FILE;
    tail[19] = END_OF_BUFFER;
    rc = fseek(f, (long)whole, SEEK_SET) == 0 && fwrite(tail, 1, sizeof tail, f) == sizeof tail
             ? 0
             : -1;
  }
  if (fclose(f) != 0) rc = -1;
  return rc;
}

/* Does an event file closed by OTF2 end as OTF2 ends one (END_OF_FILE,
   END_OF_BUFFER)? A file cut after closing (disk full, a copy cut short)
   does not, and OTF2 would read on into memory it never filled. */
static int ends_whole(const char *path, uint64_t size) {
  unsigned char tail[2] = {0, 0};
  FILE *f = size >= 2 ? fopen(path, "rb") : NULL;
  int ok = f && fseek(f, (long)(size - 2), SEEK_SET) == 0 && fread(tail, 1, 2, f) == 2;
  if (f) fclose(f);
  return ok && tail[0] == END_OF_FILE && tail[1] == END_OF_BUFFER;
}

/* A partial rank's event file: whole chunks only (a SIGKILL may have cut
   the last one; with POMP_BUFFER below 4 MiB the events of the last
   flushes may be missing too), then the end; *events = the events it
   holds. A complete rank's file is checked too: one that does not end
   whole is repaired the same way, with a warning. Returns 1 when the
   location's file is as its fragment says, 2 when repaired (*events
   counted), 0 when it needs an empty one. */
static int check_events(rc_set *set, rc_rank *r, uint64_t loc, uint64_t *events) {
  char path[PU_TMP_PATH_MAX];
  snprintf(path, sizeof path, "%s/traces/%llu.evt", set->dir, (unsigned long long)loc);
  struct stat st;
  int exists = stat(path, &st) == 0;
  uint64_t size = exists ? (uint64_t)st.st_size : 0, chunk = set->evt_chunk;
  if (r->frag.complete && !exists) return 0;
  if (r->frag.complete && ends_whole(path, size)) return 1; /* closed by OTF2 */
  if (r->frag.complete)
    pu_warn("%s: the event file of a complete rank does not end as OTF2 ends one (cut?); "
            "repaired as a partial rank's",
            path);
  uint64_t whole = size / chunk * chunk;
  if (exists && rc_own_copy(path) != 0) return 1; /* recovered elsewhere: a link */
  if (size % chunk == HEADER_BYTES + 2 && whole)  /* ended by an earlier recovery */
    size = whole;
  if (size != whole)
    pu_warn("%s: last chunk cut short (%llu of %llu bytes); truncated to %llu bytes", path,
            (unsigned long long)(size - whole), (unsigned long long)chunk,
            (unsigned long long)whole);
  if (exists && truncate(path, (off_t)whole) != 0) {
    pu_warn("%s: cannot truncate: %s", path, strerror(errno));
    return 1;
  }
  /* the events still in memory at the last copy (POMP_FLUSH_INTERVAL) */
  if (!r->frag.complete) rc_tail_append(set, pm_loc_rank(loc), loc, path, &whole);
  *events = 0;
  rc_times times = {0, 0};
  if (whole == 0 || rc_tail_settle(path, whole, chunk, &times) != 0 ||
      end_file(path, whole, chunk, events) != 0) {
    if (whole) pu_warn("%s: no valid chunk header; the location's events are dropped", path);
    unlink(path); /* an empty one is written instead */
    return 0;
  }
  if (times.first && (!r->first_time || times.first < r->first_time)) r->first_time = times.first;
  if (times.last > r->last_time) r->last_time = times.last;
  return 2;
}

/* The event files of rank r's locations, made readable; a location whose
   count changes (partial rank, or no file) gets it in its copy of the
   definitions (defs, at the rank's place in `all`). needs_empty[i]: the
   location has no event file. */
static void check_rank(rc_set *set, uint32_t r, unsigned char *defs, uint32_t len,
                       const uint32_t *threads, uint32_t nthreads, char *needs_empty) {
  rc_rank *k = &set->ranks[r];
  k->events = 0;
  k->first_time = k->last_time = 0;
  for (uint32_t i = 0; i < nthreads; i++) {
    uint64_t events = 0;
    int found = check_events(set, k, pm_loc_id(r, threads[i]), &events);
    needs_empty[i] = found == 0;
    if (found != 1 || !k->frag.complete) pm_unify_set_events(defs, len, i, events);
    k->events += events;
  }
}

/* Global definitions (all ranks), local ones and missing event files
   (each present rank). */
static int write_defs(rc_set *set, OTF2_Archive *a) {
  uint32_t n = set->nranks;
  uint32_t *sizes = pu_calloc(n, sizeof *sizes);
  pm_blob all = {0};
  pm_blob *maps = pu_calloc(n, sizeof *maps);
  uint32_t **threads = pu_calloc(n, sizeof *threads), *nthreads = pu_calloc(n, sizeof *nthreads);
  char **empty = pu_calloc(n, sizeof *empty);
  const pm_frag *clock_from = NULL; /* the lowest rank present */
  for (uint32_t r = 0; r < n; r++) {
    const rc_rank *k = &set->ranks[r];
    if (!k->present) continue;
    if (!clock_from) clock_from = &k->frag;
    sizes[r] = k->frag.defs_len;
    size_t at = all.len;
    pm_blob_put(&all, k->frag.defs, k->frag.defs_len);
    pm_unify_threads(k->frag.defs, k->frag.defs_len, &threads[r], &nthreads[r]);
    empty[r] = pu_calloc(nthreads[r] ? nthreads[r] : 1, 1);
    check_rank(set, r, all.data + at, sizes[r], threads[r], nthreads[r], empty[r]);
  }
  /* (mono, real) of that rank, shifted into rank 0's clock */
  int64_t shift = clock_from->noffsets ? clock_from->offset[clock_from->noffsets - 1] : 0;
  OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(a);
  pm_merge_error err;
  int rc = pm_unify_merge(gw, all.data, sizes, n, (int)set->mpi,
                          clock_from->mono_now + (uint64_t)shift, clock_from->real_now, maps, &err);
  if (rc != 0)
    pu_error("%s: offset %zu: malformed definitions", set->ranks[err.rank].path,
             set->ranks[err.rank].frag.defs_at + err.offset);
  OTF2_Archive_CloseGlobalDefWriter(a, gw);
  if (rc == 0) OTF2_Archive_OpenDefFiles(a);
  int evt_open = 0;
  for (uint32_t r = 0; r < n && rc == 0; r++) {
    const rc_rank *k = &set->ranks[r];
    if (!k->present) continue;
    if (pm_write_local_defs(a, r, &maps[r], threads[r], nthreads[r], k->frag.offset_time,
                            k->frag.offset, (int)k->frag.noffsets) != 0) {
      pu_error("%s: definitions do not match their unification", k->path);
      rc = -1;
    }
    for (uint32_t i = 0; i < nthreads[r] && rc == 0; i++) {
      if (!empty[r][i]) continue;
      /* no event on disk: an empty event file keeps the location readable */
      if (!evt_open) evt_open = OTF2_Archive_OpenEvtFiles(a) == OTF2_SUCCESS;
      OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, pm_loc_id(r, threads[r][i]));
      if (w) OTF2_Archive_CloseEvtWriter(a, w);
    }
  }
  if (evt_open) OTF2_Archive_CloseEvtFiles(a);
  if (rc == 0) OTF2_Archive_CloseDefFiles(a);
  for (uint32_t r = 0; r < n; r++) {
    pm_blob_free(&maps[r]);
    free(threads[r]);
    free(empty[r]);
  }
  free(maps);
  free(threads);
  free(nthreads);
  free(empty);
  free(sizes);
  pm_blob_free(&all);
  return rc;
}

/* work/traces/<loc>.{def,evt} -> dir/traces/, then traces.def, then the
   anchor. An event file of the run is never replaced. */
static int move_into_place(const char *dir, const char *work) {
  char from[PU_TMP_PATH_MAX], to[PU_TMP_PATH_MAX];
  snprintf(to, sizeof to, "%s/traces", dir);
  if (mkdir(to, 0755) != 0 && errno != EEXIST) {
    pu_error("%s: cannot create: %s", to, strerror(errno));
    return -1;
  }
  snprintf(from, sizeof from, "%s/traces", work);
  DIR *d = opendir(from);
  struct dirent *e;
  int rc = 0;
  while (d && (e = readdir(d)) && rc == 0) {
    size_t len = strlen(e->d_name);
    if (len < 5 || e->d_name[0] == '.') continue;
    char f[4700], t[4700];
    snprintf(f, sizeof f, "%s/%s", from, e->d_name);
    snprintf(t, sizeof t, "%s/traces/%s", dir, e->d_name);
    if (!strcmp(e->d_name + len - 4, ".evt") && access(t, F_OK) == 0) continue;
    if (rename(f, t) != 0) {
      pu_error("%s: cannot move into place: %s", t, strerror(errno));
      rc = -1;
    }
  }
  if (d) closedir(d);
  const char *last[] = {"traces.def", "traces.otf2"};
  for (int i = 0; i < 2 && rc == 0; i++) {
    snprintf(from, sizeof from, "%s/%s", work, last[i]);
    snprintf(to, sizeof to, "%s/%s", dir, last[i]);
    if (rename(from, to) != 0) {
      pu_error("%s: cannot move into place: %s", to, strerror(errno));
      rc = -1;
    }
  }
  return rc;
}

int rc_write_archive(rc_set *set) {
  char work[PU_PATH_MAX];
  rc_path(work, sizeof work, set->dir, WORK);
  remove_work(work); /* left over by an interrupted recovery */
  OTF2_Archive *a = OTF2_Archive_Open(work, "traces", OTF2_FILEMODE_WRITE, set->evt_chunk,
                                      set->def_chunk, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!a) {
    pu_error("%s: cannot create the OTF2 archive", work);
    return -1;
  }
  OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
  if (e == OTF2_SUCCESS) e = OTF2_Archive_SetMemoryCallbacks(a, &memory_callbacks, NULL);
  if (e == OTF2_SUCCESS) e = OTF2_Archive_SetSerialCollectiveCallbacks(a);
  if (e == OTF2_SUCCESS) e = OTF2_Archive_SetCreator(a, "pomp-recover " POMP_VERSION_STRING);
  int rc = e == OTF2_SUCCESS ? write_defs(set, a) : -1;
  if (e != OTF2_SUCCESS) pu_error("%s: %s", work, OTF2_Error_GetDescription(e));
  e = OTF2_Archive_Close(a);
  pool_drain();
  if (rc == 0 && e != OTF2_SUCCESS) {
    pu_error("%s: closing the archive failed: %s", work, OTF2_Error_GetDescription(e));
    rc = -1;
  }
  if (rc == 0) rc = move_into_place(set->dir, work);
  remove_work(work);
  return rc;
}
