/* analyze.c -- the serial analysis of one archive: opened (archive.c),
   replayed pass by pass (replay.c), the values finished; and the
   analysis freed, its values read. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_archive.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_critical.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_nested.h"
#include "az_p2p.h"
#include "az_pass.h"
#include "az_progress.h"
#include "az_records.h"
#include "pomp_util.h"

/* The passes of an analysis, in order. */
/* RMA (forward, only where windows exist) before the backward passes,
   which then read the trace once together (replay.c). */
static const az_pass *const passes[] = {&az_pass_waits, &az_pass_rma, &az_pass_delay,
                                        &az_pass_critical};

/* The passes of the analyses not switched off (off: AZ_OFF_* bits), in
   order, into chosen (room for all); returns how many.  The two backward
   passes run fused where both run (az_backward_fused). */
static size_t chosen_passes(unsigned off, int threads, const az_pass **chosen) {
  int fused = !(off & (AZ_OFF_ROOTCAUSE | AZ_OFF_CRITICAL_PATH)) && az_backward_fused(threads);
  size_t n = 0;
  for (size_t i = 0; i < sizeof passes / sizeof *passes; i++) {
    if (passes[i] == &az_pass_delay && off & AZ_OFF_ROOTCAUSE) continue;
    if (passes[i] == &az_pass_critical && off & AZ_OFF_CRITICAL_PATH) continue;
    chosen[n++] = passes[i];
    if (fused && passes[i] == &az_pass_delay) chosen[n - 1] = &az_pass_delay_feeding;
    if (fused && passes[i] == &az_pass_critical) chosen[n - 1] = &az_pass_critical_fed;
  }
  return n;
}

/* ---- the critical path's walk beside the replay ---------------------------

   With decoding threads to spare the serial analysis walks the critical
   path on a thread of its own (walk_queue.c), as a parallel analysis's
   process 1 does: the pass's first stage hands each window's arrays over
   in its exchange (az_critical_exchange) and the replay thread goes on
   with the next window while the walker walks this one
   (docs/analyze/critical-path.md, "The walk beside a serial replay").
   Wherever there are decoding threads (--threads 2 on): the replay thread
   is then the bound, and the walk was 29 % of what it ran itself on a
   trace of one rank of 16 threads with --threads 3, 15 % with 2; even
   where the three threads share two CPUs the replay's share stays the
   larger one (docs/analyze/critical-path.md, Measurements). */
enum { WALK_BESIDE_THREADS = 2 };

/* The link's ship (az_cp_link): the window's arrays to the walker; at the
   end, once the walker is done, its values into a's and what derives
   from them, as the pass does at its end when it walks itself. */
static void walk_beside(az_analysis *a, az_cp_part *parts, az_time bound, enum az_cp_ship what) {
  az_cp_queue *q = a->critical_link->data;
  az_cp_job *job = az_cp_queue_slot(q);
  job->bound = bound;
  job->what = what;
  if (what != AZ_CP_FAILED) {
    az_cp_job_take(job, a, parts); /* no copy: the pass's arrays */
    a->walked_beside++;
  }
  az_cp_queue_hand(q, job);
  if (what == AZ_CP_WINDOW) return;
  a->critical_link->data = NULL;
  unsigned limits = az_cp_queue_free(q, what == AZ_CP_LAST ? a : NULL);
  if (what == AZ_CP_LAST) az_critical_derive(a, limits);
}

/* passes into run; where the critical-path pass (fed or not) is among
   them and walks beside, run has it shipping its arrays to link (a's
   critical_link), whose data is the walk's queue. */
static void walk_beside_begin(az_analysis *a, const az_pass *const *passes, size_t npasses,
                              az_pass *shipping, const az_pass **run, az_cp_link *link) {
  size_t at = npasses;
  for (size_t i = 0; i < npasses; i++) {
    run[i] = passes[i];
    if (passes[i] == &az_pass_critical || passes[i] == &az_pass_critical_fed) at = i;
  }
  long windows = az_cp_queue_windows(a->threads >= WALK_BESIDE_THREADS);
  if (at == npasses || !windows) return;
  *shipping = *passes[at]; /* fed by the delay pass or not, as chosen */
  shipping->exchange = az_critical_exchange;
  run[at] = shipping;
  *link = (az_cp_link){.ship = walk_beside, .data = az_cp_queue_new(a, 1, windows), .swaps = 1};
  a->critical_link = link;
}

/* After the replay: a walk that never ended (the pass never began) ends
   failed. */
static void walk_beside_end(az_analysis *a, az_cp_link *link) {
  if (a->critical_link == link) a->critical_link = NULL;
  if (!link->data) return;
  az_cp_job *job = az_cp_queue_slot(link->data);
  job->what = AZ_CP_FAILED;
  az_cp_queue_hand(link->data, job);
  az_cp_queue_free(link->data, NULL);
}

static int replay_all(az_analysis *a, OTF2_Reader *reader, const az_pass *const *passes,
                      size_t npasses) {
  for (size_t i = 0; i < a->defs.num_locs; i++)
    OTF2_Reader_SelectLocation(reader, a->defs.locs[i].id);
  /* a missing local definition file is found location by location */
  int defs_open = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  if (OTF2_Reader_OpenEvtFiles(reader) != OTF2_SUCCESS) {
    az_fail(&a->diag, "cannot open the event files");
    return -1;
  }
  const az_pass **run = pu_malloc((npasses ? npasses : 1) * sizeof *run);
  az_pass shipping;
  az_cp_link link = {.data = NULL};
  walk_beside_begin(a, passes, npasses, &shipping, run, &link);
  int rc = az_replay_run(a, reader, NULL, run, npasses);
  walk_beside_end(a, &link);
  free(run);
  if (defs_open) OTF2_Reader_CloseDefFiles(reader);
  OTF2_Reader_CloseEvtFiles(reader);
  return rc;
}

int az_analyze_passes(az_analysis *a, const char *anchor, const az_options *opt,
                      const az_pass *const *passes, size_t npasses) {
  OTF2_Reader *reader = az_open(a, anchor, opt);
  if (!reader) return -1;
  int rc = az_check_open_files(a, a->defs.num_locs, anchor);
  if (!rc) rc = replay_all(a, reader, passes, npasses);
  OTF2_Reader_Close(reader);
  if (!rc) az_model_limits_without_walk(a);
  if (!rc) {
    for (size_t l = 0; l < a->defs.num_locs; l++) az_cells_finish(&a->cells[l], &a->tree, &a->defs);
    az_nested_graft(a);
  }
  az_progress_done(a);
  return rc;
}

int az_analyze(az_analysis *a, const char *anchor, const az_options *opt) {
  const az_pass *chosen[sizeof passes / sizeof *passes];
  return az_analyze_passes(a, anchor, opt, chosen,
                           chosen_passes(opt->switched_off, opt->threads, chosen));
}

void az_analysis_free(az_analysis *a) {
  if (a->cells)
    for (size_t l = 0; l < a->defs.num_locs; l++) az_cells_free(&a->cells[l]);
  free(a->cells);
  az_mpi_records_free(&a->mpi);
  az_p2p_free(a);
  az_calltree_free(&a->tree);
  az_defs_free(&a->defs);
  free(a->files);
  free(a->run_status);
  free(a->damaged);
  free(a->damaged_loc);
  free(a->throttled);
  free(a->instrumentation);
  memset(a, 0, sizeof *a);
}

double az_value(const az_analysis *a, int metric, int32_t cnode, uint32_t loc) {
  if (loc >= a->defs.num_locs || cnode < 0) return 0;
  const az_cells *c = &a->cells[loc];
  if ((size_t)cnode >= c->nrow_of || !c->row_of[cnode]) return 0;
  double v = (double)c->rows[c->row_of[cnode] - 1][metric];
  return az_metric_is_time(metric) ? v / (double)a->defs.resolution : v;
}
