/*
 * f_construct.c -- the Fortran OpenMP constructs: which events go before
 * and after the opening and the END directive of each (the Shape table),
 * combined constructs split into PARALLEL and the inner directive,
 * sections, and implicit barriers made explicit: a worksharing END
 * directive without NOWAIT becomes `END ... NOWAIT` followed by an
 * instrumented `!$OMP BARRIER` (never with COPYPRIVATE, which needs the
 * implicit barrier). The barrier ending a parallel region is the
 * runtime's join: each thread only reports its arrival there
 * (Join_barrier_enter, include/pomp.h), and the worksharing half of a
 * combined construct gets NOWAIT, so a region runs one barrier; so does
 * a worksharing construct that is the last thing in its region.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "f_rw.h"
#include "pomp_util.h"

enum { NONE = EV_COUNT };

typedef struct {
  const char *descr; /* descriptor name */
  unsigned disable;  /* DIS_* bit */
  int pre, post;     /* before / after the opening directive */
  int end_post;      /* before the END directive */
  int end_pre;       /* after the END directive (stand-alone: after it) */
  bool worksharing;  /* implicit barrier at its end */
  bool standalone;
} opf_shape;

static const opf_shape shapes[FC_COUNT] = {
    [FC_PARALLEL] = {"parallel", OPARI_DIS_PARALLEL, EV_PARALLEL_FORK, EV_PARALLEL_BEGIN,
                     EV_PARALLEL_END, EV_PARALLEL_JOIN, false, false},
    [FC_DO] = {"do", OPARI_DIS_FOR, EV_DO_ENTER, NONE, NONE, EV_DO_EXIT, true, false},
    [FC_SECTIONS] = {"sections", OPARI_DIS_SECTIONS, EV_SECTIONS_ENTER, NONE, NONE,
                     EV_SECTIONS_EXIT, true, false},
    [FC_SINGLE] = {"single", OPARI_DIS_SINGLE, EV_SINGLE_ENTER, EV_SINGLE_BEGIN, EV_SINGLE_END,
                   EV_SINGLE_EXIT, true, false},
    [FC_WORKSHARE] = {"workshare", OPARI_DIS_FOR, EV_WORKSHARE_ENTER, NONE, NONE, EV_WORKSHARE_EXIT,
                      true, false},
    [FC_MASTER] = {"master", OPARI_DIS_MASTER, NONE, EV_MASTER_BEGIN, EV_MASTER_END, NONE, false,
                   false},
    [FC_CRITICAL] = {"critical", OPARI_DIS_CRITICAL, EV_CRITICAL_ENTER, EV_CRITICAL_BEGIN,
                     EV_CRITICAL_END, EV_CRITICAL_EXIT, false, false},
    [FC_ATOMIC] = {"atomic", OPARI_DIS_ATOMIC, EV_ATOMIC_ENTER, NONE, NONE, EV_ATOMIC_EXIT, false,
                   false},
    [FC_ORDERED] = {"ordered", OPARI_DIS_ORDERED, EV_ORDERED_ENTER, EV_ORDERED_BEGIN,
                    EV_ORDERED_END, EV_ORDERED_EXIT, false, false},
    [FC_TASK] = {"task", OPARI_DIS_TASK, EV_TASK_CREATE_BEGIN, EV_TASK_BEGIN, EV_TASK_END,
                 EV_TASK_CREATE_END, false, false},
    [FC_BARRIER] = {"barrier", OPARI_DIS_BARRIER, EV_BARRIER_ENTER, EV_BARRIER_EXIT, NONE, NONE,
                    false, true},
    [FC_FLUSH] = {"flush", OPARI_DIS_FLUSH, EV_FLUSH_ENTER, EV_FLUSH_EXIT, NONE, NONE, false, true},
    [FC_TASKWAIT] = {"taskwait", OPARI_DIS_TASKWAIT, EV_TASKWAIT_ENTER, EV_TASKWAIT_EXIT, NONE,
                     NONE, false, true},
    [FC_PARALLEL_DO] = {"paralleldo", OPARI_DIS_PARALLEL, NONE, NONE, NONE, NONE, true, false},
    [FC_PARALLEL_SECTIONS] = {"parallelsections", OPARI_DIS_PARALLEL, NONE, NONE, NONE, NONE, true,
                              false},
    [FC_PARALLEL_WORKSHARE] = {"parallelworkshare", OPARI_DIS_PARALLEL, NONE, NONE, NONE, NONE,
                               true, false},
    [FC_PARALLEL_MASTER] = {"parallel", OPARI_DIS_PARALLEL, NONE, NONE, NONE, NONE, false, false},
    [FC_REGION] = {"region", OPARI_DIS_REGION, NONE, EV_BEGIN, EV_END, NONE, false, false},
};

static opf_construct inner_of(opf_construct k) {
  switch (k) {
  case FC_PARALLEL_DO: return FC_DO;
  case FC_PARALLEL_SECTIONS: return FC_SECTIONS;
  case FC_PARALLEL_WORKSHARE: return FC_WORKSHARE;
  case FC_PARALLEL_MASTER: return FC_MASTER;
  default: return k;
  }
}

static void call(opf_rw *rw, int ev, int d) {
  if (ev != NONE) opf_call(rw, (op_event)ev, d);
}

static void barrier(opf_rw *rw, int d) {
  opf_call(rw, EV_BARRIER_ENTER, d);
  opf_directive(rw, "barrier");
  opf_call(rw, EV_BARRIER_EXIT, d);
}

/* The directive's name words ("parallel do simd") into buf. */
static void words_of(const opf_dir *fd, char *buf, size_t size) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < fd->nwords; i++) {
    size_t len = strlen(fd->wordv[i]);
    if (k + len + 2 > size) break;
    if (i) buf[k++] = ' ';
    memcpy(buf + k, fd->wordv[i], len + 1);
    k += len;
  }
}

static bool has_clause(const opf_rw *rw, const char *name) {
  return op_dir_clause(&rw->fd.dir, rw->fd.clean, name) != NULL;
}

/* ---- closing ------------------------------------------------------------ */

static void set_end_lines(opf_rw *rw, int d, size_t a, size_t b) {
  rw->descr.v[d].end_line1 = rw->lines[a].line;
  rw->descr.v[d].end_lineN = rw->lines[b].line;
}

/* Whether a worksharing construct ending at line b is the last thing in
   its parallel region (the innermost open construct): the region's END
   PARALLEL is the next significant line. Then nothing runs between its
   barrier and the join's, and the join's barrier is its own: it gets NOWAIT
   and reports the arrival there, as the inner half of PARALLEL DO does. */
static bool ends_region(opf_rw *rw, size_t b) {
  if (!rw->nopen) return false;
  opf_open *par = &rw->open[rw->nopen - 1];
  if (par->kind != FC_PARALLEL || par->passed || par->join) return false;
  if (!opf_is_end_directive(rw, opf_next_significant(rw, b + 1), "parallel")) return false;
  par->join = true;
  return true;
}

/* Closes o, whose END directive is lines [a..b] (has_dir), or which ends
   after line b without one. */
static void close_construct(opf_rw *rw, const opf_open *o, size_t a, size_t b, bool has_dir) {
  int d = o->descr, din = o->descr2 >= 0 ? o->descr2 : d; /* inner half's */
  set_end_lines(rw, d, a, b);
  set_end_lines(rw, din, a, b);
  opf_construct inner = inner_of(o->kind);
  bool combined = inner != o->kind;
  const opf_shape *sh = &shapes[inner];
  bool bar = sh->worksharing && !o->cancelled &&
             !(has_dir && (has_clause(rw, "nowait") || has_clause(rw, "copyprivate")));
  bool join = bar && !combined && ends_region(rw, b);
  opf_sync(rw, has_dir ? a : b + 1);
  if (o->section_open) opf_call(rw, EV_SECTION_END, d);
  if (o->kind == FC_PARALLEL && !o->join) /* before the team's end */
    opf_call(rw, EV_JOIN_BARRIER_ENTER, d);
  if (o->kind == FC_TASK) opf_task_call(rw, EV_TASK_END, d);
  else call(rw, sh->end_post, din);
  if (!has_dir || bar || combined) {
    if (sh->worksharing || combined) {
      char text[64];
      const char *w = combined ? strchr(o->words, ' ') + 1 : o->words;
      snprintf(text, sizeof text, "end %s%s", w, bar ? " nowait" : "");
      opf_directive(rw, text);
    }
    if (combined || join) opf_call(rw, EV_JOIN_BARRIER_ENTER, d);
    else if (bar) barrier(rw, d);
    if (combined) {
      call(rw, sh->end_pre, d);
      opf_call(rw, EV_PARALLEL_END, d);
      opf_directive(rw, "end parallel");
      opf_call(rw, EV_PARALLEL_JOIN, d);
    }
    if (has_dir) opf_skip(rw, b + 1);
  } else opf_sync(rw, b + 1);
  if (!combined) call(rw, sh->end_pre, d);
  if (o->kind == FC_TASK) opf_statement(rw, "end block");
}

void opf_close_implicit(opf_rw *rw, size_t li) {
  while (rw->nopen && rw->open[rw->nopen - 1].implicit_end == li) {
    opf_open o = rw->open[--rw->nopen];
    opf_set_indent(rw, li); /* that of the loop's last statement */
    if (!o.passed) close_construct(rw, &o, li, li, false);
  }
}

static const char *const kind_words[FC_COUNT] = {[FC_PARALLEL] = "parallel",
                                                 [FC_DO] = "do",
                                                 [FC_SECTIONS] = "sections",
                                                 [FC_SECTION] = "section",
                                                 [FC_SINGLE] = "single",
                                                 [FC_WORKSHARE] = "workshare",
                                                 [FC_MASTER] = "master",
                                                 [FC_CRITICAL] = "critical",
                                                 [FC_ATOMIC] = "atomic",
                                                 [FC_ORDERED] = "ordered",
                                                 [FC_TASK] = "task",
                                                 [FC_PARALLEL_DO] = "parallel do",
                                                 [FC_PARALLEL_SECTIONS] = "parallel sections",
                                                 [FC_PARALLEL_WORKSHARE] = "parallel workshare",
                                                 [FC_PARALLEL_MASTER] = "parallel master",
                                                 [FC_REGION] = "region",
                                                 [FC_DEVICE] = "target",
                                                 [FC_BARRIER] = "barrier",
                                                 [FC_FLUSH] = "flush",
                                                 [FC_TASKWAIT] = "taskwait"};

static void end_directive(opf_rw *rw) {
  const opf_dir *fd = &rw->fd;
  if (fd->kind == FC_OTHER) return;
  if (!rw->nopen)
    opf_error(rw, fd->first, "'!$omp end %s' without an open '%s' construct", kind_words[fd->kind],
              kind_words[fd->kind]);
  opf_open o = rw->open[rw->nopen - 1];
  if (o.kind != fd->kind)
    opf_error(rw, fd->first, "'!$omp end %s' does not match the open '%s' (line %d)",
              kind_words[fd->kind], kind_words[o.kind], rw->lines[o.line].line);
  rw->nopen--;
  if (!o.passed) close_construct(rw, &o, fd->first, fd->last, true);
}

/* ---- sections ----------------------------------------------------------- */

static opf_open *open_sections(opf_rw *rw) {
  opf_open *o = rw->nopen ? &rw->open[rw->nopen - 1] : NULL;
  return o && (o->kind == FC_SECTIONS || o->kind == FC_PARALLEL_SECTIONS) ? o : NULL;
}

void opf_statement_seen(opf_rw *rw, size_t li) {
  opf_open *o = open_sections(rw);
  if (!o || !o->first_section) return;
  o->first_section = false;
  if (o->passed) return;
  opf_sync(rw, li);
  opf_call(rw, EV_SECTION_BEGIN, o->descr);
  o->section_open = true;
  rw->descr.v[o->descr].num_sections++;
}

static void section(opf_rw *rw) {
  const opf_dir *fd = &rw->fd;
  opf_open *o = open_sections(rw);
  if (!o) opf_error(rw, fd->first, "'!$omp section' outside a sections construct");
  o->first_section = false;
  if (o->passed) return;
  opf_sync(rw, fd->first);
  if (o->section_open) opf_call(rw, EV_SECTION_END, o->descr);
  opf_sync(rw, fd->last + 1);
  opf_call(rw, EV_SECTION_BEGIN, o->descr);
  o->section_open = true;
  rw->descr.v[o->descr].num_sections++;
}

/* ---- opening ------------------------------------------------------------ */

/* A descriptor for the construct at physical lines [first..last], in the
   file a `# N "file"` mark names, if any (its C escapes undone). */
static int add_descr(opf_rw *rw, const char *name, const char *sub, size_t sub_len, size_t first,
                     size_t last) {
  int d = op_descr_add(&rw->descr, name, sub, sub_len, rw->lines[first].line, rw->lines[last].line);
  unsigned file = rw->lines[first].file;
  if (file) {
    op_span s = rw->files[file - 1];
    char *out = pu_malloc(s.end - s.start + 1), *o = out;
    for (size_t i = s.start; i < s.end; i++) {
      if (rw->src[i] == '\\' && i + 1 < s.end) i++;
      *o++ = rw->src[i];
    }
    *o = 0;
    rw->descr.v[d].file_name = out;
  }
  return d;
}

/* Which half of a combined construct a clause belongs to: 1 inner, 0
   PARALLEL, -1 unknown. */
static int clause_half(const opf_rw *rw, const op_clause *c) {
  static const char *const outer[] = {"if",        "num_threads",  "default", "shared",
                                      "private",   "firstprivate", "copyin",  "reduction",
                                      "proc_bind", "allocate",     NULL};
  static const char *const inner[] = {"lastprivate", "schedule",    "ordered", "collapse",
                                      "linear",      "order",       "safelen", "simdlen",
                                      "aligned",     "nontemporal", NULL};
  if (op_clause_in(c, rw->fd.clean, outer)) return 0;
  if (op_clause_in(c, rw->fd.clean, inner)) return 1;
  return -1;
}

/* Source bytes [a, b) of the directive's clause c; in fixed form the
   blanks in its keyword are left out (`num _threads`: as if blanked). */
static void clause_bytes(opf_rw *rw, const op_clause *c, size_t a, size_t b) {
  const opf_dir *fd = &rw->fd;
  for (size_t i = a; i < b; i++)
    if (!(rw->fixed && i < c->name.end && fd->clean[i] == ' '))
      fputc(rw->src[fd->start + i], rw->em.f);
}

/* `!$omp <words>` and the given clauses, one continuation line per
   source line of each clause, so that no line grows, then `extra` (a
   clause of pomp-opari's, or NULL) on a line of its own.  (Blanking
   clauses in place could leave an empty `!$omp` continuation line, which
   ends the directive for gfortran.) */
static void directive_with(opf_rw *rw, const char *words, const op_clause *const *clauses, size_t n,
                           const char *extra) {
  const opf_dir *fd = &rw->fd;
  FILE *f = rw->em.f;
  fprintf(f, "%s!$omp %s", rw->fixed ? "" : rw->indent, words);
  for (size_t i = 0; i < n; i++)
    for (size_t p = clauses[i]->whole.start; p < clauses[i]->whole.end;) {
      size_t e = p;
      while (e < clauses[i]->whole.end && fd->clean[e] != '\n') e++;
      size_t a = p, b = e;
      while (a < b && fd->clean[a] == ' ') a++;
      while (b > a && fd->clean[b - 1] == ' ') b--;
      if (b > a) {
        if (rw->fixed) fputs("\n!$omp&", f);
        else fprintf(f, " &\n%s!$omp& ", rw->indent);
        clause_bytes(rw, clauses[i], a, b);
      }
      p = e + 1;
    }
  if (extra && rw->fixed) fprintf(f, "\n!$omp&%s", extra);
  else if (extra) fprintf(f, " &\n%s!$omp& %s", rw->indent, extra);
  fputc('\n', f);
  rw->need_mark = true;
}

/* PARALLEL DO|SECTIONS|WORKSHARE: `!$omp parallel` with its clauses, the
   begin and enter events, then the inner directive with its clauses. */
static void split_combined(opf_rw *rw, int d, int d2, opf_construct inner) {
  const opf_dir *fd = &rw->fd;
  const op_clause **halves[2] = {pu_malloc(fd->dir.nclauses * sizeof(op_clause *) + 1),
                                 pu_malloc(fd->dir.nclauses * sizeof(op_clause *) + 1)};
  size_t n[2] = {0, 0};
  for (size_t i = 0; i < fd->dir.nclauses; i++) {
    const op_clause *c = &fd->dir.clauses[i];
    int half = clause_half(rw, c) == 1;
    halves[half][n[half]++] = c;
  }
  directive_with(rw, "parallel", halves[0], n[0], NULL);
  opf_skip(rw, fd->last + 1);
  opf_call(rw, EV_PARALLEL_BEGIN, d);
  call(rw, shapes[inner].pre, d);
  char words[40];
  words_of(fd, words, sizeof words);
  directive_with(rw, strchr(words, ' ') + 1, halves[1], n[1], NULL);
  call(rw, shapes[inner].post, d2);
  free(halves[0]);
  free(halves[1]);
}

/* Where a construct without END directive closes: the last line of its DO
   loop or atomic statement, unless the optional END directive follows. */
static size_t implicit_end(opf_rw *rw, opf_construct kind, const char *words) {
  const opf_dir *fd = &rw->fd;
  size_t s = opf_next_significant(rw, fd->last + 1), last;
  if (kind == FC_ATOMIC) {
    if (has_clause(rw, "capture")) return (size_t)-1; /* END ATOMIC required */
    if (s >= rw->nlines || opf_classify(rw, s).kind != FL_CODE)
      opf_error(rw, fd->first, "'!$omp atomic' must be followed by a statement");
    last = opf_stmt_last(rw, s);
  } else last = opf_loop_last(rw, s, fd->first);
  return opf_is_end_directive(rw, opf_next_significant(rw, last + 1), words) ? (size_t)-1 : last;
}

/* Whether the innermost instrumented construct is a WORKSHARE, whose
   block may not hold CALL statements: what opens in it is not
   instrumented (a PARALLEL in it makes CALLs legal again). */
static bool in_workshare(const opf_rw *rw) {
  for (size_t i = rw->nopen; i-- > 0;) {
    const opf_open *o = &rw->open[i];
    if (o->kind == FC_WORKSHARE || o->kind == FC_PARALLEL_WORKSHARE) return !o->passed;
    if (o->kind == FC_PARALLEL) return false;
  }
  return false;
}

/* A task's id travels from its creation into its body in a variable
   (include/pomp.h), which Fortran can declare amid statements only in a
   BLOCK (Fortran 2008) around the construct: declared there, set by
   Task_new, firstprivate on the directive (rewritten with the clause
   added on a continuation line), passed by the body's events. */
static void open_task(opf_rw *rw, int d) {
  const opf_dir *fd = &rw->fd;
  char text[64];
  opf_statement(rw, "block");
  snprintf(text, sizeof text, "integer(8) pomp_task_%d", d);
  opf_statement(rw, text);
  opf_task_call(rw, EV_TASK_CREATE_BEGIN, d);
  const op_clause **clauses = pu_malloc(fd->dir.nclauses * sizeof(op_clause *) + 1);
  for (size_t i = 0; i < fd->dir.nclauses; i++) clauses[i] = &fd->dir.clauses[i];
  snprintf(text, sizeof text, "firstprivate(pomp_task_%d)", d);
  opf_copy_to(rw, rw->lines[fd->first].start); /* the directive's line mark */
  directive_with(rw, "task", clauses, fd->dir.nclauses, text);
  free(clauses);
  opf_skip(rw, fd->last + 1);
  opf_task_call(rw, EV_TASK_BEGIN, d);
}

static void open_construct(opf_rw *rw) {
  const opf_dir *fd = &rw->fd;
  opf_construct kind = fd->kind, inner = inner_of(kind);
  const opf_shape *sh = &shapes[kind];
  opf_open o = {.kind = kind, .descr2 = -1, .line = fd->first, .implicit_end = (size_t)-1};
  words_of(fd, o.words, sizeof o.words);
  bool unknown_clause = false;
  if (inner != kind)
    for (size_t i = 0; i < fd->dir.nclauses; i++)
      if (clause_half(rw, &fd->dir.clauses[i]) < 0) unknown_clause = true;
  if (unknown_clause)
    opf_warn(rw, fd->first, "'!$omp %s' with a clause this tool cannot place: not instrumented",
             o.words);
  o.passed = unknown_clause || (rw->opt->disabled & sh->disable) ||
             (inner != kind && (rw->opt->disabled & shapes[inner].disable)) || in_workshare(rw) ||
             opf_in_device(rw);
  if (kind == FC_DO || kind == FC_PARALLEL_DO || kind == FC_ATOMIC)
    o.implicit_end = implicit_end(rw, kind, o.words);
  if (kind == FC_SECTIONS || kind == FC_PARALLEL_SECTIONS) o.first_section = true;
  if (!o.passed) {
    const char *sub = "";
    size_t sub_len = 0;
    char name[128];
    if (kind == FC_CRITICAL && fd->dir.has_paren) { /* lower case: Fortran names ignore case */
      sub = name;
      sub_len = opf_paren_name(rw, name, sizeof name);
    }
    o.descr = add_descr(rw, sh->descr, sub, sub_len, fd->first, fd->last);
    opf_sync(rw, fd->first);
    if (kind == FC_PARALLEL_MASTER) o.descr2 = add_descr(rw, "master", "", 0, fd->first, fd->last);
    if (inner != kind) {
      opf_call(rw, EV_PARALLEL_FORK, o.descr);
      split_combined(rw, o.descr, o.descr2, inner);
    } else if (kind == FC_TASK) {
      open_task(rw, o.descr);
    } else {
      call(rw, sh->pre, o.descr);
      opf_sync(rw, fd->last + 1);
      call(rw, sh->post, o.descr);
    }
  }
  if (!sh->standalone) PU_PUSH(rw->open, rw->nopen, rw->open_cap, o);
}

/* `!$omp cancel do|sections`: the construct it cancels keeps its
   implicit barrier (a cancelled worksharing construct may not be NOWAIT). */
static void cancel(opf_rw *rw) {
  const opf_dir *fd = &rw->fd;
  if (fd->end || fd->nwords != 2 || strcmp(fd->wordv[0], "cancel") != 0) return;
  bool loop = strcmp(fd->wordv[1], "do") == 0;
  if (!loop && strcmp(fd->wordv[1], "sections") != 0) return;
  for (size_t i = rw->nopen; i-- > 0;) {
    opf_open *o = &rw->open[i];
    opf_construct inner = inner_of(o->kind);
    if (inner == (loop ? FC_DO : FC_SECTIONS)) {
      o->cancelled = true;
      return;
    }
  }
}

void opf_omp_directive(opf_rw *rw, size_t li) {
  opf_read_directive(rw, li);
  const opf_dir *fd = &rw->fd;
  opf_set_indent(rw, fd->first);
  if (fd->kind != FC_SECTION &&
      !(fd->end && (fd->kind == FC_SECTIONS || fd->kind == FC_PARALLEL_SECTIONS)))
    opf_statement_seen(rw, fd->first);
  if (fd->kind == FC_OTHER && opf_device_directive(rw)) return;
  if (fd->end) end_directive(rw);
  else if (fd->kind == FC_SECTION) section(rw);
  else if (fd->kind == FC_ORDERED && (has_clause(rw, "depend") || has_clause(rw, "doacross")))
    return; /* stand-alone ordered: no events */
  else if (fd->kind == FC_OTHER) {
    cancel(rw);
    if (fd->nwords == 2 && strcmp(fd->wordv[0], "parallel") == 0)
      opf_warn(rw, fd->first, "'!$omp parallel %s' is not instrumented", fd->wordv[1]);
    if (fd->nwords == 0 && op_ident_end(fd->clean, fd->len, op_skip_gap(fd->clean, fd->len, 0)) ==
                               op_skip_gap(fd->clean, fd->len, 0))
      opf_error(rw, fd->first, "empty '!$omp' directive");
  } else open_construct(rw);
}

/* POMP user regions share the open-construct stack. */
void opf_region_begin(opf_rw *rw, size_t li, const char *name, size_t len) {
  opf_open o = {.kind = FC_REGION,
                .descr2 = -1,
                .line = li,
                .implicit_end = (size_t)-1,
                .name = name,
                .name_len = len};
  o.passed = (rw->opt->disabled & OPARI_DIS_REGION) || opf_in_device(rw);
  if (!o.passed) {
    o.descr = add_descr(rw, "region", name, len, li, li);
    opf_sync(rw, li + 1);
    call(rw, shapes[FC_REGION].post, o.descr);
  }
  PU_PUSH(rw->open, rw->nopen, rw->open_cap, o);
}

/* The innermost open construct, which must be the region `end(name)` or
   `altend(name)` names. */
static opf_open *named_region(opf_rw *rw, size_t li, const char *name, size_t len,
                              const char *what) {
  opf_open *o = rw->nopen ? &rw->open[rw->nopen - 1] : NULL;
  if (!o || o->kind != FC_REGION || o->name_len != len || strncasecmp(o->name, name, len) != 0)
    opf_error(rw, li, "'%s(%.*s)' without a matching 'begin(%.*s)'", what, (int)len, name, (int)len,
              name);
  return o;
}

void opf_region_end(opf_rw *rw, size_t li, const char *name, size_t len) {
  opf_open *o = named_region(rw, li, name, len, "end");
  rw->nopen--;
  if (!o->passed) close_construct(rw, o, li, li, true);
}

/* An early exit the user marked: an end event before the directive (a
   comment for the compiler); the region stays open. */
void opf_region_altend(opf_rw *rw, size_t li, const char *name, size_t len) {
  opf_open *o = named_region(rw, li, name, len, "altend");
  if (o->passed) return;
  opf_sync(rw, li);
  opf_set_indent(rw, li);
  opf_call(rw, EV_END, o->descr);
}

void opf_return(opf_rw *rw, size_t li) {
  int kind = -1;
  for (size_t i = rw->nopen; i-- > 0;) {
    const opf_open *o = &rw->open[i];
    if (o->kind != FC_REGION || o->passed) continue;
    if (kind < 0) kind = opf_return_at(rw, li);
    if (kind == 0) return;
    if (kind == 2) {
      opf_warn(rw, li, "this RETURN leaves the user region '%.*s' without its end event",
               (int)o->name_len, o->name);
      return;
    }
    opf_sync(rw, li);
    opf_set_indent(rw, li);
    opf_call(rw, EV_END, o->descr);
  }
}

void opf_check_closed(opf_rw *rw) {
  if (!rw->nopen) return;
  const opf_open *o = &rw->open[rw->nopen - 1];
  if (o->kind == FC_REGION)
    opf_error(rw, o->line, "'begin(%.*s)' has no matching 'end(%.*s)'", (int)o->name_len, o->name,
              (int)o->name_len, o->name);
  opf_error(rw, o->line, "'!$omp %s' is not closed by '!$omp end %s'", o->words,
            kind_words[o->kind]);
}

int opf_add_descr(opf_rw *rw, const char *name, size_t first, size_t last) {
  return add_descr(rw, name, "", 0, first, last);
}
