/* trace_reader.c -- see trace_reader.h. Uses OTF2's global event reader,
   which applies the mapping tables and clock offsets of the writer. */
#include "trace_reader.h"

#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

typedef struct defs {
  tr_trace *t;
  char **strings;
  size_t nstrings, cap_strings;
  uint32_t *comm_names; /* string ids by comm id */
  size_t ncomms, cap_comms;
} defs;

static const char *str(defs *d, uint32_t id) {
  return id < d->nstrings && d->strings[id] ? d->strings[id] : "?";
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s) {
  defs *d = u;
  while (d->nstrings <= self) PU_PUSH(d->strings, d->nstrings, d->cap_strings, NULL);
  d->strings[self] = pu_strdup(s);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group) {
  (void)type, (void)group;
  defs *d = u;
  tr_trace *t = d->t;
  t->locs = pu_realloc(t->locs, (t->nlocs + 1) * sizeof *t->locs);
  tr_location *l = &t->locs[t->nlocs++];
  memset(l, 0, sizeof *l);
  l->id = self;
  l->name = pu_strdup(str(d, name));
  l->declared_events = events;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef descr,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file,
                                    uint32_t begin, uint32_t end) {
  (void)canonical, (void)descr, (void)flags, (void)end;
  defs *d = u;
  tr_trace *t = d->t;
  if (self >= t->nregions) {
    size_t n = self + 1;
    t->region_names = pu_realloc(t->region_names, n * sizeof(char *));
    t->region_files = pu_realloc(t->region_files, n * sizeof(char *));
    t->region_roles = pu_realloc(t->region_roles, n * sizeof(int));
    t->region_paradigms = pu_realloc(t->region_paradigms, n * sizeof(int));
    t->region_lines = pu_realloc(t->region_lines, n * sizeof(uint32_t));
    for (size_t i = t->nregions; i < n; i++) t->region_names[i] = t->region_files[i] = NULL;
    t->nregions = n;
  }
  free(t->region_names[self]);
  free(t->region_files[self]);
  t->region_names[self] = pu_strdup(str(d, name));
  t->region_files[self] = pu_strdup(str(d, file));
  t->region_roles[self] = role;
  t->region_paradigms[self] = paradigm;
  t->region_lines[self] = begin;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag f) {
  (void)group, (void)parent, (void)f;
  defs *d = u;
  while (d->ncomms <= self) PU_PUSH(d->comm_names, d->ncomms, d->cap_comms, 0);
  d->comm_names[self] = name;
  d->t->ncomms = d->ncomms;
  return OTF2_CALLBACK_SUCCESS;
}

/* ---------------------------------------------------------------- events */

static void add(defs *d, OTF2_LocationRef loc, OTF2_TimeStamp time, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(defs *d, OTF2_LocationRef loc, OTF2_TimeStamp time, const char *fmt, ...) {
  tr_location *l = tr_location_by_id(d->t, loc);
  if (!l) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (l->nevents == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 64;
    l->events = pu_realloc(l->events, l->cap * sizeof *l->events);
    l->times = pu_realloc(l->times, l->cap * sizeof *l->times);
  }
  if (l->nevents && time < l->times[l->nevents - 1]) l->decreasing++;
  l->times[l->nevents] = time;
  l->events[l->nevents++] = pu_strdup(line);
}

static const char *region(defs *d, OTF2_RegionRef r) {
  return r < d->t->nregions && d->t->region_names[r] ? d->t->region_names[r] : "?";
}

static const char *comm(defs *d, OTF2_CommRef c) {
  return c < d->ncomms ? str(d, d->comm_names[c]) : "?";
}

#define EV(name, ...) \
  static OTF2_CallbackCode ev_##name(OTF2_LocationRef loc, OTF2_TimeStamp time, void *u, \
                                     OTF2_AttributeList *attrs, __VA_ARGS__)

EV(enter, OTF2_RegionRef r) {
  (void)attrs;
  add(u, loc, time, "Enter %s", region(u, r));
  return OTF2_CALLBACK_SUCCESS;
}
EV(leave, OTF2_RegionRef r) {
  (void)attrs;
  add(u, loc, time, "Leave %s", region(u, r));
  return OTF2_CALLBACK_SUCCESS;
}
EV(flush, OTF2_TimeStamp stop) {
  (void)attrs, (void)stop;
  add(u, loc, time, "BufferFlush");
  return OTF2_CALLBACK_SUCCESS;
}
EV(fork, OTF2_Paradigm p, uint32_t n) {
  (void)attrs, (void)p;
  add(u, loc, time, "ThreadFork %u", n);
  return OTF2_CALLBACK_SUCCESS;
}
EV(join, OTF2_Paradigm p) {
  (void)attrs, (void)p;
  add(u, loc, time, "ThreadJoin");
  return OTF2_CALLBACK_SUCCESS;
}
EV(team_begin, OTF2_CommRef c) {
  (void)attrs;
  add(u, loc, time, "ThreadTeamBegin %s", comm(u, c));
  return OTF2_CALLBACK_SUCCESS;
}
EV(team_end, OTF2_CommRef c) {
  (void)attrs;
  add(u, loc, time, "ThreadTeamEnd %s", comm(u, c));
  return OTF2_CALLBACK_SUCCESS;
}
EV(acquire, OTF2_Paradigm p, uint32_t lock, uint32_t order) {
  (void)attrs, (void)p;
  add(u, loc, time, "ThreadAcquireLock %u %u", lock, order);
  return OTF2_CALLBACK_SUCCESS;
}
EV(release, OTF2_Paradigm p, uint32_t lock, uint32_t order) {
  (void)attrs, (void)p;
  add(u, loc, time, "ThreadReleaseLock %u %u", lock, order);
  return OTF2_CALLBACK_SUCCESS;
}
EV(send, uint32_t peer, OTF2_CommRef c, uint32_t tag, uint64_t len) {
  (void)attrs;
  add(u, loc, time, "MpiSend %u %s %u %llu", peer, comm(u, c), tag, (unsigned long long)len);
  return OTF2_CALLBACK_SUCCESS;
}
EV(recv, uint32_t peer, OTF2_CommRef c, uint32_t tag, uint64_t len) {
  (void)attrs;
  add(u, loc, time, "MpiRecv %u %s %u %llu", peer, comm(u, c), tag, (unsigned long long)len);
  return OTF2_CALLBACK_SUCCESS;
}

static int fail(OTF2_Reader *r, const char *what, const char *archive) {
  fprintf(stderr, "trace_reader: %s: %s failed\n", archive, what);
  if (r) OTF2_Reader_Close(r);
  return -1;
}

static void read_local_defs(OTF2_Reader *r, tr_trace *t) {
  OTF2_Reader_OpenDefFiles(r);
  for (size_t i = 0; i < t->nlocs; i++) {
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, t->locs[i].id);
    if (!dr) continue;
    uint64_t n = 0;
    OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n); /* mapping tables, clock offsets */
    OTF2_Reader_CloseDefReader(r, dr);
  }
  OTF2_Reader_CloseDefFiles(r);
}

static int read_events(OTF2_Reader *r, defs *d) {
  tr_trace *t = d->t;
  OTF2_Reader_OpenEvtFiles(r);
  for (size_t i = 0; i < t->nlocs; i++) OTF2_Reader_GetEvtReader(r, t->locs[i].id);
  OTF2_GlobalEvtReader *g = OTF2_Reader_GetGlobalEvtReader(r);
  if (!g) return -1;
  OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
  OTF2_GlobalEvtReaderCallbacks_SetBufferFlushCallback(cb, ev_flush);
  OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(cb, ev_fork);
  OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(cb, ev_join);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(cb, ev_team_begin);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(cb, ev_team_end);
  OTF2_GlobalEvtReaderCallbacks_SetThreadAcquireLockCallback(cb, ev_acquire);
  OTF2_GlobalEvtReaderCallbacks_SetThreadReleaseLockCallback(cb, ev_release);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
  OTF2_Reader_RegisterGlobalEvtCallbacks(r, g, cb, d);
  OTF2_GlobalEvtReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalEvents(r, g, &n);
  OTF2_Reader_CloseGlobalEvtReader(r, g);
  OTF2_Reader_CloseEvtFiles(r);
  return rc == OTF2_SUCCESS ? 0 : -1;
}

static int by_id(const void *a, const void *b) {
  const tr_location *x = a, *y = b;
  return x->id < y->id ? -1 : x->id > y->id;
}

int tr_read(const char *archive, tr_trace *t) {
  memset(t, 0, sizeof *t);
  OTF2_Reader *r = OTF2_Reader_Open(archive);
  if (!r) return fail(NULL, "OTF2_Reader_Open", archive);
  OTF2_Reader_SetSerialCollectiveCallbacks(r);
  defs d = {.t = t};
  OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(r);
  if (!gd) return fail(r, "reading the global definitions", archive);
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
  OTF2_Reader_RegisterGlobalDefCallbacks(r, gd, cb, &d);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(r, gd, &n);
  OTF2_Reader_CloseGlobalDefReader(r, gd);
  if (rc != OTF2_SUCCESS) return fail(r, "reading the global definitions", archive);
  qsort(t->locs, t->nlocs, sizeof *t->locs, by_id);
  for (size_t i = 0; i < t->nlocs; i++) OTF2_Reader_SelectLocation(r, t->locs[i].id);
  read_local_defs(r, t);
  int ok = read_events(r, &d);
  OTF2_Reader_Close(r);
  for (size_t i = 0; i < d.nstrings; i++) free(d.strings[i]);
  free(d.strings);
  free(d.comm_names);
  if (ok != 0) {
    fprintf(stderr, "trace_reader: %s: reading the events failed\n", archive);
    return -1;
  }
  return 0;
}

void tr_free(tr_trace *t) {
  for (size_t i = 0; i < t->nlocs; i++) {
    tr_location *l = &t->locs[i];
    for (size_t k = 0; k < l->nevents; k++) free(l->events[k]);
    free(l->events);
    free(l->times);
    free(l->name);
  }
  for (size_t i = 0; i < t->nregions; i++) {
    free(t->region_names[i]);
    free(t->region_files[i]);
  }
  free(t->region_names);
  free(t->region_files);
  free(t->region_roles);
  free(t->region_paradigms);
  free(t->region_lines);
  free(t->locs);
  memset(t, 0, sizeof *t);
}

tr_location *tr_location_by_id(tr_trace *t, uint64_t id) {
  for (size_t i = 0; i < t->nlocs; i++)
    if (t->locs[i].id == id) return &t->locs[i];
  return NULL;
}

char *tr_join(const tr_location *l, size_t from, size_t to) {
  if (to > l->nevents) to = l->nevents;
  size_t len = 1;
  for (size_t i = from; i < to; i++) len += strlen(l->events[i]) + 1;
  char *s = pu_malloc(len), *p = s;
  for (size_t i = from; i < to; i++) p += sprintf(p, "%s\n", l->events[i]);
  *p = '\0';
  return s;
}

size_t tr_count(const tr_location *l, const char *line) {
  size_t n = 0;
  for (size_t i = 0; i < l->nevents; i++) n += !strcmp(l->events[i], line);
  return n;
}
