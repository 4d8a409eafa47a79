/* verify.c - run a reference kernel with its buffers really overlapped in one
 * arena and compare its output with a separate-buffer run (verify.h). */
#include "verify.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "algorithmic.h"
#include "backend.h"
#include "isolate.h"
#include "runner.h"

/* The input seed is fixed, so two runs of `dmo verify` test the same bytes. */
#define VERIFY_SEED 0x646d6f7665726966ull /* "dmoverif" */

struct verifier {
	const struct dmo_opspec *spec;
	const struct dmo_verify_opts *opts;
	struct dmo_op_run *run;        /* the reference runner, or */
	struct dmo_backend_run *bk_run; /* the op on opts->backend */
	uint64_t in_bytes, out_bytes;
	unsigned char *input;     /* pristine input, also the reference's */
	unsigned char *reference; /* output of the separate-buffer run */
	unsigned char *arena;
	struct guarded { unsigned char *base; size_t len; } reference_map, arena_map;
};

/* BYTES (64-byte aligned) ending at an inaccessible page, with another
 * before: a kernel that writes past its output or before its buffers
 * faults at once (in the child a plugin runs in) instead of corrupting
 * memory silently.  Zeroed, as calloc's.  NULL when out of memory. */
static unsigned char *guarded_alloc(struct guarded *g, uint64_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t body = ((bytes ? bytes : 1) + 63) & ~(uint64_t)63;
	uint64_t pages = (body + page - 1) / page * page;

	g->base = NULL;
	if (pages > SIZE_MAX - 2 * page)
		return NULL;
	g->len = (size_t)pages + 2 * page;
	g->base = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->base == MAP_FAILED) {
		g->base = NULL;
		return NULL;
	}
	mprotect(g->base, page, PROT_NONE);
	mprotect(g->base + page + pages, page, PROT_NONE);
	return g->base + page + pages - body;
}

static void guarded_free(struct guarded *g)
{
	if (g->base != NULL)
		munmap(g->base, g->len);
}

static void locate_diff(const struct dmo_opspec *s, uint64_t byte, uint64_t elem_size,
			struct dmo_verify_diff *d)
{
	uint64_t e = byte / elem_size;

	d->byte = byte;
	d->elem = e;
	d->c = (int)(e % (uint64_t)s->out_c);
	e /= (uint64_t)s->out_c;
	d->x = (int)(e % (uint64_t)s->out_w);
	e /= (uint64_t)s->out_w;
	d->y = (int)(e % (uint64_t)s->out_h);
	d->n = (int)(e / (uint64_t)s->out_h);
}

static int execute(struct verifier *v, const void *in, void *out)
{
	if (v->bk_run != NULL)
		return dmo_backend_execute(v->bk_run, in, out);
	return dmo_op_execute(v->run, in, out, v->opts->threads, v->opts->interleave);
}

/* Run the kernel with the input at overlap X in the arena.  Returns 1 when
 * the output matches the reference, 0 when it differs (first difference in
 * *DIFF), -1 when the kernel refused to run. */
static int run_at(struct verifier *v, uint64_t x, struct dmo_verify_diff *diff)
{
	uint64_t in_at = v->out_bytes - x;
	size_t elem_size = dmo_dtype_size(v->spec->out_dtype);

	/* The output part below the input starts zeroed, like the reference's
	 * output buffer, so a kernel that reads its output sees the same. */
	memset(v->arena, 0, in_at);
	memcpy(v->arena + in_at, v->input, v->in_bytes);
	if (execute(v, v->arena + in_at, v->arena) != 0)
		return -1;
	if (memcmp(v->arena, v->reference, v->out_bytes) == 0)
		return 1;
	uint64_t b = 0;
	while (v->arena[b] == v->reference[b])
		b++;
	locate_diff(v->spec, b, elem_size, diff);
	return 0;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The overlapped runs at X: the first, then the repeats, counting those
 * that differ (the first difference kept).  A threaded kernel's threads
 * race natively, so one clean run proves little; the automatic count
 * takes about a second, from the first run's time, and is never below
 * DMO_VERIFY_REPEAT_THREADED. */
static int runs_at(struct verifier *v, struct dmo_verify_result *res)
{
	uint64_t repeat = v->opts->repeat;
	struct dmo_verify_diff diff;
	double start = now();
	int same = run_at(v, res->overlap, &res->diff);

	if (same < 0)
		return -1;
	res->runs = 1;
	res->differed = !same;
	if (repeat == DMO_VERIFY_REPEAT_AUTO) {
		double once = now() - start;
		repeat = v->opts->threads < 2 ? 0
			 : once * DMO_VERIFY_REPEAT_MAX < 1.0 ? DMO_VERIFY_REPEAT_MAX
							       : (uint64_t)(1.0 / once);
		if (v->opts->threads >= 2 && repeat < DMO_VERIFY_REPEAT_THREADED)
			repeat = DMO_VERIFY_REPEAT_THREADED;
	}
	for (uint64_t k = 0; k < repeat; k++) {
		same = run_at(v, res->overlap, res->differed ? &diff : &res->diff);
		if (same < 0)
			return -1;
		res->runs++;
		res->differed += !same;
	}
	res->safe = res->differed == 0;
	return 0;
}

/* Smallest X' = X + k*e (k >= 1, X' <= min(IB, OB)) whose run changes the
 * output, at most opts->scan_limit runs. */
static int scan_larger(struct verifier *v, struct dmo_verify_result *res)
{
	uint64_t e = res->step, x = res->overlap;

	if (x >= res->max_overlap) {
		res->scan = DMO_SCAN_AT_MAX;
		return 0;
	}
	res->scan = DMO_SCAN_NONE;
	while (res->max_overlap - x >= e) {
		if (res->scan_runs == v->opts->scan_limit) {
			res->scan = DMO_SCAN_LIMIT;
			break;
		}
		x += e;
		res->scan_runs++;
		res->scan_overlap = x;
		int same = run_at(v, x, &res->scan_diff);
		if (same < 0)
			return -1;
		if (!same) {
			res->scan = DMO_SCAN_FOUND;
			break;
		}
	}
	return 0;
}

static int verify_here(const struct dmo_opspec *spec, const struct dmo_verify_opts *opts,
		       struct dmo_verify_result *res, char *err, size_t err_len)
{
	struct dmo_algo_result algo;
	struct verifier v = { .spec = spec, .opts = opts };
	int rc = -1;
	size_t align = 1;
	struct dmo_backend_handle *backend = NULL;

	memset(res, 0, sizeof *res);
	if (opts->backend != NULL) {
		backend = dmo_backend_load(opts->backend, opts->isa, err, err_len);
		if (backend == NULL ||
		    dmo_backend_set_threads(backend, opts->threads, err, err_len) != 0)
			return -1;
		align = dmo_backend_desc(backend)->alignment;
	}
	/* It refuses only shapes the op-spec parser refused first. */
	int geometry = dmo_algorithmic(spec, &algo);
	assert(geometry == 0);
	(void)geometry;
	v.in_bytes = res->in_bytes = dmo_opspec_in_bytes(spec);
	v.out_bytes = res->out_bytes = dmo_opspec_out_bytes(spec);
	res->elem_size = dmo_dtype_size(spec->dtype);
	res->max_overlap = res->in_bytes < res->out_bytes ? res->in_bytes : res->out_bytes;
	res->exact_os = algo.os;
	res->overlap = opts->have_overlap ? opts->overlap : algo.os;
	if (res->overlap > res->max_overlap) {
		snprintf(err, err_len, "overlap %llu bytes is more than min(IB, OB) = %llu bytes",
			 (unsigned long long)res->overlap, (unsigned long long)res->max_overlap);
		return -1;
	}
	res->misaligned = res->overlap % res->elem_size != 0;
	res->step = align > res->elem_size ? align : res->elem_size;
	/* The output starts the (aligned) arena; the input must be aligned too. */
	if ((res->out_bytes - res->overlap) % align != 0) {
		snprintf(err, err_len, "backend %s needs %zu-byte aligned buffers: the input at "
			 "overlap %llu starts %llu bytes into the arena; test an overlap X with "
			 "OB - X a multiple of %zu", opts->backend, align,
			 (unsigned long long)res->overlap,
			 (unsigned long long)(res->out_bytes - res->overlap), align);
		return -1;
	}
	/* At least OB: the overlap is at most IB. */
	res->arena_bytes = res->out_bytes - res->overlap + res->in_bytes;
	if (res->arena_bytes > SIZE_MAX) {
		snprintf(err, err_len, "the arena of %llu bytes does not fit in memory",
			 (unsigned long long)res->arena_bytes);
		return -1;
	}

	if (backend != NULL)
		v.bk_run = dmo_backend_prepare(backend, spec, NULL, err, err_len);
	else
		v.run = dmo_op_prepare(spec, err, err_len);
	if (v.run == NULL && v.bk_run == NULL)
		return -1;
	v.input = malloc(v.in_bytes ? v.in_bytes : 1);
	v.reference = guarded_alloc(&v.reference_map, v.out_bytes);
	/* Large X' of the scan need less room, so this one arena serves them;
	 * 64-byte aligned, more than any backend asks. */
	v.arena = guarded_alloc(&v.arena_map, res->arena_bytes);
	if (v.input == NULL || v.reference == NULL || v.arena == NULL) {
		snprintf(err, err_len, "out of memory for the buffers (arena %llu bytes)",
			 (unsigned long long)res->arena_bytes);
		goto out;
	}
	dmo_op_fill_input(spec, v.input, VERIFY_SEED);
	if (execute(&v, v.input, v.reference) != 0)
		goto refused;
	if (runs_at(&v, res) != 0)
		goto refused;
	res->scan = DMO_SCAN_SKIPPED;
	if (res->safe && opts->scan_limit > 0 && scan_larger(&v, res) != 0)
		goto refused;
	rc = 0;
	goto out;
refused:
	snprintf(err, err_len, "the %s kernel refused its arguments", dmo_op_name(spec->op));
out:
	guarded_free(&v.arena_map);
	guarded_free(&v.reference_map);
	free(v.input);
	dmo_op_free(v.run);
	dmo_backend_release(v.bk_run);
	return rc;
}

/* A backend run in a child (isolate.h): what it is given and sends back. */
struct verify_call {
	const struct dmo_opspec *spec;
	const struct dmo_verify_opts *opts;
};
struct verify_reply {
	int rc;
	struct dmo_verify_result res;
	char err[1024];
};

static void verify_work(void *arg, void *reply)
{
	const struct verify_call *call = arg;
	struct verify_reply *r = reply;

	memset(r, 0, sizeof *r);
	r->rc = verify_here(call->spec, call->opts, &r->res, r->err, sizeof r->err);
}

int dmo_verify(const struct dmo_opspec *spec, const struct dmo_verify_opts *opts,
	       struct dmo_verify_result *res, char *err, size_t err_len)
{
	struct verify_call call = { spec, opts };
	struct verify_reply reply;
	char who[128];
	int signal_no;

	memset(res, 0, sizeof *res);
	if (opts->backend == NULL)
		return verify_here(spec, opts, res, err, err_len);
	/* A backend is a plugin, another party's code: the guard pages turn
	 * a write out of its buffers into a fault, in a child of its own. */
	snprintf(who, sizeof who, "backend %s", opts->backend);
	if (dmo_isolated(verify_work, &call, &reply, sizeof reply, who, &signal_no, err,
			 err_len) != 0)
		return -1;
	*res = reply.res;
	snprintf(err, err_len, "%s", reply.err);
	return reply.rc;
}
