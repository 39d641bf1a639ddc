! Free form: the OpenMP Validation Suite's fixed-form spelling is an error
! here (blanks separate keywords except inside directive names, OpenMP 5.0 2.1.2).
subroutine e(sum0, i)
  integer :: sum0, i
!$omp paralleldo
  do i = 1, 2
  end do
!$omp endparalleldo
!$omp parallel sectionsprivate(sum0,i)
!$omp section
  sum0 = 1
!$omp end parallel sections
end subroutine e
