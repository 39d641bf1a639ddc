/*
 * pomp_util.h -- the small internal library shared by every pomp program:
 * diagnostics with the program name, checked allocation, growable arrays,
 * and the --help/--version conventions.  Not installed, not public API.
 */
#ifndef POMP_UTIL_H
#define POMP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define POMP_VERSION_STRING "0.1.0"

/* Exit codes shared by all commands (documented in the man pages). */
enum {
  POMP_EXIT_OK = 0,
  POMP_EXIT_FAILURE = 1, /* the operation failed (bad input, I/O error) */
  POMP_EXIT_USAGE = 2    /* bad command line */
};

/* Path buffers, one size per depth below an experiment directory.  A
   directory holds at most PATH_MAX (4096) bytes plus room; each level adds
   room for a file name or a suffix, so that snprintf("%s/%s", dir, name)
   into the next size cannot be truncated and GCC's -Wformat-truncation
   can prove it. */
enum {
  PU_DIR_MAX = 4200,                  /* an experiment directory */
  PU_PATH_MAX = PU_DIR_MAX + 100,     /* a file in it (or in fragments/) */
  PU_TMP_PATH_MAX = PU_PATH_MAX + 100 /* that file with a suffix (".tmp") */
};

/* Set once from main(argv[0]); every diagnostic starts with it. */
void pu_set_progname(const char *argv0);
const char *pu_progname(void);
/* Names the subcommand being run (pomp-report's "stat"), so that every
   diagnostic says which one failed: "pomp-report: stat: f.pomp: ...",
   the form of the option errors (pu_usage_error). */
void pu_set_command(const char *name);
/* "prog: " or "prog: command: " on out, the start of every diagnostic. */
void pu_print_prefix(FILE *out);

/* "prog: message\n" (or "prog: command: message\n") on stderr. */
void pu_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pu_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* pu_error, then exit(code). */
_Noreturn void pu_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Allocation that cannot return NULL: out of memory ends the program with a
   message, because no caller can do anything sensible about it. */
void *pu_malloc(size_t n);
void *pu_calloc(size_t count, size_t size);
void *pu_realloc(void *p, size_t n);
char *pu_strdup(const char *s);

/* pu_reserve's growth (doubling from 8), out of line. */
void pu_reserve_grow(void **p, size_t *cap, size_t need, size_t elem);
/* Grows *p (of *cap elements of elem bytes) so that it holds need
   elements.  The test is inline: reservations made per event or per op
   (analyze's passes) would otherwise each be a call. */
static inline void pu_reserve(void **p, size_t *cap, size_t need, size_t elem) {
  if (need > *cap) pu_reserve_grow(p, cap, need, elem);
}
/* value appended to arr (len elements, room for cap), grown by pu_reserve
   when full. */
#define PU_PUSH(arr, len, cap, value)                                                              \
  do {                                                                                             \
    pu_reserve((void **)&(arr), &(cap), (len) + 1, sizeof *(arr));                                 \
    (arr)[(len)++] = (value);                                                                      \
  } while (0)

/* A growing buffer of bytes (a message being packed, a window's arrays);
   {0} is empty. */
typedef struct {
  char *p;
  size_t len, cap;
} pu_bytes;
/* n bytes of data appended to b (data may be NULL where n is 0). */
void pu_bytes_put(pu_bytes *b, const void *data, size_t n);

/* The length of the valid UTF-8 sequence that starts s (1 to 4 bytes;
   shortest form, no surrogates, at most U+10FFFF), 0 when s starts an
   invalid one. s is NUL-terminated. */
size_t pu_utf8_sequence(const char *s);
/* The characters of UTF-8 text s, its columns where each takes one ("µs":
   two bytes, two columns), for right-aligning what printf's byte widths
   would shift. */
int pu_utf8_columns(const char *s);
/* A malloc'd copy of s in which every byte that does not belong to a valid
   UTF-8 sequence is replaced by U+FFFD (EF BF BD): what JSON output needs
   for names measured as raw bytes (file names, docs/FORMAT.md). */
char *pu_utf8_valid(const char *s);

/* For "did you mean": how near the name candidate is to the first len
   bytes of word, a user's typo of it.  0: not near; otherwise the higher
   the nearer.  Near: one edit (a letter wrong, missing, extra, or two
   swapped) for words of up to 4 letters, two for longer ones, or word
   is the start of candidate (an abbreviation, at least 2 letters). */
int pu_name_nearness(const char *word, size_t len, const char *candidate);

/* One step of a unit scale, largest first: a value from factor up is
   written in name ("ms": 1e-3). */
typedef struct {
  double factor;
  const char *name;
} pu_scale_step;

/* The steps of seconds: s, ms, µs, ns. */
enum { PU_SECONDS_STEPS = 4 };
extern const pu_scale_step pu_seconds_scale[PU_SECONDS_STEPS];

/* v in the first of the n steps it reaches (the last step below them
   all), with three significant digits or more, so that the text fits 7
   columns with a unit of up to three: "1.23 s", "45.6 ms", "394 µs";
   "%.1e" of v without a unit from 99999.5 of the first step up.  The one
   formatter of pomp-tui's values and pomp-report's text. */
void pu_format_scaled(char *buf, size_t size, double v, const pu_scale_step *steps, int n);
/* Seconds as pomp-tui shows them ("9.52 s", "394 µs"); 0 is "0 s". */
void pu_format_seconds(char *buf, size_t size, double v);

/* Prints "prog (pomp) VERSION" to stdout. */
void pu_print_version(void);

#endif /* POMP_UTIL_H */
