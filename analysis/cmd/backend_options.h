/* backend_options.h - the --backend and --isa options that dmo run, dmo
 * verify and dmo compare share. */
#ifndef DMO_BACKEND_OPTIONS_H
#define DMO_BACKEND_OPTIONS_H

#include <stdio.h>

/* getopt_long code of --isa (a long option only). */
enum { OPT_ISA = 0x180 };

/* Check the pair before anything runs: a known backend that is available
 * (its plugin loads), a known ISA cap, and THREADS > 1 only for a backend
 * with a pool of its own (xnnpack, onednn; dmo_backend_set_threads).  --isa
 * alone means the ref backend (*BACKEND is set).  Returns 0, or -1 after a
 * message on stderr starting with WHO. */
int dmo_backend_options_check(const char *who, const char **backend, const char *isa,
			      int threads);

/* The ISA backend NAME (NULL: ref), loaded with cap ISA by
 * dmo_backend_options_check, dispatches to in this native process. */
const char *backend_native_isa(const char *name, const char *isa);

/* "backend:   NAME (VERSION), ISA ISA (cap CAP)" for a loaded backend. */
void print_backend(const char *name, const char *isa);

#endif
