/*
 * main.c -- pomp-opari: the command line around opari_c().
 *
 *   pomp-opari [--lang=c|c++] [--pomp-disable=list] [--nosrc] INPUT OUTPUT
 *
 * Reads INPUT whole, instruments it into a temporary file next to OUTPUT
 * and renames that to OUTPUT only on success, so a failure never leaves a
 * partial OUTPUT behind.
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

#include "opari.h"
#include "pomp_util.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [--lang=c|c++] [--pomp-disable=CONSTRUCT,...] [--nosrc] INPUT OUTPUT\n"
          "Rewrites the OpenMP constructs of the C/C++ unit INPUT into POMP-instrumented\n"
          "form (pomp.h) and writes OUTPUT; compile OUTPUT with -I<dir of INPUT>\n"
          "-I<pomp include dir>.\n"
          "  --lang=c|c++         language (default: from INPUT's extension)\n"
          "  --pomp-disable=LIST  leave constructs uninstrumented: parallel, for, sections,\n"
          "                       single, master, critical, atomic, barrier, flush, ordered,\n"
          "                       task, taskwait, locks, region, sync, omp\n"
          "  --nosrc              no #line directives\n"
          "  --help, --version\n",
          pu_progname());
}

static bool is_cxx_name(const char *path) {
  const char *dot = strrchr(path, '.');
  static const char *const ext[] = {".cc", ".cpp", ".cxx", ".C", ".c++", ".CPP", ".cp", NULL};
  for (const char *const *e = ext; dot && *e; e++)
    if (strcmp(dot, *e) == 0) return true;
  return false;
}

/* The whole file; NULL (after a message) on error. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    pu_error("%s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = pu_malloc(cap);
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size + 1 > cap) {
    cap = (size_t)st.st_size + 1;
    buf = pu_realloc(buf, cap);
  }
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
    if (c == '"' || c == '\\') { *o++ = '\\'; *o++ = (char)c; }
    else if (c < 0x20) o += sprintf(o, "\\%03o", c);
    else *o++ = (char)c;
  }
  *o = 0;
  return out;
}

static int instrument(const char *input, const char *output, OpariOptions *opt) {
  size_t len;
  char *src = read_file(input, &len);
  if (!src) return POMP_EXIT_FAILURE;
  char *tmp = pu_malloc(strlen(output) + 16);
  sprintf(tmp, "%s.XXXXXX", output);
  int fd = mkstemp(tmp);
  FILE *out = fd >= 0 ? fdopen(fd, "w+") : NULL;
  if (!out) {
    pu_error("%s: cannot create: %s", tmp, strerror(errno));
    free(src);
    free(tmp);
    return POMP_EXIT_FAILURE;
  }
  setvbuf(out, NULL, _IOFBF, 1 << 20);
  char *line_name = line_name_of(input);
  opt->file_name = input;
  opt->line_name = line_name;
  bool ok = opari_c(src, len, out, opt);
  if (fclose(out) != 0 && ok) {
    pu_error("%s: write error: %s", output, strerror(errno));
    ok = false;
  }
  if (ok) {
    chmod(tmp, 0644);
    if (rename(tmp, output) != 0) {
      pu_error("%s: %s", output, strerror(errno));
      ok = false;
    }
  }
  if (!ok) unlink(tmp);
  free(line_name);
  free(tmp);
  free(src);
  return ok ? POMP_EXIT_OK : POMP_EXIT_FAILURE;
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  OpariOptions opt = {0};
  int lang = -1; /* -1: from the extension */
  const char *files[2];
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return POMP_EXIT_OK;
    } else if (strcmp(a, "--version") == 0) {
      pu_print_version();
      return POMP_EXIT_OK;
    } else if (strcmp(a, "--lang=c") == 0) {
      lang = 0;
    } else if (strcmp(a, "--lang=c++") == 0) {
      lang = 1;
    } else if (strncmp(a, "--pomp-disable=", 15) == 0) {
      const char *bad;
      size_t bad_len;
      if (!opari_parse_disable(a + 15, &opt.disabled, &bad, &bad_len)) {
        pu_error("unknown construct '%.*s' in --pomp-disable", (int)bad_len, bad);
        return POMP_EXIT_USAGE;
      }
    } else if (strcmp(a, "--nosrc") == 0) {
      opt.nosrc = true;
    } else if (a[0] == '-' && a[1]) {
      pu_error("unknown option '%s' (try --help)", a);
      return POMP_EXIT_USAGE;
    } else if (nfiles < 2) {
      files[nfiles++] = a;
    } else {
      pu_error("too many arguments (try --help)");
      return POMP_EXIT_USAGE;
    }
  }
  if (nfiles != 2) {
    usage(stderr);
    return POMP_EXIT_USAGE;
  }
  opt.cxx = lang < 0 ? is_cxx_name(files[0]) : lang == 1;
  return instrument(files[0], files[1], &opt);
}
