! sc_throttle.f90 -- automatic throttling of a Fortran function: tiny is
! called 300000 times (a module procedure, out of line: -O1 -fno-inline).
module sc_tiny
  implicit none
contains
  integer function tiny(x)
    integer, intent(in) :: x
    tiny = iand(x * 3 + 1, 1)
  end function tiny
end module sc_tiny

program sc_throttle
  use sc_tiny
  implicit none
  integer :: i, s
  s = 0
  do i = 1, 300000
    s = s + tiny(i)
  end do
  print '(i0)', s
end program sc_throttle
