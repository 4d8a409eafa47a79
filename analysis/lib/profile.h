/* profile.h - running a program under the dmo tool: a private FIFO, the
 * tool's folder for VALGRIND_LIB, valgrind itself, and the run directory. */
#ifndef DMO_PROFILE_H
#define DMO_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#include "kernels.h"
#include "rundir.h"
#include "trace_format.h"

/* --vg-opt options a command line may give, plus the two a run of
 * --runs adds. */
#define DMO_MAX_VG_OPTS 34

struct dmo_profile_options {
	const char *out_dir;  /* created if missing */
	int full_trace;       /* --dmo-trace=full */
	int trace_version;    /* --dmo-trace-version; 0: the tool's default */
	const char *layers;   /* --dmo-layers: the layers a full trace keeps; NULL: all */
	int skip_untraced;    /* --dmo-untraced=skip: the others get no row */
	int untraced_given;   /* --untraced was given (it needs --layers) */
	int count;            /* --dmo-count=yes */
	char *const *argv;    /* the program and its arguments */
	int quiet_program;    /* send the program's stdout to /dev/null */
	const char *max_mem;  /* --dmo-max-mem for full traces; NULL: the tool's default */
	/* --vg-opt: options handed to valgrind before the program. */
	const char *vg_opts[DMO_MAX_VG_OPTS];
	int n_vg_opts;
	int runs;             /* --runs K: K runs, per-layer minimum (profile_runs.h) */
	int static_split;     /* --static-split: the safe value of a layer run with
			       * several threads alive is os_any_bytes (rundir.h) */
	FILE *report;         /* where the table goes; NULL: stderr, never the program's stdout */
	int quiet;            /* no table (layers.csv as always) */
	int force;            /* --force: take a folder dmo did not make as a run folder */
	const char *who;      /* "dmo run": starts the messages of the child that
			       * runs Valgrind, which has no ERR to return */
	/* The kernels the program runs, written to DIR/kernels.csv; NULL:
	 * "program:NAME" of ARGV[0]. */
	const struct dmo_kernels *kernels;
	double time_limit;    /* --time-limit: seconds before PROGRAM is stopped as
			       * SIGTERM stops it; 0: none */
	double time_spent;    /* of TIME_LIMIT, by earlier runs of --runs */
};

/* Run the program under the tool, then turn tool-layers.bin into
 * layers.csv.  Returns 0 when dmo itself worked, with the program's exit
 * status (128+signal when it was killed) in *PROGRAM_STATUS, the signal
 * that killed it (else 0) in *PROGRAM_SIGNAL and the layers in *TABLE; -1
 * with a message in ERR otherwise (*TABLE then holds what the tool
 * recorded, if it got that far; *PROGRAM_STATUS is -1 if the program
 * never ran).  -2 when OPTS->time_limit ran out and the program was
 * stopped: layers.csv and *TABLE hold the layers recorded until then and
 * ERR says how many.  A second run into the same directory fails at once. */
int dmo_profile_run(const struct dmo_profile_options *opts, int *program_status,
		    int *program_signal, struct dmo_layer_table *table, char *err,
		    size_t err_len);

/* Write DIR/kernels.csv: OPTS->kernels, else "program:NAME" of the
 * program.  Returns 0, or -1 with ERR. */
int dmo_profile_write_kernels(const struct dmo_profile_options *opts, const char *dir, char *err,
			      size_t err_len);
/* Whether DIR may be a run folder: it does not exist yet (dmo makes it),
 * is empty, holds dmo's marker (the lock file every run leaves), or FORCE
 * (--force) says to take it.  Else -1 with ERR: a run replaces the files
 * named like dmo's, which must be dmo's. */
int dmo_run_dir_adopt(const char *dir, int force, char *err, size_t err_len);

/* Lock DIR against a second run (an flock on DIR/.dmo-lock, which stays
 * as the folder's marker).  The descriptor, or -1 with ERR. */
int dmo_run_dir_lock(const char *dir, char *err, size_t err_len);

/* A run killed outright (SIGKILL, a crash of dmo) leaves tool-layers.bin
 * without layers.csv, and so does every run of valgrind --tool=dmo
 * without dmo profile: make it from the whole records, under the run
 * directory's lock.  Returns 0 when there was nothing to do or a bare
 * run's table was made whole, 1 when a damaged run's was rebuilt (ERR
 * says so), -1 with ERR set when it could not be. */
int dmo_rundir_recover(const char *dir, char *err, size_t err_len);

/* The layers of run directory DIR for a command that reads one (dmo plot,
 * dmo annotate): DIR must be a folder; a missing layers.csv is made first
 * (dmo_rundir_recover); then layers.csv is read into *TABLE.  Problems go
 * to stderr after "WHO: ".  Returns dmo_layers_csv_read's 0 or 1 (bad rows
 * skipped), or -1 when there is nothing to read. */
int dmo_rundir_layers(const char *dir, const char *who, struct dmo_layer_table *table);

/* The options `dmo profile` and `dmo run` share, as getopt_long codes:
 * 'o' --out DIR, 't' --trace=summary|full, 'q' --quiet,
 * DMO_OPT_MAX_MEM --max-mem SIZE, DMO_OPT_VG_OPT --vg-opt OPTION,
 * DMO_OPT_RUNS --runs K, DMO_OPT_COUNT --count, DMO_OPT_STATIC_SPLIT
 * --static-split, DMO_OPT_FORCE --force, DMO_OPT_TRACE_VERSION
 * --trace-version N, DMO_OPT_LAYERS --layers LIST, DMO_OPT_UNTRACED
 * --untraced summary|skip, DMO_OPT_TIME_LIMIT --time-limit SECONDS (their help:
 * analysis/cmd/profile_options.c). */
enum { DMO_OPT_MAX_MEM = 0x100, DMO_OPT_VG_OPT, DMO_OPT_RUNS, DMO_OPT_COUNT,
       DMO_OPT_STATIC_SPLIT, DMO_OPT_FORCE, DMO_OPT_TRACE_VERSION,
       DMO_OPT_LAYERS, DMO_OPT_UNTRACED, DMO_OPT_TIME_LIMIT,
       DMO_OPT_SHARED_END /* a command's own codes start here */ };

/* Take OPTION (with VALUE) into *OPTS.  Returns 1 when it is one of the
 * shared options, 0 when it is not, -1 with a message in ERR when its
 * value is bad. */
int dmo_profile_option(struct dmo_profile_options *opts, int option, const char *value,
		       char *err, size_t err_len);

/* --time-limit SECONDS of `dmo profile`, `dmo run` and `dmo sweep`:
 * TEXT as seconds above 0, up to 1e6, in *SECONDS and 0, or -1 with ERR. */
int dmo_time_limit_parse(const char *text, double *seconds, char *err, size_t err_len);

/* Run, then print the per-layer table and the run directory to
 * OPTS->report; messages go to stderr after "WHO: ".  Returns the
 * command's exit status: the program's (128+signal when a signal killed
 * it; when it was a signal dmo was sent too, dmo raises it on itself after
 * writing layers.csv); 2 when the program never ran, when OPTS->time_limit
 * stopped it, or when it exited 0
 * but dmo could not record its run whole (a damaged tool-layers.bin, a
 * full disk): dmo's failure never hides a failing program's status. */
int dmo_profile_command(const struct dmo_profile_options *opts, const char *who);

#endif
