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
! `#if 0` arms and the `#else` of `#if 1` are dead (not instrumented, not
! checked); other conditions are live.
subroutine arms(s)
  integer :: s
#if 1
!$omp parallel
#else
!$omp parallel private(s)
#endif
#ifdef _OPENMP
!$omp critical
  s = s + 1
!$omp end critical
#endif
#if 0
#if 1
!$omp end critical
#endif
#elif defined(X)
!$omp barrier
#endif
!$omp end parallel
end subroutine arms
