/* report_open.c -- opening report.pomp: map the file, check the header,
   parse the definitions, check the row index.  Values stay untouched until
   a row is asked for (report_query.c checks each row as it decodes it), so
   opening costs the definitions plus one pass over the index. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cube_internal.h"
#include "pomp_util.h"
#include "report_format.h"
#include "report_internal.h"

/* The report file for path: path itself, or path/report.pomp for an
   experiment directory. */
static char *report_file(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return pu_strdup(path);
  char *file = pu_malloc(strlen(path) + sizeof "/report.pomp");
  strcpy(file, path);
  strcat(file, "/report.pomp");
  return file;
}

/* Opens r->path for reading into *fd if it is a regular file.  The type
   is checked before opening: open(2) on a FIFO without a writer blocks,
   and opening a device can have side effects.  O_NONBLOCK covers a file
   swapped for a FIFO in between (it changes nothing for a regular file);
   fstat then checks what was really opened. */
static pomp_report_status open_regular(const pomp_report *r, int *fd, struct stat *st,
                                       pomp_report_error *err) {
  *fd = -1;
  if (stat(r->path, st) != 0)
    return report_fail(err, POMP_REPORT_ERR_IO, "%s: %s", r->path, strerror(errno));
  if (S_ISREG(st->st_mode)) {
    *fd = open(r->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0) return report_fail(err, POMP_REPORT_ERR_IO, "%s: %s", r->path, strerror(errno));
    if (fstat(*fd, st) == 0 && S_ISREG(st->st_mode)) return POMP_REPORT_OK;
    close(*fd);
    *fd = -1;
  }
  return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: not a regular file", r->path);
}

static pomp_report_status map_file(pomp_report *r, pomp_report_error *err) {
  struct stat st;
  int fd;
  pomp_report_status s = open_regular(r, &fd, &st, err);
  if (s != POMP_REPORT_OK) return s;
  if (st.st_size < REPORT_HEADER_SIZE) {
    close(fd);
    return report_fail(err, POMP_REPORT_ERR_FORMAT,
                       "%s: offset %lld: not a pomp report (shorter than the "
                       "header)",
                       r->path, (long long)st.st_size);
  }
  void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return report_fail(err, POMP_REPORT_ERR_IO, "%s: mmap: %s", r->path, strerror(errno));
  r->map = map;
  r->map_len = (size_t)st.st_size;
  r->bytes = map;
  r->nbytes = r->map_len;
  return POMP_REPORT_OK;
}

static uint64_t align8(uint64_t x) { return (x + 7) & ~(uint64_t)7; }

/* Offset in p of the first non-zero byte of p[0..n), or -1. */
static int64_t first_nonzero(const unsigned char *p, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (p[i]) return (int64_t)i;
  return -1;
}

/* The sections follow each other exactly as the writer lays them out
   (FORMAT.md): no gaps but zero padding to 8 bytes, nothing after the
   index.  So every byte of a file is checked by something. */
static pomp_report_status check_layout(const pomp_report *r, const report_header *h,
                                       pomp_report_error *err) {
  const unsigned char *base = r->bytes;
  uint64_t defs_end = h->defs_offset + h->defs_length;
  uint64_t values_end = h->values_offset + h->values_length;
  if (h->defs_offset != REPORT_HEADER_SIZE || h->values_offset != align8(defs_end) ||
      h->index_offset != align8(values_end))
    return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset 16: sections out of place",
                       r->path);
  int64_t bad = first_nonzero(base + defs_end, h->values_offset - defs_end);
  uint64_t at = defs_end + (uint64_t)bad;
  if (bad < 0) {
    bad = first_nonzero(base + values_end, h->index_offset - values_end);
    at = values_end + (uint64_t)bad;
  }
  if (bad >= 0)
    return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset %llu: padding is not zero", r->path,
                       (unsigned long long)at);
  uint64_t end = h->index_offset + h->index_count * REPORT_INDEX_ENTRY;
  if (end != r->nbytes)
    return report_fail(err, POMP_REPORT_ERR_FORMAT,
                       "%s: offset %llu: %llu unexpected bytes after the "
                       "row index",
                       r->path, (unsigned long long)end, (unsigned long long)(r->nbytes - end));
  return POMP_REPORT_OK;
}

typedef struct {
  uint64_t begin, end;
} span;

static int span_order(const void *a, const void *b) {
  const span *x = a, *y = b;
  return (x->begin > y->begin) - (x->begin < y->begin);
}

/* Rows written out of order by the streaming writer are not laid out in
   index order; their spans are sorted to look for overlaps. */
static int spans_overlap(span *s, uint64_t n) {
  qsort(s, (size_t)n, sizeof *s, span_order);
  for (uint64_t i = 1; i < n; i++)
    if (s[i].begin < s[i - 1].end) return 1;
  return 0;
}

static pomp_report_status check_index(const pomp_report *r, const report_header *h,
                                      pomp_report_error *err) {
  const unsigned char *index = r->rows.index;
  uint64_t n = h->index_count, prev_end = 0;
  span *spans = NULL;
  int in_order = 1;
  int32_t pm = -1, pc = -1;
  for (uint64_t i = 0; i < n; i++) {
    report_entry e;
    report_entry_get(index, i, &e);
    uint64_t size = e.encoding < REPORT_ENC_COUNT && e.count >= 1 && e.count <= r->nlocations
                        ? report_row_size(e.encoding, e.count, r->nlocations)
                        : 0;
    const char *why = e.metric < 0 || (size_t)e.metric >= r->nmetrics ? "bad metric id"
                      : e.cnode < 0 || (size_t)e.cnode >= r->ncnodes  ? "bad cnode id"
                      : e.metric < pm || (e.metric == pm && e.cnode <= pc)
                          ? "rows not sorted by (metric, cnode)"
                      : !size ? "bad encoding or count"
                      : e.offset > h->values_length || size > h->values_length - e.offset
                          ? "row runs past the values section"
                          : NULL;
    if (why) {
      free(spans);
      return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset %llu: row index entry %llu: %s",
                         r->path, (unsigned long long)(h->index_offset + i * REPORT_INDEX_ENTRY),
                         (unsigned long long)i, why);
    }
    pm = e.metric;
    pc = e.cnode;
    if (e.offset < prev_end) in_order = 0;
    prev_end = e.offset + size;
    if (!in_order && !spans) { /* collect all spans from the start */
      spans = pu_malloc((size_t)n * sizeof *spans);
      for (uint64_t j = 0; j < i; j++) {
        report_entry f;
        report_entry_get(index, j, &f);
        spans[j] = (span){f.offset, f.offset + report_row_size(f.encoding, f.count, r->nlocations)};
      }
    }
    if (spans) spans[i] = (span){e.offset, e.offset + size};
  }
  int overlap = spans && spans_overlap(spans, n);
  free(spans);
  if (overlap)
    return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset %llu: row index: rows overlap",
                       r->path, (unsigned long long)h->index_offset);
  return POMP_REPORT_OK;
}

/* Checks and parses r->bytes: a report.pomp, or a CUBE4 .cubex (a tar
   archive, cube_read.c) turned into the same model. */
static pomp_report_status load(pomp_report *r, pomp_report_error *err) {
  if (memcmp(r->bytes, REPORT_MAGIC, sizeof REPORT_MAGIC - 1) != 0 &&
      cube_is_tar(r->bytes, r->nbytes))
    return cube_load(r, err);
  pomp_report_status st;
  const unsigned char *base = r->bytes;
  report_header h;
  if ((st = report_header_decode(base, r->nbytes, r->path, &h, err)) ||
      (st = check_layout(r, &h, err)))
    return st;
  if (!REPORT_CHECKSUM_OK(h.defs_checksum, report_checksum(base + h.defs_offset, h.defs_length)))
    return report_fail(err, POMP_REPORT_ERR_FORMAT,
                       "%s: offset %llu: definitions checksum mismatch", r->path,
                       (unsigned long long)h.defs_offset);
  if ((st = report_defs_from_json(r, (const char *)base + h.defs_offset, h.defs_length, r->path,
                                  h.defs_offset, err)))
    return st;
  if (!REPORT_CHECKSUM_OK(h.index_checksum, report_checksum(base + h.index_offset,
                                                            h.index_count * REPORT_INDEX_ENTRY)))
    return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset %llu: row index checksum mismatch",
                       r->path, (unsigned long long)h.index_offset);
  r->rows.values = base + h.values_offset;
  r->rows.values_len = h.values_length;
  r->rows.values_pos = h.values_offset;
  r->rows.index = base + h.index_offset;
  r->rows.index_pos = h.index_offset;
  r->rows.nrows = h.index_count;
  if ((st = check_index(r, &h, err))) return st;
  report_rows_metric_ranges(&r->rows, r->nmetrics);
  return POMP_REPORT_OK;
}

/* Whether path is a directory without report.pomp but with snapshots. */
static int snapshots_only(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
  char *file = report_file(path);
  int has_report = stat(file, &st) == 0;
  free(file);
  return !has_report && pomp_report_snapshots_look(path).files > 0;
}

pomp_report *pomp_report_open(const char *path, pomp_report_error *err) {
  if (snapshots_only(path)) return pomp_report_open_snapshots(path, err);
  pomp_report *r = pomp_report_new();
  free(r->path);
  r->path = report_file(path);
  if (map_file(r, err) != POMP_REPORT_OK || load(r, err) != POMP_REPORT_OK) {
    pomp_report_free(r);
    return NULL;
  }
  r->readonly = 1;
  return r;
}

pomp_report *pomp_report_open_memory(const void *data, size_t size, const char *name,
                                     pomp_report_error *err) {
  pomp_report *r = pomp_report_new();
  free(r->path);
  r->path = pu_strdup(name ? name : "(memory)");
  r->bytes = data;
  r->nbytes = size;
  pomp_report_status st = size < REPORT_HEADER_SIZE
                              ? report_fail(err, POMP_REPORT_ERR_FORMAT,
                                            "%s: offset %zu: not a pomp report (shorter than the "
                                            "header)",
                                            r->path, size)
                              : load(r, err);
  if (st != POMP_REPORT_OK) {
    pomp_report_free(r);
    return NULL;
  }
  r->readonly = 1;
  return r;
}
