/* report_generate.c -- synthetic reports for tests, benchmarks and demos.
 *
 * Shape: a random recursive call tree under "main" (depth grows like
 * ln(cnodes)) whose nodes are user functions, OpenMP constructs or MPI
 * calls (MPI calls are leaves); a system tree cluster > node (4 processes
 * each) > rank > thread; the catalogue metrics first.  Each (metric,
 * cnode) row holds values on about density x locations locations, laid out
 * like real data: a block of consecutive ranks, the master threads of a
 * block of ranks, or scattered locations.  Values are non-negative (so
 * every inclusive value is at least its parts); visits and bytes are
 * integers.
 *
 * Deterministic: every random choice comes from splitmix64 seeded with the
 * seed and the ids it belongs to, and nothing depends on time or
 * addresses, so the same parameters give the same bytes.  Streaming: rows
 * go straight to the writer, memory is the definitions plus one row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "report_internal.h"

static uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static double uniform(uint64_t *s) { /* [0, 1) */
  return (double)(mix(s) >> 11) * 0x1.0p-53;
}
static uint64_t below(uint64_t *s, uint64_t n) { return n ? mix(s) % n : 0; }

/* ---- definitions ---------------------------------------------------------- */

static const char *const user_names[] = {
    "init",         "read_input",    "setup_mesh", "solve",       "compute_flux", "update_cells",
    "apply_bc",     "exchange_halo", "residual",   "smooth",      "restrict",     "prolongate",
    "write_output", "checkpoint",    "assemble",   "precondition"};
static const struct {
  const char *name, *role;
} mpi_calls[] = {{"MPI_Send", "point2point"},       {"MPI_Recv", "point2point"},
                 {"MPI_Isend", "point2point"},      {"MPI_Irecv", "point2point"},
                 {"MPI_Wait", "point2point"},       {"MPI_Waitall", "point2point"},
                 {"MPI_Allreduce", "coll_all2all"}, {"MPI_Barrier", "barrier"},
                 {"MPI_Bcast", "coll_one2all"},     {"MPI_Reduce", "coll_all2one"}};
static const char *const omp_roles[] = {"parallel",         "loop",     "barrier",
                                        "implicit_barrier", "critical", "single"};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Regions: main, the MPI calls, then numbered user functions and OpenMP
   constructs in sources solver_<k>.c. */
static void add_regions(pomp_report *r, int32_t n, uint64_t seed) {
  pomp_report_add_region(r, "main", "main.c", 1, 200, "user", "function");
  for (int i = 0; i < COUNT(mpi_calls); i++)
    pomp_report_add_region(r, mpi_calls[i].name, "", 0, 0, "mpi", mpi_calls[i].role);
  uint64_t s = seed ^ 0x5e910;
  char name[96], file[32];
  for (int32_t i = pomp_report_num_regions(r); i < n; i++) {
    int32_t line = 10 + (int32_t)below(&s, 2000);
    snprintf(file, sizeof file, "solver_%d.c", (int)(i % 23));
    if (below(&s, 4) == 0) {
      const char *role = omp_roles[below(&s, COUNT(omp_roles))];
      snprintf(name, sizeof name, "!$omp %s @%s:%d", role, file, (int)line);
      pomp_report_add_region(r, name, file, line, line + 20, "openmp", role);
    } else {
      snprintf(name, sizeof name, "%s_%d", user_names[below(&s, COUNT(user_names))], (int)i);
      pomp_report_add_region(r, name, file, line, line + 80, "user", "function");
    }
  }
}

/* What a region may be in the call tree. */
enum { REG_USER, REG_MPI, REG_PARALLEL, REG_INNER, REG_LEAF_OMP, REG_KINDS };

static int region_kind(const pomp_region *g) {
  if (g->paradigm[0] == 'm') return REG_MPI;
  if (g->paradigm[0] == 'u') return REG_USER;
  if (strcmp(g->role, "parallel") == 0) return REG_PARALLEL;
  return strstr(g->role, "barrier") ? REG_LEAF_OMP : REG_INNER;
}

/* Random recursive tree: each new node picks a random earlier node as its
   parent (so depth grows like ln n), skipping leaves (MPI calls, barriers),
   and a region that fits there: no parallel region inside another,
   worksharing and critical only inside one.  Duplicates of (region,
   parent) just draw again. */
static void add_call_tree(pomp_report *r, int32_t n, uint64_t seed) {
  int32_t nregions = pomp_report_num_regions(r);
  int32_t *by_kind[REG_KINDS], count[REG_KINDS] = {0};
  for (int k = 0; k < REG_KINDS; k++) by_kind[k] = pu_malloc((size_t)nregions * sizeof *by_kind[k]);
  for (int32_t g = 1; g < nregions; g++) {
    int k = region_kind(&r->regions[g]);
    by_kind[k][count[k]++] = g;
  }
  char *in_parallel = pu_calloc((size_t)n + 1, 1);
  pomp_report_add_cnode(r, 0, -1);
  uint64_t s = seed ^ 0xca11;
  while (pomp_report_num_cnodes(r) < n) {
    int32_t i = pomp_report_num_cnodes(r);
    int32_t parent = (int32_t)below(&s, (uint64_t)i);
    int pk = parent ? region_kind(&r->regions[r->cnodes[parent].region]) : REG_USER;
    if (pk == REG_MPI || pk == REG_LEAF_OMP) continue;
    uint64_t d = below(&s, 20);
    int kind = d < 6    ? REG_MPI
               : d < 10 ? (in_parallel[parent] ? REG_INNER : REG_PARALLEL)
               : d < 11 ? (in_parallel[parent] ? REG_LEAF_OMP : REG_USER)
                        : REG_USER;
    if (!count[kind]) kind = REG_USER;
    int32_t region = by_kind[kind][below(&s, (uint64_t)count[kind])];
    if (pomp_report_add_cnode(r, region, parent) == i)
      in_parallel[i] = (char)(in_parallel[parent] || kind == REG_PARALLEL);
  }
  free(in_parallel);
  for (int k = 0; k < REG_KINDS; k++) free(by_kind[k]);
}

static void add_system(pomp_report *r, int32_t locations, int32_t threads) {
  int32_t machine = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = -1, process = -1;
  char name[48];
  for (int32_t l = 0; l < locations; l++) {
    int32_t rank = l / threads, thread = l % threads;
    if (thread == 0) {
      if (rank % 4 == 0) {
        snprintf(name, sizeof name, "node%03d", (int)(rank / 4));
        node = pomp_report_add_sysnode(r, POMP_SYS_NODE, name, machine, -1, -1);
      }
      snprintf(name, sizeof name, "rank %d", (int)rank);
      process = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, name, node, rank, -1);
    }
    snprintf(name, sizeof name, "thread %d", (int)thread);
    pomp_report_add_sysnode(r, POMP_SYS_THREAD, name, process, rank, thread);
  }
}

static void add_metrics(pomp_report *r, int32_t n) {
  pomp_report_add_catalogue_n(r, n);
  char name[32];
  for (int32_t i = pomp_report_num_metrics(r); i < n; i++) {
    snprintf(name, sizeof name, "synthetic_%d", (int)i);
    pomp_report_add_metric(r, name, name, POMP_UNIT_OCC, "A synthetic counter of the generator.",
                           -1);
  }
}

/* ---- rows ----------------------------------------------------------------- */

/* Locations of one row, increasing; returns how many. */
static size_t row_locations(uint64_t *s, const pomp_report_synth *p, int32_t *locs) {
  int32_t nloc = p->locations;
  double want = p->density * nloc * (0.5 + uniform(s));
  size_t k = want >= nloc ? (size_t)nloc : (size_t)want;
  if (k == 0) { /* below one location: one with probability want */
    if (uniform(s) >= want) return 0;
    locs[0] = (int32_t)below(s, (uint64_t)nloc);
    return 1;
  }
  uint64_t shape = below(s, 4);
  size_t n = 0;
  if (shape == 2 && p->threads > 1 && k <= (size_t)((nloc + p->threads - 1) / p->threads)) {
    /* master threads of k consecutive ranks */
    int32_t ranks = (nloc + p->threads - 1) / p->threads;
    int32_t first = (int32_t)below(s, (uint64_t)(ranks - (int32_t)k + 1));
    for (size_t i = 0; i < k; i++) locs[n++] = (first + (int32_t)i) * p->threads;
  } else if (shape == 3) {
    /* scattered: gaps drawn from the geometric distribution */
    double q = log1p(-(double)k / nloc);
    for (double l = floor(log1p(-uniform(s)) / q); l < nloc; l += 1 + floor(log1p(-uniform(s)) / q))
      locs[n++] = (int32_t)l;
  } else {
    /* a block of consecutive locations (all threads of some ranks) */
    int32_t first = (int32_t)below(s, (uint64_t)(nloc - (int32_t)k + 1));
    for (size_t i = 0; i < k; i++) locs[n++] = first + (int32_t)i;
  }
  return n;
}

static double row_value(uint64_t *s, pomp_unit unit, double scale) {
  switch (unit) {
  case POMP_UNIT_OCC: return (double)(1 + below(s, 1000));
  case POMP_UNIT_BYTES: return (double)(8 * (1 + below(s, 1 << 16)));
  default: return scale * (0.5 + uniform(s));
  }
}

/* Which call paths a metric has values on, by the paradigm of the callee:
   MPI properties and bytes on MPI calls, OpenMP properties on OpenMP
   constructs, computation on user code, the rest (idle threads, visits,
   synthetic counters) everywhere. */
static char metric_paradigm(const char *name) {
  if (strncmp(name, "mpi", 3) == 0 || strncmp(name, "bytes_", 6) == 0) return 'm';
  if (strncmp(name, "omp_idle", 8) == 0 || strncmp(name, "omp_limited", 11) == 0) return 0;
  if (strncmp(name, "omp", 3) == 0) return 'o';
  if (strcmp(name, "comp") == 0) return 'u';
  return 0;
}

static int row_allowed(const pomp_report *r, int32_t m, int32_t c) {
  /* time = execution + idle threads and execution = comp + mpi + omp
     exactly, so neither has a value of its own */
  const char *name = r->metrics[m].name;
  if (strcmp(name, "time") == 0 || strcmp(name, "execution") == 0) return 0;
  char want = metric_paradigm(name);
  return !want || r->regions[r->cnodes[c].region].paradigm[0] == want;
}

static pomp_report_status write_rows(pomp_report_writer *w, const pomp_report *r,
                                     const pomp_report_synth *p, pomp_report_error *err) {
  /* Rows only where they make sense; their density is raised so that the
     report still holds density x all cells. */
  double allowed = 0;
  for (int32_t m = 0; m < p->metrics; m++)
    for (int32_t c = 0; c < p->cnodes; c++) allowed += row_allowed(r, m, c);
  pomp_report_synth q = *p;
  q.density = fmin(1.0, p->density * p->metrics * (double)p->cnodes / allowed);
  int32_t *locs = pu_malloc((size_t)p->locations * sizeof *locs);
  double *vals = pu_malloc((size_t)p->locations * sizeof *vals);
  pomp_report_status st = POMP_REPORT_OK;
  for (int32_t m = 0; m < p->metrics && !st; m++)
    for (int32_t c = 0; c < p->cnodes && !st; c++) {
      if (!row_allowed(r, m, c)) continue;
      uint64_t s = p->seed ^ ((uint64_t)m << 40) ^ ((uint64_t)c * 0x9e37u);
      mix(&s);
      /* each call path has its own typical magnitude: 1 us .. 10 s */
      uint64_t cs = p->seed ^ (uint64_t)c;
      double scale = pow(10.0, -6.0 + 7.0 * uniform(&cs));
      size_t n = row_locations(&s, &q, locs);
      for (size_t i = 0; i < n; i++) vals[i] = row_value(&s, r->metrics[m].unit, scale);
      st = pomp_report_write_row(w, m, c, locs, vals, n, err);
    }
  free(locs);
  free(vals);
  return st;
}

pomp_report_status pomp_report_generate(const pomp_report_synth *p, const char *path,
                                        pomp_report_error *err) {
  if (p->cnodes < 1 || p->locations < 1 || p->threads < 1 || p->metrics < 1 ||
      !(p->density >= 0 && p->density <= 1))
    return report_fail(err, POMP_REPORT_ERR_ARG,
                       "generate: need cnodes, locations, threads, metrics "
                       ">= 1 and 0 <= density <= 1");
  pomp_report *r = pomp_report_new();
  char text[64];
  pomp_report_set_attr(r, "application", "synthetic");
  snprintf(text, sizeof text, "%llu", (unsigned long long)p->seed);
  pomp_report_set_attr(r, "seed", text);
  snprintf(text, sizeof text, "%d", (int)((p->locations + p->threads - 1) / p->threads));
  pomp_report_set_attr(r, "ranks", text);
  snprintf(text, sizeof text, "%d", (int)p->threads);
  pomp_report_set_attr(r, "threads", text);
  add_metrics(r, p->metrics);
  int32_t want = p->cnodes / 50 + 1 + COUNT(mpi_calls) + 40;
  add_regions(r, want, p->seed);
  add_call_tree(r, p->cnodes, p->seed);
  add_system(r, p->locations, p->threads);
  pomp_report_status st = POMP_REPORT_ERR_IO;
  pomp_report_writer *w = pomp_report_write_begin(r, path, err);
  if (w) {
    st = write_rows(w, r, p, err);
    if (st) pomp_report_write_abort(w);
    else st = pomp_report_write_end(w, err);
  }
  pomp_report_free(r);
  return st;
}
