/* cpu_features.h - the x86 features the calling process sees through
 * CPUID: under Valgrind its virtual CPU's (at most AVX2 and FMA in 3.19),
 * natively the host's.  dmo-harness records the first kind in backend.csv,
 * the dmo front end, which always runs natively, the second. */
#ifndef DMO_CPU_FEATURES_H
#define DMO_CPU_FEATURES_H

#include <stddef.h>

/* The features this process sees, space-separated ("sse4.1 ... avx512f"). */
void dmo_cpu_features(char *text, size_t len);

/* The widest vector ISA among them: avx512f, avx2, avx, sse4.1 or sse2. */
const char *dmo_cpu_widest_isa(void);

/* Whether an ISA name (a library's, as backend.csv's isa column, or one of
 * dmo_cpu_widest_isa) needs AVX-512, which Valgrind's CPU never offers. */
int dmo_isa_beyond_valgrind(const char *isa);

#endif
