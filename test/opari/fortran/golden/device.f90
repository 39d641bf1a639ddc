! Device constructs are passed and nothing inside them is instrumented
! (the POMP routines do not exist on a device); their loop forms may omit
! END; data regions run on the host and are instrumented inside.
subroutine device(a, n, s)
  integer :: n, i, s
  real :: a(n)
!$omp target map(tofrom: a, s)
!$omp parallel do reduction(+:s)
  do i = 1, n
    s = s + 1
  end do
!$omp critical
  s = s + 1
!$omp end critical
!$omp end target
!$omp target teams distribute parallel do map(a)
  do i = 1, n
    a(i) = 0
  end do
!$omp target simd
  do i = 1, n
    a(i) = 1
  end do
!$omp end target simd
!$omp target data map(a)
!$omp parallel
  a(1) = 2
!$omp end parallel
!$omp end target data
!$omp target update from(a)
!$omp teams num_teams(2)
!$omp parallel
!$omp end parallel
!$omp end teams
!$omp barrier
end subroutine device
