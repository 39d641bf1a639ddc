! Preprocessor lines are kept; the marks in the output name this file, so
! gfortran's messages (after cpp) point at its lines.
#define N 8
#ifdef _OPENMP
# define THREADS 4
#else
# define THREADS 1
#endif
subroutine prep(a)
  real :: a(N)
  integer :: i
!$omp parallel do num_threads(THREADS)
  do i = 1, N
    a(i) = i
  end do
#if 0
!$omp barrier
#endif
end subroutine prep
