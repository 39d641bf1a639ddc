! opari: --pomp-disable=critical,locks,region,atomic
! Disabled constructs and constructs this tool
! does not know are passed unchanged.
subroutine disabled(s, l)
  use omp_lib
  integer :: s, i
  integer(omp_lock_kind) :: l
!$omp parallel
!$omp critical
  s = s + 1
!$omp end critical
!$omp atomic
  s = s + 1
  call omp_set_lock(l)
  call omp_unset_lock(l)
!$pomp inst begin(r)
  s = s + 1
!$pomp inst end(r)
!$omp end parallel
!$omp parallel do proc_bind(close) if(s > 0)
  do i = 1, 3
    s = s + i
  end do
!$omp target
  s = s + 1
!$omp end target
end subroutine disabled
subroutine not_instrumented(s)
  integer :: s
!$omp parallel masked
  s = s + 1
!$omp end parallel masked
!$omp parallel loop
  do s = 1, 3
  end do
end subroutine not_instrumented
