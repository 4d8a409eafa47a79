/* algorithmic.h - the exact safe overlap O_s of a reference kernel, from an
 * offset-only replica of its loop nest (docs/kernels.md, "Loop orders").  No
 * tensor value is computed: only the offsets the kernel would touch.
 *
 * Every reference op reduces to one loop-nest geometry (struct dmo_geom),
 * which the analytic method (analytic.h) reasons about too.  The derivation of
 * the O(1)-per-step rule is in docs/formulas.md. */
#ifndef DMO_ALGORITHMIC_H
#define DMO_ALGORITHMIC_H

#include <stdint.h>

#include "opspec.h"
#include "os_reducer.h"

/* How an output element picks the input elements it reads. */
enum dmo_geom_kind {
	DMO_GEOM_CONV,  /* every in_c channel of each tap (conv2d, fc) */
	DMO_GEOM_DEPTH, /* channel oc / mult of each tap (dwconv2d, pools,
			 * element-wise ops) */
	DMO_GEOM_FLAT,  /* element t reads input element t, the two of any
			 * sizes (logistic, quantize, dequantize; reshape
			 * byte by byte) */
	DMO_GEOM_ROWS,  /* softmax: a row's first element reads the row
			 * twice, then each element reads its own */
	DMO_GEOM_MEAN,  /* walked as DEPTH with one window over the whole
			 * image (mean over H x W), own closed form */
	DMO_GEOM_GATHER, /* one input element or none per output element:
			  * pad, concat (BEFORE), transpose (PERM) */
	DMO_GEOM_PLANES, /* NCHW windows (layout=nchw conv2d, dwconv2d,
			  * pools): output planes in order, each reading the
			  * in_c / groups input planes of its group */
	DMO_GEOM_IMAGES, /* NCHW 8-bit convolutions (layout=nchw conv2d,
			  * dwconv2d, i8 or u8): per image, its first output
			  * element reads the whole input image, the others
			  * nothing (kernels_nchw_quant.c); convt, ONNX's
			  * ConvTranspose, alike (kernels_convt.c) */
	DMO_GEOM_NEAREST, /* NCHW nearest resize: output element (b, c, y, x)
			   * in flat order reads input element (b, c,
			   * y / scale_h, x / scale_w) */
};

/* A reference loop nest, NHWC, in elements:
 *   for b, out_y, out_x, then (CONV) out_c or (DEPTH) in_c, mult:
 *       read the in-image taps (filter_y, filter_x[, in_c]), write one element.
 * Output elements are written in flat order.  For fc, H=W=1 and in_c is the
 * whole input row; an element-wise op is a 1x1, stride-1 depthwise walk.
 * PLANES is the NCHW loop nest of kernels_nchw.c: for b, out_c, out_y,
 * out_x: read the taps of the group's planes, write one element. */
struct dmo_geom {
	enum dmo_geom_kind kind;
	int batch, in_h, in_w, in_c;
	int out_h, out_w, out_c;
	int k_h, k_w, stride_h, stride_w, dil_h, dil_w;
	int pad_top, pad_left;
	int mult;           /* DEPTH: output channels per input channel */
	uint64_t elem_size; /* bytes per input element */
	uint64_t out_elem_size; /* bytes per output element */
	int out_batch;
	int before[4], perm[4]; /* GATHER, NHWC axes */
	int groups;             /* PLANES: conv2d's group (1 unless grouped) or in_c
				 * (dwconv2d, pools); IMAGES: conv2d's group */
	int scale_h, scale_w;   /* NEAREST: output rows (columns) per input row (column) */
	int trans_a;            /* CONV (fc): the input is K rows of batch, row b
				 * reading column b */
	int matmul;             /* CONV: matmul's rows (batch) of in_c, exact
				 * closed form of formulas.md 4.11 */
	int after[4];           /* GATHER, pad in ONNX Runtime's order */
	int step[4];            /* GATHER: output axis i reads every step[i]-th
				 * input index from -before[i] (slice's steps;
				 * 1 for the others) */
	int n_indices;          /* GATHER: gather's output column w reads input
				 * column indices[w] (0: no index list) */
	int indices[DMO_GATHER_MAX];
	int pad_onnx;           /* GATHER: pad's reflect or edge mode, written
				 * in ONNX Runtime's order (dk_pad_onnx,
				 * formulas.md 4.14) */
};

/* Fill *G from a parsed spec.  Returns 0, or -1 (errno EINVAL) when the spec
 * is inconsistent (unknown op or dtype, non-positive sizes). */
int dmo_geom_from_spec(const struct dmo_opspec *spec, struct dmo_geom *g);

/* Buffer sizes of the profiled input and the output, in bytes. */
uint64_t dmo_geom_in_bytes(const struct dmo_geom *g);
uint64_t dmo_geom_out_bytes(const struct dmo_geom *g);

struct dmo_algo_result {
	uint64_t os;        /* exact O_s in bytes */
	uint64_t in_bytes, out_bytes;
	uint64_t steps;     /* output elements written (= W(O) events) */
	uint64_t reads;     /* R(I) events */
	/* The tightest forbidding pair: OB + minR - maxW before clamping, and
	 * the step (1-based, the number of writes before that read) at which
	 * it occurs.  have_pair == 0 when no read follows a write. */
	int have_pair;
	int64_t raw_bound;
	uint64_t critical_step;
};

/* Exact O_s of the spec's reference kernel, O(1) memory, one pass.  Returns
 * 0, or -1 (errno EINVAL) for an inconsistent spec. */
int dmo_algorithmic(const struct dmo_opspec *spec, struct dmo_algo_result *res);
int dmo_algorithmic_geom(const struct dmo_geom *g, struct dmo_algo_result *res);

/* Brute force: feed every R(I) and W(O) event of the loop nest, in program
 * order, into R (already initialised by the caller with the buffer sizes).
 * Slow; it exists so tests can check dmo_algorithmic against the normative
 * reducer. */
int dmo_algorithmic_replay(const struct dmo_geom *g, struct dmo_reducer *r);

/* Per-step curves for plots.  Step i (1..steps) ends with the i-th W(O):
 * MIN_READ is the smallest input byte offset read after it (in_bytes when no
 * read follows), MAX_WRITE the largest output byte end (exclusive) written up
 * to it, so O_s = clamp(OB + min_i (MIN_READ - MAX_WRITE)).  Needs 8
 * bytes per step.  Returns 0, -1 (errno ENOMEM), or the first non-zero value
 * FN returned (FN is then not called again). */
typedef int (*dmo_curve_fn)(void *ctx, uint64_t step, uint64_t min_read,
			    uint64_t max_write);
int dmo_algorithmic_curves(const struct dmo_geom *g, dmo_curve_fn fn, void *ctx);

#endif
