/* Without preprocessing, the block of a construct that ends inside an
   #ifndef arm is taken from the first arm only: a warning (the other arm
   would get no closing events).  Arms that close before #endif are quiet. */
void w(int);
void g(int n) {
#pragma omp parallel for
#ifndef SLOW
  for (int i = 0; i < n; i++) w(i);
#else
  for (int i = 0; i < n; i++) { w(-i); }
#endif
#pragma omp parallel
  {
#if 1
    w(1);
#else
    w(2);
#endif
  }
}
