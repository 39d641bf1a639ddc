/* az_output.h -- what pomp-analyze produces from an analysis: the report
   (output.c) and the summary printed after it (summary.c).  Internal to
   pomp-analyze (not installed). */
#ifndef POMP_AZ_OUTPUT_H
#define POMP_AZ_OUTPUT_H

#include <stdio.h>

#include "az.h"
#include "az_calltree.h"
#include "pomp_report.h"

/* New report of the analysis; trace names the archive (attribute).  If
   cnode_map is given it receives the report cnode id of each call-tree
   node (free it). */
pomp_report *az_report_build(const az_analysis *a, const char *trace, int32_t **cnode_map);
/* Report id of each call-tree node: depth first, siblings by region id;
   -1 for nodes grafted away (az_calltree.dead). */
int32_t *az_canonical_order(const az_calltree *t);
/* Top properties by share of time with their worst call path. */
void az_summary_print(const pomp_report *r, int top, FILE *out);

#endif
