/*
 * c_construct.c -- the OpenMP constructs: how each one's events are
 * placed around it (the Shape table), splitting of combined constructs,
 * sections, and the closing events emitted when a construct's block ends.
 */
#include <stdio.h>
#include <string.h>

#include "c_rw.h"
#include "pomp_util.h"

/* How the events of one construct are placed around it. */
typedef struct {
  const char *descr;    /* descriptor name */
  unsigned disable;     /* DIS_* bit */
  const char *pre;      /* before the directive, opens a block */
  const char *post;     /* after the directive, opens a block */
  const char *end_post; /* closes the post block */
  const char *end_pre;  /* closes the pre block (for a stand-alone
                           directive: right after it) */
  bool barrier_inside;  /* barrier inside the post block */
  bool standalone;      /* no structured block */
  bool task_id;         /* pre returns the id of a task, post and end_post take it */
} opc_shape;

static const opc_shape shapes[] = {
    [OP_DIR_PARALLEL] = {"parallel", OPARI_DIS_PARALLEL, "Parallel_fork", "Parallel_begin",
                         "Parallel_end", "Parallel_join", true, false},
    [OP_DIR_FOR] = {"for", OPARI_DIS_FOR, "For_enter", NULL, NULL, "For_exit", false, false},
    [OP_DIR_SECTIONS] = {"sections", OPARI_DIS_SECTIONS, "Sections_enter", NULL, NULL,
                         "Sections_exit", false, false},
    [OP_DIR_SECTION] = {"section", OPARI_DIS_SECTIONS, NULL, "Section_begin", "Section_end", NULL,
                        false, false},
    [OP_DIR_SINGLE] = {"single", OPARI_DIS_SINGLE, "Single_enter", "Single_begin", "Single_end",
                       "Single_exit", false, false},
    [OP_DIR_MASTER] = {"master", OPARI_DIS_MASTER, NULL, "Master_begin", "Master_end", NULL, false,
                       false},
    [OP_DIR_CRITICAL] = {"critical", OPARI_DIS_CRITICAL, "Critical_enter", "Critical_begin",
                         "Critical_end", "Critical_exit", false, false},
    [OP_DIR_ATOMIC] = {"atomic", OPARI_DIS_ATOMIC, "Atomic_enter", NULL, NULL, "Atomic_exit", false,
                       false},
    [OP_DIR_ORDERED] = {"ordered", OPARI_DIS_ORDERED, "Ordered_enter", "Ordered_begin",
                        "Ordered_end", "Ordered_exit", false, false},
    [OP_DIR_TASK] = {"task", OPARI_DIS_TASK, "Task_new", "Task_run_begin", "Task_run_end",
                     "Task_create_end", false, false, true},
    [OP_DIR_BARRIER] = {"barrier", OPARI_DIS_BARRIER, "Barrier_enter", NULL, NULL, "Barrier_exit",
                        false, true},
    [OP_DIR_FLUSH] = {"flush", OPARI_DIS_FLUSH, "Flush_enter", NULL, NULL, "Flush_exit", false,
                      true},
    [OP_DIR_TASKWAIT] = {"taskwait", OPARI_DIS_TASKWAIT, "Taskwait_enter", NULL, NULL,
                         "Taskwait_exit", false, true},
};

/* ---- closing ------------------------------------------------------------ */

/* An explicit barrier inline, after the last token of a block on
   physical line `line`: a preprocessed unit is compiled without the
   preprocessor, which alone knows _Pragma, so there the pragma takes a
   line of its own and a line mark follows. */
static void emit_barrier(opc_rw *rw, int d, int line) {
  op_emit_str(&rw->em, " {");
  op_emit_call(&rw->em, "Barrier_enter", d);
  if (rw->opt->preprocessed) {
    op_emit_str(&rw->em, "\n#pragma omp barrier\n");
    opc_rw_mark(rw, line);
  } else op_emit_str(&rw->em, " _Pragma(\"omp barrier\")");
  op_emit_call(&rw->em, "Barrier_exit", d);
  op_emit_str(&rw->em, " }");
}

/* The end of a parallel region's body: the runtime's join barrier is its
   implicit barrier, so no explicit one is added; each thread reports its
   arrival and POMP_Parallel_join the barrier's end (include/pomp.h). */
static void emit_join_barrier(opc_rw *rw, int d) { op_emit_call(&rw->em, "Join_barrier_enter", d); }

/* The inner half of a combined construct (OP_DIR_UNKNOWN: masked, which is
   passed); OP_DIR_PARALLEL for a construct that is not combined. */
static op_dir_kind combined_inner(int kind) {
  switch (kind) {
  case OP_DIR_PARALLEL_FOR: return OP_DIR_FOR;
  case OP_DIR_PARALLEL_SECTIONS: return OP_DIR_SECTIONS;
  case OP_DIR_PARALLEL_MASTER: return OP_DIR_MASTER;
  case OP_DIR_PARALLEL_MASKED: return OP_DIR_UNKNOWN;
  default: return OP_DIR_PARALLEL;
  }
}

/* Which barrier closes a construct: none (nowait, copyprivate, master),
   an explicit one (worksharing inside a region), or the join's. */
enum { BAR_NONE, BAR_EXPLICIT, BAR_JOIN };

static void close_barrier(opc_rw *rw, int bar, int d, int line) {
  if (bar == BAR_EXPLICIT) emit_barrier(rw, d, line);
  else if (bar == BAR_JOIN) emit_join_barrier(rw, d);
}

static void close_shape(opc_rw *rw, const opc_shape *sh, int d, int bar, int line) {
  if (sh->barrier_inside) close_barrier(rw, bar, d, line);
  if (sh->end_post) {
    if (sh->task_id) op_emit_task_call(&rw->em, sh->end_post, d);
    else op_emit_call(&rw->em, sh->end_post, d);
    op_emit_str(&rw->em, " }");
  }
  if (!sh->barrier_inside) close_barrier(rw, bar, d, line);
  if (sh->end_pre) {
    op_emit_call(&rw->em, sh->end_pre, d);
    op_emit_str(&rw->em, " }");
  }
}

static void emit_close(opc_rw *rw, const opc_pending *p) {
  if (p->kind == CLOSE_SUPPRESS) {
    rw->suppress--;
    return;
  }
  if (p->kind == CLOSE_RETURN) {
    op_emit_str(&rw->em, " }");
    return;
  }
  if (p->kind == CLOSE_LOOP) { /* the guard's block (c_loop.c) */
    op_descr *d = &rw->descr.v[p->descr];
    d->end_line1 = d->end_lineN = opc_rw_line(rw, p->end_line);
    op_emit_str(&rw->em, " }");
    return;
  }
  op_descr *d = &rw->descr.v[p->descr];
  int end_line = opc_rw_line(rw, p->end_line), line = p->end_line;
  if (p->kind != OP_DIR_SECTION) d->end_line1 = d->end_lineN = end_line;
  op_dir_kind inner = combined_inner(p->kind);
  if (inner == OP_DIR_FOR || inner == OP_DIR_SECTIONS) {
    /* the worksharing part ends with the region: its barrier is the join */
    close_shape(rw, &shapes[inner], p->descr, BAR_JOIN, line);
    close_shape(rw, &shapes[OP_DIR_PARALLEL], p->descr, BAR_NONE, line);
  } else if (inner == OP_DIR_MASTER || inner == OP_DIR_UNKNOWN) {
    if (inner == OP_DIR_MASTER) {
      op_descr *m = &rw->descr.v[p->descr2];
      m->end_line1 = m->end_lineN = end_line;
      close_shape(rw, &shapes[OP_DIR_MASTER], p->descr2, BAR_NONE, line);
    }
    close_shape(rw, &shapes[OP_DIR_PARALLEL], p->descr, BAR_JOIN, line);
  } else if (p->kind == OP_DIR_PARALLEL)
    close_shape(rw, &shapes[OP_DIR_PARALLEL], p->descr, p->join ? BAR_NONE : BAR_JOIN, line);
  else {
    int bar = p->join ? BAR_JOIN : p->barrier ? BAR_EXPLICIT : BAR_NONE;
    close_shape(rw, &shapes[p->kind], p->descr, bar, line);
  }
}

/* Closes every construct whose block ended before `pos`. */
void opc_close_pendings(opc_rw *rw, size_t pos) {
  while (rw->npend && rw->pend[rw->npend - 1].end <= pos) {
    opc_pending p = rw->pend[--rw->npend];
    op_emit_copy_to(&rw->em, p.end);
    emit_close(rw, &p);
  }
}

/* ---- OpenMP constructs ------------------------------------------------ */

static bool has_clause(const opc_rw *rw, const opc_site *site, const char *name) {
  return op_dir_clause(&rw->dir, site->text, name) != NULL;
}

/* `shared(pomp_rd)` after a default clause: default(none) would reject the
   descriptor table, default(private/firstprivate) would privatise it. */
static void add_shared_table(opc_rw *rw, const opc_site *site) {
  if (has_clause(rw, site, "default")) opc_variant_append(rw, " shared(pomp_rd)", 16);
}

/* A task's id travels from its creation into its body in a variable of
   the construct's own (include/pomp.h): declared by the block before the
   directive, firstprivate on it (explicitly: default(none) and
   default(shared) would not give the task a copy). */
static void add_task_id(opc_rw *rw, int d) {
  char clause[48];
  int n = snprintf(clause, sizeof clause, " firstprivate(pomp_task_%d)", d);
  opc_variant_append(rw, clause, (size_t)n);
}

/* " unsigned long long pomp_task_<d> = POMP_Task_new(pomp_rd[<d>]);" */
static void emit_task_new(opc_rw *rw, const char *event, int d) {
  op_emit_str(&rw->em, " unsigned long long ");
  op_emit_task_var(&rw->em, d);
  op_emit_str(&rw->em, " =");
  op_emit_call(&rw->em, event, d);
}

static opc_body body_after(opc_rw *rw, const opc_site *site) {
  return opc_find_body(rw, site, &rw->lx, false);
}

/* The next code token at or after pos, line marks skipped. */
static opc_tok next_code_token(const opc_rw *rw, opc_lexer lx, size_t pos) {
  lx.pos = pos;
  lx.bol = false;
  for (;;) {
    opc_tok t = opc_lex_next(&lx);
    op_line_mark m;
    if (t.kind != CT_DIRECTIVE || !op_line_mark_parse(rw->s + t.start, t.end - t.start, &m))
      return t;
  }
}

/* Whether a worksharing construct whose block ends at body.end is the last
   thing in the parallel region par: the region's statement itself (no code
   token between the two directives), or the last statement of the region's
   `{` block (its `}` is the next code token). Then nothing runs between its
   barrier and the join's, and the join's barrier is its own. */
static bool ends_region(const opc_rw *rw, const opc_pending *par, opc_body body) {
  if (par->kind != OP_DIR_PARALLEL || par->join || par->pp_level != (int)rw->npp) return false;
  if (!par->block_body) return rw->prev.end == par->code_before && body.end == par->end;
  if (rw->depth != par->open_depth + 1) return false;
  opc_tok t = next_code_token(rw, rw->lx, body.end);
  return opc_tok_is(&rw->lx, t, '}') && t.end == par->end;
}

/* A parallel region just pushed: what ends_region needs of it. */
static void note_region_shape(opc_rw *rw) {
  opc_pending *par = &rw->pend[rw->npend - 1];
  opc_tok t = next_code_token(rw, rw->lx, rw->lx.pos);
  par->block_body = opc_tok_is(&rw->lx, t, '{');
  par->open_depth = rw->depth;
  par->code_before = rw->prev.end;
}

static void instrument(opc_rw *rw, const opc_site *site, op_dir_kind kind) {
  const opc_shape *sh = &shapes[kind];
  const char *t = site->text;
  opc_body body = {0};
  if (!sh->standalone) body = body_after(rw, site);
  const char *sub = "";
  size_t sub_len = 0;
  if (kind == OP_DIR_CRITICAL && rw->dir.has_paren) {
    size_t a = op_skip_gap(t, site->len, rw->dir.paren.start);
    sub = t + a;
    sub_len = op_ident_end(t, site->len, a) - a;
  }
  int d = opc_rw_descr(rw, sh->descr, sub, sub_len, site);
  opc_variant_reset(rw);
  bool barrier = false, join = false;
  if (kind == OP_DIR_PARALLEL || kind == OP_DIR_TASK) add_shared_table(rw, site);
  if (sh->task_id) add_task_id(rw, d);
  if (kind == OP_DIR_FOR || kind == OP_DIR_SECTIONS || kind == OP_DIR_SINGLE) {
    unsigned cancel = kind == OP_DIR_FOR        ? CANCEL_FOR
                      : kind == OP_DIR_SECTIONS ? CANCEL_SECTIONS
                                                : 0;
    barrier = !has_clause(rw, site, "nowait") && !has_clause(rw, site, "copyprivate") &&
              !(body.cancel & cancel);
    if (barrier) opc_variant_append(rw, " nowait", 7);
    /* the region's join barrier is this construct's: it reports the arrival */
    if (barrier && rw->npend && ends_region(rw, &rw->pend[rw->npend - 1], body)) {
      rw->pend[rw->npend - 1].join = true;
      join = true;
      barrier = false;
    }
  }
  if (sh->pre) {
    opc_pre_begin(rw, site);
    op_emit_str(&rw->em, "{");
    if (sh->task_id) emit_task_new(rw, sh->pre, d);
    else op_emit_call(&rw->em, sh->pre, d);
    opc_pre_end(rw, site);
  }
  opc_put_variant(rw, site, NULL, 0);
  if (sh->standalone) {
    opc_post_begin(rw, site);
    op_emit_call(&rw->em, sh->end_pre, d);
    op_emit_str(&rw->em, " }");
    opc_post_end(rw, site);
    return;
  }
  if (sh->post) {
    opc_post_begin(rw, site);
    op_emit_str(&rw->em, "{");
    if (sh->task_id) op_emit_task_call(&rw->em, sh->post, d);
    else op_emit_call(&rw->em, sh->post, d);
    opc_post_end(rw, site);
  }
  opc_push_pending(rw, kind, d, site, body, barrier);
  rw->pend[rw->npend - 1].join = join;
  if (kind == OP_DIR_PARALLEL) note_region_shape(rw);
  if (kind == OP_DIR_SECTIONS) rw->want_brace = (int)rw->npend - 1;
}

enum { TO_OUTER, TO_INNER, TO_UNKNOWN };

/* Which half of `parallel for|sections [simd]` a clause belongs to. */
static int clause_target(const char *t, size_t n, const op_clause *c, bool simd) {
  static const char *const outer[] = {"num_threads", "default",      "shared",
                                      "private",     "firstprivate", "copyin",
                                      "proc_bind",   "allocate",     NULL};
  static const char *const inner[] = {"lastprivate", "schedule",    "ordered", "collapse",
                                      "linear",      "order",       "safelen", "simdlen",
                                      "aligned",     "nontemporal", "nowait",  NULL};
  if (op_span_is(t, c->name, "if") && c->has_args) {
    size_t a = op_skip_gap(t, n, c->args.start), e = op_ident_end(t, n, a);
    size_t q = op_skip_gap(t, n, e);
    bool modifier = e > a && q + 1 < n && t[q] == ':' && t[q + 1] != ':';
    return modifier && e - a == 4 && memcmp(t + a, "simd", 4) == 0 ? TO_INNER : TO_OUTER;
  }
  if (op_span_is(t, c->name, "reduction")) {
    size_t a = op_skip_gap(t, n, c->args.start);
    return simd || op_word_at(t, n, a, "inscan") ? TO_INNER : TO_OUTER;
  }
  if (op_span_in(t, c->name, outer)) return TO_OUTER;
  if (op_span_in(t, c->name, inner)) return TO_INNER;
  return TO_UNKNOWN;
}

/* The variables of a list clause moved to the inner half: the text after
   its last top-level `:` (not `::`), array sections dropped. */
static void add_moved_vars(opc_rw *rw, const char *t, const op_clause *c) {
  size_t from = c->args.start;
  int depth = 0;
  for (size_t i = c->args.start; i < c->args.end; i++) {
    char ch = t[i];
    if (ch == '(' || ch == '[') depth++;
    else if (ch == ')' || ch == ']') depth--;
    else if (ch == ':' && depth == 0) {
      if (i + 1 < c->args.end && t[i + 1] == ':') i++;
      else if (i == 0 || t[i - 1] != ':') from = i + 1;
    }
  }
  opc_variant_append(rw, ", ", 2);
  depth = 0;
  for (size_t i = from; i < c->args.end; i++) {
    if (t[i] == '[') depth++;
    if (!depth && t[i] != '\n' && t[i] != '\\') opc_variant_append(rw, t + i, 1);
    if (t[i] == ']') depth--;
  }
}

static void push_blank(opc_rw *rw, int half, op_span s) {
  PU_PUSH(rw->bl[half], rw->nbl[half], rw->bl_cap[half], s);
}

/* parallel for|sections|master|masked: split in place, column preserving,
   into `parallel <its clauses>` and the inner directive with its clauses
   (`nowait` added to for/sections; masked is passed uninstrumented). */
static void instrument_combined(opc_rw *rw, const opc_site *site, op_dir_kind kind) {
  const op_dir *dir = &rw->dir;
  const char *t = site->text;
  op_dir_kind inner = combined_inner(kind);
  bool worksharing = inner == OP_DIR_FOR || inner == OP_DIR_SECTIONS;
  rw->nbl[0] = rw->nbl[1] = 0;
  push_blank(rw, 1, dir->words[0]);
  for (int i = 1; i < dir->nwords; i++) push_blank(rw, 0, dir->words[i]);
  bool has_default = false, moved = false;
  opc_variant_reset(rw);
  for (size_t i = 0; i < dir->nclauses; i++) {
    const op_clause *c = &dir->clauses[i];
    int to = clause_target(t, site->len, c, dir->inner_simd);
    if (!worksharing) /* master has no clauses, masked only filter */
      to = op_span_is(t, c->name, "filter") ? TO_INNER : to == TO_OUTER ? TO_OUTER : TO_UNKNOWN;
    if (to == TO_UNKNOWN) {
      opc_warn(rw, site->line,
               "clause '%.*s' cannot be assigned to one half of a combined construct: "
               "directive passed through uninstrumented",
               (int)(c->name.end - c->name.start), t + c->name.start);
      return;
    }
    push_blank(rw, to == TO_OUTER ? 1 : 0, c->whole);
    if (op_span_is(t, c->name, "default")) has_default = true;
    if (to == TO_INNER && c->has_args &&
        (op_span_is(t, c->name, "lastprivate") || op_span_is(t, c->name, "reduction"))) {
      if (!moved) opc_variant_append(rw, " shared(pomp_rd", 15);
      moved = true;
      add_moved_vars(rw, t, c);
    }
  }
  if (!has_default) opc_variant_reset(rw);
  else if (moved) opc_variant_append(rw, ")", 1);
  else opc_variant_append(rw, " shared(pomp_rd)", 16);
  opc_body body = body_after(rw, site);
  unsigned cancel = inner == OP_DIR_FOR ? CANCEL_FOR : CANCEL_SECTIONS;
  /* nowait on the worksharing half: the join barrier ends both halves */
  bool barrier = worksharing && !has_clause(rw, site, "nowait") && !(body.cancel & cancel);
  static const char *const names[] = {[OP_DIR_FOR] = "parallelfor",
                                      [OP_DIR_SECTIONS] = "parallelsections",
                                      [OP_DIR_MASTER] = "parallel",
                                      [OP_DIR_UNKNOWN] = "parallel"};
  int d = opc_rw_descr(rw, names[inner], "", 0, site);
  int d2 = inner == OP_DIR_MASTER ? opc_rw_descr(rw, "master", "", 0, site) : -1;
  opc_pre_begin(rw, site);
  op_emit_str(&rw->em, "{");
  op_emit_call(&rw->em, "Parallel_fork", d);
  opc_pre_end(rw, site);
  opc_put_variant(rw, site, rw->bl[0], rw->nbl[0]);
  opc_post_begin(rw, site);
  op_emit_str(&rw->em, "{");
  op_emit_call(&rw->em, "Parallel_begin", d);
  if (worksharing) {
    op_emit_str(&rw->em, " {");
    op_emit_call(&rw->em, shapes[inner].pre, d);
  }
  if (site->op) op_emit_str(&rw->em, " ");
  else {
    op_emit_str(&rw->em, "\n");
    opc_rw_mark(rw, site->line);
    op_emit_pad(&rw->em, opc_line_start(rw, site->start), site->start);
  }
  opc_variant_reset(rw);
  if (barrier) opc_variant_append(rw, " nowait", 7);
  opc_make_variant(rw, site, rw->bl[1], rw->nbl[1]);
  opc_write_variant(rw, site);
  if (inner == OP_DIR_MASTER) {
    opc_post_begin(rw, site);
    op_emit_str(&rw->em, "{");
    op_emit_call(&rw->em, "Master_begin", d2);
  }
  opc_post_end(rw, site);
  opc_push_pending(rw, kind, d, site, body, barrier);
  rw->pend[rw->npend - 1].descr2 = d2;
  if (kind == OP_DIR_PARALLEL_SECTIONS) rw->want_brace = (int)rw->npend - 1;
}

static opc_pending *enclosing_sections(opc_rw *rw) {
  if (!rw->npend) return NULL;
  opc_pending *p = &rw->pend[rw->npend - 1];
  bool sections = p->kind == OP_DIR_SECTIONS || p->kind == OP_DIR_PARALLEL_SECTIONS;
  return sections && p->block_depth == rw->depth ? p : NULL;
}

static void section(opc_rw *rw, const opc_site *site) {
  opc_pending *sections = enclosing_sections(rw);
  if (!sections) return; /* its sections construct is not instrumented */
  int d = sections->descr;
  opc_body body = opc_find_body(rw, site, &rw->lx, true);
  rw->descr.v[d].num_sections++;
  opc_post_begin(rw, site);
  op_emit_str(&rw->em, "{");
  op_emit_call(&rw->em, "Section_begin", d);
  opc_post_end(rw, site);
  opc_push_pending(rw, OP_DIR_SECTION, d, site, body, false);
}

/* The `{` of an instrumented sections construct: statements before its
   first `section` directive form an implicit first section. */
void opc_sections_block(opc_rw *rw, opc_tok brace) {
  opc_pending *p = &rw->pend[rw->want_brace];
  rw->want_brace = -1;
  if (!opc_tok_is(&rw->lx, brace, '{'))
    opc_error(rw, brace.line, "a sections construct must be followed by '{'");
  p->block_depth = rw->depth;
  opc_site site = {.line = brace.line};
  opc_body body = opc_find_body(rw, &site, &rw->lx, true);
  if (body.end == brace.end) return;
  int d = p->descr;
  rw->descr.v[d].num_sections++;
  op_emit_copy_to(&rw->em, brace.end);
  op_emit_str(&rw->em, " {");
  op_emit_call(&rw->em, "Section_begin", d);
  opc_push_pending(rw, OP_DIR_SECTION, d, &site, body, false);
}

/* Warns about the first construct of each name that is passed through; the
   others of that name in the unit say nothing more. */
static void pass_warning(opc_rw *rw, const opc_site *site, const char *what) {
  char name[96];
  op_dir_name(&rw->dir, site->text, name, sizeof name);
  for (size_t i = 0; i < rw->npassed; i++)
    if (!strcmp(rw->passed[i], name)) return;
  PU_PUSH(rw->passed, rw->npassed, rw->passed_cap, pu_strdup(name));
  opc_warn(rw, site->line, "'omp %s' is not instrumented: %s (said once per file)", name, what);
}

void opc_omp_directive(opc_rw *rw, const opc_site *site) {
  op_dir *dir = &rw->dir;
  bool parsed = op_dir_parse(dir, site->text, site->len, site->after);
  op_dir_kind kind = dir->kind;
  if (kind == OP_DIR_DECLARE_TARGET_BEGIN) {
    rw->suppress++;
    return;
  }
  if (kind == OP_DIR_DECLARE_TARGET_END) {
    if (rw->suppress) rw->suppress--;
    return;
  }
  if (!opc_instrumenting(rw)) return;
  if (!parsed) {
    if (kind == OP_DIR_UNKNOWN || kind == OP_DIR_PASS || kind == OP_DIR_PASS_WARN ||
        kind == OP_DIR_PASS_SUPPRESS || kind == OP_DIR_CANCEL)
      return;
    opc_error(rw, site->line, "%s", dir->error);
  }
  switch (kind) {
  case OP_DIR_UNKNOWN: {
    char name[96];
    op_dir_name(dir, site->text, name, sizeof name);
    opc_warn(rw, site->line, "unknown OpenMP directive '%s' passed through unchanged", name);
    return;
  }
  case OP_DIR_PASS:
  case OP_DIR_CANCEL:
  case OP_DIR_DECLARE_TARGET_BEGIN:
  case OP_DIR_DECLARE_TARGET_END: return;
  case OP_DIR_PASS_WARN:
    pass_warning(rw, site, "passed through unchanged (constructs inside it are instrumented)");
    return;
  case OP_DIR_PASS_SUPPRESS: {
    pass_warning(rw, site, "passed through unchanged with everything inside it");
    opc_push_pending(rw, CLOSE_SUPPRESS, -1, site, body_after(rw, site), false);
    rw->suppress++;
    return;
  }
  case OP_DIR_PARALLEL_FOR:
  case OP_DIR_PARALLEL_SECTIONS:
  case OP_DIR_PARALLEL_MASTER:
  case OP_DIR_PARALLEL_MASKED: {
    op_dir_kind inner = combined_inner(kind);
    unsigned bits = OPARI_DIS_PARALLEL | (inner == OP_DIR_UNKNOWN ? 0 : shapes[inner].disable);
    if (kind == OP_DIR_PARALLEL_MASKED)
      opc_warn(rw, site->line, "the masked half of 'omp parallel masked' is not instrumented");
    if (!(rw->opt->disabled & bits)) instrument_combined(rw, site, kind);
    return;
  }
  case OP_DIR_SECTION: section(rw, site); return;
  case OP_DIR_ORDERED:
    if (has_clause(rw, site, "depend") || has_clause(rw, site, "doacross")) return;
    break;
  default: break;
  }
  if (!(rw->opt->disabled & shapes[kind].disable)) instrument(rw, site, kind);
}
