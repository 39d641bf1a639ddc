/*
 * pomp_filter.h -- the filter file of user functions, one syntax for the
 * run time (POMP_FILTER, libpomp) and the compile time (pomp-cc --filter,
 * the GCC plugin in gccplugin/):
 *
 *   # comment
 *   exclude *_kernel_inner     one glob per line (fnmatch: * ? [...]),
 *   include main               spaces allowed (C++ signatures)
 *
 * The last rule whose glob matches the function's name decides; a name no
 * rule matches is recorded. Names are spelled as pu_function_name spells
 * them. Internal (not installed); C, with C linkage for the C++ plugin.
 */
#ifndef POMP_FILTER_H
#define POMP_FILTER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pu_filter_rule {
  int include;
  char *glob;
} pu_filter_rule;

/* A set of rules; zero-initialised it is empty (accepts everything). */
typedef struct pu_filter {
  pu_filter_rule *rules;
  size_t n, cap;
} pu_filter;

/* Parses the rules of text (len bytes, path for messages) into f, replacing
   its rules. 0, or -1 with f emptied and "path:line: what" (no
   newline, no severity: the caller says it) in why. */
int pu_filter_parse(pu_filter *f, const char *text, size_t len, const char *path, char *why,
                    size_t why_size);
/* Reads and parses the file at path. 0; -1 when it cannot be read
   ("cannot open filter file 'path': reason" in why); -2 when a rule is bad
   (pu_filter_parse's message in why). */
int pu_filter_load(pu_filter *f, const char *path, char *why, size_t why_size);
/* 1 when the function `name` is recorded. */
int pu_filter_accepts(const pu_filter *f, const char *name);
/* Frees the rules; f is empty afterwards. */
void pu_filter_clear(pu_filter *f);

/* The name under which a function is recorded and filtered, from its
   symbol: gfortran's module procedure __<module>_MOD_<proc> is
   "<module>::<proc>", its main program MAIN__ "program" (the GCC plugin
   and libpomp give it the program's own name where they know it, pomp.h's
   POMP_Fortran_program); a C++ symbol
   (_Z...) is passed to demangle (__cxa_demangle's signature; NULL: not
   demangled); anything else is the symbol itself. Writes buf (size bytes,
   truncated). */
typedef char *(*pu_demangler)(const char *, char *, size_t *, int *);
void pu_function_name(const char *symbol, pu_demangler demangle, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* POMP_FILTER_H */
