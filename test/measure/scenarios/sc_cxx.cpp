// sc_cxx.cpp -- C++ user functions: names come back demangled.
#include <cstdio>

namespace geometry {
struct Box {
  __attribute__((noinline)) int volume(int w) const { return w * w * w; }
};
__attribute__((noinline)) int scale(int v, double f) { return (int)(v * f); }
}  // namespace geometry

int main() {
  geometry::Box b;
  std::printf("%d\n", geometry::scale(b.volume(2), 1.5));
  return 0;
}
