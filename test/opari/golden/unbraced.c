/* Constructs as unbraced bodies of if/else, for, while and do: wrapped in
   braces so that `else` still binds and the loop body stays the whole
   construct (OPARI 1.1 ran n++ once here instead of 3 times). */
int b(int c, int n) {
  int i;
  for (i = 0; i < 3; i++)
#pragma omp parallel
    n++;
  if (c)
#pragma omp parallel for
    for (i = 0; i < 3; i++) n++;
  else
#pragma omp parallel
    n--;
  while (c-- > 0)
#pragma omp parallel
    if (n) n++; else n--;
  do
#pragma omp parallel
    n += 2;
  while (0);
#pragma omp parallel
#pragma omp single
  do n++; while (n < 10);
  return n;
}
