! sc_flock.f90 -- Fortran lock calls instrumented by pomp-opari: the renamed
! CALLs and the omp_test_lock / omp_test_nest_lock functions, which keep their
! names (the companion C file defines omp_test_[nest_]lock_).
program sc_flock
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: n
  integer :: depth
  call omp_init_lock(l)
  if (omp_test_lock(l)) call omp_unset_lock(l)
  call omp_destroy_lock(l)
  call omp_init_nest_lock(n)
  depth = omp_test_nest_lock(n)
  depth = depth + omp_test_nest_lock(n)
  call omp_unset_nest_lock(n)
  call omp_unset_nest_lock(n)
  call omp_destroy_nest_lock(n)
  print '(i0)', depth
end program sc_flock
