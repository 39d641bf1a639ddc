/* az_nested.h -- after the replay: the call paths of the extra threads of
   a nested parallel region (roots of the call tree) move to where the
   other threads met that region, when that is one call path (nested.c).
   Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_NESTED_H
#define POMP_AZ_NESTED_H

struct az_analysis;

void az_nested_graft(struct az_analysis *a);

#endif
