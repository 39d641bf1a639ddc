C     OpenMP Validation Suite style program in fixed form, where blanks
C     are insignificant in directives: keywords run together and split
C     (issue 22).  pomp-cc gfortran builds it; it prints what the plain
C     build prints.
      PROGRAM OVS
      INTEGER RESULT
      INTEGER TSECTIONS, TPARDO, TDO, TSINGLE
      RESULT = TSECTIONS() + TPARDO() + TDO() + TSINGLE()
      PRINT *, 'failed tests:', RESULT
      END

C     test_parallel_sections_private, as the suite writes it
      INTEGER FUNCTION TSECTIONS()
      INTEGER SUM, SUM0, I
      SUM = 7
      SUM0 = 0
!$omp parallel sectionsprivate(sum0,i)
!$omp section
      SUM0 = 0
      DO I = 1, 399
        SUM0 = SUM0 + I
      END DO
!$omp critical
      SUM = SUM + SUM0
!$omp end critical
!$omp section
      SUM0 = 0
      DO I = 400, 699
        SUM0 = SUM0 + I
      END DO
!$omp critical
      SUM = SUM + SUM0
!$omp end critical
!$omp section
      SUM0 = 0
      DO I = 700, 999
        SUM0 = SUM0 + I
      END DO
!$omp critical
      SUM = SUM + SUM0
!$omp end critical
!$omp endparallelsections
      PRINT *, 'sections:', SUM
      TSECTIONS = 0
      IF (SUM .NE. 999 * 1000 / 2 + 7) TSECTIONS = 1
      END

      INTEGER FUNCTION TPARDO()
      INTEGER SUM, I
      SUM = 0
C$OMP PARALLELDOREDUCTION(+:SUM)SCHEDULE(STATIC,7)
      DO 10 I = 1, 1000
        SUM = SUM + I
   10 CONTINUE
      PRINT *, 'parallel do:', SUM
      TPARDO = 0
      IF (SUM .NE. 500500) TPARDO = 1
      END

      INTEGER FUNCTION TDO()
      INTEGER SUM, I, OFFSET
      SUM = 0
      OFFSET = 5
*$OMP PAR ALLEL SHARED(SUM)
*$OMP DOFIRSTPRIVATE(OFFSET)REDUC TION(+:SUM)
      DO I = 1, 100
        SUM = SUM + I + OFFSET
      END DO
*$OMP ENDDONOWAIT
*$OMP END PAR ALLEL
      PRINT *, 'do:', SUM
      TDO = 0
      IF (SUM .NE. 5050 + 500) TDO = 1
      END

      INTEGER FUNCTION TSINGLE()
      INTEGER X, TOTAL
      TOTAL = 0
!$OMP PARALLELPRIVATE(X)REDUCTION(+:TOTAL)
!$OMP SINGLE
      X = 3
!$OMP ENDSINGLECOPYPRIVATE(X)
      TOTAL = TOTAL + X
!$OMP ENDPARALLEL
      PRINT *, 'single copyprivate:', TOTAL
      TSINGLE = 0
      IF (TOTAL .NE. 3 * 4) TSINGLE = 1
      END
