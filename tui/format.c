/* format.c -- see format.h. */
#include "format.h"

#include <math.h>
#include <stdio.h>

#include "pomp_util.h"

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
  static const pu_scale_step bytes[] = {
      {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}, {1, "B"}};
  static const pu_scale_step occ[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
  const pu_scale_step *scale = unit == POMP_UNIT_SEC     ? pu_seconds_scale
                               : unit == POMP_UNIT_BYTES ? bytes
                                                         : occ;
  if (v == 0) {
    snprintf(buf, size, "0");
    return;
  }
  if (unit == POMP_UNIT_OCC && fabs(v) < 1000 && v == floor(v)) {
    snprintf(buf, size, "%.0f", v);
    return;
  }
  pu_format_scaled(buf, size, v, scale, PU_SECONDS_STEPS); /* each scale has 4 steps */
}
