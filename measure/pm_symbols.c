/* pm_symbols.c -- run-time address -> function name: the object that maps
   the address (dl_iterate_phdr: executable, PIE or not, and shared
   libraries), its ELF symbol table and DWARF line table (read once per
   object: file and line where the program has -g), gfortran's names in
   Fortran spelling (the main program by its own name where the GCC
   plugin gave it, POMP_Fortran_program), and the C++ demangler of the program's own libstdc++
   when there is one (so libpomp needs no demangling library). Callers
   serialise calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm_user.h"
#include "pomp.h"
#include "pomp_filter.h"
#include "pomp_util.h"

typedef struct object {
  char *path;
  pm_elf_symbol *syms;
  size_t nsyms;
} object;

static object *objects;
static size_t nobjects, cap_objects;

struct where {
  uintptr_t addr, bias;
  const char *path;
  int found;
};

static int find_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct where *w = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *p = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + p->p_vaddr;
    if (p->p_type == PT_LOAD && w->addr >= start && w->addr - start < p->p_memsz) {
      w->bias = info->dlpi_addr;
      /* the executable has an empty name */
      w->path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
      w->found = 1;
      return 1;
    }
  }
  return 0;
}

static object *load(const char *path) {
  for (size_t i = 0; i < nobjects; i++)
    if (!strcmp(objects[i].path, path)) return &objects[i];
  object o = {pu_strdup(path), NULL, 0};
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
    /* kept mapped: the symbol names point into it */
    void *img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (img != MAP_FAILED) {
      o.nsyms = pm_elf_symbols(img, (size_t)st.st_size, &o.syms);
      size_t nfiles; /* the paths live as long as the process */
      free(pm_dwarf_lines(img, (size_t)st.st_size, o.syms, o.nsyms, &nfiles));
    }
  }
  if (fd >= 0) close(fd);
  PU_PUSH(objects, nobjects, cap_objects, o);
  return &objects[nobjects - 1];
}

/* The Fortran main program's own name (pomp.h), for the symbol MAIN__:
   set before any of the program's threads runs (a constructor, or the main
   program's entry), read under the callers' serialisation. */
static const char *_Atomic program_name;

void POMP_Fortran_program(const char *name) {
  if (name && *name) atomic_store_explicit(&program_name, name, memory_order_release);
}

/* Names as the filter rules see them (common/pomp_filter.c): gfortran's
   module procedures, C++ demangled with the program's own __cxa_demangle. */
static void demangle(const char *name, char *buf, size_t size) {
  static pu_demangler fn;
  static int looked;
  if (!looked) {
    looked = 1;
    *(void **)&fn = dlsym(RTLD_DEFAULT, "__cxa_demangle");
  }
  pu_function_name(name, fn, buf, size);
}

void pm_symbol_lookup(uintptr_t addr, char *buf, size_t size, const char **file, uint32_t *line) {
  struct where w = {addr, 0, NULL, 0};
  *file = NULL;
  *line = 0;
  dl_iterate_phdr(find_object, &w);
  if (!w.found) {
    snprintf(buf, size, "0x%lx", (unsigned long)addr);
    return;
  }
  object *o = load(w.path);
  const pm_elf_symbol *s = pm_elf_find(o->syms, o->nsyms, addr - w.bias);
  if (s) {
    const char *program = atomic_load_explicit(&program_name, memory_order_acquire);
    if (program && !strcmp(s->name, "MAIN__")) snprintf(buf, size, "%s", program);
    else demangle(s->name, buf, size);
    *file = s->file;
    *line = s->line;
    return;
  }
  const char *base = strrchr(w.path, '/');
  snprintf(buf, size, "%s+0x%lx", base ? base + 1 : w.path, (unsigned long)(addr - w.bias));
}
