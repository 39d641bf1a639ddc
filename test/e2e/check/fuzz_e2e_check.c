/* libFuzzer target: the checker's two parsers and the check itself on
   arbitrary bytes.  The input is split at the first NUL: expectations
   before it, CSV after it.  Built with -DPOMP_FUZZ=ON and CC=clang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 2);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = text[size + 1] = '\0';
  const char *csv = text + strlen(text) + 1;
  if (csv > text + size) csv = text + size; /* no NUL: empty CSV */
  char err[512];
  e2e_spec spec;
  e2e_rows rows;
  int have_spec = e2e_spec_parse(&spec, text, "spec", err, sizeof err) == 0;
  int have_rows = e2e_rows_parse(&rows, csv, "csv", err, sizeof err) == 0;
  if (have_spec && have_rows) {
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
      e2e_check(&spec, &rows, 1 + (int)(size % 8), 1 + (int)(size % 3), sink);
      fclose(sink);
    }
  }
  if (have_spec) e2e_spec_free(&spec);
  if (have_rows) e2e_rows_free(&rows);
  free(text);
  return 0;
}
