/*
 * f_rewrite.c -- the Fortran front end's driver.
 *
 * Walks the unit line by line and copies it unchanged, except that
 *  - OpenMP directives get `call` lines with their events before and
 *    after them (f_construct.c),
 *  - `!$POMP INST ...` lines get the matching call after (before, for
 *    END) them,
 *  - the `!P$` sentinel is blanked, so that such lines are compiled only
 *    in the instrumented program,
 *  - `call omp_<op>_lock(...)` names the POMP twin (same length), also in
 *    OpenMP conditional-compilation lines (`!$ ...`), which are code,
 *  - a RETURN inside user regions gets their end calls before it.
 * Lines in dead `#if 0` arms are skipped like comments.  Inserted lines
 * are followed by a `# N "file"` mark (gfortran reads them, with or
 * without the preprocessor), so that compiler messages and debuggers
 * point at the source.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "f_rw.h"
#include "pomp_util.h"

int opf_line_no(const opf_rw *rw, size_t li) { return li < rw->nlines ? rw->lines[li].line : 0; }

/* ---- output ------------------------------------------------------------- */

/* Source bytes (or their replacement) follow: the mark of inserted lines
   goes first.  Inserted lines always end at a line start, copied_line. */
void opf_copy_to(opf_rw *rw, size_t off) {
  if (rw->need_mark && !rw->opt->nosrc && rw->copied_line < rw->nlines) {
    const opf_line *l = &rw->lines[rw->copied_line];
    if (l->file) {
      op_span name = rw->files[l->file - 1];
      fprintf(rw->em.f, "# %d \"%.*s\"\n", l->line, (int)(name.end - name.start),
              rw->src + name.start);
    } else fprintf(rw->em.f, "# %d \"%s\"\n", l->line, rw->opt->line_name);
  }
  rw->need_mark = false;
  op_emit_copy_to(&rw->em, off);
}

void opf_sync(opf_rw *rw, size_t li) {
  if (li <= rw->copied_line) return;
  opf_copy_to(rw, li < rw->nlines ? rw->lines[li].start : rw->n);
  rw->copied_line = li;
}

void opf_skip(opf_rw *rw, size_t li) {
  op_emit_skip_to(&rw->em, li < rw->nlines ? rw->lines[li].start : rw->n);
  rw->copied_line = li;
}

static const char *indent(const opf_rw *rw) { return rw->fixed ? "      " : rw->indent; }

/* Inserted lines after a last line without line end need one first. */
static void opc_line_start(opf_rw *rw) {
  if (rw->em.copied == rw->n && rw->n && rw->src[rw->n - 1] != '\n' && !rw->final_newline) {
    fputc('\n', rw->em.f);
    rw->final_newline = true;
  }
}

void opf_call(opf_rw *rw, op_event ev, int d) {
  FILE *f = rw->em.f;
  opc_line_start(rw);
  rw->used[ev] = true;
  /* plain puts: this is the bulk of the output (fprintf cost 15%) */
  fputs(indent(rw), f);
  fputs(rw->call_prefix, f);
  fputs(opf_event_fortran_name(ev), f);
  if (ev <= EV_OFF) {
    fputs("()\n", f);
  } else {
    char num[16], *p = num + sizeof num;
    *--p = 0;
    *--p = '\n';
    *--p = ')';
    do *--p = (char)('0' + d % 10);
    while ((d /= 10) > 0);
    *--p = '(';
    fputs(p, f);
  }
  rw->need_mark = true;
}

void opf_task_call(opf_rw *rw, op_event ev, int d) {
  FILE *f = rw->em.f;
  opc_line_start(rw);
  rw->used[ev] = true;
  fprintf(f, "%s%s%s(%d, pomp_task_%d)\n", indent(rw), rw->call_prefix, opf_event_fortran_name(ev),
          d, d);
  rw->need_mark = true;
}

void opf_statement(opf_rw *rw, const char *text) {
  opc_line_start(rw);
  fprintf(rw->em.f, "%s%s\n", indent(rw), text);
  rw->need_mark = true;
}

void opf_directive(opf_rw *rw, const char *text) {
  opc_line_start(rw);
  fprintf(rw->em.f, "%s!$omp %s\n", rw->fixed ? "" : rw->indent, text);
  rw->need_mark = true;
}

/* ---- POMP directives ------------------------------------------------------ */

static void opf_inst_directive(opf_rw *rw, size_t li) {
  const opf_line *l = &rw->lines[li];
  opf_line_class c = opf_classify(rw, li);
  size_t from = l->start + c.body, len = l->end - from;
  char *text = pu_malloc(len + 1);
  for (size_t i = 0; i < len; i++) text[i] = (char)tolower((unsigned char)rw->src[from + i]);
  text[len] = 0;
  char quote = 0;
  len = opf_code_end(text, 0, len, &quote); /* a trailing comment */
  op_span name = {0, 0};
  op_inst_kind k = op_inst_parse(text, len, 0, &name);
  free(text);
  const char *nm = rw->src + from + name.start;
  size_t nlen = name.end - name.start;
  opf_set_indent(rw, li);
  opf_statement_seen(rw, li);
  switch (k) {
  case OP_INST_BEGIN: opf_region_begin(rw, li, nm, nlen); return;
  case OP_INST_END: opf_region_end(rw, li, nm, nlen); return;
  case OP_INST_ALTEND: opf_region_altend(rw, li, nm, nlen); return;
  case OP_INST_INIT:
  case OP_INST_FINALIZE:
  case OP_INST_ON:
  case OP_INST_OFF:
    opf_sync(rw, li + 1);
    opf_call(rw,
             k == OP_INST_INIT       ? EV_INIT
             : k == OP_INST_FINALIZE ? EV_FINALIZE
             : k == OP_INST_ON       ? EV_ON
                                     : EV_OFF,
             0);
    return;
  case OP_INST_NOINSTRUMENT:
  case OP_INST_INSTRUMENT:
    opf_warn(rw, li, "'!$pomp %sinstrument' is not supported in Fortran: ignored",
             k == OP_INST_NOINSTRUMENT ? "no" : "");
    return;
  case OP_INST_BAD:
    opf_error(rw, li,
              "unknown POMP directive (expected inst init|finalize|on|off|begin(name)|end(name))");
  }
}

/* ---- code lines ----------------------------------------------------------- */

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

static bool ci_equal(const char *s, const char *word, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (tolower((unsigned char)s[i]) != word[i]) return false;
  return true;
}

/* `call omp_<op>_lock` and omp_test_[nest_]lock references in the code
   bytes [from, to) of the source. */
static void replace_locks(opf_rw *rw, size_t from, size_t to) {
  const char *s = rw->src;
  for (size_t p = from; p < to;) {
    if (!ident_char(s[p]) || (p > from && ident_char(s[p - 1]))) {
      if (s[p] == '\'' || s[p] == '"') { /* skip the literal */
        char q = s[p++];
        while (p < to && s[p] != q) p++;
      }
      p++;
      continue;
    }
    size_t e = p;
    while (e < to && ident_char(s[e])) e++;
    /* the word before must be CALL */
    size_t b = p;
    while (b > from && (s[b - 1] == ' ' || s[b - 1] == '\t')) b--;
    bool after_call =
        b >= from + 4 && ci_equal(s + b - 4, "call", 4) && (b == from + 4 || !ident_char(s[b - 5]));
    for (int k = 0; after_call && k < FLOCK_COUNT; k++) {
      const char *omp = opf_lock_names[k][0];
      if (strlen(omp) != e - p || !ci_equal(s + p, omp, e - p)) continue;
      if ((rw->opt->disabled & OPARI_DIS_LOCKS) || opf_in_device(rw)) break;
      opf_copy_to(rw, p);
      op_emit_str(&rw->em, opf_lock_names[k][1]);
      op_emit_skip_to(&rw->em, e);
      rw->locks_used[k] = true;
    }
    /* a test function stays as written (see f_unit.c); any mention in
       code counts (a USE list, a reference whose "(" is on a continuation
       line): a companion definition no call needs is harmless */
    bool test = (e - p == 13 && ci_equal(s + p, "omp_test_lock", 13)) ||
                (e - p == 18 && ci_equal(s + p, "omp_test_nest_lock", 18));
    if (test && !(rw->opt->disabled & OPARI_DIS_LOCKS) && !opf_in_device(rw))
      rw->test_locks_used[e - p == 18] = true;
    p = e;
  }
}

static void code_lines(opf_rw *rw, size_t first, size_t last) {
  char quote = 0;
  for (size_t li = first; li <= last; li++) {
    opf_line_class c = opf_classify(rw, li);
    if (c.kind != FL_CODE) continue;
    const opf_line *l = &rw->lines[li];
    if (c.condcomp) {
      opf_copy_to(rw, l->start + c.sentinel);
      op_emit_str(&rw->em, "   ");
      op_emit_skip_to(&rw->em, l->start + c.sentinel + 3);
    }
    /* fixed form: code starts in column 7 (after a tab: 2, or 3 with a
       continuation digit); the label and continuation fields are skipped */
    size_t fixed_from = rw->src[l->start] == '\t' ? (c.cont ? 2 : 1) : 6;
    size_t from = l->start + (rw->fixed ? fixed_from : c.body);
    size_t end = rw->fixed && l->end - l->start > 72 ? l->start + 72 : l->end;
    if (from > end) from = end;
    size_t code = opf_code_end(rw->src, from, end, &quote);
    replace_locks(rw, from, code);
  }
}

static void rewrite(opf_rw *rw) {
  opf_split_lines(rw);
  for (size_t li = 0; li < rw->nlines;) {
    opf_line_class c = opf_classify(rw, li);
    switch (c.kind) {
    case FL_OMP:
      if (c.cont) opf_error(rw, li, "continuation line without a directive to continue");
      opf_omp_directive(rw, li);
      if (rw->opt->loops) opf_loop_directive_seen(rw);
      li = rw->fd.last + 1;
      break;
    case FL_POMP:
      opf_inst_directive(rw, li);
      li++;
      break;
    case FL_CODE: {
      size_t last = opf_stmt_last(rw, li);
      opf_statement_seen(rw, li);
      opf_program_statement(rw, li);
      if (rw->opt->loops) opf_loop_statement(rw, li, last);
      opf_return(rw, li);
      code_lines(rw, li, last);
      if (rw->opt->loops) opf_loop_ended(rw, last);
      opf_close_implicit(rw, last);
      li = last + 1;
      break;
    }
    default: li++;
    }
  }
  opf_check_closed(rw);
  opf_sync(rw, rw->nlines);
}

bool opari_fortran(const char *src, size_t n, FILE *out, FILE *companion,
                   const opari_options *opt) {
  opf_rw *rw = pu_calloc(1, sizeof *rw);
  rw->src = src;
  rw->n = n;
  rw->opt = opt;
  rw->fixed = opt->fixed_form;
  rw->unit_id = opt->unit_id;
  snprintf(rw->call_prefix, sizeof rw->call_prefix, "call pomp_%08x_", rw->unit_id);
  rw->em = (op_emit){.f = out, .src = src, .line_name = opt->line_name, .nosrc = opt->nosrc};
  volatile bool ok = false;
  if (!setjmp(rw->fail)) {
    rewrite(rw);
    opf_companion(companion, rw);
    ok = true;
  }
  opf_dir_free(&rw->fd);
  free(rw->lines);
  free(rw->files);
  free(rw->open);
  free(rw->loops);
  op_descr_free(&rw->descr);
  free(rw);
  return ok;
}
