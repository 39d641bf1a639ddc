/* Leaving a user region with break, continue or goto cannot be given an
   end event: a warning naming the region.  Jumps that stay inside (loops
   and switches of the region, labels inside it) are quiet, and so is an
   exit the user marked with `altend` (an end event that does not close
   the region; a return after it ends only the regions around it). */
int work(int);
int jumps(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
#pragma pomp inst begin(body)
    if (work(i) < 0) break;
    if (work(i) == 0) continue;
    for (int j = 0; j < i; j++) {
      if (j == 3) break;
      if (j == 2) continue;
    }
    switch (i) {
    case 1: s++; break;
    default: break;
    }
    do { s--; if (s < 0) break; } while (s > 10);
    if (s > 100) goto out;
    if (s > 50) goto again;
    if (s == 7) {
#pragma pomp inst altend(body)
      break;
    }
    if (s == 9) {
#pragma pomp inst altend(body)
      return -1;
    }
    s += work(s);
  again:
    s++;
#pragma pomp inst end(body)
  }
out:
  return s;
}
