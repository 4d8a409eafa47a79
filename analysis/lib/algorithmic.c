/* algorithmic.c - exact O_s by replaying a reference kernel's loop nest on
 * offsets only (see algorithmic.h; derivation in docs/formulas.md).
 *
 * One walker visits the output elements in the kernel's order and describes
 * each element's reads as a box of taps.  Three visitors share it: the exact
 * O(1) rule, the per-step curves and the event-by-event reducer replay.  The
 * walker and visitors are always inlined so each mode compiles to its own
 * tight loop. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "algorithmic.h"
#include "event.h"

#define INLINE static inline __attribute__((always_inline))

/* The in-image reads of one output element, in the kernel's order: ny rows
 * sy apart, nx columns sx apart, nc contiguous channels, from element BASE.
 * Offsets grow along each loop, so BASE is the smallest offset read.  An
 * element with ny == 0 or nx == 0 reads nothing (window fully in padding). */
struct tap_box {
	uint64_t base, sy, sx;
	uint64_t ny, nx, nc;
};

typedef void (*visit_fn)(void *ctx, uint64_t out, const struct tap_box *box);

int dmo_geom_from_spec(const struct dmo_opspec *s, struct dmo_geom *g)
{
	struct dmo_geom z = { 0 };
	*g = z;
	if ((unsigned)s->op >= DMO_OP_COUNT || (unsigned)s->dtype >= DMO_DTYPE_COUNT ||
	    s->batch <= 0 || s->in_h <= 0 || s->in_w <= 0 || s->in_c <= 0) {
		errno = EINVAL;
		return -1;
	}
	g->elem_size = dmo_dtype_size(s->dtype);
	g->batch = s->batch;
	g->k_h = g->k_w = g->stride_h = g->stride_w = g->dil_h = g->dil_w = 1;
	g->mult = 1;
	g->in_h = g->in_w = g->out_h = g->out_w = 1;
	switch (s->op) {
	case DMO_OP_RELU:
	case DMO_OP_RELU6:
	case DMO_OP_ADD:
	case DMO_OP_MUL:
		/* Flat order is that of a 1x1, stride-1 depthwise walk. */
		g->kind = DMO_GEOM_DEPTH;
		g->in_h = g->out_h = s->in_h, g->in_w = g->out_w = s->in_w;
		g->in_c = g->out_c = s->in_c;
		break;
	case DMO_OP_FC: {
		uint64_t k = (uint64_t)s->in_h * s->in_w * s->in_c;
		g->kind = DMO_GEOM_CONV;
		g->in_c = k > INT_MAX ? 0 : (int)k; /* rejected below */
		g->out_c = s->out_c;
		break;
	}
	case DMO_OP_CONV2D:
	case DMO_OP_DWCONV2D:
	case DMO_OP_MAXPOOL:
	case DMO_OP_AVGPOOL:
		g->kind = s->op == DMO_OP_CONV2D ? DMO_GEOM_CONV : DMO_GEOM_DEPTH;
		g->in_h = s->in_h, g->in_w = s->in_w, g->in_c = s->in_c;
		g->out_h = s->out_h, g->out_w = s->out_w, g->out_c = s->out_c;
		g->k_h = s->k_h, g->k_w = s->k_w;
		g->stride_h = s->stride_h, g->stride_w = s->stride_w;
		g->pad_top = s->pad_top, g->pad_left = s->pad_left;
		/* The reference pools take no dilation. */
		if (s->op == DMO_OP_CONV2D || s->op == DMO_OP_DWCONV2D)
			g->dil_h = s->dil_h, g->dil_w = s->dil_w;
		if (s->op == DMO_OP_DWCONV2D)
			g->mult = s->mult;
		break;
	default:
		break;
	}
	if (g->elem_size == 0 || g->in_c <= 0 || g->out_h <= 0 || g->out_w <= 0 ||
	    g->out_c <= 0 || g->k_h <= 0 || g->k_w <= 0 || g->stride_h <= 0 ||
	    g->stride_w <= 0 || g->dil_h <= 0 || g->dil_w <= 0 || g->mult <= 0 ||
	    (g->kind == DMO_GEOM_DEPTH && g->out_c != g->in_c * g->mult)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

uint64_t dmo_geom_in_bytes(const struct dmo_geom *g)
{
	return (uint64_t)g->batch * g->in_h * g->in_w * g->in_c * g->elem_size;
}

uint64_t dmo_geom_out_bytes(const struct dmo_geom *g)
{
	return (uint64_t)g->batch * g->out_h * g->out_w * g->out_c * g->elem_size;
}

/* Taps of one axis inside the image, for output position O: *FIRST is the
 * input position of the first one, the return value their number. */
INLINE uint64_t axis_taps(int o, int stride, int pad, int dil, int k, int n,
			  int *first)
{
	int start = o * stride - pad;
	if (start >= 0 && start + (k - 1) * dil < n) {
		*first = start;
		return (uint64_t)k;
	}
	int f0 = start >= 0 ? 0 : (-start + dil - 1) / dil;
	int room = n - 1 - start; /* largest fy * dil still inside */
	int f1 = room < 0 ? -1 : room / dil;
	if (f1 > k - 1)
		f1 = k - 1;
	*first = start + f0 * dil;
	return f1 >= f0 ? (uint64_t)(f1 - f0 + 1) : 0;
}

/* The loop nest of SPEC.md: batch, out_y, out_x, then out_c (CONV) or
 * in_c, mult (DEPTH).  OUT is the flat output element. */
INLINE void walk(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	const uint64_t C = (uint64_t)g->in_c, W = (uint64_t)g->in_w;
	struct tap_box box = { .sy = (uint64_t)g->dil_h * W * C,
			       .sx = (uint64_t)g->dil_w * C };
	uint64_t out = 0;

	box.nc = g->kind == DMO_GEOM_CONV ? C : 1;
	for (uint64_t b = 0; b < (uint64_t)g->batch; b++)
	for (int oy = 0; oy < g->out_h; oy++) {
		int iy, ix;
		uint64_t ny = axis_taps(oy, g->stride_h, g->pad_top, g->dil_h,
					g->k_h, g->in_h, &iy);
		for (int ox = 0; ox < g->out_w; ox++) {
			uint64_t nx = axis_taps(ox, g->stride_w, g->pad_left,
						g->dil_w, g->k_w, g->in_w, &ix);
			uint64_t pixel = 0;
			box.ny = ny, box.nx = nx;
			if (ny && nx)
				pixel = ((b * (uint64_t)g->in_h + (uint64_t)iy) * W +
					 (uint64_t)ix) * C;
			if (g->kind == DMO_GEOM_CONV) {
				box.base = pixel;
				for (int oc = 0; oc < g->out_c; oc++)
					visit(ctx, out++, &box);
			} else {
				for (uint64_t ic = 0; ic < C; ic++) {
					box.base = pixel + ic;
					for (int m = 0; m < g->mult; m++)
						visit(ctx, out++, &box);
				}
			}
		}
	}
}

/* Exact mode (docs/formulas.md, "Exact O_s of a reference kernel"): the
 * reads of an element come before its write, so the tightest pair that
 * involves them is (largest write end so far, smallest read of the element):
 * a running maximum and a running minimum suffice.  Units are elements. */
struct exact_state {
	uint64_t max_w;  /* largest write end so far; 0 = no write yet */
	uint64_t steps, reads, crit;
	int64_t min_d;   /* min (read - max_w) over reads after a write */
	int have;
};

INLINE void exact_visit(void *ctx, uint64_t out, const struct tap_box *box)
{
	struct exact_state *e = ctx;
	uint64_t n = box->ny * box->nx * box->nc;
	if (n && e->max_w) {
		int64_t d = (int64_t)box->base - (int64_t)e->max_w;
		if (!e->have || d < e->min_d) {
			e->min_d = d;
			e->crit = e->steps;
			e->have = 1;
		}
	}
	e->reads += n;
	if (out + 1 > e->max_w)
		e->max_w = out + 1;
	e->steps++;
}

static void exact_walk(const struct dmo_geom *g, struct exact_state *e)
{
	walk(g, exact_visit, e);
}

int dmo_algorithmic_geom(const struct dmo_geom *g, struct dmo_algo_result *res)
{
	struct exact_state e = { 0 };
	exact_walk(g, &e);

	res->in_bytes = dmo_geom_in_bytes(g);
	res->out_bytes = dmo_geom_out_bytes(g);
	res->steps = e.steps;
	res->reads = e.reads;
	res->have_pair = e.have;
	res->raw_bound = e.have ? (int64_t)res->out_bytes + e.min_d * (int64_t)g->elem_size : 0;
	res->critical_step = e.have ? e.crit : 0;
	res->os = dmo_os_clamp(e.have, res->raw_bound, res->in_bytes, res->out_bytes);
	return 0;
}

int dmo_algorithmic(const struct dmo_opspec *spec, struct dmo_algo_result *res)
{
	struct dmo_geom g;
	if (dmo_geom_from_spec(spec, &g))
		return -1;
	return dmo_algorithmic_geom(&g, res);
}

/* Replay mode: every event, in the kernel's order, into the reducer. */
struct replay_state {
	struct dmo_reducer *r;
	uint64_t es;
};

INLINE void replay_visit(void *ctx, uint64_t out, const struct tap_box *box)
{
	struct replay_state *s = ctx;
	for (uint64_t y = 0; y < box->ny; y++)
		for (uint64_t x = 0; x < box->nx; x++)
			for (uint64_t c = 0; c < box->nc; c++)
				dmo_reducer_add(s->r, 0,
						(box->base + y * box->sy + x * box->sx + c) * s->es,
						s->es);
	dmo_reducer_add(s->r, DMO_EV_WRITE | DMO_EV_OUT, out * s->es, s->es);
}

int dmo_algorithmic_replay(const struct dmo_geom *g, struct dmo_reducer *r)
{
	struct replay_state s = { r, g->elem_size };
	walk(g, replay_visit, &s);
	return 0;
}

/* Curve mode: a first walk records each step's smallest read, a backward
 * scan turns them into suffix minima, a second walk emits them with the
 * running write maximum. */
#define NO_READ UINT64_MAX

struct min_state {
	uint64_t *min;
	uint64_t step;
};

INLINE void min_visit(void *ctx, uint64_t out, const struct tap_box *box)
{
	struct min_state *s = ctx;
	(void)out;
	s->min[s->step++] = box->ny && box->nx ? box->base : NO_READ;
}

struct emit_state {
	const uint64_t *suffix; /* suffix[i]: smallest read of steps >= i */
	uint64_t steps, step, max_w, es, in_bytes;
	dmo_curve_fn fn;
	void *ctx;
	int rc;
};

INLINE void emit_visit(void *ctx, uint64_t out, const struct tap_box *box)
{
	struct emit_state *s = ctx;
	(void)box;
	if (out + 1 > s->max_w)
		s->max_w = out + 1;
	s->step++;
	if (s->rc)
		return;
	uint64_t next = s->step < s->steps ? s->suffix[s->step] : NO_READ;
	s->rc = s->fn(s->ctx, s->step, next == NO_READ ? s->in_bytes : next * s->es,
		      s->max_w * s->es);
}

int dmo_algorithmic_curves(const struct dmo_geom *g, dmo_curve_fn fn, void *ctx)
{
	uint64_t steps = dmo_geom_out_bytes(g) / g->elem_size;
	uint64_t *suffix = malloc((steps ? steps : 1) * sizeof *suffix);
	if (!suffix)
		return -1;

	struct min_state m = { suffix, 0 };
	walk(g, min_visit, &m);
	for (uint64_t i = steps; i-- > 1;)
		if (suffix[i] < suffix[i - 1])
			suffix[i - 1] = suffix[i];

	struct emit_state e = { .suffix = suffix, .steps = steps, .es = g->elem_size,
				.in_bytes = dmo_geom_in_bytes(g), .fn = fn, .ctx = ctx };
	walk(g, emit_visit, &e);
	free(suffix);
	return e.rc;
}
