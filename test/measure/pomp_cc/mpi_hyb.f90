! An MPI + OpenMP Fortran program (use mpi): its objects call no C MPI_
! symbol, so libpomp-mpi is only kept when linked --no-as-needed.
program hyb
  use mpi
  implicit none
  integer :: ierr, rank, i
  real(8) :: s, g
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  s = 0
!$omp parallel do reduction(+:s)
  do i = 1, 1000
     s = s + i
  end do
!$omp end parallel do
  call MPI_Allreduce(s, g, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, g
  call MPI_Finalize(ierr)
end program
