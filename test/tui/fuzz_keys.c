/*
 * fuzz_keys.c -- libFuzzer target: any input drives pomp-tui on a fixture
 * report, at any size, and must never crash, hang or leak.  Byte 0 picks
 * the fixture, sliced or whole location sums and the input's reading: a --keys script (the parser and the
 * events it yields), or one event per byte from a table of every bound key,
 * mouse events and resizes (reaches deep states faster).
 * Build: CC=clang cmake -DPOMP_FUZZ=ON ...; run: fuzz_tui_keys -max_total_time=120
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "batch.h"
#include "fixture.h"

static const int keys[] = {TUI_KEY_UP,
                           TUI_KEY_DOWN,
                           TUI_KEY_LEFT,
                           TUI_KEY_RIGHT,
                           TUI_KEY_PGUP,
                           TUI_KEY_PGDN,
                           TUI_KEY_HOME,
                           TUI_KEY_END,
                           TUI_KEY_ENTER,
                           TUI_KEY_TAB,
                           TUI_KEY_BTAB,
                           TUI_KEY_ESC,
                           TUI_KEY_BACKSPACE,
                           TUI_KEY_F1,
                           TUI_KEY_F3,
                           TUI_KEY_SF3,
                           ' ',
                           '+',
                           '-',
                           '*',
                           'E',
                           'C',
                           'x',
                           '/',
                           'n',
                           'N',
                           's',
                           'm',
                           'i',
                           'v',
                           '?',
                           'q',
                           '1',
                           '2',
                           '3',
                           'a',
                           'M',
                           '(',
                           0x6F22};
enum { NKEYS = sizeof keys / sizeof keys[0] };

static size_t byte_events(const uint8_t *d, size_t n, tui_event *ev) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    tui_event e = {TUI_EV_KEY, 0, 0, 0};
    uint8_t b = d[i];
    if (b < 4 * NKEYS) {
      e.key = keys[b % NKEYS];
    } else if (i + 2 < n) { /* pointer event at the next two bytes */
      static const tui_event_type kinds[] = {TUI_EV_CLICK, TUI_EV_WHEEL_UP, TUI_EV_WHEEL_DOWN,
                                             TUI_EV_RESIZE};
      e.type = kinds[b % 4];
      e.x = d[i + 1];
      e.y = d[i + 2] % 80;
      i += 2;
    } else {
      continue;
    }
    ev[k++] = e;
  }
  return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3 || size > 4096) return 0;
  static const char *const fixtures[] = {"small", "wide", "diff", "incomplete", "incomplete_long"};
  pomp_report *r = tui_fixture(fixtures[data[0] % (sizeof fixtures / sizeof *fixtures)]);
  tui_options o;
  tui_options_default(&o);
  o.top_k = 1 + data[1] % 12;
  o.ascii = data[0] & 8;
  o.budget = data[0] & 16 ? 1e-12 : 0; /* location sums in slices of one row */
  tui_app app;
  tui_app_init(&app, r, "fuzz.pomp", &o);
  tui_event *ev = NULL;
  size_t n = 0;
  if (data[0] & 4) {
    char *script = malloc(size - 2);
    memcpy(script, data + 3, size - 3);
    script[size - 3] = 0;
    char err[128];
    if (tui_parse_keys(script, &ev, &n, err, sizeof err) != 0) n = 0;
    free(script);
  } else {
    ev = malloc(sizeof *ev * size);
    n = byte_events(data + 3, size - 3, ev);
  }
  FILE *devnull = fopen("/dev/null", "w");
  tui_run_batch(&app, ev, n, 1 + data[1], 1 + data[2] % 80, devnull);
  fclose(devnull);
  free(ev);
  tui_app_free(&app);
  return 0;
}
