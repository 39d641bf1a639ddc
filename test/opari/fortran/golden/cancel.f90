! A worksharing construct holding a CANCEL for it keeps its implicit
! barrier: NOWAIT is not added (it would be illegal).
subroutine cancelled(a, n)
  integer :: n, i
  real :: a(n)
!$omp parallel
!$omp do
  do i = 1, n
    if (a(i) < 0) then
!$omp cancel do
    end if
    a(i) = sqrt(a(i))
  end do
!$omp end do
!$omp sections
  a(1) = 0
!$omp cancel sections if(n < 2)
!$omp section
  a(2) = 0
!$omp end sections
!$omp end parallel
!$omp parallel do
  do i = 1, n
!$omp cancel do if(a(i) < 0)
    a(i) = 1
  end do
end subroutine cancelled
