// accessors.cpp -- C++ for the GCC plugin tests: accessors inlined into a
// hot OpenMP loop (never recorded), the out-of-line functions and the call
// tree that leads to the OpenMP region (recorded), and an exception that
// leaves two instrumented functions (balanced: their Leaves come before
// the handler's call).
#include <cstdio>
#include <stdexcept>
#include <vector>

class Field {
public:
  explicit Field(int n) : v_(n, 1.0) {}
  double &at(int i) { return v_[i]; } // inlined into relax's loop
  int size() const { return (int)v_.size(); }

private:
  std::vector<double> v_;
};

__attribute__((noinline)) double relax(Field &f) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (int i = 0; i < f.size(); i++) {
    f.at(i) *= 0.5;
    s += f.at(i);
  }
  return s;
}

// static and called once: inlined by GCC, but kept as a function by the
// plugin because it leads to an OpenMP region
static void sweep(Field &f, double &total) {
  for (int k = 0; k < 4; k++) total += relax(f);
}

__attribute__((noinline)) void check(int k) {
  if (k % 2) throw std::runtime_error("odd");
}

__attribute__((noinline)) int guarded(int k) {
  std::vector<int> tmp(k + 1); // a cleanup of its own on the way out
  check(k);
  return (int)tmp.size();
}

__attribute__((noinline)) void note_caught(int k) { std::printf("caught %d\n", k); }

int main() {
  Field f(1000);
  double total = 0;
  sweep(f, total);
  int sizes = 0;
  for (int k = 0; k < 4; k++) {
    try {
      sizes += guarded(k);
    } catch (const std::exception &) {
      note_caught(k);
    }
  }
  std::printf("total=%.3f sizes=%d\n", total, sizes);
  return 0;
}
