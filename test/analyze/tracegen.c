/* tracegen.c -- see tracegen.h.  Follows docs/TRACE.md: location id =
   thread << 32 | rank (Score-P's; `ids rank-major`: the old rank << 32 |
   thread), location group = rank, COMM_LOCATIONS group of the masters, one
   COMM_GROUP of world ranks per communicator, MPI regions in file "MPI";
   with a team declared, Score-P's OpenMP COMM_LOCATIONS group of all
   locations too, so that Scalasca's scout analyses the trace. */
#include "tracegen.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otf2_names.h"
#include "pomp_util.h"

typedef struct {
  char *alias, *name;
  OTF2_Paradigm paradigm;
  OTF2_RegionRole role;
} tg_region_def;

typedef struct {
  uint32_t threads;
  char *host;
} tg_proc;

typedef struct {
  uint32_t id, n;
  uint32_t *ranks;
  int team;
} tg_comm;

typedef struct {
  uint32_t rank, thread;
  OTF2_EvtWriter *w;
  uint32_t *stack;
  size_t depth, cap;
  uint64_t events;
} tg_loc;

typedef struct {
  uint32_t rank;
  uint64_t time;
  int64_t offset;
} tg_offset;

struct tg_writer {
  OTF2_Archive *ar;
  uint64_t res;
  tg_proc *procs;
  size_t nprocs, capprocs;
  tg_region_def *regions;
  size_t nregions, capregions;
  tg_comm *comms;
  size_t ncomms, capcomms;
  uint32_t *wins; /* RMA windows: id, comm pairs */
  size_t nwins, capwins;
  tg_offset *offsets;
  size_t noffsets, capoffsets;
  tg_loc *locs;
  size_t nlocs, caplocs;
  size_t cur; /* index into locs + 1, 0 = none */
  int events_started;
  uint64_t tmin, tmax;
  char **strings;
  size_t nstrings, capstrings;
  int rank_major; /* location ids rank << 32 | thread (traces before issue 17) */
};

static uint64_t loc_id(const tg_writer *w, uint32_t rank, uint32_t thread) {
  return w->rank_major ? (uint64_t)rank << 32 | thread : (uint64_t)thread << 32 | rank;
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType t, OTF2_LocationRef l, void *caller,
                                bool final) {
  (void)u;
  (void)t;
  (void)l;
  (void)caller;
  (void) final;
  return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_callbacks = {pre_flush, NULL};

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return -1;
}

tg_writer *tg_open(const char *dir, char *err, size_t errsize) {
  return tg_open_chunks(dir, 1024 * 1024, err, errsize);
}

tg_writer *tg_open_chunks(const char *dir, uint64_t chunk, char *err, size_t errsize) {
  OTF2_Archive *ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, chunk, 4 * 1024 * 1024,
                                       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!ar) {
    fail(err, errsize, "%s: cannot create the archive", dir);
    return NULL;
  }
  OTF2_Archive_SetFlushCallbacks(ar, &flush_callbacks, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(ar);
  OTF2_Archive_OpenEvtFiles(ar);
  tg_writer *w = pu_calloc(1, sizeof *w);
  w->ar = ar;
  w->res = 1000000000;
  w->tmin = UINT64_MAX;
  return w;
}

int64_t tg_region(tg_writer *w, const char *alias) {
  for (size_t i = 0; i < w->nregions; i++)
    if (!strcmp(w->regions[i].alias, alias)) return (int64_t)i;
  return -1;
}

static tg_comm *find_comm(tg_writer *w, uint32_t id) {
  for (size_t i = 0; i < w->ncomms; i++)
    if (w->comms[i].id == id) return &w->comms[i];
  return NULL;
}

/* ---- declarations ---------------------------------------------------- */

typedef struct {
  char *tok[24];
  int n;
  const char *rest[24]; /* the line from token i on */
} tokens;

static void split(char *line, tokens *t) {
  t->n = 0;
  char *p = line;
  while (*p && t->n < 24) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || *p == '#') break;
    t->rest[t->n] = p;
    t->tok[t->n++] = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    if (*p) *p++ = 0;
  }
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  if (!s || !*s || *s == '-') return -1;
  *out = strtoull(s, &end, 0);
  return *end ? -1 : 0;
}

static int parse_u32(const char *s, uint32_t *out) {
  uint64_t v;
  if (parse_u64(s, &v) || v > UINT32_MAX) return -1;
  *out = (uint32_t)v;
  return 0;
}

static int declare(tg_writer *w, tokens *t, const char *orig, char *err, size_t n, int ln) {
  const char *kw = t->tok[0];
  if (w->events_started) return fail(err, n, "line %d: '%s' after the first event", ln, kw);
  if (!strcmp(kw, "ids") && t->n == 2 && !strcmp(t->tok[1], "rank-major")) {
    w->rank_major = 1;
    return 0;
  }
  if (!strcmp(kw, "clock") && t->n == 2) {
    if (parse_u64(t->tok[1], &w->res) || !w->res)
      return fail(err, n, "line %d: bad clock resolution", ln);
    return 0;
  }
  if (!strcmp(kw, "process") && t->n >= 4 && !strcmp(t->tok[2], "threads")) {
    uint32_t r, th;
    if (parse_u32(t->tok[1], &r) || parse_u32(t->tok[3], &th) || !th || r != w->nprocs)
      return fail(err, n,
                  "line %d: processes must be declared in rank order "
                  "with at least one thread",
                  ln);
    tg_proc p = {th, pu_strdup(t->n >= 6 && !strcmp(t->tok[4], "host") ? t->tok[5] : "node0")};
    PU_PUSH(w->procs, w->nprocs, w->capprocs, p);
    return 0;
  }
  if (!strcmp(kw, "region") && t->n >= 4) {
    int par = pu_paradigm_by_name(t->tok[2]);
    int role = pu_role_by_name(t->tok[3]);
    if (par < 0 || role < 0) return fail(err, n, "line %d: unknown paradigm or role", ln);
    if (tg_region(w, t->tok[1]) >= 0)
      return fail(err, n, "line %d: region '%s' declared twice", ln, t->tok[1]);
    /* the name is the rest of the original line after the role */
    const char *name = t->tok[1];
    if (t->n >= 5) name = orig + (t->rest[4] - t->tok[0]);
    tg_region_def r = {pu_strdup(t->tok[1]), pu_strdup(name), (OTF2_Paradigm)par,
                       (OTF2_RegionRole)role};
    PU_PUSH(w->regions, w->nregions, w->capregions, r);
    return 0;
  }
  if ((!strcmp(kw, "comm") && t->n >= 3 && !strcmp(t->tok[2], "ranks")) ||
      (!strcmp(kw, "team") && t->n == 2)) {
    tg_comm c = {0, 0, NULL, kw[0] == 't'};
    if (parse_u32(t->tok[1], &c.id) || find_comm(w, c.id))
      return fail(err, n, "line %d: bad or duplicate communicator id", ln);
    c.ranks = pu_malloc(24 * sizeof *c.ranks);
    for (int i = 3; !c.team && i < t->n; i++)
      if (parse_u32(t->tok[i], &c.ranks[c.n++]))
        return fail(err, n, "line %d: bad rank '%s'", ln, t->tok[i]);
    PU_PUSH(w->comms, w->ncomms, w->capcomms, c);
    return 0;
  }
  if (!strcmp(kw, "win") && t->n == 4 && !strcmp(t->tok[2], "comm")) {
    uint32_t id, comm;
    if (parse_u32(t->tok[1], &id) || parse_u32(t->tok[3], &comm))
      return fail(err, n, "line %d: bad window", ln);
    PU_PUSH(w->wins, w->nwins, w->capwins, id);
    PU_PUSH(w->wins, w->nwins, w->capwins, comm);
    return 0;
  }
  if (!strcmp(kw, "offset") && t->n == 4) {
    tg_offset o;
    char *end;
    if (parse_u32(t->tok[1], &o.rank) || parse_u64(t->tok[2], &o.time))
      return fail(err, n, "line %d: bad offset", ln);
    o.offset = strtoll(t->tok[3], &end, 0);
    if (*end) return fail(err, n, "line %d: bad offset value", ln);
    PU_PUSH(w->offsets, w->noffsets, w->capoffsets, o);
    return 0;
  }
  return fail(err, n, "line %d: cannot parse '%s'", ln, kw);
}

/* comm 0 (world) and 1 (self) unless declared. */
static void default_comms(tg_writer *w) {
  if (!find_comm(w, 0)) {
    tg_comm c = {0, (uint32_t)w->nprocs, pu_malloc((w->nprocs + 1) * sizeof(uint32_t)), 0};
    for (uint32_t r = 0; r < w->nprocs; r++) c.ranks[r] = r;
    PU_PUSH(w->comms, w->ncomms, w->capcomms, c);
  }
  if (!find_comm(w, 1)) {
    tg_comm c = {1, 0, NULL, 0};
    PU_PUSH(w->comms, w->ncomms, w->capcomms, c);
  }
}

static tg_loc *get_loc(tg_writer *w, uint32_t rank, uint32_t thread) {
  for (size_t i = 0; i < w->nlocs; i++)
    if (w->locs[i].rank == rank && w->locs[i].thread == thread) return &w->locs[i];
  if (!w->events_started) {
    w->events_started = 1;
    default_comms(w);
  }
  tg_loc l = {rank, thread, OTF2_Archive_GetEvtWriter(w->ar, loc_id(w, rank, thread)), NULL, 0,
              0,    0};
  PU_PUSH(w->locs, w->nlocs, w->caplocs, l);
  return &w->locs[w->nlocs - 1];
}

void tg_time_span(tg_writer *w, uint64_t t) {
  if (t < w->tmin) w->tmin = t;
  if (t > w->tmax) w->tmax = t;
}

OTF2_EvtWriter *tg_evt_writer(tg_writer *w, uint32_t rank, uint32_t thread) {
  if (rank >= w->nprocs || thread >= w->procs[rank].threads) return NULL;
  return get_loc(w, rank, thread)->w;
}

/* ---- events ---------------------------------------------------------- */

/* Argument i of the event as a number; sets *bad on failure. */
static uint64_t arg(tokens *t, int i, int *bad) {
  uint64_t v = 0;
  if (i >= t->n || parse_u64(t->tok[i], &v)) *bad = 1;
  return v;
}

/* TIME rmacoll fence|create|free WIN, rmagsync WIN [GROUP], rmalock WIN TARGET
   excl|shared, rmaunlock WIN TARGET, rmaput|rmaget WIN TARGET BYTES. */
static int rma_event(OTF2_EvtWriter *ew, tokens *t, uint64_t ts, char *err, size_t n, int ln) {
  const char *ev = t->tok[1];
  int bad = 0;
  if (!strcmp(ev, "rmacoll") && t->n == 4) {
    const char *op = t->tok[2];
    OTF2_CollectiveOp c = !strcmp(op, "fence")    ? OTF2_COLLECTIVE_OP_BARRIER
                          : !strcmp(op, "create") ? OTF2_COLLECTIVE_OP_CREATE_HANDLE
                                                  : OTF2_COLLECTIVE_OP_DESTROY_HANDLE;
    uint32_t win = (uint32_t)arg(t, 3, &bad);
    if (bad || (strcmp(op, "free") && c == OTF2_COLLECTIVE_OP_DESTROY_HANDLE))
      return fail(err, n, "line %d: bad rmacoll arguments", ln);
    OTF2_EvtWriter_RmaCollectiveEnd(ew, NULL, ts, c, OTF2_RMA_SYNC_LEVEL_PROCESS, win,
                                    OTF2_UNDEFINED_UINT32, 0, 0);
    return 0;
  }
  uint32_t win = (uint32_t)arg(t, 2, &bad);
  if (!strcmp(ev, "rmagsync") && (t->n == 3 || t->n == 4) && !bad) {
    uint32_t group = t->n == 4 ? (uint32_t)arg(t, 3, &bad) : OTF2_UNDEFINED_GROUP;
    if (bad) return fail(err, n, "line %d: bad rmagsync group", ln);
    OTF2_EvtWriter_RmaGroupSync(ew, NULL, ts, OTF2_RMA_SYNC_LEVEL_PROCESS, win, group);
    return 0;
  }
  uint32_t target = (uint32_t)arg(t, 3, &bad);
  if (!strcmp(ev, "rmalock") && t->n == 5 && !bad) {
    OTF2_LockType type = !strcmp(t->tok[4], "excl") ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED;
    OTF2_EvtWriter_RmaRequestLock(ew, NULL, ts, win, target, 0, type);
    OTF2_EvtWriter_RmaAcquireLock(ew, NULL, ts, win, target, 0, type);
    return 0;
  }
  if (!strcmp(ev, "rmaunlock") && t->n == 4 && !bad) {
    OTF2_EvtWriter_RmaReleaseLock(ew, NULL, ts, win, target, 0);
    return 0;
  }
  uint64_t bytes = arg(t, 4, &bad);
  if (!strcmp(ev, "rmaput") && t->n == 5 && !bad) {
    OTF2_EvtWriter_RmaPut(ew, NULL, ts, win, target, bytes, 0);
    return 0;
  }
  if (!strcmp(ev, "rmaget") && t->n == 5 && !bad) {
    OTF2_EvtWriter_RmaGet(ew, NULL, ts, win, target, bytes, 0);
    return 0;
  }
  return fail(err, n, "line %d: bad '%s' event", ln, ev);
}

/* taskcreate|taskswitch|taskcomplete TEAM [CREATOR NUMBER] */
static int task_event(OTF2_EvtWriter *ew, tokens *t, uint64_t ts, uint32_t team, char *err,
                      size_t n, int ln) {
  const char *ev = t->tok[1];
  int bad = 0;
  uint32_t creator = 0, number = 1;
  if (t->n > 3) {
    creator = (uint32_t)arg(t, 3, &bad);
    number = (uint32_t)arg(t, 4, &bad);
  }
  if (bad) return fail(err, n, "line %d: bad %s arguments", ln, ev);
  if (!strcmp(ev, "taskcreate"))
    OTF2_EvtWriter_ThreadTaskCreate(ew, NULL, ts, team, creator, number);
  else if (!strcmp(ev, "taskswitch"))
    OTF2_EvtWriter_ThreadTaskSwitch(ew, NULL, ts, team, creator, number);
  else if (!strcmp(ev, "taskcomplete"))
    OTF2_EvtWriter_ThreadTaskComplete(ew, NULL, ts, team, creator, number);
  else return fail(err, n, "line %d: bad '%s' event", ln, ev);
  return 0;
}

static int event(tg_writer *w, tokens *t, char *err, size_t n, int ln) {
  if (!w->cur) return fail(err, n, "line %d: event before any 'loc'", ln);
  tg_loc *l = &w->locs[w->cur - 1];
  OTF2_EvtWriter *ew = l->w;
  uint64_t ts;
  if (parse_u64(t->tok[0], &ts)) return fail(err, n, "line %d: bad timestamp '%s'", ln, t->tok[0]);
  tg_time_span(w, ts);
  const char *ev = t->n > 1 ? t->tok[1] : "";
  int bad = 0;
  if (!strcmp(ev, "enter") || !strcmp(ev, "leave")) {
    int64_t r = -1;
    uint64_t raw;
    /* "@N": region reference N as it is, defined or not (damaged traces) */
    if (t->n > 2 && t->tok[2][0] == '@' && !parse_u64(t->tok[2] + 1, &raw) && raw < UINT32_MAX)
      r = (int64_t)raw;
    else if (t->n > 2) r = tg_region(w, t->tok[2]);
    else if (ev[0] == 'l' && l->depth) r = l->stack[l->depth - 1];
    if (r < 0) return fail(err, n, "line %d: unknown region", ln);
    if (ev[0] == 'e') {
      PU_PUSH(l->stack, l->depth, l->cap, (uint32_t)r);
      OTF2_EvtWriter_Enter(ew, NULL, ts, (OTF2_RegionRef)r);
    } else {
      if (l->depth) l->depth--;
      OTF2_EvtWriter_Leave(ew, NULL, ts, (OTF2_RegionRef)r);
    }
    return 0;
  }
  uint32_t a2 = (uint32_t)arg(t, 2, &bad);
  if (!strcmp(ev, "send") || !strcmp(ev, "recv") || !strcmp(ev, "isend") || !strcmp(ev, "irecv")) {
    uint32_t comm = (uint32_t)arg(t, 3, &bad), tag = (uint32_t)arg(t, 4, &bad);
    uint64_t bytes = arg(t, 5, &bad), req = 0;
    if (ev[0] == 'i') req = arg(t, 6, &bad);
    if (bad) return fail(err, n, "line %d: bad %s arguments", ln, ev);
    if (!strcmp(ev, "send")) OTF2_EvtWriter_MpiSend(ew, NULL, ts, a2, comm, tag, bytes);
    else if (!strcmp(ev, "recv")) OTF2_EvtWriter_MpiRecv(ew, NULL, ts, a2, comm, tag, bytes);
    else if (!strcmp(ev, "isend")) OTF2_EvtWriter_MpiIsend(ew, NULL, ts, a2, comm, tag, bytes, req);
    else OTF2_EvtWriter_MpiIrecv(ew, NULL, ts, a2, comm, tag, bytes, req);
    return 0;
  }
  if (!strcmp(ev, "collend")) {
    uint32_t comm = (uint32_t)arg(t, 3, &bad), root = OTF2_UNDEFINED_UINT32;
    if (t->n > 4 && strcmp(t->tok[4], "-")) root = (uint32_t)arg(t, 4, &bad);
    uint64_t sent = arg(t, 5, &bad), recvd = arg(t, 6, &bad);
    if (bad) return fail(err, n, "line %d: bad collend arguments", ln);
    OTF2_EvtWriter_MpiCollectiveEnd(ew, NULL, ts, (OTF2_CollectiveOp)a2, comm, root, sent, recvd);
    return 0;
  }
  if (!strncmp(ev, "rma", 3)) return rma_event(ew, t, ts, err, n, ln);
  if (!strcmp(ev, "iobegin")) { /* iobegin HANDLE MODE FLAGS BYTES MATCHING */
    uint64_t mode = arg(t, 3, &bad), flags = arg(t, 4, &bad), bytes = arg(t, 5, &bad);
    uint64_t matching = arg(t, 6, &bad);
    if (bad) return fail(err, n, "line %d: bad iobegin arguments", ln);
    OTF2_EvtWriter_IoOperationBegin(ew, NULL, ts, a2, (OTF2_IoOperationMode)mode,
                                    (OTF2_IoOperationFlag)flags, bytes, matching);
    return 0;
  }
  if (!strcmp(ev, "iocomplete")) { /* iocomplete HANDLE BYTES MATCHING */
    uint64_t bytes = arg(t, 3, &bad), matching = arg(t, 4, &bad);
    if (bad) return fail(err, n, "line %d: bad iocomplete arguments", ln);
    OTF2_EvtWriter_IoOperationComplete(ew, NULL, ts, a2, bytes, matching);
    return 0;
  }
  if (!strcmp(ev, "collbegin")) {
    OTF2_EvtWriter_MpiCollectiveBegin(ew, NULL, ts);
    return 0;
  }
  if (!strcmp(ev, "join")) {
    OTF2_EvtWriter_ThreadJoin(ew, NULL, ts, OTF2_PARADIGM_OPENMP);
    return 0;
  }
  if (!strcmp(ev, "off") || !strcmp(ev, "on")) { /* Score-P's paused recording */
    OTF2_EvtWriter_MeasurementOnOff(ew, NULL, ts,
                                    ev[1] == 'f' ? OTF2_MEASUREMENT_OFF : OTF2_MEASUREMENT_ON);
    return 0;
  }
  if (!strcmp(ev, "sample")) { /* Score-P's sampling: context 0, generator 0 */
    OTF2_EvtWriter_CallingContextSample(ew, NULL, ts, 0, 1, 0);
    return 0;
  }
  if (bad) return fail(err, n, "line %d: bad '%s' arguments", ln, ev);
  if (!strcmp(ev, "isendcomplete")) OTF2_EvtWriter_MpiIsendComplete(ew, NULL, ts, a2);
  else if (!strcmp(ev, "irecvreq")) OTF2_EvtWriter_MpiIrecvRequest(ew, NULL, ts, a2);
  else if (!strcmp(ev, "test")) OTF2_EvtWriter_MpiRequestTest(ew, NULL, ts, a2);
  else if (!strcmp(ev, "cancel")) OTF2_EvtWriter_MpiRequestCancelled(ew, NULL, ts, a2);
  else if (!strcmp(ev, "fork")) OTF2_EvtWriter_ThreadFork(ew, NULL, ts, OTF2_PARADIGM_OPENMP, a2);
  else if (!strcmp(ev, "teambegin")) OTF2_EvtWriter_ThreadTeamBegin(ew, NULL, ts, a2);
  else if (!strcmp(ev, "teamend")) OTF2_EvtWriter_ThreadTeamEnd(ew, NULL, ts, a2);
  else if (!strncmp(ev, "task", 4)) return task_event(ew, t, ts, a2, err, n, ln);
  else if (!strcmp(ev, "acquire") || !strcmp(ev, "release")) {
    uint32_t order = (uint32_t)arg(t, 3, &bad);
    if (bad) return fail(err, n, "line %d: bad lock arguments", ln);
    if (ev[0] == 'a')
      OTF2_EvtWriter_ThreadAcquireLock(ew, NULL, ts, OTF2_PARADIGM_OPENMP, a2, order);
    else OTF2_EvtWriter_ThreadReleaseLock(ew, NULL, ts, OTF2_PARADIGM_OPENMP, a2, order);
  } else {
    return fail(err, n, "line %d: unknown event '%s'", ln, ev);
  }
  return 0;
}

int tg_line(tg_writer *w, const char *line, int ln, char *err, size_t n) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", line);
  char orig[1024];
  memcpy(orig, buf, sizeof buf);
  tokens t;
  split(buf, &t);
  if (!t.n) return 0;
  /* the region name keeps its spaces: offsets into orig */
  const char *first = t.tok[0];
  size_t lead = (size_t)(first - buf);
  if (!strcmp(t.tok[0], "loc")) {
    uint32_t r, th;
    if (t.n != 2 || sscanf(t.tok[1], "%" SCNu32 ".%" SCNu32, &r, &th) != 2 || r >= w->nprocs ||
        th >= w->procs[r].threads)
      return fail(err, n, "line %d: 'loc R.T' names no declared thread", ln);
    get_loc(w, r, th);
    for (size_t i = 0; i < w->nlocs; i++)
      if (w->locs[i].rank == r && w->locs[i].thread == th) w->cur = i + 1;
    return 0;
  }
  if (t.tok[0][0] >= '0' && t.tok[0][0] <= '9') return event(w, &t, err, n, ln);
  return declare(w, &t, orig + lead, err, n, ln);
}

int tg_text(tg_writer *w, const char *text, char *err, size_t n) {
  int ln = 0;
  while (*text) {
    const char *nl = strchr(text, '\n');
    size_t len = nl ? (size_t)(nl - text) : strlen(text);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), text);
    if (tg_line(w, line, ++ln, err, n)) return -1;
    text += len + (nl ? 1 : 0);
  }
  return 0;
}

/* ---- definitions at close -------------------------------------------- */

static OTF2_StringRef str(tg_writer *w, OTF2_GlobalDefWriter *d, const char *s) {
  for (size_t i = 0; i < w->nstrings; i++)
    if (!strcmp(w->strings[i], s)) return (OTF2_StringRef)i;
  char *copy = pu_strdup(s);
  PU_PUSH(w->strings, w->nstrings, w->capstrings, copy);
  OTF2_GlobalDefWriter_WriteString(d, (OTF2_StringRef)(w->nstrings - 1), s);
  return (OTF2_StringRef)(w->nstrings - 1);
}

static void write_local_defs(tg_writer *w) {
  OTF2_Archive_OpenDefFiles(w->ar);
  for (size_t i = 0; i < w->nlocs; i++) {
    uint64_t id = loc_id(w, w->locs[i].rank, w->locs[i].thread);
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(w->ar, id);
    for (size_t k = 0; k < w->noffsets; k++)
      if (w->offsets[k].rank == w->locs[i].rank)
        OTF2_DefWriter_WriteClockOffset(dw, w->offsets[k].time, w->offsets[k].offset, 0.0);
    OTF2_Archive_CloseDefWriter(w->ar, dw);
  }
  OTF2_Archive_CloseDefFiles(w->ar);
}

static void write_system(tg_writer *w, OTF2_GlobalDefWriter *d) {
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, str(w, d, "machine"), str(w, d, "machine"),
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  uint32_t *node = pu_malloc((w->nprocs + 1) * sizeof *node);
  uint32_t nodes = 0;
  for (size_t p = 0; p < w->nprocs; p++) {
    node[p] = 0;
    for (size_t q = 0; q < p && !node[p]; q++)
      if (!strcmp(w->procs[q].host, w->procs[p].host)) node[p] = node[q];
    if (!node[p]) {
      node[p] = ++nodes;
      OTF2_GlobalDefWriter_WriteSystemTreeNode(d, node[p], str(w, d, w->procs[p].host),
                                               str(w, d, "node"), 0);
    }
  }
  for (size_t p = 0; p < w->nprocs; p++) {
    char name[64];
    snprintf(name, sizeof name, "MPI Rank %zu", p);
    OTF2_GlobalDefWriter_WriteLocationGroup(d, (OTF2_LocationGroupRef)p, str(w, d, name),
                                            OTF2_LOCATION_GROUP_TYPE_PROCESS, node[p],
                                            OTF2_UNDEFINED_LOCATION_GROUP);
  }
  free(node);
  for (size_t i = 0; i < w->nlocs; i++) {
    const tg_loc *l = &w->locs[i];
    char name[64];
    if (l->thread) snprintf(name, sizeof name, "OMP thread %u", l->thread);
    else snprintf(name, sizeof name, "Master thread");
    OTF2_GlobalDefWriter_WriteLocation(d, loc_id(w, l->rank, l->thread), str(w, d, name),
                                       OTF2_LOCATION_TYPE_CPU_THREAD, l->events, l->rank);
  }
}

static int by_location(const void *a, const void *b) {
  const tg_loc *x = a, *y = b;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Score-P's OpenMP COMM_LOCATIONS group (Scalasca's PEARL refuses OpenMP
   traces without it): every location, rank by rank, written before the
   team groups that index it.  Its id follows the communicators' groups,
   which keep theirs (rmagsync names them).  Returns how many locations
   rank 0 has: a team's members are those indexes (Score-P writes a team
   communicator per process; tracegen's one team of all processes takes
   rank 0's, as a process's team size is all PEARL reads from it). */
static uint32_t write_omp_locations(tg_writer *w, OTF2_GlobalDefWriter *d) {
  tg_loc *sorted = pu_malloc((w->nlocs + 1) * sizeof *sorted);
  memcpy(sorted, w->locs, w->nlocs * sizeof *sorted);
  qsort(sorted, w->nlocs, sizeof *sorted, by_location);
  uint64_t *ids = pu_malloc((w->nlocs + 1) * sizeof *ids);
  uint32_t rank0 = 0;
  for (size_t i = 0; i < w->nlocs; i++) {
    ids[i] = loc_id(w, sorted[i].rank, sorted[i].thread);
    rank0 += sorted[i].rank == 0;
  }
  OTF2_GlobalDefWriter_WriteGroup(d, (OTF2_GroupRef)(w->ncomms + 1), str(w, d, "OpenMP threads"),
                                  OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                  OTF2_GROUP_FLAG_NONE, (uint32_t)w->nlocs, ids);
  free(ids);
  free(sorted);
  return rank0;
}

static void write_comms(tg_writer *w, OTF2_GlobalDefWriter *d) {
  uint32_t team_size = 0;
  int teams = 0;
  for (size_t i = 0; i < w->ncomms; i++) teams |= w->comms[i].team;
  if (teams) team_size = write_omp_locations(w, d);
  uint64_t *members = pu_malloc((w->nprocs + 24 + team_size) * sizeof *members);
  for (size_t p = 0; p < w->nprocs; p++) members[p] = loc_id(w, (uint32_t)p, 0);
  OTF2_GlobalDefWriter_WriteGroup(d, 0, str(w, d, "MPI locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)w->nprocs,
                                  members);
  for (size_t i = 0; i < w->ncomms; i++) {
    const tg_comm *c = &w->comms[i];
    for (uint32_t k = 0; k < c->n; k++) members[k] = c->ranks[k];
    for (uint32_t k = 0; c->team && k < team_size; k++) members[k] = k;
    OTF2_GroupType type =
        c->id == 1 && !c->team ? OTF2_GROUP_TYPE_COMM_SELF : OTF2_GROUP_TYPE_COMM_GROUP;
    OTF2_GlobalDefWriter_WriteGroup(d, (OTF2_GroupRef)(i + 1), str(w, d, ""), type,
                                    c->team ? OTF2_PARADIGM_OPENMP : OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, c->team ? team_size : c->n, members);
  }
  for (size_t i = 0; i < w->ncomms; i++) {
    char name[32];
    snprintf(name, sizeof name, "%s %u", w->comms[i].team ? "team" : "comm", w->comms[i].id);
    OTF2_GlobalDefWriter_WriteComm(d, w->comms[i].id, str(w, d, name), (OTF2_GroupRef)(i + 1),
                                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  }
  for (size_t i = 0; i + 1 < w->nwins; i += 2)
    OTF2_GlobalDefWriter_WriteRmaWin(d, w->wins[i], str(w, d, "MPI_Win"), w->wins[i + 1],
                                     OTF2_RMA_WIN_FLAG_NONE);
  free(members);
}

static void free_writer(tg_writer *w) {
  for (size_t i = 0; i < w->nprocs; i++) free(w->procs[i].host);
  for (size_t i = 0; i < w->nregions; i++) {
    free(w->regions[i].alias);
    free(w->regions[i].name);
  }
  for (size_t i = 0; i < w->ncomms; i++) free(w->comms[i].ranks);
  free(w->wins);
  for (size_t i = 0; i < w->nlocs; i++) free(w->locs[i].stack);
  for (size_t i = 0; i < w->nstrings; i++) free(w->strings[i]);
  free(w->procs);
  free(w->regions);
  free(w->comms);
  free(w->offsets);
  free(w->locs);
  free(w->strings);
  free(w);
}

int tg_close(tg_writer *w, char *err, size_t n) {
  if (!w->events_started) default_comms(w);
  for (size_t i = 0; i < w->nlocs; i++) {
    OTF2_EvtWriter_GetNumberOfEvents(w->locs[i].w, &w->locs[i].events);
    OTF2_Archive_CloseEvtWriter(w->ar, w->locs[i].w);
  }
  OTF2_Archive_CloseEvtFiles(w->ar);
  write_local_defs(w);
  OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(w->ar);
  uint64_t tmin = w->tmin == UINT64_MAX ? 0 : w->tmin;
  OTF2_GlobalDefWriter_WriteClockProperties(d, w->res, tmin, w->tmax - tmin,
                                            OTF2_UNDEFINED_TIMESTAMP);
  str(w, d, ""); /* string 0 */
  write_system(w, d);
  for (size_t i = 0; i < w->nregions; i++) {
    const tg_region_def *r = &w->regions[i];
    OTF2_StringRef name = str(w, d, r->name);
    const char *file = r->paradigm != OTF2_PARADIGM_MPI ? "test.c" : w->rank_major ? "" : "MPI";
    OTF2_GlobalDefWriter_WriteRegion(d, (OTF2_RegionRef)i, name, name, str(w, d, ""), r->role,
                                     r->paradigm, OTF2_REGION_FLAG_NONE, str(w, d, file),
                                     (uint32_t)i + 1, (uint32_t)i + 1);
  }
  write_comms(w, d);
  OTF2_Archive_CloseGlobalDefWriter(w->ar, d);
  OTF2_ErrorCode rc = OTF2_Archive_Close(w->ar);
  free_writer(w);
  if (rc != OTF2_SUCCESS)
    return fail(err, n, "closing the archive: %s", OTF2_Error_GetDescription(rc));
  return 0;
}

int tg_write(const char *dir, const char *text, char *err, size_t n) {
  tg_writer *w = tg_open(dir, err, n);
  if (!w) return -1;
  if (tg_text(w, text, err, n)) {
    char ignore[16];
    tg_close(w, ignore, sizeof ignore);
    return -1;
  }
  return tg_close(w, err, n);
}
