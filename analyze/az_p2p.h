/* az_p2p.h -- point-to-point wait states (p2p.c): Late Sender, wrong
   order, Late Receiver.  Internal to pomp-analyze (not installed).

   Messages are matched and evaluated in steps, at the end of each replay
   window (last: after the replay): what can be matched and evaluated is,
   and its records are released, so that memory holds only messages in
   flight. */
#ifndef POMP_AZ_P2P_H
#define POMP_AZ_P2P_H

#include <stddef.h>
#include <stdint.h>

#include "az_common.h"
#include "az_records.h"

struct az_analysis;

/* Both halves on a->mpi (serial analysis). */
void az_p2p_step(struct az_analysis *a, int last);
void az_p2p_free(struct az_analysis *a);

typedef struct {
  az_time posted; /* enter of the call that posted the matching receive */
  uint8_t matched;
} az_p2p_answer;

typedef struct { /* a completing call: location, enter, leave */
  uint32_t loc;
  az_time e, x;
} az_call_key;

/* The two halves of a step, for a parallel analysis.  Receiver half: the
   sends in pool (addressed to this process's locations) against its
   receives: Late Sender; answer[i] says when the receive of pool[i] was
   posted; matched pool records are released to release_to (unless NULL).
   Returns the calls holding a Late Sender (sorted; free it).  Sender half:
   Late Receiver of a->mpi.sends, once az_p2p_answered was told. */
az_call_key *az_p2p_receive_step(struct az_analysis *a, az_msg *pool, size_t npool,
                                 az_slots *release_to, int last, az_p2p_answer *answer,
                                 size_t *nls);
void az_p2p_answered(az_msg *send, az_time posted);
void az_p2p_send_step(struct az_analysis *a, const az_call_key *ls, size_t nls, int last);

#endif
