! mwt_fortran.f90 -- MPI from Fortran (use mpi): the calls MPICH's Fortran
! library makes with direct PMPI calls (Init, Finalize, Wait, Waitall,
! Testsome, Barrier, Comm_split) plus calls that reach the C wrappers
! anyway. Rank 0 prints what it gathered; with MWT_EXPECT set it also
! writes the counts mw_check compares with the trace.
program mwt_fortran
  use mpi
  implicit none
  integer :: ierr, rank, size, right, left, half, i, outcount, done
  integer :: req(4), idx(4), statuses(MPI_STATUS_SIZE, 4), status(MPI_STATUS_SIZE)
  integer :: sendbuf(2), recvbuf(2), total, msgs, colls, sums(2)
  integer, allocatable :: all(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  msgs = 0
  colls = 0

  ! Wait with a status, Waitall, Testsome
  sendbuf = (/ rank, 10 * rank /)
  call MPI_Irecv(recvbuf(1), 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(sendbuf(1), 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, req(2), ierr)
  msgs = msgs + 1
  call MPI_Wait(req(1), status, ierr)
  call MPI_Wait(req(2), MPI_STATUS_IGNORE, ierr)
  call MPI_Irecv(recvbuf(2), 1, MPI_INTEGER, left, 2, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(sendbuf(2), 1, MPI_INTEGER, right, 2, MPI_COMM_WORLD, req(2), ierr)
  msgs = msgs + 1
  call MPI_Waitall(2, req, statuses, ierr)
  call MPI_Irecv(total, 1, MPI_INTEGER, left, 3, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 3, MPI_COMM_WORLD, req(2), ierr)
  msgs = msgs + 1
  done = 0
  do while (done < 2)
    call MPI_Testsome(2, req, outcount, idx, statuses, ierr)
    if (outcount /= MPI_UNDEFINED) done = done + outcount
  end do

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  colls = colls + 1
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  sums(1) = status(MPI_SOURCE) + 100 * recvbuf(2)
  call MPI_Allreduce(sums(1), sums(2), 1, MPI_INTEGER, MPI_SUM, half, ierr)
  colls = colls + 1
  call MPI_Comm_free(half, ierr)

  allocate(all(size))
  call MPI_Gather(sums(2) + total, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  colls = colls + 1
  if (rank == 0) print '(a, *(1x, i0))', 'fortran:', (all(i), i = 1, size)

  sums(1) = msgs
  sums(2) = colls + 1    ! + the reduction below
  call MPI_Reduce(sums, idx, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call mwt_write_expect(rank, idx(1), idx(2))
  call MPI_Finalize(ierr)
end program mwt_fortran
