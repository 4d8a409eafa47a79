/* profile_runs.h - the options of `dmo profile`/`dmo run` that shape how
 * valgrind runs the program: --vg-opt (options handed to valgrind) and
 * --runs K (K runs under different schedules, each layer's values the
 * minimum over them; docs/formulas.md 1b says what that does not prove). */
#ifndef DMO_PROFILE_RUNS_H
#define DMO_PROFILE_RUNS_H

#include <stddef.h>

#include "profile.h"

/* Take --vg-opt OPTION into *OPTS: 0, or -1 with ERR when OPTION is not an
 * option, is one dmo sets itself, or one too many. */
int dmo_profile_vg_opt(struct dmo_profile_options *opts, const char *option, char *err,
		       size_t err_len);

/* Take --runs K: 0, or -1 with ERR when K is not 1..DMO_MAX_RUNS. */
int dmo_profile_runs_option(struct dmo_profile_options *opts, const char *value, char *err,
			    size_t err_len);
#define DMO_MAX_RUNS 100

/* Run OPTS->runs times into OUT_DIR/run-K, then write OUT_DIR/layers.csv
 * (per layer the minimum of each O_s, the most threads, the worst status)
 * and OUT_DIR/runs.csv (every run's values); print the table and the
 * spread.  Returns the first non-zero program status, 2 when dmo failed. */
int dmo_profile_runs_command(const struct dmo_profile_options *opts, const char *who);

#endif
