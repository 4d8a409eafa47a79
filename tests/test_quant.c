/* test_quant.c - Check tests of libdmokernels' TFLite arithmetic and of its
 * row, reduction and layout ops.  The fixed-point helpers are checked on
 * hand-worked cases (each with its derivation: ties, negative values,
 * saturation, TFLite's double rounding); softmax, logistic, mean and
 * quantize against a double-precision formula with explicit rounding, within
 * the one unit the fixed-point approximations may cost, plus exact
 * hand-worked rows; the layout ops against direct index formulas. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "dmokernels.h"

START_TEST(doubling_high_mul)
{
	/* round(a * b / 2^31), ties towards +infinity. */
	ck_assert_int_eq(dk_doubling_high_mul(1 << 30, 1 << 30), 1 << 29); /* 2^60 / 2^31 */
	ck_assert_int_eq(dk_doubling_high_mul(1, 1 << 30), 1);              /* 0.5 -> 1 */
	ck_assert_int_eq(dk_doubling_high_mul(-1, 1 << 30), 0);             /* -0.5 -> 0 */
	ck_assert_int_eq(dk_doubling_high_mul(3, 1 << 30), 2);              /* 1.5 -> 2 */
	ck_assert_int_eq(dk_doubling_high_mul(-3, 1 << 30), -1);            /* -1.5 -> -1 */
	ck_assert_int_eq(dk_doubling_high_mul(-1, (1 << 30) + 1), -1);      /* just below -0.5 */
	ck_assert_int_eq(dk_doubling_high_mul(1, (1 << 30) - 1), 0);        /* just below 0.5 */
	/* -2^31 * -2^31 / 2^31 = 2^31 does not fit: saturates. */
	ck_assert_int_eq(dk_doubling_high_mul(INT32_MIN, INT32_MIN), INT32_MAX);
	/* -2^31 * (2^31 - 1) / 2^31 = -(2^31 - 1), exact. */
	ck_assert_int_eq(dk_doubling_high_mul(INT32_MIN, INT32_MAX), -INT32_MAX);
	ck_assert_int_eq(dk_doubling_high_mul(INT32_MAX, INT32_MAX), INT32_MAX - 1);
}
END_TEST

START_TEST(rounding_divide_by_pot)
{
	/* x / 2^e, ties away from zero. */
	ck_assert_int_eq(dk_rounding_divide_by_pot(5, 1), 3);   /* 2.5 */
	ck_assert_int_eq(dk_rounding_divide_by_pot(-5, 1), -3); /* -2.5 */
	ck_assert_int_eq(dk_rounding_divide_by_pot(-4, 1), -2);
	ck_assert_int_eq(dk_rounding_divide_by_pot(7, 2), 2);   /* 1.75 */
	ck_assert_int_eq(dk_rounding_divide_by_pot(-7, 2), -2);
	ck_assert_int_eq(dk_rounding_divide_by_pot(6, 2), 2);   /* 1.5 */
	ck_assert_int_eq(dk_rounding_divide_by_pot(-6, 2), -2); /* -1.5 */
	ck_assert_int_eq(dk_rounding_divide_by_pot(5, 2), 1);   /* 1.25 */
	ck_assert_int_eq(dk_rounding_divide_by_pot(-5, 2), -1);
	ck_assert_int_eq(dk_rounding_divide_by_pot(-123, 0), -123);
	ck_assert_int_eq(dk_rounding_divide_by_pot(INT32_MIN, 31), -1);
	ck_assert_int_eq(dk_rounding_divide_by_pot(INT32_MAX, 31), 1);  /* 0.99999 */
	ck_assert_int_eq(dk_rounding_divide_by_pot(1 << 30, 31), 1);    /* 0.5 */
	ck_assert_int_eq(dk_rounding_divide_by_pot(-(1 << 30), 31), -1);
}
END_TEST

START_TEST(multiply_by_quantized_multiplier)
{
	const int32_t half = 1 << 30; /* 0.5 in Q31 */

	ck_assert_int_eq(dk_multiply_by_quantized_multiplier(100, half, 0), 50);
	/* 3 * 0.5 = 1.5: the high multiply's tie goes up; -1.5 goes to -1. */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier(3, half, 0), 2);
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier(-3, half, 0), -1);
	/* 5 * 0.25 = 1.25 exactly rounds to 1, but TFLite rounds twice:
	 * high_mul(5, 0.5) = 2.5 -> 3, then 3 / 2 = 1.5 -> 2. */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier(5, half, -1), 2);
	/* -5 * 0.25: -2.5 -> -2, then -2 / 2 = -1. */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier(-5, half, -1), -1);
	/* 1000 * 0.75 * 2^2 = 3000. */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier(1000, 3 << 29, 2), 3000);
	/* 2^30 << 2 saturates to 2^31 - 1 before the multiply:
	 * (2^31 - 1) * 0.5 = 2^30 - 0.5 -> 2^30. */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier(1 << 30, half, 2), 1 << 30);
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier(-(1 << 30), half, 2), -(1 << 30));
}
END_TEST

START_TEST(single_rounding)
{
	const int32_t half = 1 << 30;

	/* Rounded once: 5 * 0.25 = 1.25 -> 1 (twice it is 2, above). */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(5, half, -1), 1);
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(-5, half, -1), -1);
	/* Ties towards +infinity: 1.5 -> 2, -1.5 -> -1, -0.5 -> 0. */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(3, half, 0), 2);
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(-3, half, 0), -1);
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(-1, half, 0), 0);
	/* 2^30 * 0.5 * 2^2 = 2^31 saturates. */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(1 << 30, half, 2), INT32_MAX);
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(1000, 3 << 29, 2), 3000);
	/* A shift past 30 leaves nothing to round: x * 0.5 * 2^31 = x * 2^30
	 * exactly, saturated from x = 2 on; -2 * 2^30 is INT32_MIN itself. */
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(1, half, 31), 1 << 30);
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(-1, half, 31), -(1 << 30));
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(2, half, 31), INT32_MAX);
	ck_assert_int_eq(dk_multiply_by_quantized_multiplier_single(-2, half, 31), INT32_MIN);
}
END_TEST

/* An int8 fully connected layer in single-rounding mode: every output is
 * the accumulator times the exact factor, rounded once (half up). */
START_TEST(fc_single_rounding_exact)
{
	struct dk_params p = { .batch = 4, .in_h = 1, .in_w = 1, .in_c = 37, .out_h = 1, .out_w = 1,
			       .out_c = 50 };
	int8_t in[4 * 37], w[50 * 37], out[4 * 50];
	int32_t bias[50];
	unsigned seed = 9;

	for (int i = 0; i < 4 * 37; i++)
		in[i] = (int8_t)(rand_r(&seed) % 256 - 128);
	for (int i = 0; i < 50 * 37; i++)
		w[i] = (int8_t)(rand_r(&seed) % 256 - 128);
	for (int i = 0; i < 50; i++)
		bias[i] = rand_r(&seed) % 20001 - 10000;
	p.q = (struct dk_quant){ .in_zero = -7, .out_zero = 3, .act_min = -128, .act_max = 127,
				 .single_rounding = 1 };
	dk_quantize_multiplier(0.00071, &p.q.out_mult, &p.q.out_shift);
	ck_assert_int_eq(dk_fc_i8(&p, in, w, bias, out, NULL), 0);
	long double factor = p.q.out_mult * powl(2, p.q.out_shift - 31);
	for (int b = 0; b < 4; b++)
		for (int u = 0; u < 50; u++) {
			long long acc = bias[u];
			for (int d = 0; d < 37; d++)
				acc += (in[b * 37 + d] + 7) * w[u * 37 + d];
			long double want = floorl(acc * factor + 0.5L) + 3;
			want = want < -128 ? -128 : want > 127 ? 127 : want;
			ck_assert_msg(out[b * 50 + u] == want, "out[%d][%d] = %d, want %Lg", b, u,
				      out[b * 50 + u], want);
		}
}
END_TEST

/* An int8 fully connected layer whose sum leaves int32: 70000 taps of
 * (-128 - 127) x (-128 - 127) = 65025 (zero points at the type's limits,
 * which the readers accept) sum to 4551750000 > 2^31 - 1.  The
 * accumulation is saturated to int32 (it overflowed, undefined behaviour;
 * wrapped it would be 256782704).  By hand, with the factor 2^-25 (mult
 * 2^30, shift -24): (2^31 - 1) * 2^-25 = 63.99999997, rounded 64; the
 * wrapped sum gives 7.65, rounded 8.  The output zero point 0. */
START_TEST(fc_accumulator_saturates)
{
	enum { DEPTH = 70000 };
	struct dk_params p = { .batch = 1, .in_h = 1, .in_w = 1, .in_c = DEPTH, .out_h = 1,
			       .out_w = 1, .out_c = 1 };
	static int8_t in[DEPTH], w[DEPTH];
	int8_t out[1];

	memset(in, 0x80, sizeof in);
	memset(w, 0x80, sizeof w);
	p.q = (struct dk_quant){ .in_zero = 127, .filter_zero = 127, .act_min = -128,
				 .act_max = 127, .out_mult = 1 << 30, .out_shift = -24 };
	ck_assert_int_eq(dk_fc_i8(&p, in, w, NULL, out, NULL), 0);
	ck_assert_int_eq(out[0], 64);
	/* Factor 1 (mult 2^30, shift 1): the requantised value is 2^31 - 1,
	 * and the output zero point 127 on top of it overflowed int32:
	 * saturated, then clamped to 127. */
	p.q.out_zero = 127;
	p.q.out_shift = 1;
	ck_assert_int_eq(dk_fc_i8(&p, in, w, NULL, out, NULL), 0);
	ck_assert_int_eq(out[0], 127);
}
END_TEST

/* ONNX's requantisation (dk_quant.real_scales, ONNX Runtime's rule) on a
 * uint8 fc with one input 129 (zero point 128: 1) and six output channels
 * whose weights less their zero point 128 are 5, 9, -1, 3, 10, 100, so
 * the accumulators are those numbers; factors 0.5 (channels 0-3), 0.25
 * and 2 (per channel).  By hand: 2.5 -> 2, 4.5 -> 4, -0.5 -> 0, 1.5 -> 2
 * and 2.5 -> 2 (half to even; away from zero would give 3, 5, -1, 2, 3),
 * 200; plus the output zero point 100: 102, 104, 100, 102, 102, and 300
 * saturated to 255. */
START_TEST(onnx_requantisation_half_even)
{
	struct dk_params p = { .batch = 1, .in_h = 1, .in_w = 1, .in_c = 1, .out_h = 1, .out_w = 1,
			       .out_c = 6 };
	static const float factors[6] = { 0.5f, 0.5f, 0.5f, 0.5f, 0.25f, 2.0f };
	const uint8_t in[1] = { 129 }, w[6] = { 133, 137, 127, 131, 138, 228 };
	const uint8_t want[6] = { 102, 104, 100, 102, 102, 255 };
	uint8_t out[6];

	p.q = (struct dk_quant){ .in_zero = 128, .filter_zero = 128, .out_zero = 100, .act_min = 0,
				 .act_max = 255, .real_scales = factors, .real_per_channel = 1 };
	ck_assert_int_eq(dk_fc_u8(&p, in, w, NULL, out, NULL), 0);
	for (int c = 0; c < 6; c++)
		ck_assert_msg(out[c] == want[c], "channel %d: %d, want %d", c, out[c], want[c]);
	/* One factor for all channels (real_per_channel 0): 0.5 everywhere,
	 * so channel 4 gives 5 -> 105 and channel 5 50 -> 150. */
	p.q.real_per_channel = 0;
	ck_assert_int_eq(dk_fc_u8(&p, in, w, NULL, out, NULL), 0);
	ck_assert_int_eq(out[4], 105);
	ck_assert_int_eq(out[5], 150);
}
END_TEST

START_TEST(quantize_multiplier_derivation)
{
	int32_t m;
	int s;

	/* 1.0 = 0.5 * 2^1. */
	dk_quantize_multiplier(1.0, &m, &s);
	ck_assert_int_eq(m, 1 << 30);
	ck_assert_int_eq(s, 1);
	/* 0.1 = 0.8 * 2^-3; 0.8 * 2^31 = 1717986918.4 -> 1717986918. */
	dk_quantize_multiplier(0.1, &m, &s);
	ck_assert_int_eq(m, 1717986918);
	ck_assert_int_eq(s, -3);
	/* 1 - 2^-40: the fraction rounds to 2^31, which becomes 2^30 * 2^1. */
	dk_quantize_multiplier(1.0 - ldexp(1, -40), &m, &s);
	ck_assert_int_eq(m, 1 << 30);
	ck_assert_int_eq(s, 1);
	/* 2^-40 = 0.5 * 2^-39: a shift below -31 flushes to zero. */
	dk_quantize_multiplier(ldexp(1, -40), &m, &s);
	ck_assert_int_eq(m, 0);
	ck_assert_int_eq(s, 0);
}
END_TEST

START_TEST(add_and_activation_params)
{
	struct dk_quant q = { 0 };

	/* Scales 0.5 and 0.25 to 1.0: twice the larger is 1.0, input factors
	 * 0.5 (2^30, 0) and 0.25 (2^30, -1), output 1 / 2^20 (2^30, -19). */
	dk_add_quant(0.5f, 0.25f, 1.0f, 20, &q);
	ck_assert_int_eq(q.left_shift, 20);
	ck_assert_int_eq(q.in_mult, 1 << 30);
	ck_assert_int_eq(q.in_shift, 0);
	ck_assert_int_eq(q.in2_mult, 1 << 30);
	ck_assert_int_eq(q.in2_shift, -1);
	ck_assert_int_eq(q.out_mult, 1 << 30);
	ck_assert_int_eq(q.out_shift, -19);

	/* relu6 at scale 0.05, zero -10: 6 / 0.05 = 120, so -10 .. 110. */
	ck_assert_int_eq(dk_activation_range(3, 0.05f, -10, -128, 127, &q), 0);
	ck_assert_int_eq(q.act_min, -10);
	ck_assert_int_eq(q.act_max, 110);
	/* relu_n1_to_1 at scale 0.3: 1 / 0.3 = 3.33 -> 3. */
	ck_assert_int_eq(dk_activation_range(2, 0.3f, 4, -128, 127, &q), 0);
	ck_assert_int_eq(q.act_min, 1);
	ck_assert_int_eq(q.act_max, 7);
	/* relu6 whose 6.0 is beyond the type: clamped to it. */
	ck_assert_int_eq(dk_activation_range(3, 0.01f, 0, -128, 127, &q), 0);
	ck_assert_int_eq(q.act_max, 127);
	ck_assert_int_eq(dk_activation_range(0, 0.01f, 0, -128, 127, &q), 0);
	ck_assert_int_eq(q.act_min, -128);
	ck_assert_int_eq(dk_activation_range(4, 0.01f, 0, -128, 127, &q), -1);
}
END_TEST

static struct dk_params row_params(int rows, int depth)
{
	return (struct dk_params){ .batch = 1, .in_h = rows, .in_w = 1, .in_c = depth,
				   .out_h = rows, .out_w = 1, .out_c = depth, .beta = 1.0f };
}

/* Exact rows: n equal values share 256 / n of the output range. */
START_TEST(softmax_i8_hand_rows)
{
	struct dk_params p = row_params(1, 4);
	int8_t in[4] = { 7, 7, 7, 7 }, out[4];

	dk_softmax_quant(1.0f, 0.1f, &p.q);
	ck_assert_int_eq(dk_softmax_i8(&p, in, out, NULL), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(out[i], 64 - 128); /* 0.25 * 256 */
	p = row_params(1, 2);
	dk_softmax_quant(1.0f, 0.1f, &p.q);
	ck_assert_int_eq(dk_softmax_i8(&p, in, out, NULL), 0);
	ck_assert_int_eq(out[0], 0); /* 0.5 * 256 - 128 */
	p = row_params(1, 1);
	dk_softmax_quant(1.0f, 0.1f, &p.q);
	ck_assert_int_eq(dk_softmax_i8(&p, in, out, NULL), 0);
	ck_assert_int_eq(out[0], 127); /* 256 - 128, clamped */
	/* One value 255 steps of 0.5 below the other: exp(-127.5) is far below
	 * diff_min's reach, so it is exactly the lowest output. */
	p = row_params(1, 2);
	dk_softmax_quant(1.0f, 0.5f, &p.q);
	in[0] = -128;
	in[1] = 127;
	ck_assert_int_eq(dk_softmax_i8(&p, in, out, NULL), 0);
	ck_assert_int_eq(out[0], -128);
	ck_assert_int_eq(out[1], 127);
}
END_TEST

/* Random rows against exp in double: out = round(256 * e_c / sum) - 128. */
START_TEST(softmax_i8_against_double)
{
	const float scales[] = { 0.0039f, 0.05f, 0.16f, 0.5f };
	unsigned seed = 11;
	int off_by_one = 0, total = 0;

	for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++) {
		for (int depth = 2; depth <= 40; depth += 7) {
			struct dk_params p = row_params(5, depth);
			int n = 5 * depth;
			int8_t in[5 * 40], out[5 * 40];
			for (int i = 0; i < n; i++)
				in[i] = (int8_t)(rand_r(&seed) % 256 - 128);
			dk_softmax_quant(1.0f, scales[si], &p.q);
			ck_assert_int_eq(dk_softmax_i8(&p, in, out, NULL), 0);
			for (int r = 0; r < 5; r++) {
				int max = -128;
				double sum = 0;
				for (int c = 0; c < depth; c++)
					max = in[r * depth + c] > max ? in[r * depth + c] : max;
				for (int c = 0; c < depth; c++)
					sum += exp(scales[si] * (in[r * depth + c] - max));
				for (int c = 0; c < depth; c++) {
					double want = round(256 * exp(scales[si] * (in[r * depth + c] - max)) / sum) - 128;
					want = fmin(fmax(want, -128), 127);
					int got = out[r * depth + c];
					ck_assert_msg(fabs(got - want) <= 1, "scale %g depth %d: %d vs %g",
						      scales[si], depth, got, want);
					off_by_one += got != want;
					total++;
				}
			}
		}
	}
	/* The fixed-point path is close: most outputs are exact. */
	ck_assert_msg(off_by_one * 10 < total, "%d of %d outputs off by one", off_by_one, total);
}
END_TEST

START_TEST(softmax_f32_rows)
{
	struct dk_params p = row_params(2, 3);
	float in[6] = { 1, 2, 3, -1, -1, -1 }, out[6];

	p.beta = 2.0f;
	ck_assert_int_eq(dk_softmax_f32(&p, in, out, NULL), 0);
	double s = exp(-4.0) + exp(-2.0) + 1;
	ck_assert_double_eq_tol(out[0], exp(-4.0) / s, 1e-6);
	ck_assert_double_eq_tol(out[2], 1 / s, 1e-6);
	ck_assert_double_eq_tol(out[4], 1 / 3.0, 1e-6);
}
END_TEST

START_TEST(logistic_i8_against_double)
{
	const float scales[] = { 0.02f, 0.0625f, 0.1f, 0.3f };
	int off_by_one = 0;

	for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++) {
		struct dk_params p = row_params(1, 256);
		int8_t in[256], out[256];
		for (int i = 0; i < 256; i++)
			in[i] = (int8_t)(i - 128);
		p.q.in_zero = 3;
		dk_logistic_quant(scales[si], &p.q);
		ck_assert_int_eq(dk_logistic_i8(&p, in, out, NULL), 0);
		for (int i = 0; i < 256; i++) {
			double x = scales[si] * (in[i] - 3);
			double want = fmin(fmax(round(256 / (1 + exp(-x))) - 128, -128), 127);
			ck_assert_msg(fabs(out[i] - want) <= 1, "scale %g in %d: %d vs %g",
				      scales[si], in[i], out[i], want);
			off_by_one += out[i] != want;
			if (in[i] == 3) /* logistic(0) = 0.5 exactly: 128 - 128 */
				ck_assert_int_eq(out[i], 0);
		}
	}
	ck_assert_msg(off_by_one < 40, "%d of 1024 outputs off by one", off_by_one);
}
END_TEST

START_TEST(mean_i8)
{
	/* 2 x 3 x 2 plane means per channel.  Equal scales: the requantisation
	 * is exact, the division rounds half away from zero. */
	struct dk_params p = { .batch = 2, .in_h = 2, .in_w = 3, .in_c = 2 };
	int8_t in[24], out[4];
	unsigned seed = 5;

	for (int i = 0; i < 24; i++)
		in[i] = (int8_t)(rand_r(&seed) % 256 - 128);
	in[0] = in[2] = in[4] = in[6] = in[8] = 1;
	in[10] = 4; /* batch 0, channel 0: sum of in - 1 is 3, 3 / 6 = 0.5 -> 1 */
	p.q.in_zero = 1;
	p.q.out_zero = -2;
	dk_quantize_multiplier(1.0, &p.q.out_mult, &p.q.out_shift);
	ck_assert_int_eq(dk_mean_i8(&p, in, out, NULL), 0);
	ck_assert_int_eq(out[0], 1 - 2);
	for (int b = 0; b < 2; b++)
		for (int c = 0; c < 2; c++) {
			int sum = 0;
			for (int i = 0; i < 6; i++)
				sum += in[(b * 6 + i) * 2 + c] - 1;
			ck_assert_int_eq(out[b * 2 + c], lround(sum / 6.0) - 2);
		}
	/* In scale twice the out scale: within one of the double formula. */
	dk_quantize_multiplier(2.0, &p.q.out_mult, &p.q.out_shift);
	ck_assert_int_eq(dk_mean_i8(&p, in, out, NULL), 0);
	for (int b = 0; b < 2; b++)
		for (int c = 0; c < 2; c++) {
			int sum = 0;
			for (int i = 0; i < 6; i++)
				sum += in[(b * 6 + i) * 2 + c] - 1;
			double want = fmin(fmax(round(2.0 * sum / 6) - 2, -128), 127);
			ck_assert(fabs(out[b * 2 + c] - want) <= 1);
		}
}
END_TEST

START_TEST(quantize_dequantize)
{
	struct dk_params p = { .batch = 1, .in_h = 1, .in_w = 1, .in_c = 6 };
	float in[6] = { 0.25f, -0.25f, 100.0f, -1e30f, 1.0f, -0.75f }, back[6];
	int8_t q[6], r[6];

	p.q.scale = 0.5f;
	p.q.out_zero = 1;
	ck_assert_int_eq(dk_quantize_f32_i8(&p, in, q, NULL), 0);
	/* 0.25 / 0.5 = 0.5 -> 1 (half away from zero), + 1. */
	ck_assert_int_eq(q[0], 2);
	ck_assert_int_eq(q[1], 0);
	ck_assert_int_eq(q[2], 127);
	ck_assert_int_eq(q[3], -128);
	ck_assert_int_eq(q[4], 3);
	ck_assert_int_eq(q[5], -1); /* -1.5 -> -2, + 1 */
	p.q.in_zero = 1;
	ck_assert_int_eq(dk_dequantize_i8_f32(&p, q, back, NULL), 0);
	ck_assert(back[0] == 0.5f && back[2] == 63.0f && back[3] == -64.5f);
	/* int8 to int8 at factor 0.5: TFLite's high multiply sends 1.5 to 2
	 * and -1.5 to -1. */
	int8_t odd[6] = { 4, -2, 10, -128, 127, 1 };
	p.q.in_zero = 1;
	p.q.out_zero = 0;
	dk_quantize_multiplier(0.5, &p.q.out_mult, &p.q.out_shift);
	ck_assert_int_eq(dk_quantize_i8_i8(&p, odd, r, NULL), 0);
	ck_assert_int_eq(r[0], 2);
	ck_assert_int_eq(r[1], -1);
	ck_assert_int_eq(r[3], -64);
	ck_assert_int_eq(r[4], 63);
}
END_TEST

/* ONNX's uint8 QuantizeLinear and DequantizeLinear, per tensor and with a
 * scale per channel; expected values worked by hand beside each check. */
START_TEST(quantize_dequantize_onnx)
{
	struct dk_params p = { .batch = 1, .in_h = 2, .in_w = 1, .in_c = 3 };
	float in[6] = { 0.25f, 0.75f, -1.25f, 200.0f, -3.0f, 2.5f }, back[6];
	uint8_t q[6];

	p.q.scale = 0.5f;
	p.q.out_zero = 3;
	p.q.round_half_even = 1;
	ck_assert_int_eq(dk_quantize_f32_u8(&p, in, q, NULL), 0);
	ck_assert_int_eq(q[0], 3);   /* 0.5 -> 0 (half to even), + 3 */
	ck_assert_int_eq(q[1], 5);   /* 1.5 -> 2, + 3 */
	ck_assert_int_eq(q[2], 1);   /* -2.5 -> -2, + 3 */
	ck_assert_int_eq(q[3], 255); /* 400 + 3 saturates */
	ck_assert_int_eq(q[4], 0);   /* -6 + 3 saturates */
	ck_assert_int_eq(q[5], 8);   /* 5 + 3 */
	p.q.in_zero = 3;
	ck_assert_int_eq(dk_dequantize_u8_f32(&p, q, back, NULL), 0);
	ck_assert(back[1] == 1.0f && back[3] == 126.0f && back[4] == -1.5f);
	/* Per channel along the middle axis of 2 x 3 x 1 (axis_inner 1,
	 * three channels): element e is channel e mod 3. */
	static const float scales[3] = { 0.5f, 0.25f, 2.0f };
	static const int32_t zeros[3] = { 0, 4, -1 };
	const int32_t ints[6] = { 6, 8, 2, -2, 0, 1000000 };
	const int8_t bytes[6] = { 6, 8, 2, -2, 0, 127 };
	float f[6];
	p.q.axis_scales = scales;
	p.q.axis_zeros = zeros;
	p.q.axis_count = 3;
	p.q.axis_inner = 1;
	ck_assert_int_eq(dk_dequantize_i32_f32(&p, ints, f, NULL), 0);
	ck_assert(f[0] == 3.0f && f[1] == 1.0f && f[2] == 6.0f);
	ck_assert(f[3] == -1.0f && f[4] == -1.0f && f[5] == 2000002.0f);
	ck_assert_int_eq(dk_dequantize_i8_f32(&p, bytes, f, NULL), 0);
	ck_assert(f[3] == -1.0f && f[5] == 256.0f); /* (127 + 1) x 2 */
	/* Channels of 2 elements (axis_inner 2): element e is (e / 2) mod 3. */
	p.q.axis_inner = 2;
	ck_assert_int_eq(dk_dequantize_i8_f32(&p, bytes, f, NULL), 0);
	ck_assert(f[0] == 3.0f && f[1] == 4.0f && f[2] == -0.5f && f[3] == -1.5f);
	ck_assert(f[4] == 2.0f && f[5] == 256.0f);
	p.q.axis_zeros = NULL; /* a scale per channel needs its zero points */
	ck_assert_int_eq(dk_dequantize_i8_f32(&p, bytes, f, NULL), -1);
}
END_TEST

START_TEST(layout_ops)
{
	/* pad: 2 x 3 int16, one row before, two columns after. */
	struct dk_shape s = { 2, { 2, 3 } };
	int before[2] = { 1, 0 }, after[2] = { 0, 2 };
	int16_t in[6] = { 1, 2, 3, 4, 5, 6 }, out[3 * 5], pad = -9;
	ck_assert_int_eq(dk_pad(&s, before, after, 2, &pad, in, out, NULL), 0);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 5; x++)
			ck_assert_int_eq(out[y * 5 + x], y >= 1 && x < 3 ? in[(y - 1) * 3 + x] : pad);

	/* transpose 2 x 3 x 4 by (2, 0, 1): out[k][i][j] = in[i][j][k]. */
	struct dk_shape s3 = { 3, { 2, 3, 4 } };
	int perm[3] = { 2, 0, 1 };
	int32_t tin[24], tout[24];
	for (int i = 0; i < 24; i++)
		tin[i] = i * 7 - 50;
	ck_assert_int_eq(dk_transpose(&s3, perm, 4, tin, tout, NULL), 0);
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 3; j++)
				ck_assert_int_eq(tout[(k * 2 + i) * 3 + j], tin[(i * 3 + j) * 4 + k]);
	perm[1] = 2;
	ck_assert_int_eq(dk_transpose(&s3, perm, 4, tin, tout, NULL), -1);

	/* concat 2 x 1 x 3 and 2 x 2 x 3 along axis 1. */
	struct dk_shape cs[2] = { { 3, { 2, 1, 3 } }, { 3, { 2, 2, 3 } } };
	int8_t a[6] = { 1, 2, 3, 4, 5, 6 }, b[12], c[18];
	for (int i = 0; i < 12; i++)
		b[i] = (int8_t)(20 + i);
	const void *ins[2] = { a, b };
	ck_assert_int_eq(dk_concat(2, cs, 1, 1, ins, c, NULL), 0);
	for (int o = 0; o < 2; o++)
		for (int j = 0; j < 3; j++)
			for (int k = 0; k < 3; k++)
				ck_assert_int_eq(c[(o * 3 + j) * 3 + k],
						 j == 0 ? a[o * 3 + k] : b[(o * 2 + j - 1) * 3 + k]);
	cs[1].dims[2] = 4;
	ck_assert_int_eq(dk_concat(2, cs, 1, 1, ins, c, NULL), -1);

	/* reshape in place, the output 3 bytes before the input: a forward
	 * copy reads every byte before it is overwritten. */
	unsigned char buf[64], want[64];
	for (int i = 0; i < 64; i++)
		buf[i] = want[i] = (unsigned char)(i * 13);
	memmove(want, want + 3, 61);
	ck_assert_int_eq(dk_reshape(buf + 3, buf, 61, NULL), 0);
	ck_assert(memcmp(buf, want, 64) == 0);
}
END_TEST

/* Every new op split over 3 threads equals its one-thread run. */
START_TEST(threaded_split)
{
	struct dk_params p = row_params(6, 7);
	int8_t in[42], one[42], split[42];
	unsigned seed = 3;

	for (int i = 0; i < 42; i++)
		in[i] = (int8_t)(rand_r(&seed) % 256 - 128);
	dk_softmax_quant(1.0f, 0.1f, &p.q);
	dk_logistic_quant(0.1f, &p.q);
	dk_quantize_multiplier(0.7, &p.q.out_mult, &p.q.out_shift);
	for (int op = 0; op < 4; op++) {
		int (*fn)(const struct dk_params *, const int8_t *, int8_t *, const struct dk_thread *) =
			op == 0 ? dk_softmax_i8 : op == 1 ? dk_logistic_i8 : op == 2 ? dk_mean_i8 : dk_quantize_i8_i8;
		size_t n = op == 2 ? 7 : 42;
		ck_assert_int_eq(fn(&p, in, one, NULL), 0);
		for (int interleave = 0; interleave < 2; interleave++) {
			memset(split, 0x5a, sizeof split);
			for (int i = 0; i < 3; i++)
				ck_assert_int_eq(fn(&p, in, split, &(struct dk_thread){ i, 3, interleave }), 0);
			ck_assert_msg(memcmp(one, split, n) == 0, "op %d interleave %d", op, interleave);
		}
	}
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("quant");
	TCase *tc = tcase_create("quant");

	tcase_add_test(tc, doubling_high_mul);
	tcase_add_test(tc, fc_accumulator_saturates);
	tcase_add_test(tc, rounding_divide_by_pot);
	tcase_add_test(tc, multiply_by_quantized_multiplier);
	tcase_add_test(tc, single_rounding);
	tcase_add_test(tc, fc_single_rounding_exact);
	tcase_add_test(tc, quantize_multiplier_derivation);
	tcase_add_test(tc, add_and_activation_params);
	tcase_add_test(tc, softmax_i8_hand_rows);
	tcase_add_test(tc, softmax_i8_against_double);
	tcase_add_test(tc, softmax_f32_rows);
	tcase_add_test(tc, logistic_i8_against_double);
	tcase_add_test(tc, mean_i8);
	tcase_add_test(tc, quantize_dequantize);
	tcase_add_test(tc, quantize_dequantize_onnx);
	tcase_add_test(tc, layout_ops);
	tcase_add_test(tc, threaded_split);
	tcase_add_test(tc, onnx_requantisation_half_even);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
