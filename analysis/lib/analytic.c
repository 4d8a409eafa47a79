/* analytic.c - the closed-form lower bound of analytic.h.  Every step is
 * derived in docs/formulas.md ("Analytic bound"); the names follow it.
 * Exact integer arithmetic (128-bit, rationals kept over a common
 * denominator) so that rounding can never make the bound unsafe. */
#include <errno.h>

#include "analytic.h"
#include "os_reducer.h"

typedef __int128 i128;

static i128 max128(i128 a, i128 b)
{
	return a > b ? a : b;
}

/* max over integer o in [0, n-1] of  a*o - b*max(0, o*s - p)  (a, b >= 0).
 * Concave and piecewise linear with its kink at o = p/s, so the maximum over
 * the integers is at an end or next to the kink. */
static i128 axis_lag(i128 a, i128 b, int n, int s, int p)
{
	int cand[4] = { 0, n - 1, p / s, p / s + 1 };
	i128 best = 0; /* o = 0 gives 0 */
	for (int i = 0; i < 4; i++) {
		i128 o = cand[i] < n - 1 ? cand[i] : n - 1;
		i128 in = o * s - p;
		best = max128(best, a * o - b * (in > 0 ? in : 0));
	}
	return best;
}

/* A closed form whose raw value (before the clamp) is RAW bytes, reported
 * as a penalty below OB: exact (EXACT 1) for the ops that move or rescale
 * elements (docs/formulas.md section 4), a lower bound for the NCHW
 * windowed ops (3.6). */
static void closed_form(const struct dmo_geom *g, i128 raw, int exact,
			struct dmo_analytic_result *res)
{
	res->exact = exact;
	res->in_bytes = dmo_geom_in_bytes(g);
	res->out_bytes = dmo_geom_out_bytes(g);
	res->penalty = raw < (i128)res->out_bytes ? (uint64_t)((i128)res->out_bytes - raw) : 0;
	res->rho = (double)res->in_bytes / (double)res->out_bytes;
	res->lag = 0;
	res->linear = 0;
	res->os = dmo_os_clamp(1, raw < 0 ? -1 : raw > (i128)INT64_MAX ? INT64_MAX : (int64_t)raw,
			       res->in_bytes, res->out_bytes);
}

/* 4.4: transpose, OB + es * sum over output axes of min(0, (n_i - 1) *
 * (S_perm[i] - M_i)); pad and concat (4.3): IB, whatever the padding;
 * slice (4.10, 4.14): OB + es * (sum of first_i S_i + sum of min(0,
 * (n_i - 1) (step_i S_i - M_i))), first_i = -before[i] the first index
 * read (every term >= 0 for steps 1). */
static i128 gather_raw(const struct dmo_geom *g)
{
	const i128 in[4] = { g->batch, g->in_h, g->in_w, g->in_c };
	const i128 od[4] = { g->out_batch, g->out_h, g->out_w, g->out_c };
	const int identity = g->perm[0] == 0 && g->perm[1] == 1 && g->perm[2] == 2 && g->perm[3] == 3;
	i128 S[4], M[4], sum = 0;

	/* Only a slice shifts by a negative before. */
	if (identity && g->before[0] >= 0 && g->before[1] >= 0 && g->before[2] >= 0 && g->before[3] >= 0)
		return (i128)dmo_geom_in_bytes(g);
	S[3] = M[3] = 1;
	for (int i = 2; i >= 0; i--) {
		S[i] = S[i + 1] * in[i + 1];
		M[i] = M[i + 1] * od[i + 1];
	}
	for (int i = 0; i < 4; i++) {
		i128 term = (od[i] - 1) * ((i128)g->step[i] * S[g->perm[i]] - M[i]);
		sum += (term < 0 ? term : 0) - (i128)g->before[i] * S[i];
	}
	return (i128)dmo_geom_out_bytes(g) + (i128)g->elem_size * sum;
}

/* 4.14: gather along W, O = N H rows of D columns of C elements to O rows
 * of n: m(t) - t = o (D - n) C + (indices[i] - i) C, minimised over the
 * rows o and the picks i apart, t = 0 left out (with C = 1 it is the
 * corner o = i = 0 alone).  O(n). */
static i128 indexed_raw(const struct dmo_geom *g)
{
	const i128 O = (i128)g->batch * g->in_h, D = g->in_w, C = g->in_c, n = g->n_indices;
	const i128 es = (i128)g->elem_size, ib = (i128)dmo_geom_in_bytes(g), ob = (i128)dmo_geom_out_bytes(g);
	i128 all = 0, rest = 0, best;

	for (int i = 0; i < g->n_indices; i++) {
		i128 d = ((i128)g->indices[i] - i) * C;
		all = i == 0 || d < all ? d : all;
		rest = i == 1 || (i > 1 && d < rest) ? d : rest;
	}
	if (C > 1) /* the first pick's elements e >= 1 are t >= 1 */
		best = (O > 1 && D < n ? (O - 1) * (D - n) * C : 0) + all;
	else if (O > 1) /* a later row with any pick, or row 0 with pick i >= 1 */
		best = (D < n ? (O - 1) * (D - n) : D - n) + all;
	else if (n > 1)
		best = rest;
	else /* one output element: no t >= 1 reads */
		return ib < ob ? ib : ob;
	if (C == 1 && O > 1 && n > 1 && rest < best)
		best = rest;
	return ob + es * best;
}

/* 4.6: nearest resize, OB + es * (sum over the plane, row and column loops
 * of their last index times the term's step): each term of m(t) - t is
 * non-increasing, so the last output element attains the minimum. */
static i128 nearest_raw(const struct dmo_geom *g)
{
	const i128 W = g->in_w, Wo = g->out_w, H = g->in_h, Ho = g->out_h;
	const i128 planes = (i128)g->batch * g->in_c;
	const i128 sum = (planes - 1) * (H * W - Ho * Wo) +
			 (W * ((Ho - 1) / g->scale_h) - Wo * (Ho - 1)) +
			 ((Wo - 1) / g->scale_w - (Wo - 1));
	return (i128)dmo_geom_out_bytes(g) + (i128)g->elem_size * sum;
}

/* Section 3.6 of docs/formulas.md (NCHW): output element e of batch b,
 * plane oc = g*Mg + m, pixel (oy, ox) reads no input element below
 * b*C*Pi + g*Cg*Pi + W*max(0, oy*sh - pt) + max(0, ox*sw - pl), and
 * e = (b*M + oc)*Po + oy*OW + ox elements are written before it, so
 * OB + es * (read - e) bounds O_s from below, and its minimum splits into
 * one term per loop. */
static i128 planes_raw(const struct dmo_geom *g)
{
	const i128 Pi = (i128)g->in_h * g->in_w, Po = (i128)g->out_h * g->out_w;
	const i128 C = g->in_c, M = g->out_c, G = g->groups;
	const i128 Cg = C / G, Mg = M / G;
	const i128 batch = (i128)(g->batch - 1) * (C * Pi - M * Po);
	const i128 group = (G - 1) * (Cg * Pi - Mg * Po);
	i128 sum = (batch < 0 ? batch : 0) + (group < 0 ? group : 0) - (Mg - 1) * Po -
		   axis_lag(g->out_w, g->in_w, g->out_h, g->stride_h, g->pad_top) -
		   axis_lag(1, 1, g->out_w, g->stride_w, g->pad_left);
	return (i128)dmo_geom_out_bytes(g) + (i128)g->elem_size * sum;
}

/* 4.11: matmul, R rows of K times K x N.  Output element t = r N + n
 * reads A from r K on: OB + es * min over t >= 1 of (r (K - N) - n), the
 * minimum of a sum of a term in r and one in n over the box less t = 0. */
static i128 matmul_raw(const struct dmo_geom *g)
{
	const i128 R = g->batch, K = g->in_c, N = g->out_c, es = (i128)g->elem_size;
	const i128 ob = (i128)dmo_geom_out_bytes(g), ib = (i128)dmo_geom_in_bytes(g);

	if (R * N == 1) /* no element t >= 1 reads */
		return ib < ob ? ib : ob;
	if (N == 1) /* rows r >= 1: r (K - 1) >= 0, least at r = 1 */
		return ob + es * (K - 1);
	return ob + es * ((K < N ? (R - 1) * (K - N) : 0) - (N - 1));
}

int dmo_analytic_geom(const struct dmo_geom *g, struct dmo_analytic_result *res)
{
	switch (g->kind) {
	case DMO_GEOM_PLANES:
		closed_form(g, planes_raw(g), 0, res);
		return 0;
	case DMO_GEOM_FLAT:
	case DMO_GEOM_ROWS:
	case DMO_GEOM_MEAN:
	case DMO_GEOM_IMAGES: {
		/* 4.1, 4.2, 4.7 to 4.9 and 3.7 (NCHW integers, image at a
		 * time; a softmax over another axis than the last): min(IB,
		 * OB) exactly. */
		uint64_t ib = dmo_geom_in_bytes(g), ob = dmo_geom_out_bytes(g);
		closed_form(g, ib < ob ? ib : ob, 1, res);
		return 0;
	}
	case DMO_GEOM_GATHER:
		closed_form(g, g->n_indices ? indexed_raw(g) : gather_raw(g), 1, res);
		return 0;
	case DMO_GEOM_NEAREST:
		closed_form(g, nearest_raw(g), 1, res);
		return 0;
	case DMO_GEOM_CONV:
		/* 3.10.2: fc over a transposed input, es * batch exactly (row
		 * b reads element b first; the last element attains it). */
		if (g->trans_a) {
			closed_form(g, (i128)g->elem_size * g->batch, 1, res);
			return 0;
		}
		if (g->matmul) {
			closed_form(g, matmul_raw(g), 1, res);
			return 0;
		}
		break;
	default:
		break;
	}

	const i128 Pi = (i128)g->in_h * g->in_w, Po = (i128)g->out_h * g->out_w;
	const i128 Cin = g->in_c, Cout = g->out_c;
	const i128 D = Po * Cout;       /* common denominator: rho = Pi*Cin/D */
	const i128 rho_num = Pi * Cin;
	const i128 N = (i128)g->batch * Po * Cout; /* steps */

	/* Delta * Po: how far, in input pixels, a pixel's first read can trail
	 * rho' = Pi/Po times its output pixel index. */
	i128 delta = axis_lag(Pi * g->out_w, Po * g->in_w, g->out_h, g->stride_h, g->pad_top) +
		     axis_lag(Pi, Po, g->out_w, g->stride_w, g->pad_left);

	/* V * D: the lag the channel loop adds inside one pixel. */
	i128 v;
	if (g->kind == DMO_GEOM_CONV)
		v = Pi * Cin * (Cout - 1);
	else if (Pi >= Po)
		v = Cin * (Pi - Po) * Cout + max128(0, D - rho_num);
	else
		v = Pi * Cin * (g->mult - 1);
	i128 lag = Cin * Cout * delta + v; /* L * D */

	/* Penalty in output elements, rounded down (the exact O_s is a whole
	 * number of elements), never more than the N-1 elements ahead of any
	 * read offset >= 0. */
	i128 pen = rho_num >= D ? lag / rho_num
				: (lag + (D - rho_num) * (N - 1)) / D;
	if (pen > N - 1)
		pen = N - 1;

	res->in_bytes = dmo_geom_in_bytes(g);
	res->out_bytes = dmo_geom_out_bytes(g);
	res->penalty = (uint64_t)pen * g->elem_size;
	res->rho = (double)rho_num / (double)D;
	res->lag = (double)lag / (double)D;
	res->linear = 1;
	res->exact = 0;
	res->os = dmo_os_clamp(1, (int64_t)res->out_bytes - (int64_t)res->penalty,
			       res->in_bytes, res->out_bytes);
	return 0;
}

int dmo_analytic(const struct dmo_opspec *spec, struct dmo_analytic_result *res)
{
	struct dmo_geom g;
	if (dmo_geom_from_spec(spec, &g))
		return -1;
	return dmo_analytic_geom(&g, res);
}
