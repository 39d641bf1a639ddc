subroutine e(i)
  integer :: i
!$omp parallel
!$omp do
  do i = 1, 2
!$omp canceldo
  end do
!$omp end do
!$omp end parallel
end subroutine e
