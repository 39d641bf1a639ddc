/* report_row.c -- encoding and checked decoding of one (metric, cnode) row
   of values over locations.  Layouts: docs/FORMAT.md, "Rows". */
#include "report_format.h"

#include <math.h>
#include <stdio.h>

uint64_t report_row_size(int encoding, uint64_t count, uint64_t nlocations) {
  switch (encoding) {
  case REPORT_ENC_DENSE: return count == nlocations ? 8 * count : 0;
  case REPORT_ENC_RANGE: return 4 + 8 * count;
  case REPORT_ENC_IDX16: return nlocations <= 65536 ? 10 * count : 0;
  case REPORT_ENC_IDX32: return 12 * count;
  case REPORT_ENC_BITMAP: return (nlocations + 7) / 8 + 8 * count;
  default: return 0;
  }
}

int report_row_choose(const int32_t *locs, size_t n, int32_t nlocations) {
  int contiguous = n > 0 && locs[n - 1] - locs[0] == (int32_t)(n - 1);
  int best = REPORT_ENC_IDX32;
  uint64_t best_size = report_row_size(best, n, (uint64_t)nlocations);
  /* Ties go to the earlier (simpler) encoding. */
  for (int enc = REPORT_ENC_BITMAP; enc >= REPORT_ENC_DENSE; enc--) {
    if (enc == REPORT_ENC_IDX32 || (enc == REPORT_ENC_RANGE && !contiguous)) continue;
    uint64_t size = report_row_size(enc, n, (uint64_t)nlocations);
    if (size && size <= best_size) {
      best = enc;
      best_size = size;
    }
  }
  return best;
}

void report_row_encode(report_entry *e, int encoding, const int32_t *locs, const double *vals,
                       size_t n, int32_t nlocations, unsigned char *out) {
  unsigned char *v = out;
  switch (encoding) {
  case REPORT_ENC_RANGE:
    le_put32(out, (uint32_t)locs[0]);
    v = out + 4;
    break;
  case REPORT_ENC_IDX16:
    for (size_t i = 0; i < n; i++) le_put16(out + 2 * i, (uint16_t)locs[i]);
    v = out + 2 * n;
    break;
  case REPORT_ENC_IDX32:
    for (size_t i = 0; i < n; i++) le_put32(out + 4 * i, (uint32_t)locs[i]);
    v = out + 4 * n;
    break;
  case REPORT_ENC_BITMAP: {
    size_t bytes = ((size_t)nlocations + 7) / 8;
    memset(out, 0, bytes);
    for (size_t i = 0; i < n; i++) out[locs[i] / 8] |= (unsigned char)(1u << (locs[i] % 8));
    v = out + bytes;
    break;
  }
  default: break;
  }
  double sum = 0.0;
  for (size_t i = 0; i < n; i++) {
    le_putd(v + 8 * i, vals[i]);
    sum += vals[i];
  }
  e->count = (uint32_t)n;
  e->encoding = (uint8_t)encoding;
  e->sum = sum;
  e->check = report_checksum(out, (size_t)report_row_size(encoding, n, (uint64_t)nlocations));
}

/* Reads the locations of a row into locs; returns the start of the values
   or NULL with why set. */
static const unsigned char *decode_locations(const report_entry *e, const unsigned char *p,
                                             int32_t nloc, int32_t *locs, char why[128]) {
  uint32_t n = e->count;
  switch (e->encoding) {
  case REPORT_ENC_DENSE:
    for (uint32_t i = 0; locs && i < n; i++) locs[i] = (int32_t)i;
    return p;
  case REPORT_ENC_RANGE: {
    uint32_t first = le_get32(p);
    if (first > (uint32_t)nloc || n > (uint32_t)nloc - first) {
      snprintf(why, 128, "location range %u+%u beyond %d locations", first, n, nloc);
      return NULL;
    }
    for (uint32_t i = 0; locs && i < n; i++) locs[i] = (int32_t)(first + i);
    return p + 4;
  }
  case REPORT_ENC_IDX16:
  case REPORT_ENC_IDX32: {
    int wide = e->encoding == REPORT_ENC_IDX32;
    int64_t prev = -1;
    for (uint32_t i = 0; i < n; i++) {
      int64_t l = wide ? le_get32(p + 4 * (size_t)i) : le_get16(p + 2 * (size_t)i);
      if (l <= prev || l >= nloc) {
        snprintf(why, 128, "location %lld at entry %u out of order or range", (long long)l, i);
        return NULL;
      }
      if (locs) locs[i] = (int32_t)l;
      prev = l;
    }
    return p + (size_t)n * (wide ? 4 : 2);
  }
  case REPORT_ENC_BITMAP: {
    /* 64 locations per step; each set bit found with count-trailing-zeros */
    size_t bytes = ((size_t)nloc + 7) / 8;
    uint32_t k = 0;
    for (size_t w = 0; w < bytes; w += 8) {
      unsigned char chunk[8] = {0};
      memcpy(chunk, p + w, bytes - w < 8 ? bytes - w : 8);
      for (uint64_t word = le_get64(chunk); word; word &= word - 1) {
        int64_t l = (int64_t)(w * 8) + __builtin_ctzll(word);
        if (l >= nloc || k == n) {
          snprintf(why, 128,
                   "bitmap holds more than %u locations or bits "
                   "beyond %d",
                   n, nloc);
          return NULL;
        }
        if (locs) locs[k] = (int32_t)l;
        k++;
      }
    }
    if (k != n) {
      snprintf(why, 128, "bitmap holds %u locations, index says %u", k, n);
      return NULL;
    }
    return p + bytes;
  }
  default: snprintf(why, 128, "unknown encoding %u", e->encoding); return NULL;
  }
}

int report_row_decode(const report_entry *e, const unsigned char *p, int32_t nlocations,
                      int32_t *locs, double *vals, char why[128]) {
  size_t size = (size_t)report_row_size(e->encoding, e->count, (uint64_t)nlocations);
  if (!REPORT_CHECKSUM_OK(e->check, report_checksum(p, size))) {
    snprintf(why, 128, "row checksum mismatch");
    return -1;
  }
  const unsigned char *v = decode_locations(e, p, nlocations, locs, why);
  if (!v) return -1;
  double sum = 0.0;
  for (uint32_t i = 0; i < e->count; i++) {
    double x = le_getd(v + 8 * (size_t)i);
    if (vals) vals[i] = x;
    sum += x;
  }
  /* The stored sum was added in the same order, so any intact row gives
     the same bits; a changed value almost always changes the sum. */
  if (!(sum == e->sum || (isnan(sum) && isnan(e->sum)))) {
    snprintf(why, 128, "values do not add up to the row sum %.17g", e->sum);
    return -1;
  }
  return 0;
}

/* Index of the first entry >= location among n sorted locations of width
   2 or 4 bytes. */
static uint32_t lower_bound(const unsigned char *p, uint32_t n, int wide, uint32_t location) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    uint32_t l = wide ? le_get32(p + 4 * (size_t)mid) : le_get16(p + 2 * (size_t)mid);
    if (l < location) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Set bits of the bitmap before bit `location`, eight bytes at a time. */
static uint32_t bits_before(const unsigned char *p, uint32_t location) {
  uint32_t k = 0, byte = location / 8;
  size_t w = 0;
  for (; w + 8 <= byte; w += 8) k += (uint32_t)__builtin_popcountll(le_get64(p + w));
  for (; w < byte; w++) k += (uint32_t)__builtin_popcount(p[w]);
  return k + (uint32_t)__builtin_popcount(p[byte] & ((1u << (location % 8)) - 1));
}

int report_row_find(const report_entry *e, const unsigned char *p, int32_t nlocations,
                    int32_t location, double *value) {
  uint32_t n = e->count, l = (uint32_t)location, k;
  const unsigned char *v;
  switch (e->encoding) {
  case REPORT_ENC_DENSE: k = l, v = p; break;
  case REPORT_ENC_RANGE: {
    uint32_t first = le_get32(p);
    if (l < first || l - first >= n) return 0;
    k = l - first, v = p + 4;
    break;
  }
  case REPORT_ENC_IDX16:
  case REPORT_ENC_IDX32: {
    int wide = e->encoding == REPORT_ENC_IDX32;
    k = lower_bound(p, n, wide, l);
    if (k == n || (wide ? le_get32(p + 4 * (size_t)k) : le_get16(p + 2 * (size_t)k)) != l) return 0;
    v = p + (size_t)n * (wide ? 4 : 2);
    break;
  }
  case REPORT_ENC_BITMAP:
    if (!(p[l / 8] >> (l % 8) & 1)) return 0;
    k = bits_before(p, l);
    v = p + ((size_t)nlocations + 7) / 8;
    break;
  default: return 0;
  }
  *value = le_getd(v + 8 * (size_t)k);
  return 1;
}
