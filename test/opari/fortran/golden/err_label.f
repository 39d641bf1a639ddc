      SUBROUTINE E(A)
      REAL A(10)
C$OMP PARALLEL DO
      DO 30 I = 1, 10
         A(I) = 0
   20 CONTINUE
      END
