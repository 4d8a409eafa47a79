/* dmo/backend.h - the backend ABI: how dmo runs one op of a kernel library
 * (a "backend") on the caller's input and output buffers, so that the
 * library's own kernel is what the dmo tool profiles and what `dmo verify`
 * runs overlapped.
 *
 * A backend is a shared object named dmo-backend-NAME.so that exports one
 * function, dmo_backend_v2() (or, written for version 1 of this ABI,
 * dmo_backend_v1()), returning its descriptor.  dmo loads it with dlopen.
 * The lifecycle of one op:
 *
 *   prepare  outside the layer: build the library's operator from the op
 *            (geometry, quantisation and the caller's weights; copy or
 *            repack them as the library likes) and allocate its scratch
 *            memory, or refuse it with the reason;
 *   run      inside the layer: compute OUT from IN (and the op's second
 *            operand) exactly once, reading and writing the caller's
 *            buffers themselves - no copy of IN or OUT in between, since
 *            that copy is what the tool would measure (a library that must
 *            copy sets DMO_BACKEND_COPIES and is not profiled) - on the
 *            calling thread alone, unless dmo asked for more (below);
 *   release  free what prepare made.
 *
 * IN and OUT may overlap (that is the point): a backend must not check for
 * it, nor assume they do not alias.  They are aligned to at least the
 * descriptor's ALIGNMENT.  Everything is plain C, so a backend can be
 * written in any language with a C ABI.  The ABI changes only with its
 * version number; dmo refuses a descriptor of a version it does not know.
 *
 * Version 2 appended to version 1's structures, so a version 1 plugin
 * still loads: its descriptor is the prefix up to FLAGS, and it is handed
 * the same struct dmo_backend_op, of which it reads the version 1 members.
 * dmo gives a version 1 plugin f32 ops only (it has no quantisation) and
 * asks it for no scratch size. */
#ifndef DMO_BACKEND_H
#define DMO_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMO_BACKEND_ABI_VERSION 2
/* What a version 1 descriptor (exported as dmo_backend_v1) carries. */
#define DMO_BACKEND_ABI_VERSION_1 1

/* The integer quantisation of an i8 or i16 op (version 2), as TFLite's
 * integer kernels take it and as dmo's reference kernels compute with it.
 * A real value r of a tensor with scale s and zero point z is stored as
 * q = r / s + z.  A multiplier/shift pair encodes the real factor
 * mult * 2^(shift - 31), mult in [2^30, 2^31) or 0 (TFLite's
 * QuantizeMultiplier); requantising rounds twice (TFLite's default
 * MultiplyByQuantizedMultiplier) unless SINGLE_ROUNDING is 1. */
struct dmo_backend_quant {
	/* Zero points: input, second add/mul operand, filter (0 for i8 conv/fc,
	 * which TFLite requires symmetric), output. */
	int32_t in_zero, in2_zero, filter_zero, out_zero;
	/* The tensors' scales when dmo has them (a layer of a model); 0 for an
	 * op spec, whose quantisation is given by the factors below only. */
	float in_scale, in2_scale, out_scale;
	/* Accumulator to output: in_scale * filter_scale / out_scale for conv,
	 * dwconv and fc, in_scale * in2_scale / out_scale for mul, in_scale /
	 * out_scale for relu/relu6; for add, of the rescaled sum. */
	int32_t out_mult, out_shift;
	/* Per output channel (conv, dwconv, fc with per-axis filter scales):
	 * out_c entries each, or NULL when OUT_MULT/OUT_SHIFT hold for all. */
	const int32_t *out_mults, *out_shifts;
	/* add: both operands, minus their zero points, are shifted left by
	 * LEFT_SHIFT (20 for i8) and rescaled to a common scale by
	 * (in_mult, in_shift) and (in2_mult, in2_shift), then by OUT. */
	int32_t left_shift, in_mult, in_shift, in2_mult, in2_shift;
	/* softmax (i8): in_mult/in_shift scale beta * in_scale to Q5.26 (a
	 * left shift, in_shift >= 0), DIFF_MIN is the smallest in - row_max
	 * still counted; the output has scale 1/256 and zero point -128. */
	int32_t diff_min;
	/* Clamp of every output, in output units (fused activation, narrowed
	 * to the output type; relu6's quantised 6 is act_max). */
	int32_t act_min, act_max;
	int32_t single_rounding;
};

/* One op, fully resolved: dmo parsed the op spec, derived the output shape
 * (TensorFlow's rules) and the padding, and made the weights.  Tensors are
 * NHWC and dense, batch x in_h x in_w x in_c in, batch x out_h x out_w x
 * out_c out; fc reads batch rows of in_h * in_w * in_c values.  Weights use
 * TFLite's layouts: conv2d filter [out_c][k_h][k_w][in_c], dwconv2d
 * [k_h][k_w][in_c * mult] (out channel c * mult + m), fc [out_c][K]; bias
 * [out_c].  add and mul take IN2 (same shape as IN) as second operand. */
struct dmo_backend_op {
	const char *spec;  /* the canonical op spec text */
	const char *op;    /* relu relu6 add mul conv2d dwconv2d maxpool avgpool fc,
			    * and from version 2 softmax (rows of in_c values) */
	const char *dtype; /* f32 i8 i16 i32 */
	int batch, in_h, in_w, in_c;
	int out_h, out_w, out_c;
	int k_h, k_w, stride_h, stride_w, dil_h, dil_w;
	int pad_top, pad_left, pad_bottom, pad_right;
	int mult;
	size_t in_bytes, out_bytes;
	const void *filter, *bias, *in2; /* the caller's, valid until release */
	/* Version 2: the integer quantisation (filter int8, bias int32 for i8
	 * and int64 for i16); NULL for f32.  Valid until release. */
	const struct dmo_backend_quant *quant;
};

struct dmo_backend {
	/* DMO_BACKEND_ABI_VERSION from dmo_backend_v2,
	 * DMO_BACKEND_ABI_VERSION_1 from dmo_backend_v1 */
	unsigned abi_version;
	const char *name;     /* e.g. "xnnpack" */
	size_t alignment;     /* IN and OUT must be aligned to this (1 = any) */
	/* Once, before anything else.  ISA caps the instruction set the library
	 * may dispatch to ("sse4", "avx", "avx2"; NULL = the library's choice),
	 * so that a native run and a run under Valgrind, whose virtual CPU has
	 * other features, pick the same kernels.  0, or -1 with ERR. */
	int (*init)(const char *isa, char *err, size_t err_len);
	/* The library and its version, e.g. "oneDNN 2.6.0". */
	const char *(*version)(void);
	/* The instruction set the library dispatches to after init. */
	const char *(*isa)(void);
	/* NULL with the reason in ERR when the library cannot run OP. */
	void *(*prepare)(const struct dmo_backend_op *op, char *err, size_t err_len);
	/* The implementation the library chose for a prepared op (e.g.
	 * oneDNN's "jit:avx2"); may return "". */
	const char *(*implementation)(void *prepared);
	/* 0, or -1 when the library failed. */
	int (*run)(void *prepared, const void *in, void *out);
	void (*release)(void *prepared);
	/* DMO_BACKEND_COPIES: run copies IN or OUT through buffers of its own,
	 * so the tool would measure the copies, not the kernel; dmo then runs
	 * the backend in `dmo verify` only and refuses to profile it. */
	unsigned flags;
	/* ---- version 2 ---- */
	/* Bytes of scratch memory the library uses while it runs the prepared
	 * op (beside IN and OUT; TFLite Micro plans it in the arena for the
	 * op's duration).  prepare allocated it; NULL means 0. */
	size_t (*scratch_bytes)(void *prepared);
};

#define DMO_BACKEND_COPIES 1u

/* The symbol a backend exports: one of the two. */
const struct dmo_backend *dmo_backend_v2(void);
const struct dmo_backend *dmo_backend_v1(void);

/* Optional, beside it, for a library with a thread pool of its own: dmo
 * calls it once after init and before the first prepare, with THREADS >= 1;
 * from then on run computes on the library's own pool of that many threads
 * (pthreadpool, OpenMP), splitting the work as the library does.  0, or -1
 * with ERR.  A backend without it runs on the calling thread alone, and dmo
 * refuses --threads above 1 for it.  Optional, so the ABI version stays 1. */
int dmo_backend_threads_v1(int threads, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
