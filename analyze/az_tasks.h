/*
 * az_tasks.h -- OpenMP task records in the replay (docs/TRACE.md, "OpenMP
 * tasks"; docs/PROPERTIES.md, "Tasks").  The analysis charges a task's
 * time to the call path its regions have on the location that ran it, so
 * it needs those regions to nest on each location: a task that starts
 * runs to its end before the thread goes back to what it interrupted
 * (tied tasks; every task of libgomp).  The first forward pass checks
 * that with the task records (ThreadTaskCreate/Switch/Complete) and
 * refuses, naming location, event and task, a trace where a task resumes
 * on another location (an untied task that changed threads) or before the
 * tasks started after it completed.  Later passes skip the records.
 */
#ifndef POMP_AZ_TASKS_H
#define POMP_AZ_TASKS_H

#include <otf2/otf2.h>

#include "az.h"

typedef struct az_tasks az_tasks;

/* The driver's callbacks (the user data is the location's az_cursor). */
OTF2_CallbackCode az_task_create(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                 uint32_t generation);
OTF2_CallbackCode az_task_switch(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                 uint32_t generation);
OTF2_CallbackCode az_task_complete(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                   uint32_t generation);

/* After the first pass: the check is done, later passes skip the records. */
void az_tasks_checked(az_analysis *a);
/* Frees the check's state (a->tasks). */
void az_tasks_free(az_analysis *a);

#endif
