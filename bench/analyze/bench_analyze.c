/*
 * bench_analyze -- how fast pomp-analyze replays a large trace, against a
 * bare OTF2 read loop that only decodes the same events (the floor any
 * analyzer built on OTF2 pays), measured in the same run.
 *
 *   bench_analyze [--generate] [EVENTS [RANKS [DIR [THREADS]]]]
 *                          default 8000000 events, 8 ranks, 1 thread
 *
 * --generate only writes the trace into DIR (for runs elsewhere, e.g. the
 * scaling runs of bench/analyze/scaling.sh on a machine of more cores).
 *
 * The trace is a ring exchange (compute; MPI_Isend right; MPI_Recv left;
 * MPI_Wait) with an MPI_Allreduce every 16 iterations and random compute
 * times, so it has Late Senders, N x N waits and message matching to do;
 * with THREADS > 1 the computation is an OpenMP parallel region of that
 * many threads ending in an implicit barrier.  An existing DIR is reused
 * (and kept).
 * Each measurement runs in a child process: its peak RSS is its own.
 * Prints: events, trace size, time and events/s of both, the ratio
 * (target <= 3x), peak RSS of both and RSS / trace size; the replay of
 * the same trace as that of a run that did not finish (docs/PROPERTIES.md:
 * the master's serial time kept while a worker may still end before it)
 * against the finished one (target: within noise, ~1.0x); then the
 * pomp-analyze command serially and under `mpiexec -n 2` (target: at
 * least 1.6x faster on two cores).
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <dirent.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "az.h"
#include "az_pass.h"
#include "pomp_util.h"
#include "tracegen.h"
#include "bench_clock.h"

enum { MAX_RANKS = 64, EVENTS_PER_ITER = 11 };

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) { /* xorshift64: deterministic traces */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

enum { MAX_THREADS = 16 };

typedef struct {
  OTF2_EvtWriter *w[MAX_RANKS];
  OTF2_EvtWriter *worker[MAX_RANKS][MAX_THREADS]; /* threads 1.. */
  int threads;
  int64_t compute, isend, recv, wait, allreduce, par, ibar;
} gen;

static void call(OTF2_EvtWriter *w, int64_t region, uint64_t e, uint64_t x) {
  OTF2_EvtWriter_Enter(w, NULL, e, (OTF2_RegionRef)region);
  OTF2_EvtWriter_Leave(w, NULL, x, (OTF2_RegionRef)region);
}

/* With threads: the computation is a parallel region of all threads, each
   with its own amount of work, ending in an implicit barrier. */
static uint64_t parallel_compute(gen *g, int r, uint64_t t) {
  OTF2_EvtWriter *m = g->w[r];
  OTF2_EvtWriter_ThreadFork(m, NULL, t, OTF2_PARADIGM_OPENMP, (uint32_t)g->threads);
  uint64_t work[MAX_THREADS], end = 0;
  for (int k = 0; k < g->threads; k++) {
    work[k] = 500 + rng() % 1000;
    end = t + 3 + work[k] > end ? t + 3 + work[k] : end;
  }
  for (int k = 0; k < g->threads; k++) {
    OTF2_EvtWriter *w = k ? g->worker[r][k] : m;
    OTF2_EvtWriter_ThreadTeamBegin(w, NULL, t + 1, 5);
    OTF2_EvtWriter_Enter(w, NULL, t + 2, (OTF2_RegionRef)g->par);
    call(w, g->compute, t + 3, t + 3 + work[k]);
    call(w, g->ibar, t + 3 + work[k], end + 1);
    OTF2_EvtWriter_Leave(w, NULL, end + 2, (OTF2_RegionRef)g->par);
    OTF2_EvtWriter_ThreadTeamEnd(w, NULL, end + 3, 5);
  }
  OTF2_EvtWriter_ThreadJoin(m, NULL, end + 4, OTF2_PARADIGM_OPENMP);
  return end + 5;
}

/* One iteration of every rank; t[r] is rank r's clock. */
static void iteration(gen *g, int ranks, uint64_t it, uint64_t *t) {
  uint64_t send_enter[MAX_RANKS];
  for (int r = 0; r < ranks; r++) {
    if (g->threads > 1) {
      t[r] = parallel_compute(g, r, t[r]);
    } else {
      uint64_t work = 500 + rng() % 1000;
      call(g->w[r], g->compute, t[r], t[r] + work);
      t[r] += work;
    }
    send_enter[r] = t[r] + 1;
  }
  for (int r = 0; r < ranks; r++) {
    OTF2_EvtWriter *w = g->w[r];
    int right = (r + 1) % ranks, left = (r + ranks - 1) % ranks;
    uint64_t e = send_enter[r];
    OTF2_EvtWriter_Enter(w, NULL, e, (OTF2_RegionRef)g->isend);
    OTF2_EvtWriter_MpiIsend(w, NULL, e + 1, (uint32_t)right, 0, 0, 64, it);
    OTF2_EvtWriter_Leave(w, NULL, e + 2, (OTF2_RegionRef)g->isend);
    uint64_t re = e + 3;
    uint64_t arrive = send_enter[left] + 20;
    uint64_t rx = (arrive > re ? arrive : re) + 5;
    OTF2_EvtWriter_Enter(w, NULL, re, (OTF2_RegionRef)g->recv);
    OTF2_EvtWriter_MpiRecv(w, NULL, rx - 1, (uint32_t)left, 0, 0, 64);
    OTF2_EvtWriter_Leave(w, NULL, rx, (OTF2_RegionRef)g->recv);
    OTF2_EvtWriter_Enter(w, NULL, rx + 1, (OTF2_RegionRef)g->wait);
    OTF2_EvtWriter_MpiIsendComplete(w, NULL, rx + 2, it);
    OTF2_EvtWriter_Leave(w, NULL, rx + 3, (OTF2_RegionRef)g->wait);
    t[r] = rx + 4;
  }
  if (it % 16 != 15) return;
  uint64_t latest = 0;
  for (int r = 0; r < ranks; r++) latest = t[r] > latest ? t[r] : latest;
  for (int r = 0; r < ranks; r++) {
    OTF2_EvtWriter *w = g->w[r];
    OTF2_EvtWriter_Enter(w, NULL, t[r], (OTF2_RegionRef)g->allreduce);
    OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t[r]);
    OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, latest + 10, OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                    OTF2_UNDEFINED_UINT32, 8, 8);
    OTF2_EvtWriter_Leave(w, NULL, latest + 10, (OTF2_RegionRef)g->allreduce);
    t[r] = latest + 11;
  }
}

static void generate(const char *dir, uint64_t events, int ranks, int threads) {
  char err[512];
  tg_writer *w = tg_open(dir, err, sizeof err);
  if (!w) pu_die(POMP_EXIT_FAILURE, "%s", err);
  char line[128];
  for (int r = 0; r < ranks; r++) {
    snprintf(line, sizeof line, "process %d threads %d host node%d", r, threads, r / 4);
    if (tg_line(w, line, 0, err, sizeof err)) pu_die(1, "%s", err);
  }
  const char *decl = "region main compiler function main\n"
                     "region compute user function compute\n"
                     "region isend mpi point2point MPI_Isend\n"
                     "region recv mpi point2point MPI_Recv\n"
                     "region wait mpi point2point MPI_Wait\n"
                     "region allreduce mpi coll_all2all MPI_Allreduce\n"
                     "region par openmp parallel !$omp parallel @bench.c:1\n"
                     "region ibar openmp implicit_barrier !$omp implicit barrier @bench.c:2\n"
                     "team 5\n";
  if (tg_text(w, decl, err, sizeof err)) pu_die(1, "%s", err);
  gen g = {.compute = tg_region(w, "compute"),
           .isend = tg_region(w, "isend"),
           .recv = tg_region(w, "recv"),
           .wait = tg_region(w, "wait"),
           .allreduce = tg_region(w, "allreduce"),
           .par = tg_region(w, "par"),
           .ibar = tg_region(w, "ibar"),
           .threads = threads};
  int64_t main_region = tg_region(w, "main");
  uint64_t t[MAX_RANKS];
  for (int r = 0; r < ranks; r++) {
    g.w[r] = tg_evt_writer(w, (uint32_t)r, 0);
    for (int k = 1; k < threads; k++) g.worker[r][k] = tg_evt_writer(w, (uint32_t)r, (uint32_t)k);
    t[r] = 1000;
    OTF2_EvtWriter_Enter(g.w[r], NULL, t[r]++, (OTF2_RegionRef)main_region);
  }
  uint64_t per_iter = EVENTS_PER_ITER + (threads > 1 ? 2 + 8 * (uint64_t)threads : 0);
  uint64_t iters = events / ((uint64_t)ranks * per_iter) + 1;
  for (uint64_t it = 0; it < iters; it++) iteration(&g, ranks, it, t);
  tg_time_span(w, 1000);
  for (int r = 0; r < ranks; r++) {
    OTF2_EvtWriter_Leave(g.w[r], NULL, t[r], (OTF2_RegionRef)main_region);
    tg_time_span(w, t[r]);
  }
  if (tg_close(w, err, sizeof err)) pu_die(1, "%s", err);
}

/* ---- the bare read loop: decode every event, count it ------------------ */

/* One counting callback per event type of the trace: the reader decodes
   each record and hands it over; nothing else is done with it. */
#define COUNTER(name, unused, ...)                                                                 \
  static OTF2_CallbackCode name(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,       \
                                OTF2_AttributeList *al, __VA_ARGS__) {                             \
    (void)l;                                                                                       \
    (void)t;                                                                                       \
    (void)pos;                                                                                     \
    (void)al;                                                                                      \
    unused;                                                                                        \
    ++*(uint64_t *)u;                                                                              \
    return OTF2_CALLBACK_SUCCESS;                                                                  \
  }
COUNTER(count_region, (void)r, OTF2_RegionRef r)
COUNTER(count_isend, ((void)a, (void)b, (void)c, (void)d, (void)e), uint32_t a, OTF2_CommRef b,
        uint32_t c, uint64_t d, uint64_t e)
COUNTER(count_recv, ((void)a, (void)b, (void)c, (void)d), uint32_t a, OTF2_CommRef b, uint32_t c,
        uint64_t d)
COUNTER(count_request, (void)q, uint64_t q)
COUNTER(count_fork, ((void)p, (void)n), OTF2_Paradigm p, uint32_t n)
COUNTER(count_join, (void)p, OTF2_Paradigm p)
COUNTER(count_team, (void)c, OTF2_CommRef c)
COUNTER(count_coll_end, ((void)a, (void)b, (void)c, (void)d, (void)e), OTF2_CollectiveOp a,
        OTF2_CommRef b, uint32_t c, uint64_t d, uint64_t e)

static OTF2_CallbackCode count_coll_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                          void *u, OTF2_AttributeList *al) {
  (void)l;
  (void)t;
  (void)pos;
  (void)al;
  ++*(uint64_t *)u;
  return OTF2_CALLBACK_SUCCESS;
}

typedef struct {
  uint64_t *ids;
  size_t n, cap;
} loc_list;

static OTF2_CallbackCode on_loc(void *u, OTF2_LocationRef id, OTF2_StringRef n, OTF2_LocationType t,
                                uint64_t ev, OTF2_LocationGroupRef g) {
  (void)n;
  (void)t;
  (void)ev;
  (void)g;
  loc_list *l = u;
  PU_PUSH(l->ids, l->n, l->cap, id);
  return OTF2_CALLBACK_SUCCESS;
}

static uint64_t bare_read(const char *anchor) {
  OTF2_Reader *r = OTF2_Reader_Open(anchor);
  if (!r) pu_die(1, "%s: cannot open", anchor);
  OTF2_Reader_SetSerialCollectiveCallbacks(r);
  OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
  OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
  loc_list locs = {0};
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, on_loc);
  OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, gcb, &locs);
  uint64_t n = 0;
  OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n);
  OTF2_GlobalDefReaderCallbacks_Delete(gcb);
  OTF2_Reader_CloseGlobalDefReader(r, gdr);
  for (size_t i = 0; i < locs.n; i++) OTF2_Reader_SelectLocation(r, locs.ids[i]);
  OTF2_Reader_OpenDefFiles(r);
  OTF2_Reader_OpenEvtFiles(r);
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, count_region);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, count_region);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, count_isend);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, count_recv);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, count_request);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, count_coll_begin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, count_coll_end);
  OTF2_EvtReaderCallbacks_SetThreadForkCallback(cb, count_fork);
  OTF2_EvtReaderCallbacks_SetThreadJoinCallback(cb, count_join);
  OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, count_team);
  OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(cb, count_team);
  uint64_t events = 0;
  for (size_t i = 0; i < locs.n; i++) {
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, locs.ids[i]);
    if (dr) {
      OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n);
      OTF2_Reader_CloseDefReader(r, dr);
    }
    OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(r, locs.ids[i]);
    OTF2_Reader_RegisterEvtCallbacks(r, er, cb, &events);
    OTF2_Reader_ReadAllLocalEvents(r, er, &n);
    OTF2_Reader_CloseEvtReader(r, er);
  }
  OTF2_EvtReaderCallbacks_Delete(cb);
  OTF2_Reader_CloseDefFiles(r);
  OTF2_Reader_CloseEvtFiles(r);
  OTF2_Reader_Close(r);
  free(locs.ids);
  return events;
}

/* ---- measuring in a child ---------------------------------------------- */

typedef struct {
  double seconds;
  long max_rss_kb;
  uint64_t events;
  double cpu; /* user + system seconds: steadier than wall time under load */
} sample;

/* what measure() times; WAITS_ONLY: the forward pass alone, the analysis
   before the delay costs (issue 15: all passes within 2.5x of it) */
enum { BARE_READ, ANALYSIS, UNFINISHED, WAITS_ONLY };

static sample measure(const char *anchor, int analyze) {
  int fd[2];
  if (pipe(fd)) pu_die(1, "pipe failed");
  double t0 = bench_now();
  pid_t pid = fork();
  if (pid == 0) {
    uint64_t events;
    if (analyze) {
      az_analysis a;
      az_options opt = {0};
      if (analyze == UNFINISHED) opt.run_status = "incomplete: bench";
      const az_pass *waits[] = {&az_pass_waits};
      if (analyze == WAITS_ONLY ? az_analyze_passes(&a, anchor, &opt, waits, 1)
                                : az_analyze(&a, anchor, &opt))
        _exit(1);
      events = a.events_read;
      az_analysis_free(&a);
    } else {
      events = bare_read(anchor);
    }
    if (write(fd[1], &events, sizeof events) != sizeof events) _exit(1);
    _exit(0);
  }
  sample s = {0, 0, 0, 0};
  if (read(fd[0], &s.events, sizeof s.events) != sizeof s.events)
    pu_die(1, "measurement child failed");
  int status;
  struct rusage ru;
  wait4(pid, &status, 0, &ru);
  s.seconds = bench_now() - t0;
  s.max_rss_kb = ru.ru_maxrss;
  s.cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
          1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  close(fd[0]);
  close(fd[1]);
  return s;
}

typedef struct {
  double wall, cpu; /* seconds; cpu = user + system of all descendants */
} timing;

static double cpu_of_children(void) {
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* Wall and CPU time of a command (fork, exec, wait).  The CPU time counts
   every descendant that was waited for (mpiexec waits for its proxies,
   they for the analysis processes), so it shows what the parallel
   analysis costs beyond the serial one regardless of other load. */
static timing run_command(char *const argv[]) {
  double t0 = bench_now(), c0 = cpu_of_children();
  pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status))
    pu_warn("%s exited with status %d", argv[0], WEXITSTATUS(status));
  timing t = {bench_now() - t0, cpu_of_children() - c0};
  return t;
}

static void keep_best(timing *best, timing t) {
  if (t.wall < best->wall) *best = t;
}

/* The command line tool serially and with two analysis processes,
   alternating, best of three runs each (the machine is shared: the load
   average is printed with the figures, which mean little above ~1). */
static void parallel_speedup(const char *dir) {
  char out[600];
  snprintf(out, sizeof out, "%s/bench.pomp", dir);
  /* one thread each: processes against one process (threads.sh measures
     --threads) */
  char *serial[] = {POMP_ANALYZE, "-q", "--threads", "1", "-o", out, (char *)dir, NULL};
  char *par[] = {MPIEXEC, "-n", "2", POMP_ANALYZE, "-q", "--threads",
                 "1",     "-o", out, (char *)dir,  NULL};
  timing s = {1e30, 0}, p = {1e30, 0};
  double load[1] = {0};
  for (int rep = 0; rep < 3; rep++) {
    keep_best(&s, run_command(serial));
    keep_best(&p, run_command(par));
  }
  if (getloadavg(load, 1) < 1) load[0] = -1;
  printf("pomp-analyze command: serial %.3f s, mpiexec -n 2 %.3f s: "
         "speed-up %.2fx (target >= 1.6x)\n",
         s.wall, p.wall, s.wall / p.wall);
  printf("  CPU time: serial %.3f s, mpiexec -n 2 %.3f s (%.2fx); "
         "load average %.2f\n",
         s.cpu, p.cpu, p.cpu / s.cpu, load[0]);
  remove(out);
}

static uint64_t dir_size(const char *dir) {
  uint64_t total = 0;
  char path[1024];
  const char *names[] = {"traces.otf2", "traces.def"};
  struct stat st;
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (!stat(path, &st)) total += (uint64_t)st.st_size;
  }
  snprintf(path, sizeof path, "%s/traces", dir);
  DIR *d = opendir(path);
  for (struct dirent *e; d && (e = readdir(d));) {
    snprintf(path, sizeof path, "%s/traces/%s", dir, e->d_name);
    if (!stat(path, &st) && S_ISREG(st.st_mode)) total += (uint64_t)st.st_size;
  }
  if (d) closedir(d);
  return total;
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  int generate_only = argc > 1 && !strcmp(argv[1], "--generate");
  if (generate_only) argv++, argc--;
  uint64_t events = argc > 1 ? strtoull(argv[1], NULL, 10) : 8000000;
  int ranks = argc > 2 ? atoi(argv[2]) : 8;
  int threads = argc > 4 ? atoi(argv[4]) : 1;
  if (ranks < 1 || ranks > MAX_RANKS || events < 1000 || threads < 1 || threads > MAX_THREADS)
    pu_die(POMP_EXIT_USAGE,
           "usage: %s [--generate] [EVENTS>=1000 [RANKS 1..64 [DIR [THREADS 1..16]]]]",
           pu_progname());
  if (generate_only && argc <= 3)
    pu_die(POMP_EXIT_USAGE, "--generate needs the directory DIR to write the trace into");
  char dir[512];
  if (argc > 3) snprintf(dir, sizeof dir, "%s", argv[3]);
  else snprintf(dir, sizeof dir, "/tmp/pomp-bench-analyze-%d", (int)getpid());
  char anchor[600];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
  struct stat st;
  double t0 = bench_now();
  if (stat(anchor, &st)) generate(dir, events, ranks, threads);
  double gen_s = bench_now() - t0;
  if (generate_only) {
    printf("trace: %s, %d ranks x %d threads, %.1f MB (generated in %.1f s)\n", anchor, ranks,
           threads, (double)dir_size(dir) / 1e6, gen_s);
    return 0;
  }
  uint64_t bytes = dir_size(dir);
  /* warm the page cache, then alternate to spread machine noise */
  measure(anchor, BARE_READ);
  sample base = {1e30, 0, 0, 0}, an = {1e30, 0, 0, 0}, un = {1e30, 0, 0, 0};
  sample wo = {1e30, 0, 0, 0};
  double an_cpu = 1e30, un_cpu = 1e30, wo_cpu = 1e30;
  for (int rep = 0; rep < 3; rep++) {
    sample b = measure(anchor, BARE_READ), a = measure(anchor, ANALYSIS);
    sample u = measure(anchor, UNFINISHED), w = measure(anchor, WAITS_ONLY);
    if (w.seconds < wo.seconds) wo = w;
    if (w.cpu < wo_cpu) wo_cpu = w.cpu;
    if (b.seconds < base.seconds) base = b;
    if (a.seconds < an.seconds) an = a;
    if (u.seconds < un.seconds) un = u;
    if (a.cpu < an_cpu) an_cpu = a.cpu;
    if (u.cpu < un_cpu) un_cpu = u.cpu;
  }
  printf("trace: %llu events, %d ranks x %d threads, %.1f MB on disk "
         "(generated in %.1f s)\n",
         (unsigned long long)an.events, ranks, threads, (double)bytes / 1e6, gen_s);
  printf("bare OTF2 read loop: %.3f s  %.1f M events/s  %.1f ns/event  peak RSS %.1f MB\n",
         base.seconds, (double)base.events / base.seconds / 1e6,
         base.seconds * 1e9 / (double)base.events, base.max_rss_kb / 1024.0);
  printf("pomp-analyze replay: %.3f s  %.1f M events/s  %.1f ns/event  peak RSS %.1f MB\n",
         an.seconds, (double)an.events / an.seconds / 1e6, an.seconds * 1e9 / (double)an.events,
         an.max_rss_kb / 1024.0);
  printf("ratio analysis / bare read: %.2fx (target <= 3x)\n", an.seconds / base.seconds);
  printf("wait states only (forward pass, no delay costs): %.3f s  %.1f M events/s  CPU %.3f s;"
         " all passes / it: %.2fx wall, %.2fx CPU (target <= 2.5x)  peak RSS %.1f MB\n",
         wo.seconds, (double)wo.events / wo.seconds / 1e6, wo_cpu, an.seconds / wo.seconds,
         an_cpu / wo_cpu, wo.max_rss_kb / 1024.0);
  printf("peak RSS / trace size: %.3f\n", an.max_rss_kb * 1024.0 / (double)bytes);
  printf("as a run that did not finish: %.3f s  peak RSS %.1f MB  "
         "CPU %.3f s vs %.3f s finished: %.2fx (target ~1.0x)\n",
         un.seconds, un.max_rss_kb / 1024.0, un_cpu, an_cpu, un_cpu / an_cpu);
  fflush(stdout);
  parallel_speedup(dir);
  if (argc <= 3) {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) pu_warn("could not remove %s", dir);
  }
  return 0;
}
