/*
 * events.h -- the POMP events pomp-opari's output calls, one table for
 * both front ends: the C/C++ prelude declares the C functions, the Fortran
 * companion file defines a `pomp_<unit>_<event>` routine per event used.
 */
#ifndef OPARI_EVENTS_H
#define OPARI_EVENTS_H

#include <stdbool.h>

typedef enum {
  EV_INIT,
  EV_FINALIZE,
  EV_ON,
  EV_OFF,
  EV_BEGIN,
  EV_END,
  EV_PARALLEL_FORK,
  EV_PARALLEL_BEGIN,
  EV_PARALLEL_END,
  EV_PARALLEL_JOIN,
  EV_DO_ENTER,
  EV_DO_EXIT,
  EV_SECTIONS_ENTER,
  EV_SECTIONS_EXIT,
  EV_SECTION_BEGIN,
  EV_SECTION_END,
  EV_SINGLE_ENTER,
  EV_SINGLE_BEGIN,
  EV_SINGLE_END,
  EV_SINGLE_EXIT,
  EV_WORKSHARE_ENTER,
  EV_WORKSHARE_EXIT,
  EV_MASTER_BEGIN,
  EV_MASTER_END,
  EV_CRITICAL_ENTER,
  EV_CRITICAL_BEGIN,
  EV_CRITICAL_END,
  EV_CRITICAL_EXIT,
  EV_ATOMIC_ENTER,
  EV_ATOMIC_EXIT,
  EV_BARRIER_ENTER,
  EV_BARRIER_EXIT,
  EV_JOIN_BARRIER_ENTER,
  EV_FLUSH_ENTER,
  EV_FLUSH_EXIT,
  EV_ORDERED_ENTER,
  EV_ORDERED_BEGIN,
  EV_ORDERED_END,
  EV_ORDERED_EXIT,
  EV_TASK_CREATE_BEGIN,
  EV_TASK_CREATE_END,
  EV_TASK_BEGIN,
  EV_TASK_END,
  EV_TASKWAIT_ENTER,
  EV_TASKWAIT_EXIT,
  EV_LOOP_ENTER,
  EV_LOOP_EXIT,
  EV_COUNT
} op_event;

/* How an event function carries a task's id (include/pomp.h); Fortran's
   routine takes it as a second argument, INTEGER(8), set by Task_new. */
enum { EV_TASK_NO_ID, EV_TASK_RETURNS_ID, EV_TASK_TAKES_ID };

/* One event's POMP function, without the `POMP_` prefix, as each front end
   calls it (NULL: that front end does not; C's loop calls are declared with
   its guard, unit.c), whether it takes a region descriptor, and whether the
   C function returns or takes the id of a task (EV_TASK_*). */
typedef struct {
  const char *c;
  const char *fortran;
  bool descriptor;
  int task_id;
} op_event_name;

extern const op_event_name op_events[EV_COUNT];

#endif
