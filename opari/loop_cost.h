/*
 * loop_cost.h -- the cost rule both --loops front ends share (c_loop.c,
 * f_loop.c): which loops are too short to be worth a region.
 *
 * A loop of a few iterations known from literals (C: `for (i = 0; i < 8;
 * ...)`, Fortran: `DO i = 1, 5`) costs less than its two events, and the
 * instrumentation keeps the compiler from unrolling it. LULESH's 8-node
 * loops ran 400,000 times each and made --loops 1.39x the function-only
 * build; NPB BT-MZ's 5x5 block loops are the Fortran counterpart. Plain
 * --loops leaves such a loop alone; --loops=all takes it.
 */
#ifndef OPARI_LOOP_COST_H
#define OPARI_LOOP_COST_H

#include <stdbool.h>

/* The largest trip count the rule calls short. */
enum { OP_SHORT_TRIP_MAX = 16 };

/* Whether a loop that runs `trips` times (known from literals; 0 or less:
   it never runs) is short: cheaper than the region around it. */
static inline bool op_loop_trip_short(long long trips) { return trips <= OP_SHORT_TRIP_MAX; }

#endif
