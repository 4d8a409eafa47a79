/* compare.c - one op spec measured and verified on every backend
 * (compare.h).  Each backend profiles all the specs it supports in one
 * dmo-harness run under the tool (OUT_DIR/BACKEND), then dmo verifies every
 * measured O_s natively, with the same ISA cap; each backend's work runs in
 * a child process (isolate.h), as its plugin's code may crash. */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>

#include "algorithmic.h"
#include "analytic.h"
#include "backend.h"
#include "backend_info.h"
#include "cpu_features.h"
#include "fs.h"
#include "isolate.h"
#include "locate.h"
#include "profile.h"
#include "runner.h"
#include "verify.h"

/* Input seed of the comparison with the ref backend. */
#define DIFF_SEED 0x646d6f636d70ull /* "dmocmp" */

static void set_reason(struct dmo_compare_row *row, enum dmo_compare_status status,
		       const char *reason)
{
	row->status = status;
	snprintf(row->reason, sizeof row->reason, "%s", reason);
}

/* Profile the rows (one backend) still OK under the tool.  Returns -1 when
 * the tool itself failed. */
static int profile_backend(const struct dmo_compare_options *opts, const char *backend,
			   struct dmo_compare_row **rows, int n, char *err, size_t err_len)
{
	char harness[PATH_MAX], dir[PATH_MAX], info[PATH_MAX + 32], threads[16];
	const char **argv = calloc((size_t)n + 18, sizeof *argv);
	struct dmo_layer_table table = { 0 };
	struct dmo_backend_info_table infos = { 0 };
	struct dmo_profile_options popts = { .who = "dmo compare" };
	struct dmo_kernels kernels;
	int a = 0, status = 0, sig = 0, rc = -1;

	if (argv == NULL) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	if (dmo_locate_harness(harness, sizeof harness, err, err_len) != 0)
		goto out;
	snprintf(dir, sizeof dir, "%s/%s", opts->out_dir, backend);
	snprintf(info, sizeof info, "%s/%s", dir, DMO_BACKEND_INFO_CSV);
	snprintf(threads, sizeof threads, "%d", opts->threads);
	argv[a++] = harness;
	argv[a++] = "--backend";
	argv[a++] = backend;
	if (opts->isa != NULL) {
		argv[a++] = "--isa";
		argv[a++] = opts->isa;
	}
	argv[a++] = "--threads";
	argv[a++] = threads;
	argv[a++] = "--native-isa"; /* found natively by dmo_compare, as the host's */
	argv[a++] = rows[0]->isa_native;
	argv[a++] = "--host-isa";
	argv[a++] = dmo_cpu_widest_isa();
	argv[a++] = "--info";
	argv[a++] = info;
	argv[a++] = "--";
	for (int i = 0; i < n; i++)
		argv[a++] = rows[i]->spec;
	popts.out_dir = dir;
	popts.argv = (char *const *)argv;
	popts.quiet_program = 1;
	popts.kernels = &kernels;
	if (dmo_kernels_of_backend(backend, opts->isa, &kernels, err, err_len) != 0 ||
	    dmo_profile_run(&popts, &status, &sig, &table, err, err_len) != 0)
		goto out;
	if (dmo_backend_info_read(dir, &infos, err, err_len) != 0)
		goto out;
	for (int i = 0; i < n; i++) {
		struct dmo_compare_row *row = rows[i];
		const struct dmo_layer_row *layer = (size_t)i < table.count ? &table.rows[i] : NULL;
		const struct dmo_backend_info *bi = (size_t)i < infos.count ? &infos.rows[i] : NULL;

		if (layer == NULL || !dmo_layer_ok(layer)) {
			snprintf(row->reason, sizeof row->reason,
				 "profiling under the tool failed (%.60s, exit %d; see %.160s)",
				 layer ? layer->status : "no layer", status, dir);
			row->status = DMO_COMPARE_FAILED;
			continue;
		}
		row->os = dmo_layer_safe_os(layer);
		snprintf(row->safe_rule, sizeof row->safe_rule, "%s",
			 dmo_safe_rule_name(layer->safe_rule));
		if (bi != NULL) {
			snprintf(row->isa_tool, sizeof row->isa_tool, "%s", bi->isa);
			snprintf(row->cpu_tool, sizeof row->cpu_tool, "%s", bi->cpu);
			snprintf(row->implementation, sizeof row->implementation, "%s",
				 bi->implementation);
		}
	}
	rc = 0;
out:
	dmo_backend_info_free(&infos);
	dmo_layer_table_free(&table);
	free(argv);
	return rc;
}

static void *alloc_aligned(uint64_t bytes)
{
	void *p = NULL;

	return posix_memalign(&p, 64, bytes ? bytes : 1) == 0 ? p : NULL;
}

/* ROW's backend and ref on the same input, separate buffers. */
static void diff_vs_ref(const struct dmo_compare_options *opts, const struct dmo_opspec *spec,
			struct dmo_compare_row *row)
{
	char err[320];
	struct dmo_backend_handle *ref = dmo_backend_load("ref", opts->isa, err, sizeof err);
	struct dmo_backend_handle *own = dmo_backend_load(row->backend, opts->isa, err, sizeof err);
	struct dmo_backend_run *a = NULL, *b = NULL;
	unsigned char *in = alloc_aligned(row->in_bytes);
	unsigned char *want = alloc_aligned(row->out_bytes), *got = alloc_aligned(row->out_bytes);
	size_t elem = dmo_dtype_size(spec->dtype);

	row->diff_vs_ref = -1;
	row->exact = spec->dtype != DMO_F32;
	if (ref == NULL || own == NULL || in == NULL || want == NULL || got == NULL)
		goto out;
	a = dmo_backend_prepare(ref, spec, NULL, err, sizeof err);
	b = dmo_backend_prepare(own, spec, NULL, err, sizeof err);
	if (a == NULL || b == NULL)
		goto out;
	dmo_op_fill_input(spec, in, DIFF_SEED);
	memset(want, 0, row->out_bytes);
	memset(got, 0, row->out_bytes);
	if (dmo_backend_execute(a, in, want) != 0 || dmo_backend_execute(b, in, got) != 0)
		goto out;
	row->diff_vs_ref = 0;
	for (uint64_t i = 0; i < row->out_bytes / elem; i++) {
		double x, y, d;

		if (spec->dtype == DMO_F32) {
			x = ((const float *)want)[i];
			y = ((const float *)got)[i];
			d = fabs(x - y) / (fabs(x) > 1 ? fabs(x) : 1);
		} else {
			x = elem == 1 ? ((const int8_t *)want)[i] : elem == 2 ? ((const int16_t *)want)[i]
									  : ((const int32_t *)want)[i];
			y = elem == 1 ? ((const int8_t *)got)[i] : elem == 2 ? ((const int16_t *)got)[i]
									 : ((const int32_t *)got)[i];
			d = fabs(x - y);
		}
		if (d > row->diff_vs_ref || d != d) /* NaN counts as a difference */
			row->diff_vs_ref = d != d ? INFINITY : d;
	}
out:
	dmo_backend_release(a);
	dmo_backend_release(b);
	free(in);
	free(want);
	free(got);
}

/* Overlapped native runs at O_s (aligned down) and one step above; with
 * threads, at O_s as many times as dmo verify repeats by default. */
static void verify_row(const struct dmo_compare_options *opts, const struct dmo_opspec *spec,
		       size_t align, struct dmo_compare_row *row)
{
	struct dmo_verify_opts vopts = { .have_overlap = 1, .threads = opts->threads,
					 .scan_limit = 1, .repeat = DMO_VERIFY_REPEAT_AUTO,
					 .backend = row->backend, .isa = opts->isa };
	struct dmo_verify_result res;
	char err[320];

	/* The input starts OB - X into the arena and must be aligned too. */
	uint64_t off = (row->os % align + align - row->out_bytes % align) % align;

	vopts.overlap = row->os >= off ? row->os - off : row->os; /* else verify says why */
	if (dmo_verify(spec, &vopts, &res, err, sizeof err) != 0) {
		set_reason(row, DMO_COMPARE_FAILED, err);
		return;
	}
	row->tested = res.overlap;
	row->step = res.step;
	row->safe = res.safe;
	row->runs = res.runs;
	row->differed = res.differed;
	row->next_changed = res.scan == DMO_SCAN_FOUND ? 1 : res.scan == DMO_SCAN_AT_MAX ? -1 : 0;
	if (!res.safe)
		row->next_changed = -1;
}

/* One backend's rows, in the child of dmo_isolated: what it is given and
 * sends back. */
struct backend_call {
	const struct dmo_compare_options *opts;
	const struct dmo_opspec *specs;
	struct dmo_compare_row *rows, **todo;
	int n_backends, b;
};
struct backend_reply {
	int rc;
	char err[1024];
	struct dmo_compare_row rows[]; /* the backend's, one per spec */
};

/* Load backend B, keep the specs it takes, profile them in one run under
 * the tool, and verify each measured O_s natively. */
static void backend_work(void *arg, void *reply_bytes)
{
	const struct backend_call *c = arg;
	const struct dmo_compare_options *opts = c->opts;
	struct backend_reply *reply = reply_bytes;
	char why[320];
	struct dmo_backend_handle *h = dmo_backend_load(opts->backends[c->b], opts->isa, why,
							sizeof why);
	int n = 0;

	for (int s = 0; s < opts->n_specs; s++) {
		struct dmo_compare_row *row = &c->rows[s * c->n_backends + c->b];

		if (h == NULL) {
			set_reason(row, DMO_COMPARE_UNAVAILABLE, why);
			continue;
		}
		snprintf(row->version, sizeof row->version, "%s", dmo_backend_desc(h)->version());
		snprintf(row->isa_native, sizeof row->isa_native, "%s", dmo_backend_desc(h)->isa());
		if (dmo_backend_set_threads(h, opts->threads, why, sizeof why) != 0 ||
		    dmo_backend_check(h, &c->specs[s], why, sizeof why) != 0)
			set_reason(row, DMO_COMPARE_UNSUPPORTED, why);
		else
			c->todo[n++] = row;
	}
	reply->rc = n > 0 ? profile_backend(opts, opts->backends[c->b], c->todo, n, reply->err,
					     sizeof reply->err) : 0;
	for (int i = 0; reply->rc == 0 && i < n; i++)
		if (c->todo[i]->status == DMO_COMPARE_OK) {
			const struct dmo_opspec *spec = &c->specs[(c->todo[i] - c->rows) / c->n_backends];

			verify_row(opts, spec, dmo_backend_desc(h)->alignment, c->todo[i]);
			diff_vs_ref(opts, spec, c->todo[i]);
		}
	for (int s = 0; s < opts->n_specs; s++)
		reply->rows[s] = c->rows[s * c->n_backends + c->b];
}

int dmo_compare(const struct dmo_compare_options *opts, struct dmo_compare_row *rows,
		char *err, size_t err_len)
{
	int n_backends = 0;
	struct dmo_opspec *specs = calloc((size_t)opts->n_specs, sizeof *specs);
	struct dmo_compare_row **todo = calloc((size_t)opts->n_specs, sizeof *todo);
	int rc = -1;

	if (specs == NULL || todo == NULL) {
		snprintf(err, err_len, "out of memory");
		goto out;
	}
	/* The folder holds compare.csv even when no backend gets to profile
	 * (all unavailable, or all refusing the specs), which is when the
	 * profiler would not have made it. */
	if (dmo_make_dirs(opts->out_dir) != 0) {
		snprintf(err, err_len, "cannot create %s: %s", opts->out_dir, strerror(errno));
		goto out;
	}
	while (opts->backends[n_backends] != NULL)
		n_backends++;
	for (int s = 0; s < opts->n_specs; s++) {
		struct dmo_algo_result algo;
		struct dmo_analytic_result bound;
		char why[256];

		if (dmo_opspec_parse(opts->specs[s], &specs[s], why, sizeof why) != 0) {
			snprintf(err, err_len, "'%s': %s", opts->specs[s], why);
			goto out;
		}
		int have_formula = dmo_algorithmic(&specs[s], &algo) == 0 &&
				   dmo_analytic(&specs[s], &bound) == 0;
		for (int b = 0; b < n_backends; b++) {
			struct dmo_compare_row *row = &rows[s * n_backends + b];

			memset(row, 0, sizeof *row);
			row->spec = opts->specs[s];
			row->backend = opts->backends[b];
			row->in_bytes = dmo_opspec_in_bytes(&specs[s]);
			row->out_bytes = dmo_opspec_out_bytes(&specs[s]);
			row->algorithmic = have_formula ? algo.os : 0;
			row->analytic = have_formula ? bound.os : 0;
		}
	}
	for (int b = 0; b < n_backends; b++) {
		struct backend_call call = { .opts = opts, .specs = specs, .rows = rows,
					     .todo = todo, .n_backends = n_backends, .b = b };
		size_t reply_len = sizeof(struct backend_reply) +
				   (size_t)opts->n_specs * sizeof(struct dmo_compare_row);
		struct backend_reply *reply = calloc(1, reply_len);
		char who[128];
		int signal_no;

		if (reply == NULL) {
			snprintf(err, err_len, "out of memory");
			goto out;
		}
		/* The plugin's code (init, check, its run under the tool and
		 * the native runs) in a child: a crash costs this backend's
		 * rows, which say so, and no other. */
		snprintf(who, sizeof who, "backend %s", opts->backends[b]);
		if (dmo_isolated(backend_work, &call, reply, reply_len, who, &signal_no, err,
				 err_len) != 0) {
			if (signal_no == 0) {
				free(reply);
				goto out;
			}
			for (int s = 0; s < opts->n_specs; s++)
				set_reason(&rows[s * n_backends + b], DMO_COMPARE_FAILED, err);
		} else if (reply->rc != 0) {
			snprintf(err, err_len, "%s", reply->err);
			free(reply);
			goto out;
		} else {
			for (int s = 0; s < opts->n_specs; s++)
				rows[s * n_backends + b] = reply->rows[s];
		}
		free(reply);
		if (opts->row_done != NULL)
			for (int s = 0; s < opts->n_specs; s++)
				opts->row_done(opts->row_done_arg, &rows[s * n_backends + b]);
	}
	rc = 0;
out:
	free(todo);
	free(specs);
	return rc;
}
