/* paper_dwconv.c - the paper's depthwise lower bound of O_s as a formula
 * plugin (<dmo/formula.h>), written from docs/formulas.md section 3 like
 * paper_dwconv.formula is, so tests/sweep.sh can check that the two ways
 * of giving dmo sweep a formula agree.  Built as user code: nothing from
 * dmo but the header. */
#include <stdint.h>

#include <dmo/formula.h>

const int dmo_formula_abi = DMO_FORMULA_ABI;

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* max over o in [0, n-1] of a*o - b*max(0, o*s - p): concave, kink at p/s. */
static int64_t axis_lag(int64_t a, int64_t b, int64_t n, int64_t s, int64_t p)
{
	int64_t cand[3] = { n - 1, min64(p / s, n - 1), min64(p / s + 1, n - 1) };
	int64_t best = 0;
	for (int i = 0; i < 3; i++)
		best = max64(best, a * cand[i] - b * max64(0, cand[i] * s - p));
	return best;
}

int dmo_formula(const struct dmo_formula_vars *v, int64_t *os_bytes)
{
	const int64_t Pi = v->in_h * v->in_w, Po = v->out_h * v->out_w;
	const int64_t D = Po * v->out_c, R = Pi * v->in_c, N = v->batch * Po * v->out_c;
	const int64_t delta = axis_lag(Pi * v->out_w, Po * v->in_w, v->out_h, v->stride_h, v->pad_top) +
			      axis_lag(Pi, Po, v->out_w, v->stride_w, v->pad_left);
	const int64_t V = Pi >= Po ? v->in_c * (Pi - Po) * v->out_c + max64(0, D - R)
				   : Pi * v->in_c * (v->mult - 1);
	const int64_t L = v->in_c * v->out_c * delta + V;
	int64_t pen = R >= D ? L / R : (L + (D - R) * (N - 1)) / D;

	if (v->op[0] != 'd') /* dwconv2d only */
		return 1;
	pen = min64(pen, N - 1);
	*os_bytes = max64(0, min64(v->OB - pen * v->es, min64(v->IB, v->OB)));
	return 0;
}
