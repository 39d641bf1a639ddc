/*
 * c_loop.c -- sequential loops as regions (--loops).
 *
 * A `for`, `while` or `do` statement that qualifies is wrapped in a block
 * that opens the region `loop @file:line` and closes it on every way out:
 *     for (...) body      ->   { <guard> for (...) body }
 * C: `struct ompregdescr *pomp_loop_N __attribute__((cleanup(
 * POMP_Loop_cleanup))) = POMP_Loop_begin(pomp_rd[N]);` (GCC, Clang, Intel
 * and NVHPC compilers): the cleanup runs when the block is left by
 * falling out of the loop, `break`, `goto` to a label outside it, and
 * `return` (after its expression is evaluated, so the function computes
 * exactly what it did). C++: an object of the prelude's guard class,
 * whose destructor also runs when an exception leaves the loop.
 * `continue` of a C loop always targets the innermost loop, so it never
 * leaves an instrumented one. Not covered: longjmp out of a loop (the
 * measurement closes the region at the enclosing function's exit). A
 * loop whose body holds a label, or a `case` of a switch outside it
 * (Duff's device), is left alone: a jump into it would skip the guard.
 *
 * Which loops (cost control): not one directly after a #pragma (an
 * OpenMP worksharing or simd loop stays an OpenMP construct, and a
 * `#pragma GCC unroll` keeps its loop), nor the loops perfectly nested
 * in it (collapse); not one inside a constexpr/consteval function (the
 * guard is not a literal type); at most `loop_depth` loops deep; and,
 * unless --loops=all, only a loop whose body calls something (a name
 * followed by `(`, or an OpenMP/POMP directive) and is not tiny, and not
 * a `for` of a few iterations by its condition (`i < 8`, loop_cost.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "c_rw.h"
#include "loop_cost.h"
#include "pomp_util.h"

/* A body of fewer tokens than this is one short statement (`s += f(i);`):
   the loop is cheaper than its two events. */
enum { TINY_BODY_TOKENS = 12 };

/* Names followed by `(` that are not calls. */
static const char *const not_calls[] = {"if",
                                        "for",
                                        "while",
                                        "switch",
                                        "return",
                                        "sizeof",
                                        "_Alignof",
                                        "alignof",
                                        "_Generic",
                                        "catch",
                                        "decltype",
                                        "typeof",
                                        "__typeof__",
                                        "__typeof",
                                        "__attribute__",
                                        "_Static_assert",
                                        "static_assert",
                                        "noexcept",
                                        "asm",
                                        "__asm__",
                                        "defined",
                                        "case",
                                        "do",
                                        "else",
                                        "new",
                                        "delete",
                                        "throw",
                                        NULL};

static bool is_call_name(const opc_lexer *lx, opc_tok t) {
  for (const char *const *w = not_calls; *w; w++)
    if (opc_tok_word(lx, t, *w)) return false;
  return true;
}

/* After `for`/`while` at lx: skips the parenthesised header. */
static bool skip_header(opc_lexer *lx) {
  opc_tok t = opc_lex_next(lx);
  if (!opc_tok_is(lx, t, '(')) return false;
  for (int depth = 1; depth > 0;) {
    t = opc_lex_next(lx);
    if (t.kind == CT_EOF) return false;
    if (opc_tok_is(lx, t, '(')) depth++;
    else if (opc_tok_is(lx, t, ')')) depth--;
  }
  return true;
}

/* After `for` at lx: whether the condition is `NAME < N` or `NAME <= N`
   with a literal N, and its trip count counted from 0 (N, or N + 1) is
   short (loop_cost.h). */
static bool short_constant_trip(opc_lexer lx) {
  opc_tok t = opc_lex_next(&lx);
  if (!opc_tok_is(&lx, t, '(')) return false;
  for (int depth = 1; !(depth == 1 && opc_tok_is(&lx, t, ';'));) {
    t = opc_lex_next(&lx);
    if (t.kind == CT_EOF) return false;
    if (opc_tok_is(&lx, t, '(')) depth++;
    else if (opc_tok_is(&lx, t, ')') && --depth == 0) return false; /* range for */
  }
  opc_tok cond[4];
  size_t n = 0;
  for (t = opc_lex_next(&lx); !opc_tok_is(&lx, t, ';'); t = opc_lex_next(&lx)) {
    if (t.kind == CT_EOF || n == 4) return false;
    cond[n++] = t;
  }
  if (n < 3 || cond[0].kind != CT_IDENT || !opc_tok_is(&lx, cond[1], '<')) return false;
  size_t limit = n == 4 && opc_tok_is(&lx, cond[2], '=') ? 3 : 2;
  if (limit + 1 != n || cond[limit].kind != CT_NUMBER) return false;
  long long bound = strtoll(lx.s + cond[limit].start, NULL, 0);
  if (bound == LLONG_MAX) return false; /* out of range: not short */
  return op_loop_trip_short(limit == 3 ? bound + 1 : bound);
}

typedef struct {
  size_t tokens;
  bool call;   /* a name followed by `(`, or a directive */
  bool target; /* a label, or a `case` without a `switch`: a jump from
                  outside may enter the body past the region's start */
} loop_body;

/* What the body from lx up to `end` holds. */
static loop_body scan_body(opc_lexer lx, size_t end) {
  loop_body b = {0, false, false};
  bool a_switch = false;
  opc_tok prev = {CT_EOF, 0, 0, 0, 0}, prev2 = prev;
  for (opc_tok t = opc_lex_next(&lx); t.kind != CT_EOF && t.start < end; t = opc_lex_next(&lx)) {
    b.tokens++;
    if (t.kind == CT_DIRECTIVE) b.call = true; /* OpenMP/POMP directives become calls */
    if (opc_tok_is(&lx, t, '(') && prev.kind == CT_IDENT && is_call_name(&lx, prev)) b.call = true;
    a_switch |= opc_tok_word(&lx, t, "switch");
    if (opc_tok_word(&lx, t, "case") && !a_switch) b.target = true;
    if (opc_tok_is(&lx, t, ':') && prev.kind == CT_IDENT && !opc_tok_word(&lx, prev, "default") &&
        (opc_tok_is(&lx, prev2, ';') || opc_tok_is(&lx, prev2, '{') ||
         opc_tok_is(&lx, prev2, '}')) &&
        !opc_tok_is(&lx, opc_lex_peek(&lx), ':'))
      b.target = true;
    prev2 = prev;
    prev = t;
  }
  return b;
}

/* The statement starting at keyword t: its end, and for `do` the offset
   of its `while`. False when the scan fails (the loop is left alone). */
static bool loop_extent(opc_rw *rw, opc_tok t, opc_loop *loop) {
  opc_lexer at = rw->lx;
  at.pos = t.start;
  at.line = t.line;
  opc_stmt st;
  opc_stmt_init(&st, &at, &rw->look_dir, &rw->look_op, &rw->stack, &rw->stack_cap);
  st.budget = &rw->look_budget;
  if (!opc_stmt_skip(&st) || opc_stmt_end_in_arm(&st)) return false;
  loop->end = st.end;
  loop->end_line = st.end_line;
  loop->do_tail = 0;
  if (opc_tok_word(&rw->lx, t, "do")) {
    opc_stmt_init(&st, &rw->lx, &rw->look_dir, &rw->look_op, &rw->stack, &rw->stack_cap);
    st.budget = &rw->look_budget;
    if (!opc_stmt_skip(&st)) return false;
    opc_tok tail = opc_lex_next(&st.lx);
    loop->do_tail = tail.start;
  }
  return true;
}

/* The first statement of a loop body at lx (after its header), when it
   is itself a loop: perfectly nested (a collapse clause may take it). */
static size_t nested_loop_at(opc_lexer lx, bool is_do) {
  if (!is_do && !skip_header(&lx)) return 0;
  opc_tok t = opc_lex_next(&lx);
  if (opc_tok_is(&lx, t, '{')) t = opc_lex_next(&lx);
  bool loop =
      opc_tok_word(&lx, t, "for") || opc_tok_word(&lx, t, "while") || opc_tok_word(&lx, t, "do");
  return loop ? t.start : 0;
}

static bool qualifies(opc_rw *rw, opc_tok t, bool is_do, const opc_loop *loop) {
  if (rw->pragma_before || t.start == rw->loop_assoc) return false;
  if (rw->noloop_depth >= 0 || rw->nloops >= (size_t)rw->opt->loop_depth) return false;
  opc_lexer at = rw->lx;
  if (!is_do && !skip_header(&at)) return false;
  loop_body b = scan_body(at, loop->end);
  if (b.target) return false;
  if (rw->opt->loops == OPARI_LOOPS_ALL) return true;
  bool short_for = opc_tok_word(&rw->lx, t, "for") && short_constant_trip(rw->lx);
  return b.call && b.tokens >= TINY_BODY_TOKENS && !short_for;
}

static void open_region(opc_rw *rw, opc_tok t, const opc_loop *loop) {
  opc_site site = {.start = t.start, .end = t.end, .line = t.line, .end_line = t.line};
  int d = opc_rw_descr(rw, "loop", "", 0, &site);
  op_emit_copy_to(&rw->em, t.start);
  char text[160];
  if (rw->opt->cxx)
    snprintf(text, sizeof text, "{ pomp_loop_guard pomp_loop_%d(pomp_rd[%d]); ", d, d);
  else
    snprintf(text, sizeof text,
             "{ struct ompregdescr *pomp_loop_%d __attribute__((cleanup(POMP_Loop_cleanup))) = "
             "POMP_Loop_begin(pomp_rd[%d]); ",
             d, d);
  op_emit_str(&rw->em, text);
  opc_body body = {loop->end, loop->end_line, 0};
  opc_push_pending(rw, CLOSE_LOOP, d, &site, body, false);
}

void opc_loop_word(opc_rw *rw, opc_tok t) {
  const opc_lexer *lx = &rw->lx;
  while (rw->nloops && rw->loops[rw->nloops - 1].end <= t.start) rw->nloops--;
  if (opc_tok_word(lx, t, "constexpr") || opc_tok_word(lx, t, "consteval")) {
    rw->constexpr_seen = true;
    return;
  }
  bool is_do = opc_tok_word(lx, t, "do");
  if (!is_do && !opc_tok_word(lx, t, "for") && !opc_tok_word(lx, t, "while")) return;
  if (rw->nloops && rw->loops[rw->nloops - 1].do_tail == t.start) return; /* do ... while */
  opc_loop loop;
  if (!loop_extent(rw, t, &loop)) return;
  bool assoc = rw->pragma_before || t.start == rw->loop_assoc;
  if (qualifies(rw, t, is_do, &loop)) open_region(rw, t, &loop);
  if (assoc) rw->loop_assoc = nested_loop_at(rw->lx, is_do);
  PU_PUSH(rw->loops, rw->nloops, rw->loops_cap, loop);
}

void opc_loop_punct(opc_rw *rw, opc_tok t) {
  if (opc_tok_is(&rw->lx, t, ';')) rw->constexpr_seen = false;
  else if (opc_tok_is(&rw->lx, t, '{')) {
    if (rw->constexpr_seen && rw->noloop_depth < 0) rw->noloop_depth = rw->depth;
    rw->constexpr_seen = false;
  } else if (opc_tok_is(&rw->lx, t, '}') && rw->noloop_depth > rw->depth) rw->noloop_depth = -1;
}

bool opc_is_pragma(const char *t, size_t n) {
  size_t i = 1;
  while (i < n && (t[i] == ' ' || t[i] == '\t')) i++;
  return n - i >= 6 && memcmp(t + i, "pragma", 6) == 0;
}
