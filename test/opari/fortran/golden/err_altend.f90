! ALTEND must name the innermost open region.
subroutine bad(k)
  integer :: k
!$pomp inst begin(a)
  k = 1
!$pomp inst altend(b)
!$pomp inst end(a)
end subroutine bad
