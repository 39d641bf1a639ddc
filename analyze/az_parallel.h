/* az_parallel.h -- the parallel analysis under mpirun (parallel.c; only
   in the pomp-analyze executable, which links MPI).  Internal to
   pomp-analyze (not installed). */
#ifndef POMP_AZ_PARALLEL_H
#define POMP_AZ_PARALLEL_H

#include "az.h"

/* Under a launcher with more than one process: initialises MPI and returns
   this analysis process's rank; otherwise -1 (serial analysis). */
int az_parallel_begin(void);
/* Process 0's verdict (0 or failed) and run status (NULL or a malloc'd
   string) to every analysis process: the others wait for it, without
   spinning, while process 0 recovers the trace of a run that died. */
void az_parallel_share(int *verdict, char **status);
/* The analysis processes on this process's node (they share its CPUs:
   az_default_threads). */
int az_parallel_node_procs(void);
/* Ends MPI after az_parallel_begin returned a rank. */
void az_parallel_end(void);
/* The analysis divided among the processes of MPI_COMM_WORLD (MPI must be
   initialised).  On analysis process 0, a holds the whole result, as
   az_analyze would; elsewhere only a part.  0 on success everywhere. */
int az_analyze_parallel(az_analysis *a, const char *anchor, const az_options *opt);

#endif
