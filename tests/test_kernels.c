/* test_kernels.c - Check tests of libdmokernels: every op and dtype against
 * an independent naive implementation (gather formulation, accumulating in
 * double, output channel outermost), and the threaded split (3 threads,
 * contiguous and interleaved) against the single-threaded run.  The int8
 * and int16 conv/dwconv/fc of odd geometries requantise per output channel;
 * uint8 is TFLite's asymmetric per-tensor scheme (filters with a zero
 * point). */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "dmokernels.h"

enum op { CONV, DWCONV, FC, MAXPOOL, AVGPOOL, RELU, RELU6, ADD, MUL, OP_COUNT };
enum dt { F32, I8, I16, U8, DT_COUNT };
enum pad { VALID, SAME, EXPLICIT };

static const size_t dt_size[DT_COUNT] = { 4, 1, 2, 1 };

/* Geometry cases: in NHWC, kernel, stride, dilation, padding, mult, out_c. */
static const struct geo {
	int n, h, w, c, kh, kw, sh, sw, dh, dw;
	enum pad pad;
	int ph, pw, mult, oc;
} geos[] = {
	{ 1, 6, 5, 3, 3, 3, 1, 1, 1, 1, VALID, 0, 0, 1, 4 },
	{ 2, 7, 7, 2, 3, 3, 2, 2, 1, 1, SAME, 0, 0, 2, 3 },
	{ 1, 8, 6, 3, 3, 2, 1, 2, 2, 2, SAME, 0, 0, 1, 2 },
	{ 1, 7, 9, 2, 3, 3, 2, 1, 2, 1, EXPLICIT, 1, 2, 2, 5 },
	{ 2, 5, 4, 4, 2, 2, 2, 2, 1, 1, VALID, 0, 0, 1, 3 },
	{ 1, 6, 6, 1, 4, 3, 3, 2, 1, 1, SAME, 0, 0, 3, 1 },
};
#define N_GEOS (sizeof geos / sizeof geos[0])

static int is_pool(enum op op)
{
	return op == MAXPOOL || op == AVGPOOL;
}

static int out_size(enum pad pad, int in, int k, int s, int d, int explicit_pad, int *before)
{
	int ext = (k - 1) * d + 1;

	if (pad == VALID) {
		*before = 0;
		return (in - ext + s) / s;
	}
	if (pad == SAME) {
		int out = (in + s - 1) / s, total = (out - 1) * s + ext - in;
		*before = total > 0 ? total / 2 : 0;
		return out;
	}
	*before = explicit_pad;
	return (in + 2 * explicit_pad - ext) / s + 1;
}

static struct dk_params make_params(const struct geo *g, enum op op, enum dt dt)
{
	struct dk_params p = { .batch = g->n, .in_h = g->h, .in_w = g->w, .in_c = g->c,
			       .k_h = g->kh, .k_w = g->kw, .stride_h = g->sh, .stride_w = g->sw,
			       .dil_h = is_pool(op) ? 1 : g->dh, .dil_w = is_pool(op) ? 1 : g->dw,
			       .mult = op == DWCONV ? g->mult : 1 };

	p.out_h = out_size(g->pad, g->h, g->kh, g->sh, p.dil_h, g->ph, &p.pad_top);
	p.out_w = out_size(g->pad, g->w, g->kw, g->sw, p.dil_w, g->pw, &p.pad_left);
	p.out_c = op == CONV || op == FC ? g->oc : op == DWCONV ? g->c * g->mult : g->c;
	if (op == FC)
		p.out_h = p.out_w = 1;
	if (op >= RELU) {
		p.out_h = g->h;
		p.out_w = g->w;
	}
	int taps = op == FC ? g->h * g->w * g->c : g->kh * g->kw * (op == CONV ? g->c : 1);
	double scale = 1.0;
	if (dt == I8) {
		p.q = (struct dk_quant){ .in_zero = 3, .in2_zero = -7, .filter_zero = -2,
					 .out_zero = -5, .act_min = -100, .act_max = 110 };
		scale = op >= RELU ? 0.9 : 1.0 / (400.0 * sqrt(taps));
	} else if (dt == I16) {
		p.q = (struct dk_quant){ .act_min = -30000, .act_max = 32767 };
		scale = op >= RELU ? 0.7 : 1.0 / (200.0 * sqrt(taps));
	} else if (dt == U8) {
		p.q = (struct dk_quant){ .in_zero = 131, .in2_zero = 121, .filter_zero = 126,
					 .out_zero = 125, .act_min = 5, .act_max = 250 };
		scale = op >= RELU ? 0.9 : 1.0 / (400.0 * sqrt(taps));
	}
	if (op == RELU6)
		p.q.act_max = dt == I8 ? 60 : dt == U8 ? 190 : 20000;
	if (op == MUL)
		scale = dt == I16 ? 1.0 / 20000 : 1.0 / 90;
	if (op == ADD) {
		p.q.left_shift = dt == I16 ? 15 : 20;
		dk_quantize_multiplier(0.5, &p.q.in_mult, &p.q.in_shift);
		dk_quantize_multiplier(0.35, &p.q.in2_mult, &p.q.in2_shift);
		scale = 1.3 / (1 << p.q.left_shift);
	}
	dk_quantize_multiplier(scale, &p.q.out_mult, &p.q.out_shift);
	if ((dt == I8 || dt == I16) && (op == CONV || op == DWCONV || op == FC) && (g - geos) % 2) {
		/* Per channel (int8, and int16 with its 64-bit accumulator):
		 * channel c's factor is (1 + c / 3) times the tensor's; the
		 * arrays are the test's, one geometry at a time. */
		static int32_t mults[64];
		static int shifts[64];
		for (int c = 0; c < p.out_c && c < 64; c++)
			dk_quantize_multiplier(scale * (1 + c / 3.0), &mults[c], &shifts[c]);
		p.q.out_mults = mults;
		p.q.out_shifts = shifts;
	}
	return p;
}

static size_t n_in(const struct dk_params *p)
{
	return (size_t)p->batch * p->in_h * p->in_w * p->in_c;
}

static size_t n_out(const struct dk_params *p)
{
	return (size_t)p->batch * p->out_h * p->out_w * p->out_c;
}

static size_t n_filter(const struct dk_params *p, enum op op)
{
	return op == CONV ? (size_t)p->out_c * p->k_h * p->k_w * p->in_c :
	       op == DWCONV ? (size_t)p->k_h * p->k_w * p->out_c :
	       op == FC ? (size_t)p->out_c * p->in_h * p->in_w * p->in_c : 0;
}

/* One test's tensors; weights are int8 for both integer types (16x8). */
struct tensors {
	void *in, *in2, *filter, *bias, *out;
};

static void fill(void *buf, size_t n, enum dt dt, int weights, unsigned *seed)
{
	for (size_t i = 0; i < n; i++) {
		int r = rand_r(seed);
		if (dt == F32)
			((float *)buf)[i] = (float)(r % 2001 - 1000) / 250.0f;
		else if (dt == U8)
			((uint8_t *)buf)[i] = (uint8_t)(r % 256);
		else if (dt == I8 || weights)
			((int8_t *)buf)[i] = (int8_t)(r % 256 - 128);
		else
			((int16_t *)buf)[i] = (int16_t)(r % 65536 - 32768);
	}
}

static size_t bias_size(enum dt dt)
{
	return dt == F32 ? sizeof(float) : dt == I16 ? sizeof(int64_t) : sizeof(int32_t);
}

static void alloc_tensors(struct tensors *t, const struct dk_params *p, enum op op,
			  enum dt dt, int with_bias, unsigned seed)
{
	t->in = malloc(n_in(p) * dt_size[dt]);
	t->in2 = malloc(n_in(p) * dt_size[dt]);
	t->filter = malloc(n_filter(p, op) * (dt == F32 ? 4 : 1) + 1);
	t->bias = with_bias ? malloc(p->out_c * bias_size(dt)) : NULL;
	t->out = malloc(n_out(p) * dt_size[dt]);
	fill(t->in, n_in(p), dt, 0, &seed);
	fill(t->in2, n_in(p), dt, 0, &seed);
	fill(t->filter, n_filter(p, op), dt, 1, &seed);
	for (int i = 0; with_bias && i < p->out_c; i++) {
		int r = rand_r(&seed) % 4001 - 2000;
		if (dt == F32)
			((float *)t->bias)[i] = r / 500.0f;
		else if (dt != I16)
			((int32_t *)t->bias)[i] = r;
		else
			((int64_t *)t->bias)[i] = (int64_t)r * 1000;
	}
}

static void free_tensors(struct tensors *t)
{
	free(t->in);
	free(t->in2);
	free(t->filter);
	free(t->bias);
	free(t->out);
}

static int run(enum op op, enum dt dt, const struct dk_params *p, const struct tensors *t,
	       void *out, const struct dk_thread *th)
{
#define CASE3(OP, FN, ...)                                                         \
	case OP:                                                                   \
		return dt == F32 ? dk_##FN##_f32(p, __VA_ARGS__, out, th)          \
		     : dt == I8 ? dk_##FN##_i8(p, __VA_ARGS__, out, th)            \
		     : dt == U8 ? dk_##FN##_u8(p, __VA_ARGS__, out, th)            \
				: dk_##FN##_i16(p, __VA_ARGS__, out, th);
	switch (op) {
	CASE3(CONV, conv2d, t->in, t->filter, t->bias)
	CASE3(DWCONV, dwconv2d, t->in, t->filter, t->bias)
	CASE3(FC, fc, t->in, t->filter, t->bias)
	CASE3(MAXPOOL, maxpool, t->in)
	CASE3(AVGPOOL, avgpool, t->in)
	CASE3(RELU, relu, t->in)
	CASE3(RELU6, relu6, t->in)
	CASE3(ADD, add, t->in, t->in2)
	CASE3(MUL, mul, t->in, t->in2)
	case OP_COUNT:
		break;
	}
#undef CASE3
	return -1;
}

/* ---- the naive side ---- */

static double get(const void *buf, size_t i, enum dt dt, int weights)
{
	return dt == F32 ? ((const float *)buf)[i] : dt == U8 ? ((const uint8_t *)buf)[i] :
	       dt == I8 || weights ? ((const int8_t *)buf)[i] : ((const int16_t *)buf)[i];
}

static double get_bias(const void *bias, int oc, enum dt dt)
{
	return !bias ? 0 : dt == F32 ? ((const float *)bias)[oc] :
	       dt != I16 ? ((const int32_t *)bias)[oc] : (double)((const int64_t *)bias)[oc];
}

/* gemmlowp's doubling high multiply rounds half up; the power-of-two
 * divide rounds half away from zero. */
static int32_t ref_requant32(int64_t x, int32_t mult, int shift)
{
	long double v = (long double)x * powl(2, shift > 0 ? shift : 0);
	v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
	long double high = floorl(v * mult / 2147483648.0L + 0.5L);
	return (int32_t)llroundl(high / powl(2, shift > 0 ? 0 : -shift));
}

static int32_t ref_requant64(int64_t x, int32_t mult, int shift)
{
	int64_t reduced = mult < 0x7fff0000 ? (mult + 32768) / 65536 : 0x7fff;
	long double v = floorl((long double)x * reduced / powl(2, 15 - shift) + 0.5L);
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static double clamp_q(const struct dk_quant *q, double v, enum dt dt, double lo)
{
	double tmin = dt == I8 ? -128 : dt == U8 ? 0 : -32768;
	double tmax = dt == I8 ? 127 : dt == U8 ? 255 : 32767;
	lo = fmax(fmax(lo, q->act_min), tmin);
	return fmin(fmax(v, lo), fmin(q->act_max, tmax));
}

/* Requantise an accumulator of conv/fc output channel C to the output type. */
static double finish_acc(const struct dk_params *p, enum dt dt, double acc, int c)
{
	if (dt == F32)
		return acc;
	int32_t mult = p->q.out_mults ? p->q.out_mults[c] : p->q.out_mult;
	int shift = p->q.out_mults ? p->q.out_shifts[c] : p->q.out_shift;
	int32_t r = dt != I16 ? ref_requant32((int64_t)acc, mult, shift) :
				ref_requant64((int64_t)acc, mult, shift);
	return clamp_q(&p->q, (double)p->q.out_zero + r, dt, -1e9);
}

static double naive_elem(const struct dk_params *p, enum op op, enum dt dt,
			 const struct tensors *t, size_t i)
{
	double a = get(t->in, i, dt, 0), b = get(t->in2, i, dt, 0);
	const struct dk_quant *q = &p->q;

	if (dt == F32)
		return op == RELU ? fmax(a, 0) : op == RELU6 ? fmin(fmax(a, 0), 6) :
		       op == ADD ? (double)((float)a + (float)b) : (double)((float)a * (float)b);
	if (op == RELU || op == RELU6)
		return clamp_q(q, q->out_zero + ref_requant32((int64_t)(a - q->in_zero), q->out_mult, q->out_shift),
			       dt, q->out_zero);
	if (op == MUL)
		return clamp_q(q, q->out_zero + ref_requant32((int64_t)((a - q->in_zero) * (b - q->in2_zero)),
							      q->out_mult, q->out_shift), dt, -1e9);
	int64_t sa = ref_requant32((int64_t)(a - q->in_zero) * (1 << q->left_shift), q->in_mult, q->in_shift);
	int64_t sb = ref_requant32((int64_t)(b - q->in2_zero) * (1 << q->left_shift), q->in2_mult, q->in2_shift);
	return clamp_q(q, q->out_zero + ref_requant32(sa + sb, q->out_mult, q->out_shift), dt, -1e9);
}

/* Output element (b, y, x, c) of a windowed op or fc, gathered directly. */
static double naive_window(const struct dk_params *p, enum op op, enum dt dt,
			   const struct tensors *t, int b, int y, int x, int c)
{
	const struct dk_quant *q = &p->q;
	double zin = dt == F32 ? 0 : q->in_zero, zf = dt == F32 ? 0 : q->filter_zero;
	double acc = is_pool(op) ? 0 : get_bias(t->bias, c, dt), max = -INFINITY;
	int count = 0;

	if (op == FC) {
		size_t k = (size_t)p->in_h * p->in_w * p->in_c;
		for (size_t d = 0; d < k; d++)
			acc += (get(t->in, b * k + d, dt, 0) - zin) * (get(t->filter, c * k + d, dt, 1) - zf);
		return finish_acc(p, dt, acc, c);
	}
	int ic_lo = op == CONV ? 0 : op == DWCONV ? c / p->mult : c;
	int ic_hi = op == CONV ? p->in_c : ic_lo + 1;
	for (int fy = 0; fy < p->k_h; fy++)
		for (int fx = 0; fx < p->k_w; fx++)
			for (int ic = ic_lo; ic < ic_hi; ic++) {
				int iy = y * p->stride_h - p->pad_top + fy * p->dil_h;
				int ix = x * p->stride_w - p->pad_left + fx * p->dil_w;
				if (iy < 0 || ix < 0 || iy >= p->in_h || ix >= p->in_w)
					continue;
				double v = get(t->in, (((size_t)b * p->in_h + iy) * p->in_w + ix) * p->in_c + ic, dt, 0);
				size_t f = op == CONV ? (((size_t)c * p->k_h + fy) * p->k_w + fx) * p->in_c + ic :
						       ((size_t)fy * p->k_w + fx) * p->out_c + c;
				if (is_pool(op)) {
					max = fmax(max, v);
					acc += v;
					count++;
				} else {
					acc += (v - zin) * (get(t->filter, f, dt, 1) - zf);
				}
			}
	if (!is_pool(op))
		return finish_acc(p, dt, acc, c);
	if (dt == F32)
		return op == MAXPOOL ? max : (double)((float)acc / count);
	return clamp_q(q, op == MAXPOOL ? max : (double)llround(acc / count), dt, -1e9);
}

static void check_against_naive(enum op op, enum dt dt, const struct geo *g, int with_bias)
{
	struct dk_params p = make_params(g, op, dt);
	struct tensors t;

	alloc_tensors(&t, &p, op, dt, with_bias, 1234u + (unsigned)(g - geos) * 7 + op);
	ck_assert_int_eq(run(op, dt, &p, &t, t.out, NULL), 0);
	size_t e = 0;
	for (int c = 0; c < p.out_c; c++)
		for (int b = 0; b < p.batch; b++)
			for (int y = 0; y < p.out_h; y++)
				for (int x = 0; x < p.out_w; x++, e++) {
					size_t idx = (((size_t)b * p.out_h + y) * p.out_w + x) * p.out_c + c;
					double want = op >= RELU ? naive_elem(&p, op, dt, &t, idx) :
						      naive_window(&p, op, dt, &t, b, y, x, c);
					double got = get(t.out, idx, dt, 0);
					double tol = dt == F32 ? 1e-4 * (1 + fabs(want)) : 0;
					ck_assert_msg(fabs(got - want) <= tol,
						      "op %d dt %d geo %d bias %d: out[%zu] = %g, naive %g",
						      op, dt, (int)(g - geos), with_bias, idx, got, want);
				}
	ck_assert_uint_eq(e, n_out(&p));
	free_tensors(&t);
}

START_TEST(matches_naive)
{
	enum op op = (enum op)(_i / DT_COUNT);
	enum dt dt = (enum dt)(_i % DT_COUNT);

	for (size_t g = 0; g < N_GEOS; g++)
		for (int bias = 0; bias < 2; bias++)
			check_against_naive(op, dt, &geos[g], bias);
}
END_TEST

struct job {
	enum op op;
	enum dt dt;
	const struct dk_params *p;
	const struct tensors *t;
	void *out;
	struct dk_thread th;
	int rc;
};

static void *thread_main(void *arg)
{
	struct job *j = arg;

	j->rc = run(j->op, j->dt, j->p, j->t, j->out, &j->th);
	return NULL;
}

START_TEST(threaded_split_identical)
{
	enum op op = (enum op)(_i / DT_COUNT);
	enum dt dt = (enum dt)(_i % DT_COUNT);

	for (size_t g = 0; g < N_GEOS; g++) {
		struct dk_params p = make_params(&geos[g], op, dt);
		struct tensors t;
		size_t bytes = n_out(&p) * dt_size[dt];
		alloc_tensors(&t, &p, op, dt, 1, 99u + (unsigned)g);
		ck_assert_int_eq(run(op, dt, &p, &t, t.out, NULL), 0);
		void *split = malloc(bytes);
		for (int interleave = 0; interleave < 2; interleave++) {
			struct job jobs[3];
			pthread_t tid[3];
			memset(split, 0xa5, bytes);
			for (int i = 0; i < 3; i++) {
				jobs[i] = (struct job){ op, dt, &p, &t, split, { i, 3, interleave }, -1 };
				ck_assert_int_eq(pthread_create(&tid[i], NULL, thread_main, &jobs[i]), 0);
			}
			for (int i = 0; i < 3; i++) {
				pthread_join(tid[i], NULL);
				ck_assert_int_eq(jobs[i].rc, 0);
			}
			ck_assert_msg(memcmp(split, t.out, bytes) == 0,
				      "op %d dt %d geo %zu interleave %d differs", op, dt, g, interleave);
		}
		free(split);
		free_tensors(&t);
	}
}
END_TEST

/* A thread's share is exactly its elements: contiguous thirds or e % 3. */
START_TEST(thread_share_bounds)
{
	struct dk_params p = make_params(&geos[0], RELU, F32);
	size_t n = n_in(&p);
	float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);

	for (size_t i = 0; i < n; i++)
		in[i] = 1.0f;
	for (int interleave = 0; interleave < 2; interleave++) {
		memset(out, 0, n * sizeof *out);
		struct dk_thread th = { 1, 3, interleave };
		ck_assert_int_eq(dk_relu_f32(&p, in, out, &th), 0);
		for (size_t e = 0; e < n; e++) {
			int mine = interleave ? e % 3 == 1 : e >= n / 3 && e < 2 * n / 3;
			ck_assert_msg(out[e] == (mine ? 1.0f : 0.0f), "interleave %d e %zu", interleave, e);
		}
	}
	ck_assert_int_eq(dk_relu_f32(&p, in, out, &(struct dk_thread){ 3, 3, 0 }), -1);
	ck_assert_int_eq(dk_relu_f32(&p, in, out, &(struct dk_thread){ 0, 0, 1 }), -1);
	ck_assert_int_eq(dk_relu_f32(&p, NULL, out, NULL), -1);
	p.in_c = 0;
	ck_assert_int_eq(dk_relu_f32(&p, in, out, NULL), -1);
	free(in);
	free(out);
}
END_TEST

START_TEST(rejects_bad_geometry)
{
	struct dk_params p = make_params(&geos[1], DWCONV, F32);
	struct tensors t;

	alloc_tensors(&t, &p, DWCONV, F32, 0, 5);
	p.out_c++;
	ck_assert_int_eq(dk_dwconv2d_f32(&p, t.in, t.filter, NULL, t.out, NULL), -1);
	p.out_c--;
	p.stride_w = 0;
	ck_assert_int_eq(dk_dwconv2d_f32(&p, t.in, t.filter, NULL, t.out, NULL), -1);
	ck_assert_int_eq(dk_maxpool_f32(&p, t.in, t.out, NULL), -1);
	free_tensors(&t);
}
END_TEST

START_TEST(quantize_multiplier)
{
	int32_t m;
	int s;

	dk_quantize_multiplier(0.5, &m, &s);
	ck_assert_int_eq(m, 1 << 30);
	ck_assert_int_eq(s, 0);
	dk_quantize_multiplier(3.0, &m, &s);
	ck_assert_int_eq(m, 3 << 29);
	ck_assert_int_eq(s, 2);
	dk_quantize_multiplier(0.0, &m, &s);
	ck_assert_int_eq(m, 0);
}
END_TEST

/* The row and layout kernels split over two threads write what one
 * thread writes: softmax and mean by rows and channels, pad and transpose
 * by output element. */
enum { SPLIT_SOFTMAX, SPLIT_MEAN, SPLIT_PAD, SPLIT_TRANSPOSE, SPLIT_COUNT };

static int run_split_kernel(int kernel, const float *in, float *out, const struct dk_thread *t)
{
	static const struct dk_shape shape = { 3, { 3, 4, 5 } };
	static const int before[3] = { 1, 0, 2 }, after[3] = { 0, 2, 1 }, perm[3] = { 2, 0, 1 };
	const float zero = 0;
	struct dk_params p = { .batch = 1, .in_h = 3, .in_w = 4, .in_c = 5, .beta = 1.5f };

	switch (kernel) {
	case SPLIT_SOFTMAX:
		return dk_softmax_f32(&p, in, out, t);
	case SPLIT_MEAN:
		return dk_mean_f32(&p, in, out, t);
	case SPLIT_PAD:
		return dk_pad(&shape, before, after, sizeof(float), &zero, in, out, t);
	default:
		return dk_transpose(&shape, perm, sizeof(float), in, out, t);
	}
}

START_TEST(rows_and_layout_split_identical)
{
	float in[60], one[4 * 6 * 8], two[4 * 6 * 8]; /* pad's output is the largest */
	unsigned seed = 7;

	for (size_t i = 0; i < 60; i++)
		in[i] = (float)(rand_r(&seed) % 200 - 100) / 25.0f;
	memset(one, 0x5a, sizeof one);
	memset(two, 0x5a, sizeof two);
	ck_assert_int_eq(run_split_kernel(_i, in, one, NULL), 0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(run_split_kernel(_i, in, two, &(struct dk_thread){ i, 2, 0 }), 0);
	ck_assert_msg(memcmp(one, two, sizeof one) == 0, "kernel %d: two threads differ from one", _i);
}
END_TEST

/* Missing buffers are refused, as every kernel refuses them. */
START_TEST(rows_and_layout_refuse_null)
{
	struct dk_params p = { .batch = 1, .in_h = 2, .in_w = 2, .in_c = 3, .beta = 1 };
	float f[12];
	int8_t q[12];

	ck_assert_int_eq(dk_softmax_f32(&p, NULL, f, NULL), -1);
	ck_assert_int_eq(dk_softmax_i8(&p, NULL, q, NULL), -1);
	ck_assert_int_eq(dk_mean_f32(&p, NULL, f, NULL), -1);
	ck_assert_int_eq(dk_mean_i8(&p, NULL, q, NULL), -1);
	ck_assert_int_eq(dk_reshape(NULL, f, sizeof f, NULL), -1);
	p.out_c = 3;
	ck_assert_int_eq(dk_fc_f32(&p, f, NULL, NULL, f, NULL), -1);
}
END_TEST

/* beta * in_scale * 2^26 above 2^31 - 1 is capped there (TFLite's
 * PreprocessSoftmaxScaling): 64 (2^32) and 1000 give the multiplier of
 * 2^31 - 1 itself. */
START_TEST(softmax_scale_capped)
{
	struct dk_quant a = { 0 }, b = { 0 };
	int32_t mult;
	int shift;

	dk_softmax_quant(64.0f, 1.0f, &a);
	dk_softmax_quant(1000.0f, 1.0f, &b);
	dk_quantize_multiplier(2147483647.0, &mult, &shift);
	ck_assert_int_eq(a.in_mult, mult);
	ck_assert_int_eq(a.in_shift, shift);
	ck_assert_int_eq(b.in_mult, mult);
	ck_assert_int_eq(b.in_shift, shift);
	ck_assert_int_eq(a.diff_min, b.diff_min);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("kernels");
	TCase *tc = tcase_create("kernels");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, matches_naive, 0, OP_COUNT * DT_COUNT);
	tcase_add_loop_test(tc, threaded_split_identical, 0, OP_COUNT * DT_COUNT);
	tcase_add_test(tc, thread_share_bounds);
	tcase_add_test(tc, rejects_bad_geometry);
	tcase_add_test(tc, quantize_multiplier);
	tcase_add_loop_test(tc, rows_and_layout_split_identical, 0, SPLIT_COUNT);
	tcase_add_test(tc, rows_and_layout_refuse_null);
	tcase_add_test(tc, softmax_scale_capped);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
