/*
 * report_format.h -- the byte layout of report.pomp (docs/FORMAT.md):
 * little-endian field access, the fixed header, index entries, the row
 * encodings and the checksum.  Everything that knows an offset lives here
 * or in report_format.c / report_row.c.
 */
#ifndef REPORT_FORMAT_H
#define REPORT_FORMAT_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "pomp_report.h"

#define REPORT_MAGIC "POMPREPT"
#define REPORT_HEADER_SIZE 128
#define REPORT_INDEX_ENTRY 40

/* Little-endian access, independent of the host byte order. */
static inline uint16_t le_get16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t le_get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t le_get64(const unsigned char *p) {
  return (uint64_t)le_get32(p) | (uint64_t)le_get32(p + 4) << 32;
}
static inline double le_getd(const unsigned char *p) {
  uint64_t bits = le_get64(p);
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
static inline void le_put16(unsigned char *p, uint16_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}
static inline void le_put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static inline void le_put64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static inline void le_putd(unsigned char *p, double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  le_put64(p, bits);
}

/* The fixed header (REPORT_HEADER_SIZE bytes at offset 0). */
typedef struct {
  uint16_t major, minor;
  uint64_t defs_offset, defs_length;
  uint64_t values_offset, values_length;
  uint64_t index_offset, index_count;
  uint64_t defs_checksum, index_checksum;
} report_header;

void report_header_encode(const report_header *h, unsigned char *out);
/* Checks magic, version, header checksum and that every section lies
   inside file_size. */
pomp_report_status report_header_decode(const unsigned char *p, uint64_t file_size,
                                        const char *path, report_header *h, pomp_report_error *err);

/* The checksum of the definitions, the index and each row (FORMAT.md). */
uint64_t report_checksum(const unsigned char *p, size_t n);
/* The fuzzer build accepts any checksum so that mutated inputs reach the
   parsers and checks behind them. */
#ifdef REPORT_FUZZING
#define REPORT_CHECKSUM_OK(stored, computed) ((void)(stored), (void)(computed), 1)
#else
#define REPORT_CHECKSUM_OK(stored, computed) ((stored) == (computed))
#endif

/* One row index entry. */
typedef struct {
  int32_t metric, cnode;
  uint64_t offset; /* from the start of the values section */
  uint32_t count;
  uint8_t encoding;
  double sum;
  uint64_t check; /* report_checksum of the row's bytes */
} report_entry;

static inline void report_entry_get(const unsigned char *index, uint64_t i, report_entry *e) {
  const unsigned char *p = index + i * REPORT_INDEX_ENTRY;
  e->metric = (int32_t)le_get32(p);
  e->cnode = (int32_t)le_get32(p + 4);
  e->offset = le_get64(p + 8);
  e->count = le_get32(p + 16);
  e->encoding = p[20];
  e->sum = le_getd(p + 24);
  e->check = le_get64(p + 32);
}
void report_entry_put(unsigned char *p, const report_entry *e);

/* Row encodings (FORMAT.md "Rows"). */
enum {
  REPORT_ENC_DENSE = 0, /* every location: count doubles */
  REPORT_ENC_RANGE,     /* uint32 first location, count doubles */
  REPORT_ENC_IDX16,     /* count uint16 locations, count doubles */
  REPORT_ENC_IDX32,     /* count uint32 locations, count doubles */
  REPORT_ENC_BITMAP,    /* ceil(L/8) bytes of bits, count doubles */
  REPORT_ENC_COUNT
};

/* Bytes of a row with this encoding; 0 if the encoding cannot hold it. */
uint64_t report_row_size(int encoding, uint64_t count, uint64_t nlocations);
/* Chooses the smallest encoding for n strictly increasing locations. */
int report_row_choose(const int32_t *locs, size_t n, int32_t nlocations);
/* Writes the row into out (report_row_size bytes) and sets e->count,
   encoding, sum (values added in location order) and check. */
void report_row_encode(report_entry *e, int encoding, const int32_t *locs, const double *vals,
                       size_t n, int32_t nlocations, unsigned char *out);
/* Decodes and checks a row (checksum, locations increasing and in range,
   bitmap count, sum).  Fills locs/vals (count entries) unless they are NULL
   (a check only).  Returns 0 or a message describing the fault in why[128]. */
int report_row_decode(const report_entry *e, const unsigned char *p, int32_t nlocations,
                      int32_t *locs, double *vals, char why[128]);

/* The value of one location of a row that report_row_decode has checked,
   read in place: dense and range by position, idx16/idx32 by binary
   search, bitmap by counting the set bits below it.  Returns 0 when the
   row holds no value there.  location < nlocations. */
int report_row_find(const report_entry *e, const unsigned char *p, int32_t nlocations,
                    int32_t location, double *value);

#endif /* REPORT_FORMAT_H */
