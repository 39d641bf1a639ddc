/*
 * main.c -- pomp-opari: the command line around opari_c().
 *
 *   pomp-opari [--lang=c|c++|f77|f90] [--pomp-disable=list] [--nosrc] [--preprocessed]
 *              INPUT OUTPUT
 *
 * Reads INPUT whole, instruments it into a temporary file next to OUTPUT
 * and renames that to OUTPUT only on success, so a failure never leaves a
 * partial OUTPUT behind.  A Fortran unit also gets its companion C file
 * OUTPUT.pomp.c (descriptors and the routines the Fortran code calls).
 */
/* realpath() is XSI */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mark.h"
#include "opari.h"
#include "pomp_opt.h"
#include "pomp_util.h"

static const char summary[] =
    "Rewrites the OpenMP constructs of the C, C++ or Fortran unit INPUT into\n"
    "POMP-instrumented form (pomp.h) and writes OUTPUT; compile OUTPUT with\n"
    "-I<dir of INPUT> -I<pomp include dir>.  For a Fortran unit it also writes\n"
    "OUTPUT.pomp.c, the C file of its descriptors, to be compiled with\n"
    "-I<pomp include dir> and linked.\n";

enum { LANG_C, LANG_CXX, LANG_F77, LANG_F90 };

static bool has_ext(const char *path, const char *const *ext) {
  const char *dot = strrchr(path, '.');
  for (const char *const *e = ext; dot && *e; e++)
    if (strcmp(dot, *e) == 0) return true;
  return false;
}

static int lang_of_name(const char *path) {
  static const char *const cxx[] = {".cc",  ".cpp", ".cxx", ".C", ".c++",
                                    ".CPP", ".cp",  ".ii",  NULL};
  static const char *const fixed[] = {".f", ".F", ".f77", ".F77", ".for", ".FOR", NULL};
  static const char *const free_form[] = {".f90", ".F90", ".f95", ".F95", ".f03",
                                          ".F03", ".f08", ".F08", NULL};
  return has_ext(path, cxx)         ? LANG_CXX
         : has_ext(path, fixed)     ? LANG_F77
         : has_ext(path, free_form) ? LANG_F90
                                    : LANG_C;
}

/* A temporary file next to path, for an atomic rename; NULL after a message. */
static FILE *temp_next_to(const char *path, char **tmp) {
  *tmp = pu_malloc(strlen(path) + 16);
  sprintf(*tmp, "%s.XXXXXX", path);
  int fd = mkstemp(*tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
  if (!f) pu_error("%s: cannot create: %s", path, strerror(errno));
  else setvbuf(f, NULL, _IOFBF, 1 << 20);
  return f;
}

/* Closes f and renames tmp to path if ok; removes tmp otherwise. */
static bool finish(FILE *f, char *tmp, const char *path, bool ok) {
  if (fclose(f) != 0 && ok) {
    pu_error("%s: write error: %s", path, strerror(errno));
    ok = false;
  }
  if (ok) {
    chmod(tmp, 0644);
    if (rename(tmp, path) != 0) {
      pu_error("%s: %s", path, strerror(errno));
      ok = false;
    }
  }
  if (!ok) unlink(tmp);
  free(tmp);
  return ok;
}

/* FNV-1a of the source's absolute path and the output's name: the unit's
   routine names, unique in a program without any shared state. */
static unsigned unit_id_of(const char *line_name, const char *output) {
  const char *base = strrchr(output, '/');
  unsigned h = 2166136261u;
  for (const char *p = line_name; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
  h = (h ^ 0u) * 16777619u;
  for (const char *p = base ? base + 1 : output; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
  return h;
}

/* The whole file, without a leading UTF-8 byte-order mark (compilers skip
   it, but after the injected prelude it would be a stray character); NULL
   (after a message) on error.  Only regular files are read: a FIFO would
   block and a device such as /dev/zero would never end. */
static char *read_file(const char *path, size_t *len) {
  struct stat st;
  if (stat(path, &st) != 0) {
    pu_error("%s: %s", path, strerror(errno));
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    pu_error("%s: %s", path, S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    pu_error("%s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = pu_malloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) buf = pu_realloc(buf, cap *= 2);
  }
  bool err = ferror(f);
  fclose(f);
  if (err) {
    pu_error("%s: read error", path);
    free(buf);
    return NULL;
  }
  static const char bom[3] = {'\xef', '\xbb', '\xbf'};
  if (n >= sizeof bom && memcmp(buf, bom, sizeof bom) == 0) {
    n -= sizeof bom;
    memmove(buf, buf + sizeof bom, n);
  }
  *len = n;
  return buf;
}

/* path as a C string literal body, absolute when it can be resolved, so
   that debuggers find the source from any build directory. */
static char *line_name_of(const char *path) {
  char resolved[PATH_MAX];
  const char *name = realpath(path, resolved) ? resolved : path;
  char *out = pu_malloc(strlen(name) * 4 + 1), *o = out;
  for (const char *p = name; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '"' || c == '\\') {
      *o++ = '\\';
      *o++ = (char)c;
    } else if (c < 0x20) o += sprintf(o, "\\%03o", c);
    else *o++ = (char)c;
  }
  *o = 0;
  return out;
}

/* Preprocessed input names its source in its first line mark (`# 1
   "app.F90"`): that source, not the temporary file, identifies the unit
   (Fortran routine names), so that rebuilding gives the same object. */
static char *source_of_preprocessed(const char *src, size_t len, const char *input) {
  const char *nl = memchr(src, '\n', len);
  op_line_mark m;
  if (len && src[0] == '#' && op_line_mark_parse(src, nl ? (size_t)(nl - src) : len, &m) &&
      m.file.end > m.file.start && src[m.file.start] != '<') {
    char *name = pu_malloc(m.file.end - m.file.start + 1);
    memcpy(name, src + m.file.start, m.file.end - m.file.start);
    name[m.file.end - m.file.start] = 0;
    char *line_name = line_name_of(name);
    free(name);
    return line_name;
  }
  return line_name_of(input);
}

static int instrument(const char *input, const char *output, opari_options *opt, int lang) {
  size_t len;
  char *src = read_file(input, &len);
  if (!src) return POMP_EXIT_FAILURE;
  bool fortran = lang == LANG_F77 || lang == LANG_F90;
  char *companion = NULL, *tmp = NULL, *ctmp = NULL;
  FILE *out = temp_next_to(output, &tmp), *cout = NULL;
  if (out && fortran) {
    companion = pu_malloc(strlen(output) + 8);
    sprintf(companion, "%s.pomp.c", output);
    cout = temp_next_to(companion, &ctmp);
  }
  char *line_name = line_name_of(input);
  bool ok = out && (!fortran || cout);
  if (ok) {
    opt->file_name = input;
    opt->line_name = line_name;
    opt->cxx = lang == LANG_CXX;
    opt->fixed_form = lang == LANG_F77;
    if (opt->preprocessed && fortran) {
      char *source = source_of_preprocessed(src, len, input);
      opt->unit_id = unit_id_of(source, output);
      free(source);
    } else opt->unit_id = unit_id_of(line_name, output);
    ok = fortran ? opari_fortran(src, len, out, cout, opt) : opari_c(src, len, out, opt);
  }
  bool companion_written = false;
  if (cout) ok = companion_written = finish(cout, ctmp, companion, ok);
  else free(ctmp);
  if (out) ok = finish(out, tmp, output, ok);
  else free(tmp);
  if (!ok && companion_written) unlink(companion); /* both or neither */
  free(companion);
  free(line_name);
  free(src);
  return ok ? POMP_EXIT_OK : POMP_EXIT_FAILURE;
}

/* A --pomp-disable list into the unsigned DIS_* bits at target. */
static int parse_disable(const char *list, void *target, char *why, size_t size) {
  const char *bad;
  size_t bad_len;
  if (opari_parse_disable(list, target, &bad, &bad_len)) return 0;
  snprintf(why, size, "unknown construct '%.*s'", (int)bad_len, bad);
  return -1;
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  opari_options opt = {0};
  static const char *const langs[] = {"c", "c++", "f77", "f90", NULL}; /* LANG_* */
  int lang = -1;                                                       /* -1: from the extension */
  int nosrc = 0, preprocessed = 0;
  long long loop_depth = OPARI_LOOP_DEPTH_DEFAULT;
  for (int i = 1; i < argc && strcmp(argv[i], "--");
       i++) /* the one option with an optional value */
    if (!strcmp(argv[i], "--loops=all")) argv[i] = (char *)"--loops-all";
  const pu_option options[] = {
      {"lang", 0, "c|c++|f77|f90",
       "language: f77 is fixed form, f90 free form "
       "(default: from INPUT's extension: .f .for .f77 fixed, .f90 ... free)",
       PU_CHOICE(&lang, langs)},
      {"pomp-disable", 0, "LIST",
       "leave constructs uninstrumented: parallel, "
       "for, sections, single, master, critical, atomic, barrier, flush, "
       "ordered, task, taskwait, locks, region, sync, omp (comma-separated)",
       PU_CALL(parse_disable, &opt.disabled)},
      {"nosrc", 0, NULL, "no #line directives", PU_FLAG(&nosrc, 1)},
      {"loops", 0, NULL,
       "also instrument sequential loops (for, while, do; Fortran DO) as regions "
       "'loop @FILE:LINE': those whose body calls something and is not tiny, and no "
       "`for` of at most 16 iterations by a literal bound; "
       "--loops=all: every loop (both up to --loop-depth)",
       PU_FLAG(&opt.loops, OPARI_LOOPS_CALLS)},
      {"loops-all", 0, NULL, "same as --loops=all", PU_FLAG(&opt.loops, OPARI_LOOPS_ALL)},
      {"loop-depth", 0, "N",
       "with --loops: instrument loops at most N deep in their function (default 2: "
       "a time-step loop and the sweeps inside it; deeper loops run too often)",
       PU_INT(&loop_depth, 1, 1000)},
      {"preprocessed", 0, NULL,
       "INPUT is the preprocessor's output (cc -E): "
       "C/C++ of a unit ending in '#include <pomp.h>', OUTPUT is to be "
       "compiled as such (.i/.ii, without the preprocessor), directives in "
       "system headers are not instrumented; Fortran (cpp -E): the unit is "
       "named after the source in its first line mark",
       PU_FLAG(&preprocessed, 1)},
      PU_OPT_END};
  const pu_opt_command cmd = {NULL,
                              "INPUT OUTPUT",
                              2,
                              2,
                              .summary = summary,
                              .options = options,
                              .failure = "failure (unreadable INPUT, bad construct "
                                         "nesting, I/O error)"};
  const char *files[2];
  pu_opt_parse(&cmd, argc, argv, files);
  opt.nosrc = nosrc;
  opt.loop_depth = (int)loop_depth;
  opt.preprocessed = preprocessed;
  return instrument(files[0], files[1], &opt, lang < 0 ? lang_of_name(files[0]) : lang);
}
