/* c_site.c -- where injected text goes around one directive, and
   variants of a directive's text (see c_rw.h). */
#include <string.h>

#include "c_rw.h"
#include "pomp_util.h"

/* ---- placing text around a directive ---------------------------------- */

size_t opc_line_start(const opc_rw *rw, size_t pos) {
  while (pos > 0 && rw->s[pos - 1] != '\n') pos--;
  return pos;
}

static bool blank_prefix(const opc_rw *rw, const opc_site *site) {
  for (size_t i = opc_line_start(rw, site->start); i < site->start; i++)
    if (rw->s[i] != ' ' && rw->s[i] != '\t') return false;
  return true;
}

/* Starts code that goes before the directive. */
void opc_pre_begin(opc_rw *rw, const opc_site *site) {
  if (site->op || !blank_prefix(rw, site)) {
    op_emit_copy_to(&rw->em, site->start);
    if (!site->op) op_emit_str(&rw->em, "\n");
  } else op_emit_copy_to(&rw->em, opc_line_start(rw, site->start));
}

void opc_pre_end(opc_rw *rw, const opc_site *site) {
  if (site->op) {
    op_emit_str(&rw->em, " ");
    return;
  }
  op_emit_str(&rw->em, "\n");
  opc_rw_mark(rw, site->line);
  if (!blank_prefix(rw, site)) op_emit_pad(&rw->em, opc_line_start(rw, site->start), site->start);
}

/* Starts code that goes after the directive. */
void opc_post_begin(opc_rw *rw, const opc_site *site) {
  op_emit_copy_to(&rw->em, site->end);
  op_emit_str(&rw->em, site->op ? " " : "\n");
}

void opc_post_end(opc_rw *rw, const opc_site *site) {
  if (site->op) {
    op_emit_str(&rw->em, " ");
    return;
  }
  op_emit_str(&rw->em, "\n");
  opc_rw_mark(rw, site->end_line + 1);
  if (site->end < rw->n && rw->s[site->end] == '\n') op_emit_skip_to(&rw->em, site->end + 1);
}

/* ---- directive variants ---------------------------------------------- */

void opc_variant_reset(opc_rw *rw) { rw->app_len = 0; }
void opc_variant_append(opc_rw *rw, const char *s, size_t n) {
  pu_reserve((void **)&rw->app, &rw->app_cap, rw->app_len + n + 1, 1);
  memcpy(rw->app + rw->app_len, s, n);
  rw->app_len += n;
}

/* rw->buf = the directive text with `blanks` overwritten by blanks (line
   splices kept) and rw->app inserted after its last significant byte. */
void opc_make_variant(opc_rw *rw, const opc_site *site, const op_span *blanks, size_t nblanks) {
  size_t len = site->len, ce = rw->dir.content_end;
  pu_reserve((void **)&rw->buf, &rw->buf_cap, len + rw->app_len + 1, 1);
  memcpy(rw->buf, site->text, ce);
  if (rw->app_len) memcpy(rw->buf + ce, rw->app, rw->app_len);
  memcpy(rw->buf + ce + rw->app_len, site->text + ce, len - ce);
  rw->buf_len = len + rw->app_len;
  for (size_t b = 0; b < nblanks; b++)
    for (size_t i = blanks[b].start; i < blanks[b].end && i < ce; i++) {
      char c = rw->buf[i];
      bool splice = c == '\\' && i + 1 < len && (rw->buf[i + 1] == '\n' || rw->buf[i + 1] == '\r');
      if (c != '\n' && c != '\r' && c != '\t' && !splice) rw->buf[i] = ' ';
    }
}

void opc_write_variant(opc_rw *rw, const opc_site *site) {
  if (site->op) {
    op_emit_str(&rw->em, "_Pragma(\"");
    op_emit_c_string(rw->em.f, rw->buf, rw->buf_len);
    op_emit_str(&rw->em, "\")");
  } else op_emit_mem(&rw->em, rw->buf, rw->buf_len);
}

/* Replaces the directive in the output by its variant. */
void opc_put_variant(opc_rw *rw, const opc_site *site, const op_span *blanks, size_t nblanks) {
  opc_make_variant(rw, site, blanks, nblanks);
  op_emit_copy_to(&rw->em, site->start);
  opc_write_variant(rw, site);
  op_emit_skip_to(&rw->em, site->end);
}
