/* pm_dwarf.c -- source file and line of functions from the DWARF line
 * tables (.debug_line, versions 2 to 5) of an ELF image: the line of the
 * first row at a function's start address. Only what that needs: no
 * libdw. Every read is bounds-checked (images come from disk, and this is
 * fuzzed); a damaged table just leaves functions without a line.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_user.h"
#include "pomp_util.h"

typedef struct rd {
  const unsigned char *p, *end;
  int bad;
} rd;

static uint64_t take(rd *r, size_t n) {
  uint64_t v = 0;
  if (r->bad || (size_t)(r->end - r->p) < n) {
    r->bad = 1;
    return 0;
  }
  for (size_t i = 0; i < n && i < 8; i++) v |= (uint64_t)r->p[i] << (8 * i); /* little endian */
  r->p += n;
  return v;
}

static uint64_t uleb(rd *r) {
  uint64_t v = 0;
  for (int shift = 0; !r->bad; shift += 7) {
    uint64_t b = take(r, 1);
    if (shift < 64) v |= (b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  return v;
}

static int64_t sleb(rd *r) {
  uint64_t v = 0, b = 0;
  int shift = 0;
  do {
    b = take(r, 1);
    if (shift < 64) v |= (b & 0x7f) << shift;
    shift += 7;
  } while ((b & 0x80) && !r->bad);
  if (shift < 64 && (b & 0x40)) v |= ~(uint64_t)0 << shift;
  return (int64_t)v;
}

static const char *cstr(rd *r) {
  const unsigned char *nul = r->bad ? NULL : memchr(r->p, 0, (size_t)(r->end - r->p));
  if (!nul) {
    r->bad = 1;
    return "";
  }
  const char *s = (const char *)r->p;
  r->p = nul + 1;
  return s;
}

/* A string at offset off of a string section, or "". */
static const char *str_at(const rd *sec, uint64_t off) {
  if (off >= (uint64_t)(sec->end - sec->p)) return "";
  const unsigned char *nul = memchr(sec->p + off, 0, (size_t)(sec->end - sec->p - off));
  return nul ? (const char *)sec->p + off : "";
}

/* ------------------------------------------------------------- sections */

static int section_named(const unsigned char *img, size_t size, const char *name, rd *out) {
  size_t off, len;
  if (!pm_elf_section(img, size, name, &off, &len)) return 0;
  *out = (rd){img + off, img + off + len, 0};
  return 1;
}

/* ------------------------------------------------------- one line table */

typedef struct unit {
  int version, offset64, address_size;
  unsigned min_inst, line_range, opcode_base;
  int line_base;
  unsigned char std_lengths[256];
  const char **dirs, **files; /* v5: index 0 is the first; v2-4: 1 is */
  size_t ndirs, nfiles, cap_dirs, cap_files;
  uint32_t *file_dirs;
  size_t cap_file_dirs, nfile_dirs;
} unit;

typedef struct strings {
  char **v;
  size_t n, cap;
} strings;

typedef struct ctx {
  rd line_str, str;
  pm_elf_symbol *syms;
  size_t nsyms;
  strings *out;
} ctx;

/* A DWARF 5 entry attribute of form `form`: a string, a number, or skipped. */
static const char *form_value(ctx *c, rd *r, const unit *u, uint64_t form, uint64_t *num) {
  size_t off = u->offset64 ? 8 : 4;
  *num = 0;
  switch (form) {
  case 0x08: return cstr(r);                            /* DW_FORM_string */
  case 0x1f: return str_at(&c->line_str, take(r, off)); /* DW_FORM_line_strp */
  case 0x0e: return str_at(&c->str, take(r, off));      /* DW_FORM_strp */
  case 0x0f: *num = uleb(r); return NULL;               /* DW_FORM_udata */
  case 0x0b: *num = take(r, 1); return NULL;            /* DW_FORM_data1 */
  case 0x05: *num = take(r, 2); return NULL;            /* DW_FORM_data2 */
  case 0x06: *num = take(r, 4); return NULL;            /* DW_FORM_data4 */
  case 0x07: *num = take(r, 8); return NULL;            /* DW_FORM_data8 */
  case 0x1e: take(r, 16); return NULL;                  /* DW_FORM_data16 */
  case 0x09: {                                          /* DW_FORM_block */
    uint64_t n = uleb(r);
    if (n > (uint64_t)(r->end - r->p)) r->bad = 1;
    else r->p += n;
    return NULL;
  }
  default: r->bad = 1; return NULL;
  }
}

/* DWARF 5 directory or file entries: paths (and directory indexes). */
static void entries_v5(ctx *c, rd *r, unit *u, int files) {
  uint64_t fmt[2 * 16];
  unsigned nfmt = (unsigned)take(r, 1);
  if (nfmt > 16) r->bad = 1;
  for (unsigned i = 0; i < nfmt && !r->bad; i++) fmt[2 * i] = uleb(r), fmt[2 * i + 1] = uleb(r);
  uint64_t count = uleb(r);
  /* every entry takes at least a byte: a count beyond that is damage */
  if (count > (uint64_t)(r->end - r->p) || (nfmt == 0 && count)) r->bad = 1;
  for (uint64_t k = 0; k < count && !r->bad; k++) {
    const char *path = "";
    uint64_t dir = 0;
    for (unsigned i = 0; i < nfmt && !r->bad; i++) {
      uint64_t num;
      const char *s = form_value(c, r, u, fmt[2 * i + 1], &num);
      if (fmt[2 * i] == 1 && s) path = s; /* DW_LNCT_path */
      if (fmt[2 * i] == 2) dir = num;     /* DW_LNCT_directory_index */
    }
    if (files) {
      PU_PUSH(u->files, u->nfiles, u->cap_files, path);
      uint32_t d = (uint32_t)dir;
      PU_PUSH(u->file_dirs, u->nfile_dirs, u->cap_file_dirs, d);
    } else {
      PU_PUSH(u->dirs, u->ndirs, u->cap_dirs, path);
    }
  }
}

/* DWARF 2-4: include_directories and file_names, both ended by "". */
static void entries_v4(rd *r, unit *u) {
  const char *none = "";
  PU_PUSH(u->dirs, u->ndirs, u->cap_dirs, none); /* index 0: the compilation dir */
  for (const char *d; !r->bad && *(d = cstr(r));) PU_PUSH(u->dirs, u->ndirs, u->cap_dirs, d);
  uint32_t zero = 0;
  PU_PUSH(u->files, u->nfiles, u->cap_files, none); /* file 0 unused before v5 */
  PU_PUSH(u->file_dirs, u->nfile_dirs, u->cap_file_dirs, zero);
  for (const char *f; !r->bad && *(f = cstr(r));) {
    uint32_t dir = (uint32_t)uleb(r);
    uleb(r), uleb(r); /* mtime, length */
    PU_PUSH(u->files, u->nfiles, u->cap_files, f);
    PU_PUSH(u->file_dirs, u->nfile_dirs, u->cap_file_dirs, dir);
  }
}

/* The path of file index f: "dir/name" unless name is absolute. */
static const char *file_path(ctx *c, const unit *u, uint64_t f) {
  if (f >= u->nfiles) return NULL;
  const char *name = u->files[f];
  uint32_t d = u->file_dirs[f];
  const char *dir = d < u->ndirs ? u->dirs[d] : "";
  size_t len = strlen(dir) + strlen(name) + 2;
  char *path = pu_malloc(len);
  if (name[0] == '/' || !dir[0]) snprintf(path, len, "%s", name);
  else snprintf(path, len, "%s/%s", dir, name);
  /* one copy per distinct path of the image */
  for (size_t i = c->out->n; i-- > 0;)
    if (!strcmp(c->out->v[i], path)) {
      free(path);
      return c->out->v[i];
    }
  PU_PUSH(c->out->v, c->out->n, c->out->cap, path);
  return path;
}

/* A row of the line table: a function starting at addr gets its line. */
static void row(ctx *c, const unit *u, uint64_t addr, uint64_t file, int64_t line) {
  size_t lo = 0, hi = c->nsyms;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->syms[mid].value < addr) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < c->nsyms && c->syms[lo].value == addr; lo++) {
    if (c->syms[lo].line || line <= 0) continue;
    const char *path = file_path(c, u, file);
    if (!path) continue;
    c->syms[lo].file = path;
    c->syms[lo].line = (uint32_t)line;
  }
}

static void run_program(ctx *c, rd *r, const unit *u) {
  uint64_t addr = 0, file = 1;
  int64_t line = 1;
  while (r->p < r->end && !r->bad) {
    unsigned op = (unsigned)take(r, 1);
    if (op >= u->opcode_base) { /* special opcode */
      unsigned adj = op - u->opcode_base;
      addr += (adj / u->line_range) * u->min_inst;
      line += u->line_base + (int)(adj % u->line_range);
      row(c, u, addr, file, line);
      continue;
    }
    switch (op) {
    case 0: { /* extended */
      uint64_t len = uleb(r);
      if (!len || len > (uint64_t)(r->end - r->p)) {
        r->bad = 1;
        break;
      }
      const unsigned char *next = r->p + len;
      unsigned sub = (unsigned)take(r, 1);
      if (sub == 1) { /* end_sequence: addr is the first byte AFTER the
                         sequence, often the next unit's first function;
                         it is no row of this unit */
        addr = 0, file = 1, line = 1;
      } else if (sub == 2 && len - 1 <= 8) {
        addr = take(r, (size_t)(len - 1));
      }
      r->p = next;
      break;
    }
    case 1: row(c, u, addr, file, line); break;   /* copy */
    case 2: addr += uleb(r) * u->min_inst; break; /* advance_pc */
    case 3: line += sleb(r); break;               /* advance_line */
    case 4: file = uleb(r); break;                /* set_file */
    case 8: addr += ((255 - u->opcode_base) / u->line_range) * u->min_inst; break;
    case 9: addr += take(r, 2); break; /* fixed_advance_pc */
    default:                           /* skip the ULEB operands */
      for (unsigned i = 0; i < u->std_lengths[op]; i++) uleb(r);
    }
  }
}

/* One unit at r (which is advanced past it); 0 when the section ends. */
static int one_unit(ctx *c, rd *r) {
  unit u = {0};
  uint64_t len = take(r, 4);
  if (len == 0xffffffff) u.offset64 = 1, len = take(r, 8);
  if (r->bad || len > (uint64_t)(r->end - r->p)) return 0;
  rd body = {r->p, r->p + len, 0};
  r->p += len;
  u.version = (int)take(&body, 2);
  if (u.version < 2 || u.version > 5) return 1;
  if (u.version >= 5) u.address_size = (int)take(&body, 1), take(&body, 1);
  uint64_t hlen = take(&body, u.offset64 ? 8 : 4);
  if (body.bad || hlen > (uint64_t)(body.end - body.p)) return 1;
  rd prog = {body.p + hlen, body.end, 0};
  u.min_inst = (unsigned)take(&body, 1);
  if (u.version >= 4) take(&body, 1); /* maximum_operations_per_instruction */
  take(&body, 1);                     /* default_is_stmt */
  u.line_base = (signed char)take(&body, 1);
  u.line_range = (unsigned)take(&body, 1);
  u.opcode_base = (unsigned)take(&body, 1);
  if (!u.line_range || !u.opcode_base) return 1;
  for (unsigned i = 1; i < u.opcode_base; i++) u.std_lengths[i] = (unsigned char)take(&body, 1);
  if (u.version >= 5) {
    entries_v5(c, &body, &u, 0);
    entries_v5(c, &body, &u, 1);
  } else {
    entries_v4(&body, &u);
  }
  if (!body.bad) run_program(c, &prog, &u);
  free(u.dirs);
  free(u.files);
  free(u.file_dirs);
  return 1;
}

char **pm_dwarf_lines(const unsigned char *img, size_t size, pm_elf_symbol *syms, size_t nsyms,
                      size_t *nfiles) {
  strings out = {0};
  ctx c = {.syms = syms, .nsyms = nsyms, .out = &out};
  rd lines;
  *nfiles = 0;
  if (!nsyms || !pm_elf_valid(img, size) || !section_named(img, size, ".debug_line", &lines))
    return NULL;
  if (!section_named(img, size, ".debug_line_str", &c.line_str)) c.line_str = (rd){0};
  if (!section_named(img, size, ".debug_str", &c.str)) c.str = (rd){0};
  while (lines.p < lines.end && !lines.bad && one_unit(&c, &lines)) {
  }
  *nfiles = out.n;
  return out.v;
}
