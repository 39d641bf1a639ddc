/* batch.c -- see batch.h. */
#include "batch.h"

#include "guard.h"
#include "pomp_util.h"

int tui_run_batch(tui_app *a, const tui_event *events, size_t n, int w, int h, FILE *out) {
  if (sigsetjmp(tui_guard_env, 1)) return tui_guard_failed(a);
  tui_guard_arm();
  tui_app_resize(a, w, h);
  for (size_t i = 0; i < n && !a->quit; i++) {
    if (events[i].type == TUI_EV_DUMP) {
      tui_app_render(a);
      tui_vs_print(&a->vs, out);
      fputs("\f\n", out);
      continue;
    }
    tui_app_event(a, &events[i]);
  }
  tui_app_render(a);
  tui_guard_disarm();
  tui_vs_print(&a->vs, out);
  if (a->model.errors == 0) return POMP_EXIT_OK;
  pu_error("%s", a->model.first_error);
  return POMP_EXIT_FAILURE;
}
