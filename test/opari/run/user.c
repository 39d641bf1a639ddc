/* User regions: an early return ends the open regions first, so begin and
   end stay balanced; an exit by break marked with altend too (the second
   search: three passes, ended once by altend and twice by end);
   init/finalize/on/off are called where written. */
#include <stdio.h>

static int find(const int *a, int n, int key) {
#pragma pomp inst begin(find)
  for (int i = 0; i < n; i++)
    if (a[i] == key) return i;
#pragma pomp inst end(find)
  return -1;
}

static int count_until(const int *a, int n, int stop) {
  int k = 0;
  for (int pass = 0; pass < 3; pass++) {
#pragma pomp inst begin(pass)
    if (a[pass] == stop) {
#pragma pomp inst altend(pass)
      break;
    }
    k += a[pass] + n;
#pragma pomp inst end(pass)
  }
  return k;
}

int main(void) {
  int a[] = {3, 1, 4, 1, 5};
#pragma pomp inst init
  int x = find(a, 5, 4);
  x += 10 * count_until(a, 5, 4);
#pragma pomp inst off
  int y = find(a, 5, 9);
#pragma pomp inst on
  printf("%d %d\n", x, y);
#pragma pomp inst finalize
  return 0;
}
