/* rct_times.c -- times for the kill test (kill_test.sh), counts for the
   disk-full test (diskfull_test.sh):
     rct_times now       CLOCK_MONOTONIC in ns (libpomp's clock under
                         POMP_CLOCK=monotonic)
     rct_times ARCHIVE   per location: "ID EVENTS FIRST LAST" (times of its
                         first and last event, ns)
     rct_times counts ARCHIVE REGION
                         per location: "ID RANK THREAD READ DECLARED ENTERS":
                         the events read from its file, the count its
                         definition declares (what libpomp wrote), the
                         Enters of REGION; exit 1 when a file cannot be
                         read to its end */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "trace_reader.h"

static int counts(const char *archive, const char *region) {
  tr_trace t;
  if (tr_read(archive, &t, 0) != 0) return 1;
  for (size_t i = 0; i < t.nlocs; i++) {
    const tr_location *l = &t.locs[i];
    size_t enters = 0;
    for (size_t k = 0; k < l->nevents; k++) {
      const tr_event *e = tr_event_of(&t, l, k);
      enters += e->kind == TR_ENTER && !strcmp(tr_region_name(&t, e->region), region);
    }
    printf("%llu %u %u %zu %llu %zu\n", (unsigned long long)l->id, l->rank, l->thread, l->nevents,
           (unsigned long long)l->declared_events, enters);
  }
  tr_free(&t);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "counts")) return counts(argv[2], argv[3]);
  if (argc != 2) {
    fprintf(stderr, "usage: rct_times now | ARCHIVE | counts ARCHIVE REGION\n");
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
