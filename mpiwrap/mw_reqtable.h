/*
 * mw_reqtable.h -- thread-safe table of what libpomp-mpi knows about
 * outstanding MPI requests (and matched messages), keyed by the handle.
 *
 * Only MPI calls that create or complete requests touch it, never the
 * Enter/Leave path. Locks are striped over the buckets, so threads of an
 * MPI_THREAD_MULTIPLE program rarely meet. One handle may have several
 * entries at once (MPICH can hand out the same handle for requests that
 * completed at once, and a freed handle is reused at once): entries of a
 * handle form a FIFO. Every entry records the thread that issued it
 * (`owner`), and take/finish/find/update work on the oldest entry of the
 * handle whose owner is the one asked for, else on the handle's oldest:
 * under MPI_THREAD_MULTIPLE several threads hold the same shared handle,
 * and a thread completing "its" handle means its own request, not
 * whichever thread's came first.
 */
#ifndef MW_REQTABLE_H
#define MW_REQTABLE_H

#include <stdint.h>

/* Kinds of request (bit set: an Isendrecv is SEND|RECV). */
enum {
  MW_REQ_SEND = 1,
  MW_REQ_RECV = 2,
  MW_REQ_COLL = 4,
  MW_REQ_ENVELOPE = 8 /* receive's source/tag/bytes kept from the call */
};

struct mw_comm;

/* What a completion record needs, captured when the request was made. */
typedef struct mw_req {
  uint64_t id;                /* OTF2 request id (send, or the only one) */
  uint64_t recv_id;           /* Isendrecv: id of the receiving half */
  const struct mw_comm *comm; /* where it communicates (NULL: unknown) */
  uint64_t bytes;             /* send: payload; coll: sent */
  uint64_t received;          /* coll: received; Isendrecv: buffer bytes */
  int32_t source, recv_tag;   /* Isendrecv: as asked (may be wildcards) */
  uint32_t peer, tag, root;   /* send: destination/tag; coll: root */
  intptr_t handle;            /* message table: the MPI_Comm, cast */
  uint8_t kind, op;           /* MW_REQ_* bits; OTF2_CollectiveOp */
  uint8_t persistent, active, cancelled;
  uintptr_t owner; /* issuing thread (mw_reqtable_thread), 0: any */
} mw_req;

typedef struct mw_reqtable mw_reqtable;

mw_reqtable *mw_reqtable_new(void);
void mw_reqtable_free(mw_reqtable *t);

/* An identity of the calling thread for mw_req.owner: never 0, distinct
   between threads alive at the same time. */
uintptr_t mw_reqtable_thread(void);

/* In the lookups below, `owner` is the thread asking (0: no preference):
   the entry they act on is owner's oldest of key if it has one, else
   key's oldest (the program completed another thread's request). */

/* Adds a copy of r as the newest entry of key. */
void mw_reqtable_put(mw_reqtable *t, uint64_t key, const mw_req *r);
/* Copies the entry of key to *out (if out) and removes it; 0 when key has
   none. */
int mw_reqtable_take(mw_reqtable *t, uint64_t key, uintptr_t owner, mw_req *out);
/* A completion: copies the entry of key to *out, then removes it, or, if
   it is persistent, keeps it and marks it inactive; 0 if none. One lock
   round trip, as it is on the path of every Wait/Test. */
int mw_reqtable_finish(mw_reqtable *t, uint64_t key, uintptr_t owner, mw_req *out);
/* Copies the entry of key to *out without removing it; 0 if none. */
int mw_reqtable_find(mw_reqtable *t, uint64_t key, uintptr_t owner, mw_req *out);
/* Calls fn(entry, arg) on the entry of key under its lock, so a
   read-modify-write is atomic; 0 when key has none. */
int mw_reqtable_update(mw_reqtable *t, uint64_t key, uintptr_t owner,
                       void (*fn)(mw_req *r, void *arg), void *arg);
/* Number of entries (for tests and the end-of-run leak note). */
uint64_t mw_reqtable_count(mw_reqtable *t);

#endif /* MW_REQTABLE_H */
