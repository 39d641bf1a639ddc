/* format.c -- see format.h. */
#include "format.h"

#include <math.h>
#include <stdio.h>

/* Three significant digits or more for the whole part, so the text fits
   TUI_VALUE_WIDTH with a unit of up to three characters. */
static void digits(char *buf, size_t size, double x, const char *unit) {
  double a = fabs(x);
  const char *fmt = a >= 99.995 ? "%.0f%s%s" : a >= 9.9995 ? "%.1f%s%s" : "%.2f%s%s";
  snprintf(buf, size, fmt, x, *unit ? " " : "", unit);
}

void tui_format_percent(char *buf, size_t size, double v, double ref) {
  if (isnan(v) || (ref == 0 && v != 0)) {
    snprintf(buf, size, "-");
    return;
  }
  /* |ref|: in a difference the total may be negative, and a value that
     grew stays positive (the colours follow the same sign) */
  double pct = ref == 0 ? 0.0 : 100.0 * v / fabs(ref);
  /* Above zero but below what two decimals show: "<0.01", not a "0.00"
     that the lowest weight glyph would contradict. */
  if (pct != 0 && fabs(pct) < 0.005) snprintf(buf, size, pct > 0 ? "<0.01" : ">-0.01");
  else snprintf(buf, size, "%.2f", pct);
}

void tui_format_absolute(char *buf, size_t size, double v, pomp_unit unit) {
  if (isnan(v)) {
    snprintf(buf, size, "-");
    return;
  }
  typedef struct {
    double factor;
    const char *name;
  } step;
  static const step sec[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};
  static const step bytes[] = {
      {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}, {1, "B"}};
  static const step occ[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
  const step *scale = unit == POMP_UNIT_SEC ? sec : unit == POMP_UNIT_BYTES ? bytes : occ;
  if (v == 0) {
    snprintf(buf, size, "0");
    return;
  }
  if (unit == POMP_UNIT_OCC && fabs(v) < 1000 && v == floor(v)) {
    snprintf(buf, size, "%.0f", v);
    return;
  }
  int i = 0;
  while (i < 3 && fabs(v) < scale[i].factor * 0.9995) i++;
  double x = v / scale[i].factor;
  if (fabs(x) >= 99999.5) {
    snprintf(buf, size, "%.1e", v);
    return;
  }
  digits(buf, size, x, scale[i].name);
}
