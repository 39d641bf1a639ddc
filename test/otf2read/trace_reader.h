/*
 * trace_reader.h -- reads an OTF2 trace (docs/TRACE.md) back for the tests:
 * its definitions, and every event as a record in the order OTF2's global
 * reader gives them (which applies the writer's mapping tables and clock
 * offsets). Two text forms of the events serve the tests that compare
 * whole sequences exactly:
 *   - the plain form of libpomp's tests, one line per event ("Enter !$omp
 *     for @a.c:3", "ThreadAcquireLock 0 1", "MpiSend 1 MPI_COMM_WORLD 5 4");
 *   - the MPI dump form of mw_check --dump, golden files of the MPI and
 *     recovery tests ("MpiSend to=1 comm=0 tag=5 bytes=4"), for Enter/Leave
 *     and the MPI records only.
 * Timestamps are never part of the text.
 */
#ifndef TRACE_READER_H
#define TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include <otf2/otf2.h>

typedef enum tr_kind {
  TR_ENTER,
  TR_LEAVE,
  TR_BUFFER_FLUSH,
  TR_THREAD_FORK,
  TR_THREAD_JOIN,
  TR_THREAD_TEAM_BEGIN,
  TR_THREAD_TEAM_END,
  TR_THREAD_ACQUIRE_LOCK,
  TR_THREAD_RELEASE_LOCK,
  /* OpenMP tasks: comm holds the team, creator and generation the task */
  TR_THREAD_TASK_CREATE,
  TR_THREAD_TASK_SWITCH,
  TR_THREAD_TASK_COMPLETE,
  TR_MPI_SEND,
  TR_MPI_RECV,
  TR_MPI_ISEND,
  TR_MPI_ISEND_COMPLETE,
  TR_MPI_IRECV_REQUEST,
  TR_MPI_IRECV,
  TR_MPI_REQUEST_TEST,
  TR_MPI_REQUEST_CANCELLED,
  TR_MPI_COLLECTIVE_BEGIN,
  TR_MPI_COLLECTIVE_END,
  TR_NBC_REQUEST,
  TR_NBC_COMPLETE,
  /* one-sided communication: comm holds the window, peer the target,
     request the matching id, op the collective operation, tag 1 for an
     exclusive lock; bytes / received as for collectives */
  TR_RMA_WIN_CREATE,
  TR_RMA_WIN_DESTROY,
  TR_RMA_COLLECTIVE_BEGIN,
  TR_RMA_COLLECTIVE_END,
  TR_RMA_GROUP_SYNC,
  TR_RMA_REQUEST_LOCK,
  TR_RMA_ACQUIRE_LOCK,
  TR_RMA_RELEASE_LOCK,
  TR_RMA_PUT,
  TR_RMA_GET,
  TR_RMA_ATOMIC,
  TR_RMA_OP_COMPLETE_BLOCKING
} tr_kind;

/* One event; which fields hold something depends on kind. */
typedef struct tr_event {
  uint64_t time;
  uint32_t loc;        /* index in tr_trace.locs */
  uint8_t kind;        /* tr_kind */
  uint8_t placeholder; /* MPI_COLLECTIVE_END outside MpiCollectiveBegin:
                              stands for `root` unrecorded instances */
  uint32_t region;     /* ENTER, LEAVE */
  uint32_t comm;       /* MPI records; THREAD_TEAM_*: the team */
  union {
    struct {
      uint32_t peer, tag;
    }; /* point to point */
    struct {
      uint32_t lock, order;
    };                /* THREAD_ACQUIRE_LOCK, THREAD_RELEASE_LOCK */
    uint32_t threads; /* THREAD_FORK */
    struct {
      uint32_t creator, generation;
    }; /* THREAD_TASK_* */
  };
  uint32_t op, root; /* collectives */
  uint64_t bytes;    /* point to point; collectives: bytes sent */
  uint64_t received; /* collectives */
  uint64_t request;  /* requests */
} tr_event;

typedef struct tr_clock_offset {
  uint64_t time;
  int64_t offset;
} tr_clock_offset;

typedef struct tr_location {
  uint64_t id;      /* thread << 32 | rank (Score-P; before issue 17 rank << 32 | thread) */
  uint32_t rank;    /* its group's id */
  uint32_t thread;  /* its position among its group's locations by id */
  uint32_t name_id; /* string id; name is its text */
  const char *name;
  int type;                 /* OTF2_LocationType */
  uint32_t group;           /* location group id */
  uint64_t declared_events; /* the definition's event count */
  size_t *at;               /* its events: indices in tr_trace.events */
  size_t nevents;
  size_t decreasing;        /* timestamps smaller than their predecessor */
  char **lines;             /* with TR_LINES: the plain form of each event */
  tr_clock_offset *offsets; /* ClockOffset definitions, in file order */
  size_t noffsets;
} tr_location;

typedef struct tr_region {
  uint32_t name_id, file_id;
  const char *name, *file; /* the strings' text, "?" when undefined */
  uint32_t begin, end;     /* source lines */
  int paradigm, role;      /* OTF2_Paradigm, OTF2_RegionRole */
} tr_region;

typedef struct tr_group { /* Group definitions (communicators' members) */
  uint32_t name_id;
  const char *name;
  int type; /* OTF2_GroupType */
  uint32_t n;
  uint64_t *members;
  int paradigm; /* OTF2_Paradigm */
} tr_group;

typedef struct tr_comm {
  uint32_t name_id;
  const char *name;
  uint32_t group, parent; /* OTF2_UNDEFINED_UINT32 when none */
} tr_comm;

typedef struct tr_location_group {
  uint32_t name_id;
  const char *name;
  int type;        /* OTF2_LocationGroupType */
  uint32_t parent; /* system tree node */
} tr_location_group;

typedef struct tr_trace {
  char **strings; /* by string id; NULL where undefined */
  size_t nstrings;
  tr_location *locs; /* by rank (group id), then id: rank-major either way */
  size_t nlocs;
  /* by id, as are the arrays below; ids never defined have undefined
     string and reference ids (OTF2_UNDEFINED_UINT32), name "?" */
  tr_location_group *loc_groups;
  size_t nloc_groups;
  tr_region *regions;
  size_t nregions;
  tr_group *groups;
  size_t ngroups;
  tr_comm *comms;
  size_t ncomms;
  tr_event *events; /* every event, in the global reader's order */
  size_t nevents;
  int id_layout; /* enum tr_id_layout: how location ids encode rank and thread */
} tr_trace;

/* Location-id layouts (docs/TRACE.md): TR_IDS_EITHER when no location
   tells them apart (one process, one thread, or only masters of rank 0). */
enum tr_id_layout { TR_IDS_EITHER, TR_IDS_SCOREP, TR_IDS_RANK_MAJOR, TR_IDS_OTHER };

/* tr_read flags */
enum { TR_LINES = 1 }; /* fill each location's lines (plain form) */

/* Reads archive (path of traces.otf2) into t; 0, or -1 with a message
   naming the archive on stderr (t is then empty). */
int tr_read(const char *archive, tr_trace *t, unsigned flags);
void tr_free(tr_trace *t);

/* The location with this id, or NULL. */
tr_location *tr_location_by_id(tr_trace *t, uint64_t id);
/* Names by id, "?" when undefined. */
const char *tr_string(const tr_trace *t, uint32_t id);
const char *tr_region_name(const tr_trace *t, uint32_t region);
const char *tr_comm_name(const tr_trace *t, uint32_t comm);
/* Event i of location l. */
const tr_event *tr_event_of(const tr_trace *t, const tr_location *l, size_t i);

/* The OTF2 record name of a tr_kind ("MpiIsend"). */
const char *tr_kind_name(int kind);
/* The plain form of e into buf (always a line). */
void tr_plain(const tr_trace *t, const tr_event *e, char *buf, size_t size);
/* The MPI dump form of e into buf; 0 when e has none (not Enter/Leave nor
   MPI), else 1. */
int tr_dump(const tr_trace *t, const tr_event *e, char *buf, size_t size);

/* Lines from..to-1 of l (TR_LINES) joined, each ending with '\n'; malloc'd. */
char *tr_join(const tr_location *l, size_t from, size_t to);
/* How many lines of l (TR_LINES) equal line exactly. */
size_t tr_count(const tr_location *l, const char *line);

#endif /* TRACE_READER_H */
