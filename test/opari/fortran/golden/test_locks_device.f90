! omp_test_lock in a device construct is not instrumented (no companion
! definition): only the host's omp_test_nest_lock is.
subroutine probe(l, n, got, depth)
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: n
  logical :: got
  integer :: depth
!$omp target map(tofrom: got)
  got = omp_test_lock(l)
!$omp end target
  depth = omp_test_nest_lock(n)
end subroutine probe
