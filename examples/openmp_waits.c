/*
 * openmp_waits.c -- OpenMP wait states and idle threads, planted inside each
 * rank's thread team.
 *
 * Needs at least 2 threads; any number of ranks (every rank runs the same
 * problems on its own team, so every rank shows the same values).  "last" is
 * thread T-1 of a team of T threads.
 *
 * Planted problems (sizes in seconds; see expect/openmp_waits.txt):
 *
 *   loop_imbalance      a static loop of 2T iterations in which only the
 *                       first 2 (both on thread 0) cost LOOP_ITERATION_S each.
 *                       -> omp_ibarrier_wait 0.200 at the implicit barrier of
 *                          the loop, threads 1..T-1.
 *   explicit_barrier    the last thread computes BARRIER_S before
 *                       `#pragma omp barrier`.
 *                       -> omp_ebarrier_wait 0.220 at the barrier, threads
 *                          0..T-2.
 *   critical_contention thread 0 holds a critical section for CRITICAL_HOLD_S;
 *                       the others enter it as soon as thread 0 has it.
 *                       -> omp_critical_contention 0.240 at the critical
 *                          section, threads 1..T-1.
 *   lock_contention     the last thread holds an omp lock for LOCK_HOLD_S;
 *                       the others call omp_set_lock as soon as it has it.
 *                       -> omp_lock_contention 0.260 at omp_set_lock, threads
 *                          0..T-2.
 *   serial_phase        the master computes SERIAL_S outside any parallel
 *                       region.
 *                       -> omp_idle_threads 0.200 at serial_phase;simulate_work,
 *                          threads 1..T-1.
 *   limited_parallelism a parallel region with num_threads(1) that computes
 *                       LIMITED_S.
 *                       -> omp_limited_parallelism 0.180 at that parallel
 *                          region, threads 1..T-1.
 *   ordered_loop        a loop of T iterations, one per thread
 *                       (schedule(static, 1)), whose ordered part costs
 *                       ORDERED_S in iteration 0 only: every later
 *                       iteration waits for it to finish.
 *                       -> omp_ordered 0.210 at the ordered construct,
 *                          threads 1..T-1.
 *   waiting_for_tasks   the master creates T-1 tasks of TASK_S each, waits
 *                       until each has started (so the workers, waiting in
 *                       the barrier after it, run them all), then waits
 *                       for them in a taskwait.
 *                       -> omp_taskwait 0.230 at the taskwait, thread 0.
 */
#include "plant.h"

#include <mpi.h>
#include <omp.h>
#include <stdatomic.h>

static const double LOOP_ITERATION_S = 0.100; /* x 2 iterations = 0.200 */
static const double BARRIER_S = 0.220;
static const double CRITICAL_HOLD_S = 0.240;
static const double LOCK_HOLD_S = 0.260;
static const double SERIAL_S = 0.200;
static const double LIMITED_S = 0.180;
static const double ORDERED_S = 0.210;
static const double TASK_S = 0.230;
/* How often a thread looks whether the holder has taken the lock yet. */
static const double POLL_S = 0.001;

enum { EXPENSIVE_ITERATIONS = 2 };

/* Returns once the holder has said (through *held) that it holds the
   critical section or lock: so the others' wait for it starts after it took
   it, not after a guessed delay that a late-scheduled holder could miss.
   Looking costs no wait state: it is user code, napping between looks. */
static void wait_for_holder(atomic_int *held) {
  while (!atomic_load(held)) simulate_work(POLL_S);
}

static int loop_imbalance(const plant_world *w) {
  int n = EXPENSIVE_ITERATIONS * w->threads, done = 0;
#pragma omp parallel
  {
    /* A static schedule gives thread 0 the first n/T = 2 iterations. */
#pragma omp for schedule(static) reduction(+ : done)
    for (int i = 0; i < n; i++) {
      if (i < EXPENSIVE_ITERATIONS) simulate_work(LOOP_ITERATION_S);
      done++;
    }
  }
  return done == n;
}

static int explicit_barrier(const plant_world *w) {
  int arrived = 0;
#pragma omp parallel reduction(+ : arrived)
  {
    if (omp_get_thread_num() == w->threads - 1) simulate_work(BARRIER_S);
#pragma omp barrier
    arrived = 1;
  }
  return arrived == w->threads;
}

static int critical_contention(const plant_world *w) {
  int entries = 0;
  atomic_int held = 0;
#pragma omp parallel
  {
    int holder = omp_get_thread_num() == 0;
    if (!holder) wait_for_holder(&held);
#pragma omp critical(shared_table)
    {
      if (holder) {
        atomic_store(&held, 1);
        simulate_work(CRITICAL_HOLD_S);
      }
      entries++;
    }
  }
  return entries == w->threads;
}

static int lock_contention(const plant_world *w) {
  omp_lock_t lock;
  int entries = 0;
  atomic_int held = 0;
  omp_init_lock(&lock);
#pragma omp parallel
  {
    int holder = omp_get_thread_num() == w->threads - 1;
    if (!holder) wait_for_holder(&held);
    omp_set_lock(&lock);
    if (holder) {
      atomic_store(&held, 1);
      simulate_work(LOCK_HOLD_S);
    }
    entries++;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  return entries == w->threads;
}

static void serial_phase(void) { simulate_work(SERIAL_S); }

static int limited_parallelism(void) {
  int members = 0;
#pragma omp parallel num_threads(1) reduction(+ : members)
  {
    simulate_work(LIMITED_S);
    members = 1;
  }
  return members == 1;
}

static int ordered_loop(const plant_world *w) {
  int next = 0, in_order = 1;
#pragma omp parallel
  {
    /* One iteration per thread: thread i runs iteration i, and its ordered
       part waits for iteration i-1's. */
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < w->threads; i++) {
#pragma omp ordered
      {
        if (i == 0) simulate_work(ORDERED_S);
        in_order &= next == i;
        next++;
      }
    }
  }
  return in_order && next == w->threads;
}

/* The master waits until every task has started before its taskwait: a
   task not started yet would be run by the master inside the taskwait
   (time in the task, not waiting).  The workers are at a scheduling point
   meanwhile (the barrier), so they take the tasks, one each: a worker
   busy with one for TASK_S cannot start a second before all have. */
static int waiting_for_tasks(const plant_world *w) {
  atomic_int started = 0;
  int tasks = w->threads - 1;
#pragma omp parallel
  {
#pragma omp master
    {
      for (int k = 0; k < tasks; k++) {
#pragma omp task
        {
          atomic_fetch_add(&started, 1);
          simulate_work(TASK_S);
        }
      }
      while (atomic_load(&started) < tasks) simulate_work(POLL_S);
#pragma omp taskwait
    }
#pragma omp barrier
  }
  return atomic_load(&started) == tasks;
}

int main(int argc, char **argv) {
  plant_world w = plant_init(&argc, &argv, "openmp_waits");
  int ok = 1;
  if (plant_needs(&w, 1, 2, "OpenMP wait states")) {
    start_problem(&w, EXPENSIVE_ITERATIONS * LOOP_ITERATION_S);
    ok &= loop_imbalance(&w);
    start_problem(&w, BARRIER_S);
    ok &= explicit_barrier(&w);
    start_problem(&w, CRITICAL_HOLD_S);
    ok &= critical_contention(&w);
    start_problem(&w, LOCK_HOLD_S);
    ok &= lock_contention(&w);
    start_problem(&w, SERIAL_S);
    serial_phase();
    start_problem(&w, LIMITED_S);
    ok &= limited_parallelism();
    start_problem(&w, ORDERED_S);
    ok &= ordered_loop(&w);
    start_problem(&w, TASK_S);
    ok &= waiting_for_tasks(&w);
    start_problem(&w, 0.0); /* the last slot ends before the result */
  }
  return plant_finish(&w, "openmp_waits", ok);
}
