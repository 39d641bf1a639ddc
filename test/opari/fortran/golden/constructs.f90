! Every construct of the paper's Tables 1-2 in free form, with the
! spellings OpenMP allows: upper case, glued END forms, continuations.
subroutine constructs(a, n, s)
  use omp_lib
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer, intent(inout) :: s
  integer :: i, v
  !$omp parallel private(i, v) shared(a, s)  ! indented sentinel, comment
    !$omp do schedule(static)
    do i = 1, n
      a(i) = a(i) + 1
    enddo
    !$omp enddo
    !$OMP DO
    outer: do i = 1, n
      a(i) = a(i) * 2
    end do outer
    !$omp do simd
    do i = 1, n
      a(i) = a(i) - 1
    end do
    !$omp end do simd nowait
    !$omp sections
      s = s + 1
    !$omp section
      s = s + 2
    !$omp end sections
    !$omp single
      s = s + 3
    !$omp endsingle
    !$omp single
      v = 4
    !$omp end single copyprivate(v)
    !$omp workshare
      a = a + v
    !$omp end workshare
    !$omp master
      s = s + 5
    !$omp end master
    !$omp critical (Update_S)
      s = s + 6
    !$omp end critical (update_s)
    !$omp atomic
      s = s + 7
    !$omp atomic update
      s = s + 8
    !$omp end atomic
    !$omp atomic capture
      v = s
      s = s + 1
    !$omp end atomic
    !$omp barrier
    !$omp flush (s)
    !$omp do ordered
    do i = 1, n
      !$omp ordered
        a(i) = a(i) + s
      !$omp end ordered
    end do
    !$omp task shared(s)
      s = s + 9
    !$omp end task
    !$omp taskwait
  !$omp endparallel
  !$omp paralleldo reduction(+:s) schedule(dynamic, 4) lastprivate(v) &
  !$omp& private(i) collapse(1)
  do i = 1, n
    s = s + i
    v = i
  end do
  !$omp end parallel do
  !$omp parallel do
  do i = 1, n
    a(i) = 0
  end do
  !$omp parallel sections &
  !$omp   firstprivate(v)
  !$omp section
    s = s + v
  !$omp section
    s = s - v
  !$omp end parallel sections
  !$omp parallel workshare
    a = 1
  !$omp end parallel workshare
  !$omp parallel master num_threads(2)
    s = s + 1
  !$omp end parallel master
end subroutine constructs

! Nothing is instrumented directly inside WORKSHARE (no CALL allowed
! there), but inside a PARALLEL nested in it again.
subroutine in_workshare(a, s)
  real :: a(10)
  integer :: s
  !$omp parallel workshare
    a = a + 1
    !$omp critical
      s = s + 1
    !$omp end critical
    !$omp atomic
      s = s + 1
    !$omp parallel
      !$omp critical
        s = s + 1
      !$omp end critical
    !$omp end parallel
  !$omp end parallel workshare
end subroutine in_workshare
