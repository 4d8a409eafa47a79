/* onednn.c - the `onednn` backend: oneDNN's f32 primitives through its C
 * API, on the CPU engine, NHWC source and destination in the caller's
 * buffers, behind <dmo/backend.h>.
 *
 * Weights are given to oneDNN in "any" format and reordered into the
 * primitive's preferred (blocked) layout at prepare, as an application
 * would, so the implementation oneDNN picks is its real choice.  The ISA
 * cap is dnnl_set_max_cpu_isa, before the first primitive: oneDNN's JIT
 * kernels for sse41 and avx2 walk memory differently. */
#include <stdlib.h>

#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include "plugin.h"

/* Arguments of one execution: source(s), weights, bias, destination. */
#define MAX_ARGS 5

struct dnnl_op {
	dnnl_primitive_desc_t pd;
	dnnl_primitive_t prim;
	dnnl_memory_t src, dst;     /* handles set to the caller's buffers at run */
	dnnl_memory_t weights, bias, src1;
	dnnl_exec_arg_t args[MAX_ARGS];
	int n_args;
	const char *impl;
};

static dnnl_engine_t engine;
static dnnl_stream_t stream;
static char version_text[48];

static int onednn_init(const char *isa, char *err, size_t err_len)
{
	static const dnnl_cpu_isa_t caps[] = { dnnl_cpu_isa_all, dnnl_cpu_isa_sse41,
					       dnnl_cpu_isa_avx, dnnl_cpu_isa_avx2 };
	const dnnl_version_t *v = dnnl_version();

	/* Debian's oneDNN runs on OpenMP: one thread, as the ABI asks,
	 * until dmo asks for more (dmo_backend_threads_v1). */
	omp_set_num_threads(1);
	if (dnnl_set_max_cpu_isa(caps[isa_rank(isa)]) != dnnl_success ||
	    dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
	    dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) != dnnl_success) {
		snprintf(err, err_len, "onednn: cannot create the CPU engine");
		return -1;
	}
	snprintf(version_text, sizeof version_text, "oneDNN %d.%d.%d", v->major, v->minor,
		 v->patch);
	return 0;
}

/* OpenMP's team size for the calling thread's next parallel regions,
 * which oneDNN splits statically by thread number. */
int dmo_backend_threads_v1(int threads, char *err, size_t err_len)
{
	(void)err; (void)err_len;
	omp_set_num_threads(threads);
	return 0;
}

static const char *onednn_version(void)
{
	return version_text;
}

static const char *onednn_isa(void)
{
	switch (dnnl_get_effective_cpu_isa()) {
	case dnnl_cpu_isa_sse41: return "sse41";
	case dnnl_cpu_isa_avx: return "avx";
	case dnnl_cpu_isa_avx2: return "avx2";
	case dnnl_cpu_isa_avx2_vnni: return "avx2_vnni";
	case dnnl_cpu_isa_avx512_core: return "avx512_core";
	case dnnl_cpu_isa_avx512_core_vnni: return "avx512_core_vnni";
	case dnnl_cpu_isa_avx512_core_bf16: return "avx512_core_bf16";
	case dnnl_cpu_isa_avx512_core_amx: return "avx512_core_amx";
	default: return "other";
	}
}

static void onednn_release(void *prepared)
{
	struct dnnl_op *d = prepared;

	dnnl_primitive_destroy(d->prim);
	dnnl_primitive_desc_destroy(d->pd);
	dnnl_memory_destroy(d->src);
	dnnl_memory_destroy(d->dst);
	dnnl_memory_destroy(d->weights);
	dnnl_memory_destroy(d->bias);
	dnnl_memory_destroy(d->src1);
	free(d);
}

static void add_arg(struct dnnl_op *d, int arg, dnnl_memory_t mem)
{
	d->args[d->n_args++] = (dnnl_exec_arg_t){ arg, mem };
}

/* A memory object over the caller's constant data in the user layout USER,
 * reordered into the layout the primitive asks for (QUERY). */
static dnnl_memory_t weights_memory(struct dnnl_op *d, const dnnl_memory_desc_t *user,
				    const void *data)
{
	const dnnl_memory_desc_t *want = dnnl_primitive_desc_query_md(d->pd, dnnl_query_weights_md, 0);
	dnnl_memory_t from = NULL, to = NULL;
	dnnl_primitive_desc_t rpd = NULL;
	dnnl_primitive_t reorder = NULL;
	int ok;

	if (dnnl_memory_create(&from, user, engine, (void *)data) != dnnl_success)
		return NULL;
	if (dnnl_memory_desc_equal(user, want))
		return from;
	ok = dnnl_memory_create(&to, want, engine, DNNL_MEMORY_ALLOCATE) == dnnl_success &&
	     dnnl_reorder_primitive_desc_create(&rpd, user, engine, want, engine, NULL) == dnnl_success &&
	     dnnl_primitive_create(&reorder, rpd) == dnnl_success;
	if (ok) {
		dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, from }, { DNNL_ARG_TO, to } };
		ok = dnnl_primitive_execute(reorder, stream, 2, args) == dnnl_success &&
		     dnnl_stream_wait(stream) == dnnl_success;
	}
	dnnl_primitive_destroy(reorder);
	dnnl_primitive_desc_destroy(rpd);
	dnnl_memory_destroy(from);
	if (!ok) {
		dnnl_memory_destroy(to);
		return NULL;
	}
	return to;
}

static void *onednn_prepare(const struct dmo_backend_op *op, char *err, size_t err_len)
{
	struct dnnl_op *d;
	dnnl_memory_desc_t src, dst, wei, wei_user, bias;
	dnnl_dims_t src_dims = { op->batch, op->in_c, op->in_h, op->in_w };
	dnnl_dims_t dst_dims = { op->batch, op->out_c, op->out_h, op->out_w };
	dnnl_dims_t strides = { op->stride_h, op->stride_w };
	dnnl_dims_t kernel = { op->k_h, op->k_w };
	dnnl_dims_t dilates = { op->dil_h - 1, op->dil_w - 1 };
	dnnl_dims_t pad_l = { op->pad_top, op->pad_left };
	dnnl_dims_t pad_r = { op->pad_bottom, op->pad_right };
	dnnl_dims_t bias_dims = { op->out_c };
	int k = op->in_h * op->in_w * op->in_c;
	int has_weights = op_is(op, "conv2d") || op_is(op, "dwconv2d") || op_is(op, "fc");
	dnnl_status_t st = dnnl_unimplemented;
	union {
		dnnl_convolution_desc_t conv;
		dnnl_pooling_v2_desc_t pool;
		dnnl_inner_product_desc_t ip;
		dnnl_eltwise_desc_t elt;
		dnnl_binary_desc_t bin;
	} desc;

	if (refuse_non_f32(op, "onednn", err, err_len) != 0)
		return NULL;
	d = calloc(1, sizeof *d);
	if (d == NULL)
		return NULL;
	if (op_is(op, "fc")) {
		dnnl_dims_t s2 = { op->batch, k }, d2 = { op->batch, op->out_c }, w2 = { op->out_c, k };
		dnnl_memory_desc_init_by_tag(&src, 2, s2, dnnl_f32, dnnl_nc);
		dnnl_memory_desc_init_by_tag(&dst, 2, d2, dnnl_f32, dnnl_nc);
		dnnl_memory_desc_init_by_tag(&wei_user, 2, w2, dnnl_f32, dnnl_oi);
		dnnl_memory_desc_init_by_tag(&wei, 2, w2, dnnl_f32, dnnl_format_tag_any);
	} else {
		dnnl_memory_desc_init_by_tag(&src, 4, src_dims, dnnl_f32, dnnl_nhwc);
		dnnl_memory_desc_init_by_tag(&dst, 4, dst_dims, dnnl_f32, dnnl_nhwc);
	}
	if (op_is(op, "conv2d")) {
		dnnl_dims_t w4 = { op->out_c, op->in_c, op->k_h, op->k_w };
		dnnl_memory_desc_init_by_tag(&wei_user, 4, w4, dnnl_f32, dnnl_ohwi);
		dnnl_memory_desc_init_by_tag(&wei, 4, w4, dnnl_f32, dnnl_format_tag_any);
	} else if (op_is(op, "dwconv2d")) {
		/* groups = in_c, mult outputs and one input per group */
		dnnl_dims_t w5 = { op->in_c, op->mult, 1, op->k_h, op->k_w };
		dnnl_memory_desc_init_by_tag(&wei_user, 5, w5, dnnl_f32, dnnl_hwigo);
		dnnl_memory_desc_init_by_tag(&wei, 5, w5, dnnl_f32, dnnl_format_tag_any);
	}
	dnnl_memory_desc_init_by_tag(&bias, 1, bias_dims, dnnl_f32, dnnl_x);

	if (op_is(op, "conv2d") || op_is(op, "dwconv2d"))
		st = dnnl_dilated_convolution_forward_desc_init(
			&desc.conv, dnnl_forward_inference, dnnl_convolution_direct, &src, &wei, &bias,
			&dst, strides, dilates, pad_l, pad_r);
	else if (op_is(op, "maxpool") || op_is(op, "avgpool")) {
		dnnl_dims_t no_dilation = { 0, 0 };
		st = dnnl_pooling_v2_forward_desc_init(
			&desc.pool, dnnl_forward_inference,
			op_is(op, "maxpool") ? dnnl_pooling_max : dnnl_pooling_avg_exclude_padding,
			&src, &dst, strides, kernel, no_dilation, pad_l, pad_r);
	} else if (op_is(op, "fc"))
		st = dnnl_inner_product_forward_desc_init(&desc.ip, dnnl_forward_inference, &src,
							  &wei, &bias, &dst);
	else if (op_is(op, "relu") || op_is(op, "relu6"))
		st = dnnl_eltwise_forward_desc_init(&desc.elt, dnnl_forward_inference,
						    op_is(op, "relu") ? dnnl_eltwise_relu
								      : dnnl_eltwise_clip,
						    &src, 0.0f, op_is(op, "relu") ? 0.0f : 6.0f);
	else if (op_is(op, "add") || op_is(op, "mul"))
		st = dnnl_binary_desc_init(&desc.bin, op_is(op, "add") ? dnnl_binary_add
								       : dnnl_binary_mul,
					   &src, &src, &dst);
	if (st == dnnl_success)
		st = dnnl_primitive_desc_create(&d->pd, &desc, NULL, engine, NULL);
	if (st == dnnl_success)
		st = dnnl_primitive_create(&d->prim, d->pd);
	if (st != dnnl_success) {
		snprintf(err, err_len, "onednn refused %s (status %d)", op->spec, (int)st);
		onednn_release(d);
		return NULL;
	}
	dnnl_primitive_desc_query(d->pd, dnnl_query_impl_info_str, 0, &d->impl);
	if (dnnl_memory_create(&d->src, &src, engine, DNNL_MEMORY_NONE) != dnnl_success ||
	    dnnl_memory_create(&d->dst, &dst, engine, DNNL_MEMORY_NONE) != dnnl_success)
		goto fail;
	add_arg(d, DNNL_ARG_SRC, d->src);
	add_arg(d, DNNL_ARG_DST, d->dst);
	if (has_weights) {
		d->weights = weights_memory(d, &wei_user, op->filter);
		if (d->weights == NULL ||
		    dnnl_memory_create(&d->bias, &bias, engine, (void *)op->bias) != dnnl_success)
			goto fail;
		add_arg(d, DNNL_ARG_WEIGHTS, d->weights);
		add_arg(d, DNNL_ARG_BIAS, d->bias);
	}
	if (op_is(op, "add") || op_is(op, "mul")) {
		if (dnnl_memory_create(&d->src1, &src, engine, (void *)op->in2) != dnnl_success)
			goto fail;
		add_arg(d, DNNL_ARG_SRC_1, d->src1);
	}
	return d;
fail:
	snprintf(err, err_len, "onednn: cannot create the memory objects of %s", op->spec);
	onednn_release(d);
	return NULL;
}

static const char *onednn_implementation(void *prepared)
{
	struct dnnl_op *d = prepared;

	return d->impl != NULL ? d->impl : "";
}

/* For plain (nhwc, nc) layouts setting a handle touches no data. */
static int onednn_run(void *prepared, const void *in, void *out)
{
	struct dnnl_op *d = prepared;

	if (dnnl_memory_set_data_handle(d->src, (void *)in) != dnnl_success ||
	    dnnl_memory_set_data_handle(d->dst, out) != dnnl_success)
		return -1;
	if (dnnl_primitive_execute(d->prim, stream, d->n_args, d->args) != dnnl_success)
		return -1;
	return dnnl_stream_wait(stream) == dnnl_success ? 0 : -1;
}

const struct dmo_backend *dmo_backend_v2(void)
{
	static const struct dmo_backend backend = {
		.abi_version = DMO_BACKEND_ABI_VERSION,
		.name = "onednn",
		.alignment = 1,
		.init = onednn_init,
		.version = onednn_version,
		.isa = onednn_isa,
		.prepare = onednn_prepare,
		.implementation = onednn_implementation,
		.run = onednn_run,
		.release = onednn_release,
	};
	return &backend;
}
