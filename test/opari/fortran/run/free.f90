! Free-form program whose per-thread POMP events are deterministic
! (static schedules, no single/sections/tasks); run with 4 threads.
program free
  use omp_lib
  implicit none
  integer :: i, total, ltotal, hits, n, depth
  integer(omp_lock_kind) :: lck; integer(omp_nest_lock_kind) :: nlck
  real :: a(16)
  character(len=*), parameter :: decoy = '!$omp barrier'

  n = 16
  total = 0; ltotal = 0 ! the lock's own counter: one under both raced
  hits = 0
!$pomp inst init
  call omp_init_lock(lck)
!$POMP INST BEGIN(setup)
  a = 0.0
!$pomp inst end(setup)
!$omp parallel default(none) shared(a, n, total, ltotal, hits, lck) private(i) &
!$omp& num_threads(4)
!$omp do schedule(static)
  do i = 1, n
    a(i) = real(i) ! the loop ends at END DO, no END DO directive
  end do
!$omp critical (sum)
  total = total + 1
!$omp end critical (sum)
!$omp atomic
  hits = hits + 1
!$omp atomic update
  hits = hits + 1
!$omp end atomic
  call omp_set_lock(lck)
  ltotal = ltotal + 1
  call omp_unset_lock(lck)
!$omp barrier
!$omp master
  total = total + 100
!$omp end master
!$omp do schedule(static,1) ordered
  do i = 1, 8
!$omp ordered
    hits = hits + i
!$omp end ordered
  end do
!$omp end do
!$omp flush(total)
!$omp end parallel
!$omp parallel do schedule(static) reduction(+:total)
  do i = 1, n
    total = total + int(a(i))
  end do
!$omp parallel do schedule(static) &
!$omp   reduction(+:hits)
  do i = 1, n
    hits = hits + 1
  end do
!$omp end parallel do
!$omp parallel master shared(total)
  total = total + 1000
!$omp end parallel master
  ! the test functions keep their names (companion: omp_test_[nest_]lock_)
  if (omp_test_lock(lck)) then
    hits = hits + 100
    call omp_unset_lock(lck)
  end if
  call omp_destroy_lock(lck)
  call omp_init_nest_lock(nlck)
  depth = omp_test_nest_lock(nlck)
  depth = depth + omp_test_nest_lock(nlck)
  call omp_unset_nest_lock(nlck); call omp_unset_nest_lock(nlck)
  call omp_destroy_nest_lock(nlck)
!$pomp inst finalize
  print '(a,i0,a,i0,a,i0,a)', 'total ', total + ltotal, ' hits ', hits, ' depth ', depth, ' ' // decoy
end program free
