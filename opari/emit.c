/* emit.c -- see emit.h. */
#include "emit.h"

#include <string.h>

void op_emit_copy_to(op_emit *em, size_t off) {
  if (off > em->copied) fwrite(em->src + em->copied, 1, off - em->copied, em->f);
  op_emit_skip_to(em, off);
}

void op_emit_skip_to(op_emit *em, size_t off) {
  if (off > em->copied) em->copied = off;
}

void op_emit_str(op_emit *em, const char *s) { fputs(s, em->f); }
void op_emit_mem(op_emit *em, const char *s, size_t n) { fwrite(s, 1, n, em->f); }

/* d in decimal, in buf (at least 16 bytes); returns where it starts. */
static const char *decimal(char *buf, size_t size, int d) {
  char *p = buf + size;
  *--p = 0;
  do *--p = (char)('0' + d % 10);
  while ((d /= 10) > 0);
  return p;
}

static void emit_call_head(op_emit *em, const char *event, const char *d) {
  fputs(" POMP_", em->f);
  fputs(event, em->f);
  fputs("(pomp_rd[", em->f);
  fputs(d, em->f);
  fputs("]", em->f);
}

void op_emit_call(op_emit *em, const char *event, int d) {
  char num[16];
  emit_call_head(em, event, decimal(num, sizeof num, d));
  fputs(");", em->f);
}

void op_emit_task_var(op_emit *em, int d) {
  char num[16];
  fputs("pomp_task_", em->f);
  fputs(decimal(num, sizeof num, d), em->f);
}

void op_emit_task_call(op_emit *em, const char *event, int d) {
  char num[16];
  emit_call_head(em, event, decimal(num, sizeof num, d));
  fputs(", ", em->f);
  op_emit_task_var(em, d);
  fputs(");", em->f);
}

void op_emit_line(op_emit *em, int line) {
  if (!em->nosrc)
    fprintf(em->f, "#%s %d \"%s\"\n", em->gnu_marks ? "" : "line", line, em->line_name);
}

void op_emit_pad(op_emit *em, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) fputc(em->src[i] == '\t' ? '\t' : ' ', em->f);
}

void op_emit_c_string(FILE *f, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20 || c == 0x7f) fprintf(f, "\\%03o", c);
    else fputc(c, f);
  }
}
