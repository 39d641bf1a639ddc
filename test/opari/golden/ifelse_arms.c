/* A body whose opening brace is written once per #if arm: the look-ahead
   reads the first arm, so the braces balance (OPARI 1.1 and OPARI2 read
   both arms and lost track). */
void w(int);
void arms(int n) {
#pragma omp parallel
#ifdef FAST
  { w(n);
#else
  { w(-n);
#endif
    w(0);
  }
}
