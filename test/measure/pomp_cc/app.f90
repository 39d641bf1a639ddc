! app.f90 -- a Fortran OpenMP program for the pomp-cc tests.
program app
  implicit none
  integer :: i, s
  s = 0
!$omp parallel do reduction(+:s) num_threads(2)
  do i = 1, 8
    s = s + i
  end do
!$omp end parallel do
  print '(a,i0)', 'sum=', s
end program app
