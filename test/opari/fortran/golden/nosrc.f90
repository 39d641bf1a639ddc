! opari: --nosrc
subroutine nosrc(s)
  integer :: s
!$omp parallel
  s = 1
!$omp end parallel
end subroutine nosrc
