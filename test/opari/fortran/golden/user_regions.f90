! A RETURN inside user regions ends them first (innermost first); a
! RETURN that cannot get calls before it (labelled, logical IF) is warned.
subroutine regions(n, return_code)
  integer :: n, return_code
!$pomp inst begin(outer)
!$pomp inst begin(Inner)
  return_code = 0
  if (n < 0) then
    return_code = 1
    return
  end if
  if (n == 0) return
  if (n == 1) goto 10
  return_code = 2
!$pomp inst end(inner)
!$pomp inst end(outer)
  return
10 return
end subroutine regions
