/* overlay_help.c -- the help page, generated from the key table. */
#include <stdio.h>
#include <string.h>

#include "app.h"

void tui_open_help(tui_app *a) {
  tui_overlay *o = &a->overlay;
  tui_overlay_clear(o);
  o->kind = TUI_OVERLAY_HELP;
  snprintf(o->title, sizeof o->title, "pomp-tui keys");
  for (size_t i = 0; i < tui_nbindings; i++) {
    const tui_binding *b = &tui_bindings[i];
    char keys[64] = "", buf[8];
    for (int k = 0; k < 4 && b->keys[k]; k++) {
      if (k) strcat(keys, " ");
      strncat(keys, tui_key_name(b->keys[k], buf, sizeof buf), sizeof keys - strlen(keys) - 1);
    }
    tui_overlay_add(o, "  %-12s %s", keys, b->help);
  }
  tui_overlay_add(o, "%s", "");
  tui_overlay_add(o, "  %s",
                  "Mouse: click selects, click on the selection toggles it, wheel scrolls.");
  tui_overlay_add(o, "  %s", "Collapsed rows show inclusive values, expanded rows exclusive ones.");
  tui_overlay_add(o, "  %s", "The call pane is weighted by the selected property, the location");
  tui_overlay_add(o, "  %s", "pane by that property at the selected call path.");
  tui_overlay_add(o, "  %s", "Values: % of total (of the property's root: Time, Visits), % of");
  tui_overlay_add(o, "  %s", "the selection in the pane to the left, or absolute; m switches all.");
  tui_overlay_add(o, "  %s", "\"-\": no own value (an expanded row that owns nothing itself, a");
  tui_overlay_add(o, "  %s", "rank or node); \"<0.01\": above zero, below what two decimals show.");
  tui_overlay_add(o, "  %s", "/ also finds properties by meaning: imbalance, load balance, idle,");
  tui_overlay_add(o, "  %s", "wait, contention, I/O.");
}
