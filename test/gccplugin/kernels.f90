! kernels.f90 -- Fortran for the GCC plugin tests: a module procedure with
! an OpenMP loop (recorded), a straight-line function it calls (inlined or
! a leaf: never recorded), the main program.
module kernels
contains
  subroutine scale(a, n)
    integer :: n, i
    real(8) :: a(n)
!$omp parallel do num_threads(2)
    do i = 1, n
      a(i) = half(a(i))
    end do
!$omp end parallel do
  end subroutine scale

  real(8) function half(x)
    real(8) :: x
    half = x / 2
  end function half
end module kernels

program main
  use kernels
  real(8) :: a(1000)
  integer :: k
  a = 8
  do k = 1, 3
    call scale(a, 1000)
  end do
  print '(F8.1)', sum(a)
end program main
