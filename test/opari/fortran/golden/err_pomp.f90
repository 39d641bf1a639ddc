subroutine e(s)
  integer :: s
!$pomp inst begin(a)
  s = 1
!$pomp inst end(b)
end subroutine e
