/*
 * mark.h -- line marks, shared by the front ends: `#line N "file"` and
 * the preprocessor's `# N "file" flags` (GCC and clang write them into
 * preprocessed output: flag 1 enters an included file, 2 returns to the
 * includer, 3 marks a system header, 4 an implicit extern "C" block).
 *
 * The C front end also keeps a map from the physical lines of its input
 * to the file and line each mark says they are, so that descriptors,
 * diagnostics and the output's own marks name what the user wrote.
 */
#ifndef OPARI_MARK_H
#define OPARI_MARK_H

#include <stdbool.h>
#include <stddef.h>

#include "directive.h"

enum { MARK_ENTER = 1, MARK_RETURN = 2, MARK_SYSTEM = 4, MARK_EXTERN_C = 8 };

typedef struct {
  int line;       /* N: the number of the line after the mark */
  Span file;      /* the name between the quotes, escapes kept; empty: none */
  unsigned flags; /* MARK_* bits */
} LineMark;

/* Whether directive text s[0..len) (from its `#`) is a line mark; the
   number stops growing at 10^8 (a longer one is not a mark). */
bool line_mark_parse(const char *s, size_t len, LineMark *m);

typedef struct {
  int phys;    /* first physical line the mark describes */
  int line;    /* its number */
  int file;    /* index into LineMap.files, -1: the input itself */
  bool system; /* in a system header */
} MarkEntry;

typedef struct {
  char *esc; /* as written in the mark: a C string literal's contents */
  char *raw; /* escapes resolved: the name itself */
} MarkFile;

typedef struct {
  MarkEntry *v;
  size_t n, cap;
  MarkFile *files;
  size_t nfiles, files_cap;
} LineMap;

/* Records mark m, parsed from directive text s, for the physical lines
   from phys on (marks come in increasing phys).  Returns its entry. */
const MarkEntry *linemap_add(LineMap *lm, const char *s, const LineMark *m, int phys);
/* The entry in effect at physical line phys, NULL before the first mark. */
const MarkEntry *linemap_find(const LineMap *lm, int phys);
/* The line number physical line phys has in its file. */
int linemap_line(const LineMap *lm, int phys);
void linemap_free(LineMap *lm);

#endif
