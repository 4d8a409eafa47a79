/* bench_clock.h - the one clock every benchmark program reads: monotonic
 * seconds as a double. */
#ifndef DMO_BENCH_CLOCK_H
#define DMO_BENCH_CLOCK_H

#include <time.h>

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
