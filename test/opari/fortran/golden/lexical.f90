! What must not be instrumented or must survive: directives in strings and
! comments, `!$` conditional lines, lock calls (not in comments, strings
! or USE lists), POMP directives and the `!P$` sentinel.
program lexical
  use omp_lib, only: omp_lock_kind, omp_nest_lock_kind, omp_init_lock, omp_test_lock
  implicit none
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: nl
  character(len=40) :: s = '!$omp parallel'
  logical :: got
  ! !$omp barrier in a comment
  s = "it's !$omp barrier" // '''!$omp flush'''
!$ print *, 'openmp conditional line'
!$ call omp_set_lock(l)  ! conditional compilation lines are code
!$pomp inst init
  call omp_init_lock(l)
  CALL Omp_Set_Lock (l)   ! call omp_set_lock(l) in a comment
  call omp_unset_lock(l); call omp_destroy_lock(l)
  call omp_init_nest_lock(nl)
  call omp_set_nest_lock(nl)
  got = omp_test_lock(l)
  call omp_unset_nest_lock(nl)
  call omp_destroy_nest_lock(nl)
  print *, 'x = ', &
    'call omp_set_lock(l)'
!P$ print *, 'only when instrumented'
   !p$ call observe()
!$pomp inst off
!$POMP INST ON
!$pomp inst begin(phase_1)  ! a user region
  print *, s
!$pomp inst end(PHASE_1)  ! names ignore case
!$pomp inst finalize
end program lexical
