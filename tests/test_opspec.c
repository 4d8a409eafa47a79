/* test_opspec.c - Check tests of the op-spec parser: hand-computed TensorFlow
 * shapes (incl. the golden layer of docs/definitions.md) and one case per error class. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "opspec.h"

static struct dmo_opspec parse_ok(const char *text)
{
	struct dmo_opspec s;
	char err[256] = "";

	ck_assert_msg(dmo_opspec_parse(text, &s, err, sizeof err) == 0,
		      "'%s' rejected: %s", text, err);
	return s;
}

START_TEST(golden_dwconv)
{
	struct dmo_opspec s = parse_ok("dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same,dtype=f32");

	ck_assert_int_eq(s.op, DMO_OP_DWCONV2D);
	ck_assert_int_eq(s.batch, 1);
	ck_assert_int_eq(s.out_h, 56);
	ck_assert_int_eq(s.out_w, 56);
	ck_assert_int_eq(s.out_c, 96);
	ck_assert_int_eq(s.pad_top, 0);
	ck_assert_int_eq(s.pad_left, 0);
	ck_assert_int_eq(s.pad_bottom, 1);
	ck_assert_int_eq(s.pad_right, 1);
	ck_assert_uint_eq(dmo_opspec_out_bytes(&s), 1204224);
	ck_assert_uint_eq(dmo_opspec_in_bytes(&s), 112 * 112 * 96 * 4);
}
END_TEST

/* One row per valid spec with its hand-computed resolution. */
static const struct shape_case {
	const char *text;
	int batch, out_h, out_w, out_c, pt, pl, pb, pr;
	uint64_t in_bytes, out_bytes;
} shape_cases[] = {
	/* element-wise ops keep the shape; dtype sizes 1/2/4 */
	{ "relu:in=4x5x6", 1, 4, 5, 6, 0, 0, 0, 0, 480, 480 },
	{ "relu6:in=2x4x5x6,dtype=i8", 2, 4, 5, 6, 0, 0, 0, 0, 240, 240 },
	{ "add:in=3x3x3,dtype=i16", 1, 3, 3, 3, 0, 0, 0, 0, 54, 54 },
	{ "mul:in=1x1x7,dtype=i32", 1, 1, 1, 7, 0, 0, 0, 0, 28, 28 },
	/* conv VALID: ceil((10 - 2) / 1) = 8; out_c from key */
	{ "conv2d:in=10x10x3,k=3,out_c=8", 1, 8, 8, 8, 0, 0, 0, 0, 1200, 2048 },
	/* conv VALID stride 2 dil 2: ceil((9 - 4) / 2) = 3, width ceil((8-2)/2)=3 */
	{ "conv2d:in=9x8x1,k=3x2,stride=2,dil=2x2,out_c=1", 1, 3, 3, 1, 0, 0, 0, 0, 288, 36 },
	/* conv SAME stride 2 on 7: out 4, total (3*2+3-7)=2 -> 1/1 */
	{ "conv2d:in=7x7x1,k=3,stride=2,pad=same,out_c=2", 1, 4, 4, 2, 1, 1, 1, 1, 196, 128 },
	/* SAME 224 stride 2 k3: out 112, total 1 -> 0 top, 1 bottom */
	{ "conv2d:in=224x224x3,k=3,stride=2,pad=same,out_c=32", 1, 112, 112, 32, 0, 0, 1, 1, 224 * 224 * 12, 112 * 112 * 128 },
	/* SAME with dilation 2, k 3 (extent 5) on 6: out 6, total 4 -> 2/2 */
	{ "dwconv2d:in=6x6x2,k=3,dil=2,pad=same,mult=2", 1, 6, 6, 4, 2, 2, 2, 2, 288, 576 },
	/* SAME with stride larger than the kernel: total clamps to 0 */
	{ "maxpool:in=9x9x1,k=1,stride=4,pad=same", 1, 3, 3, 1, 0, 0, 0, 0, 324, 36 },
	/* explicit pad: (5 + 2 - 3) / 1 + 1 = 5; width (6 + 0 - 3)/2 + 1 = 2 */
	{ "avgpool:in=2x5x6x3,k=3,stride=1x2,pad=1x0", 2, 5, 2, 3, 1, 0, 1, 0, 720, 240 },
	/* four pads, top 1 left 0 bottom 2 right 1: (5 + 3 - 3) + 1 = 6 rows;
	 * (6 + 1 - 3) / 2 + 1 = 3 columns */
	{ "avgpool:in=2x5x6x3,k=3,stride=1x2,pad=1x0x2x1", 2, 6, 3, 3, 1, 0, 2, 1, 720, 432 },
	/* dilated max pooling, NCHW: windows 2x3 dilated 2 span 3x5: (9 - 3)
	 * + 1 = 7 rows, (8 + 2 - 5) / 2 + 1 = 3 columns */
	{ "maxpool:in=2x9x8x3,k=2x3,dil=2,stride=1x2,pad=0x0x0x2,layout=nchw", 2, 7, 3, 3, 0, 0, 0, 2, 1728, 504 },
	/* grouped, NCHW: 9 = 3 groups of 3 planes to 6 = 3 of 2 */
	{ "conv2d:in=7x7x9,k=3,pad=1x1,out_c=6,group=3,layout=nchw", 1, 7, 7, 6, 1, 1, 1, 1, 1764, 1176 },
	/* KWS first layer: SAME on 49x10, 10x4 stride 2 -> 25x5 */
	{ "conv2d:in=49x10x1,k=10x4,stride=2,pad=same,out_c=64", 1, 25, 5, 64, 4, 1, 5, 1, 1960, 32000 },
	/* fc forms */
	{ "fc:in=1024,units=1001", 1, 1, 1, 1001, 0, 0, 0, 0, 4096, 4004 },
	{ "fc:in=3x64,units=12,dtype=i8", 3, 1, 1, 12, 0, 0, 0, 0, 192, 36 },
	/* rows: softmax and logistic keep the shape; mean keeps N and C */
	{ "softmax:in=1x1x1001,dtype=i8", 1, 1, 1, 1001, 0, 0, 0, 0, 1001, 1001 },
	{ "logistic:in=2x3x4", 1, 2, 3, 4, 0, 0, 0, 0, 96, 96 },
	{ "mean:in=2x7x7x5,dtype=i8", 2, 1, 1, 5, 0, 0, 0, 0, 490, 10 },
	{ "reshape:in=1x1x10,dtype=i16", 1, 1, 1, 10, 0, 0, 0, 0, 20, 20 },
	/* quantize f32 -> i8 by default, dequantize i8 -> f32 */
	{ "quantize:in=2x2x3", 1, 2, 2, 3, 0, 0, 0, 0, 48, 12 },
	{ "dequantize:in=2x2x3", 1, 2, 2, 3, 0, 0, 0, 0, 12, 48 },
	{ "quantize:in=2x2x3,dtype=i16,out_dtype=i8", 1, 2, 2, 3, 0, 0, 0, 0, 24, 12 },
	/* pad: each axis grows by before + after; 2 values are H and W */
	{ "pad:in=112x112x96,before=1x1,after=1x1,dtype=i8", 1, 114, 114, 96, 1, 1, 1, 1, 1204224, 1247616 },
	{ "pad:in=2x3x4,before=1x0x2,after=0x1x3", 1, 3, 4, 9, 1, 0, 0, 1, 96, 432 },
	{ "pad:in=2x3x4,before=1x0x0x0,after=2x0x0x0", 4, 2, 3, 4, 0, 0, 0, 0, 96, 384 },
	/* concat: out_c channels, this input's at 'at' */
	{ "concat:in=4x4x3,out_c=8,at=2,dtype=i8", 1, 4, 4, 8, 0, 0, 0, 0, 48, 128 },
	/* transpose NCHW -> NHWC of 1x3x224x224, and one that moves the batch */
	{ "transpose:in=1x3x224x224,perm=0x2x3x1,dtype=i8", 1, 224, 224, 3, 0, 0, 0, 0, 150528, 150528 },
	{ "transpose:in=2x3x4x5,perm=3x2x1x0", 5, 4, 3, 2, 0, 0, 0, 0, 480, 480 },
	{ "transpose:in=3x4x5,perm=2x0x1", 1, 5, 3, 4, 0, 0, 0, 0, 240, 240 },
	/* the same two perms written with commas, and keys after them */
	{ "transpose:in=2x3x4x5,perm=3,2,1,0", 5, 4, 3, 2, 0, 0, 0, 0, 480, 480 },
	{ "transpose:in=3x4x5,perm=2,0,1,dtype=i8", 1, 5, 3, 4, 0, 0, 0, 0, 60, 60 },
	/* exactly 4 GiB is still accepted */
	{ "relu:in=1024x1024x1024,dtype=i32", 1, 1024, 1024, 1024, 0, 0, 0, 0, 4ull << 30, 4ull << 30 },
};

START_TEST(shapes)
{
	const struct shape_case *c = &shape_cases[_i];
	struct dmo_opspec s = parse_ok(c->text);

	ck_assert_msg(s.out_n == c->batch && s.out_h == c->out_h &&
		      s.out_w == c->out_w && s.out_c == c->out_c,
		      "%s: got %dx%dx%dx%d", c->text, s.out_n, s.out_h, s.out_w, s.out_c);
	ck_assert_msg(s.pad_top == c->pt && s.pad_left == c->pl &&
		      s.pad_bottom == c->pb && s.pad_right == c->pr,
		      "%s: pads %d %d %d %d", c->text, s.pad_top, s.pad_left,
		      s.pad_bottom, s.pad_right);
	ck_assert_uint_eq(dmo_opspec_in_bytes(&s), c->in_bytes);
	ck_assert_uint_eq(dmo_opspec_out_bytes(&s), c->out_bytes);

	/* The canonical text must parse back to the same spec. */
	char buf[256];
	ck_assert_int_lt(dmo_opspec_format(&s, buf, sizeof buf), (int)sizeof buf);
	struct dmo_opspec again = parse_ok(buf);
	ck_assert_msg(memcmp(&s, &again, sizeof s) == 0, "%s -> %s differs", c->text, buf);
}
END_TEST

START_TEST(defaults)
{
	struct dmo_opspec s = parse_ok("dwconv2d:in=5x5x4,k=3");

	ck_assert_int_eq(s.dtype, DMO_F32);
	ck_assert_int_eq(s.stride_h, 1);
	ck_assert_int_eq(s.dil_w, 1);
	ck_assert_int_eq(s.pad, DMO_PAD_VALID);
	ck_assert_int_eq(s.mult, 1);
	s = parse_ok("relu:in=2x2x2");
	ck_assert_int_eq(s.k_h, 1);
	ck_assert_int_eq(s.k_w, 1);
	ck_assert_str_eq(dmo_op_name(DMO_OP_AVGPOOL), "avgpool");
	ck_assert_str_eq(dmo_dtype_name(DMO_I16), "i16");
	ck_assert_uint_eq(dmo_dtype_size(DMO_I8), 1);
}
END_TEST

/* Each invalid spec with a fragment its message must contain (the bad key or
 * value), one row per error class. */
static const struct error_case {
	const char *text, *needle;
} error_cases[] = {
	{ "", "unknown op" },
	{ "gridsample:in=1x1x1", "unknown op 'gridsample'" },
	{ "softmax:in=2x2x2,k=2", "'k' does not apply to softmax" },
	{ "relu:in=2x2x2,out_dtype=i8", "'out_dtype' does not apply to relu" },
	{ "quantize:in=2x2x2,out_dtype=f16", "bad value for 'out_dtype'" },
	{ "pad:in=2x2x2,before=1", "bad value for 'before'" },
	{ "pad:in=2x2x2,after=1x-1", "bad value for 'after'" },
	{ "pad:in=2x2x2,before=1x1x1x1x1", "bad value for 'before'" },
	{ "pad:in=2x2x2,before=0x2147483647", "too large" },
	{ "transpose:in=2x2x2", "missing required key 'perm'" },
	{ "transpose:in=2x2x2,perm=0x1x1", "bad value for 'perm'" },
	{ "transpose:in=2x2x2,perm=0x1x3", "bad value for 'perm'" },
	{ "transpose:in=2x2x2,perm=0x1", "bad value for 'perm'" },
	{ "concat:in=2x2x2", "missing required key 'out_c'" },
	{ "concat:in=2x2x4,out_c=5,at=2", "bad value for 'out_c'" },
	{ "concat:in=2x2x2,out_c=4,at=x", "bad value for 'at'" },
	{ "mean:in=2x2x2,at=1", "'at' does not apply to mean" },
	{ "relu:in=2x2x2,foo=1", "unknown key 'foo'" },
	{ "relu:in=2x2x2,in=2x2x2", "duplicate key 'in'" },
	{ "conv2d:in=5x5x1,k=3", "missing required key 'out_c'" },
	{ "conv2d:in=5x5x1,out_c=3", "missing required key 'k'" },
	{ "fc:in=64", "missing required key 'units'" },
	{ "maxpool:in=4x4x1", "missing required key 'k'" },
	{ "relu", "missing required key 'in'" },
	{ "relu:units=3,in=1x1x1", "'units' does not apply to relu" },
	{ "avgpool:in=4x4x1,k=2,dil=2", "key 'dil' of avgpool needs layout=nchw" },
	{ "avgpool:in=4x4x1,k=2,pad=1x1,count_pad=1", "key 'count_pad' needs layout=nchw" },
	{ "avgpool:in=4x4x1,k=2,count_pad=2,layout=nchw", "bad value for 'count_pad'" },
	{ "pad:in=4x4x1,before=1x1,mode=wrap", "bad value for 'mode'" },
	{ "pad:in=4x4x1,before=1x1,mode=reflct", "did you mean 'reflect'" },
	{ "pad:in=4x4x1,before=1x4,mode=reflect", "mode=reflect adds 4 and 0 elements along axis 2" },
	{ "pad:in=4x4x1,before=1x1,mode=edge,value=1", "key 'value' needs mode=constant" },
	{ "pad:in=4x4x1,before=1x1,value=0.5,dtype=i8", "bad value for 'value': 0.5 is not a i8 value" },
	{ "pad:in=4x4x1,before=1x1,value=nan", "bad value for 'value'" },
	{ "slice:in=4x4x1,before=1x1,mode=edge", "'mode' does not apply to slice" },
	{ "slice:in=4x4x1,step=1x0", "bad value for 'step'" },
	{ "gather:in=1x2x4x3,indices=1x4", "bad value for 'indices': 4 is not below in's W 4" },
	{ "gather:in=1x2x4x3", "indices" },
	{ "gather:in=1x2x4x3,indices=1x-1", "bad value for 'indices'" },
	{ "maxpool:in=4x4x1,k=2,dil=2", "key 'dil' of maxpool needs layout=nchw" },
	{ "conv2d:in=4x4x1,k=2,out_c=1,mult=2", "'mult' does not apply" },
	{ "relu:in=0x2x2", "bad value for 'in'" },
	{ "relu:in=-1x2x2", "bad value for 'in'" },
	{ "relu:in=2x2", "bad value for 'in'" },
	{ "relu:in=1x2x2x2x2", "bad value for 'in'" },
	{ "fc:in=1x2x3,units=2", "bad value for 'in'" },
	{ "conv2d:in=4x4x1,k=0,out_c=1", "bad value for 'k'" },
	{ "conv2d:in=4x4x1,k=2,stride=0,out_c=1", "bad value for 'stride'" },
	{ "dwconv2d:in=4x4x1,k=2,mult=0", "bad value for 'mult'" },
	{ "relu:in=2147483648x1x1", "'in' is too large" },
	{ "conv2d:in=4x4x1,k=99999999999,out_c=1", "'k' is too large" },
	{ "conv2d:in=4x4x1,k=5,out_c=1", "output height would be empty" },
	{ "conv2d:in=8x4x1,k=3x5,out_c=1", "output width would be empty" },
	{ "avgpool:in=4x4x1,k=3,pad=3x0", "bad value for 'pad'" },
	{ "avgpool:in=4x4x1,k=3,pad=sometimes", "bad value for 'pad'" },
	{ "avgpool:in=4x4x1,k=3,pad=1x1x1", "bad value for 'pad'" },
	{ "avgpool:in=4x4x1,k=3,pad=0x0x3x0", "bad value for 'pad': 0x0x3x0 (top, left, bottom, right)" },
	{ "conv2d:in=4x4x4,k=3,out_c=4,group=2", "key 'group' needs layout=nchw" },
	{ "conv2d:in=4x4x4,k=3,out_c=6,group=4,layout=nchw", "bad value for 'group': 4 must divide" },
	{ "dwconv2d:in=4x4x4,k=3,group=2,layout=nchw", "key 'group' does not apply to dwconv2d" },
	{ "relu:in=2x2x2,dtype=f64", "bad value for 'dtype'" },
	{ "relu:in=2049x2048x1024,dtype=i8", "input buffer" },
	{ "conv2d:in=64x64x1,k=1,out_c=1000000", "output buffer exceeds 4 GiB (check 'out_c')" },
	/* 2^30 + 2 channels of 4 bytes, each past 4 GiB by the key named */
	{ "dwconv2d:in=1x1x2,k=1,mult=536870913", "output buffer exceeds 4 GiB (check 'mult')" },
	{ "pad:in=1x1x2,after=0x0x1073741824", "output buffer exceeds 4 GiB (check 'before'/'after')" },
	{ "concat:in=1x1x2,out_c=1073741826", "output buffer exceeds 4 GiB (check 'out_c')" },
	/* 2^30 + 2^20 int8 in, as many float32 out */
	{ "dequantize:in=1024x1024x1025", "output buffer exceeds 4 GiB (check 'in')" },
	/* 2^16 channels times 2^16 is past 2^31 - 1 */
	{ "dwconv2d:in=1x1x65536,k=1,mult=65536", "value of 'mult' is too large for 'in' channels" },
	/* explicit pad 2 under a dilated kernel of 4: (2^31 - 1 + 4 - 4) + 1 rows */
	{ "conv2d:in=2147483647x1x1,k=2x1,dil=3x1,pad=2x0,out_c=1", "output of 'in' with this 'pad' is too large" },
	/* Issue 28: windows and loop counts beyond 64-bit arithmetic or any
	 * sane time, refused by the parser (a 2^31 x 2^31 pool window never
	 * ended; 2^40 window steps is the bound, opspec.h). */
	{ "maxpool:in=8x8x3,k=2147483647x2147483647,pad=same", "window of 'k'" },
	{ "avgpool:in=8x8x3,k=2147483647x1,stride=2x1,pad=same", "window of 'k'" },
	{ "conv2d:in=1x1x1,k=65537x1,dil=32768x1,pad=same,out_c=1", "window of 'k'" },
	{ "maxpool:in=8x8x3,k=1048576x1048576,pad=same", "more than 2^40 window steps" },
	{ "conv2d:in=1024x1024x256,k=64x64,out_c=16,pad=same", "more than 2^40 window steps" },
	{ "fc:in=65536x65536,units=65536,dtype=i8", "more than 2^40 window steps" },
	{ "relu:in=2x2x2 ", "bad value for 'in'" },
	{ "relu:in=2x2x2,", "empty key=value" },
	{ "relu:in=2x2x2,,dtype=i8", "empty key=value" },
	{ "relu:", "empty key=value" },
	{ "relu:in=2x2x2,garbage", "expected key=value, got 'garbage'" },
	{ "relu:in=2x2x2=3", "bad value for 'in'" },
	{ "relu :in=2x2x2", "unknown op" },
	/* slips and other tools' words get the nearest right one */
	{ "rleu:in=2x2x2", "unknown op 'rleu'; did you mean 'relu'?" },
	{ "dwconv:in=2x2x2,k=1", "did you mean 'dwconv2d'?" },
	{ "conv2d:in=8x8x3,k=3,kk=3,out_c=2", "unknown key 'kk' for conv2d; did you mean 'k'?" },
	{ "conv2d:in=8x8x3,k=3,pad=SAME,out_c=2", "did you mean 'same'?" },
	{ "relu:in=2x2x2,dtype=float32", "did you mean 'f32'?" },
	{ "quantize:in=2x2x2,out_dtype=int8", "did you mean 'i8'?" },
	/* no suggestion from a key the op does not take (mult is dwconv2d's) */
	{ "relu:in=2x2x2,mul=2", "unknown key 'mul' for relu" },
	{ "transpose:in=2x2x2,perm=0,1,1", "bad value for 'perm': '0x1x1'" },
	{ "transpose:in=2x2x2,perm=0,2,1,", "empty key=value" },
};

/* A message without a suggestion must not offer one. */
START_TEST(no_far_suggestion)
{
	struct dmo_opspec s;
	char err[256] = "";

	ck_assert_int_eq(dmo_opspec_parse("gridsample:in=1x1x1", &s, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "did you mean") == NULL, "'%s'", err);
	ck_assert_int_eq(dmo_opspec_parse("relu:in=2x2x2,mul=2", &s, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "did you mean") == NULL, "'%s'", err);
}
END_TEST

START_TEST(errors)
{
	const struct error_case *c = &error_cases[_i];
	struct dmo_opspec s;
	char err[256] = "";

	ck_assert_int_eq(dmo_opspec_parse(c->text, &s, err, sizeof err), -1);
	ck_assert_msg(strstr(err, c->needle) != NULL, "'%s': message '%s' lacks '%s'",
		      c->text, err, c->needle);
	ck_assert_msg(strchr(err, '\n') == NULL, "multi-line message '%s'", err);
}
END_TEST

START_TEST(error_buffer_bounds)
{
	struct dmo_opspec s;
	char err[8];

	memset(err, 'z', sizeof err);
	ck_assert_int_eq(dmo_opspec_parse("bogus", &s, err, sizeof err), -1);
	ck_assert_int_eq(err[7], '\0');
	ck_assert_int_eq(dmo_opspec_parse("bogus", &s, NULL, 0), -1);
	ck_assert_int_eq(dmo_opspec_parse(NULL, &s, NULL, 0), -1);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("opspec");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, golden_dwconv);
	tcase_add_loop_test(tc, shapes, 0, sizeof shape_cases / sizeof shape_cases[0]);
	tcase_add_test(tc, defaults);
	tcase_add_loop_test(tc, errors, 0, sizeof error_cases / sizeof error_cases[0]);
	tcase_add_test(tc, error_buffer_bounds);
	tcase_add_test(tc, no_far_suggestion);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
