subroutine e(s)
  integer :: s
!$omp parallel private(s
  s = 1
!$omp end parallel
end subroutine e
