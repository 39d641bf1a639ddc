/* search_fixture.h -- reports with known bottlenecks for the search tests
   (search_fixture.c says which). */
#ifndef SEARCH_FIXTURE_H
#define SEARCH_FIXTURE_H

#include <stdio.h>

#include "pomp_report.h"

/* A new report of the named variant, or NULL for an unknown name. */
pomp_report *search_fixture(const char *variant);

#endif
