! Input already preprocessed, with line marks: descriptors and inserted
! marks use the logical line numbers and the files the marks name.
subroutine marked(s)
  integer :: s
# 100 "marked.f90"
!$omp parallel
!$omp critical
  s = s + 1
!$omp end critical
!$omp end parallel
end subroutine marked
# 7 "include/kernel.inc"
subroutine from_include(s)
  integer :: s
!$omp atomic
  s = s + 1
end subroutine from_include
