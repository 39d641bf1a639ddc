C     Fixed form: C$OMP, *$OMP and !$OMP sentinels in column 1, column-6
C     continuations, labelled and block DO loops, the optional END DO,
C     CP$ / *P$ sentinels, comments and strings.
      SUBROUTINE FIXED(A, N, S)
      INTEGER N, S, I, J
      REAL A(N)
      CHARACTER*20 T
      T = '!$OMP BARRIER'
C$OMP PARALLEL DO PRIVATE(I) SCHEDULE(STATIC)
C$OMP+REDUCTION(+:S)
      DO 10 I = 1, N
         S = S + I
   10 CONTINUE
C$OMP END PARALLEL DO
*$OMP PARALLEL
*$OMP&PRIVATE(I, J)
!$OMP DO
      DO 20 I = 1, N
         DO 20 J = 1, 2
            A(I) = A(I) + J
   20 CONTINUE
c$omp do
      DO I = 1, N
         A(I) = A(I) + 1
      END DO
c$omp end do nowait
C$OMP SECTIONS
C$OMP SECTION
      S = S + 1
C$OMP END SECTIONS NOWAIT
C$OMP SINGLE
      S = S + 2
C$OMP END SINGLE
C$OMP CRITICAL
      S = S + 3
C$OMP END CRITICAL
C$OMP ATOMIC
      S = S
     &    + 4
C$OMP END ATOMIC
C$OMP BARRIER
C$OMP MASTER
      S = S + 5
C$OMP END MASTER
C$OMP END PARALLEL
CP$   PRINT *, 'instrumented'
*P$   PRINT *, T
      END
