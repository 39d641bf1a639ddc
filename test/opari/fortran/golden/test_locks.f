C     omp_test_lock / omp_test_nest_lock keep their names (a renamed
C     function would need a LOGICAL declaration); the companion defines
C     omp_test_nest_lock_ only: omp_test_lock is mentioned only in a
C     string and a comment.  The reference's "(" on a continuation line.
      subroutine probe(n, depth)
      implicit none
      include 'omp_lib.h'
      integer(omp_nest_lock_kind) n
      integer depth
      character*20 s
      s = 'omp_test_lock(x)'
C     depth = omp_test_lock(n)
      depth = OMP_Test_Nest_Lock
     &   (n)
      if (depth .gt. 0) call omp_unset_nest_lock(n)
      end
