/* cmsis_nn.c - the `cmsis-nn`, `cmsis-nn-dsp` and `cmsis-nn-dsp-ac6`
 * backends: Arm's CMSIS-NN int8 kernels, compiled from the user's source
 * tree (./configure --with-cmsis-nn=DIR), behind <dmo/backend.h>.
 *
 * One source, built three times (target-harness/backends/local.mk) with
 * CMSIS-NN's own sources under the same flags, because CMSIS-NN picks its
 * code paths at compile time and their O_s differ:
 *   cmsis-nn          the portable C path (no ARM_MATH_DSP);
 *   cmsis-nn-dsp      ARM_MATH_DSP, the path of Cortex-M4/M7/M33, with the
 *                     DSP instructions from target-harness/armdsp/ (C on
 *                     registers: every load and store is CMSIS-NN's own),
 *                     and the branches CMSIS-NN takes under gcc;
 *   cmsis-nn-dsp-ac6  the same with __ARMCC_VERSION defined, so CMSIS-NN
 *                     takes its Arm Compiler 6 branches (e.g. the 2-pixel
 *                     im2col of arm_convolve_1x1_s8_fast).
 * The build defines DMO_CMSIS_NN_NAME (the backend's name), DMO_CMSIS_NN_ISA
 * (what the variant models) and DMO_CMSIS_NN_VERSION (from the tree).
 *
 * The ops are the ones TensorFlow Lite Micro routes to CMSIS-NN, called as
 * its cmsis_nn kernels call them: conv through arm_convolve_wrapper_s8 and
 * depthwise through arm_depthwise_conv_wrapper_s8 (CMSIS-NN's own
 * dispatch), fully connected through arm_fully_connected_wrapper_s8, the
 * pools, element-wise add and mul, softmax.  Scratch buffers are sized by
 * CMSIS-NN's *_get_buffer_size and allocated in prepare.  The kernel a
 * wrapper dispatches to is seen, not guessed: the link wraps each kernel a
 * wrapper can call (-Wl,--wrap), the wrapper below notes its name, and
 * prepare runs the op once on zeroed buffers of its own. */
#include <stdint.h>
#include <stdlib.h>

#include <arm_nnfunctions.h>

#include "plugin.h"

enum cmsis_op { CONV, DWCONV, FC, AVGPOOL, MAXPOOL, ADD, MUL, SOFTMAX };

struct cmsis_layer {
	enum cmsis_op kind;
	cmsis_nn_context ctx;         /* the scratch buffer (buf NULL, size 0: none) */
	cmsis_nn_conv_params conv;
	cmsis_nn_dw_conv_params dw;
	cmsis_nn_fc_params fc;
	cmsis_nn_pool_params pool;
	cmsis_nn_per_channel_quant_params per_channel;
	cmsis_nn_quant_params fc_quant;
	cmsis_nn_dims in_dims, filter_dims, bias_dims, out_dims;
	const int8_t *filter, *in2;
	const int32_t *bias;
	struct dmo_backend_quant q;
	int32_t rows, row_size;       /* softmax */
	int32_t elements;             /* add, mul */
	char kernel[128];             /* the CMSIS-NN functions that run the op */
};

/* The kernels a wrapper call reached, in call order ("arm_convolve_1_x_n_s8
 * > arm_convolve_s8" when one falls back on another; see the file
 * comment), noted while OBSERVING only (prepare's dry run, not the layer). */
static char dispatched[128];
static int observing;

static void note_kernel(const char *name)
{
	size_t used = strlen(dispatched);

	if (!observing)
		return;
	snprintf(dispatched + used, sizeof dispatched - used, "%s%s", used ? " > " : "", name);
}

#define WRAP(name, params, args)                         \
	arm_cmsis_nn_status __real_##name params;        \
	arm_cmsis_nn_status __wrap_##name params;        \
	arm_cmsis_nn_status __wrap_##name params         \
	{                                                \
		note_kernel(#name);                      \
		return __real_##name args;               \
	}
#define CONV_PARAMS                                                                              \
	(const cmsis_nn_context *c, const cmsis_nn_conv_params *p,                               \
	 const cmsis_nn_per_channel_quant_params *q, const cmsis_nn_dims *id, const int8_t *in,  \
	 const cmsis_nn_dims *fd, const int8_t *f, const cmsis_nn_dims *bd, const int32_t *b,    \
	 const cmsis_nn_dims *od, int8_t *out)
#define DW_PARAMS                                                                                \
	(const cmsis_nn_context *c, const cmsis_nn_dw_conv_params *p,                            \
	 const cmsis_nn_per_channel_quant_params *q, const cmsis_nn_dims *id, const int8_t *in,  \
	 const cmsis_nn_dims *fd, const int8_t *f, const cmsis_nn_dims *bd, const int32_t *b,    \
	 const cmsis_nn_dims *od, int8_t *out)
#define FC_PARAMS(quant)                                                                         \
	(const cmsis_nn_context *c, const cmsis_nn_fc_params *p, const quant *q,                 \
	 const cmsis_nn_dims *id, const int8_t *in, const cmsis_nn_dims *fd, const int8_t *f,    \
	 const cmsis_nn_dims *bd, const int32_t *b, const cmsis_nn_dims *od, int8_t *out)
#define ARGS (c, p, q, id, in, fd, f, bd, b, od, out)

WRAP(arm_convolve_1x1_s8_fast, CONV_PARAMS, ARGS)
WRAP(arm_convolve_1x1_s8, CONV_PARAMS, ARGS)
WRAP(arm_convolve_1_x_n_s8, CONV_PARAMS, ARGS)
WRAP(arm_convolve_s8,
     (const cmsis_nn_context *c, const cmsis_nn_conv_params *p,
      const cmsis_nn_per_channel_quant_params *q, const cmsis_nn_dims *id, const int8_t *in,
      const cmsis_nn_dims *fd, const int8_t *f, const cmsis_nn_dims *bd, const int32_t *b,
      const cmsis_nn_dims *ud, const cmsis_nn_dims *od, int8_t *out),
     (c, p, q, id, in, fd, f, bd, b, ud, od, out))
WRAP(arm_depthwise_conv_3x3_s8, DW_PARAMS, ARGS)
WRAP(arm_depthwise_conv_s8_opt, DW_PARAMS, ARGS)
WRAP(arm_depthwise_conv_s8, DW_PARAMS, ARGS)
WRAP(arm_fully_connected_s8, FC_PARAMS(cmsis_nn_per_tensor_quant_params), ARGS)
WRAP(arm_fully_connected_per_channel_s8, FC_PARAMS(cmsis_nn_per_channel_quant_params), ARGS)

static int cmsis_init(const char *isa, char *err, size_t err_len)
{
	(void)isa; /* compiled C for an Arm core: nothing on x86 to dispatch */
	(void)err;
	(void)err_len;
	return 0;
}

static const char *cmsis_version(void)
{
	return DMO_CMSIS_NN_VERSION;
}

static const char *cmsis_isa(void)
{
	return DMO_CMSIS_NN_ISA;
}

static int parse_kind(const struct dmo_backend_op *op, enum cmsis_op *kind)
{
	static const char *const names[] = { "conv2d", "dwconv2d", "fc", "avgpool",
					     "maxpool", "add", "mul", "softmax" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (op_is(op, names[i])) {
			*kind = (enum cmsis_op)i;
			return 0;
		}
	return -1;
}

/* Why CMSIS-NN cannot run OP as TFLM would call it, or NULL. */
static const char *refusal(const struct dmo_backend_op *op, enum cmsis_op *kind)
{
	const struct dmo_backend_quant *q = op->quant;

	if (parse_kind(op, kind) != 0)
		return "TFLM routes only conv2d, dwconv2d, fc, avgpool, maxpool, add, mul and "
		       "softmax to CMSIS-NN";
	if (strcmp(op->dtype, "i8") != 0 || q == NULL)
		return "the CMSIS-NN backends run int8 ops only";
	if (q->single_rounding)
		return "CMSIS-NN as TFLM builds it requantises with two roundings, not one";
	if (q->filter_zero != 0)
		return "CMSIS-NN takes symmetric int8 filters only (filter zero point 0)";
	if (*kind == SOFTMAX && q->in_shift < 0)
		return "the softmax input factor needs a right shift, which CMSIS-NN cannot take";
	return NULL;
}

/* Output channel c's multiplier and shift, per tensor or per channel. */
static int fill_per_channel(struct cmsis_layer *l, int out_c)
{
	l->per_channel.multiplier = malloc(sizeof(int32_t) * (size_t)out_c);
	l->per_channel.shift = malloc(sizeof(int32_t) * (size_t)out_c);
	if (l->per_channel.multiplier == NULL || l->per_channel.shift == NULL)
		return -1;
	for (int c = 0; c < out_c; c++) {
		l->per_channel.multiplier[c] = l->q.out_mults ? l->q.out_mults[c] : l->q.out_mult;
		l->per_channel.shift[c] = l->q.out_shifts ? l->q.out_shifts[c] : l->q.out_shift;
	}
	return 0;
}

/* CMSIS-NN's parameter structures for OP, as TFLM's cmsis_nn kernels fill
 * them; returns the scratch size CMSIS-NN asks for. */
static int32_t describe(struct cmsis_layer *l, const struct dmo_backend_op *op)
{
	const struct dmo_backend_quant *q = op->quant;
	const cmsis_nn_activation act = { q->act_min, q->act_max };
	const cmsis_nn_tile stride = { op->stride_w, op->stride_h };
	const cmsis_nn_tile padding = { op->pad_left, op->pad_top };
	const cmsis_nn_tile dilation = { op->dil_w, op->dil_h };

	l->in_dims = (cmsis_nn_dims){ op->batch, op->in_h, op->in_w, op->in_c };
	l->out_dims = (cmsis_nn_dims){ op->batch, op->out_h, op->out_w, op->out_c };
	l->bias_dims = (cmsis_nn_dims){ 1, 1, 1, op->out_c };
	l->filter = op->filter;
	l->bias = op->bias;
	l->in2 = op->in2;
	switch (l->kind) {
	case CONV:
		l->filter_dims = (cmsis_nn_dims){ op->out_c, op->k_h, op->k_w, op->in_c };
		l->conv = (cmsis_nn_conv_params){ -q->in_zero, q->out_zero, stride, padding,
						  dilation, act };
		return arm_convolve_wrapper_s8_get_buffer_size(&l->conv, &l->in_dims,
							       &l->filter_dims, &l->out_dims);
	case DWCONV:
		l->filter_dims = (cmsis_nn_dims){ 1, op->k_h, op->k_w, op->out_c };
		l->dw = (cmsis_nn_dw_conv_params){ -q->in_zero, q->out_zero, op->mult, stride,
						   padding, dilation, act };
		return arm_depthwise_conv_wrapper_s8_get_buffer_size(&l->dw, &l->in_dims,
								     &l->filter_dims, &l->out_dims);
	case FC:
		l->in_dims = (cmsis_nn_dims){ op->batch, 1, 1, op->in_h * op->in_w * op->in_c };
		l->filter_dims = (cmsis_nn_dims){ l->in_dims.c, 1, 1, op->out_c };
		l->out_dims = (cmsis_nn_dims){ op->batch, 1, 1, op->out_c };
		l->fc = (cmsis_nn_fc_params){ -q->in_zero, -q->filter_zero, q->out_zero, act };
		l->fc_quant = (cmsis_nn_quant_params){ l->per_channel.multiplier,
						       l->per_channel.shift, q->out_mults != NULL };
		return arm_fully_connected_s8_get_buffer_size(&l->filter_dims);
	case AVGPOOL:
	case MAXPOOL:
		l->filter_dims = (cmsis_nn_dims){ 1, op->k_h, op->k_w, 1 };
		l->pool = (cmsis_nn_pool_params){ stride, padding, act };
		return l->kind == AVGPOOL ? arm_avgpool_s8_get_buffer_size(op->out_w, op->in_c) : 0;
	case SOFTMAX:
		l->rows = op->batch * op->in_h * op->in_w;
		l->row_size = op->in_c;
		return 0;
	default: /* add, mul */
		l->elements = op->batch * op->in_h * op->in_w * op->in_c;
		return 0;
	}
}

/* One call of the op's CMSIS-NN function. */
static arm_cmsis_nn_status compute(const struct cmsis_layer *l, const int8_t *in, int8_t *out)
{
	const struct dmo_backend_quant *q = &l->q;

	switch (l->kind) {
	case CONV:
		return arm_convolve_wrapper_s8(&l->ctx, &l->conv, &l->per_channel, &l->in_dims, in,
					       &l->filter_dims, l->filter, &l->bias_dims, l->bias,
					       &l->out_dims, out);
	case DWCONV:
		return arm_depthwise_conv_wrapper_s8(&l->ctx, &l->dw, &l->per_channel, &l->in_dims,
						     in, &l->filter_dims, l->filter, &l->bias_dims,
						     l->bias, &l->out_dims, out);
	case FC:
		return arm_fully_connected_wrapper_s8(&l->ctx, &l->fc, &l->fc_quant, &l->in_dims, in,
						      &l->filter_dims, l->filter, &l->bias_dims,
						      l->bias, &l->out_dims, out);
	case AVGPOOL:
		return arm_avgpool_s8(&l->ctx, &l->pool, &l->in_dims, in, &l->filter_dims,
				      &l->out_dims, out);
	case MAXPOOL:
		return arm_max_pool_s8(&l->ctx, &l->pool, &l->in_dims, in, &l->filter_dims,
				       &l->out_dims, out);
	case ADD:
		return arm_elementwise_add_s8(in, l->in2, -q->in_zero, q->in_mult, q->in_shift,
					      -q->in2_zero, q->in2_mult, q->in2_shift,
					      q->left_shift, out, q->out_zero, q->out_mult,
					      q->out_shift, q->act_min, q->act_max, l->elements);
	case MUL:
		return arm_elementwise_mul_s8(in, l->in2, -q->in_zero, -q->in2_zero, out,
					      q->out_zero, q->out_mult, q->out_shift, q->act_min,
					      q->act_max, l->elements);
	default:
		arm_softmax_s8(in, l->rows, l->row_size, q->in_mult, q->in_shift, q->diff_min, out);
		return ARM_CMSIS_NN_SUCCESS;
	}
}

static void cmsis_release(void *prepared)
{
	struct cmsis_layer *l = prepared;

	free(l->ctx.buf);
	free(l->per_channel.multiplier);
	free(l->per_channel.shift);
	free(l);
}

/* Run the op once on zeroed buffers of its own, to see which kernel the
 * wrappers dispatch to (the choice depends on the geometry only). */
static int dry_run(struct cmsis_layer *l, const struct dmo_backend_op *op)
{
	static const char *const direct[] = { NULL, NULL, NULL, "arm_avgpool_s8", "arm_max_pool_s8",
					      "arm_elementwise_add_s8", "arm_elementwise_mul_s8",
					      "arm_softmax_s8" };
	int8_t *in = calloc(op->in_bytes ? op->in_bytes : 1, 1);
	int8_t *out = calloc(op->out_bytes ? op->out_bytes : 1, 1);
	int rc = -1;

	snprintf(dispatched, sizeof dispatched, "%s", direct[l->kind] ? direct[l->kind] : "");
	observing = 1;
	if (in != NULL && out != NULL && compute(l, in, out) == ARM_CMSIS_NN_SUCCESS) {
		snprintf(l->kernel, sizeof l->kernel, "%s", dispatched);
		rc = 0;
	}
	observing = 0;
	free(in);
	free(out);
	return rc;
}

static void *cmsis_prepare(const struct dmo_backend_op *op, char *err, size_t err_len)
{
	struct cmsis_layer *l;
	enum cmsis_op kind;
	const char *why = refusal(op, &kind);
	int32_t scratch;

	if (why != NULL) {
		snprintf(err, err_len, "%s: %s", DMO_CMSIS_NN_NAME, why);
		return NULL;
	}
	l = calloc(1, sizeof *l);
	if (l == NULL) {
		snprintf(err, err_len, "%s: out of memory", DMO_CMSIS_NN_NAME);
		return NULL;
	}
	l->kind = kind;
	l->q = *op->quant;
	if ((kind == CONV || kind == DWCONV || kind == FC) && fill_per_channel(l, op->out_c) != 0) {
		snprintf(err, err_len, "%s: out of memory", DMO_CMSIS_NN_NAME);
		goto fail;
	}
	scratch = describe(l, op);
	l->ctx.size = scratch;
	if (scratch > 0 && (l->ctx.buf = calloc((size_t)scratch, 1)) == NULL) {
		snprintf(err, err_len, "%s: out of memory for %d bytes of scratch",
			 DMO_CMSIS_NN_NAME, (int)scratch);
		goto fail;
	}
	/* TFLM fills a non-empty fc scratch with the filter's row sums. */
	if (kind == FC && scratch > 0)
		arm_vector_sum_s8(l->ctx.buf, l->filter_dims.n, op->out_c, l->filter, l->fc.input_offset,
				  l->fc.filter_offset, l->bias);
	if (dry_run(l, op) != 0) {
		snprintf(err, err_len, "%s refused %s", DMO_CMSIS_NN_NAME, op->spec);
		goto fail;
	}
	return l;
fail:
	cmsis_release(l);
	return NULL;
}

static const char *cmsis_implementation(void *prepared)
{
	const struct cmsis_layer *l = prepared;

	return l->kernel;
}

static int cmsis_run(void *prepared, const void *in, void *out)
{
	return compute(prepared, in, out) == ARM_CMSIS_NN_SUCCESS ? 0 : -1;
}

static size_t cmsis_scratch_bytes(void *prepared)
{
	const struct cmsis_layer *l = prepared;

	return (size_t)l->ctx.size;
}

const struct dmo_backend *dmo_backend_v2(void)
{
	static const struct dmo_backend backend = {
		.abi_version = DMO_BACKEND_ABI_VERSION,
		.name = DMO_CMSIS_NN_NAME,
		.alignment = 1,
		.init = cmsis_init,
		.version = cmsis_version,
		.isa = cmsis_isa,
		.prepare = cmsis_prepare,
		.implementation = cmsis_implementation,
		.run = cmsis_run,
		.release = cmsis_release,
		.scratch_bytes = cmsis_scratch_bytes,
	};
	return &backend;
}
