subroutine e(s)
  integer :: s
!$omp parallel &
  s = 1
end subroutine e
