/* mw_frame.c -- what every wrapper shares: lazily defined regions and the
   frame's scratch memory. */
#include "mw.h"

#include <stdlib.h>

#include "pomp_util.h"

/* Filled with PM_NO_REGION by mw_regions_reset() before the first use. */
_Atomic uint32_t mw_regions[MW_FN_COUNT];

static void __attribute__((constructor)) mw_regions_reset(void) {
  for (int i = 0; i < MW_FN_COUNT; i++) atomic_init(&mw_regions[i], PM_NO_REGION);
}

/* Two threads may define the same region at once: libpomp returns the same
   id for the same definition, so the race is harmless. The source file is
   "MPI", as Score-P writes it: Scalasca's PEARL tells MPI regions by it
   (docs/TRACE.md, "Score-P conventions"). */
uint32_t mw_region_define(enum mw_fn fn) {
  uint32_t r =
      pm_region_define(mw_fn_table[fn].name, "MPI", 0, 0, OTF2_PARADIGM_MPI, mw_fn_table[fn].role);
  atomic_store_explicit(&mw_regions[fn], r, memory_order_relaxed);
  return r;
}

void *mw_scratch(mw_frame *f, void *small, int n, size_t elem) {
  if (n <= MW_SMALL) return small;
  void *p = pu_malloc((size_t)n * elem);
  f->heap[f->nheap++] = p;
  return p;
}

void mw_frame_release(mw_frame *f) {
  while (f->nheap) free(f->heap[--f->nheap]);
}
