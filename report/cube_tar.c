/* cube_tar.c -- the tar container of a .cubex: CubeW writes a POSIX ustar
   archive (512-byte headers, octal numbers, data padded to 512 bytes,
   two zero blocks at the end).  The reader takes regular files only and
   checks every header's checksum, so a damaged archive is named by the
   offset of its first bad header. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube_internal.h"
#include "pomp_util.h"

enum { BLOCK = 512 };

/* An octal field (NUL/space terminated), or GNU base-256 when the top bit
   of its first byte is set.  Returns -1 on a malformed field. */
static int64_t tar_number(const unsigned char *f, size_t len) {
  uint64_t v = 0;
  if (f[0] & 0x80) {
    if (f[0] != 0x80) return -1; /* negative or over 63 bits */
    for (size_t i = 1; i < len; i++) {
      if (v >> 55) return -1;
      v = v << 8 | f[i];
    }
    return (int64_t)v;
  }
  size_t i = 0;
  while (i < len && f[i] == ' ') i++;
  size_t digits = 0;
  for (; i < len && f[i] >= '0' && f[i] <= '7'; i++, digits++) {
    if (v >> 60) return -1;
    v = v << 3 | (uint64_t)(f[i] - '0');
  }
  for (; i < len; i++)
    if (f[i] != ' ' && f[i] != 0) return -1;
  return digits ? (int64_t)v : -1;
}

static int zero_block(const unsigned char *b) {
  for (int i = 0; i < BLOCK; i++)
    if (b[i]) return 0;
  return 1;
}

static int checksum_ok(const unsigned char *h) {
#ifdef REPORT_FUZZING /* mutations must get past the headers */
  if (tar_number(h + 148, 8) >= 0) return 1;
#endif
  int64_t want = tar_number(h + 148, 8);
  uint64_t sum = 0;
  for (int i = 0; i < BLOCK; i++) sum += (i >= 148 && i < 156) ? ' ' : h[i];
  return want >= 0 && (uint64_t)want == sum;
}

/* The ustar magic and a valid checksum: a report.pomp whose definitions
   happen to hold "ustar" at byte 257 is not taken for an archive. */
int cube_is_tar(const unsigned char *bytes, size_t n) {
  return n >= BLOCK && memcmp(bytes + 257, "ustar", 5) == 0 && checksum_ok(bytes);
}

/* prefix "/" name, each a NUL-padded field that may fill its width. */
static void member_name(const unsigned char *h, char *out, size_t size) {
  char name[101], prefix[156];
  memcpy(name, h, 100);
  name[100] = 0;
  memcpy(prefix, h + 345, 155);
  prefix[155] = 0;
  if (prefix[0] && memcmp(h + 257, "ustar\0", 6) == 0) snprintf(out, size, "%s/%s", prefix, name);
  else snprintf(out, size, "%s", name);
}

pomp_report_status cube_tar_members(const unsigned char *bytes, size_t n, const char *path,
                                    cube_member **members, size_t *count, pomp_report_error *err) {
  cube_member *m = NULL;
  size_t len = 0, cap = 0;
  uint64_t at = 0;
  const char *why = NULL;
  while (!why) {
    if (n - at < BLOCK) {
      why = "archive truncated (no end-of-archive blocks)";
      break;
    }
    const unsigned char *h = bytes + at;
    if (zero_block(h)) break; /* end of archive */
    int64_t size = tar_number(h + 124, 12);
    if (!checksum_ok(h)) why = "tar header checksum mismatch";
    else if (size < 0) why = "bad size field in tar header";
    else if ((uint64_t)size > n - at - BLOCK) why = "tar member runs past the end of the file";
    if (why) break;
    char type = (char)h[156];
    if (type == '0' || type == 0) {
      cube_member c;
      member_name(h, c.name, sizeof c.name);
      c.data = h + BLOCK;
      c.size = (uint64_t)size;
      c.offset = at + BLOCK;
      PU_PUSH(m, len, cap, c);
    }
    uint64_t padded = ((uint64_t)size + BLOCK - 1) / BLOCK * BLOCK;
    if (padded > n - at - BLOCK) padded = n - at - BLOCK; /* last member, unpadded */
    at += BLOCK + padded;
  }
  if (why) {
    free(m);
    return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset %llu: %s", path,
                       (unsigned long long)at, why);
  }
  *members = m;
  *count = len;
  return POMP_REPORT_OK;
}

const cube_member *cube_tar_find(const cube_member *m, size_t count, const char *name) {
  for (size_t i = 0; i < count; i++)
    if (strcmp(m[i].name, name) == 0) return &m[i];
  return NULL;
}

static void octal(unsigned char *f, size_t width, uint64_t v) {
  snprintf((char *)f, width, "%0*llo", (int)width - 1, (unsigned long long)v);
}

void cube_tar_put(report_buf *out, const char *name, const void *data, size_t len) {
  unsigned char *h = report_buf_grow(out, BLOCK);
  memset(h, 0, BLOCK);
  snprintf((char *)h, 100, "%s", name);
  octal(h + 100, 8, 0644);
  octal(h + 108, 8, 0);
  octal(h + 116, 8, 0);
  octal(h + 124, 12, len);
  octal(h + 136, 12, 0); /* fixed time: the same report gives the same bytes */
  h[156] = '0';
  memcpy(h + 257, "ustar", 6);
  memcpy(h + 263, "00", 2);
  memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (int i = 0; i < BLOCK; i++) sum += h[i];
  snprintf((char *)h + 148, 8, "%06o", sum); /* six digits, NUL, space */
  h[155] = ' ';
  size_t padded = (len + BLOCK - 1) / BLOCK * BLOCK;
  unsigned char *d = report_buf_grow(out, padded);
  if (len) memcpy(d, data, len);
  memset(d + len, 0, padded - len);
}

void cube_tar_end(report_buf *out) { memset(report_buf_grow(out, 2 * BLOCK), 0, 2 * BLOCK); }
