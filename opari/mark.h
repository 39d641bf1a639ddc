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
  op_span file;   /* the name between the quotes, escapes kept; empty: none */
  unsigned flags; /* MARK_* bits */
} op_line_mark;

/* Whether directive text s[0..len) (from its `#`) is a line mark; the
   number stops growing at 10^8 (a longer one is not a mark). */
bool op_line_mark_parse(const char *s, size_t len, op_line_mark *m);

typedef struct {
  int phys;    /* first physical line the mark describes */
  int line;    /* its number */
  int file;    /* index into op_line_map.files, -1: the input itself */
  bool system; /* in a system header */
} op_mark_entry;

typedef struct {
  char *esc; /* as written in the mark: a C string literal's contents */
  char *raw; /* escapes resolved: the name itself */
} op_mark_file;

typedef struct {
  op_mark_entry *v;
  size_t n, cap;
  op_mark_file *files;
  size_t nfiles, files_cap;
} op_line_map;

/* Records mark m, parsed from directive text s, for the physical lines
   from phys on (marks come in increasing phys).  Returns its entry. */
const op_mark_entry *op_line_map_add(op_line_map *lm, const char *s, const op_line_mark *m,
                                     int phys);
/* The entry in effect at physical line phys, NULL before the first mark. */
const op_mark_entry *op_line_map_find(const op_line_map *lm, int phys);
/* The line number physical line phys has in its file. */
int op_line_map_line(const op_line_map *lm, int phys);
void op_line_map_free(op_line_map *lm);

#endif
