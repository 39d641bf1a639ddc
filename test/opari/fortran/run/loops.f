C opari: --loops
C Fixed form: a labelled DO left by GO TO, a DO WHILE left by EXIT in
C a logical IF, a DO with END DO left by RETURN (no literal bounds).
      SUBROUTINE WORK(I, T)
      INTEGER I, T
      T = T + MOD(I, 5)
      END

      INTEGER FUNCTION ISCAN(N, T)
      INTEGER N, T, I
      DO I = 1, N
         CALL WORK(I, T)
         IF (I .EQ. 3) RETURN
         ISCAN = I
      END DO
      ISCAN = 0
      END

      PROGRAM LOOPSF
      INTEGER T, I, K, ISCAN
      T = 0
      DO 10 I = 1, 6 + T
         CALL WORK(I, T)
         IF (I .EQ. 4) GO TO 20
         CALL WORK(I + 1, T)
   10 CONTINUE
   20 CONTINUE
      K = 0
      DO WHILE (.TRUE.)
         K = K + 1
         CALL WORK(K, T)
         IF (K .GE. 3) EXIT
      END DO
      PRINT *, 'scan', ISCAN(5, T), 'total', T
      END
