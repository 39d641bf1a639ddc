C     Fixed-form program whose per-thread POMP events are deterministic
C     (static schedules, labelled DO, nest locks); run with 4 threads.
C     The lock and the critical section guard counters of their own (S,
C     T): one counter under both raced and lost an update now and then.
      PROGRAM FIXED
      INCLUDE 'omp_lib.h'
      INTEGER I, N, S, T
      INTEGER (KIND=OMP_NEST_LOCK_KIND) NLCK
      REAL A(40), B(40)
      N = 40
      S = 0
      T = 0
      CALL OMP_INIT_NEST_LOCK(NLCK)
C$OMP PARALLEL DO PRIVATE(I)
C$OMP+SCHEDULE(STATIC)
      DO 10 I = 1, N
         A(I) = I
   10 CONTINUE
*$OMP PARALLEL PRIVATE(I)
*$OMP&SHARED(A, B, N, S, T, NLCK)
!$OMP DO
      DO 20 I = 1, N
         B(I) = 2 * A(I)
   20 CONTINUE
!$OMP END DO NOWAIT
c$omp barrier
      CALL OMP_SET_NEST_LOCK(NLCK)
      CALL OMP_SET_NEST_LOCK(NLCK)
      S = S + 1
      CALL OMP_UNSET_NEST_LOCK(NLCK)
      CALL OMP_UNSET_NEST_LOCK(NLCK)
!$OMP CRITICAL
      T = T + 1
!$OMP END CRITICAL
C$OMP WORKSHARE
      A = A + 1
C$OMP END WORKSHARE
C$OMP MASTER
      S = S + 1000
C$OMP END MASTER
C$OMP END PARALLEL
!$OMP PARALLEL WORKSHARE
      B = B + A
!$OMP END PARALLEL WORKSHARE
      CALL OMP_DESTROY_NEST_LOCK(NLCK)
      PRINT 100, S + T, B(1), B(40)
  100 FORMAT ('S ', I0, ' B ', F6.1, 1X, F6.1)
      END
