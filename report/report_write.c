/* report_write.c -- writing report.pomp: header, definitions, values, row
   index (docs/FORMAT.md).  The streaming writer keeps only the row index
   in memory (32 bytes per row), never the values; pomp_report_write feeds
   it the rows of a report's row store.  The file is written under a
   temporary name of its own (REPORT.part.PID.N: two writers of one
   report never share it) and renamed at the end, so a reader never sees
   half a report and the last writer's complete report wins. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pomp_util.h"
#include "report_format.h"
#include "report_internal.h"

struct pomp_report_writer {
  const pomp_report *r;
  FILE *f;
  char *path, *tmp;
  report_header h;
  report_buf index, row; /* entries; one encoded row */
  int32_t *locs;         /* one row without its zeros */
  double *vals;
  char *iobuf; /* stdio buffer: few, large write calls */
  int sorted;  /* rows arrived in (metric, cnode) order */
  int32_t last_metric, last_cnode;
};

static const unsigned char zeros[8];

static pomp_report_status io_fail(pomp_report_writer *w, pomp_report_error *err) {
  return report_fail(err, POMP_REPORT_ERR_IO, "%s: %s", w->path, strerror(errno ? errno : EIO));
}

static void writer_free(pomp_report_writer *w, int remove_tmp) {
  if (w->f) fclose(w->f);
  if (remove_tmp) remove(w->tmp);
  free(w->path);
  free(w->tmp);
  free(w->index.data);
  free(w->row.data);
  free(w->locs);
  free(w->vals);
  free(w->iobuf);
  free(w);
}

/* Pads the file to a multiple of 8 bytes; returns the new position. */
static int pad8(FILE *f, uint64_t *pos) {
  size_t n = (size_t)((8 - *pos % 8) % 8);
  *pos += n;
  return fwrite(zeros, 1, n, f) == n;
}

/* The temporary file next to w->path, unique to this writer: its name
   holds the process id and a counter, and O_EXCL makes sure no other
   writer has it. Mode 0666 less the umask, as fopen gives. */
static FILE *open_temporary(pomp_report_writer *w) {
  static _Atomic unsigned serial;
  size_t size = strlen(w->path) + 48;
  w->tmp = pu_malloc(size);
  for (int attempt = 0; attempt < 100; attempt++) {
    snprintf(w->tmp, size, "%s.part.%ld.%u", w->path, (long)getpid(), serial++);
    int fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
      close(fd);
      remove(w->tmp);
    }
    return f;
  }
  return NULL;
}

/* Whether path names something other than a regular file: the report's
   rename would replace a device or a FIFO itself (`-o /dev/null` run as
   root made /dev/null a regular file for the whole machine). */
static int special_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

pomp_report_writer *pomp_report_write_begin(const pomp_report *r, const char *path,
                                            pomp_report_error *err) {
  if (special_file(path)) {
    report_fail(err, POMP_REPORT_ERR_IO,
                "%s: not a regular file (a report is written whole and renamed over its path)",
                path);
    return NULL;
  }
  pomp_report_writer *w = pu_calloc(1, sizeof *w);
  w->r = r;
  w->path = pu_strdup(path);
  w->sorted = 1;
  w->last_metric = w->last_cnode = -1;
  w->locs = pu_malloc((r->nlocations + 1) * sizeof *w->locs);
  w->vals = pu_malloc((r->nlocations + 1) * sizeof *w->vals);
  errno = 0;
  w->f = open_temporary(w);
  if (!w->f) {
    io_fail(w, err);
    writer_free(w, 0); /* none created */
    return NULL;
  }
  /* glibc ignores the size when it chooses the buffer itself */
  w->iobuf = pu_malloc(1 << 20);
  setvbuf(w->f, w->iobuf, _IOFBF, 1 << 20);
  char *defs = report_defs_to_json(r, 0);
  w->h.major = POMP_REPORT_VERSION_MAJOR;
  w->h.minor = POMP_REPORT_VERSION_MINOR;
  w->h.defs_offset = REPORT_HEADER_SIZE;
  w->h.defs_length = strlen(defs);
  w->h.defs_checksum = report_checksum((unsigned char *)defs, w->h.defs_length);
  unsigned char header[REPORT_HEADER_SIZE] = {0}; /* rewritten at the end */
  uint64_t pos = REPORT_HEADER_SIZE + w->h.defs_length;
  int ok = fwrite(header, 1, sizeof header, w->f) == sizeof header &&
           fwrite(defs, 1, w->h.defs_length, w->f) == w->h.defs_length && pad8(w->f, &pos);
  free(defs);
  w->h.values_offset = pos;
  if (!ok) {
    io_fail(w, err);
    writer_free(w, 1);
    return NULL;
  }
  return w;
}

/* Appends one encoded row (w->row) with its entry. */
static pomp_report_status put_row(pomp_report_writer *w, report_entry *e, pomp_report_error *err) {
  if (e->metric < w->last_metric || (e->metric == w->last_metric && e->cnode <= w->last_cnode))
    w->sorted = 0;
  w->last_metric = e->metric;
  w->last_cnode = e->cnode;
  e->offset = w->h.values_length;
  errno = 0;
  if (fwrite(w->row.data, 1, w->row.len, w->f) != w->row.len) return io_fail(w, err);
  w->h.values_length += w->row.len;
  report_entry_put(report_buf_grow(&w->index, REPORT_INDEX_ENTRY), e);
  return POMP_REPORT_OK;
}

pomp_report_status pomp_report_write_row(pomp_report_writer *w, int32_t metric, int32_t cnode,
                                         const int32_t *locations, const double *values, size_t n,
                                         pomp_report_error *err) {
  const pomp_report *r = w->r;
  if (metric < 0 || (size_t)metric >= r->nmetrics || cnode < 0 || (size_t)cnode >= r->ncnodes ||
      n > r->nlocations)
    return report_fail(err, POMP_REPORT_ERR_ARG, "%s: row (metric %d, cnode %d): bad id or size",
                       w->path, metric, cnode);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (locations[i] < 0 || (size_t)locations[i] >= r->nlocations ||
        (i > 0 && locations[i] <= locations[i - 1]))
      return report_fail(err, POMP_REPORT_ERR_ARG,
                         "%s: row (metric %d, cnode %d): locations not "
                         "increasing or out of range at %zu",
                         w->path, metric, cnode, i);
    uint64_t bits;
    memcpy(&bits, &values[i], sizeof bits);
    if (bits == 0) continue; /* +0.0 is "nothing stored" */
    w->locs[k] = locations[i];
    w->vals[k++] = values[i];
  }
  if (!k) return POMP_REPORT_OK;
  int32_t nloc = (int32_t)r->nlocations;
  int enc = report_row_choose(w->locs, k, nloc);
  w->row.len = 0;
  unsigned char *p = report_buf_grow(&w->row, (size_t)report_row_size(enc, k, (uint64_t)nloc));
  report_entry e = {.metric = metric, .cnode = cnode};
  report_row_encode(&e, enc, w->locs, w->vals, k, nloc, p);
  return put_row(w, &e, err);
}

static int entry_order(const void *a, const void *b) {
  const unsigned char *x = a, *y = b;
  int32_t mx = (int32_t)le_get32(x), my = (int32_t)le_get32(y);
  if (mx != my) return mx < my ? -1 : 1;
  int32_t cx = (int32_t)le_get32(x + 4), cy = (int32_t)le_get32(y + 4);
  return (cx > cy) - (cx < cy);
}

pomp_report_status pomp_report_write_end(pomp_report_writer *w, pomp_report_error *err) {
  size_t nrows = w->index.len / REPORT_INDEX_ENTRY;
  if (!w->sorted) {
    qsort(w->index.data, nrows, REPORT_INDEX_ENTRY, entry_order);
    for (size_t i = 1; i < nrows; i++)
      if (entry_order(w->index.data + (i - 1) * REPORT_INDEX_ENTRY,
                      w->index.data + i * REPORT_INDEX_ENTRY) == 0) {
        pomp_report_status st =
            report_fail(err, POMP_REPORT_ERR_ARG, "%s: row (metric %d, cnode %d) written twice",
                        w->path, (int32_t)le_get32(w->index.data + i * REPORT_INDEX_ENTRY),
                        (int32_t)le_get32(w->index.data + i * REPORT_INDEX_ENTRY + 4));
        writer_free(w, 1);
        return st;
      }
  }
  uint64_t pos = w->h.values_offset + w->h.values_length;
  errno = 0;
  int ok = pad8(w->f, &pos);
  w->h.index_offset = pos;
  w->h.index_count = nrows;
  w->h.index_checksum = report_checksum(w->index.data, w->index.len);
  unsigned char header[REPORT_HEADER_SIZE];
  report_header_encode(&w->h, header);
  ok = ok && (!w->index.len || fwrite(w->index.data, 1, w->index.len, w->f) == w->index.len) &&
       fseek(w->f, 0, SEEK_SET) == 0 && fwrite(header, 1, sizeof header, w->f) == sizeof header;
  ok = fclose(w->f) == 0 && ok;
  w->f = NULL;
  if (!ok || rename(w->tmp, w->path) != 0) {
    pomp_report_status st = io_fail(w, err);
    writer_free(w, 1);
    return st;
  }
  writer_free(w, 0);
  return POMP_REPORT_OK;
}

void pomp_report_write_abort(pomp_report_writer *w) {
  if (w) writer_free(w, 1);
}

pomp_report_status pomp_report_write(const pomp_report *r, const char *path,
                                     pomp_report_error *err) {
  pomp_report_writer *w = pomp_report_write_begin(r, path, err);
  if (!w) return err ? err->status : POMP_REPORT_ERR_IO;
  report_freeze(r);
  const report_rows *rows = &r->rows;
  for (uint64_t i = 0; i < rows->nrows; i++) {
    /* Rows of the store are already encoded and checked: copy them. */
    report_entry e;
    report_entry_get(rows->index, i, &e);
    size_t size = (size_t)report_row_size(e.encoding, e.count, r->nlocations);
    w->row.len = 0;
    memcpy(report_buf_grow(&w->row, size), rows->values + e.offset, size);
    pomp_report_status st = put_row(w, &e, err);
    if (st) {
      writer_free(w, 1);
      return st;
    }
  }
  return pomp_report_write_end(w, err);
}
