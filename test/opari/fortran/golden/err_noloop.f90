subroutine e(s)
  integer :: s
!$omp do
  s = 1
end subroutine e
