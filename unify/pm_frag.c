/* pm_frag.c -- the fragment codec (pomp_unify.h). The reader trusts nothing: a fragment may
   be cut short by a kill, or damaged on disk, and pomp-recover must then
   name the byte where it goes wrong instead of crashing. */
#include "pomp_unify.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

uint64_t pm_frag_checksum(const unsigned char *data, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) h = (h ^ data[i]) * 0x100000001b3ull;
  return h;
}

void pm_frag_encode(pm_blob *out, const pm_frag *f) {
  size_t start = out->len;
  pm_blob_put(out, PM_FRAG_MAGIC, 8);
  pm_blob_u32(out, PM_FRAG_VERSION);
  uint32_t head[5] = {f->rank, f->nranks, f->mpi, f->complete, f->noffsets};
  for (int i = 0; i < 5; i++) pm_blob_u32(out, head[i]);
  uint64_t sizes[4] = {f->evt_chunk, f->def_chunk, f->mono_now, f->real_now};
  for (int i = 0; i < 4; i++) pm_blob_u64(out, sizes[i]);
  pm_blob_str(out, f->reason ? f->reason : "");
  pm_blob_str(out, f->host ? f->host : "");
  pm_blob_str(out, f->boot_id ? f->boot_id : "");
  pm_blob_u32(out, f->pid);
  pm_blob_u64(out, f->start);
  for (uint32_t i = 0; i < f->noffsets && i < PM_FRAG_MAX_OFFSETS; i++) {
    pm_blob_u64(out, f->offset_time[i]);
    pm_blob_u64(out, (uint64_t)f->offset[i]);
  }
  pm_blob_u32(out, f->defs_len);
  pm_blob_put(out, f->defs, f->defs_len);
  pm_blob_u64(out, pm_frag_checksum(out->data + start, out->len - start));
}

static int fail(size_t *at, const char **what, size_t where, const char *why) {
  *at = where;
  *what = why;
  return -1;
}

int pm_frag_decode(const unsigned char *data, size_t len, pm_frag *f, size_t *at,
                   const char **what) {
  memset(f, 0, sizeof *f);
  if (len < 8 || memcmp(data, PM_FRAG_MAGIC, 8) != 0)
    return fail(at, what, 0, "not a pomp fragment (no POMPFRAG magic)");
  pm_cursor c = {data + 8, data + len, 0};
#define HERE ((size_t)(c.p - data))
#define CUT() fail(at, what, HERE, "fragment ends early (truncated)")
  uint32_t version = pm_get_u32(&c);
  if (c.bad) return CUT();
  if (version == 2) /* its event files are named by the old location ids */
    return fail(at, what, 8,
                "fragment version 2 (location ids rank << 32 | thread): recover it with the "
                "pomp that wrote it");
  if (version != PM_FRAG_VERSION) return fail(at, what, 8, "unsupported fragment version");
  uint32_t *head[5] = {&f->rank, &f->nranks, &f->mpi, &f->complete, &f->noffsets};
  for (int i = 0; i < 5; i++) *head[i] = pm_get_u32(&c);
  uint64_t *sizes[4] = {&f->evt_chunk, &f->def_chunk, &f->mono_now, &f->real_now};
  for (int i = 0; i < 4; i++) *sizes[i] = pm_get_u64(&c);
  if (c.bad) return CUT();
  if (f->nranks == 0) return fail(at, what, 16, "number of ranks is 0");
  if (f->rank >= f->nranks) return fail(at, what, 12, "rank not below the number of ranks");
  if (f->mpi > 1) return fail(at, what, 20, "MPI flag is neither 0 nor 1");
  if (f->complete > 1) return fail(at, what, 24, "complete flag is neither 0 nor 1");
  if (f->noffsets > PM_FRAG_MAX_OFFSETS) return fail(at, what, 28, "too many clock offsets");
  if (f->evt_chunk < OTF2_CHUNK_SIZE_MIN || f->evt_chunk > OTF2_CHUNK_SIZE_MAX)
    return fail(at, what, 32, "event chunk size out of OTF2's range");
  if (f->def_chunk < OTF2_CHUNK_SIZE_MIN || f->def_chunk > OTF2_CHUNK_SIZE_MAX)
    return fail(at, what, 40, "definition chunk size out of OTF2's range");
  size_t reason_at = HERE;
  f->reason = pm_get_str(&c);
  if (c.bad) return fail(at, what, reason_at, "reason text is cut or not terminated");
  size_t host_at = HERE;
  f->host = pm_get_str(&c);
  f->boot_id = pm_get_str(&c);
  if (c.bad) return fail(at, what, host_at, "host or boot id is cut or not terminated");
  f->pid = pm_get_u32(&c);
  f->start = pm_get_u64(&c);
  for (uint32_t i = 0; i < f->noffsets; i++) {
    f->offset_time[i] = pm_get_u64(&c);
    f->offset[i] = (int64_t)pm_get_u64(&c);
  }
  size_t defs_len_at = HERE;
  f->defs_len = pm_get_u32(&c);
  if (c.bad) return CUT();
  if (f->defs_len > (size_t)(c.end - c.p))
    return fail(at, what, defs_len_at, "definitions longer than the fragment (truncated)");
  f->defs = c.p;
  f->defs_at = HERE;
  c.p += f->defs_len;
  size_t sum_at = HERE;
  uint64_t sum = pm_get_u64(&c);
  if (c.bad) return CUT();
  if (c.p != c.end) return fail(at, what, HERE, "bytes after the checksum");
  if (sum != pm_frag_checksum(data, sum_at))
    return fail(at, what, sum_at, "checksum mismatch (the fragment is damaged)");
  return 0;
#undef CUT
#undef HERE
}

/* One small file into buf (NUL-terminated); its length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, size - 1);
  close(fd);
  if (n < 0) return -1;
  buf[n] = '\0';
  return n;
}

void pm_frag_boot_id(char *buf, size_t size) {
  if (read_small("/proc/sys/kernel/random/boot_id", buf, size) < 0) buf[0] = '\0';
  buf[strcspn(buf, "\n")] = '\0';
}

int pm_frag_process_start(uint32_t pid, uint64_t *start) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%u/stat", pid);
  if (read_small(path, buf, sizeof buf) <= 0) return -1;
  /* "pid (comm) S ...": comm may hold spaces and parentheses; the state
     follows the last ')', the start time is the 20th field after it */
  char *p = strrchr(buf, ')');
  if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X') return -1;
  p += 2;
  unsigned long flags = 0;
  for (int field = 3; field < 22 && p; field++) {
    p = strchr(p, ' ');
    if (p) p++;
    if (p && field + 1 == 9) flags = strtoul(p, NULL, 10);
  }
  if (!p || (flags & 0x4)) return -1; /* 0x4: PF_EXITING, killed and on its way out */
  *start = strtoull(p, NULL, 10);
  return 0;
}
