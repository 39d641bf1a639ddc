subroutine e(s)
  integer :: s
!$omp parallel
!$omp single
  s = 1
!$omp end parallel
end subroutine e
