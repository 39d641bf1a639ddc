/* fuzz_elf.c -- libFuzzer target: any bytes as an ELF image give a sorted
   symbol table (with source lines from its DWARF line table) or nothing,
   and a named section inside the image or none, never a read outside it. Built with -DPOMP_FUZZ=ON (clang). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pm_user.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* an exact-size copy, so any overread hits ASan's redzone */
  unsigned char *img = malloc(size ? size : 1);
  if (size) memcpy(img, data, size);
  pm_elf_symbol *syms;
  size_t n = pm_elf_symbols(img, size, &syms), nfiles;
  char **files = pm_dwarf_lines(img, size, syms, n, &nfiles);
  for (size_t i = 0; i < n; i++) {
    const pm_elf_symbol *s = pm_elf_find(syms, n, syms[i].value);
    if (!s || s->value != syms[i].value || strlen(s->name) > size) abort();
    if (syms[i].file && !syms[i].line) abort();
  }
  size_t off, len; /* pomp-cc's section (pm_build.c): inside the image */
  if (pm_elf_section(img, size, ".pomp_instr", &off, &len) && (off > size || len > size - off))
    abort();
  for (size_t i = 0; i < nfiles; i++) free(files[i]);
  free(files);
  free(syms);
  free(img);
  return 0;
}
