/* tr_internal.h -- what the parts of the trace reader share while reading
   (tr_read.c drives OTF2's readers, tr_defs.c and tr_events.c fill the
   trace from their callbacks). */
#ifndef TR_INTERNAL_H
#define TR_INTERNAL_H

#include "trace_reader.h"

typedef struct tr_reading {
  tr_trace *t;
  size_t cap_events, cap_locs;
  size_t def_loc;          /* index of the location whose local definitions
                             are being read */
  uint32_t *in_collective; /* per location: MpiCollectiveBegin not yet ended */
} tr_reading;

void tr_set_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb);
void tr_set_local_def_callbacks(OTF2_DefReaderCallbacks *cb);
/* Names from string ids, once every global definition is read. */
void tr_resolve_names(tr_trace *t);
void tr_set_event_callbacks(OTF2_GlobalEvtReaderCallbacks *cb);

#endif
