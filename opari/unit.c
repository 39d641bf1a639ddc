/* unit.c -- see unit.h. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "events.h"
#include "pomp.h"
#include "pomp_util.h"

int op_descr_add(op_descr_table *t, const char *name, const char *sub, size_t sub_len, int line1,
                 int lineN) {
  op_descr d = {.name = name, .begin_line1 = line1, .begin_lineN = lineN};
  d.sub_name = pu_malloc(sub_len + 1);
  memcpy(d.sub_name, sub, sub_len);
  d.sub_name[sub_len] = 0;
  PU_PUSH(t->v, t->n, t->cap, d);
  return (int)t->n - 1;
}

void op_descr_free(op_descr_table *t) {
  for (size_t i = 0; i < t->n; i++) {
    free(t->v[i].sub_name);
    free(t->v[i].file_name);
  }
  free(t->v);
  *t = (op_descr_table){0};
}

/* Room for the decimal table size, patched in by the epilogue. */
enum { COUNT_WIDTH = 10 };

/* --loops: the loop calls (inside the extern "C" block) and the C++ guard
   whose destructor leaves the loop region on every way out. */
static void loop_declarations(FILE *f) {
  fputs(",\n  POMP_Loop_enter(struct ompregdescr *), POMP_Loop_exit(struct ompregdescr *),\n"
        "  POMP_Loop_cleanup(struct ompregdescr *const *);\n"
        "struct ompregdescr *POMP_Loop_begin(struct ompregdescr *)",
        f);
}

static void loop_guard_class(FILE *f) {
  /* not instrumented as a user function itself (-finstrument-functions) */
  fputs("namespace { struct pomp_loop_guard { struct ompregdescr *d;\n"
        "  __attribute__((no_instrument_function, always_inline))\n"
        "  explicit pomp_loop_guard(struct ompregdescr *x) : d(x) { POMP_Loop_enter(d); }\n"
        "  __attribute__((no_instrument_function, always_inline))\n"
        "  ~pomp_loop_guard() { POMP_Loop_exit(d); } }; }\n",
        f);
}

/* The POMP functions of the C/C++ front end (events.h), without the loop
   calls: "unsigned long long POMP_Task_new(struct ompregdescr *);\n
   void POMP_Init(void), ..., POMP_Taskwait_exit(struct ompregdescr *)". */
static void declare_events(FILE *f) {
  for (int e = 0; e < EV_COUNT; e++)
    if (op_events[e].c && op_events[e].task_id == EV_TASK_RETURNS_ID)
      fprintf(f, "unsigned long long POMP_%s(struct ompregdescr *);\n", op_events[e].c);
  const char *sep = "void ";
  for (int e = 0; e < EV_COUNT; e++)
    if (op_events[e].c && !op_events[e].descriptor) {
      fprintf(f, "%sPOMP_%s(void)", sep, op_events[e].c);
      sep = ", ";
    }
  for (int e = 0; e < EV_COUNT; e++)
    if (op_events[e].c && op_events[e].descriptor && op_events[e].task_id != EV_TASK_RETURNS_ID)
      fprintf(f, ",\n  POMP_%s(struct ompregdescr *%s)", op_events[e].c,
              op_events[e].task_id == EV_TASK_TAKES_ID ? ", unsigned long long" : "");
}

void op_unit_prelude(FILE *f, op_unit_form form, const char *line_name, int nosrc, bool loops,
                     long *count_pos) {
  if (form == UNIT_SOURCE) fprintf(f, "#define _POMP %d\n", POMP_API_VERSION);
  fputs("struct ompregdescr;\n", f);
  *count_pos = -1;
  if (form == UNIT_SOURCE) fputs("#ifdef __cplusplus\n", f);
  if (form != UNIT_PREPROCESSED_C)
    fputs("namespace { extern struct ompregdescr *pomp_rd[]; }\nextern \"C\" {\n", f);
  if (form == UNIT_SOURCE) fputs("#else\n", f);
  if (form != UNIT_PREPROCESSED_CXX) {
    fputs("static struct ompregdescr *pomp_rd[", f);
    *count_pos = ftell(f);
    fprintf(f, "%*s];\n", COUNT_WIDTH, "1");
  }
  if (form == UNIT_SOURCE) fputs("#endif\n", f);
  declare_events(f);
  if (loops) loop_declarations(f);
  fputs(";\n", f);
  if (form == UNIT_SOURCE) fputs("#ifdef __cplusplus\n}\n", f);
  else if (form == UNIT_PREPROCESSED_CXX) fputs("}\n", f);
  if (loops && form != UNIT_PREPROCESSED_C) loop_guard_class(f);
  if (form == UNIT_SOURCE) fputs("#endif\n", f);
  if (form == UNIT_SOURCE && !nosrc) fprintf(f, "#line 1 \"%s\"\n", line_name);
}

static void table_initialiser(FILE *f, size_t n) {
  fputs(" = {", f);
  for (size_t i = 0; i < n; i++) fprintf(f, "%s&pomp_rd_data[%zu]", i ? ", " : "", i);
  fputs(n ? "};\n" : "0};\n", f);
}

void op_unit_epilogue(FILE *f, op_unit_form form, const op_descr_table *t, const char *file_name,
                      long count_pos) {
  fputs(form == UNIT_SOURCE ? "\n#include <pomp.h>\n" : "\n", f);
  if (t->n) {
    fputs("static OMPRegDescr pomp_rd_data[] = {\n", f);
    for (size_t i = 0; i < t->n; i++) {
      const op_descr *d = &t->v[i];
      fprintf(f, "  {\"%s\", \"", d->name);
      op_emit_c_string(f, d->sub_name, strlen(d->sub_name));
      fputs("\", ", f);
      fprintf(f, "%d, \"", d->num_sections);
      const char *file = d->file_name ? d->file_name : file_name;
      op_emit_c_string(f, file, strlen(file));
      fprintf(f, "\", %d, %d, %d, %d, {0, 0, 0, 0}, 0},\n", d->begin_line1, d->begin_lineN,
              d->end_line1, d->end_lineN);
    }
    fputs("};\n", f);
  }
  if (form != UNIT_PREPROCESSED_C) {
    if (form == UNIT_SOURCE) fputs("#ifdef __cplusplus\n", f);
    fputs("namespace { struct ompregdescr *pomp_rd[]", f);
    table_initialiser(f, t->n);
    fputs("}\n", f);
  }
  if (form == UNIT_SOURCE) fputs("#else\n", f);
  if (form != UNIT_PREPROCESSED_CXX) {
    fputs("static struct ompregdescr *pomp_rd[]", f);
    table_initialiser(f, t->n);
  }
  if (form == UNIT_SOURCE) fputs("#endif\n", f);
  fputs("static void pomp_register_unit(void) __attribute__((constructor));\n"
        "static void pomp_register_unit(void) { POMP_Register(pomp_rd, ",
        f);
  fprintf(f, "%zu); }\n", t->n);
  long end = ftell(f);
  if (count_pos >= 0 && fseek(f, count_pos, SEEK_SET) == 0) {
    fprintf(f, "%*zu", COUNT_WIDTH, t->n ? t->n : 1);
    fseek(f, end, SEEK_SET);
  }
}
