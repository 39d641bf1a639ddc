subroutine e(x)
  integer :: x
!$omp parallel
!$omp single
  x = 1
!$omp endsingle copyprivate(x)
!$omp task untiedmergeable
  x = 2
!$omp end task
!$omp end parallel
end subroutine e
