/* sc_snapshot.c -- a program that runs while its profile snapshots are
   read (POMP_MODE=profile POMP_SNAPSHOT=1, snapshot_test.sh): main calls
   tick (2 ms asleep, then leaf) until the file named by argv[1] exists,
   which the test creates once it has seen the snapshots it wants (a
   bound of 120 s ends it otherwise). Functions through
   -finstrument-functions. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static void __attribute__((noinline)) leaf(volatile int *x) { (*x)++; }

static void __attribute__((noinline)) tick(volatile int *x) {
  struct timespec d = {0, 2000000L};
  nanosleep(&d, NULL);
  leaf(x);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: sc_snapshot STOP_FILE\n");
    return 2;
  }
  volatile int x = 0;
  time_t end = time(NULL) + 120;
  while (access(argv[1], F_OK) != 0 && time(NULL) < end) tick(&x);
  printf("ticks=%d\n", x);
  return 0;
}
