/*
 * cube_internal.h -- CUBE4 (.cubex) support of libpomp-report, shared by
 * cube_tar.c (the tar container), cube_xml.c (anchor.xml as a tree),
 * cube_read.c (import into the report model) and cube_write.c (export).
 * The file layout is described in docs/FORMAT.md ("CUBE4 files").
 */
#ifndef CUBE_INTERNAL_H
#define CUBE_INTERNAL_H

#include <stdint.h>
#include <stddef.h>

#include "report_internal.h"

/* ---- tar (ustar) ------------------------------------------------------- */

typedef struct {
  char name[260]; /* prefix/name joined */
  const unsigned char *data;
  uint64_t size;
  uint64_t offset; /* of the data in the archive (messages) */
} cube_member;

/* Whether bytes look like a tar archive (the ustar magic of the first
   header): the opener's test for a .cubex. */
int cube_is_tar(const unsigned char *bytes, size_t n);
/* The regular-file members of an archive; *members is malloc'd. */
pomp_report_status cube_tar_members(const unsigned char *bytes, size_t n, const char *path,
                                    cube_member **members, size_t *count, pomp_report_error *err);
const cube_member *cube_tar_find(const cube_member *m, size_t count, const char *name);
/* Appends one member (header, data, padding) or the end-of-archive blocks. */
void cube_tar_put(report_buf *out, const char *name, const void *data, size_t len);
void cube_tar_end(report_buf *out);

/* ---- anchor.xml as a tree ---------------------------------------------- */

typedef struct cube_xnode {
  const char *name;
  const char **attrs; /* key, value, ..., NULL */
  char *text;         /* character data directly inside, "" if none */
  size_t text_len;
  unsigned long line;
  struct cube_xnode *parent, *first, *last, *next;
  int32_t tag; /* free for the walkers (an id they gave the element) */
} cube_xnode;

typedef struct cube_xdoc cube_xdoc;

/* Parses text; on failure err names path, member and line:column. */
cube_xdoc *cube_xml_parse(const char *text, size_t len, const char *path, const char *member,
                          pomp_report_error *err);
cube_xnode *cube_xml_root(cube_xdoc *d);
void cube_xml_free(cube_xdoc *d);
/* Next element after x in document order below root (preorder), or NULL. */
cube_xnode *cube_xml_next(const cube_xnode *root, const cube_xnode *x);
/* Next element in preorder that is not inside x. */
cube_xnode *cube_xml_skip(const cube_xnode *root, const cube_xnode *x);
const char *cube_xml_attr(const cube_xnode *x, const char *key);
/* Text of the first child element called name, or NULL. */
const char *cube_xml_child_text(const cube_xnode *x, const char *name);
cube_xnode *cube_xml_child(const cube_xnode *x, const char *name);
/* Appends s to out with &, <, >, " escaped. */
void cube_xml_escape(report_buf *out, const char *s);

/* ---- shared by reader and writer --------------------------------------- */

/* CUBE metric types: how a metric's rows lie along the call tree. */
typedef enum {
  CUBE_EXCLUSIVE = 0,
  CUBE_INCLUSIVE,
  CUBE_SIMPLE,
  CUBE_POSTDERIVED,
  CUBE_PREDERIVED_INCLUSIVE,
  CUBE_PREDERIVED_EXCLUSIVE,
  CUBE_TYPE_UNKNOWN
} cube_metric_type;

cube_metric_type cube_type_from_name(const char *s);

/* A call tree as CubeW sees it: node i has parent[i] (-1 for roots);
   children and roots come in index order.  Fills seq[0..n) with the node
   at each row position of a metric of the given type: EXCLUSIVE rows in
   depth-first preorder, INCLUSIVE rows "wide": each root, then per node
   all its children before any grandchild of it, SIMPLE rows by id
   (ids[i], or index order when ids is NULL). */
void cube_row_order(cube_metric_type type, const int32_t *parent, const int64_t *ids, int32_t n,
                    int32_t *seq);

#define CUBE_INDEX_MAGIC "CUBEX.INDEX"
#define CUBE_DATA_MAGIC "CUBEX.DATA"
#define CUBE_ZDATA_MAGIC "ZCUBEX.DATA"
#define CUBE_INDEX_SPARSE 1
#define CUBE_INDEX_DENSE 3

/* cube_read.c: builds r (new, empty) from the .cubex in r->bytes. */
pomp_report_status cube_load(pomp_report *r, pomp_report_error *err);

#endif /* CUBE_INTERNAL_H */
