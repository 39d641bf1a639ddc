/* cube_xml.c -- anchor.xml as a tree of elements (expat does the parsing).
   The walkers in cube_read.c go through it in document order without
   recursion (parent links), so a deeply nested call tree cannot exhaust
   the stack.  All nodes and strings live until cube_xml_free. */
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube_internal.h"
#include "pomp_util.h"

struct cube_xdoc {
  cube_xnode *root, *cur;
  void **allocs; /* everything malloc'd for the tree */
  size_t nallocs, allocs_cap;
  report_buf text; /* character data of cur, being collected */
  XML_Parser parser;
};

static void *keep(cube_xdoc *d, void *p) {
  PU_PUSH(d->allocs, d->nallocs, d->allocs_cap, p);
  return p;
}

static char *keep_str(cube_xdoc *d, const char *s, size_t n) {
  char *c = keep(d, pu_malloc(n + 1));
  memcpy(c, s, n);
  c[n] = 0;
  return c;
}

/* The character data collected for cur becomes its text (kept only where
   an element holds text before its first child: names, types, values). */
static void flush_text(cube_xdoc *d) {
  if (d->cur && !d->cur->text_len && d->text.len) {
    d->cur->text = keep_str(d, (const char *)d->text.data, d->text.len);
    d->cur->text_len = d->text.len;
  }
  d->text.len = 0;
}

static void on_start(void *ud, const XML_Char *name, const XML_Char **attrs) {
  cube_xdoc *d = ud;
  flush_text(d);
  cube_xnode *x = keep(d, pu_calloc(1, sizeof *x));
  x->name = keep_str(d, name, strlen(name));
  size_t na = 0;
  while (attrs[na]) na++;
  x->attrs = keep(d, pu_calloc(na + 1, sizeof *x->attrs));
  for (size_t i = 0; i < na; i++) x->attrs[i] = keep_str(d, attrs[i], strlen(attrs[i]));
  x->text = "";
  x->tag = -1;
  x->line = (unsigned long)XML_GetCurrentLineNumber(d->parser);
  x->parent = d->cur;
  if (!d->cur) d->root = x;
  else if (d->cur->last) d->cur->last = d->cur->last->next = x;
  else d->cur->first = d->cur->last = x;
  d->cur = x;
}

static void on_end(void *ud, const XML_Char *name) {
  (void)name;
  cube_xdoc *d = ud;
  flush_text(d);
  d->cur = d->cur->parent;
}

static void on_text(void *ud, const XML_Char *s, int len) {
  cube_xdoc *d = ud;
  if (!d->cur || d->cur->first) return; /* text between children: layout */
  memcpy(report_buf_grow(&d->text, (size_t)len), s, (size_t)len);
}

void cube_xml_free(cube_xdoc *d) {
  if (!d) return;
  for (size_t i = 0; i < d->nallocs; i++) free(d->allocs[i]);
  free(d->allocs);
  free(d->text.data);
  free(d);
}

/* Trims the white space CubeW puts around text. */
static void trim_texts(cube_xnode *root) {
  for (cube_xnode *x = root; x; x = cube_xml_next(root, x)) {
    char *t = x->text;
    size_t n = x->text_len;
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\n' || t[n - 1] == '\t' || t[n - 1] == '\r'))
      t[--n] = 0;
    size_t s = 0;
    while (s < n && (t[s] == ' ' || t[s] == '\n' || t[s] == '\t' || t[s] == '\r')) s++;
    x->text = t + s;
    x->text_len = n - s;
  }
}

cube_xdoc *cube_xml_parse(const char *text, size_t len, const char *path, const char *member,
                          pomp_report_error *err) {
  cube_xdoc *d = pu_calloc(1, sizeof *d);
  XML_Parser p = XML_ParserCreate(NULL);
  if (!p) pu_die(POMP_EXIT_FAILURE, "out of memory");
  d->parser = p;
  XML_SetUserData(p, d);
  XML_SetElementHandler(p, on_start, on_end);
  XML_SetCharacterDataHandler(p, on_text);
  int ok = 1;
  /* XML_Parse takes an int length: feed large files in pieces. */
  for (size_t at = 0; ok && at < len; at += 1 << 30) {
    size_t n = len - at < (1u << 30) ? len - at : 1u << 30;
    ok = XML_Parse(p, text + at, (int)n, 0) == XML_STATUS_OK;
  }
  if (ok) ok = XML_Parse(p, "", 0, 1) == XML_STATUS_OK;
  if (!ok) {
    report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: %s line %lu column %lu: %s", path, member,
                (unsigned long)XML_GetCurrentLineNumber(p),
                (unsigned long)XML_GetCurrentColumnNumber(p) + 1,
                XML_ErrorString(XML_GetErrorCode(p)));
    XML_ParserFree(p);
    cube_xml_free(d);
    return NULL;
  }
  XML_ParserFree(p);
  trim_texts(d->root);
  return d;
}

cube_xnode *cube_xml_root(cube_xdoc *d) { return d->root; }

cube_xnode *cube_xml_skip(const cube_xnode *root, const cube_xnode *x) {
  while (x && x != root) {
    if (x->next) return x->next;
    x = x->parent;
  }
  return NULL;
}

cube_xnode *cube_xml_next(const cube_xnode *root, const cube_xnode *x) {
  return x->first ? x->first : cube_xml_skip(root, x);
}

const char *cube_xml_attr(const cube_xnode *x, const char *key) {
  for (const char **a = x->attrs; a[0]; a += 2)
    if (strcmp(a[0], key) == 0) return a[1];
  return NULL;
}

cube_xnode *cube_xml_child(const cube_xnode *x, const char *name) {
  for (cube_xnode *c = x->first; c; c = c->next)
    if (strcmp(c->name, name) == 0) return c;
  return NULL;
}

const char *cube_xml_child_text(const cube_xnode *x, const char *name) {
  cube_xnode *c = cube_xml_child(x, name);
  return c ? c->text : NULL;
}

void cube_xml_escape(report_buf *out, const char *s) {
  for (; *s; s++) {
    const char *e = *s == '&'   ? "&amp;"
                    : *s == '<' ? "&lt;"
                    : *s == '>' ? "&gt;"
                    : *s == '"' ? "&quot;"
                                : NULL;
    size_t n = e ? strlen(e) : 1;
    memcpy(report_buf_grow(out, n), e ? e : s, n);
  }
}
