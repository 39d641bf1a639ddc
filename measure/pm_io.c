/* pm_io.c -- I/O handles for libpomp-io (pomp_measure.h, "I/O"): one
   handle per (I/O paradigm, file name), dense local ids, serialised with
   the other local definitions for unification (pm_unify.c). Interning by
   name keeps the definitions bounded however often a program reopens a
   file; IoCreateHandle/IoDestroyHandle events mark each open's lifetime. */
#include <pthread.h>
#include <stdlib.h>

#include "pm_defs.h"
#include "pomp_unify.h"
#include "pomp_util.h"

typedef struct io_handle_def {
  char *file;
  uint32_t paradigm; /* pm_io_paradigm */
} io_handle_def;

static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static io_handle_def *handles;
static size_t nhandles, cap_handles;
static pm_map by_name;

uint32_t pm_io_handle_define(pm_io_paradigm paradigm, const char *file) {
  if (!file) file = "";
  pm_blob key = {0};
  pm_blob_u32(&key, (uint32_t)paradigm);
  pm_blob_str(&key, file);
  pthread_mutex_lock(&io_lock);
  uint32_t id = pm_map_intern(&by_name, key.data, key.len, (uint32_t)nhandles);
  if (id == nhandles) {
    io_handle_def def = {pu_strdup(file), (uint32_t)paradigm};
    PU_PUSH(handles, nhandles, cap_handles, def);
  }
  pthread_mutex_unlock(&io_lock);
  pm_blob_free(&key);
  return id;
}

void pm_io_serialise_all(pm_blob *b) {
  pthread_mutex_lock(&io_lock); /* PU_PUSH may move the table */
  pm_blob_u32(b, (uint32_t)nhandles);
  for (size_t i = 0; i < nhandles; i++) {
    pm_blob_str(b, handles[i].file);
    pm_blob_u32(b, handles[i].paradigm);
  }
  pthread_mutex_unlock(&io_lock);
}
