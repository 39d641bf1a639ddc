! ALTEND marks an early exit from a user region: an end event that keeps
! the region open, so begin and end stay balanced on every path.
subroutine altend(n, k)
  integer :: n, k, i
  k = 0
  do i = 1, n
!$pomp inst begin(pass)
    if (i == 3) then
!$pomp inst altend(pass)
      exit
    end if
    k = k + i
!$pomp inst end(pass)
  end do
end subroutine altend
