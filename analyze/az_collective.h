/* az_collective.h -- wait states of MPI collective operations
   (collective.c).  Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_COLLECTIVE_H
#define POMP_AZ_COLLECTIVE_H

struct az_analysis;

/* Wait states of the complete collective instances in a->mpi.colls (last:
   all), whose records are then released.  Each severity goes through
   az_charge. */
void az_collective_step(struct az_analysis *a, int last);

#endif
