subroutine e(s)
  integer :: s
!$omp section
  s = 1
end subroutine e
