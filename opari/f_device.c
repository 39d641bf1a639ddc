/*
 * f_device.c -- Fortran device constructs (`!$omp target ...`, host
 * `!$omp teams`): passed unchanged, and nothing inside them is
 * instrumented, since the code may run on a device where the POMP
 * routines do not exist.  Their loop forms (`target teams distribute
 * parallel do`, `target simd`, ...) may omit the END directive, like DO.
 */
#include <string.h>

#include "f_rw.h"
#include "pomp_util.h"

/* Words of device directive names, and the ones that make it a loop. */
static const char *const device_words[] = {"target", "teams", "distribute", "parallel",
                                           "do",     "simd",  "loop",       NULL};
static const char *const loop_words[] = {"distribute", "do", "simd", "loop", NULL};

/* The name words at the cursor into buf (joined by blanks); returns
   whether one of them makes the construct a loop construct. */
static bool read_words(const opf_dir *fd, size_t p, char *buf, size_t size) {
  bool loop = false;
  size_t k = 0;
  buf[0] = 0;
  for (;;) {
    size_t q = op_skip_gap(fd->clean, fd->len, p), e = op_ident_end(fd->clean, fd->len, q);
    op_span w = {q, e};
    if (e == q || !op_span_in(fd->clean, w, device_words) || k + (e - q) + 2 > size) break;
    loop |= op_span_in(fd->clean, w, loop_words);
    if (k) buf[k++] = ' ';
    memcpy(buf + k, fd->clean + q, e - q);
    buf[k += e - q] = 0;
    p = e;
  }
  return loop;
}

bool opf_in_device(const opf_rw *rw) {
  for (size_t i = 0; i < rw->nopen; i++)
    if (rw->open[i].kind == FC_DEVICE) return true;
  return false;
}

bool opf_device_directive(opf_rw *rw) {
  const opf_dir *fd = &rw->fd;
  size_t p = op_skip_gap(fd->clean, fd->len, 0);
  if (fd->end) p = op_skip_gap(fd->clean, fd->len, op_word_at(fd->clean, fd->len, p, "end"));
  bool target = op_word_at(fd->clean, fd->len, p, "target") != 0;
  if (!target && !op_word_at(fd->clean, fd->len, p, "teams")) return false;
  if (target) { /* data regions and stand-alone data directives run on the host */
    size_t q = op_skip_gap(fd->clean, fd->len, p + 6);
    static const char *const host[] = {"data", "enter", "exit", "update", NULL};
    op_span w = {q, op_ident_end(fd->clean, fd->len, q)};
    if (op_span_in(fd->clean, w, host)) return false;
  }
  opf_open o = {.kind = FC_DEVICE,
                .descr2 = -1,
                .line = fd->first,
                .passed = true,
                .implicit_end = (size_t)-1};
  bool loop = read_words(fd, p, o.words, sizeof o.words);
  if (fd->end) {
    const opf_open *top = rw->nopen ? &rw->open[rw->nopen - 1] : NULL;
    if (!top)
      opf_error(rw, fd->first, "'!$omp end %s' without an open '%s' construct", o.words, o.words);
    if (top->kind != FC_DEVICE || strcmp(top->words, o.words) != 0)
      opf_error(rw, fd->first, "'!$omp end %s' does not match the open '%s' (line %d)", o.words,
                top->kind == FC_DEVICE || top->kind == FC_REGION ? top->words : "construct",
                opf_line_no(rw, top->line));
    rw->nopen--;
    return true;
  }
  if (loop) {
    size_t last = opf_loop_last(rw, opf_next_significant(rw, fd->last + 1), fd->first);
    if (!opf_is_end_directive(rw, opf_next_significant(rw, last + 1), o.words))
      o.implicit_end = last;
  }
  PU_PUSH(rw->open, rw->nopen, rw->open_cap, o);
  return true;
}
