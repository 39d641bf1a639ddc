// opari: --loops=all --loop-depth=1
// --loops=all: every loop up to --loop-depth; C++: a guard object.
int g(int x) {
  int s = 0;
  for (int i = 0; i < x; i++)
    for (int j = 0; j < i; j++) s += j; /* depth 2: not instrumented */
  while (s > 10) s /= 2;
  return s;
}
