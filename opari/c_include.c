/*
 * c_include.c -- what the unit includes, as far as the instrumenter cares:
 * line marks (`#line`, and the preprocessor's `# N "file" flags`: the
 * file and line of every descriptor, diagnostic and output mark; system
 * headers, where nothing is instrumented; the include stack), omp.h
 * (after which the POMP lock functions are declared and `omp_*_lock`
 * calls replaced) and pomp.h (which preprocessed input must contain).
 */
#include <stdlib.h>
#include <string.h>

#include "c_rw.h"
#include "pomp_util.h"

/* ---- locks ------------------------------------------------------------- */

static const char *const lock_calls[][2] = {
    {"omp_init_lock", "POMP_Init_lock"},         {"omp_destroy_lock", "POMP_Destroy_lock"},
    {"omp_set_lock", "POMP_Set_lock"},           {"omp_unset_lock", "POMP_Unset_lock"},
    {"omp_test_lock", "POMP_Test_lock"},         {"omp_init_nest_lock", "POMP_Init_nest_lock"},
    {"omp_destroy_nest_lock", "POMP_Destroy_nest_lock"},
    {"omp_set_nest_lock", "POMP_Set_nest_lock"}, {"omp_unset_nest_lock", "POMP_Unset_nest_lock"},
    {"omp_test_nest_lock", "POMP_Test_nest_lock"}};

static const char lock_declarations[] =
    "void POMP_Init_lock(omp_lock_t *), POMP_Destroy_lock(omp_lock_t *), "
    "POMP_Set_lock(omp_lock_t *), POMP_Unset_lock(omp_lock_t *), "
    "POMP_Init_nest_lock(omp_nest_lock_t *), POMP_Destroy_nest_lock(omp_nest_lock_t *), "
    "POMP_Set_nest_lock(omp_nest_lock_t *), POMP_Unset_nest_lock(omp_nest_lock_t *);\n"
    "int POMP_Test_lock(omp_lock_t *), POMP_Test_nest_lock(omp_nest_lock_t *);\n";

/* The POMP lock functions, at the output's position, in a C++ unit inside
   extern "C" (a preprocessed unit has no #ifdef). */
static void declare_locks_here(Rw *rw) {
  if (rw->depth != (int)rw->nscope || rw->noinstrument || (rw->opt->disabled & DIS_LOCKS)) return;
  bool pp = rw->opt->preprocessed, cxx = rw->opt->cxx;
  if (!pp) em_str(&rw->em, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
  else if (cxx) em_str(&rw->em, "extern \"C\" {\n");
  em_str(&rw->em, lock_declarations);
  if (!pp) em_str(&rw->em, "#ifdef __cplusplus\n}\n#endif\n");
  else if (cxx) em_str(&rw->em, "}\n");
  rw->omp_h_seen = true;
}

/* After `#include <omp.h>` at file or namespace scope: the POMP lock functions need
   omp_lock_t, so they are declared here rather than in the prelude. */
void declare_locks(Rw *rw, CTok t) {
  if (rw->depth != (int)rw->nscope || !instrumenting(rw) || (rw->opt->disabled & DIS_LOCKS))
    return;
  em_copy_to(&rw->em, t.end);
  em_str(&rw->em, "\n");
  declare_locks_here(rw);
  rw_mark(rw, t.end_line + 1);
  if (t.end < rw->n && rw->s[t.end] == '\n') em_skip_to(&rw->em, t.end + 1);
}

void lock_call(Rw *rw, CTok t) {
  size_t len = t.end - t.start;
  const char *w = rw->s + t.start;
  for (size_t i = 0; i < sizeof lock_calls / sizeof *lock_calls; i++) {
    if (strlen(lock_calls[i][0]) != len || memcmp(w, lock_calls[i][0], len) != 0) continue;
    if (!ctok_is(&rw->lx, clex_peek(&rw->lx), '(')) return;
    if (!rw->omp_h_seen) {
      if (!rw->lock_warned)
        rw_warn(rw, t.line, "'%s' is used before any '#include <omp.h>' in this file: "
                            "lock calls are not instrumented", lock_calls[i][0]);
      rw->lock_warned = true;
      return;
    }
    em_copy_to(&rw->em, t.start);
    em_str(&rw->em, lock_calls[i][1]);
    em_skip_to(&rw->em, t.end);
    return;
  }
}

/* ---- line marks --------------------------------------------------------- */

int rw_line(const Rw *rw, int phys) { return linemap_line(&rw->map, phys); }

void rw_mark(Rw *rw, int phys) { em_line(&rw->em, rw_line(rw, phys)); }

int rw_descr(Rw *rw, const char *name, const char *sub, size_t sub_len, const Site *site) {
  int d = descr_add(&rw->descr, name, sub, sub_len, rw_line(rw, site->line),
                    rw_line(rw, site->end_line));
  const MarkEntry *e = linemap_find(&rw->map, site->line);
  if (e && e->file >= 0) {
    const char *file = rw->map.files[e->file].raw;
    while (file[0] == '.' && file[1] == '/') file += 2; /* `#include "x.h"` found via -iquote . */
    rw->descr.v[d].file_name = pu_strdup(file);
  }
  return d;
}

static bool base_name_is(const char *path, const char *name) {
  const char *slash = strrchr(path, '/');
  return strcmp(slash ? slash + 1 : path, name) == 0;
}

/* A line mark.  In preprocessed input, flags 1 and 2 keep the include
   stack: returning from omp.h is where `#include <omp.h>` stood, so the
   POMP lock functions are declared there, before the mark. */
void line_mark(Rw *rw, CTok t) {
  LineMark m;
  if (!line_mark_parse(rw->s + t.start, t.end - t.start, &m)) return;
  if ((m.flags & MARK_RETURN) && rw->nincludes) {
    int left = rw->includes[--rw->nincludes];
    if (left >= 0 && base_name_is(rw->map.files[left].raw, "omp.h")) {
      em_copy_to(&rw->em, t.start);
      declare_locks_here(rw);
    }
  }
  const MarkEntry *e = linemap_add(&rw->map, rw->s + t.start, &m, t.end_line + 1);
  if (m.flags & MARK_ENTER) {
    PU_PUSH(rw->includes, rw->nincludes, rw->includes_cap, e->file);
    if (e->file >= 0 && base_name_is(rw->map.files[e->file].raw, "pomp.h")) rw->pomp_h_seen = true;
  }
  rw->in_system = e->system;
  rw->em.line_name = e->file >= 0 ? rw->map.files[e->file].esc : rw->opt->line_name;
}

