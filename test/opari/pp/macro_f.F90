! Upper-case Fortran is preprocessed by pomp-cc (gfortran -E -cpp) before
! pomp-opari: a directive made by a cpp macro and the live #ifdef arm are
! instrumented, with this file's lines in the descriptors.
#define PARALLEL_DO !$omp parallel do
program macro_f
  implicit none
  integer :: i, s(6)
#ifdef TWICE
  PARALLEL_DO
  do i = 1, 6
    s(i) = 2 * i
  end do
#else
!$omp parallel do
  do i = 1, 6
    s(i) = i
  end do
!$omp end parallel do
#endif
  print '(i0)', s(6)
end program
