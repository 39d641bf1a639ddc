/* pm_elf.c -- function symbols of an ELF64 image, read with every offset
   checked against the image size (the image is a file on disk: it may be
   truncated or damaged, and it is fuzzed). No libelf needed. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "pm_user.h"
#include "pomp_util.h"

/* The section header i, if the table and the section's bytes fit. */
static int section(const unsigned char *img, size_t size, const Elf64_Ehdr *eh, size_t i,
                   Elf64_Shdr *sh) {
  if (i >= eh->e_shnum) return 0;
  memcpy(sh, img + eh->e_shoff + i * sizeof *sh, sizeof *sh);
  if (sh->sh_type == SHT_NOBITS) return 0;
  return sh->sh_offset <= size && sh->sh_size <= size - sh->sh_offset;
}

static int by_value(const void *a, const void *b) {
  const pm_elf_symbol *x = a, *y = b;
  return x->value < y->value ? -1 : x->value > y->value;
}

int pm_elf_section(const unsigned char *img, size_t size, const char *name, size_t *off,
                   size_t *len) {
  if (!pm_elf_valid(img, size)) return 0;
  Elf64_Ehdr eh;
  memcpy(&eh, img, sizeof eh);
  Elf64_Shdr names, sh;
  if (!section(img, size, &eh, eh.e_shstrndx, &names)) return 0;
  size_t want = strlen(name) + 1;
  for (size_t i = 0; i < eh.e_shnum; i++) {
    if (!section(img, size, &eh, i, &sh) || (sh.sh_flags & SHF_COMPRESSED)) continue;
    if (sh.sh_name >= names.sh_size || names.sh_size - sh.sh_name < want ||
        memcmp(img + names.sh_offset + sh.sh_name, name, want))
      continue;
    *off = sh.sh_offset;
    *len = sh.sh_size;
    return 1;
  }
  return 0;
}

int pm_elf_valid(const unsigned char *img, size_t size) {
  Elf64_Ehdr eh;
  if (size < sizeof eh) return 0;
  memcpy(&eh, img, sizeof eh);
  return !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
         eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shoff <= size &&
         eh.e_shnum <= (size - eh.e_shoff) / sizeof(Elf64_Shdr);
}

size_t pm_elf_symbols(const unsigned char *img, size_t size, pm_elf_symbol **out) {
  *out = NULL;
  if (!pm_elf_valid(img, size)) return 0;
  Elf64_Ehdr eh;
  memcpy(&eh, img, sizeof eh);
  /* .symtab has the static functions too; a stripped file has .dynsym */
  Elf64_Shdr syms = {0}, strs, sh;
  for (size_t i = 0; i < eh.e_shnum; i++) {
    if (!section(img, size, &eh, i, &sh)) continue;
    if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && syms.sh_type != SHT_SYMTAB))
      syms = sh;
  }
  if (!syms.sh_type || syms.sh_entsize != sizeof(Elf64_Sym) ||
      !section(img, size, &eh, syms.sh_link, &strs))
    return 0;
  pm_elf_symbol *v = NULL;
  size_t n = 0, cap = 0;
  const char *strtab = (const char *)img + strs.sh_offset;
  for (size_t off = 0; off + sizeof(Elf64_Sym) <= syms.sh_size; off += sizeof(Elf64_Sym)) {
    Elf64_Sym s;
    memcpy(&s, img + syms.sh_offset + off, sizeof s);
    int type = ELF64_ST_TYPE(s.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || s.st_value == 0 ||
        s.st_name >= strs.sh_size || !memchr(strtab + s.st_name, '\0', strs.sh_size - s.st_name))
      continue;
    pm_elf_symbol e = {s.st_value, s.st_size, strtab + s.st_name, NULL, 0};
    PU_PUSH(v, n, cap, e);
  }
  if (n) qsort(v, n, sizeof *v, by_value);
  *out = v;
  return n;
}

const pm_elf_symbol *pm_elf_find(const pm_elf_symbol *syms, size_t n, uint64_t addr) {
  size_t lo = 0, hi = n; /* first symbol above addr */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (syms[mid].value <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  const pm_elf_symbol *s = &syms[lo - 1];
  /* aliases share an address: take the first of them */
  while (s > syms && s[-1].value == s->value) s--;
  if (addr == s->value || addr - s->value < s->size) return s;
  return NULL;
}
