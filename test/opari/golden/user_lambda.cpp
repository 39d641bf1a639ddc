// A return inside a C++ lambda does not leave the user region around it;
// a return of the function itself does.
#include <algorithm>
#include <vector>
int count_big(std::vector<int> &v, int limit) {
#pragma pomp inst begin(count)
  auto big = [limit](int x) { return x > limit; };
  auto small = [&](int x) mutable {
    if (x < 0) return false;
    return x <= limit;
  };
  if (v.empty()) return 0;
  int n = (int)std::count_if(v.begin(), v.end(), big);
  n -= (int)std::count_if(v.begin(), v.end(), small) * 0;
#pragma pomp inst end(count)
  return n;
}
