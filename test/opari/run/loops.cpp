// opari: --loops
// C++ loops as regions: an exception, return, break and goto leave them
// through the guard's destructor; range-for and constexpr functions work.
#include <cstdio>
#include <stdexcept>
#include <vector>

static int total;
static int work(int i) {
  if (i == 99) throw std::runtime_error("ninety-nine");
  return total += i % 5;
}

constexpr int sq(int i) { return i * i; }
constexpr int squares(int n) { // constexpr: its loop is left alone
  int s = 0;
  for (int i = 0; i < n; i++) s += sq(i) + (i % 3 == 0 ? 1 : 0) + (i % 5 == 0 ? 2 : 0);
  return s;
}

static int thrower(const std::vector<int> &v) {
  int seen = 0;
  for (int x : v) {
    seen += work(x); // throws at 99: the loop is left by the exception
    seen += work(x + 1);
  }
  return seen;
}

static int first_big(const std::vector<int> &v) {
  int i = 0;
  while (i < (int)v.size()) {
    work(v[i]);
    if (v[i] > 5) return work(v[i]) * 10; // return value computed inside the loop
    i++;
  }
  return -1;
}

int main() {
  static_assert(squares(4) == 18, "constexpr still works");
  std::vector<int> v{1, 2, 3, 99, 4};
  try {
    thrower(v);
  } catch (const std::exception &e) {
    std::printf("caught %s total %d\n", e.what(), total);
  }
  std::printf("first_big %d\n", first_big({1, 7, 9}));
  int n = 0;
  do {
    work(n);
    auto f = [&](int k) {
      for (int j = 0; j < k; j++) {
        if (j == 2) break;
        work(j);
        work(j + 1);
      }
      return k;
    };
    n += f(n);
    n++;
    if (n > 3) goto done;
  } while (n < 100);
done:
  std::printf("n %d total %d\n", n, total);
  return 0;
}
