!$omp target
!$omp end teams
