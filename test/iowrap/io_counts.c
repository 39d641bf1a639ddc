/* io_counts.c -- writes and reads known amounts through POSIX and ISO C
   streams (test/iowrap/iowrap_counts.sh checks the trace and the report
   against the numbers in the comments). Built by pomp-cc. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static char buf[4096];
static char end_line[] = "end\n"; /* not const: GCC would make fputs an fwrite */

/* 3 x 1000 + 300 + 50 written; 3300 + 10 read back */
static void posix_calls(void) {
  int fd = open("posix.dat", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  for (int i = 0; i < 3; i++)
    if (write(fd, buf, 1000) != 1000) perror("write");
  struct iovec iov[2] = {{buf, 100}, {buf, 200}};
  if (writev(fd, iov, 2) != 300) perror("writev");
  if (pwrite(fd, buf, 50, 0) != 50) perror("pwrite");
  fsync(fd);
  close(fd);
  fd = open("posix.dat", O_RDONLY);
  if (read(fd, buf, sizeof buf) != 3300) perror("read");
  lseek(fd, 0, SEEK_SET);
  if (pread(fd, buf, 10, 5) != 10) perror("pread");
  close(fd);
  /* a failed call: recorded, no bytes */
  if (read(-1, buf, 10) != -1) perror("read(-1)");
}

/* 7 x 10 + 7 ("42 abc\n") + 4 ("end\n") written; 81 read back */
static void stdio_calls(void) {
  FILE *f = fopen("stdio.dat", "w");
  fwrite(buf, 10, 7, f);
  fprintf(f, "%d %s\n", 42, "abc");
  fputs(end_line, f);
  fflush(f);
  fclose(f);
  f = fopen("stdio.dat", "r");
  fseek(f, 0, SEEK_SET);
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  if (n != 81) fprintf(stderr, "fread: %zu\n", n);
}

/* "small": 20000 writes of 16 bytes each to /dev/null, nothing else */
static void small_writes(void) {
  int fd = open("/dev/null", O_WRONLY);
  for (int i = 0; i < 20000; i++)
    if (write(fd, buf, 16) != 16) perror("write");
  close(fd);
}

/* "fork": a child writes 100 bytes to the parent's descriptor and execs
   /bin/true with it open; the parent then writes 10 and closes it. The
   child is not measured (libpomp stops in a forked child): the trace holds
   the parent's open, write and close only, balanced. */
static void fork_and_exec(void) {
  int fd = open("fork.dat", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  pid_t pid = fork();
  if (pid == 0) {
    if (write(fd, buf, 100) != 100) _exit(1);
    execl("/bin/true", "true", (char *)NULL);
    _exit(1);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) perror("child");
  if (write(fd, buf, 10) != 10) perror("write");
  close(fd);
}

/* Whether process pid sleeps (state S in /proc/pid/stat, after the
   command's closing parenthesis). */
static int process_sleeps(pid_t pid) {
  char path[64], stat[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 1; /* no /proc: do not wait */
  ssize_t n = read(fd, stat, sizeof stat - 1);
  close(fd);
  stat[n > 0 ? n : 0] = '\0';
  const char *paren = strrchr(stat, ')');
  return !paren || paren[1] == '\0' || paren[2] == 'S';
}

/* "blocking": one read that blocks until a child has computed and closed
   the pipe (end of file, 0 bytes: no small I/O). The child starts its work
   only once the parent sleeps, in that read (its only blocking call after
   the fork), so all of the work lies inside the read whatever the load:
   the read's I/O time exceeds the parent's computation (the fork and two
   calls) by construction, not by a timing race. */
static void blocking_read(void) {
  int ends[2];
  if (pipe(ends) != 0) {
    perror("pipe");
    return;
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(ends[0]);
    while (!process_sleeps(getppid())) usleep(100);
    for (volatile unsigned long i = 0; i < 300000000UL; i++) {
    }
    _exit(0);
  }
  close(ends[1]);
  if (read(ends[0], buf, sizeof buf) != 0) perror("read(pipe)");
  close(ends[0]);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) perror("child");
}

int main(int argc, char **argv) {
  memset(buf, 'x', sizeof buf);
  if (argc > 1 && !strcmp(argv[1], "small")) {
    small_writes();
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "blocking")) {
    blocking_read();
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "fork")) {
    fork_and_exec();
    return 0;
  }
  posix_calls();
  stdio_calls();
  return 0;
}
