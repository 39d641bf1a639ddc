// C++: raw strings, lambdas, templates, range-for, try/catch.
#include <vector>
static const char *raw = R"x(
#pragma omp parallel
)x";
template <typename T> T sum(const std::vector<T> &v) {
  T s = T();
#pragma omp parallel
  {
    auto add = [&](T x) {
#pragma omp critical
      s += x;
    };
#pragma omp single
    for (const auto &x : v) add(x);
  }
  return s;
}
int run() {
  std::vector<int> v{1, 2, 3};
  int r = 0;
#pragma omp parallel
  try { r = sum(v); } catch (...) { r = -1; }
  return r + (raw[0] == '\n');
}
