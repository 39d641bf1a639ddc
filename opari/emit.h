/*
 * emit.h -- writing the instrumented unit: source bytes copied by offset
 * (lazily, in large slices), injected text, POMP calls and `#line` marks.
 */
#ifndef OPARI_EMIT_H
#define OPARI_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
  FILE *f;
  const char *src;
  size_t copied;         /* src[0..copied) is written */
  const char *line_name; /* file name for #line, already a C string literal */
  bool nosrc;            /* no #line marks */
  bool gnu_marks;        /* `# N "file"` (preprocessed output) instead of #line */
} op_emit;

/* Writes src[copied..off). */
void op_emit_copy_to(op_emit *em, size_t off);
/* Drops src[copied..off) (it was replaced). */
void op_emit_skip_to(op_emit *em, size_t off);
void op_emit_str(op_emit *em, const char *s);
void op_emit_mem(op_emit *em, const char *s, size_t n);
/* " POMP_<event>(pomp_rd[<d>]);" */
void op_emit_call(op_emit *em, const char *event, int d);
/* The variable holding the id of task construct d (include/pomp.h), as
   C names it: "pomp_task_<d>". */
void op_emit_task_var(op_emit *em, int d);
/* " POMP_<event>(pomp_rd[<d>], pomp_task_<d>);" */
void op_emit_task_call(op_emit *em, const char *event, int d);
/* `#line <line> "<file>"` (or `# <line> "<file>"`) on its own line (the
   caller is at a line start). */
void op_emit_line(op_emit *em, int line);
/* Blanks as wide as src[from..to): tabs kept, everything else a space. */
void op_emit_pad(op_emit *em, size_t from, size_t to);
/* s as the contents of a C string literal (escapes `"`, `\` and controls). */
void op_emit_c_string(FILE *f, const char *s, size_t n);

#endif
