/* bench_tasks.c -- what libpomp costs per OpenMP task (issue 17: the task
 * records), against a POMP_Begin/End pair measured in the same run
 * (bench/README.md).  A task as pomp-opari instruments it makes four POMP
 * calls (Task_new, Task_run_begin, Task_run_end, Task_create_end), each one
 * clock read, and eight records (Enter + ThreadTaskCreate, ThreadTaskSwitch
 * + Enter, Leave + ThreadTaskComplete + ThreadTaskSwitch, Leave); a pair is
 * two calls and two records.  The calls are made directly, as a task that
 * runs at once (no OpenMP runtime cost in the figure); the two loops
 * alternate, best of 5 rounds (the machine is shared).
 * usage: bench-tasks [TASKS]   (default 100000; everything fits POMP_BUFFER)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "pomp.h"
#include "bench_clock.h"

static OMPRegDescr region = {"region", "bench", 0, "bench_tasks.c", 1, 1, 2, 2, {0}, 0};
static OMPRegDescr task = {"task", "", 0, "bench_tasks.c", 3, 3, 4, 4, {0}, 0};

/* ns per POMP call of n pairs / n tasks */
static double pairs(long n) {
  double t0 = bench_now();
  for (long i = 0; i < n; i++) {
    POMP_Begin(&region);
    POMP_End(&region);
  }
  return (bench_now() - t0) * 1e9 / (2.0 * (double)n);
}

static double tasks(long n) {
  double t0 = bench_now();
  for (long i = 0; i < n; i++) {
    unsigned long long id = POMP_Task_new(&task);
    POMP_Task_run_begin(&task, id);
    POMP_Task_run_end(&task, id);
    POMP_Task_create_end(&task);
  }
  return (bench_now() - t0) * 1e9 / (4.0 * (double)n);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  char dir[64];
  snprintf(dir, sizeof dir, "/tmp/bench-tasks-%ld", (long)getpid());
  setenv("POMP_EXPERIMENT", dir, 1);
  setenv("POMP_BUFFER", "256M", 1);
  POMP_Init();
  double pair_ns = 1e30, task_ns = 1e30;
  for (int r = 0; r < 5; r++) {
    double p = pairs(n), t = tasks(n);
    pair_ns = p < pair_ns ? p : pair_ns;
    task_ns = t < task_ns ? t : task_ns;
  }
  POMP_Finalize();
  printf("POMP_Begin/End: %.1f ns per call, 1 record (baseline)\n", pair_ns);
  printf("task: %.1f ns per POMP call, 2 records per call; %.1f ns per task\n", task_ns,
         4 * task_ns);
  printf("task call vs POMP_Begin/End call: %.2fx (2 records instead of 1)\n", task_ns / pair_ns);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : 1;
}
