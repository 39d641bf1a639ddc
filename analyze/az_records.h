/* az_records.h -- the synchronisation records of MPI: one end of a
   point-to-point message, one participation in a collective operation,
   kept until the records of their partners are read and they are
   evaluated; and the slots that let released records be reused
   (records.c).  Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_RECORDS_H
#define POMP_AZ_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "az_common.h"

typedef struct {                /* one end of a point-to-point message */
  uint32_t comm, src, dst, tag; /* src/dst: world ranks */
  uint32_t loc : 25;            /* (at most 2^25 locations) */
  uint32_t shipped : 1;         /* sent to the analysis process of dst */
  uint32_t state : 2;           /* AZ_MSG_* */
  uint32_t by_test : 1;         /* completed by MPI_Test*: no wait state there */
  uint32_t left : 1;            /* the completing call was left: x_done known */
  uint32_t matched : 1;         /* send matched; e_post is now the receive's
                              posting time (windowed replay) */
  uint32_t ls_call : 1;         /* its completing call holds a Late Sender */
  int32_t cnode_done;           /* call path of the completing call */
  az_time e_post;               /* enter of the Send/Isend/Recv/Irecv call */
  az_time e_done, x_done;       /* enter/leave of the completing call: with loc
                              they name the call (two calls can only share
                              them if both last 0 ticks, and then neither
                              holds a wait state) */
  uint64_t pos;                 /* event position of the posting record (the
                              MpiIrecvRequest of an Irecv): posting order */
} az_msg;                       /* 56 bytes */

enum {
  AZ_MSG_OPEN = 0,
  AZ_MSG_DONE,
  AZ_MSG_CANCELLED,
  AZ_MSG_FREE /* a released slot (see az_slots) */
};

/* The communicator of the records of MPI_Finalize (no Comm id): one
   instance of all processes (collective.c). */
#define AZ_COMM_FINALIZE UINT32_MAX

typedef struct {
  uint32_t comm, loc, proc, root; /* comm: a Comm id or AZ_COMM_FINALIZE */
  uint64_t seq;                   /* instance number of comm in its process */
  az_time e, x;
  int32_t cnode;
  uint8_t role;   /* OTF2 region role of the operation */
  uint8_t op;     /* OTF2_CollectiveOp: instances pair only equals */
  uint8_t coll;   /* enum az_coll_kind of its region (roles.c): carried with
                   the record, as another analysis process's call tree may
                   not hold its call path */
  uint8_t left;   /* the operation was left: x known */
  uint8_t free;   /* a released slot */
  int32_t region; /* of the operation, for messages: as coll, another
                     analysis process's call tree may not hold cnode */
  uint64_t pos;
} az_coll;

/* Records stay where they are while anything refers to them by index (a
   request, a call waiting for its Leave); evaluated ones are released and
   their slots reused, so the arrays only grow to the records in flight. */
typedef struct {
  size_t *idx;
  size_t n, cap;
} az_slots;

/* Index of a new element of *arr: a released slot, or a new one at the
   end (the array grows). */
size_t az_slot_take(void **arr, size_t *len, size_t *cap, size_t elem, az_slots *released);
void az_slot_give(az_slots *released, size_t i);

typedef struct {
  az_msg *sends;
  size_t nsends, capsends;
  az_msg *recvs;
  size_t nrecvs, caprecvs;
  az_coll *colls;
  size_t ncolls, capcolls;
  az_slots free_sends, free_recvs, free_colls;
  uint8_t *coll_broken; /* per Comm id: its collectives stopped pairing
                              (different operations in one instance) */
} az_mpi_records;

/* A record's place in an order, next to its index: words compared in
   turn (unused ones 0).  Sorting these instead of indices into the records
   reads each record once and keeps the comparisons in the cache. */
enum { AZ_ROW_WORDS = 5 };
typedef struct {
  uint64_t w[AZ_ROW_WORDS];
  size_t i;
} az_sort_row;

/* Sorts v[0..n) by its words (an order in which no two rows are equal).
   A natural merge sort: runs already in order, or in reverse order, are
   taken as they are; the records of a window lie in few such runs (they
   fill the slots released before them, last released first). */
void az_sort_rows(az_sort_row *v, size_t n);

/* Frees the records and their slot lists. */
void az_mpi_records_free(az_mpi_records *m);

#endif
