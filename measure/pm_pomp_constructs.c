/* pm_pomp_constructs.c -- the POMP calls of worksharing, synchronisation,
   task and user-region constructs: Enter/Leave of the construct's regions
   (pm_pomp.h slots), plus lock events for critical sections. */
#include <string.h>

#include "pm_pomp.h"

#define R(role) OTF2_REGION_ROLE_##role

/* The worksharing part of a combined "parallel ..." descriptor is its body
   region; of a plain one, its main region. */
static enum pm_slot ws_slot(const OMPRegDescr *d) {
  return strncmp(d->name, "parallel", 8) ? PM_SLOT_MAIN : PM_SLOT_BODY;
}

/* Two-event constructs: one region, entered and left. */
#define ENTER_EXIT(enter_fn, exit_fn, slot, role)                                                  \
  void enter_fn(OMPRegDescr *d) { pm_descr_enter(d, slot, R(role)); }                              \
  void exit_fn(OMPRegDescr *d) { pm_descr_leave(d, slot, R(role)); }

/* Worksharing constructs: the half of a combined construct, or one that
   ends its region, ends at the team's join barrier, where its exit waits
   for the join (pm_pomp.h). */
#define WS_ENTER_EXIT(enter_fn, exit_fn, role)                                                     \
  void enter_fn(OMPRegDescr *d) { pm_descr_enter(d, ws_slot(d), R(role)); }                        \
  void exit_fn(OMPRegDescr *d) {                                                                   \
    if (!pm_join_defer(d, ws_slot(d), R(role), 0)) pm_descr_leave(d, ws_slot(d), R(role));         \
  }

WS_ENTER_EXIT(POMP_For_enter, POMP_For_exit, LOOP)
WS_ENTER_EXIT(POMP_Do_enter, POMP_Do_exit, LOOP)
WS_ENTER_EXIT(POMP_Sections_enter, POMP_Sections_exit, SECTIONS)
WS_ENTER_EXIT(POMP_Workshare_enter, POMP_Workshare_exit, WORKSHARE)
/* a single that ends its region: pomp-opari makes its barrier the join's
   too (POMP_Join_barrier_enter, then POMP_Single_exit) */
WS_ENTER_EXIT(POMP_Single_enter, POMP_Single_exit, SINGLE)
ENTER_EXIT(POMP_Section_begin, POMP_Section_end,
           strcmp(d->name, "section") ? PM_SLOT_EXTRA : PM_SLOT_MAIN, SECTION)
ENTER_EXIT(POMP_Single_begin, POMP_Single_end, PM_SLOT_BODY, SINGLE_SBLOCK)
ENTER_EXIT(POMP_Master_begin, POMP_Master_end, PM_SLOT_MAIN, MASTER)
ENTER_EXIT(POMP_Critical_enter, POMP_Critical_exit, PM_SLOT_MAIN, CRITICAL)
ENTER_EXIT(POMP_Atomic_enter, POMP_Atomic_exit, PM_SLOT_MAIN, ATOMIC)
ENTER_EXIT(POMP_Flush_enter, POMP_Flush_exit, PM_SLOT_MAIN, FLUSH)
ENTER_EXIT(POMP_Ordered_enter, POMP_Ordered_exit, PM_SLOT_MAIN, ORDERED)
ENTER_EXIT(POMP_Ordered_begin, POMP_Ordered_end, PM_SLOT_BODY, ORDERED_SBLOCK)
/* tasks with their identity: pm_task.c; these are the calls of code
   instrumented before it (the regions alone) and the creation's end */
ENTER_EXIT(POMP_Task_create_begin, POMP_Task_create_end, PM_SLOT_MAIN, TASK_CREATE)
ENTER_EXIT(POMP_Task_begin, POMP_Task_end, PM_SLOT_BODY, TASK)
ENTER_EXIT(POMP_Taskwait_enter, POMP_Taskwait_exit, PM_SLOT_MAIN, TASK_WAIT)
ENTER_EXIT(POMP_Begin, POMP_End, PM_SLOT_MAIN, FUNCTION)

/* A barrier descriptor named "barrier" is an explicit barrier; any other
   descriptor is the construct whose implicit barrier this is (pomp.h). */
static int explicit_barrier(const OMPRegDescr *d) { return !strcmp(d->name, "barrier"); }

void POMP_Barrier_enter(OMPRegDescr *d) {
  if (explicit_barrier(d)) pm_descr_enter(d, PM_SLOT_MAIN, R(BARRIER));
  else pm_descr_enter(d, PM_SLOT_IBARRIER, R(IMPLICIT_BARRIER));
}

void POMP_Barrier_exit(OMPRegDescr *d) {
  if (explicit_barrier(d)) pm_descr_leave(d, PM_SLOT_MAIN, R(BARRIER));
  else pm_descr_leave(d, PM_SLOT_IBARRIER, R(IMPLICIT_BARRIER));
}

/* Critical body: the section's lock was just acquired / is about to be
   released, so its holder is this thread. */
void POMP_Critical_begin(OMPRegDescr *d) {
  pm_location *l = pm_self();
  if (!l) return;
  uint64_t t = pm_clock();
  pm_lock_acquired(l, pm_lock_critical(d), t);
  pm_ev_enter(l, pm_descr_region(d, PM_SLOT_BODY, R(CRITICAL_SBLOCK)), t);
}

void POMP_Critical_end(OMPRegDescr *d) {
  pm_location *l = pm_tls_location;
  if (!l) return;
  uint64_t t = pm_clock();
  pm_ev_leave(l, pm_descr_region(d, PM_SLOT_BODY, R(CRITICAL_SBLOCK)), t);
  pm_lock_released(l, pm_lock_critical(d), t);
}
