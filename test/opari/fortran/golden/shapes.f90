! Shapes seen in real code: empty SECTIONS, GOTO inside a section, atomic
! clauses in any order, comment lines between a DO directive and its
! loop, EXIT/CYCLE in loops, PARALLEL DO inside a serial loop.
subroutine shapes(n, alpha, x, y)
  use omp_lib
  integer :: n, x, y, i, j, k
  real :: alpha
  !$omp sections firstprivate(alpha)
  !$omp end sections
  !$omp sections
  !$omp end sections nowait
  !$omp sections lastprivate(x)
    !$omp section
      goto 30
  30  x = x + 1
  !$omp end sections
  !$omp parallel
  !$omp atomic hint(omp_sync_hint_uncontended) capture
    y = x * y
    x = y
  !$omp end atomic
  !$omp atomic capture release
    x = y
    y = x + y
  !$omp end atomic
  do i = 1, 3
    !$omp do collapse(2)
    ! a comment between the directive and its loop
    do j = 1, n
      do k = 1, n
        if (k == n) cycle
        x = x
      end do
    end do
    !$omp end do
  enddo
  !$omp end parallel
  do i = 1, 3
    !$omp parallel do private(x)
      do j = 1, 3
        do k = 1, 3
          if (k == n) exit
          x = k
        enddo
      enddo
    !$omp end parallel do
  enddo
end subroutine shapes
