/*
 * unit.h -- the frame around an instrumented C/C++ unit and its table of
 * region descriptors.
 *
 * Prelude (before the user's first line): `_POMP`, a forward declaration
 * of `struct ompregdescr`, the descriptor pointer table `pomp_rd` and the
 * POMP function prototypes -- no #include at all, so the user's
 * feature-test macros still come before any system header.
 * Epilogue (after the user's last line): `#include <pomp.h>`, the
 * descriptors, the table's initialiser and a constructor calling
 * POMP_Register: no link step, no state file.
 */
#ifndef OPARI_UNIT_H
#define OPARI_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char *name; /* "parallel", "for", ... (static) */
  char *sub_name;   /* owned */
  int num_sections;
  int begin_line1, begin_lineN, end_line1, end_lineN;
  char *file_name; /* owned; NULL: the unit's file (else from a line mark) */
} op_descr;

typedef struct {
  op_descr *v;
  size_t n, cap;
} op_descr_table;

int op_descr_add(op_descr_table *t, const char *name, const char *sub, size_t sub_len, int line1,
                 int lineN);
void op_descr_free(op_descr_table *t);

/* What the frame may use: a source unit gets `#ifdef __cplusplus` arms,
   `_POMP` and `#include <pomp.h>`; a preprocessed unit (compiled without
   the preprocessor) gets only its language's text and must contain pomp.h
   already (pomp-cc appends `#include <pomp.h>` before preprocessing). */
typedef enum { UNIT_SOURCE, UNIT_PREPROCESSED_C, UNIT_PREPROCESSED_CXX } op_unit_form;

/* Writes the prelude; *count_pos receives where the table size goes (-1:
   nowhere, C++ sizes it by its initialiser). With loops, also the loop
   calls and C++'s loop guard class (c_loop.c). */
void op_unit_prelude(FILE *f, op_unit_form form, const char *line_name, int nosrc, bool loops,
                     long *count_pos);
/* Writes the epilogue and fills in the table size at count_pos. */
void op_unit_epilogue(FILE *f, op_unit_form form, const op_descr_table *t, const char *file_name,
                      long count_pos);

#endif
