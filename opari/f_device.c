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

/* The words that make a device construct a loop construct. */
static const char *const loop_words[] = {"distribute", "do", "simd", "loop", NULL};

/* The directive's name words into buf (joined by blanks); returns
   whether one of them makes the construct a loop construct. */
static bool name_words(const opf_dir *fd, char *buf, size_t size) {
  bool loop = false;
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < fd->nwords && k + strlen(fd->wordv[i]) + 2 <= size; i++) {
    for (const char *const *l = loop_words; *l; l++) loop |= strcmp(*l, fd->wordv[i]) == 0;
    if (k) buf[k++] = ' ';
    strcpy(buf + k, fd->wordv[i]);
    k += strlen(fd->wordv[i]);
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
  if (!fd->nwords) return false;
  bool target = strcmp(fd->wordv[0], "target") == 0;
  if (!target && strcmp(fd->wordv[0], "teams") != 0) return false;
  if (target && fd->nwords > 1) { /* data regions and stand-alone data directives run on the host */
    static const char *const host[] = {"data", "enter", "exit", "update", NULL};
    for (const char *const *h = host; *h; h++)
      if (strcmp(*h, fd->wordv[1]) == 0) return false;
  }
  opf_open o = {.kind = FC_DEVICE,
                .descr2 = -1,
                .line = fd->first,
                .passed = true,
                .implicit_end = (size_t)-1};
  bool loop = name_words(fd, o.words, sizeof o.words);
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
