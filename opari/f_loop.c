/*
 * f_loop.c -- Fortran DO loops as regions (--loops).
 *
 * A DO loop that qualifies (as in c_loop.c: not the loop of an OpenMP
 * directive nor one perfectly nested in it, at most loop_depth deep, and
 * unless --loops=all, a body that CALLs something or holds a directive
 * and is not a single statement, and no trip count of a few iterations
 * known from literal bounds, `DO i = 1, 5`: loop_cost.h) gets
 *     call pomp_<id>_loop_enter(N)     before its DO statement
 *     call pomp_<id>_loop_exit(N)      after its END DO / labelled end
 * and every jump out of it leaves it first: EXIT or CYCLE of an outer
 * (named) loop, RETURN, and GO TO a label outside it get the exit calls
 * of the loops they leave, innermost first, just before them; a logical
 * IF whose action is such a jump becomes a block IF holding the calls and
 * the action. An EXIT of the loop itself goes to the exit call after its
 * end. Left alone: an inner loop that shares its labelled end with an
 * enclosing loop (no statement inside the outer loop follows it), a DO
 * statement that carries a label (a GO TO to it would skip the enter
 * call), and jumps a computed or assigned GO TO makes (warned).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "f_rw.h"
#include "loop_cost.h"
#include "pomp_util.h"

typedef struct opf_loop {
  int descr;          /* -1: not instrumented */
  size_t first, last; /* lines of its DO statement and of its last one */
  char name[64];      /* construct name, or "" */
  long do_label;      /* labelled end, or -1 */
} opf_loop;

/* Room for the first line of a statement read by opf_stmt_text. */
enum { STMT_TEXT = 160 };

static bool ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

static const char *skip_blanks(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* The action of a logical IF `if (...) action` in text, or NULL. */
static const char *logical_if_action(const char *t) {
  if (strncmp(t, "if", 2) != 0) return NULL;
  const char *p = skip_blanks(t + 2);
  if (*p != '(') return NULL;
  int depth = 0;
  for (; *p; p++) {
    if (*p == '(') depth++;
    else if (*p == ')' && --depth == 0) break;
  }
  if (!*p) return NULL;
  p = skip_blanks(p + 1);
  return *p && strncmp(p, "then", 4) != 0 ? p : NULL;
}

/* Whether the loop's body (lines (first..last)) is worth two events. */
static bool body_worth_it(const opf_rw *rw, size_t first, size_t last) {
  size_t statements = 0;
  bool call = false;
  for (size_t k = opf_stmt_last(rw, first) + 1; (k = opf_next_significant(rw, k)) < last;) {
    opf_line_kind kind = opf_classify(rw, k).kind;
    if (kind != FL_CODE) {
      call = true; /* a directive */
      k++;
      continue;
    }
    char text[STMT_TEXT];
    long label;
    opf_stmt_text(rw, k, text, sizeof text, &label);
    size_t name_len;
    const char *w = text + opf_construct_name(text, &name_len);
    const char *action = logical_if_action(w);
    if (action) w = action;
    call |= strncmp(w, "call", 4) == 0 && (rw->fixed || !ident(w[4]));
    statements++;
    k = opf_stmt_last(rw, k) + 1;
  }
  return call && statements >= 2;
}

/* An integer literal at *p (blanks, an optional sign, digits; no kind
   suffix) into *v, *p moved past it; false for anything else. */
static bool int_literal(const char **p, long long *v) {
  const char *q = skip_blanks(*p);
  bool negative = *q == '-';
  if (*q == '-' || *q == '+') q = skip_blanks(q + 1);
  if (!isdigit((unsigned char)*q)) return false;
  long long n = 0;
  for (; isdigit((unsigned char)*q); q++) {
    if (n > 100000000) return false; /* far from short: no overflow below */
    n = n * 10 + (*q - '0');
  }
  if (ident(*q) || *q == '.') return false; /* 1_8, 1.5, 1e3 */
  *v = negative ? -n : n;
  *p = skip_blanks(q);
  return true;
}

/* Whether the one-line DO statement w (after its construct name; lower
   case, blank-free in fixed form) has literal bounds, `DO i = 1, 5`,
   `DO 10, I = 1, 8`, `do i = 1, 16, 2`, and a short trip count
   (loop_cost.h), which is max((last - first + step) / step, 0). */
static bool short_literal_trip(const char *w) {
  if (strncmp(w, "do", 2) != 0) return false;
  const char *p = skip_blanks(w + 2);     /* after `do` */
  while (isdigit((unsigned char)*p)) p++; /* the label of its end */
  p = skip_blanks(p);
  if (*p == ',') p = skip_blanks(p + 1);
  if (!isalpha((unsigned char)*p)) return false;
  while (ident(*p)) p++;
  p = skip_blanks(p);
  long long first, last, step = 1;
  if (*p++ != '=' || !int_literal(&p, &first) || *p++ != ',' || !int_literal(&p, &last))
    return false;
  if (*p == ',' && (p++, !int_literal(&p, &step) || step == 0)) return false;
  if (*p) return false;
  long long trips = (last - first + step) / step;
  return op_loop_trip_short(trips);
}

/* Whether the DO statement at line li, text `text`, is a short loop by its
   literal bounds; its text must be whole: one line, not cut off. */
static bool short_do(const opf_rw *rw, size_t li, const char *text) {
  const opf_line *l = &rw->lines[li];
  if (opf_stmt_last(rw, li) != li || l->end - l->start >= STMT_TEXT) return false;
  size_t name_len;
  return short_literal_trip(text + opf_construct_name(text, &name_len));
}

static bool label_shared(const opf_rw *rw, long do_label) {
  for (size_t i = 0; do_label >= 0 && i < rw->nloops; i++)
    if (rw->loops[i].do_label == do_label) return true;
  return false;
}

static void do_statement(opf_rw *rw, size_t li, opf_stmt st, const char *text, bool assoc) {
  size_t last = opf_loop_end(rw, li);
  if (last == SIZE_MAX) return; /* the compiler will say why */
  opf_loop loop = {-1, li, last, "", st.do_label};
  size_t name_len;
  opf_construct_name(text, &name_len);
  if (name_len < sizeof loop.name) memcpy(loop.name, text, name_len);
  bool wanted = !assoc && st.label < 0 && !label_shared(rw, st.do_label) &&
                rw->nloops < (size_t)rw->opt->loop_depth && !opf_in_device(rw) &&
                (rw->opt->loops == OPARI_LOOPS_ALL ||
                 (body_worth_it(rw, li, last) && !short_do(rw, li, text)));
  if (wanted) {
    loop.descr = opf_add_descr(rw, "loop", li, li);
    rw->descr.v[loop.descr].end_line1 = rw->descr.v[loop.descr].end_lineN = rw->lines[last].line;
    opf_sync(rw, li);
    opf_set_indent(rw, li);
    opf_call(rw, EV_LOOP_ENTER, loop.descr);
  }
  PU_PUSH(rw->loops, rw->nloops, rw->loops_cap, loop);
}

/* Whether the statement labelled `label` lies within the loop. */
static bool loop_holds_label(const opf_rw *rw, const opf_loop *loop, long label) {
  for (size_t k = loop->first; k <= loop->last && k < rw->nlines; k++) {
    if (opf_classify(rw, k).kind != FL_CODE) continue;
    if (opf_stmt_at(rw, k).label == label) return true;
    k = opf_stmt_last(rw, k);
  }
  return false;
}

/* The index of the innermost loop a jump does not leave (the loops above
   it are left), or SIZE_MAX when the statement is no jump out of a loop. */
static size_t jump_stays_in(opf_rw *rw, size_t li, const char *w) {
  bool exit = strncmp(w, "exit", 4) == 0, cycle = strncmp(w, "cycle", 5) == 0;
  if (exit || cycle) {
    const char *name = skip_blanks(w + (exit ? 4 : 5));
    if (!*name) return SIZE_MAX; /* the innermost loop: its own exit call runs */
    for (size_t i = rw->nloops; i-- > 0;) {
      size_t n = strlen(rw->loops[i].name);
      if (n && strncmp(name, rw->loops[i].name, n) == 0 && !ident(name[n])) return i;
    }
    return SIZE_MAX;
  }
  if (strncmp(w, "return", 6) == 0 && (rw->fixed || !ident(w[6]))) return (size_t)-2;
  const char *g = strncmp(w, "goto", 4) == 0 ? w + 4 : NULL;
  if (!g && strncmp(w, "go", 2) == 0 && strncmp(skip_blanks(w + 2), "to", 2) == 0)
    g = skip_blanks(w + 2) + 2;
  if (!g) return SIZE_MAX;
  g = skip_blanks(g);
  if (!isdigit((unsigned char)*g)) {
    opf_warn(rw, li,
             "computed or assigned GO TO inside a loop region: if it leaves the loop, "
             "the loop's exit event is missed");
    return SIZE_MAX;
  }
  long label = strtol(g, NULL, 10);
  size_t i = rw->nloops;
  while (i > 0 && !loop_holds_label(rw, &rw->loops[i - 1], label)) i--;
  return i == 0 ? (size_t)-2 : i - 1;
}

static void exit_calls(opf_rw *rw, size_t stays_in) {
  size_t keep = stays_in == (size_t)-2 ? 0 : stays_in + 1;
  for (size_t i = rw->nloops; i-- > keep;)
    if (rw->loops[i].descr >= 0) opf_call(rw, EV_LOOP_EXIT, rw->loops[i].descr);
}

static bool any_instrumented(const opf_rw *rw, size_t stays_in) {
  size_t keep = stays_in == (size_t)-2 ? 0 : stays_in + 1;
  for (size_t i = keep; i < rw->nloops; i++)
    if (rw->loops[i].descr >= 0) return true;
  return false;
}

/* `IF (cond) jump` on line li becomes `IF (cond) THEN`, the exit calls,
   the jump, `END IF`. */
static void block_if(opf_rw *rw, size_t li, size_t stays_in) {
  const opf_line *l = &rw->lines[li];
  const char *s = rw->src;
  size_t p = l->start, depth = 0;
  while (p < l->end && s[p] != '(') p++;
  char quote = 0;
  for (; p < l->end; p++) {
    if (quote) quote = s[p] == quote ? 0 : quote;
    else if (s[p] == '\'' || s[p] == '"') quote = s[p];
    else if (s[p] == '(') depth++;
    else if (s[p] == ')' && --depth == 0) break;
  }
  if (p >= l->end) return;
  opf_sync(rw, li);
  opf_set_indent(rw, li);
  opf_copy_to(rw, p + 1);
  op_emit_str(&rw->em, " then\n");
  exit_calls(rw, stays_in);
  const char *indent = rw->fixed ? "      " : rw->indent;
  size_t action = p + 1;
  while (action < l->end && (s[action] == ' ' || s[action] == '\t')) action++;
  op_emit_str(&rw->em, indent);
  op_emit_mem(&rw->em, s + action, l->end - action);
  op_emit_str(&rw->em, "\n");
  op_emit_str(&rw->em, indent);
  op_emit_str(&rw->em, "end if\n");
  opf_skip(rw, li + 1);
  rw->need_mark = true;
}

static void jump_statement(opf_rw *rw, size_t li, size_t last, const char *w) {
  const char *action = logical_if_action(w);
  size_t stays_in = jump_stays_in(rw, li, action ? action : w);
  if (stays_in == SIZE_MAX || !any_instrumented(rw, stays_in)) return;
  if (!action) {
    opf_sync(rw, li);
    opf_set_indent(rw, li);
    exit_calls(rw, stays_in);
  } else if (last == li) block_if(rw, li, stays_in);
  else
    opf_warn(rw, li,
             "a logical IF continued over several lines leaves a loop region: its exit "
             "event is missed (write it as a block IF)");
}

void opf_loop_statement(opf_rw *rw, size_t li, size_t last) {
  bool assoc = rw->omp_before || rw->assoc_next;
  rw->omp_before = rw->assoc_next = false;
  while (rw->nloops && rw->loops[rw->nloops - 1].last < li) rw->nloops--;
  char text[STMT_TEXT];
  long label;
  opf_stmt_text(rw, li, text, sizeof text, &label);
  opf_stmt st = opf_stmt_at(rw, li);
  if (st.is_do) {
    do_statement(rw, li, st, text, assoc);
    rw->assoc_next = assoc;
    return;
  }
  size_t name_len;
  if (rw->nloops) jump_statement(rw, li, last, text + opf_construct_name(text, &name_len));
}

void opf_loop_ended(opf_rw *rw, size_t last) {
  while (rw->nloops && rw->loops[rw->nloops - 1].last == last) {
    opf_loop loop = rw->loops[--rw->nloops];
    if (loop.descr < 0) continue;
    opf_sync(rw, last + 1);
    opf_set_indent(rw, loop.first);
    opf_call(rw, EV_LOOP_EXIT, loop.descr);
  }
}

void opf_loop_directive_seen(opf_rw *rw) { rw->omp_before = !rw->fd.end; }
