! Jacobi relaxation (the examples' heat/jacobi kernel) in a module, the
! way long-lived Fortran codes are written: contained procedures,
! IMPLICIT NONE, DEFAULT(NONE), an orphaned DO, reductions, a convergence
! test by the master between barriers.  Per-thread events are
! deterministic (static schedules, no SINGLE).
module jacobi_mod
  implicit none
  integer, parameter :: n = 64, iterations = 4
contains
  subroutine sweep(u, unew)
    real(8), intent(in) :: u(0:n+1, 0:n+1)
    real(8), intent(out) :: unew(0:n+1, 0:n+1)
    integer :: i, j
    !$omp do schedule(static)
    do j = 1, n
      do i = 1, n
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
      end do
    end do
    !$omp end do
  end subroutine sweep

  subroutine relax(u, unew, residual)
    real(8), intent(inout) :: u(0:n+1, 0:n+1), unew(0:n+1, 0:n+1)
    real(8), intent(out) :: residual
    real(8) :: local
    integer :: it, i, j
    residual = 0
    !$omp parallel default(none) shared(u, unew, residual, local) private(it, i, j)
    do it = 1, iterations
      call sweep(u, unew)
      !$omp master
      local = 0
      !$omp end master
      !$omp barrier
      !$omp do schedule(static) reduction(+:local)
      do j = 1, n
        do i = 1, n
          local = local + (unew(i, j) - u(i, j))**2
          u(i, j) = unew(i, j)
        end do
      end do
      !$omp master
      residual = sqrt(local)
      !$omp end master
      !$omp barrier
    end do
    !$omp end parallel
  end subroutine relax
end module jacobi_mod

program jacobi
  use jacobi_mod
  implicit none
  real(8), allocatable :: u(:, :), unew(:, :)
  real(8) :: residual
  allocate(u(0:n+1, 0:n+1), unew(0:n+1, 0:n+1))
  u = 0
  u(0, :) = 1
  unew = u
  call relax(u, unew, residual)
  print '(a,f10.5)', 'residual ', residual  ! few digits: the reduction order varies
  print '(a,f12.8)', 'u(1,1)   ', u(1, 1)
end program jacobi
