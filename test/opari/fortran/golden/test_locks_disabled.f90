! opari: --pomp-disable=locks
! With locks disabled nothing of the lock API is instrumented: no
! omp_test_lock_ in the companion either.
logical function probe(l)
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: l
  probe = omp_test_lock(l)
  if (probe) call omp_unset_lock(l)
end function probe
