/* xnnpack.c - the `xnnpack` backend: XNNPACK's f32 NHWC operators behind
 * <dmo/backend.h>, on the calling thread or, when dmo asks for N threads,
 * on a pthreadpool of N (which hands out tiles dynamically: work stealing).
 *
 * XNNPACK picks its microkernels once, in xnn_initialize, from cpuinfo's
 * view of the CPU; the ISA cap lowers that view first (cpuinfo_isa is the
 * table cpuinfo_has_x86_*() read), so the same microkernels run natively
 * and under Valgrind, whose virtual CPU lacks AVX-512. */
#include <math.h>
#include <stdlib.h>

#include <cpuinfo.h>
#include <pthreadpool.h>
#include <xnnpack.h>

#include "plugin.h"

struct xnn_op {
	xnn_operator_t op;
	char kind[16];
	size_t batch, in_h, in_w, rows; /* rows: fc batch, clamp pixels */
	size_t shape[4];                /* add, mul */
	const float *in2;
};

static char isa_name[32] = "?";
static pthreadpool_t pool; /* NULL: the calling thread alone */

static int xnn_backend_init(const char *isa, char *err, size_t err_len)
{
	int rank = isa_rank(isa);

	if (!cpuinfo_initialize()) {
		snprintf(err, err_len, "xnnpack: cpuinfo_initialize failed");
		return -1;
	}
	if (rank >= 1 && rank <= 3) {
		cpuinfo_isa.avx512f = cpuinfo_isa.avx512cd = cpuinfo_isa.avx512dq = false;
		cpuinfo_isa.avx512bw = cpuinfo_isa.avx512vl = cpuinfo_isa.avx512vnni = false;
		cpuinfo_isa.avx512bf16 = cpuinfo_isa.avx512ifma = cpuinfo_isa.avx512vbmi = false;
	}
	if (rank >= 1 && rank <= 2)
		cpuinfo_isa.avx2 = cpuinfo_isa.fma3 = cpuinfo_isa.f16c = false;
	if (rank == 1)
		cpuinfo_isa.avx = false;
	if (xnn_initialize(NULL) != xnn_status_success) {
		snprintf(err, err_len, "xnnpack: xnn_initialize failed");
		return -1;
	}
	snprintf(isa_name, sizeof isa_name, "%s",
		 cpuinfo_isa.avx512f                      ? "avx512f"
		 : cpuinfo_isa.avx2 && cpuinfo_isa.fma3   ? "avx2+fma3"
		 : cpuinfo_isa.avx                        ? "avx"
		 : cpuinfo_isa.sse4_1                     ? "sse4.1"
							  : "sse2");
	return 0;
}

int dmo_backend_threads_v1(int threads, char *err, size_t err_len)
{
	if (pool != NULL)
		pthreadpool_destroy(pool);
	pool = NULL;
	if (threads > 1 && (pool = pthreadpool_create((size_t)threads)) == NULL) {
		snprintf(err, err_len, "xnnpack: pthreadpool_create(%d) failed", threads);
		return -1;
	}
	return 0;
}

static const char *xnn_backend_version(void)
{
	return "XNNPACK (Debian 0.0~git20220216)";
}

static const char *xnn_backend_isa(void)
{
	return isa_name;
}

static void *xnn_backend_prepare(const struct dmo_backend_op *op, char *err, size_t err_len)
{
	struct xnn_op *x;
	enum xnn_status st = xnn_status_unsupported_parameter;
	const float *filter = op->filter, *bias = op->bias;

	if (refuse_non_f32(op, "xnnpack", err, err_len) != 0)
		return NULL;
	x = calloc(1, sizeof *x);
	if (x == NULL)
		return NULL;
	snprintf(x->kind, sizeof x->kind, "%s", op->op);
	x->batch = (size_t)op->batch;
	x->in_h = (size_t)op->in_h;
	x->in_w = (size_t)op->in_w;
	x->rows = (size_t)op->batch * op->in_h * op->in_w;
	if (op_is(op, "conv2d"))
		st = xnn_create_convolution2d_nhwc_f32(
			op->pad_top, op->pad_right, op->pad_bottom, op->pad_left, op->k_h, op->k_w,
			op->stride_h, op->stride_w, op->dil_h, op->dil_w, 1, op->in_c, op->out_c,
			op->in_c, op->out_c, filter, bias, -INFINITY, INFINITY, 0, &x->op);
	else if (op_is(op, "dwconv2d"))
		st = xnn_create_convolution2d_nhwc_f32(
			op->pad_top, op->pad_right, op->pad_bottom, op->pad_left, op->k_h, op->k_w,
			op->stride_h, op->stride_w, op->dil_h, op->dil_w, op->in_c, 1, op->mult,
			op->in_c, op->out_c, filter, bias, -INFINITY, INFINITY,
			XNN_FLAG_DEPTHWISE_CONVOLUTION, &x->op);
	else if (op_is(op, "maxpool"))
		st = xnn_create_max_pooling2d_nhwc_f32(
			op->pad_top, op->pad_right, op->pad_bottom, op->pad_left, op->k_h, op->k_w,
			op->stride_h, op->stride_w, 1, 1, op->in_c, op->in_c, op->in_c, -INFINITY,
			INFINITY, 0, &x->op);
	else if (op_is(op, "avgpool"))
		st = xnn_create_average_pooling2d_nhwc_f32(
			op->pad_top, op->pad_right, op->pad_bottom, op->pad_left, op->k_h, op->k_w,
			op->stride_h, op->stride_w, op->in_c, op->in_c, op->in_c, -INFINITY,
			INFINITY, 0, &x->op);
	else if (op_is(op, "fc")) {
		size_t k = (size_t)op->in_h * op->in_w * op->in_c;
		x->rows = (size_t)op->batch;
		st = xnn_create_fully_connected_nc_f32(k, op->out_c, k, op->out_c, filter, bias,
						       -INFINITY, INFINITY, 0, &x->op);
	} else if (op_is(op, "relu") || op_is(op, "relu6"))
		st = xnn_create_clamp_nc_f32(op->in_c, op->in_c, op->in_c, 0.0f,
					     op_is(op, "relu") ? INFINITY : 6.0f, 0, &x->op);
	else if (op_is(op, "add") || op_is(op, "mul")) {
		x->shape[0] = (size_t)op->batch;
		x->shape[1] = x->in_h;
		x->shape[2] = x->in_w;
		x->shape[3] = (size_t)op->in_c;
		x->in2 = op->in2;
		st = op_is(op, "add") ? xnn_create_add_nd_f32(-INFINITY, INFINITY, 0, &x->op)
				      : xnn_create_multiply_nd_f32(-INFINITY, INFINITY, 0, &x->op);
	}
	if (st != xnn_status_success) {
		snprintf(err, err_len, "xnnpack refused %s (status %d)", op->spec, (int)st);
		free(x);
		return NULL;
	}
	return x;
}

static const char *xnn_backend_implementation(void *prepared)
{
	(void)prepared; /* XNNPACK does not name the microkernel it picked */
	return isa_name;
}

/* setup binds the buffers (conv: it writes its indirection buffer of input
 * pointers, reading no tensor data), so it belongs to the run. */
static int xnn_backend_run(void *prepared, const void *in, void *out)
{
	struct xnn_op *x = prepared;
	enum xnn_status st;
	const char *k = x->kind;

	if (strcmp(k, "conv2d") == 0 || strcmp(k, "dwconv2d") == 0)
		st = xnn_setup_convolution2d_nhwc_f32(x->op, x->batch, x->in_h, x->in_w, in, out,
						       NULL);
	else if (strcmp(k, "maxpool") == 0)
		st = xnn_setup_max_pooling2d_nhwc_f32(x->op, x->batch, x->in_h, x->in_w, in, out,
						       NULL);
	else if (strcmp(k, "avgpool") == 0)
		st = xnn_setup_average_pooling2d_nhwc_f32(x->op, x->batch, x->in_h, x->in_w, in,
							   out, NULL);
	else if (strcmp(k, "fc") == 0)
		st = xnn_setup_fully_connected_nc_f32(x->op, x->rows, in, out, NULL);
	else if (strcmp(k, "add") == 0)
		st = xnn_setup_add_nd_f32(x->op, 4, x->shape, 4, x->shape, in, x->in2, out, NULL);
	else if (strcmp(k, "mul") == 0)
		st = xnn_setup_multiply_nd_f32(x->op, 4, x->shape, 4, x->shape, in, x->in2, out,
					       NULL);
	else
		st = xnn_setup_clamp_nc_f32(x->op, x->rows, in, out, NULL);
	if (st != xnn_status_success)
		return -1;
	return xnn_run_operator(x->op, pool) == xnn_status_success ? 0 : -1;
}

static void xnn_backend_release(void *prepared)
{
	struct xnn_op *x = prepared;

	xnn_delete_operator(x->op);
	free(x);
}

const struct dmo_backend *dmo_backend_v2(void)
{
	static const struct dmo_backend backend = {
		.abi_version = DMO_BACKEND_ABI_VERSION,
		.name = "xnnpack",
		.alignment = 1,
		.init = xnn_backend_init,
		.version = xnn_backend_version,
		.isa = xnn_backend_isa,
		.prepare = xnn_backend_prepare,
		.implementation = xnn_backend_implementation,
		.run = xnn_backend_run,
		.release = xnn_backend_release,
	};
	return &backend;
}
