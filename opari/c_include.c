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

static const char *const lock_calls[][2] = {{"omp_init_lock", "POMP_Init_lock"},
                                            {"omp_destroy_lock", "POMP_Destroy_lock"},
                                            {"omp_set_lock", "POMP_Set_lock"},
                                            {"omp_unset_lock", "POMP_Unset_lock"},
                                            {"omp_test_lock", "POMP_Test_lock"},
                                            {"omp_init_nest_lock", "POMP_Init_nest_lock"},
                                            {"omp_destroy_nest_lock", "POMP_Destroy_nest_lock"},
                                            {"omp_set_nest_lock", "POMP_Set_nest_lock"},
                                            {"omp_unset_nest_lock", "POMP_Unset_nest_lock"},
                                            {"omp_test_nest_lock", "POMP_Test_nest_lock"}};

static const char lock_declarations[] =
    "void POMP_Init_lock(omp_lock_t *), POMP_Destroy_lock(omp_lock_t *), "
    "POMP_Set_lock(omp_lock_t *), POMP_Unset_lock(omp_lock_t *), "
    "POMP_Init_nest_lock(omp_nest_lock_t *), POMP_Destroy_nest_lock(omp_nest_lock_t *), "
    "POMP_Set_nest_lock(omp_nest_lock_t *), POMP_Unset_nest_lock(omp_nest_lock_t *);\n"
    "int POMP_Test_lock(omp_lock_t *), POMP_Test_nest_lock(omp_nest_lock_t *);\n";

/* The POMP lock functions, at the output's position, in a C++ unit inside
   extern "C" (a preprocessed unit has no #ifdef). */
static void declare_locks_here(opc_rw *rw) {
  if (rw->depth != (int)rw->nscope || rw->noinstrument || (rw->opt->disabled & OPARI_DIS_LOCKS))
    return;
  bool pp = rw->opt->preprocessed, cxx = rw->opt->cxx;
  if (!pp) op_emit_str(&rw->em, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
  else if (cxx) op_emit_str(&rw->em, "extern \"C\" {\n");
  op_emit_str(&rw->em, lock_declarations);
  if (!pp) op_emit_str(&rw->em, "#ifdef __cplusplus\n}\n#endif\n");
  else if (cxx) op_emit_str(&rw->em, "}\n");
  rw->omp_h_seen = true;
}

/* After `#include <omp.h>` at file or namespace scope: the POMP lock functions need
   omp_lock_t, so they are declared here rather than in the prelude. */
void opc_declare_locks(opc_rw *rw, opc_tok t) {
  if (rw->depth != (int)rw->nscope || !opc_instrumenting(rw) ||
      (rw->opt->disabled & OPARI_DIS_LOCKS))
    return;
  op_emit_copy_to(&rw->em, t.end);
  op_emit_str(&rw->em, "\n");
  declare_locks_here(rw);
  opc_rw_mark(rw, t.end_line + 1);
  if (t.end < rw->n && rw->s[t.end] == '\n') op_emit_skip_to(&rw->em, t.end + 1);
}

void opc_lock_call(opc_rw *rw, opc_tok t) {
  size_t len = t.end - t.start;
  const char *w = rw->s + t.start;
  for (size_t i = 0; i < sizeof lock_calls / sizeof *lock_calls; i++) {
    if (strlen(lock_calls[i][0]) != len || memcmp(w, lock_calls[i][0], len) != 0) continue;
    if (!opc_tok_is(&rw->lx, opc_lex_peek(&rw->lx), '(')) return;
    if (!rw->omp_h_seen) {
      if (!rw->lock_warned)
        opc_warn(rw, t.line,
                 "'%s' is used before any '#include <omp.h>' in this file: "
                 "lock calls are not instrumented",
                 lock_calls[i][0]);
      rw->lock_warned = true;
      return;
    }
    op_emit_copy_to(&rw->em, t.start);
    op_emit_str(&rw->em, lock_calls[i][1]);
    op_emit_skip_to(&rw->em, t.end);
    return;
  }
}

/* ---- line marks --------------------------------------------------------- */

int opc_rw_line(const opc_rw *rw, int phys) { return op_line_map_line(&rw->map, phys); }

void opc_rw_mark(opc_rw *rw, int phys) { op_emit_line(&rw->em, opc_rw_line(rw, phys)); }

int opc_rw_descr(opc_rw *rw, const char *name, const char *sub, size_t sub_len,
                 const opc_site *site) {
  int d = op_descr_add(&rw->descr, name, sub, sub_len, opc_rw_line(rw, site->line),
                       opc_rw_line(rw, site->end_line));
  const op_mark_entry *e = op_line_map_find(&rw->map, site->line);
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
void opc_line_mark_directive(opc_rw *rw, opc_tok t) {
  op_line_mark m;
  if (!op_line_mark_parse(rw->s + t.start, t.end - t.start, &m)) return;
  if ((m.flags & MARK_RETURN) && rw->nincludes) {
    int left = rw->includes[--rw->nincludes];
    if (left >= 0 && base_name_is(rw->map.files[left].raw, "omp.h")) {
      op_emit_copy_to(&rw->em, t.start);
      declare_locks_here(rw);
    }
  }
  const op_mark_entry *e = op_line_map_add(&rw->map, rw->s + t.start, &m, t.end_line + 1);
  if (m.flags & MARK_ENTER) {
    PU_PUSH(rw->includes, rw->nincludes, rw->includes_cap, e->file);
    if (e->file >= 0 && base_name_is(rw->map.files[e->file].raw, "pomp.h")) rw->pomp_h_seen = true;
  }
  rw->in_system = e->system;
  rw->em.line_name = e->file >= 0 ? rw->map.files[e->file].esc : rw->opt->line_name;
}
