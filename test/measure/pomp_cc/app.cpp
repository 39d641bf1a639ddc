// app.cpp -- a C++ program for pomp-cc: names come back demangled.
#include <cstdio>
namespace calc {
__attribute__((noinline)) int square(int x) { return x * x; }
}  // namespace calc
int main() {
  int s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (int i = 0; i < 4; i++) s += calc::square(i);
  std::printf("s=%d\n", s);
  return 0;
}
