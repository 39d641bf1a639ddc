subroutine e(s)
  integer :: s
  s = 1
!$omp end do
end subroutine e
