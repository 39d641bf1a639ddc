! mwt_expect.f90 -- the Fortran programs' part of mwt.h: on rank 0, when
! MWT_EXPECT names a file, writes the message and collective counts there
! for mw_check to compare with the trace.
subroutine mwt_write_expect(rank, msgs, colls)
  implicit none
  integer, intent(in) :: rank, msgs, colls
  character(len=256) :: path
  integer :: plen, pstat

  call get_environment_variable('MWT_EXPECT', path, plen, pstat)
  if (rank == 0 .and. pstat == 0 .and. plen > 0) then
    open(unit=10, file=path(1:plen), status='replace')
    write(10, '(a, 1x, i0)') 'messages', msgs
    write(10, '(a, 1x, i0)') 'collectives', colls
    close(10)
  end if
end subroutine mwt_write_expect
