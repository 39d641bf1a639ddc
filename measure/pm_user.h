/*
 * pm_user.h -- user functions (-finstrument-functions): the address ->
 * region cache, symbol lookup in the ELF files of the process, and the
 * POMP_FILTER rules. Internal to measure/.
 */
#ifndef PM_USER_H
#define PM_USER_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------- symbols */

/* Function symbols of one ELF image, sorted by address (file offsets are
   relative to the image's load bias). */
typedef struct pm_elf_symbol {
  uint64_t value, size;
  const char *name; /* points into the image */
  const char *file; /* source file (pm_dwarf_lines), or NULL */
  uint32_t line;    /* line of the function's first instruction, or 0 */
} pm_elf_symbol;

/* 1 when img starts with an ELF64 header whose section table lies inside
   the image (what every other reader here relies on). */
int pm_elf_valid(const unsigned char *img, size_t size);

/* The bytes of the section called `name` (not compressed, inside the
   image): 1 and their offset and length, else 0. */
int pm_elf_section(const unsigned char *img, size_t size, const char *name, size_t *off,
                   size_t *len);

/* Reads the function symbols (.symtab, else .dynsym) of an ELF64 image of
   `size` bytes; every offset is checked, so any bytes are safe. Returns
   the number of symbols (0 if none or not ELF) and the sorted array in
   *out (free it). */
size_t pm_elf_symbols(const unsigned char *image, size_t size, pm_elf_symbol **out);

/* Sets file and line of the symbols (sorted) from the DWARF line tables of
   the image. Returns the file paths it allocated (*nfiles of them; free
   each and the array), or NULL when the image has no usable line table. */
char **pm_dwarf_lines(const unsigned char *image, size_t size, pm_elf_symbol *syms, size_t nsyms,
                      size_t *nfiles);

/* The symbol containing addr in a sorted table, or NULL. */
const pm_elf_symbol *pm_elf_find(const pm_elf_symbol *syms, size_t n, uint64_t addr);

/* Name of the function at run-time address addr: demangled symbol name,
   or "<object>+0x<offset>" when there is no symbol; and its source file
   (NULL if unknown; valid for the process's life) and line (0). Callers
   serialise calls. */
void pm_symbol_lookup(uintptr_t addr, char *buf, size_t size, const char **file, uint32_t *line);

/* -------------------------------------------------------------- filter */

/* Parses filter rules from text (path for messages): lines
   "include GLOB" / "exclude GLOB", '#' comments. 0, or -1 after printing
   "path:line: error: ...". Replaces the current rules. */
int pm_filter_parse(const char *text, size_t len, const char *path);
/* Loads the POMP_FILTER file; 0 or -1 (reported). */
int pm_filter_load(const char *path);
/* 1 when function `name` is recorded: the last matching rule decides,
   functions no rule matches are recorded. */
int pm_filter_accepts(const char *name);
void pm_filter_clear(void);

#endif /* PM_USER_H */
