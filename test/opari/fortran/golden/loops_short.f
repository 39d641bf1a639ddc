! opari: --loops
C     Short loops in fixed form: labelled, blank-free and stepped DOs of
C     at most 16 iterations are left alone; a bound continued on the next
C     line (50, not 5) and a variable bound are instrumented.
      SUBROUTINE S(A, N)
      INTEGER N, I, K
      REAL A(N)
      DO 10 I = 1, 8
         CALL F(A(I))
         A(I) = 0
   10 CONTINUE
      DO20I=1,8
         CALL F(A(I))
         A(I) = 0
   20 CONTINUE
      DO K = 1, 3
         CALL F(A(K))
         A(K) = 0
      END DO
      DO I = 1, 16, 2
         CALL F(A(I))
         A(I) = 0
      END DO
      DO I = 1, 5
     &0
         CALL F(A(I))
         A(I) = 0
      END DO
      DO 30 I = 1, N
         CALL F(A(I))
         A(I) = 0
   30 CONTINUE
      END
