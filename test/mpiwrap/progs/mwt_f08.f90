! mwt_f08.f90 -- MPI from Fortran 2008 (use mpi_f08). MPICH's f08 routines
! without a choice buffer call PMPI_ directly (Init, Finalize, Wait,
! Waitall, Testsome, Test, Probe, Iprobe, Startall, Request_free, Barrier,
! Ibarrier, Comm_split/dup/idup/create_group/free, Cart_create/sub,
! Graph_create, the Win_ synchronisation calls, and from mpi_f08.tbl
! Barrier_init, Waitany, Mprobe, Improbe, Request_get_status,
! Comm_split_type/compare/idup_with_info, groups, Cartesian queries,
! Dims_create, Win_allocate, distributed graphs (MPI_UNWEIGHTED, weights),
! the MPI-IO calls without a buffer, a session, routines with a string argument:
! Comm_set_name, Session_get_pset_info, Group_from_session_pset,
! Comm_create_from_group); libpomp-mpi's
! mpi_*_f08_ routines (mw_f08.c) take their place, so the trace must hold
! them, with every request completed and every collective complete. Rank 0
! prints what it gathered; with MWT_EXPECT set it also writes the counts
! mw_check compares with the trace.
program mwt_f08
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr
  implicit none
  integer :: rank, size, right, left, i, outcount, done, total
  integer :: sendbuf(2), recvbuf(2), msgs, colls, sums(2), idx(4)
  type(MPI_Request) :: req(4)
  type(MPI_Status) :: status, statuses(4)
  type(MPI_Comm) :: half, dup, ring, line, twin, graph
  type(MPI_Group) :: world_group
  type(MPI_Win) :: win
  integer :: window(2), fetched
  logical :: flag
  integer, allocatable :: all(:)
  type(MPI_Message) :: message
  type(MPI_Comm) :: node
  type(MPI_Group) :: one_group
  integer :: extra(4), cmp, translated(1), dims(1), coords(1), src, dst, cart_rank
  type(c_ptr) :: baseptr
  type(MPI_Session) :: session
  type(MPI_Info) :: session_info
  type(MPI_Group) :: session_group
  type(MPI_Comm) :: session_comm
  integer :: npsets, clen
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  type(MPI_File) :: fh
  integer :: fileval(2), indeg, outdeg
  logical :: weighted

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  msgs = 0
  colls = 0

  ! Wait with a status and with MPI_STATUS_IGNORE, Waitall, Testsome
  sendbuf = [rank, 10 * rank]
  call MPI_Irecv(recvbuf(1), 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, req(1))
  call MPI_Isend(sendbuf(1), 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, req(2))
  msgs = msgs + 1
  call MPI_Wait(req(1), status)
  call MPI_Wait(req(2), MPI_STATUS_IGNORE)
  call MPI_Irecv(recvbuf(2), 1, MPI_INTEGER, left, 2, MPI_COMM_WORLD, req(1))
  call MPI_Isend(sendbuf(2), 1, MPI_INTEGER, right, 2, MPI_COMM_WORLD, req(2))
  msgs = msgs + 1
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
  call MPI_Irecv(total, 1, MPI_INTEGER, left, 3, MPI_COMM_WORLD, req(1))
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 3, MPI_COMM_WORLD, req(2))
  msgs = msgs + 1
  done = 0
  do while (done < 2)
    call MPI_Testsome(2, req, outcount, idx, statuses)
    if (outcount /= MPI_UNDEFINED) done = done + outcount
  end do

  ! Probe then receive; Iprobe until the next one is there
  call MPI_Send(rank, 1, MPI_INTEGER, right, 4, MPI_COMM_WORLD)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 5, MPI_COMM_WORLD)
  msgs = msgs + 2
  call MPI_Probe(left, 4, MPI_COMM_WORLD, status)
  call MPI_Recv(sendbuf(1), 1, MPI_INTEGER, status%MPI_SOURCE, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(left, 5, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE)
  end do
  call MPI_Recv(sendbuf(2), 1, MPI_INTEGER, left, 5, MPI_COMM_WORLD, status)

  ! persistent requests: Startall twice, Waitall, Request_free
  call MPI_Recv_init(recvbuf(1), 1, MPI_INTEGER, left, 6, MPI_COMM_WORLD, req(3))
  call MPI_Send_init(rank, 1, MPI_INTEGER, right, 6, MPI_COMM_WORLD, req(4))
  do i = 1, 2
    call MPI_Startall(2, req(3:4))
    msgs = msgs + 1
    call MPI_Waitall(2, req(3:4), statuses(1:2))
  end do
  call MPI_Request_free(req(3))
  call MPI_Request_free(req(4))

  ! Ibarrier completed by Test; Barrier on a duplicate of the world
  call MPI_Ibarrier(MPI_COMM_WORLD, req(1))
  colls = colls + 1
  flag = .false.
  do while (.not. flag)
    call MPI_Test(req(1), flag, MPI_STATUS_IGNORE)
  end do
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  ! a string argument: passed on without its trailing blanks (8 characters)
  call MPI_Comm_set_name(dup, 'pomp dup    ')
  call MPI_Comm_get_name(dup, cname, clen)
  call MPI_Barrier(dup)
  colls = colls + 1
  call MPI_Comm_free(dup)

  ! non-blocking duplicate, one from the world's group, a graph ring
  call MPI_Comm_idup(MPI_COMM_WORLD, dup, req(1))
  call MPI_Wait(req(1), MPI_STATUS_IGNORE)
  call MPI_Comm_group(dup, world_group)
  call MPI_Comm_create_group(dup, world_group, 7, twin)
  call MPI_Group_free(world_group)
  call MPI_Barrier(twin)
  colls = colls + 1
  call MPI_Graph_create(twin, size, [(2 * i, i = 1, size)], &
                        [(mod(i + size - 1, size), mod(i + 1, size), i = 0, size - 1)], &
                        .false., graph)
  call MPI_Barrier(graph)
  colls = colls + 1
  call MPI_Comm_free(graph)
  call MPI_Comm_free(twin)
  call MPI_Comm_free(dup)

  ! a periodic ring and its one-dimensional sub-grid
  call MPI_Cart_create(MPI_COMM_WORLD, 1, [size], [.true.], .false., ring)
  call MPI_Cart_sub(ring, [.true.], line)
  call MPI_Allreduce(sendbuf(1) + sendbuf(2), outcount, 1, MPI_INTEGER, MPI_SUM, line)
  colls = colls + 1
  call MPI_Comm_free(line)
  call MPI_Comm_free(ring)

  ! one-sided: fence epochs, a passive-target lock, lock_all + flush_all
  call MPI_Win_create(window, int(8, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  window = [rank, 0]
  call MPI_Win_fence(0, win)
  call MPI_Put(rank, 1, MPI_INTEGER, right, int(1, MPI_ADDRESS_KIND), 1, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win)
  call MPI_Get(fetched, 1, MPI_INTEGER, left, int(0, MPI_ADDRESS_KIND), 1, MPI_INTEGER, win)
  call MPI_Win_unlock(left, win)
  call MPI_Win_lock_all(0, win)
  call MPI_Win_flush_all(win)
  call MPI_Win_unlock_all(win)
  call MPI_Win_free(win)
  total = total + 1000 * (window(2) + fetched)

  ! persistent Barrier started twice; Iallreduce completed by Waitany
  call MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, req(1))
  do i = 1, 2
    call MPI_Start(req(1))
    colls = colls + 1
    call MPI_Wait(req(1), MPI_STATUS_IGNORE)
  end do
  call MPI_Request_free(req(1))
  call MPI_Iallreduce(rank, extra(1), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(1))
  colls = colls + 1
  call MPI_Waitany(1, req(1:1), i, MPI_STATUS_IGNORE)

  ! matched probes: Mprobe + Mrecv; Improbe until found, the send polled
  ! with Request_get_status
  call MPI_Send(rank, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD)
  msgs = msgs + 1
  call MPI_Mprobe(left, 8, MPI_COMM_WORLD, message, status)
  call MPI_Mrecv(extra(2), 1, MPI_INTEGER, message, MPI_STATUS_IGNORE)
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, req(2))
  msgs = msgs + 1
  flag = .false.
  do while (.not. flag)
    call MPI_Improbe(left, 9, MPI_COMM_WORLD, flag, message, MPI_STATUS_IGNORE)
  end do
  call MPI_Mrecv(extra(3), 1, MPI_INTEGER, message, status)
  flag = .false.
  do while (.not. flag)
    call MPI_Request_get_status(req(2), flag, MPI_STATUS_IGNORE)
  end do
  call MPI_Wait(req(2), MPI_STATUS_IGNORE)

  ! communicators and groups: split by node, compare, idup_with_info, the
  ! left neighbour's world rank through a one-member group
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, node)
  call MPI_Comm_compare(node, MPI_COMM_WORLD, cmp)
  call MPI_Comm_group(MPI_COMM_WORLD, world_group)
  call MPI_Group_incl(world_group, 1, [left], one_group)
  call MPI_Group_translate_ranks(one_group, 1, [0], world_group, translated)
  call MPI_Group_free(one_group)
  call MPI_Group_free(world_group)
  call MPI_Comm_idup_with_info(node, MPI_INFO_NULL, dup, req(1))
  call MPI_Wait(req(1), MPI_STATUS_IGNORE)
  call MPI_Barrier(dup)
  colls = colls + 1
  call MPI_Comm_free(dup)
  call MPI_Comm_free(node)

  ! a Cartesian ring from Dims_create, its shift, coordinates and ranks
  dims = 0
  call MPI_Dims_create(size, 1, dims)
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, [.true.], .false., ring)
  call MPI_Cart_shift(ring, 0, 1, src, dst)
  call MPI_Cart_coords(ring, rank, 1, coords)
  call MPI_Cart_rank(ring, coords, cart_rank)
  call MPI_Comm_free(ring)

  ! distributed graphs: a ring without weights (MPI_UNWEIGHTED), then the
  ! same ring with weights, from the neighbour lists
  call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, [rank], [1], [right], MPI_UNWEIGHTED, &
                             MPI_INFO_NULL, .false., graph)
  call MPI_Dist_graph_neighbors_count(graph, indeg, outdeg, weighted)
  call MPI_Barrier(graph)
  colls = colls + 1
  call MPI_Comm_free(graph)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [left], [2], 1, [right], [3], &
                                      MPI_INFO_NULL, .false., graph)
  call MPI_Barrier(graph)
  colls = colls + 1
  call MPI_Comm_free(graph)

  ! MPI-IO: every rank writes its rank at its own place of a shared file
  ! through a view, reads its left neighbour's back after a seek; rank 0
  ! deletes the file (a name with trailing blanks, as Fortran pads it). The
  ! name is relative: run_mpi_test.sh runs each test in its own directory,
  ! since two tests on one file under ctest -j read each other's writes.
  call MPI_File_open(MPI_COMM_WORLD, 'mwt_f08.dat   ', ior(MPI_MODE_CREATE, MPI_MODE_RDWR), &
                     MPI_INFO_NULL, fh)
  call MPI_File_set_size(fh, int(0, MPI_OFFSET_KIND))
  call MPI_File_preallocate(fh, int(4 * size, MPI_OFFSET_KIND))
  call MPI_File_set_view(fh, int(0, MPI_OFFSET_KIND), MPI_INTEGER, MPI_INTEGER, 'native  ', &
                         MPI_INFO_NULL)
  call MPI_File_seek(fh, int(rank, MPI_OFFSET_KIND), MPI_SEEK_SET)
  call MPI_File_write(fh, rank + 1, 1, MPI_INTEGER, MPI_STATUS_IGNORE)
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  colls = colls + 1
  call MPI_File_sync(fh)
  call MPI_File_seek_shared(fh, int(0, MPI_OFFSET_KIND), MPI_SEEK_SET)
  call MPI_File_read_at(fh, int(left, MPI_OFFSET_KIND), fileval(1), 1, MPI_INTEGER, &
                        MPI_STATUS_IGNORE)
  call MPI_File_close(fh)
  fileval(2) = merge(1, 0, fh == MPI_FILE_NULL)
  call MPI_Barrier(MPI_COMM_WORLD)
  colls = colls + 1
  if (rank == 0) call MPI_File_delete('mwt_f08.dat  ', MPI_INFO_NULL)

  ! a window MPI allocates, one fence epoch
  call MPI_Win_allocate(int(8, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win)
  call MPI_Win_fence(0, win)
  call MPI_Win_fence(0, win)
  call MPI_Win_free(win)
  ! a session beside the world model: its calls are regions
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session)
  call MPI_Session_get_num_psets(session, MPI_INFO_NULL, npsets)
  call MPI_Session_get_info(session, session_info)
  call MPI_Info_free(session_info)
  ! string arguments: a pset's info, a communicator from its group
  call MPI_Session_get_pset_info(session, 'mpi://WORLD', session_info)
  call MPI_Info_free(session_info)
  call MPI_Group_from_session_pset(session, 'mpi://WORLD  ', session_group)
  call MPI_Comm_create_from_group(session_group, 'pomp.mwt_f08', MPI_INFO_NULL, MPI_ERRORS_RETURN, &
                                  session_comm)
  call MPI_Barrier(session_comm)
  colls = colls + 1
  call MPI_Comm_free(session_comm)
  call MPI_Group_free(session_group)
  call MPI_Session_finalize(session)
  total = total + 100000 * (merge(1, 0, npsets >= 2) + extra(1) + extra(2) + extra(3) + translated(1) + src + dst + cart_rank &
                            + merge(1, 0, cmp == MPI_CONGRUENT) + clen &
                            + 10 * (fileval(1) - left) + fileval(2) + indeg + outdeg + merge(1, 0, weighted))

  call MPI_Barrier(MPI_COMM_WORLD)
  colls = colls + 1
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half)
  sums(1) = status%MPI_SOURCE + 100 * recvbuf(2)
  call MPI_Allreduce(sums(1), sums(2), 1, MPI_INTEGER, MPI_SUM, half)
  colls = colls + 1
  call MPI_Comm_free(half)

  allocate(all(size))
  call MPI_Gather(sums(2) + total, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  colls = colls + 1
  if (rank == 0) print '(a, *(1x, i0))', 'f08:', (all(i), i = 1, size)
  call MPI_Gather(outcount, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  colls = colls + 1
  if (rank == 0) print '(a, *(1x, i0))', 'ring sum:', (all(i), i = 1, size)

  sums(1) = msgs
  sums(2) = colls + 1    ! + the reduction below
  call MPI_Reduce(sums, idx, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  call mwt_write_expect(rank, idx(1), idx(2))
  call write_calls()
  call MPI_Finalize()

contains

  ! The calls of generated routines (mpi_f08.tbl) made a fixed number of
  ! times, per rank: mw_check counts their regions' Enter records.
  subroutine write_calls()
    character(len=256) :: path
    integer :: plen, pstat, k
    character(len=32), parameter :: once(33) = [character(len=32) :: &
      'MPI_Barrier_init', 'MPI_Waitany', 'MPI_Mprobe', 'MPI_Comm_split_type', &
      'MPI_Comm_compare', 'MPI_Group_incl', 'MPI_Group_translate_ranks', &
      'MPI_Comm_idup_with_info', 'MPI_Dims_create', 'MPI_Cart_shift', 'MPI_Cart_coords', &
      'MPI_Cart_rank', 'MPI_Win_allocate', 'MPI_Graph_create', 'MPI_Comm_create_group', &
      'MPI_Cart_sub', 'MPI_Comm_split', 'MPI_Session_init', 'MPI_Session_get_num_psets', &
      'MPI_Session_get_info', 'MPI_Session_finalize', 'MPI_Comm_set_name', &
      'MPI_Session_get_pset_info', 'MPI_Group_from_session_pset', 'MPI_Comm_create_from_group', &
      'MPI_Dist_graph_create', 'MPI_Dist_graph_create_adjacent', 'MPI_File_open', &
      'MPI_File_set_size', 'MPI_File_preallocate', 'MPI_File_set_view', 'MPI_File_seek', &
      'MPI_File_close']

    call get_environment_variable('MWT_EXPECT', path, plen, pstat)
    if (rank /= 0 .or. pstat /= 0 .or. plen == 0) return
    open(unit=11, file=path(1:plen), position='append')
    do k = 1, 33
      write(11, '(a, a, 1x, i0)') 'call:', trim(once(k)), size
    end do
    write(11, '(a, 1x, i0)') 'call:MPI_Start', 2 * size
    write(11, '(a, 1x, i0)') 'call:MPI_Startall', 2 * size
    write(11, '(a, 1x, i0)') 'call:MPI_Comm_group', 2 * size
    write(11, '(a, 1x, i0)') 'call:MPI_Group_free', 4 * size
    write(11, '(a, 1x, i0)') 'call:MPI_Win_fence', 4 * size
    write(11, '(a, 1x, i0)') 'call:MPI_Cart_create', 2 * size
    write(11, '(a, 1x, i0)') 'call:MPI_Comm_free', 13 * size
    write(11, '(a, 1x, i0)') 'call:MPI_File_sync', 2 * size
    write(11, '(a, 1x, i0)') 'call:MPI_File_seek_shared', size
    write(11, '(a, 1x, i0)') 'call:MPI_File_delete', 1
    close(11)
  end subroutine write_calls
end program mwt_f08
