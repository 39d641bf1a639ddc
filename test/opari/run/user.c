/* User regions: an early return ends the open regions first, so begin and
   end stay balanced; init/finalize/on/off are called where written. */
#include <stdio.h>

static int find(const int *a, int n, int key) {
#pragma pomp inst begin(find)
  for (int i = 0; i < n; i++)
    if (a[i] == key) return i;
#pragma pomp inst end(find)
  return -1;
}

int main(void) {
  int a[] = {3, 1, 4, 1, 5};
#pragma pomp inst init
  int x = find(a, 5, 4);
#pragma pomp inst off
  int y = find(a, 5, 9);
#pragma pomp inst on
  printf("%d %d\n", x, y);
#pragma pomp inst finalize
  return 0;
}
