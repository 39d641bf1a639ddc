! opari: --loops
! Which DO loops --loops instruments: a shared labelled end (the outer
! loop only), a labelled DO statement (left alone), OpenMP's loops and
! the loop collapsed with one, depth, a computed GO TO (warned).
subroutine s(a, n)
  integer :: n, i, j, k
  real :: a(n, n)
  do 10 i = 1, n
    do 10 j = 1, n
      call f(a(i, j))
      a(i, j) = 0
10 continue
5 do i = 1, n
    call f(a(i, 1))
    if (i > 2) go to 5
  end do
!$omp parallel do collapse(2)
  do i = 1, n
    do j = 1, n
      call f(a(i, j))
      a(i, j) = 1
    end do
  end do
!$omp end parallel do
  do k = 1, n
    do i = 1, n
      do j = 1, n
        call f(a(i, j))
        a(i, j) = 2
      end do
    end do
    go to (7, 8) k
7   continue
8   continue
  end do
end subroutine s
