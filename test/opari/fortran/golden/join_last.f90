! A worksharing construct whose END is followed by END PARALLEL (comments
! between allowed) gets NOWAIT and reports the arrival at the join; one
! followed by a statement keeps its explicit barrier.
subroutine f(n, a, s)
  integer :: n, i
  double precision :: a(n), s
!$omp parallel
  a(1) = 1
!$omp do reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
!$omp end do
!$omp end parallel
!$omp parallel
!$omp do
  do i = 1, n
    a(i) = 0
  end do
  ! comment
!$omp end parallel
!$omp parallel
!$omp do
  do i = 1, n
    a(i) = 0
  end do
!$omp end do
  a(1) = s
!$omp end parallel
!$omp parallel
!$omp single
  a(2) = 1
!$omp end single
!$omp end parallel
end subroutine
