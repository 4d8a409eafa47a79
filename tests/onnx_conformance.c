/* onnx_conformance.c DIR... - ONNX's own single-op test cases (Debian's
 * libonnx-testdata: DIR/model.onnx, DIR/test_data_set_0/input_N.pb and
 * output_0.pb) through dmo's ONNX reader and dmo's reference f32 kernels.
 * For each case dmo reads into one layer with an op spec, the kernel of
 * that spec runs on ONNX's stored tensors (Conv and the pools: the NCHW
 * kernels, layout=nchw; Gemm's weights moved to fc's [units][K]), and its
 * output must match the expected output (relative 1e-5: the kernels sum in their
 * own order).  A case of several layers (a function's expanded body, a
 * PyTorch export, a variadic Sum, Max, Min or Mean read as several
 * binary passes) runs as a whole graph, as `dmo infer` runs it, and is
 * counted again on a line of its own.  Cases dmo does not model are
 * counted with the reason.  Prints one line per case and a summary; exits
 * 1 if a case that applies fails, 2 if a case cannot be read at all. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmokernels.h"
#include "infer.h"
#include "infer_model.h"
#include "model_table.h"
#include "onnx.pb-c.h"
#include "runner.h"

struct tensor {
	float *v;
	size_t n;
	int64_t dims[8];
	size_t rank;
};

static int load_pb(const char *path, struct tensor *t)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data;
	long size;
	Onnx__TensorProto *p;

	if (f == NULL || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		return -1;
	data = malloc((size_t)size + 1);
	if (data == NULL || fread(data, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(data);
		return -1;
	}
	fclose(f);
	p = onnx__tensor_proto__unpack(NULL, (size_t)size, data);
	free(data);
	if (p == NULL || p->data_type != ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT || p->n_dims > 8) {
		if (p)
			onnx__tensor_proto__free_unpacked(p, NULL);
		return -1;
	}
	t->rank = p->n_dims;
	t->n = 1;
	for (size_t i = 0; i < p->n_dims; i++) {
		t->dims[i] = p->dims[i];
		t->n *= (size_t)p->dims[i];
	}
	t->v = malloc((t->n + 1) * sizeof *t->v);
	if (p->has_raw_data && p->raw_data.len == t->n * 4)
		memcpy(t->v, p->raw_data.data, t->n * 4);
	else if (p->n_float_data == t->n)
		memcpy(t->v, p->float_data, t->n * 4);
	else
		t->n = (size_t)-1;
	onnx__tensor_proto__free_unpacked(p, NULL);
	return t->n == (size_t)-1 ? -1 : 0;
}

/* The values of operand tensor T of the case: an initializer, or the
 * input_K.pb of its position K among the graph's non-initializer inputs. */
static int operand_values(const char *dir, const struct dmo_model *m, int t, struct tensor *out)
{
	const Onnx__GraphProto *g = ((const Onnx__ModelProto *)m->reader_state)->graph;
	const struct dmo_model_tensor *mt = &m->tensors[t];
	char path[4096];
	int k = 0;

	if (mt->producer == DMO_MODEL_CONSTANT) {
		out->n = mt->elems;
		out->rank = (size_t)mt->rank;
		memcpy(out->dims, mt->shape, sizeof out->dims);
		out->v = malloc((out->n + 1) * sizeof *out->v);
		if (mt->data_len != out->n * 4)
			return -1;
		memcpy(out->v, mt->data, mt->data_len);
		return 0;
	}
	for (size_t i = 0; i < g->n_input; i++) {
		int initializer = 0;

		for (size_t j = 0; j < g->n_initializer; j++)
			initializer |= strcmp(g->initializer[j]->name, g->input[i]->name) == 0;
		if (initializer)
			continue;
		if (strcmp(g->input[i]->name, mt->name) == 0) {
			snprintf(path, sizeof path, "%s/test_data_set_0/input_%d.pb", dir, k);
			return load_pb(path, out);
		}
		k++;
	}
	return -1;
}

static struct dk_params params_of(const struct dmo_opspec *s)
{
	return (struct dk_params){
		.batch = s->batch, .in_h = s->in_h, .in_w = s->in_w, .in_c = s->in_c,
		.out_h = s->out_h, .out_w = s->out_w, .out_c = s->out_c,
		.k_h = s->k_h, .k_w = s->k_w, .stride_h = s->stride_h, .stride_w = s->stride_w,
		.dil_h = s->dil_h, .dil_w = s->dil_w, .pad_top = s->pad_top,
		.pad_left = s->pad_left, .mult = s->mult, .groups = s->group, .trans_a = s->trans_a,
		.count_pad = s->count_pad,
	};
}

static const Onnx__AttributeProto *attr(const Onnx__NodeProto *n, const char *name)
{
	for (size_t i = 0; i < n->n_attribute; i++)
		if (n->attribute[i]->name && strcmp(n->attribute[i]->name, name) == 0)
			return n->attribute[i];
	return NULL;
}

/* The layer of an op over the stored dims (relu6, tanh, softmax, mean,
 * pad, concat: docs/models.md) through dmo's runner on IN, the NCHW input as
 * stored, into OUT.  A concatenation's other inputs, side by side in each
 * row, are its second operand.  Returns 0, or -1 when a kernel or an
 * input fails. */
static int run_flat(const char *dir, const struct dmo_model *m, const float *in, float *out)
{
	const struct dmo_model_layer *layer = &m->layers[0];
	const struct dmo_opspec *s = &layer->op;
	struct dmo_op_run *run = dmo_op_prepare(s, NULL, 0);
	uint64_t rows = (uint64_t)s->batch * s->in_h * s->in_w;
	float *rest = NULL;
	int rc = run ? 0 : -1;

	if (rc == 0 && s->op == DMO_OP_CONCAT) {
		size_t at = 0;

		rest = malloc(sizeof *rest * rows * (size_t)s->after[3] + 1);
		for (size_t k = 1; rest && rc == 0 && k < layer->n_operands; k++) {
			struct tensor t = { 0 };
			size_t width;

			rc = operand_values(dir, m, layer->operands[k], &t);
			width = rc == 0 ? t.n / rows : 0;
			for (uint64_t r = 0; r < rows && rc == 0; r++)
				memcpy(rest + r * (size_t)s->after[3] + at, t.v + r * width,
				       width * sizeof *rest);
			at += width;
			free(t.v);
		}
	}
	if (rc == 0)
		rc = dmo_op_execute2(run, in, rest, out, 1, 0);
	free(rest);
	dmo_op_free(run);
	return rc;
}

/* The whole graph of M run as `dmo infer` runs it (dmo_net), each tensor
 * in its own slot of one arena, the graph inputs from the case's stored
 * inputs: *OUT (malloc'd, *OUT_N values) gets the graph's first output.
 * Returns 0; 1 with the reason in WHY when dmo cannot run the graph (a
 * layer without a kernel, named) or it is not float32 in and out here; -1
 * when an input or a kernel fails. */
static int run_graph(const char *dir, const struct dmo_model *m, float **out, size_t *out_n,
		     char *why, size_t why_len)
{
	const Onnx__GraphProto *g = ((const Onnx__ModelProto *)m->reader_state)->graph;
	struct dmo_net net;
	uint64_t *offsets = calloc(m->n_tensors + 1, sizeof *offsets), total = 0;
	unsigned char *arena = NULL;
	int rc = -1, o = -1;

	if (offsets == NULL)
		return -1;
	if (dmo_net_from_model(m, &net, why, why_len) != 0) {
		free(offsets);
		return 1;
	}
	for (size_t t = 0; t < net.n_tensors; t++) {
		offsets[t] = total;
		total += (dmo_net_tensor_bytes(&net, (int)t) + 15) / 16 * 16;
		if (g->n_output > 0 && !strcmp(net.tensors[t].name, g->output[0]->name))
			o = (int)t;
	}
	if (o < 0 || net.tensors[o].dtype != DMO_NET_F32) {
		snprintf(why, why_len, "the graph's first output is not a float32 tensor dmo computes");
		rc = 1;
		goto done;
	}
	arena = calloc(total + 1, 1);
	for (size_t t = 0; arena && t < net.n_tensors; t++) {
		struct tensor v = { 0 };

		if (!net.tensors[t].graph_input)
			continue;
		if (net.tensors[t].dtype != DMO_NET_F32) {
			snprintf(why, why_len, "graph input '%s' is not float32 (read here as float32 only)",
				 net.tensors[t].name);
			rc = 1;
			goto done;
		}
		if (operand_values(dir, m, (int)t, &v) != 0 || v.n * 4 != dmo_net_tensor_bytes(&net, (int)t)) {
			free(v.v);
			goto done;
		}
		memcpy(arena + offsets[t], v.v, v.n * 4);
		free(v.v);
	}
	if (arena && dmo_net_run(&net, arena, offsets, why, why_len) == 0 &&
	    (*out = malloc(dmo_net_tensor_bytes(&net, o) + 1)) != NULL) {
		memcpy(*out, arena + offsets[o], dmo_net_tensor_bytes(&net, o));
		*out_n = dmo_net_tensor_bytes(&net, o) / 4;
		rc = 0;
	}
done:
	free(arena);
	free(offsets);
	dmo_net_free(&net);
	return rc;
}

/* ONNX's element-wise ops whose parameters (bounds, alpha, a batch norm's
 * four constants, a broadcast operand's shape) only the net derives: the
 * one layer runs as the whole graph does (run_graph), into OUT. */
static int run_net(const char *dir, const struct dmo_model *m, float *out, size_t out_n)
{
	char why[512];
	float *y = NULL;
	size_t n = 0;
	int rc = run_graph(dir, m, &y, &n, why, sizeof why) || n != out_n ? -1 : 0;

	if (rc == 0)
		memcpy(out, y, n * sizeof *y);
	free(y);
	return rc;
}

/* Run the case's one layer; OUT gets the NCHW (or flat) result.  Returns
 * 0, or a reason the case does not apply in *WHY. */
static int run_case(const char *dir, const struct dmo_model *m, float **out, size_t *out_n,
		    const char **why)
{
	const struct dmo_model_layer *layer = &m->layers[0];
	const struct dmo_opspec *s = &layer->op;
	const Onnx__NodeProto *node =
		((const Onnx__ModelProto *)m->reader_state)->graph->node[layer->row];
	struct dk_params p = params_of(s);
	struct tensor x = { 0 }, w = { 0 }, b = { 0 };
	float *filter = NULL, *bias = NULL, *y;
	size_t yn = dmo_opspec_out_elems(s);
	int rc = -1;

	*why = "input data unreadable";
	y = calloc(yn + 1, sizeof *y);
	if (operand_values(dir, m, layer->operands[0], &x) != 0)
		goto done;
	/* Weights, bias, add's and mul's other operand (not pads, axes or a
	 * clip's bounds, which the op spec holds). */
	if (s->op == DMO_OP_CONV2D || s->op == DMO_OP_DWCONV2D || s->op == DMO_OP_FC ||
	    s->op == DMO_OP_ADD || s->op == DMO_OP_MUL) {
		if (layer->n_operands > 1 && layer->operands[1] >= 0 &&
		    operand_values(dir, m, layer->operands[1], &w) != 0)
			goto done;
		if (layer->n_operands > 2 && layer->operands[2] >= 0 &&
		    operand_values(dir, m, layer->operands[2], &b) != 0)
			goto done;
	}
	switch (s->op) {
	/* The reader gives ONNX's windowed ops layout=nchw: the NCHW kernels
	 * take ONNX's tensors and filters as they are stored. */
	case DMO_OP_CONV2D:
		rc = dk_conv2d_nchw_f32(&p, x.v, w.v, b.v, y, NULL);
		break;
	case DMO_OP_DWCONV2D:
		rc = dk_dwconv2d_nchw_f32(&p, x.v, w.v, b.v, y, NULL);
		break;
	case DMO_OP_MAXPOOL:
		rc = dk_maxpool_nchw_f32(&p, x.v, y, NULL);
		break;
	case DMO_OP_AVGPOOL:
		rc = dk_avgpool_nchw_f32(&p, x.v, y, NULL);
		break;
	case DMO_OP_FC: {
		const Onnx__AttributeProto *a;
		float alpha = (a = attr(node, "alpha")) && a->has_f ? a->f : 1.0f;
		float beta = (a = attr(node, "beta")) && a->has_f ? a->f : 1.0f;
		int trans_b = (a = attr(node, "transB")) && a->has_i && a->i;
		int units = s->out_c, k = s->in_c;

		/* alpha and beta scale the weights and the bias before the
		 * kernel runs; C broadcasts to M x N (rows CM, columns CN), a C
		 * of M > 1 rows one value per output element. */
		size_t cn = b.rank >= 1 ? (size_t)b.dims[b.rank - 1] : 1;
		size_t cm = b.rank >= 2 ? (size_t)b.dims[b.rank - 2] : 1;
		p.bias_per_output = cm > 1;
		filter = malloc(sizeof *filter * (size_t)units * k + 1);
		for (int u = 0; u < units; u++)
			for (int d = 0; d < k; d++)
				filter[(size_t)u * k + d] =
					alpha * (trans_b ? w.v[(size_t)u * k + d] : w.v[(size_t)d * units + u]);
		if (b.v) {
			size_t rows = cm > 1 ? (size_t)p.batch : 1;

			bias = malloc(sizeof *bias * rows * (size_t)units);
			for (size_t r = 0; r < rows; r++)
				for (size_t u = 0; u < (size_t)units; u++)
					bias[r * (size_t)units + u] =
						beta * b.v[(cm > 1 ? r * cn : 0) + (cn > 1 ? u : 0)];
		}
		rc = dk_fc_f32(&p, x.v, filter, bias, y, NULL);
		break;
	}
	case DMO_OP_RELU:
		rc = dk_relu_f32(&p, x.v, y, NULL);
		break;
	case DMO_OP_ADD:
	case DMO_OP_MUL:
		if (w.n != x.n) { /* a broadcasting operand */
			rc = run_net(dir, m, y, yn);
			break;
		}
		rc = s->op == DMO_OP_ADD ? dk_add_f32(&p, x.v, w.v, y, NULL)
					 : dk_mul_f32(&p, x.v, w.v, y, NULL);
		break;
	case DMO_OP_RELU6:
	case DMO_OP_TANH:
	case DMO_OP_SOFTMAX:
	case DMO_OP_MEAN:
	case DMO_OP_PAD:
	case DMO_OP_CONCAT:
		rc = run_flat(dir, m, x.v, y);
		break;
	default:
		/* ConvTranspose's weights may be a graph input too, as a
		 * MatMul's B; Pow's exponent, the reductions' axes,
		 * LogSoftmax's axis and Transpose's perm are the net's. */
		if (dmo_op_onnx_elementwise(s->op) || s->op == DMO_OP_CONVT || dmo_op_reduce(s->op) ||
		    s->op == DMO_OP_LOGSOFTMAX || s->op == DMO_OP_RESHAPE || s->op == DMO_OP_MATMUL ||
		    s->op == DMO_OP_TRANSPOSE) {
			rc = run_net(dir, m, y, yn);
			break;
		}
		*why = "no f32 reference kernel run here";
		rc = 1;
		goto done;
	}
	if (rc != 0) {
		*why = "the kernel refused its arguments";
		rc = 2;
		goto done;
	}
	*out = y;
	y = NULL;
	*out_n = yn;
done:
	free(y);
	free(x.v);
	free(w.v);
	free(b.v);
	free(filter);
	free(bias);
	return rc;
}

/* The layers of M's graph as "N layers: op, op, ..." into TEXT. */
static void graph_summary(const struct dmo_model *m, char *text, size_t len)
{
	int at = snprintf(text, len, "whole graph of %zu layers:", m->n_layers);

	for (size_t l = 0; l < m->n_layers && at > 0 && (size_t)at < len; l++)
		at += snprintf(text + at, len - (size_t)at, "%s %s", l ? "," : "",
			       m->layers[l].op_name ? m->layers[l].op_name : "?");
}

/* Case DIR (NAME) run by dmo: 0 when it applies and matches ONNX's
 * expected output, else prints its line and returns 1 (does not apply),
 * 2 (cannot be run or read) or 3 (differs).  *GRAPH says whether the case
 * ran as a whole graph of several layers. */
static int one_case(const char *dir, const char *name, int *graph)
{
	enum { NOTED = 4 }; /* does not apply, its line printed */
	char path[4096], err[1024], what[1024];
	const char *why = NULL;
	struct dmo_model m;
	struct tensor want = { 0 };
	float *got = NULL;
	size_t n = 0;
	int rc;

	*graph = 0;
	snprintf(path, sizeof path, "%s/model.onnx", dir);
	if (dmo_model_load(path, &m, err, sizeof err) != 0) {
		printf("n/a   %-48s not read: %s\n", name, err);
		return 1;
	}
	if (m.n_layers > 1) {
		/* Several layers (a function's expanded body, a PyTorch
		 * export): the whole graph, as `dmo infer` runs it. */
		*graph = 1;
		graph_summary(&m, what, sizeof what);
		rc = run_graph(dir, &m, &got, &n, err, sizeof err);
		why = rc == 1 ? err : "an input or a kernel failed";
	} else if (m.n_layers != 1 || !m.layers[0].supported) {
		printf("n/a   %-48s no op spec: %s\n", name,
		       m.n_layers != 1 ? "no layer" : m.layers[0].why);
		rc = NOTED;
	} else if (m.layers[0].op.dtype != DMO_F32) {
		printf("n/a   %-48s %s: dmo's reference kernels have no %s\n", name,
		       m.layers[0].spec, dmo_dtype_name(m.layers[0].op.dtype));
		rc = NOTED;
	} else {
		snprintf(what, sizeof what, "%s", m.layers[0].spec);
		rc = run_case(dir, &m, &got, &n, &why);
	}
	if (rc == 1) {
		printf("n/a   %-48s %s%s%s\n", name, *graph ? what : "", *graph ? ": " : "", why);
	} else if (rc != 0 && rc != NOTED) {
		printf("ERROR %-48s %s\n", name, why);
		rc = 2;
	} else if (rc == 0) {
		double worst = 0;

		snprintf(path, sizeof path, "%s/test_data_set_0/output_0.pb", dir);
		if (load_pb(path, &want) != 0 || want.n != n) {
			printf("ERROR %-48s expected output unreadable or of another size\n", name);
			rc = 2;
		} else {
			for (size_t k = 0; k < n; k++) {
				double e = fabs((double)got[k] - want.v[k]) /
					   fmax(1.0, fabs((double)want.v[k]));
				worst = e > worst ? e : worst;
			}
			printf("%s %-48s %s (largest relative error %.2g)\n",
			       worst <= 1e-5 ? "pass " : "FAIL ", name, what, worst);
			rc = worst <= 1e-5 ? 0 : 3;
		}
	}
	free(got);
	free(want.v);
	dmo_model_free(&m);
	return rc == NOTED ? 1 : rc;
}

int main(int argc, char **argv)
{
	int count[4] = { 0 }, graphs = 0, graphs_pass = 0;

	for (int i = 1; i < argc; i++) {
		const char *name = strrchr(argv[i], '/');
		int graph, rc = one_case(argv[i], name ? name + 1 : argv[i], &graph);

		count[rc]++;
		graphs += graph;
		graphs_pass += graph && rc == 0;
	}
	printf("%d of %d ONNX cases pass through dmo's reference kernels, %d fail, %d do not apply, %d errors\n",
	       count[0], argc - 1, count[3], count[1], count[2]);
	printf("of them whole graphs of several layers: %d of %d pass\n", graphs_pass, graphs);
	return count[2] ? 2 : count[3] ? 1 : 0;
}
