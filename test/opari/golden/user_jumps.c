/* Leaving a user region with break, continue or goto cannot be given an
   end event: a warning naming the region.  Jumps that stay inside (loops
   and switches of the region, labels inside it) are quiet. */
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
    s += work(s);
  again:
    s++;
#pragma pomp inst end(body)
  }
out:
  return s;
}
