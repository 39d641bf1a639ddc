/* report_format.c -- the fixed header, index entries and the checksum of
   report.pomp.  Offsets are listed in docs/FORMAT.md, "Header". */
#include "report_format.h"

#include "report_internal.h"

enum {
  H_MAGIC = 0,
  H_MAJOR = 8,
  H_MINOR = 10,
  H_HEADER_SIZE = 12,
  H_DEFS_OFFSET = 16,
  H_DEFS_LENGTH = 24,
  H_VALUES_OFFSET = 32,
  H_VALUES_LENGTH = 40,
  H_INDEX_OFFSET = 48,
  H_INDEX_COUNT = 56,
  H_ENTRY_SIZE = 64,
  H_DEFS_CHECKSUM = 72,
  H_INDEX_CHECKSUM = 80,
  H_CHECKSUM = 120 /* of bytes 0..119 */
};

/* A multiplicative hash over 64-bit little-endian words in four
   independent lanes (so the multiplies overlap), folded together at the
   end.  Cheap enough to check every row as it is decoded and a 50 MB index
   while opening, and sensitive to every bit and to word order.  The exact
   definition is in docs/FORMAT.md, "Checksum". */
#define CHECK_MUL 0xff51afd7ed558ccdu

static uint64_t check_step(uint64_t h, uint64_t w) {
  h = (h ^ w) * CHECK_MUL;
  return h ^ (h >> 32);
}

uint64_t report_checksum(const unsigned char *p, size_t n) {
  uint64_t lane[4] = {0x9e3779b97f4a7c15u ^ (uint64_t)n, 1, 2, 3};
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int k = 0; k < 4; k++) lane[k] = check_step(lane[k], le_get64(p + i + 8 * (size_t)k));
  uint64_t h = lane[0];
  for (int k = 1; k < 4; k++) h = check_step(h, lane[k]);
  for (; i + 8 <= n; i += 8) h = check_step(h, le_get64(p + i));
  if (i < n) {
    unsigned char tail[8] = {0};
    memcpy(tail, p + i, n - i);
    h = check_step(h, le_get64(tail));
  }
  return h;
}

void report_header_encode(const report_header *h, unsigned char *out) {
  memset(out, 0, REPORT_HEADER_SIZE);
  memcpy(out + H_MAGIC, REPORT_MAGIC, 8);
  le_put16(out + H_MAJOR, h->major);
  le_put16(out + H_MINOR, h->minor);
  le_put32(out + H_HEADER_SIZE, REPORT_HEADER_SIZE);
  le_put64(out + H_DEFS_OFFSET, h->defs_offset);
  le_put64(out + H_DEFS_LENGTH, h->defs_length);
  le_put64(out + H_VALUES_OFFSET, h->values_offset);
  le_put64(out + H_VALUES_LENGTH, h->values_length);
  le_put64(out + H_INDEX_OFFSET, h->index_offset);
  le_put64(out + H_INDEX_COUNT, h->index_count);
  le_put32(out + H_ENTRY_SIZE, REPORT_INDEX_ENTRY);
  le_put64(out + H_DEFS_CHECKSUM, h->defs_checksum);
  le_put64(out + H_INDEX_CHECKSUM, h->index_checksum);
  le_put64(out + H_CHECKSUM, report_checksum(out, H_CHECKSUM));
}

/* Is [off, off + len) inside a file of size bytes? */
static int section_fits(uint64_t off, uint64_t len, uint64_t size) {
  return off <= size && len <= size - off;
}

pomp_report_status report_header_decode(const unsigned char *p, uint64_t file_size,
                                        const char *path, report_header *h,
                                        pomp_report_error *err) {
  if (file_size < 8 || memcmp(p + H_MAGIC, REPORT_MAGIC, 8) != 0)
    return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset 0: not a pomp report (bad magic)",
                       path);
  if (file_size < REPORT_HEADER_SIZE)
    return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset %llu: header truncated", path,
                       (unsigned long long)file_size);
  h->major = le_get16(p + H_MAJOR);
  h->minor = le_get16(p + H_MINOR);
  if (h->major > POMP_REPORT_VERSION_MAJOR)
    return report_fail(err, POMP_REPORT_ERR_VERSION,
                       "%s: offset %d: format version %u.%u is newer than "
                       "this reader (%d.%d)",
                       path, H_MAJOR, h->major, h->minor, POMP_REPORT_VERSION_MAJOR,
                       POMP_REPORT_VERSION_MINOR);
  if (!REPORT_CHECKSUM_OK(le_get64(p + H_CHECKSUM), report_checksum(p, H_CHECKSUM)))
    return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset %d: header checksum mismatch", path,
                       H_CHECKSUM);
  if (h->major < 1 || le_get32(p + H_HEADER_SIZE) != REPORT_HEADER_SIZE ||
      le_get32(p + H_ENTRY_SIZE) != REPORT_INDEX_ENTRY)
    return report_fail(err, POMP_REPORT_ERR_FORMAT,
                       "%s: offset %d: unsupported header or entry size", path, H_HEADER_SIZE);
  h->defs_offset = le_get64(p + H_DEFS_OFFSET);
  h->defs_length = le_get64(p + H_DEFS_LENGTH);
  h->values_offset = le_get64(p + H_VALUES_OFFSET);
  h->values_length = le_get64(p + H_VALUES_LENGTH);
  h->index_offset = le_get64(p + H_INDEX_OFFSET);
  h->index_count = le_get64(p + H_INDEX_COUNT);
  h->defs_checksum = le_get64(p + H_DEFS_CHECKSUM);
  h->index_checksum = le_get64(p + H_INDEX_CHECKSUM);
  if (!section_fits(h->defs_offset, h->defs_length, file_size))
    return report_fail(err, POMP_REPORT_ERR_FORMAT,
                       "%s: offset %llu: definitions run past the end of the "
                       "file (%llu bytes; truncated?)",
                       path, (unsigned long long)h->defs_offset, (unsigned long long)file_size);
  if (!section_fits(h->values_offset, h->values_length, file_size))
    return report_fail(err, POMP_REPORT_ERR_FORMAT,
                       "%s: offset %llu: values run past the end of the file "
                       "(%llu bytes; truncated?)",
                       path, (unsigned long long)h->values_offset, (unsigned long long)file_size);
  if (h->index_count > UINT64_MAX / REPORT_INDEX_ENTRY ||
      !section_fits(h->index_offset, h->index_count * REPORT_INDEX_ENTRY, file_size))
    return report_fail(err, POMP_REPORT_ERR_FORMAT,
                       "%s: offset %llu: row index runs past the end of the "
                       "file (%llu bytes; truncated?)",
                       path, (unsigned long long)h->index_offset, (unsigned long long)file_size);
  return POMP_REPORT_OK;
}

void report_entry_put(unsigned char *p, const report_entry *e) {
  le_put32(p, (uint32_t)e->metric);
  le_put32(p + 4, (uint32_t)e->cnode);
  le_put64(p + 8, e->offset);
  le_put32(p + 16, e->count);
  p[20] = e->encoding;
  p[21] = p[22] = p[23] = 0;
  le_putd(p + 24, e->sum);
  le_put64(p + 32, e->check);
}
