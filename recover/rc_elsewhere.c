/* rc_elsewhere.c -- recovering an experiment that cannot be written
   (read-only storage): in a temporary directory of symbolic links to its
   files; recovery writes only there, and replaces a link by a copy before
   it repairs an event file (rc_own_copy). */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pomp_recover.h"
#include "rc.h"

/* Links every entry of from (an absolute path) into to; the directories
   recovery writes into (fragments, traces) are made, their entries
   linked in turn. */
static int mirror(const char *from, const char *to, int depth) {
  DIR *d = opendir(from);
  if (!d) {
    pu_error("%s: cannot open: %s", from, strerror(errno));
    return -1;
  }
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char src[PU_PATH_MAX], dst[PU_PATH_MAX];
    rc_path(src, sizeof src, from, e->d_name);
    rc_path(dst, sizeof dst, to, e->d_name);
    struct stat st;
    int written_in =
        depth == 0 && (!strcmp(e->d_name, "fragments") || !strcmp(e->d_name, "traces"));
    int own_dir = written_in && stat(src, &st) == 0 && S_ISDIR(st.st_mode);
    if ((own_dir ? mkdir(dst, 0755) : symlink(src, dst)) != 0) {
      pu_error("%s: cannot mirror %s: %s", to, src, strerror(errno));
      rc = -1;
    } else if (own_dir) {
      rc = mirror(src, dst, depth + 1);
    }
  }
  closedir(d);
  return rc;
}

int pomp_recover_elsewhere(const char *dir, int options, char *work, size_t size,
                           pomp_recover_summary *summary) {
  char real[PATH_MAX];
  if (!realpath(dir, real)) {
    pu_error("%s: %s", dir, strerror(errno));
    return -1;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(work, size, "%s/pomp-recover.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(work)) {
    pu_error("%s: cannot make a temporary directory to recover %s in: %s", work, dir,
             strerror(errno));
    return -1;
  }
  int rc = mirror(real, work, 0);
  if (rc == 0) rc = pomp_recover_with(work, options, summary);
  if (rc != 0) pomp_recover_discard(work);
  return rc;
}

/* Removes path: a directory's entries first (links are removed, never
   followed). */
static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char sub[PU_PATH_MAX];
      rc_path(sub, sizeof sub, path, e->d_name);
      remove_tree(sub);
    }
    if (d) closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

void pomp_recover_discard(const char *work) { remove_tree(work); }

int rc_own_copy(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return 0;
  char tmp[PU_TMP_PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s.copy", path);
  int in = open(path, O_RDONLY | O_CLOEXEC);
  int out = in >= 0 ? open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
  int rc = out >= 0 ? 0 : -1;
  char buf[1 << 16];
  ssize_t n;
  while (rc == 0 && (n = read(in, buf, sizeof buf)) != 0)
    if (n < 0 || write(out, buf, (size_t)n) != n) rc = -1;
  if (out >= 0 && close(out) != 0) rc = -1;
  if (in >= 0) close(in);
  if (rc == 0) rc = rename(tmp, path);
  if (rc != 0) {
    pu_warn("%s: cannot copy it to repair it: %s", path, strerror(errno));
    unlink(tmp);
  }
  return rc;
}
