/*
 * format.h -- values as text: percentages for the % modes, seconds,
 * occurrences and bytes with a scaled unit for the absolute mode.
 */
#ifndef TUI_FORMAT_H
#define TUI_FORMAT_H

#include <stddef.h>

#include "pomp_report.h"

#define TUI_VALUE_WIDTH 7

/* Percent of ref ("12.34"); "<0.01" for a value above zero that would
   print as 0.00 (">-0.01" below); "-" when v is undefined (NAN: no own
   value) or ref is 0 while v is not. */
void tui_format_percent(char *buf, size_t size, double v, double ref);
/* Absolute value with a unit: "1.23 s", "45.6 ms", "12.0 KiB", "3.40k". */
void tui_format_absolute(char *buf, size_t size, double v, pomp_unit unit);

#endif
