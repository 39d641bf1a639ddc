// C++: a parallel for inside a template and a lambda, a range-for in a
// master construct; per-thread sequences are deterministic.
#include <cstdio>
#include <vector>

template <typename T> T total(const std::vector<T> &v) {
  T s = T();
  auto body = [&]() {
#pragma omp for reduction(+:s) schedule(static)
    for (long i = 0; i < (long)v.size(); i++) s += v[i];
  };
#pragma omp parallel num_threads(4)
  body();
  return s;
}

int main() {
  std::vector<int> v(100, 2);
  int count = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp master
    for (int x : v) count += x > 1;
  }
  std::printf("%d %d\n", total(v), count);
  return 0;
}
