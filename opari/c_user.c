/*
 * c_user.c -- POMP directives (`#pragma pomp inst ...`, noinstrument /
 * instrument) and user regions, with the statements that leave a region
 * early.  A `return` ends every open region first:
 *     return f(x);   ->   { POMP_End(..); return f(x); }
 * so its expression is evaluated after the region's end event (its time
 * is charged to the enclosing code, not to the region); a function's
 * return value is unchanged.  `break`, `continue` and `goto` that leave a
 * region cannot be rewritten that simply (the target is elsewhere), so
 * they get a warning naming the region: its end event would be missed.
 * The user marks such an exit with `#pragma pomp inst altend(name)`
 * (OPARI2's directive): an end event that does not close the region.
 */
#include <stdlib.h>
#include <string.h>

#include "c_rw.h"
#include "pomp_util.h"

/* Replaces a POMP directive by `code` (and event `event` of descriptor d),
   keeping the line count. */
static void replace_directive(opc_rw *rw, const opc_site *site, const char *code, const char *event,
                              int d) {
  op_emit_copy_to(&rw->em, site->start);
  op_emit_str(&rw->em, code);
  if (event) op_emit_call(&rw->em, event, d);
  if (!site->op)
    for (int l = site->line; l < site->end_line; l++) op_emit_str(&rw->em, "\n");
  op_emit_skip_to(&rw->em, site->end);
}

static const char *region_name(const opc_rw *rw, size_t i) {
  return rw->descr.v[rw->user[i].descr].sub_name;
}

/* Jumps recorded inside the region that ends now: a goto whose label is
   not inside it leaves it. */
static void check_gotos(opc_rw *rw) {
  const opc_user_region *u = &rw->user[rw->nuser - 1];
  for (size_t g = 0; g < rw->ngotos; g++) {
    opc_jump *j = &rw->gotos[g];
    if (j->warned || j->pos < u->start) continue;
    size_t len = j->name_end - j->name_start;
    bool inside = false;
    for (size_t l = 0; l < rw->nlabels && !inside; l++) {
      const opc_jump *lab = &rw->labels[l];
      inside = lab->pos > u->start && lab->name_end - lab->name_start == len &&
               memcmp(rw->s + lab->name_start, rw->s + j->name_start, len) == 0;
    }
    if (inside) continue;
    j->warned = true;
    opc_warn(rw, j->line,
             "'goto %.*s' leaves user region '%s' (line %d): its end event is missed "
             "(mark the exit with '#pragma pomp inst altend(%s)')",
             (int)len, rw->s + j->name_start, region_name(rw, rw->nuser - 1),
             rw->descr.v[u->descr].begin_line1, region_name(rw, rw->nuser - 1));
  }
}

/* The innermost open region, which `end(name)` or `altend(name)` must name. */
static int named_region(opc_rw *rw, const opc_site *site, op_span name, const char *what) {
  const char *t = site->text;
  int len = (int)(name.end - name.start);
  if (!rw->nuser)
    opc_error(rw, site->line, "'%s(%.*s)' without a matching 'begin(%.*s)'", what, len,
              t + name.start, len, t + name.start);
  const op_descr *d = &rw->descr.v[rw->user[rw->nuser - 1].descr];
  if (strlen(d->sub_name) != (size_t)len || memcmp(d->sub_name, t + name.start, len) != 0)
    opc_error(rw, site->line, "'%s(%.*s)' does not match the open region '%s' (line %d)", what, len,
              t + name.start, d->sub_name, d->begin_line1);
  return rw->user[rw->nuser - 1].descr;
}

static void end_region(opc_rw *rw, const opc_site *site, op_span name) {
  op_descr *d = &rw->descr.v[named_region(rw, site, name, "end")];
  d->end_line1 = opc_rw_line(rw, site->line);
  d->end_lineN = opc_rw_line(rw, site->end_line);
  check_gotos(rw);
  replace_directive(rw, site, "", "End", rw->user[--rw->nuser].descr);
  if (!rw->nuser) rw->nbrk = rw->ngotos = rw->nlabels = 0;
  rw->altend = false;
}

void opc_inst_directive(opc_rw *rw, const opc_site *site) {
  op_span name = {0, 0};
  op_inst_kind k = op_inst_parse(site->text, site->len, site->after, &name);
  if (k == OP_INST_INSTRUMENT) {
    rw->noinstrument = false;
    replace_directive(rw, site, "", NULL, 0);
    return;
  }
  if (!opc_instrumenting(rw)) return;
  switch (k) {
  case OP_INST_BAD:
    opc_error(rw, site->line,
              "malformed POMP directive (expected 'inst init|finalize|on|off|begin(name)|"
              "end(name)', 'noinstrument' or 'instrument')");
  case OP_INST_NOINSTRUMENT:
    rw->noinstrument = true;
    replace_directive(rw, site, "", NULL, 0);
    return;
  case OP_INST_INIT: replace_directive(rw, site, "POMP_Init();", NULL, 0); return;
  case OP_INST_FINALIZE: replace_directive(rw, site, "POMP_Finalize();", NULL, 0); return;
  case OP_INST_ON: replace_directive(rw, site, "POMP_On();", NULL, 0); return;
  case OP_INST_OFF: replace_directive(rw, site, "POMP_Off();", NULL, 0); return;
  case OP_INST_BEGIN: {
    if (rw->opt->disabled & OPARI_DIS_REGION) break;
    int d = opc_rw_descr(rw, "region", site->text + name.start, name.end - name.start, site);
    opc_user_region u = {d, site->line, rw->nlambda, site->start};
    PU_PUSH(rw->user, rw->nuser, rw->user_cap, u);
    replace_directive(rw, site, "", "Begin", d);
    return;
  }
  case OP_INST_END:
    if (rw->opt->disabled & OPARI_DIS_REGION) break;
    end_region(rw, site, name);
    return;
  case OP_INST_ALTEND:
    if (rw->opt->disabled & OPARI_DIS_REGION) break;
    replace_directive(rw, site, "", "End", named_region(rw, site, name, "altend"));
    rw->altend = true;
    return;
  case OP_INST_INSTRUMENT: break;
  }
  replace_directive(rw, site, "", NULL, 0); /* a disabled user region */
}

/* `return` inside user regions: end them first ({ POMP_End(..); return x; }),
   but the innermost one after an `altend`. */
static void early_return(opc_rw *rw, opc_tok t) {
  if (rw->nlambda != rw->user[rw->nuser - 1].lambdas) return; /* returns from a lambda */
  size_t from = rw->altend ? rw->nuser - 1 : rw->nuser;
  if (from == 0) return;
  opc_lexer at = rw->lx;
  at.pos = t.start;
  at.line = t.line;
  opc_site site = {.line = t.line};
  opc_body body = opc_find_body(rw, &site, &at, false);
  op_emit_copy_to(&rw->em, t.start);
  op_emit_str(&rw->em, "{");
  for (size_t i = from; i-- > 0;) op_emit_call(&rw->em, "End", rw->user[i].descr);
  op_emit_str(&rw->em, " ");
  opc_push_pending(rw, CLOSE_RETURN, -1, &site, body, false);
}

/* A loop or switch statement begins at t: where it ends. */
static void breakable(opc_rw *rw, opc_tok t, bool loop) {
  opc_lexer at = rw->lx;
  at.pos = t.start;
  at.line = t.line;
  opc_site site = {.line = t.line};
  opc_body body = opc_find_body(rw, &site, &at, false);
  opc_breakable b = {body.end, rw->nuser, loop};
  PU_PUSH(rw->brk, rw->nbrk, rw->brk_cap, b);
}

/* `break` or `continue` at t: warns when its loop (or switch) began
   outside the innermost user region. */
static void leaving_jump(opc_rw *rw, opc_tok t, bool is_break) {
  while (rw->nbrk && rw->brk[rw->nbrk - 1].end <= t.start) rw->nbrk--;
  size_t i = rw->nbrk;
  while (i > 0 && !is_break && !rw->brk[i - 1].loop) i--;
  if (i > 0 && rw->brk[i - 1].regions == rw->nuser) return;
  const opc_user_region *u = &rw->user[rw->nuser - 1];
  opc_warn(rw, t.line,
           "'%s' leaves user region '%s' (line %d): its end event is missed (mark the exit "
           "with '#pragma pomp inst altend(%s)')",
           is_break ? "break" : "continue", region_name(rw, rw->nuser - 1),
           rw->descr.v[u->descr].begin_line1, region_name(rw, rw->nuser - 1));
}

static void goto_statement(opc_rw *rw, opc_tok t) {
  opc_tok name = opc_lex_peek(&rw->lx);
  if (name.kind != CT_IDENT) { /* GNU computed goto: its target is unknown */
    opc_warn(rw, t.line,
             "computed 'goto' inside user region '%s': if it leaves the region, "
             "its end event is missed",
             region_name(rw, rw->nuser - 1));
    return;
  }
  opc_jump j = {t.start, name.start, name.end, t.line, false};
  PU_PUSH(rw->gotos, rw->ngotos, rw->gotos_cap, j);
}

/* `name :` after `;`, `{`, `}` or another label is a label (not a case
   value, a bit-field width, a ternary's arm or a C++ `::`). */
static void maybe_label(opc_rw *rw, opc_tok t) {
  const opc_lexer *lx = &rw->lx;
  if (!opc_tok_is(lx, rw->prev, ';') && !opc_tok_is(lx, rw->prev, '{') &&
      !opc_tok_is(lx, rw->prev, '}') && !opc_tok_is(lx, rw->prev, ':'))
    return;
  opc_lexer look = *lx;
  opc_tok colon = opc_lex_next(&look);
  if (!opc_tok_is(&look, colon, ':') || opc_tok_is(&look, opc_lex_next(&look), ':')) return;
  if (opc_tok_word(lx, t, "default")) return;
  opc_jump l = {t.start, t.start, t.end, t.line, false};
  PU_PUSH(rw->labels, rw->nlabels, rw->labels_cap, l);
}

void opc_user_region_word(opc_rw *rw, opc_tok t) {
  const opc_lexer *lx = &rw->lx;
  bool jump = opc_tok_word(lx, t, "return") || opc_tok_word(lx, t, "break") ||
              opc_tok_word(lx, t, "continue") || opc_tok_word(lx, t, "goto");
  if (jump && rw->altend && !opc_tok_word(lx, t, "return")) {
    rw->altend = false; /* the exit the user marked */
    return;
  }
  if (opc_tok_word(lx, t, "return")) early_return(rw, t);
  else if (opc_tok_word(lx, t, "for") || opc_tok_word(lx, t, "while") || opc_tok_word(lx, t, "do"))
    breakable(rw, t, true);
  else if (opc_tok_word(lx, t, "switch")) breakable(rw, t, false);
  else if (opc_tok_word(lx, t, "break")) leaving_jump(rw, t, true);
  else if (opc_tok_word(lx, t, "continue")) leaving_jump(rw, t, false);
  else if (opc_tok_word(lx, t, "goto")) goto_statement(rw, t);
  else maybe_label(rw, t);
  if (jump) rw->altend = false;
}

void opc_user_free(opc_rw *rw) {
  free(rw->user);
  free(rw->brk);
  free(rw->gotos);
  free(rw->labels);
}
