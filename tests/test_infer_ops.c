/* test_infer_ops.c - Check tests of libdmo-infer one step at a time, for
 * what test_infer.c's model does not hold:
 * - mul, relu, relu6, logistic, max pool, mean, concatenation, quantize and
 *   dequantize, in int8 and float32, with fused activations, each against
 *   values derived here (by hand, or in double and quantised with explicit
 *   rounding: within one unit, as TFLite's double rounding may cost one);
 * - every refusal of dmo_net_check, each with its step and reason (the
 *   kernels would refuse none of the nets it passes, but for a batch of 0,
 *   which no model file can hold), and the misuse of dmo_net_run and
 *   dmo_net_run_step. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "infer.h"

enum { MAX_T = 6 };
static struct dmo_net_tensor t[MAX_T];
static struct dmo_net_step s;
static struct dmo_net net;
static unsigned char *arena;
static uint64_t off[MAX_T];
static char err[512];

/* One step, S, over tensors T[0..MAX_T); unused tensors are float scalars. */
static void reset(enum dmo_net_op op, int n_inputs, int output)
{
	free(arena);
	arena = NULL;
	memset(t, 0, sizeof t);
	for (int i = 0; i < MAX_T; i++)
		t[i].name = "x";
	s = (struct dmo_net_step){ .name = "s", .op = op, .n_inputs = n_inputs, .output = output,
				   .inputs = { 0, 1, 2, 3, 4, 5, 6, 7 } };
	net = (struct dmo_net){ MAX_T, t, 1, &s, 0 };
}

static void shape(int i, enum dmo_net_dtype dtype, int rank, const int *dims)
{
	t[i].dtype = dtype;
	t[i].rank = rank;
	memcpy(t[i].dims, dims, sizeof(int) * (size_t)rank);
}

/* Per-tensor quantisation; the pointers must outlive the test. */
static void quant(int i, const float *scale, const int64_t *zero)
{
	t[i].n_quant = 1;
	t[i].scale = scale;
	t[i].zero_point = zero;
}

/* Check the net, lay every activation tensor apart, copy IN[i] (bytes of
 * tensor i, NULL: none) there and run; returns tensor OUT's bytes. */
static const void *run(const void *const *in)
{
	uint64_t end = 0;
	ck_assert_msg(dmo_net_check(&net, err, sizeof err) == 0, "%s", err);
	for (int i = 0; i < MAX_T; i++) {
		off[i] = end;
		end += t[i].data ? 0 : dmo_net_tensor_bytes(&net, i);
	}
	arena = malloc(end);
	memset(arena, 0xa5, end);
	for (int i = 0; i < MAX_T; i++)
		if (in[i] && !t[i].data)
			memcpy(arena + off[i], in[i], dmo_net_tensor_bytes(&net, i));
	ck_assert_msg(dmo_net_run(&net, arena, off, err, sizeof err) == 0, "%s", err);
	return arena + off[s.output];
}

static void refused(const char *why)
{
	ck_assert_int_eq(dmo_net_check(&net, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, "step 0 's' (", 12) == 0, "no step named: %s", err);
	ck_assert_msg(strstr(err, why) != NULL, "'%s' does not say '%s'", err, why);
}

/* Passes dmo_net_check, but the kernel refuses its parameters (a batch of
 * 0: only a net built in code can have one). */
static void refused_by_kernel(void)
{
	uint64_t apart[MAX_T] = { 0, 64, 128, 192, 256, 320 };
	unsigned char space[384] = { 0 };

	ck_assert_msg(dmo_net_check(&net, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(dmo_net_run(&net, space, apart, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "the kernel rejected its parameters") != NULL, "%s", err);
}

static double quantized(double real, double scale, double zero)
{
	return fmin(fmax(round(real / scale) + zero, -128), 127);
}

static void expect_i8_near(const void *got, const double *want, int n)
{
	for (int i = 0; i < n; i++)
		ck_assert_msg(fabs(((const int8_t *)got)[i] - want[i]) <= 1, "[%d] = %d, derived %g", i,
			      ((const int8_t *)got)[i], want[i]);
}

static void expect_f32(const void *got, const float *want, int n, float tolerance)
{
	for (int i = 0; i < n; i++) {
		float v;
		memcpy(&v, (const char *)got + 4 * i, 4);
		ck_assert_msg(fabsf(v - want[i]) <= tolerance, "[%d] = %g, derived %g", i, v, want[i]);
	}
}

static const int v4[] = { 4 };

/* OP from N int8 values IN (scale SI, zero ZI) to N int8 values (SO, ZO):
 * the output's bytes. */
static const void *run_i8(enum dmo_net_op op, const int8_t *in, int n, const float *si,
			  const int64_t *zi, const float *so, const int64_t *zo)
{
	reset(op, 1, 1);
	shape(0, DMO_NET_I8, 1, (int[]){ n });
	shape(1, DMO_NET_I8, 1, (int[]){ n });
	quant(0, si, zi);
	quant(1, so, zo);
	return run((const void *[MAX_T]){ in });
}

START_TEST(mul_int8_relu)
{
	static const float sa = 0.5f, sb = 0.25f, so = 0.1f;
	static const int64_t za = 0, zb = 1, zo = -2;
	const int8_t a[4] = { -10, 0, 7, 20 }, b[4] = { 4, 5, 13, -3 };
	double want[4];

	reset(DMO_NET_MUL, 2, 2);
	for (int i = 0; i < 3; i++)
		shape(i, DMO_NET_I8, 1, v4);
	quant(0, &sa, &za);
	quant(1, &sb, &zb);
	quant(2, &so, &zo);
	s.act = DMO_NET_ACT_RELU;
	const void *out = run((const void *[MAX_T]){ a, b });
	/* relu clamps below at real 0, i.e. at the zero point -2. */
	for (int i = 0; i < 4; i++)
		want[i] = quantized(fmax(sa * (a[i] - za) * sb * (b[i] - zb), 0), so, zo);
	expect_i8_near(out, want, 4);
}
END_TEST

START_TEST(mul_f32_relu_n1_to_1)
{
	const float a[4] = { -2, 0.5f, 3, 0.25f }, b[4] = { 1, 0.5f, 1, -2 };
	/* products -2, 0.25, 3, -0.5, clamped to [-1, 1] */
	const float want[4] = { -1, 0.25f, 1, -0.5f };

	reset(DMO_NET_MUL, 2, 2);
	for (int i = 0; i < 3; i++)
		shape(i, DMO_NET_F32, 1, v4);
	s.act = DMO_NET_ACT_RELU_N1_TO_1;
	expect_f32(run((const void *[MAX_T]){ a, b }), want, 4, 0);
}
END_TEST

/* _i: 0 relu, 1 relu6, int8 with a rescale from 0.1 (zero 3) to 0.05
 * (zero -10): reals -5.3 -0.3 0 4.7 9.7. */
START_TEST(relu_int8)
{
	static const float si = 0.1f, so = 0.05f;
	static const int64_t zi = 3, zo = -10;
	const int8_t in[5] = { -50, 0, 3, 50, 100 };
	double want[5];

	const void *out = run_i8(_i ? DMO_NET_RELU6 : DMO_NET_RELU, in, 5, &si, &zi, &so, &zo);
	for (int i = 0; i < 5; i++)
		want[i] = quantized(fmin(fmax(si * (in[i] - zi), 0), _i ? 6 : INFINITY), so, zo);
	expect_i8_near(out, want, 5);
}
END_TEST

START_TEST(relu6_f32)
{
	const float in[4] = { -1, 2, 7, 6 }, want[4] = { 0, 2, 6, 6 };

	reset(DMO_NET_RELU6, 1, 1);
	shape(0, DMO_NET_F32, 1, v4);
	shape(1, DMO_NET_F32, 1, v4);
	expect_f32(run((const void *[MAX_T]){ in }), want, 4, 0);
}
END_TEST

START_TEST(logistic)
{
	static const float si = 0.1f, so = 1.0f / 256;
	static const int64_t zi = 0, zo = -128;
	const int8_t in[5] = { -80, -10, 0, 10, 80 };
	const float fin[4] = { -1, 0, 2, -20 };
	float fwant[4];
	double want[5];

	const void *out = run_i8(DMO_NET_LOGISTIC, in, 5, &si, &zi, &so, &zo);
	for (int i = 0; i < 5; i++)
		want[i] = quantized(1 / (1 + exp(-si * in[i])), so, zo);
	expect_i8_near(out, want, 5);

	reset(DMO_NET_LOGISTIC, 1, 1);
	shape(0, DMO_NET_F32, 1, v4);
	shape(1, DMO_NET_F32, 1, v4);
	for (int i = 0; i < 4; i++)
		fwant[i] = (float)(1 / (1 + exp(-fin[i])));
	expect_f32(run((const void *[MAX_T]){ fin }), fwant, 4, 1e-6f);
}
END_TEST

static const float one = 1.0f;
static const int64_t zero;

/* int8 max pool, 2x2 windows with stride 2, of a 1x2xWx1 image (scale 1,
 * zero 0) into 1x1x(W/2)x1. */
static void pool_2x2(int w)
{
	reset(DMO_NET_MAXPOOL, 1, 1);
	shape(0, DMO_NET_I8, 4, (int[]){ 1, 2, w, 1 });
	shape(1, DMO_NET_I8, 4, (int[]){ 1, 1, w / 2, 1 });
	quant(0, &one, &zero);
	quant(1, &one, &zero);
	s.stride_h = s.stride_w = s.filter_h = s.filter_w = 2;
}

/* 2x2 windows, stride 2, on a 2x4 int8 image: the maxima 5 and -1, and
 * relu (real 0 = zero point 0) lifts -1 to 0. */
START_TEST(maxpool_int8_relu)
{
	const int8_t in[8] = { 1, 5, -3, -7, 2, 0, -8, -1 };

	pool_2x2(4);
	s.act = DMO_NET_ACT_RELU;
	const int8_t *out = run((const void *[MAX_T]){ in });
	ck_assert_int_eq(out[0], 5);
	ck_assert_int_eq(out[1], 0);
}
END_TEST

/* Mean over height and width of a 1x2x2x2 NHWC tensor: channel 0 holds
 * 1 3 5 7 (mean 4), channel 1 holds 2 4 6 8 (mean 5). */
static const int32_t hw_axes[2] = { 2, 1 };
START_TEST(mean)
{
	const float fin[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, fwant[2] = { 4, 5 };
	static const float si = 0.5f, so = 0.25f;
	static const int64_t zi = 1, zo = -3;
	const int8_t in[8] = { 1, 2, 5, 3, 9, -4, 14, 0 };
	double want[2];

	for (int i8 = 0; i8 < 2; i8++) {
		reset(DMO_NET_MEAN, 2, 2);
		shape(0, i8 ? DMO_NET_I8 : DMO_NET_F32, 4, (int[]){ 1, 2, 2, 2 });
		shape(1, DMO_NET_I32, 1, (int[]){ 2 });
		t[1].data = hw_axes;
		shape(2, i8 ? DMO_NET_I8 : DMO_NET_F32, 4, (int[]){ 1, 1, 1, 2 });
		if (!i8) {
			expect_f32(run((const void *[MAX_T]){ fin }), fwant, 2, 0);
			continue;
		}
		quant(0, &si, &zi);
		quant(2, &so, &zo);
		const void *out = run((const void *[MAX_T]){ in });
		for (int c = 0; c < 2; c++)
			want[c] = quantized(si * ((in[c] + in[2 + c] + in[4 + c] + in[6 + c]) / 4.0 - zi),
					    so, zo);
		expect_i8_near(out, want, 2);
	}
}
END_TEST

START_TEST(concat_last_axis)
{
	const float a[2] = { 1, 2 }, b[3] = { 3, 4, 5 }, want[5] = { 1, 2, 3, 4, 5 };

	reset(DMO_NET_CONCAT, 2, 2);
	shape(0, DMO_NET_F32, 2, (int[]){ 1, 2 });
	shape(1, DMO_NET_F32, 2, (int[]){ 1, 3 });
	shape(2, DMO_NET_F32, 2, (int[]){ 1, 5 });
	s.axis = -1;
	expect_f32(run((const void *[MAX_T]){ a, b }), want, 5, 0);
}
END_TEST

START_TEST(quantize_dequantize)
{
	static const float half = 0.5f, quarter = 0.25f;
	static const int64_t z10 = 10, z0 = 0, z5 = 5, zm3 = -3;
	/* float to int8, scale 0.5, zero 10: round(x / 0.5) + 10, 210 saturating */
	const float f[4] = { -1.2f, 0, 3.3f, 100 };
	reset(DMO_NET_QUANTIZE, 1, 1);
	shape(0, DMO_NET_F32, 1, v4);
	shape(1, DMO_NET_I8, 1, v4);
	quant(1, &half, &z10);
	const int8_t *q = run((const void *[MAX_T]){ f });
	ck_assert(q[0] == 8 && q[1] == 10 && q[2] == 17 && q[3] == 127);

	/* int8 0.5/0 to int8 0.25/5: reals -5 0 3.5 30 -> q * 2 + 5 */
	const int8_t i[4] = { -10, 0, 7, 60 };
	double want[4] = { -15, 5, 19, 125 };
	expect_i8_near(run_i8(DMO_NET_QUANTIZE, i, 4, &half, &z0, &quarter, &z5), want, 4);

	/* int8 0.5/-3 to float: 0.5 * (q + 3) */
	const int8_t d[4] = { -3, 0, 10, -128 };
	const float real[4] = { 0, 1.5f, 6.5f, -62.5f };
	reset(DMO_NET_DEQUANTIZE, 1, 1);
	shape(0, DMO_NET_I8, 1, v4);
	shape(1, DMO_NET_F32, 1, v4);
	quant(0, &half, &zm3);
	expect_f32(run((const void *[MAX_T]){ d }), real, 4, 0);
}
END_TEST

/* conv2d 1x2x2x1 -> 1x2x2x1 with a 1x1 filter (tensor 1) and no bias
 * (tensor 3 when given): the base for the conv refusals. */
static const float ones[4] = { 1, 1, 1, 1 };
static const int64_t zeros2[2] = { 0, 3 };
static void conv_1x1(enum dmo_net_dtype dtype)
{
	reset(DMO_NET_CONV2D, 2, 2);
	s.inputs[2] = 3;
	shape(0, dtype, 4, (int[]){ 1, 2, 2, 1 });
	shape(1, dtype, 4, (int[]){ 1, 1, 1, 1 });
	t[1].data = ones;
	shape(2, dtype, 4, (int[]){ 1, 2, 2, 1 });
	s.stride_h = s.stride_w = 1;
	if (dtype == DMO_NET_I8)
		for (int i = 0; i < 3; i++)
			quant(i, &one, &zero);
}

static void unary(enum dmo_net_op op, enum dmo_net_dtype in, enum dmo_net_dtype out)
{
	reset(op, 1, 1);
	shape(0, in, 1, v4);
	shape(1, out, 1, v4);
}

static const int32_t pads_1d[2] = { 1, 0 }, perm_2d[2] = { 1, 0 }, perm_twice[2] = { 0, 0 };

START_TEST(windowed_refusals)
{
	conv_1x1(DMO_NET_I8);
	s.act = (enum dmo_net_act)7;
	refused("fused activation 7 is not supported");
	conv_1x1(DMO_NET_I8);
	t[0].n_quant = 0;
	refused("input tensor 'x' is int8 but has no quantisation");
	conv_1x1(DMO_NET_I8);
	shape(1, DMO_NET_I8, 4, (int[]){ 2, 1, 1, 1 });
	shape(2, DMO_NET_I8, 4, (int[]){ 1, 2, 2, 2 });
	t[1].n_quant = 2;
	t[1].scale = ones;
	t[1].zero_point = zeros2;
	refused("per-channel filter zero points differ");
	conv_1x1(DMO_NET_F32);
	s.n_inputs = 1;
	refused("missing operand");
	conv_1x1(DMO_NET_F32);
	t[0].rank = 3;
	refused("expects 4-D NHWC tensors");
	conv_1x1(DMO_NET_F32);
	s.stride_w = 0;
	refused("stride and filter size must be positive");
	conv_1x1(DMO_NET_F32);
	t[2].dims[0] = 2;
	refused("batch changes");
	conv_1x1(DMO_NET_F32);
	t[1].dims[3] = 2;
	refused("filter 1x1x1x2 does not match 1 -> 1 channels");
	conv_1x1(DMO_NET_F32);
	shape(3, DMO_NET_I32, 1, (int[]){ 1 });
	t[3].data = ones;
	s.n_inputs = 3;
	refused("bias must be float32");
	conv_1x1(DMO_NET_F32);
	shape(3, DMO_NET_F32, 1, (int[]){ 2 });
	t[3].data = ones;
	s.n_inputs = 3;
	refused("bias has 2 elements for 1 channels");
	/* batch 0 passes the shape checks (a model file cannot say 0: its
	 * reader refuses the dimension), but not the kernel's own. */
	conv_1x1(DMO_NET_F32);
	t[0].dims[0] = t[2].dims[0] = 0;
	refused_by_kernel();

	reset(DMO_NET_FC, 2, 2);
	shape(0, DMO_NET_F32, 2, (int[]){ 1, 6 });
	shape(1, DMO_NET_F32, 2, (int[]){ 2, 4 });
	t[1].data = ones;
	shape(2, DMO_NET_F32, 2, (int[]){ 1, 2 });
	refused("filter shape does not divide the input");
	t[1].dims[1] = 3;
	refused("output has 2 elements, expected 4");

	pool_2x2(2);
	t[1].dims[3] = 2;
	refused("pooling changes the channel count");
	pool_2x2(2);
	t[1].n_quant = 0;
	refused("output tensor 'x' is int8 but has no quantisation");
	pool_2x2(2);
	t[1].zero_point = &zeros2[1];
	refused("input and output quantisation differ");
	/* Issue 28: a 2^31 x 2^31 window, SAME-padded over an 8x8x3 image:
	 * the kernel would take 2^62 steps per output element, and the window
	 * arithmetic overflowed int.  Refused at once. */
	reset(DMO_NET_MAXPOOL, 1, 1);
	shape(0, DMO_NET_F32, 4, (int[]){ 1, 8, 8, 3 });
	shape(1, DMO_NET_F32, 4, (int[]){ 1, 8, 8, 3 });
	s.padding_same = 1;
	s.stride_h = s.stride_w = 1;
	s.filter_h = s.filter_w = 2147483647;
	refused("window steps");
	/* The same window a little smaller: within int, still too many steps. */
	s.filter_h = s.filter_w = 1 << 20;
	refused("window steps");
}
END_TEST

START_TEST(elementwise_refusals)
{
	unary(DMO_NET_RELU, DMO_NET_F32, DMO_NET_I8);
	refused("tensors 'x' and 'x' differ in type");
	unary(DMO_NET_RELU, DMO_NET_I16, DMO_NET_I16);
	refused("element type 3 is not supported");
	unary(DMO_NET_ADD, DMO_NET_F32, DMO_NET_F32);
	refused("missing operand");
	unary(DMO_NET_RELU, DMO_NET_F32, DMO_NET_F32);
	t[1].dims[0] = 5;
	refused("operand shapes differ");
	unary(DMO_NET_RELU, DMO_NET_F32, DMO_NET_F32);
	t[0].dims[0] = t[1].dims[0] = 0;
	refused("tensor size out of range");
	unary(DMO_NET_RELU, DMO_NET_U8, DMO_NET_U8);
	refused("input tensor 'x' is uint8 but has no quantisation");
	unary(DMO_NET_SOFTMAX, DMO_NET_U8, DMO_NET_U8);
	quant(0, &one, &zero);
	quant(1, &one, &zero);
	refused("only int8 and float32 are supported");
	/* Issue 28: an in/out scale ratio of 2^40 needs a left shift of 41,
	 * which the kernel's int32 arithmetic cannot take (undefined). */
	static const float huge = 0x1p40f;
	unary(DMO_NET_RELU, DMO_NET_I8, DMO_NET_I8);
	quant(0, &huge, &zero);
	quant(1, &one, &zero);
	refused("requantisation factor 1.09951e+12 (the scales' ratio) is out of range");
	/* An input scale so small that the scaled differences would need a
	 * right shift (TFLite's softmax only shifts left). */
	static const float tiny = 1e-9f, prob = 1.0f / 256;
	static const int64_t zp = -128;
	unary(DMO_NET_SOFTMAX, DMO_NET_I8, DMO_NET_I8);
	quant(0, &tiny, &zero);
	quant(1, &prob, &zp);
	s.beta = 1;
	refused("input scale 1e-09 is too small for the int8 softmax");
}
END_TEST

START_TEST(layout_refusals)
{
	unary(DMO_NET_RESHAPE, DMO_NET_F32, DMO_NET_F32);
	s.inputs[0] = DMO_NET_ABSENT;
	refused("missing operand");
	unary(DMO_NET_RESHAPE, DMO_NET_F32, DMO_NET_I8);
	refused("input and output types differ");
	unary(DMO_NET_RESHAPE, DMO_NET_F32, DMO_NET_F32);
	t[0].rank = 0;
	refused("rank 0 is not supported");
	unary(DMO_NET_RESHAPE, DMO_NET_F32, DMO_NET_F32);
	t[1].dims[0] = 3;
	refused("element counts differ");

	unary(DMO_NET_PAD, DMO_NET_F32, DMO_NET_F32);
	s.n_inputs = 2;
	refused("paddings must be a constant int32 tensor of 2 values");
	shape(1, DMO_NET_I32, 1, (int[]){ 2 });
	t[1].data = pads_1d;
	shape(2, DMO_NET_F32, 1, (int[]){ 6 });
	s.output = 2;
	refused("paddings do not give the output shape");
	t[0].dtype = t[2].dtype = DMO_NET_I8;
	quant(0, &one, &zero);
	quant(2, &one, &zeros2[1]);
	refused("input and output quantisation differ");

	reset(DMO_NET_TRANSPOSE, 2, 2);
	shape(0, DMO_NET_F32, 2, (int[]){ 2, 3 });
	shape(2, DMO_NET_F32, 2, (int[]){ 2, 3 });
	refused("perm must be a constant int32 tensor of 2 values");
	shape(1, DMO_NET_I32, 1, (int[]){ 2 });
	t[1].data = perm_2d;
	refused("perm does not give the output shape");
	/* Square, so that every output dimension matches: the axis taken
	 * twice is refused by itself (the kernel would refuse it too). */
	t[0].dims[1] = t[2].dims[1] = 2;
	t[1].data = perm_twice;
	refused("perm takes axis 0 twice");

	reset(DMO_NET_MEAN, 1, 2);
	shape(0, DMO_NET_F32, 4, (int[]){ 1, 2, 2, 2 });
	shape(2, DMO_NET_F32, 4, (int[]){ 1, 1, 1, 2 });
	refused("missing axes");
	s.n_inputs = 2;
	refused("axes (height and width) must be a constant int32 tensor of 2 values");
	shape(1, DMO_NET_I32, 1, (int[]){ 2 });
	t[1].data = pads_1d;
	refused("only the mean over height and width of NHWC is supported");
	t[1].data = hw_axes;
	t[2].dims[3] = 3;
	refused("output shape");
	t[2].dims[3] = 2;
	t[0].dtype = t[2].dtype = DMO_NET_U8;
	refused("only int8 and float32 are supported");
	t[0].dtype = t[2].dtype = DMO_NET_I8;
	refused("input tensor 'x' is int8 but has no quantisation");

	reset(DMO_NET_CONCAT, 2, 2);
	shape(0, DMO_NET_F32, 2, (int[]){ 1, 2 });
	shape(1, DMO_NET_I8, 2, (int[]){ 1, 3 });
	shape(2, DMO_NET_F32, 2, (int[]){ 1, 5 });
	refused("input 1 differs from the output in type or quantisation");
	t[1].dtype = DMO_NET_F32;
	s.axis = 2;
	refused("axis 2 is outside rank 2");
	s.axis = 1;
	t[2].dims[1] = 6;
	refused("the inputs hold 5 elements, the output 6");
	/* 1x2 and 3x1 hold the 5 elements of the 1x5 output, but their first
	 * axes differ (the kernel would refuse them). */
	t[2].dims[1] = 5;
	t[1].dims[0] = 3;
	t[1].dims[1] = 1;
	refused("input 1 differs from input 0 beside axis 1");
}
END_TEST

START_TEST(convert_refusals)
{
	unary(DMO_NET_QUANTIZE, DMO_NET_F32, DMO_NET_I8);
	s.inputs[0] = 9;
	refused("missing operand");
	unary(DMO_NET_QUANTIZE, DMO_NET_F32, DMO_NET_I8);
	t[1].dims[0] = 3;
	refused("element counts differ");
	unary(DMO_NET_QUANTIZE, DMO_NET_F32, DMO_NET_U8);
	refused("has no quantisation");
	unary(DMO_NET_QUANTIZE, DMO_NET_F32, DMO_NET_I32);
	refused("conversion between these types is not supported");
	unary(DMO_NET_QUANTIZE, DMO_NET_I16, DMO_NET_I8);
	refused("conversion between these types is not supported");
	unary(DMO_NET_QUANTIZE, DMO_NET_I8, DMO_NET_I8);
	quant(1, &one, &zero);
	refused("input tensor 'x' is int8 but has no quantisation");
	unary(DMO_NET_DEQUANTIZE, DMO_NET_I8, DMO_NET_I32);
	quant(0, &one, &zero);
	refused("conversion between these types is not supported");
	/* A zero output scale would divide by zero. */
	static const float nothing = 0;
	unary(DMO_NET_QUANTIZE, DMO_NET_F32, DMO_NET_I8);
	quant(1, &nothing, &zero);
	refused("output scale 0 is not positive");
}
END_TEST

START_TEST(step_and_net_misuse)
{
	unsigned char space[64] = { 0 };
	uint64_t apart[MAX_T] = { 0 };
	char unknown[40];

	unary(DMO_NET_RELU, DMO_NET_F32, DMO_NET_F32);
	s.n_inputs = 0;
	refused("0 operands");
	unary(DMO_NET_RELU, DMO_NET_F32, DMO_NET_F32);
	s.n_inputs = DMO_NET_MAX_INPUTS + 1;
	refused("18 operands"); /* DMO_NET_MAX_INPUTS + 1 */
	unary(DMO_NET_RELU, DMO_NET_F32, DMO_NET_F32);
	s.output = MAX_T;
	refused("its output must be an activation tensor");
	unary(DMO_NET_OP_COUNT, DMO_NET_F32, DMO_NET_F32);
	snprintf(unknown, sizeof unknown, "unknown operator %d", (int)DMO_NET_OP_COUNT);
	refused(unknown);
	ck_assert_str_eq(dmo_net_op_name(DMO_NET_OP_COUNT), "?");

	unary(DMO_NET_RELU, DMO_NET_F32, DMO_NET_F32);
	ck_assert_int_eq(dmo_net_run(&net, NULL, apart, err, sizeof err), -1);
	ck_assert_str_eq(err, "no arena");
	ck_assert_int_eq(dmo_net_run_step(&net, 0, space, NULL, err, sizeof err), -1);
	ck_assert_str_eq(err, "no arena");
	ck_assert_int_eq(dmo_net_run_step(&net, 1, space, apart, err, sizeof err), -1);
	ck_assert_str_eq(err, "no step 1");
	apart[1] = 16;
	ck_assert_int_eq(dmo_net_run_step(&net, 0, space, apart, err, sizeof err), 0);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("infer_ops");
	TCase *tc = tcase_create("infer_ops");

	tcase_add_test(tc, mul_int8_relu);
	tcase_add_test(tc, mul_f32_relu_n1_to_1);
	tcase_add_loop_test(tc, relu_int8, 0, 2);
	tcase_add_test(tc, relu6_f32);
	tcase_add_test(tc, logistic);
	tcase_add_test(tc, maxpool_int8_relu);
	tcase_add_test(tc, mean);
	tcase_add_test(tc, concat_last_axis);
	tcase_add_test(tc, quantize_dequantize);
	tcase_add_test(tc, windowed_refusals);
	tcase_add_test(tc, elementwise_refusals);
	tcase_add_test(tc, layout_refusals);
	tcase_add_test(tc, convert_refusals);
	tcase_add_test(tc, step_and_net_misuse);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
