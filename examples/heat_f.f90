! heat_f.f90 -- heat.c in Fortran: the same hybrid MPI + OpenMP mini-
! application (2-D heat diffusion on a square plate, Jacobi sweeps), written
! the way a Fortran code is (a module of subroutines, `use mpi`, `!$omp
! parallel do`), to show pomp on Fortran end to end.
!
! The plate has GRID x GRID points; its edge is held fixed (top edge at 1.0,
! the other edges at 0.0).  The GRID-2 interior rows are split in blocks over
! the ranks; each rank keeps one halo row above and below its block.  A row
! is a column of the Fortran array field(0:GRID-1, 0:rows+1), so that it is
! contiguous in memory and goes into an MPI message as it is.  Every step:
!   exchange_halos   MPI_Irecv/MPI_Isend with the neighbours, MPI_Waitall
!   jacobi_sweep     each point becomes the mean of its 4 neighbours
!                    (!$omp parallel do over the rows)
! every CHECKPOINT_EVERY steps:
!   write_checkpoint rank 0 saves the field (simulated I/O, see below)
!   global_residual  norm of the change: OpenMP reduction, then MPI_Allreduce
! and at the end mean_temperature (MPI_Reduce) is printed by rank 0.  The
! arithmetic is heat.c's, point for point, so both print the same numbers.
! Works with any number of ranks that divides GRID-2 and any number of
! threads.
!
! usage: heat_f [STEPS [CHECKPOINT_SECONDS]]   (default 30 and 0.300)
!
! Planted problem (see expect/heat_f.txt), as in heat.c:
!   rank 0 alone writes the checkpoints, serially on its master thread, just
!   before a residual is computed (simulated I/O of CHECKPOINT_S each;
!   STEPS / CHECKPOINT_EVERY = 3 checkpoints = 0.900 s).
!   -> mpi_wait_nxn 0.900 at solve;global_residual;MPI_Allreduce on every
!      other rank (master thread): they wait for rank 0 to join;
!   -> omp_idle_threads 0.900 at solve;write_checkpoint;simulate_work on the
!      workers of rank 0, idle while their master writes.
! The simulated I/O is plant.c's simulate_work (nanosleep, see plant.h),
! called through its C binding: a length the code states, on any load.
! So it links with plant.o (examples/README.md):
!   pomp-cc mpicc -fopenmp -c examples/plant.c -o plant.o
!   pomp-cc mpif90 -fopenmp -o heat_f examples/heat_f.f90 plant.o
module heat_f_solver
  use, intrinsic :: iso_c_binding, only: c_double
  use mpi
  implicit none
  private
  public :: run_options, block, GRID, parse_options, start_run, init_field, &
            solve, mean_temperature, finish_run, sci

  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: GRID = 258   ! points per side, edge included
  integer, parameter :: STEPS = 30, CHECKPOINT_EVERY = 10
  real(dp), parameter :: CHECKPOINT_S = 0.300_dp
  integer, parameter :: TAG_UP = 1, TAG_DOWN = 2

  ! What the command line may change.
  type :: run_options
    integer :: steps = STEPS
    real(dp) :: checkpoint_s = CHECKPOINT_S   ! 0: no checkpoints
  end type

  ! One rank's block: rows 1..rows are its own, rows 0 and rows+1 are halos
  ! (or the plate's fixed edge at the first and last rank).
  type :: block
    integer :: rows = 0
    integer :: up = MPI_PROC_NULL, down = MPI_PROC_NULL  ! neighbour ranks
    real(dp), allocatable :: old(:, :), next(:, :)
  end type

  interface
    ! plant.c: the calling thread works (sleeps) for the given time.
    subroutine simulate_work(seconds) bind(C, name="simulate_work")
      import :: c_double
      real(c_double), value :: seconds
    end subroutine
  end interface

contains

  ! MPI with FUNNELED threads (only masters call MPI), the team size that a
  ! parallel region really gets, and a barrier that absorbs the start-up
  ! skew of the processes (what plant_init does for the C examples).  Asking
  ! from inside a region also starts every thread, so that each rank's
  ! workers exist, and are seen idle, from the start.
  subroutine start_run(rank, ranks, threads)
    integer, intent(out) :: rank, ranks, threads
    integer :: provided, ierr
    integer, external :: omp_get_num_threads
    call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
    threads = 1
    !$omp parallel
    !$omp single
    threads = omp_get_num_threads()
    !$omp end single
    !$omp end parallel
    if (rank == 0) print '(a, i0, a, i0, a)', 'heat_f: ', ranks, 'x', threads, &
                                              ' (ranks x threads)'
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end subroutine

  ! Prints "heat_f: ok" (or FAILED) on rank 0 when every rank reported ok,
  ! and ends MPI; .true. when all were ok.
  logical function finish_run(rank, ok)
    integer, intent(in) :: rank
    logical, intent(in) :: ok
    integer :: ierr
    real(dp) :: mine, all
    ! ok as 1.0 or 0.0 and the minimum: `use mpi` declares no type for
    ! message buffers, and gfortran warns when one routine (MPI_Allreduce,
    ! also in global_residual) is passed buffers of two types.
    mine = merge(1.0_dp, 0.0_dp, ok)
    call MPI_Allreduce(mine, all, 1, MPI_DOUBLE_PRECISION, MPI_MIN, &
                       MPI_COMM_WORLD, ierr)
    finish_run = all > 0.0_dp
    if (rank == 0) then
      if (finish_run) then
        print '(a)', 'heat_f: ok'
      else
        print '(a)', 'heat_f: FAILED'
      end if
    end if
    call MPI_Finalize(ierr)
  end function

  ! Reads [STEPS [CHECKPOINT_SECONDS]]; .false. on a bad command line.
  ! Every rank reads the same arguments and comes to the same verdict.
  logical function parse_options(o)
    type(run_options), intent(out) :: o
    character(len=64) :: arg
    integer :: n, length, status
    parse_options = .false.
    n = command_argument_count()
    if (n > 2) return
    if (n >= 1) then
      call get_command_argument(1, arg, length, status)
      if (status /= 0 .or. verify(trim(arg), '0123456789') /= 0) return
      read (arg, *, iostat=status) o%steps
      if (status /= 0 .or. o%steps < 1 .or. o%steps > 1000000) return
    end if
    if (n == 2) then
      call get_command_argument(2, arg, length, status)
      if (status /= 0 .or. verify(trim(arg), '0123456789.') /= 0) return
      read (arg, *, iostat=status) o%checkpoint_s
      if (status /= 0 .or. o%checkpoint_s > 10.0_dp) return
    end if
    parse_options = .true.
  end function

  subroutine init_field(rank, ranks, b)
    integer, intent(in) :: rank, ranks
    type(block), intent(out) :: b
    b%rows = (GRID - 2) / ranks
    if (rank > 0) b%up = rank - 1
    if (rank < ranks - 1) b%down = rank + 1
    allocate(b%old(0:GRID - 1, 0:b%rows + 1), b%next(0:GRID - 1, 0:b%rows + 1))
    b%old = 0.0_dp
    b%next = 0.0_dp
    if (rank == 0) then   ! the hot top edge, never overwritten
      b%old(:, 0) = 1.0_dp
      b%next(:, 0) = 1.0_dp
    end if
  end subroutine

  subroutine exchange_halos(b)
    type(block), intent(inout) :: b
    integer :: req(4), statuses(MPI_STATUS_SIZE, 4), ierr
    call MPI_Irecv(b%old(:, 0), GRID, MPI_DOUBLE_PRECISION, b%up, TAG_DOWN, &
                   MPI_COMM_WORLD, req(1), ierr)
    call MPI_Irecv(b%old(:, b%rows + 1), GRID, MPI_DOUBLE_PRECISION, b%down, &
                   TAG_UP, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Isend(b%old(:, 1), GRID, MPI_DOUBLE_PRECISION, b%up, TAG_UP, &
                   MPI_COMM_WORLD, req(3), ierr)
    call MPI_Isend(b%old(:, b%rows), GRID, MPI_DOUBLE_PRECISION, b%down, &
                   TAG_DOWN, MPI_COMM_WORLD, req(4), ierr)
    call MPI_Waitall(4, req, statuses, ierr)
  end subroutine

  subroutine jacobi_sweep(b)
    type(block), intent(inout) :: b
    integer :: i, j
    !$omp parallel do schedule(static) private(j)
    do i = 1, b%rows
      do j = 1, GRID - 2
        b%next(j, i) = 0.25_dp * (b%old(j, i - 1) + b%old(j, i + 1) &
                                  + b%old(j - 1, i) + b%old(j + 1, i))
      end do
    end do
    !$omp end parallel do
  end subroutine

  ! Euclidean norm of the last sweep's change over the whole plate.
  real(dp) function global_residual(b)
    type(block), intent(in) :: b
    real(dp) :: local, global, d
    integer :: i, j, ierr
    local = 0.0_dp
    !$omp parallel do schedule(static) private(j, d) reduction(+:local)
    do i = 1, b%rows
      do j = 1, GRID - 2
        d = b%next(j, i) - b%old(j, i)
        local = local + d * d
      end do
    end do
    !$omp end parallel do
    call MPI_Allreduce(local, global, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                       MPI_COMM_WORLD, ierr)
    global_residual = sqrt(global)
  end function

  ! The planted bottleneck: serial output on one thread of one rank.
  subroutine write_checkpoint(o)
    type(run_options), intent(in) :: o
    call simulate_work(real(o%checkpoint_s, c_double))
  end subroutine

  real(dp) function solve(rank, o, b)
    integer, intent(in) :: rank
    type(run_options), intent(in) :: o
    type(block), intent(inout) :: b
    integer :: step
    solve = 0.0_dp
    do step = 1, o%steps
      call exchange_halos(b)
      call jacobi_sweep(b)
      if (mod(step, CHECKPOINT_EVERY) == 0) then
        if (rank == 0 .and. o%checkpoint_s > 0.0_dp) call write_checkpoint(o)
        solve = global_residual(b)
      end if
      ! swap without copying: the new field becomes the old one
      call swap(b%old, b%next)
    end do
  end function

  subroutine swap(a, c)
    real(dp), allocatable, intent(inout) :: a(:, :), c(:, :)
    real(dp), allocatable :: t(:, :)
    call move_alloc(a, t)
    call move_alloc(c, a)
    call move_alloc(t, c)
  end subroutine

  ! Mean over the interior points, on rank 0 (the sum is reduced there).
  real(dp) function mean_temperature(b)
    type(block), intent(in) :: b
    real(dp) :: local, total
    integer :: i, j, ierr
    local = 0.0_dp
    total = 0.0_dp
    !$omp parallel do schedule(static) private(j) reduction(+:local)
    do i = 1, b%rows
      do j = 1, GRID - 2
        local = local + b%old(j, i)
      end do
    end do
    !$omp end parallel do
    call MPI_Reduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, &
                    MPI_COMM_WORLD, ierr)
    mean_temperature = total / (real(GRID - 2, dp) ** 2)
  end function

  ! x as C's "%.6e" prints it (2.753419e-01), so that heat_f's output reads
  ! like heat's and the two can be compared.
  function sci(x) result(s)
    real(dp), intent(in) :: x
    character(len=:), allocatable :: s
    character(len=16) :: buf
    integer :: e
    write (buf, '(es13.6e2)') x
    s = trim(adjustl(buf))
    e = index(s, 'E')
    if (e > 0) s(e:e) = 'e'
  end function

end module heat_f_solver

program heat_f
  use, intrinsic :: iso_fortran_env, only: error_unit
  use mpi, only: MPI_Finalize
  use heat_f_solver
  implicit none
  type(run_options) :: o
  type(block) :: b
  integer :: rank, ranks, threads, ierr
  double precision :: residual, mean

  call start_run(rank, ranks, threads)
  if (.not. parse_options(o)) then
    call refuse('usage: heat_f [STEPS (1..1000000) [CHECKPOINT_SECONDS (0..10)]]')
  end if
  if (mod(GRID - 2, ranks) /= 0) then
    call refuse('the 256 interior rows do not divide over the ranks')
  end if
  call init_field(rank, ranks, b)
  residual = solve(rank, o, b)
  mean = mean_temperature(b)
  if (rank == 0) print '(a, i0, a, a, a, a)', 'heat_f: ', o%steps, &
    ' steps, residual ', sci(residual), ', mean temperature ', sci(mean)
  ! The mean is reduced to rank 0 only.
  if (.not. finish_run(rank, residual > 0.0d0 .and. (rank /= 0 .or. mean > 0.0d0))) then
    stop 1, quiet=.true.
  end if

contains

  ! Ends a run that cannot start, with exit status 2 (bad command line).
  subroutine refuse(why)
    character(len=*), intent(in) :: why
    if (rank == 0) write (error_unit, '(a, a)') 'heat_f: ', why
    call MPI_Finalize(ierr)
    stop 2, quiet=.true.
  end subroutine

end program heat_f
