/* test_infer.c - Check tests of libdmo-infer on a small int8 model built here
 * (conv 3x3 with per-channel filters and relu6, depthwise 3x3 stride 2 with
 * multiplier 2, average pool, reshape, fully connected, softmax), with real
 * random weights:
 * - every layer's output is within one unit of the layer computed in double
 *   from its dequantised input and weights, quantised with explicit rounding
 *   (the reference for TFLite's integer arithmetic, whose double rounding
 *   may cost one unit; docs/kernels.md), with TFLite Micro's default
 *   double rounding and with single rounding;
 * - the model run in one arena where each layer's input overlaps its output
 *   by the algorithmic O_s gives the same bytes as every tensor apart, and
 *   overlapping by more than O_s does not;
 * - malformed models are refused with the step named. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithmic.h"
#include "check_main.h"
#include "infer.h"
#include "opspec.h"

enum { T_IN, T_CONV_W, T_CONV_B, T_CONV, T_DW_W, T_DW_B, T_DW, T_POOL, T_FLAT, T_FC_W, T_FC_B,
       T_FC, T_PROB, N_T };

static float conv_scales[6], dw_scales[12];
static int64_t zeros[12];
static int8_t conv_w[6 * 3 * 3 * 3], dw_w[3 * 3 * 12], fc_w[5 * 48];
static int32_t conv_b[6], dw_b[12], fc_b[5];
static const float s_in = 0.05f, s_conv = 0.04f, s_dw = 0.06f, s_fc = 0.2f, s_prob = 1.0f / 256;
static const int64_t z_in = -3, z_conv = -128, z_dw = 5, z_fc = 2, z_prob = -128;

static struct dmo_net_tensor tensors[N_T];
static struct dmo_net_step steps[6];
static struct dmo_net net = { N_T, tensors, 6, steps };

static void tensor(int i, enum dmo_net_dtype dt, int rank, const int *dims, const void *data,
		   size_t n_quant, const float *scale, const int64_t *zero)
{
	tensors[i] = (struct dmo_net_tensor){ .name = "t", .dtype = dt, .rank = rank, .data = data,
					      .n_quant = n_quant, .scale = scale, .zero_point = zero };
	memcpy(tensors[i].dims, dims, sizeof(int) * (size_t)rank);
}

static void build(void)
{
	unsigned seed = 2024;
	for (size_t i = 0; i < sizeof conv_w; i++)
		conv_w[i] = (int8_t)(rand_r(&seed) % 255 - 127);
	for (size_t i = 0; i < sizeof dw_w; i++)
		dw_w[i] = (int8_t)(rand_r(&seed) % 255 - 127);
	for (size_t i = 0; i < sizeof fc_w; i++)
		fc_w[i] = (int8_t)(rand_r(&seed) % 255 - 127);
	for (int c = 0; c < 6; c++) {
		conv_scales[c] = 0.001f * (1 + c);
		conv_b[c] = rand_r(&seed) % 2001 - 1000;
	}
	for (int c = 0; c < 12; c++) {
		dw_scales[c] = 0.002f + 0.0005f * c;
		dw_b[c] = rand_r(&seed) % 2001 - 1000;
	}
	for (int c = 0; c < 5; c++)
		fc_b[c] = rand_r(&seed) % 4001 - 2000;
	static const float fc_scale = 0.004f;
	static float sc[5] = { 0.05f, 0.04f, 0.06f, 0.2f, 1.0f / 256 };
	static int64_t zp[5] = { -3, -128, 5, 2, -128 };
	tensor(T_IN, DMO_NET_I8, 4, (int[]){ 1, 8, 8, 3 }, NULL, 1, &sc[0], &zp[0]);
	tensor(T_CONV_W, DMO_NET_I8, 4, (int[]){ 6, 3, 3, 3 }, conv_w, 6, conv_scales, zeros);
	tensor(T_CONV_B, DMO_NET_I32, 1, (int[]){ 6 }, conv_b, 0, NULL, NULL);
	tensor(T_CONV, DMO_NET_I8, 4, (int[]){ 1, 8, 8, 6 }, NULL, 1, &sc[1], &zp[1]);
	tensor(T_DW_W, DMO_NET_I8, 4, (int[]){ 1, 3, 3, 12 }, dw_w, 12, dw_scales, zeros);
	tensor(T_DW_B, DMO_NET_I32, 1, (int[]){ 12 }, dw_b, 0, NULL, NULL);
	tensor(T_DW, DMO_NET_I8, 4, (int[]){ 1, 4, 4, 12 }, NULL, 1, &sc[2], &zp[2]);
	tensor(T_POOL, DMO_NET_I8, 4, (int[]){ 1, 2, 2, 12 }, NULL, 1, &sc[2], &zp[2]);
	tensor(T_FLAT, DMO_NET_I8, 2, (int[]){ 1, 48 }, NULL, 1, &sc[2], &zp[2]);
	tensor(T_FC_W, DMO_NET_I8, 2, (int[]){ 5, 48 }, fc_w, 1, &fc_scale, zeros);
	tensor(T_FC_B, DMO_NET_I32, 1, (int[]){ 5 }, fc_b, 0, NULL, NULL);
	tensor(T_FC, DMO_NET_I8, 2, (int[]){ 1, 5 }, NULL, 1, &sc[3], &zp[3]);
	tensor(T_PROB, DMO_NET_I8, 2, (int[]){ 1, 5 }, NULL, 1, &sc[4], &zp[4]);
	steps[0] = (struct dmo_net_step){ .name = "conv", .op = DMO_NET_CONV2D, .n_inputs = 3,
					  .inputs = { T_IN, T_CONV_W, T_CONV_B }, .output = T_CONV,
					  .padding_same = 1, .stride_h = 1, .stride_w = 1,
					  .act = DMO_NET_ACT_RELU6 };
	steps[1] = (struct dmo_net_step){ .name = "dw", .op = DMO_NET_DWCONV2D, .n_inputs = 3,
					  .inputs = { T_CONV, T_DW_W, T_DW_B }, .output = T_DW,
					  .padding_same = 1, .stride_h = 2, .stride_w = 2, .mult = 2 };
	steps[2] = (struct dmo_net_step){ .name = "pool", .op = DMO_NET_AVGPOOL, .n_inputs = 1,
					  .inputs = { T_DW }, .output = T_POOL, .stride_h = 2,
					  .stride_w = 2, .filter_h = 2, .filter_w = 2 };
	steps[3] = (struct dmo_net_step){ .name = "flat", .op = DMO_NET_RESHAPE, .n_inputs = 1,
					  .inputs = { T_POOL }, .output = T_FLAT };
	steps[4] = (struct dmo_net_step){ .name = "fc", .op = DMO_NET_FC, .n_inputs = 3,
					  .inputs = { T_FLAT, T_FC_W, T_FC_B }, .output = T_FC };
	steps[5] = (struct dmo_net_step){ .name = "softmax", .op = DMO_NET_SOFTMAX, .n_inputs = 1,
					  .inputs = { T_FC }, .output = T_PROB, .beta = 1.0f };
}

/* Every activation tensor apart, in tensor order. */
static uint64_t apart(uint64_t *offsets)
{
	uint64_t end = 0;
	for (int t = 0; t < N_T; t++) {
		offsets[t] = end;
		if (!tensors[t].data)
			end += dmo_net_tensor_bytes(&net, t);
	}
	return end;
}

static void fill_input(unsigned char *arena, const uint64_t *offsets)
{
	unsigned seed = 77;
	for (int i = 0; i < 192; i++)
		((int8_t *)arena)[offsets[T_IN] + i] = (int8_t)(rand_r(&seed) % 256 - 128);
}

/* Quantise a real value: round half away from zero, clamp to [LO, HI]. */
static double quant(double real, double scale, double zero, double lo, double hi)
{
	return fmin(fmax(round(real / scale) + zero, lo), hi);
}

static void expect_close(const int8_t *got, const double *want, int n, const char *layer)
{
	for (int i = 0; i < n; i++)
		ck_assert_msg(fabs(got[i] - want[i]) <= 1, "%s[%d] = %d, double gives %g", layer, i,
			      got[i], want[i]);
}

START_TEST(layers_match_double)
{
	uint64_t off[N_T];
	char err[256];
	build();
	net.single_rounding = _i;
	unsigned char *arena = calloc(1, apart(off));
	fill_input(arena, off);
	ck_assert_msg(dmo_net_check(&net, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(dmo_net_run(&net, arena, off, err, sizeof err) == 0, "%s", err);
	const int8_t *in = (int8_t *)arena + off[T_IN], *conv = (int8_t *)arena + off[T_CONV];
	const int8_t *dw = (int8_t *)arena + off[T_DW], *pool = (int8_t *)arena + off[T_POOL];
	const int8_t *fc = (int8_t *)arena + off[T_FC], *prob = (int8_t *)arena + off[T_PROB];
	double want[8 * 8 * 6];

	/* conv, SAME: 1 row/column of padding each side; relu6 clamps the real
	 * value to [0, 6] (6 / 0.04 = 150 steps: above int8, so only 127). */
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 8; x++)
			for (int oc = 0; oc < 6; oc++) {
				double acc = conv_b[oc] * (double)s_in * conv_scales[oc];
				for (int fy = 0; fy < 3; fy++)
					for (int fx = 0; fx < 3; fx++)
						for (int ic = 0; ic < 3; ic++) {
							int iy = y - 1 + fy, ix = x - 1 + fx;
							if (iy < 0 || ix < 0 || iy >= 8 || ix >= 8)
								continue;
							acc += s_in * (in[(iy * 8 + ix) * 3 + ic] - z_in) *
							       (double)conv_scales[oc] *
							       conv_w[((oc * 3 + fy) * 3 + fx) * 3 + ic];
						}
				want[(y * 8 + x) * 6 + oc] = quant(fmin(fmax(acc, 0), 6), s_conv, z_conv, -128, 127);
			}
	expect_close(conv, want, 8 * 8 * 6, "conv");
	/* depthwise, SAME with stride 2 on 8: total padding 1, all of it after. */
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++)
			for (int oc = 0; oc < 12; oc++) {
				int ic = oc / 2;
				double acc = dw_b[oc] * (double)s_conv * dw_scales[oc];
				for (int fy = 0; fy < 3; fy++)
					for (int fx = 0; fx < 3; fx++) {
						int iy = 2 * y + fy, ix = 2 * x + fx;
						if (iy >= 8 || ix >= 8)
							continue;
						acc += s_conv * (conv[(iy * 8 + ix) * 6 + ic] - z_conv) *
						       (double)dw_scales[oc] * dw_w[(fy * 3 + fx) * 12 + oc];
					}
				want[(y * 4 + x) * 12 + oc] = quant(acc, s_dw, z_dw, -128, 127);
			}
	expect_close(dw, want, 4 * 4 * 12, "dw");
	/* average pool 2x2 stride 2: same quantisation, the average rounded. */
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 2; x++)
			for (int c = 0; c < 12; c++) {
				double sum = 0;
				for (int fy = 0; fy < 2; fy++)
					for (int fx = 0; fx < 2; fx++)
						sum += dw[((2 * y + fy) * 4 + 2 * x + fx) * 12 + c];
				want[(y * 2 + x) * 12 + c] = round(sum / 4);
			}
	expect_close(pool, want, 48, "pool");
	ck_assert(memcmp(pool, arena + off[T_FLAT], 48) == 0);
	for (int u = 0; u < 5; u++) {
		double acc = fc_b[u] * (double)s_dw * 0.004;
		for (int d = 0; d < 48; d++)
			acc += s_dw * (pool[d] - z_dw) * 0.004 * fc_w[u * 48 + d];
		want[u] = quant(acc, s_fc, z_fc, -128, 127);
	}
	expect_close(fc, want, 5, "fc");
	double sum = 0, max = -1e9;
	for (int u = 0; u < 5; u++)
		max = fmax(max, s_fc * (fc[u] - z_fc));
	for (int u = 0; u < 5; u++)
		sum += exp(s_fc * (fc[u] - z_fc) - max);
	for (int u = 0; u < 5; u++)
		want[u] = quant(exp(s_fc * (fc[u] - z_fc) - max) / sum, s_prob, z_prob, -128, 127);
	expect_close(prob, want, 5, "softmax");
	free(arena);
}
END_TEST

/* Each activation tensor placed so that the step reading it overlaps it
 * with its own output by OVERLAP[step] bytes (input start = output start +
 * OB - X), chained backwards from the model input; returns the arena size.
 * A linear chain: only a step's input and output are live at once. */
static uint64_t chained(const uint64_t *overlap, uint64_t *offsets)
{
	int64_t off[N_T] = { 0 }, lo = 0, hi = 0;
	for (int s = 0; s < 6; s++) {
		int in = steps[s].inputs[0], out = steps[s].output;
		off[out] = off[in] - (int64_t)dmo_net_tensor_bytes(&net, out) + (int64_t)overlap[s];
		lo = off[out] < lo ? off[out] : lo;
		int64_t end = off[out] + (int64_t)dmo_net_tensor_bytes(&net, out);
		hi = end > hi ? end : hi;
	}
	hi = hi > (int64_t)dmo_net_tensor_bytes(&net, T_IN) ? hi : (int64_t)dmo_net_tensor_bytes(&net, T_IN);
	for (int t = 0; t < N_T; t++)
		offsets[t] = (uint64_t)(off[t] - lo);
	return (uint64_t)(hi - lo);
}

static void overlaps(uint64_t *x)
{
	static const char *const specs[] = {
		"conv2d:in=8x8x3,k=3x3,stride=1,pad=same,out_c=6,dtype=i8",
		"dwconv2d:in=8x8x6,k=3x3,stride=2,pad=same,mult=2,dtype=i8",
		"avgpool:in=4x4x12,k=2x2,stride=2,pad=valid,dtype=i8",
		NULL, /* reshape: a forward copy, in place */
		"fc:in=1x48,units=5,dtype=i8",
		NULL, /* softmax: in place (docs/kernels.md) */
	};
	for (int s = 0; s < 6; s++) {
		uint64_t ib = dmo_net_tensor_bytes(&net, steps[s].inputs[0]);
		uint64_t ob = dmo_net_tensor_bytes(&net, steps[s].output);
		x[s] = ib < ob ? ib : ob;
		if (!specs[s])
			continue;
		struct dmo_opspec spec;
		struct dmo_algo_result r;
		char err[128];
		ck_assert_msg(dmo_opspec_parse(specs[s], &spec, err, sizeof err) == 0, "%s", err);
		ck_assert_int_eq(dmo_algorithmic(&spec, &r), 0);
		ck_assert_uint_eq(r.in_bytes, ib);
		ck_assert_uint_eq(r.out_bytes, ob);
		x[s] = r.os;
	}
}

static void run_at(const uint64_t *offsets, uint64_t size, int8_t *out)
{
	uint64_t plain[N_T];
	char err[256];
	unsigned char *arena = malloc(size);
	memset(arena, 0xa5, size);
	apart(plain);
	/* The same input bytes as the plain run. */
	unsigned char *tmp = calloc(1, apart(plain));
	fill_input(tmp, plain);
	memcpy(arena + offsets[T_IN], tmp + plain[T_IN], 192);
	ck_assert_msg(dmo_net_run(&net, arena, offsets, err, sizeof err) == 0, "%s", err);
	memcpy(out, arena + offsets[T_PROB], 5);
	memcpy(out + 5, arena + offsets[T_FC], 5);
	free(tmp);
	free(arena);
}

START_TEST(overlapped_arena_identical)
{
	uint64_t plain[N_T], x[6], packed[N_T];
	int8_t a[10], b[10];
	build();
	uint64_t plain_size = apart(plain);
	run_at(plain, plain_size, a);
	overlaps(x);
	uint64_t size = chained(x, packed);
	ck_assert_uint_lt(size, plain_size);
	run_at(packed, size, b);
	/* fc's output is dead once softmax ran in place over it: compare the
	 * model output only. */
	ck_assert(memcmp(a, b, 5) == 0);
	/* conv's O_s is its whole input (its 8x8x3 input fits behind the
	 * output); overlapping the depthwise by 16 bytes beyond its O_s
	 * clobbers input it still reads. */
	ck_assert_uint_lt(x[1], 192);
	x[1] += 16;
	run_at(packed, chained(x, packed), b);
	ck_assert_msg(memcmp(a, b, 5) != 0, "overlapping beyond O_s changed nothing");
}
END_TEST

START_TEST(malformed_models_refused)
{
	char err[256];

	build();
	steps[1].mult = 3;
	ck_assert_int_eq(dmo_net_check(&net, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "step 1 'dw' (dwconv2d)") != NULL, "%s", err);
	build();
	tensors[T_PROB].scale = &s_fc;
	ck_assert_int_eq(dmo_net_check(&net, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "scale 1/256") != NULL, "%s", err);
	build();
	tensors[T_CONV].dims[1] = 7;
	ck_assert_int_eq(dmo_net_check(&net, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "output height 7, but the options give 8") != NULL, "%s", err);
	build();
	tensors[T_CONV_W].dtype = DMO_NET_F32;
	ck_assert_int_eq(dmo_net_check(&net, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "hybrid") != NULL, "%s", err);
	build();
	tensors[T_CONV_W].n_quant = 4;
	ck_assert_int_eq(dmo_net_check(&net, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "4 scales for 6 output channels") != NULL, "%s", err);
	build();
	steps[4].output = T_FC_W;
	ck_assert_int_eq(dmo_net_check(&net, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "must be an activation") != NULL, "%s", err);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("infer");
	TCase *tc = tcase_create("infer");

	tcase_add_loop_test(tc, layers_match_double, 0, 2); /* double, single rounding */
	tcase_add_test(tc, overlapped_arena_identical);
	tcase_add_test(tc, malformed_models_refused);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
