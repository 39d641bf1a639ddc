/* sc_fork.c -- a program that forks a child which records events and
   exits normally (atexit runs in it too): the experiment stays the
   parent's. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sc.h"

DESCR(parent, "region", "parent", "sc_fork.c", 5, 6);
DESCR(child, "region", "child", "sc_fork.c", 7, 8);

int main(void) {
  POMP_Begin(&parent);
  pid_t pid = fork();
  if (pid == 0) {
    POMP_Begin(&child);
    POMP_End(&child);
    exit(0);
  }
  int status = 1;
  waitpid(pid, &status, 0);
  POMP_End(&parent);
  printf("child exit %d\n", WEXITSTATUS(status));
  return 0;
}
