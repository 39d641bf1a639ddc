! Input already preprocessed, with line marks: descriptors and inserted
! marks use the logical line numbers.
subroutine marked(s)
  integer :: s
# 100 "marked.f90"
!$omp parallel
!$omp critical
  s = s + 1
!$omp end critical
!$omp end parallel
end subroutine marked
