/* twice.c -- the second unit of the pomp-cc tests (separate compilation). */
int twice(int i) { return 2 * i; }
