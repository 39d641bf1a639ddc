/*
 * report_internal.h -- the inside of a pomp_report, shared by the files of
 * libpomp-report.  Not installed.
 *
 * A report holds its definitions in growable arrays and its values in one
 * of two shapes:
 *   - building: a hash table of cells (metric, cnode, location) -> value,
 *     filled by pomp_report_add_value;
 *   - a "row store": the values section and the row index exactly as they
 *     lie in a report file (docs/FORMAT.md), either mapped from a file or
 *     made in memory from the cells ("frozen") on the first value query.
 * Every query reads the row store, so a report built in memory and the
 * same report read back from disk answer with the same bits.
 */
#ifndef REPORT_INTERNAL_H
#define REPORT_INTERNAL_H

#include <stdint.h>
#include <stddef.h>

#include "pomp_report.h"
#include "report_strmap.h"

/* First-child / next-sibling links of one tree, so that children come out
   in definition order in O(children). first/last/next are indexed by id;
   roots are linked from root_first. */
typedef struct {
  int32_t *first, *last, *next;
  size_t cap;
  int32_t root_first, root_last;
} report_tree;

typedef struct {
  int32_t metric, cnode, location;
  double value;
} report_cell;

/* Open-addressing hash from (metric, cnode, location) to a cell index. */
typedef struct {
  report_cell *cells;
  size_t ncells, cells_cap;
  uint32_t *slots; /* cell index + 1; 0 = empty */
  size_t nslots;   /* power of two */
} report_cells;

/* Row store: the values section and the row index in file layout. */
typedef struct {
  const unsigned char *values; /* values section */
  uint64_t values_len;
  const unsigned char *index; /* nrows entries of REPORT_INDEX_ENTRY bytes */
  uint64_t nrows;
  uint64_t *metric_begin; /* rows of metric m: [metric_begin[m], [m+1]) */
  uint64_t *checked;      /* bit i: row i passed report_row_decode's checks,
                             so single values are read in place (set
                             atomically: readers may share a report) */
  uint64_t values_pos;    /* file offset of the values section (messages) */
  uint64_t index_pos;     /* file offset of the index (messages) */
} report_rows;

struct pomp_report {
  pomp_metric *metrics;
  size_t nmetrics, metrics_cap;
  report_strmap metric_ids; /* name -> id */
  report_tree metric_tree;

  pomp_region *regions;
  size_t nregions, regions_cap;

  pomp_cnode *cnodes;
  size_t ncnodes, cnodes_cap;
  report_tree cnode_tree;
  int32_t *cnode_slots; /* hash (region, parent) -> cnode id + 1 */
  size_t cnode_nslots;

  pomp_sysnode *sysnodes;
  size_t nsysnodes, sysnodes_cap;
  report_tree sysnode_tree;
  int32_t *loc_sysnode; /* location -> thread sysnode */
  size_t nlocations, loc_cap;

  struct report_attr {
    char *key, *value;
  } * attrs;
  size_t nattrs, attrs_cap;
  report_strmap attr_ids; /* key -> index */
  /* the attribute POMP_REPORT_NOT_COMPUTED, parsed (report_computed.c) */
  struct report_not_computed {
    char *names; /* " name name " */
    char *why;   /* "not computed: REASON" */
  } * not_computed;
  size_t nnot_computed, not_computed_cap;

  report_cells cells;
  int frozen_stale; /* cells changed since the row store was made */
  int readonly;     /* opened from a file: no additions */
  report_rows rows;
  unsigned char *owned_values, *owned_index; /* frozen in memory */
  void *map;                                 /* mapped file (owned) */
  size_t map_len;
  const unsigned char *bytes; /* the file's bytes: map, or caller memory */
  size_t nbytes;
  char *path; /* file name for messages ("" in memory) */
};

/* report_tree.c */
void report_tree_free(report_tree *t);
void report_tree_link(report_tree *t, int32_t id, int32_t parent);
int32_t report_tree_children(const report_tree *t, int32_t node, int32_t *out, int32_t cap);

/* report_error.c: fills err (if not NULL) and returns status. */
pomp_report_status report_fail(pomp_report_error *err, pomp_report_status status, const char *fmt,
                               ...) __attribute__((format(printf, 3, 4)));

/* report_error.c: POMP_REPORT_ERR_ARG with "PATH: a difference of two
   runs (A - B): WHAT are a run's, not a difference's" if r was written by
   pomp-report diff (attribute "diff"), else POMP_REPORT_OK.  For what a
   difference's values cannot give: POP efficiencies, the search. */
pomp_report_status report_refuse_difference(const pomp_report *r, const char *what,
                                            pomp_report_error *err);

/* Is name one of the catalogue's properties (report_catalogue.c)? */
int report_catalogue_has(const char *name);

/* report_computed.c: the attribute POMP_REPORT_NOT_COMPUTED parsed into
   r->not_computed (again on every set), and freed; "not computed: REASON"
   for a metric not computed (itself or an ancestor named), else NULL. */
void report_computed_parse(pomp_report *r, const char *value);
void report_computed_free(pomp_report *r);
const char *report_not_computed_text(const pomp_report *r, int32_t metric);
/* report_cells.c */
void report_cells_free(report_cells *c);
void report_cells_rehash(report_cells *c, size_t nslots);
void report_cells_add(report_cells *c, int32_t metric, int32_t cnode, int32_t location, double v);

/* A growable byte buffer. */
typedef struct {
  unsigned char *data;
  size_t len, cap;
} report_buf;
unsigned char *report_buf_grow(report_buf *b, size_t n); /* n more bytes */

/* report_freeze.c: makes r->rows current (builds it from the cells when a
   building report changed).  Logically const: only caches. */
void report_freeze(const pomp_report *r);
/* Sets rows->metric_begin from a validated, sorted index and marks every
   row unchecked. */
void report_rows_metric_ranges(report_rows *rows, size_t nmetrics);
/* Row index i of (metric, cnode), or -1. */
int64_t report_rows_find(const report_rows *rows, int32_t metric, int32_t cnode);

/* report_json.c: the definitions section.  to_json returns a malloc'd
   string (cJSON allocator, free with free()). */
char *report_defs_to_json(const pomp_report *r, int pretty);
pomp_report_status report_defs_from_json(pomp_report *r, const char *text, size_t len,
                                         const char *path, uint64_t offset, pomp_report_error *err);

#endif /* REPORT_INTERNAL_H */
