/* sections: an implicit first section (no `section` directive) is a
   section too; each section body is wrapped in begin/end. */
void work(int);
void h(void) {
#pragma omp parallel
  {
#pragma omp sections
    {
      work(0);
      work(10);
#pragma omp section
      work(1);
#pragma omp section
      {
        work(2);
      }
    }
#pragma omp sections nowait
    {
#pragma omp section
      work(3);
    }
  }
#pragma omp parallel sections num_threads(2)
  {
#pragma omp section
    work(4);
#pragma omp section
    work(5);
  }
}
