! Constructs whose thread assignment is not deterministic (single,
! sections, tasks): the log is checked sorted, without thread ids.
program sorted
  implicit none
  integer :: x, y, z, k
  x = 0
  y = 0
  z = 0
!$omp parallel private(k) shared(x, y, z)
!$omp single
  x = x + 1
!$omp end single
!$omp single
  y = y + 1
!$omp end single nowait
!$omp single
  k = 7
!$omp end single copyprivate(k)
!$omp atomic
  z = z + k
!$omp sections
  x = x + 10
!$omp section
  y = y + 10
!$omp end sections
!$omp single
!$omp task shared(x)
  x = x + 100
!$omp end task
!$omp task shared(y)
  y = y + 100
!$omp end task
!$omp taskwait
!$omp end single
!$omp end parallel
!$omp parallel sections
!$omp section
  x = x + 1000
!$omp section
  y = y + 1000
!$omp end parallel sections
  print *, x, y, z
end program sorted
