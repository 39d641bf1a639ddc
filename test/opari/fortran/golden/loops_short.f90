! opari: --loops
! Short loops: a DO whose literal bounds give at most 16 iterations is
! left alone (loop_cost.h), in every spelling; one of 17, one bounded by
! a variable, a kind-suffixed bound and a header continued over two
! lines are instrumented.
subroutine s(a, n)
  integer :: n, i, k, m
  real :: a(n, n)
  do i = 1, 5
    call f(a(i, 1))
    a(i, 1) = 0
  end do
  do k=1,3
    call f(a(k, 2))
    a(k, 2) = 0
  end do
  do 10 i = 1, 8
    call f(a(i, 3))
    a(i, 3) = 0
10 continue
  do 20, i = 1, 8
    call f(a(i, 3))
    a(i, 3) = 0
20 continue
  do i=1,16,2
    call f(a(i, 4))
    a(i, 4) = 0
  end do
  do i = 16, 1, -1
    call f(a(i, 4))
    a(i, 4) = 0
  end do
  rows: do m = 1, 5
    call f(a(m, 5))
    a(m, 5) = 0
  end do rows
  do i = 0, 16
    call f(a(i + 1, 6))
    a(i + 1, 6) = 0
  end do
  do i = 1, n
    call f(a(i, 7))
    a(i, 7) = 0
  end do
  do i = 1, 5_4
    call f(a(i, 8))
    a(i, 8) = 0
  end do
  do i = 1, &
         50
    call f(a(i, 9))
    a(i, 9) = 0
  end do
  do m = 1, 5
    do i = 1, n
      call f(a(i, m))
      a(i, m) = 0
    end do
  end do
end subroutine s
