! opari: --loops=all
! --loops=all takes short loops too (a DO of 5 iterations with a tiny body).
subroutine s(a)
  integer :: i
  real :: a(5)
  do i = 1, 5
    a(i) = 0
  end do
end subroutine s
