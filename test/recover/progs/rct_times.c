/* rct_times.c -- times for the kill test (kill_test.sh):
     rct_times now       CLOCK_MONOTONIC in ns (libpomp's clock under
                         POMP_CLOCK=monotonic)
     rct_times ARCHIVE   per location: "ID EVENTS FIRST LAST" (times of its
                         first and last event, ns) */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "trace_reader.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: rct_times now | ARCHIVE\n");
    return 2;
  }
  if (!strcmp(argv[1], "now")) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("%llu\n", (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec);
    return 0;
  }
  tr_trace t;
  if (tr_read(argv[1], &t, 0) != 0) return 1;
  for (size_t i = 0; i < t.nlocs; i++) {
    const tr_location *l = &t.locs[i];
    unsigned long long first = 0, last = 0;
    if (l->nevents) {
      first = tr_event_of(&t, l, 0)->time;
      last = tr_event_of(&t, l, l->nevents - 1)->time;
    }
    printf("%llu %zu %llu %llu\n", (unsigned long long)l->id, l->nevents, first, last);
  }
  tr_free(&t);
  return 0;
}
