#include <omp.h>
