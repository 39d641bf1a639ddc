/* #pragma pomp: init/finalize/on/off, user regions (an early return ends
   them first), noinstrument/instrument. */
int work(int);
int u(int n) {
#pragma pomp inst init
#pragma pomp inst begin(outer)
  if (n < 0)
    return -1;
#pragma pomp inst begin(inner)
  n = work(n);
  if (n == 3) return work(n) + 1;
#pragma pomp inst end(inner)
#pragma pomp inst off
#pragma pomp noinstrument
#pragma omp parallel
  n++;
#pragma pomp instrument
#pragma pomp inst on
#pragma pomp inst end(outer)
#pragma pomp inst finalize
  return n;
}
