/* host_isa.h - the ISA that will run natively, beside the one measured.
 * Valgrind's virtual CPU offers at most AVX2 and FMA; a library that picks
 * kernels by CPUID may pick wider ones on the host.  The dmo front end runs
 * natively, so it records the host's CPU in every run directory it makes
 * (host.csv) and names a backend's native choice in backend.csv (through
 * dmo-harness --native-isa/--host-isa); these say when the two differ. */
#ifndef DMO_HOST_ISA_H
#define DMO_HOST_ISA_H

#include <stddef.h>

#define DMO_HOST_CSV "host.csv" /* columns host_isa,host_cpu */

/* Write DIR/host.csv from this process's CPUID.  0, or -1 with ERR. */
int dmo_host_csv_write(const char *dir, char *err, size_t err_len);

/* When BACKEND dispatched to TOOL_ISA under the tool but dispatches to
 * NATIVE_ISA natively (on a host whose widest ISA is HOST_ISA): one line
 * into TEXT saying so, and 1; else 0 (also when NATIVE_ISA is unknown, ""). */
int dmo_isa_note(char *text, size_t len, const char *backend, const char *tool_isa,
		 const char *native_isa, const char *host_isa);

/* The note of dmo_isa_note for the first layer of DIR/backend.csv whose
 * kernels differ natively, and 1; 0 when none does or nothing says. */
int dmo_rundir_isa_note(const char *dir, char *text, size_t len);

/* When the host offers an ISA Valgrind's CPU lacks (AVX-512): one line into
 * TEXT for a program whose kernels dmo does not know (dmo profile), and 1;
 * else 0. */
int dmo_host_isa_note(char *text, size_t len);

#endif
