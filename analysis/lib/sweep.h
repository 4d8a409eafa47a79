/* sweep.h - `dmo sweep`: a user formula checked against the exact O_s
 * measured under the tool, over every configuration of an op-spec grid
 * (docs/sweep.md).
 *
 * A sweep's results live in OUT/sweep-KEY/, KEY a hash of everything that
 * decides them (grid, sample, formula, backend), so sweeps never mix and a
 * re-run of the same command continues where it stopped.  Configurations
 * run in batches, one Valgrind process per batch; each finished batch is
 * one file in parts/, written atomically, and is never run again. */
#ifndef DMO_SWEEP_H
#define DMO_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dmo_sweep_options {
	const char *grid;
	uint64_t sample;        /* 0: the whole grid */
	uint64_t seed;
	const char *formula;    /* expression text, "@FILE" for a file, or NULL */
	const char *formula_lib;/* shared object path, or NULL */
	const char *backend;    /* "ref", "xnnpack", ... (backend.h) */
	const char *isa;        /* --isa cap, or NULL */
	const char *out_dir;    /* parent of sweep-KEY/ */
	int jobs;               /* processes at once, >= 1 */
	int batch;              /* configurations per Valgrind process, >= 1 */
	int have_range;         /* run only configurations first..last */
	uint64_t first, last;
};

struct dmo_sweep;

/* Expand the grid, load the formula and find the sweep directory.  Returns
 * NULL with a message in ERR (naming the column for a bad grid or
 * formula).  Invalid configurations are skipped and counted. */
struct dmo_sweep *dmo_sweep_open(const struct dmo_sweep_options *opts, char *err,
				 size_t err_len);
void dmo_sweep_close(struct dmo_sweep *sweep);

/* Run every configuration (of the range, if one was given) that has no
 * result yet, with a progress line per configuration on stderr when SHOW
 * (runner/progress.h).  Returns 0 when
 * all of them have results, 1 when some batches failed (said on stderr;
 * a re-run retries them), -1 with ERR when the sweep could not start. */
int dmo_sweep_run(struct dmo_sweep *sweep, int show, char *err, size_t err_len);

/* As dmo_sweep_run, bounded to SECONDS (> 0): then the running batches
 * are stopped as SIGTERM stops them (each keeps the configurations it
 * finished), no batch is started, and -2 is returned with ERR saying how
 * many configurations have results; a re-run continues. */
int dmo_sweep_run_for(struct dmo_sweep *sweep, int show, double seconds, char *err,
		      size_t err_len);

/* One self-contained shell command per pending batch, each writing its own
 * result directory OUT/part-FIRST, on OUT_FILE.  SELF is the dmo program. */
int dmo_sweep_emit(struct dmo_sweep *sweep, const char *self, FILE *out, char *err,
		   size_t err_len);

/* Merge the results of the sweep directories DIRS (each a sweep-KEY
 * directory or a folder holding one) into OUT_DIR/sweep-KEY/; they must
 * all be the same sweep.  Returns the sweep (for dmo_sweep_summary) or
 * NULL with ERR. */
struct dmo_sweep *dmo_sweep_collect(char *const *dirs, int count, const char *out_dir,
				    char *err, size_t err_len);

struct dmo_plot_output;

/* Draw the figure of the summarised sweep directory DIR (its figure.csv
 * and titles) to OUT (OUT->file NULL: DIR/sweep.FORMAT).  Returns 0, or
 * -1 with ERR. */
int dmo_sweep_plot(const char *dir, struct dmo_plot_output *out, char *err, size_t err_len);

/* The sweep directory DIR names: DIR itself when it holds a sweep's
 * sweep.txt, else its only sweep-KEY child, into FOUND.  Returns 0, or -1
 * with ERR (none, or more than one). */
int dmo_sweep_find_dir(const char *dir, char *found, size_t len, char *err, size_t err_len);

/* Write results.csv, summary.csv and sweep.png (formula - exact) in
 * the sweep directory and print the summary on OUT (as summary.csv when
 * CSV is not 0).  Returns 0 when every
 * configuration has a result and none is unsafe or a formula error, 1 when
 * some is, 2 when results are missing, -1 with ERR on failure. */
int dmo_sweep_summary(struct dmo_sweep *sweep, FILE *out, int csv, char *err, size_t err_len);

#endif
