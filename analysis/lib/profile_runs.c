/* profile_runs.c - --vg-opt and --runs K (profile_runs.h).
 *
 * Valgrind runs one thread at a time and, left alone, switches threads at
 * the same points every run, so K plain runs would repeat one schedule.
 * Each run therefore gets --fair-sched=yes (threads queue on a ticket lock
 * the host kernel schedules) and a different --vex-guest-max-insns (the
 * size of a translated block, so the time slices, counted in blocks, end
 * at other instructions).  The minimum over runs is safe for the schedules
 * and work splits that were seen, no more.  --time-limit bounds the K
 * runs together: each run gets what the ones before left of it. */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fs.h"
#include "profile_runs.h"
#include "rundir.h"

/* Options dmo passes itself: a second value would contradict it. */
static const char *const owned[] = { "--tool", "-q", "--quiet", "--dmo-" };
/* Options --runs sets on each run. */
static const char *const per_run[] = { "--fair-sched", "--vex-guest-max-insns" };

/* Seconds on a clock no one sets. */
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int named(const char *option, const char *name)
{
	size_t len = strlen(name);
	return strncmp(option, name, len) == 0 &&
	       (option[len] == '\0' || option[len] == '=' || name[len - 1] == '-');
}

int dmo_profile_vg_opt(struct dmo_profile_options *opts, const char *option, char *err,
		       size_t err_len)
{
	if (option[0] != '-' || strcmp(option, "--") == 0) {
		snprintf(err, err_len, "--vg-opt '%s' is not a valgrind option", option);
		return -1;
	}
	for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
		if (named(option, owned[i])) {
			snprintf(err, err_len, "--vg-opt '%s': dmo sets %s itself", option, owned[i]);
			return -1;
		}
	if (opts->n_vg_opts >= DMO_MAX_VG_OPTS - 2) {
		snprintf(err, err_len, "at most %d --vg-opt options", DMO_MAX_VG_OPTS - 2);
		return -1;
	}
	opts->vg_opts[opts->n_vg_opts++] = option;
	return 0;
}

int dmo_profile_runs_option(struct dmo_profile_options *opts, const char *value, char *err,
			    size_t err_len)
{
	char *end;
	long k = strtol(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end != '\0' || k < 1 || k > DMO_MAX_RUNS) {
		snprintf(err, err_len, "--runs must be 1..%d, not '%s'", DMO_MAX_RUNS, value);
		return -1;
	}
	opts->runs = (int)k;
	return 0;
}

/* Block sizes (instructions) the runs cycle through; 50 is valgrind's. */
static const int max_insns[] = { 50, 7, 23, 97, 13, 61, 31, 3, 79, 41 };
enum { N_MAX_INSNS = sizeof max_insns / sizeof max_insns[0] };

static int same_layer(const struct dmo_layer_row *a, const struct dmo_layer_row *b)
{
	return a->layer == b->layer && strcmp(a->name, b->name) == 0 &&
	       a->in_bytes == b->in_bytes && a->out_bytes == b->out_bytes;
}

static void keep_min(uint64_t *m, uint64_t r)
{
	if (r < *m)
		*m = r;
}

/* Fold run K's row R into the merged row M; its safe value is chosen
 * afresh from the merged ones. */
static void merge_row(struct dmo_layer_row *m, const struct dmo_layer_row *r, int static_split)
{
	keep_min(&m->os_bytes, r->os_bytes);
	keep_min(&m->os_any_bytes, r->os_any_bytes);
	keep_min(&m->os_split_bytes, r->os_split_bytes);
	if (r->threads > m->threads)
		m->threads = r->threads;
	if (r->alive_threads > m->alive_threads)
		m->alive_threads = r->alive_threads;
	if (dmo_layer_ok(m) && !dmo_layer_ok(r))
		snprintf(m->status, sizeof m->status, "%s", r->status);
	dmo_layer_set_thread_status(m);
	dmo_layer_set_safe(m, static_split);
}

static int write_runs_csv(const char *dir, const struct dmo_layer_table *tables, int runs,
			  char *err, size_t err_len)
{
	char path[4096];
	struct dmo_out written;
	FILE *out;
	snprintf(path, sizeof path, "%s/runs.csv", dir);
	out = dmo_out_open(&written, path, err, err_len);
	if (out == NULL)
		return -1;
	fputs("run,layer,threads,os_bytes,os_any_bytes,status,alive_threads,os_split_bytes\n",
	      out);
	for (int k = 0; k < runs; k++)
		for (size_t i = 0; i < tables[k].count; i++) {
			const struct dmo_layer_row *r = &tables[k].rows[i];
			fprintf(out, "%d,%u,%u,%" PRIu64 ",%" PRIu64 ",", k + 1, r->layer,
				r->threads, r->os_bytes, r->os_any_bytes);
			csv_fwrite(out, r->status, strlen(r->status));
			fprintf(out, ",%u,%" PRIu64 "\n", r->alive_threads, r->os_split_bytes);
		}
	return dmo_out_commit(&written, err, err_len);
}

static void print_spread(FILE *out, const struct dmo_layer_table *tables, int runs)
{
	for (size_t i = 0; i < tables[0].count; i++) {
		uint64_t lo = UINT64_MAX, hi = 0, run_lo = UINT64_MAX, run_hi = 0;
		for (int k = 0; k < runs; k++) {
			const struct dmo_layer_row *r = &tables[k].rows[i];
			lo = r->os_any_bytes < lo ? r->os_any_bytes : lo;
			hi = r->os_any_bytes > hi ? r->os_any_bytes : hi;
			run_lo = r->os_bytes < run_lo ? r->os_bytes : run_lo;
			run_hi = r->os_bytes > run_hi ? r->os_bytes : run_hi;
		}
		fprintf(out, "layer %u '%s': over %d runs os_any_bytes %" PRIu64 "..%" PRIu64
		       ", os_bytes %" PRIu64 "..%" PRIu64 "%s\n", tables[0].rows[i].layer,
		       tables[0].rows[i].name, runs, lo, hi, run_lo, run_hi,
		       lo != hi || run_lo != run_hi ? "  (varies)" : "");
	}
}

int dmo_profile_runs_command(const struct dmo_profile_options *opts, const char *who)
{
	struct dmo_layer_table *tables = calloc((size_t)opts->runs, sizeof *tables);
	struct dmo_layer_table merged = { 0 };
	char sub[4096], fair[] = "--fair-sched=yes", insns[N_MAX_INSNS][40], err[1024];
	char path[4096];
	int status = 0, rc = 2, done = 0, lock_fd = -1;
	double started = now();

	if (tables == NULL) {
		fprintf(stderr, "%s: out of memory\n", who);
		return 2;
	}
	/* DIR holds layers.csv and runs.csv of all runs: the same rules as
	 * one run's folder. */
	if (dmo_run_dir_adopt(opts->out_dir, opts->force, err, sizeof err) != 0 ||
	    (dmo_make_dirs(opts->out_dir) != 0 &&
	     snprintf(err, sizeof err, "cannot create %s: %s", opts->out_dir, strerror(errno))) ||
	    (lock_fd = dmo_run_dir_lock(opts->out_dir, err, sizeof err)) < 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		goto out;
	}
	for (int i = 0; i < opts->n_vg_opts; i++)
		for (size_t j = 0; j < sizeof per_run / sizeof per_run[0]; j++)
			if (named(opts->vg_opts[i], per_run[j])) {
				fprintf(stderr, "%s: --vg-opt '%s': --runs sets %s on each run\n", who,
					opts->vg_opts[i], per_run[j]);
				goto out;
			}
	for (int k = 0; k < opts->runs; k++, done++) {
		struct dmo_profile_options one = *opts;
		int program_status, signal_no;
		one.runs = 1;
		snprintf(sub, sizeof sub, "%s/run-%d", opts->out_dir, k + 1);
		one.out_dir = sub;
		snprintf(insns[k % N_MAX_INSNS], sizeof insns[0], "--vex-guest-max-insns=%d",
			 max_insns[k % N_MAX_INSNS]);
		one.vg_opts[one.n_vg_opts++] = fair;
		one.vg_opts[one.n_vg_opts++] = insns[k % N_MAX_INSNS];
		if (opts->time_limit > 0) {
			one.time_spent = now() - started;
			if (one.time_spent >= opts->time_limit) {
				fprintf(stderr, "%s: the time limit of %g s was reached after %d of %d "
					"runs (in %s/run-K)\n", who, opts->time_limit, k, opts->runs,
					opts->out_dir);
				goto out;
			}
		}
		if (dmo_profile_run(&one, &program_status, &signal_no, &tables[k], err,
				    sizeof err) != 0) {
			fprintf(stderr, "%s: run %d: %s\n", who, k + 1, err);
			done++;
			goto out;
		}
		fprintf(stderr, "%s: run %d of %d (%s %s): exit status %d, %zu layers\n", who,
			k + 1, opts->runs, fair, insns[k % N_MAX_INSNS], program_status,
			tables[k].count);
		if (status == 0)
			status = program_status;
		if (tables[k].count != tables[0].count) {
			fprintf(stderr, "%s: run %d recorded %zu layers, run 1 %zu: the runs are "
				"not comparable\n", who, k + 1, tables[k].count, tables[0].count);
			done++;
			goto out;
		}
		for (size_t i = 0; i < tables[k].count; i++)
			if (!same_layer(&tables[k].rows[i], &tables[0].rows[i])) {
				fprintf(stderr, "%s: run %d: row %zu is not the same layer as in "
					"run 1\n", who, k + 1, i + 1);
				done++;
				goto out;
			}
	}
	merged.count = tables[0].count;
	merged.rows = calloc(merged.count ? merged.count : 1, sizeof *merged.rows);
	if (merged.rows == NULL) {
		fprintf(stderr, "%s: out of memory\n", who);
		goto out;
	}
	for (size_t i = 0; i < merged.count; i++) {
		merged.rows[i] = tables[0].rows[i];
		for (int k = 1; k < opts->runs; k++)
			merge_row(&merged.rows[i], &tables[k].rows[i], opts->static_split);
	}
	snprintf(path, sizeof path, "%s/%s", opts->out_dir, DMO_LAYERS_CSV);
	if (dmo_layers_csv_write(path, &merged, err, sizeof err) != 0 ||
	    write_runs_csv(opts->out_dir, tables, opts->runs, err, sizeof err) != 0 ||
	    dmo_profile_write_kernels(opts, opts->out_dir, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		goto out;
	}
	/* Where dmo profile's table goes: never the program's stdout. */
	if (!opts->quiet) {
		FILE *report = opts->report ? opts->report : stderr;
		dmo_layers_print(report, &merged);
		print_spread(report, tables, opts->runs);
		fprintf(report, "run directory: %s (%s: the minimum over %d runs; runs.csv; "
			"run-1 .. run-%d)\n", opts->out_dir, DMO_LAYERS_CSV, opts->runs, opts->runs);
	}
	dmo_layers_warn_threads(stderr, who, &merged);
	rc = status;
out:
	for (int k = 0; k < done && k < opts->runs; k++)
		dmo_layer_table_free(&tables[k]);
	free(tables);
	free(merged.rows);
	if (lock_fd >= 0)
		close(lock_fd);
	return rc;
}
