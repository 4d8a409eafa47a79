/* profile.h - running a program under the dmo tool: a private FIFO, the
 * tool's folder for VALGRIND_LIB, valgrind itself, and the run directory. */
#ifndef DMO_PROFILE_H
#define DMO_PROFILE_H

#include <stddef.h>

#include "rundir.h"

struct dmo_profile_options {
	const char *out_dir;  /* created if missing */
	int full_trace;       /* --dmo-trace=full */
	char *const *argv;    /* the program and its arguments */
	int quiet_program;    /* send the program's stdout to /dev/null */
	const char *max_mem;  /* --dmo-max-mem for full traces; NULL: the tool's default */
};

/* Run the program under the tool, then turn tool-layers.bin into
 * layers.csv.  Returns 0 when dmo itself worked, with the program's exit
 * status (128+signal when it was killed) in *PROGRAM_STATUS and the layers
 * in *TABLE; -1 with a message in ERR otherwise (*TABLE then holds what
 * the tool recorded, if it got that far). */
int dmo_profile_run(const struct dmo_profile_options *opts, int *program_status,
		    struct dmo_layer_table *table, char *err, size_t err_len);

#endif
