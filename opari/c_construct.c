/*
 * c_construct.c -- the OpenMP constructs: how each one's events are
 * placed around it (the Shape table), splitting of combined constructs,
 * sections, and the closing events emitted when a construct's block ends.
 */
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
  bool barrier_inside;  /* explicit barrier inside the post block */
  bool standalone;      /* no structured block */
} Shape;

static const Shape shapes[] = {
    [OMP_PARALLEL] = {"parallel", DIS_PARALLEL, "Parallel_fork", "Parallel_begin",
                      "Parallel_end", "Parallel_join", true, false},
    [OMP_FOR] = {"for", DIS_FOR, "For_enter", NULL, NULL, "For_exit", false, false},
    [OMP_SECTIONS] = {"sections", DIS_SECTIONS, "Sections_enter", NULL, NULL,
                      "Sections_exit", false, false},
    [OMP_SECTION] = {"section", DIS_SECTIONS, NULL, "Section_begin", "Section_end", NULL,
                     false, false},
    [OMP_SINGLE] = {"single", DIS_SINGLE, "Single_enter", "Single_begin", "Single_end",
                    "Single_exit", false, false},
    [OMP_MASTER] = {"master", DIS_MASTER, NULL, "Master_begin", "Master_end", NULL, false,
                    false},
    [OMP_CRITICAL] = {"critical", DIS_CRITICAL, "Critical_enter", "Critical_begin",
                      "Critical_end", "Critical_exit", false, false},
    [OMP_ATOMIC] = {"atomic", DIS_ATOMIC, "Atomic_enter", NULL, NULL, "Atomic_exit", false,
                    false},
    [OMP_ORDERED] = {"ordered", DIS_ORDERED, "Ordered_enter", "Ordered_begin",
                     "Ordered_end", "Ordered_exit", false, false},
    [OMP_TASK] = {"task", DIS_TASK, "Task_create_begin", "Task_begin", "Task_end",
                  "Task_create_end", false, false},
    [OMP_BARRIER] = {"barrier", DIS_BARRIER, "Barrier_enter", NULL, NULL, "Barrier_exit",
                     false, true},
    [OMP_FLUSH] = {"flush", DIS_FLUSH, "Flush_enter", NULL, NULL, "Flush_exit", false, true},
    [OMP_TASKWAIT] = {"taskwait", DIS_TASKWAIT, "Taskwait_enter", NULL, NULL,
                      "Taskwait_exit", false, true},
};

/* ---- closing ------------------------------------------------------------ */

/* An explicit barrier inline, after the last token of a block on
   physical line `line`: a preprocessed unit is compiled without the
   preprocessor, which alone knows _Pragma, so there the pragma takes a
   line of its own and a line mark follows. */
static void emit_barrier(Rw *rw, int d, int line) {
  em_str(&rw->em, " {");
  em_call(&rw->em, "Barrier_enter", d);
  if (rw->opt->preprocessed) {
    em_str(&rw->em, "\n#pragma omp barrier\n");
    rw_mark(rw, line);
  } else
    em_str(&rw->em, " _Pragma(\"omp barrier\")");
  em_call(&rw->em, "Barrier_exit", d);
  em_str(&rw->em, " }");
}

/* The inner half of a combined construct (OMP_UNKNOWN: masked, which is
   passed); OMP_PARALLEL for a construct that is not combined. */
static OmpKind combined_inner(int kind) {
  switch (kind) {
  case OMP_PARALLEL_FOR: return OMP_FOR;
  case OMP_PARALLEL_SECTIONS: return OMP_SECTIONS;
  case OMP_PARALLEL_MASTER: return OMP_MASTER;
  case OMP_PARALLEL_MASKED: return OMP_UNKNOWN;
  default: return OMP_PARALLEL;
  }
}

static void close_shape(Rw *rw, const Shape *sh, int d, bool barrier, int line) {
  if (barrier && sh->barrier_inside) emit_barrier(rw, d, line);
  if (sh->end_post) {
    em_call(&rw->em, sh->end_post, d);
    em_str(&rw->em, " }");
  }
  if (barrier && !sh->barrier_inside) emit_barrier(rw, d, line);
  if (sh->end_pre) {
    em_call(&rw->em, sh->end_pre, d);
    em_str(&rw->em, " }");
  }
}

static void emit_close(Rw *rw, const Pending *p) {
  if (p->kind == CLOSE_SUPPRESS) {
    rw->suppress--;
    return;
  }
  if (p->kind == CLOSE_RETURN) {
    em_str(&rw->em, " }");
    return;
  }
  Descr *d = &rw->descr.v[p->descr];
  int end_line = rw_line(rw, p->end_line), line = p->end_line;
  if (p->kind != OMP_SECTION) d->end_line1 = d->end_lineN = end_line;
  OmpKind inner = combined_inner(p->kind);
  if (inner == OMP_FOR || inner == OMP_SECTIONS) {
    close_shape(rw, &shapes[inner], p->descr, p->barrier, line);
    close_shape(rw, &shapes[OMP_PARALLEL], p->descr, false, line);
  } else if (inner == OMP_MASTER || inner == OMP_UNKNOWN) {
    if (inner == OMP_MASTER) {
      Descr *m = &rw->descr.v[p->descr2];
      m->end_line1 = m->end_lineN = end_line;
      close_shape(rw, &shapes[OMP_MASTER], p->descr2, false, line);
    }
    close_shape(rw, &shapes[OMP_PARALLEL], p->descr, true, line);
  } else
    close_shape(rw, &shapes[p->kind], p->descr, p->barrier, line);
}

/* Closes every construct whose block ended before `pos`. */
void close_pendings(Rw *rw, size_t pos) {
  while (rw->npend && rw->pend[rw->npend - 1].end <= pos) {
    Pending p = rw->pend[--rw->npend];
    em_copy_to(&rw->em, p.end);
    emit_close(rw, &p);
  }
}

/* ---- OpenMP constructs ------------------------------------------------ */

static bool has_clause(const Rw *rw, const Site *site, const char *name) {
  return omp_dir_clause(&rw->dir, site->text, name) != NULL;
}

/* `shared(pomp_rd)` after a default clause: default(none) would reject the
   descriptor table, default(private/firstprivate) would privatise it. */
static void add_shared_table(Rw *rw, const Site *site) {
  if (has_clause(rw, site, "default")) app_add(rw, " shared(pomp_rd)", 16);
}

static Body body_after(Rw *rw, const Site *site) { return find_body(rw, site, &rw->lx, false); }

static void instrument(Rw *rw, const Site *site, OmpKind kind) {
  const Shape *sh = &shapes[kind];
  const char *t = site->text;
  Body body = {0};
  if (!sh->standalone) body = body_after(rw, site);
  const char *sub = "";
  size_t sub_len = 0;
  if (kind == OMP_CRITICAL && rw->dir.has_paren) {
    size_t a = dir_skip_gap(t, site->len, rw->dir.paren.start);
    sub = t + a;
    sub_len = dir_ident_end(t, site->len, a) - a;
  }
  int d = rw_descr(rw, sh->descr, sub, sub_len, site);
  app_reset(rw);
  bool barrier = false;
  if (kind == OMP_PARALLEL || kind == OMP_TASK) add_shared_table(rw, site);
  if (kind == OMP_PARALLEL) barrier = true;
  if (kind == OMP_FOR || kind == OMP_SECTIONS || kind == OMP_SINGLE) {
    unsigned cancel = kind == OMP_FOR ? CANCEL_FOR : kind == OMP_SECTIONS ? CANCEL_SECTIONS : 0;
    barrier = !has_clause(rw, site, "nowait") && !has_clause(rw, site, "copyprivate") &&
              !(body.cancel & cancel);
    if (barrier) app_add(rw, " nowait", 7);
  }
  if (sh->pre) {
    pre_begin(rw, site);
    em_str(&rw->em, "{");
    em_call(&rw->em, sh->pre, d);
    pre_end(rw, site);
  }
  put_variant(rw, site, NULL, 0);
  if (sh->standalone) {
    post_begin(rw, site);
    em_call(&rw->em, sh->end_pre, d);
    em_str(&rw->em, " }");
    post_end(rw, site);
    return;
  }
  if (sh->post) {
    post_begin(rw, site);
    em_str(&rw->em, "{");
    em_call(&rw->em, sh->post, d);
    post_end(rw, site);
  }
  push_pending(rw, kind, d, site, body, barrier);
  if (kind == OMP_SECTIONS) rw->want_brace = (int)rw->npend - 1;
}

enum { TO_OUTER, TO_INNER, TO_UNKNOWN };

/* Which half of `parallel for|sections [simd]` a clause belongs to. */
static int clause_target(const char *t, size_t n, const OmpClause *c, bool simd) {
  static const char *const outer[] = {"num_threads", "default", "shared", "private",
                                      "firstprivate", "copyin", "proc_bind", "allocate",
                                      NULL};
  static const char *const inner[] = {"lastprivate", "schedule", "ordered", "collapse",
                                      "linear", "order", "safelen", "simdlen", "aligned",
                                      "nontemporal", "nowait", NULL};
  if (span_is(t, c->name, "if") && c->has_args) {
    size_t a = dir_skip_gap(t, n, c->args.start), e = dir_ident_end(t, n, a);
    size_t q = dir_skip_gap(t, n, e);
    bool modifier = e > a && q + 1 < n && t[q] == ':' && t[q + 1] != ':';
    return modifier && e - a == 4 && memcmp(t + a, "simd", 4) == 0 ? TO_INNER : TO_OUTER;
  }
  if (span_is(t, c->name, "reduction")) {
    size_t a = dir_skip_gap(t, n, c->args.start);
    return simd || dir_word_at(t, n, a, "inscan") ? TO_INNER : TO_OUTER;
  }
  if (span_in(t, c->name, outer)) return TO_OUTER;
  if (span_in(t, c->name, inner)) return TO_INNER;
  return TO_UNKNOWN;
}

/* The variables of a list clause moved to the inner half: the text after
   its last top-level `:` (not `::`), array sections dropped. */
static void add_moved_vars(Rw *rw, const char *t, const OmpClause *c) {
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
  app_add(rw, ", ", 2);
  depth = 0;
  for (size_t i = from; i < c->args.end; i++) {
    if (t[i] == '[') depth++;
    if (!depth && t[i] != '\n' && t[i] != '\\') app_add(rw, t + i, 1);
    if (t[i] == ']') depth--;
  }
}

static void push_blank(Rw *rw, int half, Span s) {
  PU_PUSH(rw->bl[half], rw->nbl[half], rw->bl_cap[half], s);
}

/* parallel for|sections|master|masked: split in place, column preserving,
   into `parallel <its clauses>` and the inner directive with its clauses
   (`nowait` added to for/sections; masked is passed uninstrumented). */
static void instrument_combined(Rw *rw, const Site *site, OmpKind kind) {
  const OmpDir *dir = &rw->dir;
  const char *t = site->text;
  OmpKind inner = combined_inner(kind);
  bool worksharing = inner == OMP_FOR || inner == OMP_SECTIONS;
  rw->nbl[0] = rw->nbl[1] = 0;
  push_blank(rw, 1, dir->words[0]);
  for (int i = 1; i < dir->nwords; i++) push_blank(rw, 0, dir->words[i]);
  bool has_default = false, moved = false;
  app_reset(rw);
  for (size_t i = 0; i < dir->nclauses; i++) {
    const OmpClause *c = &dir->clauses[i];
    int to = clause_target(t, site->len, c, dir->inner_simd);
    if (!worksharing) /* master has no clauses, masked only filter */
      to = span_is(t, c->name, "filter") ? TO_INNER : to == TO_OUTER ? TO_OUTER : TO_UNKNOWN;
    if (to == TO_UNKNOWN) {
      rw_warn(rw, site->line,
              "clause '%.*s' cannot be assigned to one half of a combined construct: "
              "directive passed through uninstrumented",
              (int)(c->name.end - c->name.start), t + c->name.start);
      return;
    }
    push_blank(rw, to == TO_OUTER ? 1 : 0, c->whole);
    if (span_is(t, c->name, "default")) has_default = true;
    if (to == TO_INNER && c->has_args &&
        (span_is(t, c->name, "lastprivate") || span_is(t, c->name, "reduction"))) {
      if (!moved) app_add(rw, " shared(pomp_rd", 15);
      moved = true;
      add_moved_vars(rw, t, c);
    }
  }
  if (!has_default) app_reset(rw);
  else if (moved) app_add(rw, ")", 1);
  else app_add(rw, " shared(pomp_rd)", 16);
  Body body = body_after(rw, site);
  unsigned cancel = inner == OMP_FOR ? CANCEL_FOR : CANCEL_SECTIONS;
  bool barrier = worksharing && !has_clause(rw, site, "nowait") && !(body.cancel & cancel);
  static const char *const names[] = {[OMP_FOR] = "parallelfor",
                                      [OMP_SECTIONS] = "parallelsections",
                                      [OMP_MASTER] = "parallel", [OMP_UNKNOWN] = "parallel"};
  int d = rw_descr(rw, names[inner], "", 0, site);
  int d2 = inner == OMP_MASTER ? rw_descr(rw, "master", "", 0, site) : -1;
  pre_begin(rw, site);
  em_str(&rw->em, "{");
  em_call(&rw->em, "Parallel_fork", d);
  pre_end(rw, site);
  put_variant(rw, site, rw->bl[0], rw->nbl[0]);
  post_begin(rw, site);
  em_str(&rw->em, "{");
  em_call(&rw->em, "Parallel_begin", d);
  if (worksharing) {
    em_str(&rw->em, " {");
    em_call(&rw->em, shapes[inner].pre, d);
  }
  if (site->op) em_str(&rw->em, " ");
  else {
    em_str(&rw->em, "\n");
    rw_mark(rw, site->line);
    em_pad(&rw->em, line_start(rw, site->start), site->start);
  }
  app_reset(rw);
  if (barrier) app_add(rw, " nowait", 7);
  make_variant(rw, site, rw->bl[1], rw->nbl[1]);
  write_variant(rw, site);
  if (inner == OMP_MASTER) {
    post_begin(rw, site);
    em_str(&rw->em, "{");
    em_call(&rw->em, "Master_begin", d2);
  }
  post_end(rw, site);
  push_pending(rw, kind, d, site, body, barrier);
  rw->pend[rw->npend - 1].descr2 = d2;
  if (kind == OMP_PARALLEL_SECTIONS) rw->want_brace = (int)rw->npend - 1;
}

static Pending *enclosing_sections(Rw *rw) {
  if (!rw->npend) return NULL;
  Pending *p = &rw->pend[rw->npend - 1];
  bool sections = p->kind == OMP_SECTIONS || p->kind == OMP_PARALLEL_SECTIONS;
  return sections && p->block_depth == rw->depth ? p : NULL;
}

static void section(Rw *rw, const Site *site) {
  Pending *sections = enclosing_sections(rw);
  if (!sections) return; /* its sections construct is not instrumented */
  int d = sections->descr;
  Body body = find_body(rw, site, &rw->lx, true);
  rw->descr.v[d].num_sections++;
  post_begin(rw, site);
  em_str(&rw->em, "{");
  em_call(&rw->em, "Section_begin", d);
  post_end(rw, site);
  push_pending(rw, OMP_SECTION, d, site, body, false);
}

/* The `{` of an instrumented sections construct: statements before its
   first `section` directive form an implicit first section. */
void sections_block(Rw *rw, CTok brace) {
  Pending *p = &rw->pend[rw->want_brace];
  rw->want_brace = -1;
  if (!ctok_is(&rw->lx, brace, '{'))
    rw_error(rw, brace.line, "a sections construct must be followed by '{'");
  p->block_depth = rw->depth;
  Site site = {.line = brace.line};
  Body body = find_body(rw, &site, &rw->lx, true);
  if (body.end == brace.end) return;
  int d = p->descr;
  rw->descr.v[d].num_sections++;
  em_copy_to(&rw->em, brace.end);
  em_str(&rw->em, " {");
  em_call(&rw->em, "Section_begin", d);
  push_pending(rw, OMP_SECTION, d, &site, body, false);
}

static void pass_warning(Rw *rw, const Site *site, const char *what) {
  char name[96];
  omp_dir_name(&rw->dir, site->text, name, sizeof name);
  rw_warn(rw, site->line, "'omp %s' is not instrumented: %s", name, what);
}

void omp_directive(Rw *rw, const Site *site) {
  OmpDir *dir = &rw->dir;
  bool parsed = omp_dir_parse(dir, site->text, site->len, site->after);
  OmpKind kind = dir->kind;
  if (kind == OMP_DECLARE_TARGET_BEGIN) {
    rw->suppress++;
    return;
  }
  if (kind == OMP_DECLARE_TARGET_END) {
    if (rw->suppress) rw->suppress--;
    return;
  }
  if (!instrumenting(rw)) return;
  if (!parsed) {
    if (kind == OMP_UNKNOWN || kind == OMP_PASS || kind == OMP_PASS_WARN ||
        kind == OMP_PASS_SUPPRESS || kind == OMP_CANCEL)
      return;
    rw_error(rw, site->line, "%s", dir->error);
  }
  switch (kind) {
  case OMP_UNKNOWN: {
    char name[96];
    omp_dir_name(dir, site->text, name, sizeof name);
    rw_warn(rw, site->line, "unknown OpenMP directive '%s' passed through unchanged", name);
    return;
  }
  case OMP_PASS:
  case OMP_CANCEL:
  case OMP_DECLARE_TARGET_BEGIN:
  case OMP_DECLARE_TARGET_END:
    return;
  case OMP_PASS_WARN:
    pass_warning(rw, site, "passed through unchanged (constructs inside it are instrumented)");
    return;
  case OMP_PASS_SUPPRESS: {
    pass_warning(rw, site, "passed through unchanged with everything inside it");
    push_pending(rw, CLOSE_SUPPRESS, -1, site, body_after(rw, site), false);
    rw->suppress++;
    return;
  }
  case OMP_PARALLEL_FOR:
  case OMP_PARALLEL_SECTIONS:
  case OMP_PARALLEL_MASTER:
  case OMP_PARALLEL_MASKED: {
    OmpKind inner = combined_inner(kind);
    unsigned bits = DIS_PARALLEL | (inner == OMP_UNKNOWN ? 0 : shapes[inner].disable);
    if (kind == OMP_PARALLEL_MASKED)
      rw_warn(rw, site->line, "the masked half of 'omp parallel masked' is not instrumented");
    if (!(rw->opt->disabled & bits)) instrument_combined(rw, site, kind);
    return;
  }
  case OMP_SECTION:
    section(rw, site);
    return;
  case OMP_ORDERED:
    if (has_clause(rw, site, "depend") || has_clause(rw, site, "doacross")) return;
    break;
  default:
    break;
  }
  if (!(rw->opt->disabled & shapes[kind].disable)) instrument(rw, site, kind);
}
