/* rc_alive.c -- is the run of these fragments still going? Recovering a
   run that still writes would put an anchor and definitions next to event
   files the program is appending to, and leave fragments/RECOVERED in the
   run's directory after it finished (every later analysis would call it
   incomplete). A fragment names its process: host, boot id, pid and the
   pid's start time (pid numbers are reused); a rank whose process is
   alive on this host stops recovery. Ranks on other hosts cannot be
   checked from here. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pomp_util.h"
#include "rc.h"

/* Is rank r's process alive? */
static int alive(const rc_rank *k, const char *host, const char *boot_id) {
  uint64_t start;
  return k->present && !strcmp(k->frag.host, host) && boot_id[0] &&
         !strcmp(k->frag.boot_id, boot_id) && pm_frag_process_start(k->frag.pid, &start) == 0 &&
         start == k->frag.start;
}

/* mpirun may return while the ranks it SIGKILLed are still on their way
   out: a rank alive is given up to this long to go. */
#define GRACE_MS 2000

int rc_check_finished(const rc_set *set) {
  char host[256], boot_id[64];
  if (gethostname(host, sizeof host) != 0) return 0;
  host[sizeof host - 1] = '\0';
  pm_frag_boot_id(boot_id, sizeof boot_id);
  for (uint32_t r = 0; r < set->nranks; r++) {
    const rc_rank *k = &set->ranks[r];
    struct timespec tick = {0, 20000000};
    for (int waited = 0; waited < GRACE_MS && alive(k, host, boot_id); waited += 20)
      nanosleep(&tick, NULL);
    if (!alive(k, host, boot_id)) continue;
    pu_error("%s: the run is still going (rank %u is pid %u on this host); recover it "
             "once it has ended",
             set->dir, r, k->frag.pid);
    return -1;
  }
  return 0;
}
