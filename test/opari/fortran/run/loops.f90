! opari: --loops
! DO loops as regions: every way out (EXIT and CYCLE of a named outer
! loop, RETURN, GO TO out, logical IFs) leaves the loop's region.
module work_m
  implicit none
  integer :: total = 0
contains
  subroutine work(i)
    integer, intent(in) :: i
    total = total + mod(i, 7)
  end subroutine work

  integer function find(n, target)
    integer, intent(in) :: n, target
    integer :: i
    do i = 1, n
      call work(i)
      if (i == target) return
      find = i
    end do
    find = -1
  end function find

  subroutine named(n)
    integer, intent(in) :: n
    integer :: i, j
    outer: do i = 1, n
      inner: do j = 1, n
        call work(j)
        if (j == 2) cycle outer
        if (i == 3) exit outer
        call work(i)
      end do inner
    end do outer
  end subroutine named

  subroutine jumps(n)
    integer, intent(in) :: n
    integer :: i, k
    k = 0
    do while (k < n)
      k = k + 1
      call work(k)
      if (k > 3) go to 20
      call work(k + 1)
    end do
20  continue
    do 30 i = 1, n
      do 25 k = 1, n - 3
        call work(i + k)
        call work(i)
25    continue
30  continue
    do i = 1, n
      call work(i)
      if (i == 2) then
        exit
      end if
      call work(i * 2)
    end do
  end subroutine jumps
end module work_m

program loops
  use work_m
  implicit none
  integer :: s, i
  print *, 'find', find(10, 4)
  print *, 'find', find(3, 4)
  call named(5)
  call jumps(5)
  s = 0
  do i = 1, 5
    s = s + i
  end do
  print *, 'total', total, s
end program loops
