/* test_methods.c - checks the algorithmic and analytic O_s methods.
 *
 * The oracle is independent of analysis/lib: literal reference loop nests
 * (docs/kernels.md, "Loop orders") that feed every event into the normative
 * dmo_reducer.  Against it: algorithmic == oracle, the golden numbers, the
 * curves, and a randomized sweep where analytic <= algorithmic always. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "algorithmic.h"
#include "analytic.h"
#include "event.h"
#include "opspec.h"
#include "os_reducer.h"

#define GOLDEN "dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same,dtype=f32"

static void parse(const char *text, struct dmo_opspec *s)
{
	char err[256];
	ck_assert_msg(dmo_opspec_parse(text, s, err, sizeof err) == 0, "%s: %s", text, err);
}

/* The oracle: the reference loop nests written out, offsets only. */
struct oracle {
	struct dmo_reducer r;
	uint64_t es, oes; /* input and output element sizes */
};

static void rd(struct oracle *o, uint64_t elem)
{
	dmo_reducer_add(&o->r, 0, elem * o->es, o->es);
}

static void wr(struct oracle *o, uint64_t elem)
{
	dmo_reducer_add(&o->r, DMO_EV_WRITE | DMO_EV_OUT, elem * o->oes, o->oes);
}

static uint64_t in_at(const struct dmo_opspec *s, int b, int iy, int ix, int c)
{
	return (((uint64_t)b * s->in_h + iy) * s->in_w + ix) * s->in_c + c;
}

/* docs/kernels.md's layout ops (pad, concat, transpose, slice, gather): the output in
 * flat order, each element copied from the input element at its NHWC
 * coordinates mapped back, or from elsewhere (padding, another input). */
static void oracle_layout(struct oracle *o, const struct dmo_opspec *s)
{
	const int in[4] = { s->batch, s->in_h, s->in_w, s->in_c };
	const int od[4] = { s->out_n, s->out_h, s->out_w, s->out_c };
	uint64_t e = 0;

	if (s->op == DMO_OP_CONCAT) {
		/* Per pixel: `at` channels of the inputs before, this input's
		 * in_c, then the rest. */
		for (uint64_t p = 0; p < (uint64_t)s->batch * s->in_h * s->in_w; p++) {
			for (int c = 0; c < s->before[3]; c++)
				wr(o, e++);
			for (int c = 0; c < s->in_c; c++) {
				rd(o, p * s->in_c + c);
				wr(o, e++);
			}
			for (int c = 0; c < s->after[3]; c++)
				wr(o, e++);
		}
		return;
	}
	for (int a = 0; a < od[0]; a++)
	for (int y = 0; y < od[1]; y++)
	for (int x = 0; x < od[2]; x++)
	for (int c = 0; c < od[3]; c++) {
		const int coord[4] = { a, y, x, c };
		int src[4], inside = 1;
		if (s->op == DMO_OP_TRANSPOSE) {
			/* out dims[i] = in dims[perm[i]]: input axis perm[i]
			 * is at coordinate coord[i]. */
			for (int i = 0; i < 4; i++)
				src[s->perm[i]] = coord[i];
		} else if (s->op == DMO_OP_GATHER) { /* column x is indices[x] */
			for (int i = 0; i < 4; i++)
				src[i] = i == 2 ? s->indices[coord[2]] : coord[i];
		} else {
			/* pad adds before[i]; slice walks the box left by
			 * before and after every step-th element, from its
			 * last one for a negative step */
			for (int i = 0; i < 4; i++) {
				src[i] = s->op != DMO_OP_SLICE ? coord[i] - s->before[i]
					 : s->step[i] > 0 ? s->before[i] + coord[i] * s->step[i]
							  : in[i] - 1 - s->after[i] + coord[i] * s->step[i];
				inside = inside && src[i] >= 0 && src[i] < in[i];
			}
		}
		if (inside)
			rd(o, in_at(s, src[0], src[1], src[2], src[3]));
		wr(o, e++);
	}
}

/* The in-image taps of channel C's window for output pixel (OY, OX) of
 * batch B, rows then columns, DH and DW apart, at their NHWC or NCHW
 * offsets. */
static void read_taps(struct oracle *o, const struct dmo_opspec *s, int b, int oy, int ox, int c,
		      int dh, int dw)
{
	for (int fy = 0; fy < s->k_h; fy++) {
		int iy = oy * s->stride_h - s->pad_top + fy * dh;
		if (iy < 0 || iy >= s->in_h)
			continue;
		for (int fx = 0; fx < s->k_w; fx++) {
			int ix = ox * s->stride_w - s->pad_left + fx * dw;
			if (ix < 0 || ix >= s->in_w)
				continue;
			rd(o, s->layout == DMO_LAYOUT_NCHW
				      ? (((uint64_t)b * s->in_c + c) * s->in_h + iy) * s->in_w + ix
				      : in_at(s, b, iy, ix, c));
		}
	}
}

/* kernels_nchw.c's loop order (docs/kernels.md, "NCHW kernels"): batch,
 * out_c, out_y, out_x, then the in-image taps of each plane of out_c's
 * group (conv2d: the in_c / group planes of group oc / (out_c / group);
 * dwconv2d: plane out_c / mult; pools: their own, maxpool's dilated). */
static void oracle_nchw(struct oracle *o, const struct dmo_opspec *s)
{
	int conv = s->op == DMO_OP_CONV2D, pool = s->op == DMO_OP_MAXPOOL || s->op == DMO_OP_AVGPOOL;
	int dh = s->dil_h, dw = s->dil_w, mult = pool ? 1 : s->mult;
	int planes = s->in_c / s->group, per_group = s->out_c / s->group;
	uint64_t e = 0;

	for (int b = 0; b < s->batch; b++)
	for (int oc = 0; oc < s->out_c; oc++)
	for (int oy = 0; oy < s->out_h; oy++)
	for (int ox = 0; ox < s->out_w; ox++) {
		int first = conv ? oc / per_group * planes : oc / mult;
		for (int c = first; c < first + (conv ? planes : 1); c++)
			read_taps(o, s, b, oy, ox, c, dh, dw);
		wr(o, e++);
	}
}

/* kernels_nchw_quant.c's order (docs/kernels.md, "NCHW integer
 * kernels"): per image, every input element of the image read, then every
 * output element of the image written. */
/* An image at a time; convt a group of an image at a time (ONNX
 * Runtime's GEMM then col2im per group: kernels_convt.c). */
static void oracle_images(struct oracle *o, const struct dmo_opspec *s)
{
	const uint64_t groups = s->op == DMO_OP_CONVT ? (uint64_t)s->group : 1;
	const uint64_t in_unit = (uint64_t)s->in_c / groups * s->in_h * s->in_w;
	const uint64_t out_unit = (uint64_t)s->out_c / groups * s->out_h * s->out_w;

	for (uint64_t u = 0; u < (uint64_t)s->batch * groups; u++) {
		for (uint64_t i = 0; i < in_unit; i++)
			rd(o, u * in_unit + i);
		for (uint64_t e = 0; e < out_unit; e++)
			wr(o, u * out_unit + e);
	}
}

static uint64_t oracle_os(const struct dmo_opspec *s)
{
	struct oracle o = { .es = dmo_dtype_size(s->dtype), .oes = dmo_dtype_size(s->out_dtype) };
	uint64_t e = 0, n = dmo_opspec_in_elems(s);
	int pool = s->op == DMO_OP_MAXPOOL || s->op == DMO_OP_AVGPOOL;

	dmo_reducer_init(&o.r, dmo_opspec_in_bytes(s), dmo_opspec_out_bytes(s));
	if (dmo_opspec_image_at_a_time(s)) {
		oracle_images(&o, s);
		return dmo_reducer_os(&o.r);
	}
	if (s->op == DMO_OP_QLINEARAVGPOOL) { /* every input element dequantized first */
		for (uint64_t i = 0; i < n; i++)
			rd(&o, i);
		for (uint64_t t = 0; t < dmo_opspec_out_elems(s); t++)
			wr(&o, t);
		return dmo_reducer_os(&o.r);
	}
	if (s->layout == DMO_LAYOUT_NCHW) {
		oracle_nchw(&o, s);
		return dmo_reducer_os(&o.r);
	}
	switch (s->op) {
	case DMO_OP_CONV2D:
		for (int b = 0; b < s->batch; b++)
		for (int oy = 0; oy < s->out_h; oy++)
		for (int ox = 0; ox < s->out_w; ox++)
		for (int oc = 0; oc < s->out_c; oc++) {
			for (int fy = 0; fy < s->k_h; fy++) {
				int iy = oy * s->stride_h - s->pad_top + fy * s->dil_h;
				if (iy < 0 || iy >= s->in_h)
					continue;
				for (int fx = 0; fx < s->k_w; fx++) {
					int ix = ox * s->stride_w - s->pad_left + fx * s->dil_w;
					if (ix < 0 || ix >= s->in_w)
						continue;
					for (int ic = 0; ic < s->in_c; ic++)
						rd(&o, in_at(s, b, iy, ix, ic));
				}
			}
			wr(&o, e++);
		}
		break;
	case DMO_OP_DWCONV2D:
	case DMO_OP_MAXPOOL:
	case DMO_OP_AVGPOOL: {
		int mult = pool ? 1 : s->mult;
		int dh = pool ? 1 : s->dil_h, dw = pool ? 1 : s->dil_w;
		for (int b = 0; b < s->batch; b++)
		for (int oy = 0; oy < s->out_h; oy++)
		for (int ox = 0; ox < s->out_w; ox++)
		for (int ic = 0; ic < s->in_c; ic++)
		for (int m = 0; m < mult; m++) {
			read_taps(&o, s, b, oy, ox, ic, dh, dw);
			wr(&o, e++);
		}
		break;
	}
	case DMO_OP_FC: {
		uint64_t k = n / s->batch;
		for (int b = 0; b < s->batch; b++)
		for (int oc = 0; oc < s->out_c; oc++) {
			for (uint64_t d = 0; d < k; d++) /* trans_a: column b */
				rd(&o, s->trans_a ? d * (uint64_t)s->batch + (uint64_t)b : b * k + d);
			wr(&o, e++);
		}
		break;
	}
	case DMO_OP_MATMUL: { /* dk_matmul_f32: row r's K values for each column */
		uint64_t rows = n / (uint64_t)s->in_c;
		for (uint64_t r = 0; r < rows; r++)
		for (int col = 0; col < s->out_c; col++) {
			for (int d = 0; d < s->in_c; d++)
				rd(&o, r * (uint64_t)s->in_c + (uint64_t)d);
			wr(&o, e++);
		}
		break;
	}
	case DMO_OP_RESHAPE: /* byte by byte */
		o.es = o.oes = 1;
		for (uint64_t i = 0; i < dmo_opspec_in_bytes(s); i++) {
			rd(&o, i);
			wr(&o, i);
		}
		break;
	case DMO_OP_SOFTMAX:
		for (uint64_t r = 0; r < n / s->in_c; r++) {
			uint64_t row = r * s->in_c;
			for (int c = 0; c < s->in_c; c++) /* maximum */
				rd(&o, row + c);
			for (int c = 0; c < s->in_c; c++) /* sum of exponentials */
				rd(&o, row + c);
			for (int c = 0; c < s->in_c; c++) {
				rd(&o, row + c);
				wr(&o, row + c);
			}
		}
		break;
	case DMO_OP_MEAN:
	case DMO_OP_QLINEARMEAN:
		for (int b = 0; b < s->batch; b++)
		for (int c = 0; c < s->in_c; c++) {
			for (int y = 0; y < s->in_h; y++)
				for (int x = 0; x < s->in_w; x++)
					rd(&o, in_at(s, b, y, x, c));
			wr(&o, e++);
		}
		break;
	case DMO_OP_PAD:
	case DMO_OP_CONCAT:
	case DMO_OP_TRANSPOSE:
	case DMO_OP_SLICE:
	case DMO_OP_GATHER:
		oracle_layout(&o, s);
		break;
	case DMO_OP_RESIZE:
		/* dk_resize_nearest over NCHW: output (b, c, y, x) in flat
		 * order copies input (b, c, y / scale_h, x / scale_w). */
		for (int b = 0; b < s->batch; b++)
		for (int c = 0; c < s->in_c; c++)
		for (int y = 0; y < s->out_h; y++)
		for (int x = 0; x < s->out_w; x++) {
			rd(&o, (((uint64_t)b * s->in_c + c) * s->in_h + y / s->scale_h) * s->in_w +
				       x / s->scale_w);
			wr(&o, e++);
		}
		break;
	default: /* element-wise (also logistic, quantize, dequantize), flat */
		for (uint64_t i = 0; i < n; i++) {
			rd(&o, i);
			wr(&o, i);
		}
		break;
	}
	return dmo_reducer_os(&o.r);
}

static void check_against_oracle(const char *text)
{
	struct dmo_opspec s;
	struct dmo_algo_result a;
	struct dmo_analytic_result an;
	struct dmo_geom g;
	struct dmo_reducer r;

	parse(text, &s);
	ck_assert_int_eq(dmo_algorithmic(&s, &a), 0);
	ck_assert_int_eq(dmo_analytic(&s, &an), 0);
	uint64_t want = oracle_os(&s);
	ck_assert_msg(a.os == want, "%s: algorithmic %lu, oracle %lu", text,
		      (unsigned long)a.os, (unsigned long)want);
	ck_assert_msg(an.os <= a.os, "%s: analytic %lu > exact %lu", text,
		      (unsigned long)an.os, (unsigned long)a.os);
	/* reshape writes byte by byte (docs/kernels.md) */
	ck_assert_uint_eq(a.steps, s.op == DMO_OP_RESHAPE ? dmo_opspec_out_bytes(&s)
							   : dmo_opspec_out_elems(&s));
	/* The closed forms of formulas.md section 4 are exact. */
	ck_assert_msg(!an.exact || an.os == a.os, "%s: closed form %lu, exact %lu", text,
		      (unsigned long)an.os, (unsigned long)a.os);

	/* The library's own replay mode agrees, event counts included. */
	ck_assert_int_eq(dmo_geom_from_spec(&s, &g), 0);
	dmo_reducer_init(&r, a.in_bytes, a.out_bytes);
	dmo_algorithmic_replay(&g, &r);
	ck_assert_uint_eq(dmo_reducer_os(&r), a.os);
	ck_assert_uint_eq(r.counts[0], a.reads);
	ck_assert_uint_eq(r.counts[3], a.steps);
}

static const char *const small[] = {
	"relu:in=4x4x3", "relu6:in=2x3x3x2,dtype=i8", "add:in=5x5x2,dtype=i16",
	"mul:in=1x1x7,dtype=i32",
	"conv2d:in=8x8x3,k=3,out_c=5,pad=same,stride=2",
	"conv2d:in=7x9x2,k=3x2,out_c=3,pad=valid,stride=1",
	"conv2d:in=2x6x6x4,k=5,out_c=2,pad=same,dil=2",
	"conv2d:in=6x6x1,k=1,out_c=8",
	"conv2d:in=6x6x8,k=1,out_c=1",
	"conv2d:in=9x9x2,k=3,out_c=2,pad=2x1,stride=3",
	"dwconv2d:in=12x12x4,k=3x3,stride=1,pad=same",
	"dwconv2d:in=11x11x3,k=3,stride=2,pad=same,mult=3",
	"dwconv2d:in=10x8x2,k=5x3,stride=1,pad=same,dil=2x1,mult=2,dtype=i8",
	"dwconv2d:in=8x8x2,k=3,stride=2,pad=2x2,dil=2",
	"maxpool:in=9x9x2,k=3,stride=2,pad=same", "avgpool:in=2x7x7x3,k=2,stride=2,pad=valid",
	"avgpool:in=6x6x2,k=3,stride=1,pad=1x2",
	"fc:in=2x10,units=20", "fc:in=10,units=3,dtype=i8", "fc:in=3x4,units=4",
	"reshape:in=2x3x4", "softmax:in=2x3x5,dtype=i8", "softmax:in=1x1x1",
	"logistic:in=3x3x2", "tanh:in=2x3x3x2", "sub:in=2x3x4", "div:in=3x3x2",
	"hardsigmoid:in=2x2x3", "hardswish:in=4x3x1", "clip:in=2x3x3x2", "batchnorm:in=2x3x1x5",
	"leakyrelu:in=2x3x4", "erf:in=3x3x2", "pow:in=2x2x3", "prelu:in=2x3x4", "softmax:in=2x3x4x5,axis=1",
	"logsoftmax:in=2x3x4", "logsoftmax:in=3x4x2,axis=0", "reducemax:in=2x4x3x5", "reducesum:in=3x5x1x2",
	"max:in=2x3x4", "min:in=3x3x2", "scale:in=2x3x4", "powt:in=3x2x2",
	"matmul:in=1x1x3x4,units=5", "matmul:in=2x3x4x5,units=7", "matmul:in=1x2x3x6,units=2",
	"matmul:in=1x1x4x3,units=1", "matmul:in=1x1x1x3,units=1", "matmul:in=1x1x1x2,units=6",
	"convt:in=2x3x4x5,k=2,stride=2,out_c=3,layout=nchw", "convt:in=3x2x2,k=3x2,stride=2x1,out_c=6,layout=nchw",
	"convt:in=2x3x4x10,k=3,stride=2,pad=1x1,out_pad=1x1,group=2,out_c=2,layout=nchw", "mean:in=2x4x3x5", "mean:in=3x3x1", "quantize:in=3x3x3",
	"dequantize:in=3x3x3", "quantize:in=2x2x2,dtype=i16,out_dtype=i8",
	"quantize:in=2x3x3x2,out_dtype=u8", "dequantize:in=2x3x3x2,dtype=u8",
	"dequantize:in=1x1x1,dtype=u8", "dequantize:in=3x2x5,dtype=i32",
	"pad:in=3x4x2,before=1x1,after=1x1", "pad:in=2x3x4x2,before=1x0x2x1,after=0x2x0x3,dtype=i8",
	"pad:in=1x1x1,after=0x0x3", "concat:in=3x3x2,out_c=5,at=0",
	"slice:in=2x4x5x6,before=0x1x0x2,after=1x0x2x1", "slice:in=3x4x2,before=0x0x1,dtype=i8",
	"slice:in=1x1x1x12,before=0x0x0x2,after=0x0x0x1,step=1x1x1x-1",
	"slice:in=2x6x7x3,before=1x0x1x0,after=0x1x0x1,step=1x-2x3x-1,dtype=i16",
	"concat:in=2x2x2x3,out_c=7,at=4,dtype=i16", "transpose:in=1x3x8x8,perm=0x2x3x1",
	"transpose:in=2x3x4x5,perm=3x1x0x2,dtype=i8", "transpose:in=4x5x6,perm=1x0x2",
	"conv2d:in=8x8x3,k=3,out_c=4,pad=1x1,layout=nchw",
	"conv2d:in=2x9x7x3,k=3x2,out_c=5,pad=same,stride=2,dil=2x1,layout=nchw",
	"dwconv2d:in=2x10x8x3,k=3,stride=2,pad=same,mult=2,layout=nchw",
	"maxpool:in=9x9x2,k=3,stride=2,pad=same,layout=nchw",
	"avgpool:in=2x6x6x2,k=3,stride=1,pad=1x1,layout=nchw",
	"conv2d:in=2x8x8x3,k=3,out_c=4,pad=1x1,dtype=i8,layout=nchw",
	"dwconv2d:in=3x5x5x2,k=3,stride=2,mult=3,dtype=u8,layout=nchw",
	"conv2d:in=2x7x6x6,k=3,out_c=9,pad=1x0x2x1,group=3,layout=nchw",
	"conv2d:in=2x6x6x4,k=3,out_c=6,group=2,dtype=i8,layout=nchw",
	"dwconv2d:in=9x8x3,k=3,stride=2,pad=0x1x2x1,mult=2", "maxpool:in=7x7x2,k=3,stride=2,pad=1x1x0x0",
	"maxpool:in=2x9x8x3,k=2x3,dil=2,stride=1x2,pad=1x0x0x2,layout=nchw",
};

START_TEST(test_small_configs)
{
	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
		check_against_oracle(small[i]);
}
END_TEST

START_TEST(test_golden)
{
	struct dmo_opspec s;
	struct dmo_algo_result a;
	struct dmo_analytic_result an;

	parse(GOLDEN, &s);
	ck_assert_int_eq(dmo_algorithmic(&s, &a), 0);
	ck_assert_int_eq(dmo_analytic(&s, &an), 0);
	ck_assert_uint_eq(a.out_bytes, 1204224);
	ck_assert_uint_eq(a.os, 1204224);
	ck_assert_uint_eq(an.os, 1193376);
	ck_assert_uint_eq(a.os - an.os, 10848);
	ck_assert_uint_eq(oracle_os(&s), 1204224);
}
END_TEST

START_TEST(test_elementwise_in_place)
{
	struct dmo_opspec s;
	struct dmo_algo_result a;
	struct dmo_analytic_result an;

	parse("relu:in=16x16x8", &s);
	dmo_algorithmic(&s, &a);
	dmo_analytic(&s, &an);
	ck_assert_uint_eq(a.os, a.out_bytes);
	ck_assert_uint_eq(an.os, a.out_bytes);
}
END_TEST

/* The curves reproduce the exact value and have the documented shape. */
struct curve_check {
	uint64_t steps, last_w, in_bytes, out_bytes;
	int64_t min_d;
	int monotone;
};

static int on_step(void *ctx, uint64_t step, uint64_t min_read, uint64_t max_write)
{
	struct curve_check *c = ctx;
	int64_t d = (int64_t)min_read - (int64_t)max_write;
	if (step != c->steps + 1 || max_write < c->last_w)
		c->monotone = 0;
	if (c->steps == 0 || d < c->min_d)
		c->min_d = d;
	c->steps = step;
	c->last_w = max_write;
	return 0;
}

static int stop_at_3(void *ctx, uint64_t step, uint64_t min_read, uint64_t max_write)
{
	(void)min_read, (void)max_write;
	*(uint64_t *)ctx = step;
	return step == 3 ? 42 : 0;
}

START_TEST(test_curves)
{
	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
		struct dmo_opspec s;
		struct dmo_geom g;
		struct dmo_algo_result a;
		struct curve_check c = { .monotone = 1 };

		parse(small[i], &s);
		dmo_geom_from_spec(&s, &g);
		dmo_algorithmic_geom(&g, &a);
		ck_assert_int_eq(dmo_algorithmic_curves(&g, on_step, &c), 0);
		ck_assert(c.monotone);
		ck_assert_uint_eq(c.steps, a.steps);
		ck_assert_uint_eq(c.last_w, a.out_bytes);
		int64_t raw = (int64_t)a.out_bytes + c.min_d;
		uint64_t limit = a.in_bytes < a.out_bytes ? a.in_bytes : a.out_bytes;
		uint64_t os = raw < 0 ? 0 : (uint64_t)raw > limit ? limit : (uint64_t)raw;
		ck_assert_msg(os == a.os, "%s: curves give %lu, exact %lu", small[i],
			      (unsigned long)os, (unsigned long)a.os);
	}

	struct dmo_opspec s;
	struct dmo_geom g;
	uint64_t last = 0;
	parse("relu:in=1x2x5", &s);
	dmo_geom_from_spec(&s, &g);
	ck_assert_int_eq(dmo_algorithmic_curves(&g, stop_at_3, &last), 42);
	ck_assert_uint_eq(last, 3);
}
END_TEST

START_TEST(test_bad_spec)
{
	struct dmo_opspec s;
	struct dmo_geom g;
	struct dmo_algo_result a;
	struct dmo_analytic_result an;

	parse("relu:in=1x1x4", &s);
	s.in_c = 0;
	ck_assert_int_eq(dmo_geom_from_spec(&s, &g), -1);
	ck_assert_int_eq(dmo_algorithmic(&s, &a), -1);
	ck_assert_int_eq(dmo_analytic(&s, &an), -1);
	parse("relu:in=1x1x4", &s);
	s.op = DMO_OP_COUNT;
	ck_assert_int_eq(dmo_algorithmic(&s, &a), -1);
}
END_TEST

/* Randomized sweep (fixed seed, so a failure reproduces). */
static unsigned rnd(unsigned *state, unsigned lo, unsigned hi)
{
	*state = *state * 1103515245u + 12345u;
	return lo + (*state >> 8) % (hi - lo + 1);
}

/* A slice's step: -3 to 3, not 0. */
static int nonzero_step(unsigned *st)
{
	int s = (int)rnd(st, 1, 6) - 3;

	return s <= 0 ? s - 1 : s;
}

static void random_spec(unsigned *st, char *buf, size_t len)
{
	static const char *const ops[] = { "conv2d", "dwconv2d", "maxpool", "avgpool",
					   "fc", "relu", "relu6", "add", "mul", "reshape",
					   "softmax", "logistic", "mean", "quantize", "dequantize",
					   "pad", "concat", "transpose", "tanh", "sub", "div",
					   "hardsigmoid", "hardswish", "clip", "batchnorm",
					   "resize", "convt", "leakyrelu", "elu", "selu", "exp", "log",
					   "sqrt", "neg", "abs", "reciprocal", "softplus", "erf", "floor",
					   "ceil", "pow", "prelu", "logsoftmax", "reducemax", "reducemin",
					   "reducesum", "max", "min", "slice", "matmul", "scale", "powt",
					   "qlinearadd", "qlinearmul", "qlinearmean", "qlinearavgpool", "gather" };
	static const char *const dtypes[] = { "f32", "i8", "i16", "i32" };
	unsigned k = rnd(st, 0, sizeof ops / sizeof ops[0] - 1);
	const char *op = ops[k];
	const char *dt = dtypes[rnd(st, 0, 3)];

	/* tanh and ONNX's ops but resize, slice and gather: f32 their only
	 * kernel */
	if (k >= 18 && strcmp(op, "resize") && strcmp(op, "slice") && strcmp(op, "gather"))
		dt = "f32";
	/* ONNX Runtime's QOperator ops: u8 and i8 */
	if (!strncmp(op, "qlinear", 7))
		dt = rnd(st, 0, 1) ? "u8" : "i8";
	unsigned n = rnd(st, 1, 2), h = rnd(st, 1, 16), w = rnd(st, 1, 16), c = rnd(st, 1, 8);
	char pad[32];
	unsigned kh = rnd(st, 1, 7), kw = rnd(st, 1, 7);

	switch (rnd(st, 0, 3)) {
	case 0: snprintf(pad, sizeof pad, "same"); break;
	case 1: snprintf(pad, sizeof pad, "valid"); break;
	case 2: snprintf(pad, sizeof pad, "%ux%u", rnd(st, 0, kh - 1), rnd(st, 0, kw - 1)); break;
	default: /* asymmetric: top, left, bottom, right (formulas.md 3.10) */
		snprintf(pad, sizeof pad, "%ux%ux%ux%u", rnd(st, 0, kh - 1), rnd(st, 0, kw - 1),
			 rnd(st, 0, kh - 1), rnd(st, 0, kw - 1));
		break;
	}
	unsigned sh = rnd(st, 1, 3), sw = rnd(st, 1, 3), dh = rnd(st, 1, 2), dw = rnd(st, 1, 2);
	/* The windowed ops in NCHW half of the time; an NCHW conv2d in
	 * groups (formulas.md 3.9) half of that: a divisor of C. */
	const char *layout = rnd(st, 0, 1) ? ",layout=nchw" : "";
	unsigned group = 1;
	for (unsigned g = c; *layout && g > 1 && rnd(st, 0, 1); g--)
		if (c % g == 0)
			group = g;
	if (!strcmp(op, "conv2d"))
		snprintf(buf, len, "conv2d:in=%ux%ux%ux%u,k=%ux%u,stride=%ux%u,dil=%ux%u,pad=%s,out_c=%u,group=%u,dtype=%s%s",
			 n, h, w, c, kh, kw, sh, sw, dh, dw, pad, group * rnd(st, 1, 4), group, dt, layout);
	else if (!strcmp(op, "dwconv2d"))
		snprintf(buf, len, "dwconv2d:in=%ux%ux%ux%u,k=%ux%u,stride=%ux%u,dil=%ux%u,pad=%s,mult=%u,dtype=%s%s",
			 n, h, w, c, kh, kw, sh, sw, dh, dw, pad, rnd(st, 1, 4), dt, layout);
	else if (!strcmp(op, "maxpool") && *layout) /* ONNX's MaxPool: dilated in NCHW */
		snprintf(buf, len, "maxpool:in=%ux%ux%ux%u,k=%ux%u,stride=%ux%u,dil=%ux%u,pad=%s,dtype=%s%s",
			 n, h, w, c, kh, kw, sh, sw, dh, dw, pad, dt, layout);
	else if (!strcmp(op, "maxpool") || !strcmp(op, "avgpool") || !strcmp(op, "qlinearavgpool"))
		snprintf(buf, len, "%s:in=%ux%ux%ux%u,k=%ux%u,stride=%ux%u,pad=%s,dtype=%s%s",
			 op, n, h, w, c, kh, kw, sh, sw, pad, dt, layout);
	else if (!strcmp(op, "convt")) { /* NCHW its only kernel; pads at most half the dilated kernel */
		unsigned g = c % 2 == 0 && rnd(st, 0, 1) ? 2 : 1;
		unsigned ph = (kh - 1) * dh / 2, pw = (kw - 1) * dw / 2;

		snprintf(buf, len, "convt:in=%ux%ux%ux%u,k=%ux%u,stride=%ux%u,dil=%ux%u,pad=%ux%ux%ux%u,"
				   "out_pad=%ux%u,group=%u,out_c=%u,dtype=%s,layout=nchw",
			 n, h, w, c, kh, kw, sh, sw, dh, dw, rnd(st, 0, ph), rnd(st, 0, pw), rnd(st, 0, ph),
			 rnd(st, 0, pw), rnd(st, 0, sh - 1), rnd(st, 0, sw - 1), g, g * rnd(st, 1, 4), dt);
	}
	else if (!strcmp(op, "fc"))
		snprintf(buf, len, "fc:in=%ux%u,units=%u,dtype=%s,trans_a=%u", rnd(st, 1, 3),
			 rnd(st, 1, 64), rnd(st, 1, 64), dt, rnd(st, 0, 1));
	else if (!strcmp(op, "quantize") || !strcmp(op, "dequantize"))
		snprintf(buf, len, "%s:in=%ux%ux%ux%u,dtype=%s,out_dtype=%s", op, n, h, w, c, dt,
			 dtypes[rnd(st, 0, 3)]);
	else if (!strcmp(op, "matmul")) /* B's rows K: in's C */
		snprintf(buf, len, "matmul:in=%ux%ux%ux%u,units=%u,dtype=f32", n, rnd(st, 1, 3), h,
			 rnd(st, 1, 24), rnd(st, 1, 24));
	else if (!strcmp(op, "slice")) /* steps -3 to 3, not 0 */
		snprintf(buf, len,
			 "slice:in=%ux%ux%ux%u,before=%ux%ux%ux%u,after=%ux%ux%ux%u,dtype=%s,step=%dx%dx%dx%d",
			 n, h, w, c, rnd(st, 0, n - 1), rnd(st, 0, (h - 1) / 2), rnd(st, 0, (w - 1) / 2),
			 rnd(st, 0, (c - 1) / 2), 0, rnd(st, 0, (h - 1) / 2), rnd(st, 0, (w - 1) / 2),
			 rnd(st, 0, (c - 1) / 2), dt, nonzero_step(st), nonzero_step(st), nonzero_step(st),
			 nonzero_step(st));
	else if (!strcmp(op, "gather")) { /* 1 to 6 columns of W, any order */
		int at = snprintf(buf, len, "gather:in=%ux%ux%ux%u,dtype=%s,indices=%u", n, h, w, c, dt,
				  rnd(st, 0, w - 1));
		for (unsigned i = rnd(st, 1, 6); i > 1 && at < (int)len; i--)
			at += snprintf(buf + at, len - (size_t)at, "x%u", rnd(st, 0, w - 1));
	} else if (!strcmp(op, "pad"))
		snprintf(buf, len, "pad:in=%ux%ux%ux%u,before=%ux%ux%ux%u,after=%ux%ux%ux%u,dtype=%s",
			 n, h, w, c, rnd(st, 0, 1), rnd(st, 0, 3), rnd(st, 0, 3), rnd(st, 0, 3),
			 rnd(st, 0, 1), rnd(st, 0, 3), rnd(st, 0, 3), rnd(st, 0, 3), dt);
	else if (!strcmp(op, "concat")) {
		unsigned at = rnd(st, 0, 6);
		snprintf(buf, len, "concat:in=%ux%ux%ux%u,out_c=%u,at=%u,dtype=%s", n, h, w, c,
			 c + at + rnd(st, 0, 6), at, dt);
	} else if (!strcmp(op, "transpose")) {
		unsigned p[4] = { 0, 1, 2, 3 };
		for (unsigned i = 3; i > 0; i--) { /* Fisher-Yates */
			unsigned j = rnd(st, 0, i), t = p[i];
			p[i] = p[j], p[j] = t;
		}
		snprintf(buf, len, "transpose:in=%ux%ux%ux%u,perm=%ux%ux%ux%u,dtype=%s", n, h, w,
			 c, p[0], p[1], p[2], p[3], dt);
	} else if (!strcmp(op, "resize"))
		snprintf(buf, len, "resize:in=%ux%ux%ux%u,scale=%ux%u,dtype=%s", n, h, w, c, sh, sw, dt);
	else if (!strcmp(op, "softmax") || !strcmp(op, "logsoftmax")) /* any axis */
		snprintf(buf, len, "%s:in=%ux%ux%ux%u,dtype=%s,axis=%u", op, n, h, w, c, dt,
			 rnd(st, 0, 3));
	else
		snprintf(buf, len, "%s:in=%ux%ux%ux%u,dtype=%s", op, n, h, w, c, dt);
}

START_TEST(test_sweep)
{
	enum { WANT = 8000 };
	unsigned st = 20201004u;
	unsigned accepted = 0, rejected = 0, replayed = 0, per_op[DMO_OP_COUNT] = { 0 };
	double sum[DMO_OP_COUNT] = { 0 }, max[DMO_OP_COUNT] = { 0 }, all_sum = 0, all_max = 0;
	char text[256], err[256];

	while (accepted < WANT) {
		struct dmo_opspec s;
		struct dmo_algo_result a;
		struct dmo_analytic_result an;

		random_spec(&st, text, sizeof text);
		if (dmo_opspec_parse(text, &s, err, sizeof err)) {
			rejected++;
			continue;
		}
		accepted++;
		ck_assert_int_eq(dmo_algorithmic(&s, &a), 0);
		ck_assert_int_eq(dmo_analytic(&s, &an), 0);
		ck_assert_msg(an.os <= a.os, "%s: analytic %lu > exact %lu", text,
			      (unsigned long)an.os, (unsigned long)a.os);
		ck_assert_msg(!an.exact || an.os == a.os, "%s: closed form %lu, exact %lu", text,
			      (unsigned long)an.os, (unsigned long)a.os);
		if (accepted % 2 == 0) {
			uint64_t want = oracle_os(&s);
			ck_assert_msg(a.os == want, "%s: algorithmic %lu, oracle %lu", text,
				      (unsigned long)a.os, (unsigned long)want);
			replayed++;
		}
		double pen = (double)(a.os - an.os) / (double)a.out_bytes;
		per_op[s.op]++;
		sum[s.op] += pen;
		all_sum += pen;
		if (pen > max[s.op])
			max[s.op] = pen;
		if (pen > all_max)
			all_max = pen;
	}
	printf("sweep: %u configs (%u rejected by the parser), %u replayed through the reducer\n",
	       accepted, rejected, replayed);
	printf("analytic penalty (exact - analytic) / OB: mean %.3f %%, max %.3f %%\n",
	       100 * all_sum / accepted, 100 * all_max);
	for (int op = 0; op < DMO_OP_COUNT; op++)
		if (per_op[op])
			printf("  %-9s %5u configs  mean %7.3f %%  max %7.3f %%\n",
			       dmo_op_name(op), per_op[op], 100 * sum[op] / per_op[op],
			       100 * max[op]);
	for (int op = 0; op < DMO_OP_COUNT; op++)
		ck_assert_msg(per_op[op] >= 100, "too few %s configs", dmo_op_name(op));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("methods");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_small_configs);
	tcase_add_test(tc, test_golden);
	tcase_add_test(tc, test_elementwise_in_place);
	tcase_add_test(tc, test_curves);
	tcase_add_test(tc, test_bad_spec);
	tcase_add_test(tc, test_sweep);
	suite_add_tcase(s, tc);

	return dmo_run_suite(s);
}
