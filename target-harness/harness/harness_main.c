/* harness_main.c - dmo-harness: runs reference kernels for op specs, or a
 * whole model layer table, on deterministic data, or a .tflite model with
 * its real weights on a real input, marking every kernel as a layer for the
 * dmo tool.  `dmo run` profiles this program. */
#include <csv.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmo/harness.h>

#include "backend.h"
#include "infer.h"
#include "infer_backend.h"
#include "infer_model.h"
#include "input_options.h"
#include "model_table.h"
#include "cpu_features.h"
#include "progress.h"
#include "runner.h"

/* Seed of every input buffer; the weights are seeded by the spec itself. */
#define INPUT_SEED 1

static const char usage[] =
	"usage: dmo-harness [--threads N] [--interleave] SPEC...\n"
	"       dmo-harness [--threads N] [--interleave] --model FILE\n"
	"\n"
	"Run the reference kernel of each op SPEC (e.g.\n"
	"dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same) once on deterministic\n"
	"data, between dmo_layer_begin and dmo_layer_end; layer K is named\n"
	"opK_<op>.  With --model, run the layers of a model in order, each\n"
	"reading its producers' outputs, named as in the model: a .tflite that\n"
	"dmo's kernels run with its real weights and quantisation on the input\n"
	"below, any other model (or a .tflite they do not run, with a note) on\n"
	"deterministic data.  Only the input and output buffers are profiled,\n"
	"not weights.  Meant to run under `dmo run` (or `dmo profile`); alone it\n"
	"just runs the kernels.\n"
	"\n"
	"  -j, --threads N    split each kernel's output over N threads (default 1)\n"
	"  -i, --interleave   threads take every N-th output element instead of\n"
	"                     one contiguous block each\n"
	"  -m, --model FILE   a model: a .tflite, .onnx or layer table\n"
	"                     (target-harness/models/*.csv)\n"
	DMO_INPUT_OPTIONS_HELP
	"      --progress     a line on stderr as each layer completes\n"
	"      --output FILE  after a real-weight run, write the raw bytes of every\n"
	"                     model output in tensor order (as `dmo infer --output`)\n"
	"      --rounding MODE  double (TFLite Micro's requantisation, default) or\n"
	"                     single (TFLITE_SINGLE_ROUNDING; what Arm NN computes)\n"
	"      --replay DIR   a real-weight run one layer at a time on another\n"
	"                     runtime's tensors: before layer L, every activation\n"
	"                     operand produced by layer P is read from\n"
	"                     DIR/armnn-PPPP.bin when that file exists; after it, its\n"
	"                     output goes to DIR/dmo-LLLL.bin (tests/armnn_layers.py\n"
	"                     compares them op by op)\n"
	"  -b, --backend NAME run the kernels of backend NAME (" DMO_BACKEND_NAMES_HOST "\n"
	"                     " DMO_BACKEND_NAMES_CMSIS ") instead of\n"
	"                     libdmokernels called directly; --threads N: xnnpack\n"
	"                     and onednn on their own pools of N threads\n"
	"      --isa CAP      cap the backend's instruction set: sse4, avx, avx2\n"
	"      --info FILE    write per layer the backend, its version, ISA and\n"
	"                     implementation and the CPU features seen (CSV)\n"
	"      --native-isa ISA, --host-isa ISA  the backend's ISA natively and the\n"
	"                     host CPU's widest, as the dmo front end found them\n"
	"                     outside Valgrind: two more columns of --info\n"
	"  -h, --help         this text\n";

struct harness_options {
	int threads;
	int interleave;
	const char *model;
	struct dmo_backend_handle *backend; /* NULL: the runner, with threads */
	const char *isa;
	FILE *info;
	struct dmo_backend_handle *described; /* the backend --info names */
	struct dmo_backend_handle *reference; /* ref: what runs a layer --backend does not */
	struct dmo_input_options input;       /* a real model's input */
	const char *output;                   /* a real model's outputs go here */
	const char *replay;                   /* --replay DIR */
	const char *native_isa, *host_isa;    /* --native-isa, --host-isa: "" unknown */
	int single_rounding;
	int progress;
};

enum { OPT_ISA = 0x100, OPT_INFO, OPT_PROGRESS, OPT_OUTPUT, OPT_ROUNDING, OPT_REPLAY,
       OPT_NATIVE_ISA, OPT_HOST_ISA };

static void info_field(FILE *out, const char *text, int last)
{
	csv_fwrite(out, text, strlen(text));
	fputc(last ? '\n' : ',', out);
}

/* One row of the --info file (columns in backend_info_header): layer NAME
 * ran on backend WHO; RUN is NULL for the reference runner called
 * directly. */
static void write_info(const struct harness_options *opts, const char *name,
		       const struct dmo_backend_handle *who, const struct dmo_backend_run *run)
{
	const struct dmo_backend *b;
	char cpu[128], impl[64];

	if (opts->info == NULL)
		return;
	b = dmo_backend_desc(who);
	dmo_cpu_features(cpu, sizeof cpu); /* under Valgrind, its virtual CPU's */
	if (run == NULL)
		snprintf(impl, sizeof impl, "reference loop order, %d thread%s%s", opts->threads,
			 opts->threads > 1 ? "s" : "", opts->interleave ? " interleaved" : "");
	info_field(opts->info, name, 0);
	info_field(opts->info, b->name, 0);
	info_field(opts->info, b->version(), 0);
	info_field(opts->info, opts->isa ? opts->isa : "", 0);
	info_field(opts->info, b->isa(), 0);
	info_field(opts->info, run ? dmo_backend_implementation(run) : impl, 0);
	info_field(opts->info, cpu, 0);
	info_field(opts->info, opts->native_isa, 0);
	info_field(opts->info, opts->host_isa, 0);
	fprintf(opts->info, "%zu\n", run ? dmo_backend_scratch_bytes(run) : (size_t)0);
	fflush(opts->info);
}

static const char backend_info_header[] =
	"name,backend,version,isa_cap,isa,implementation,cpu,native_isa,host_isa,scratch_bytes\n";

/* Run KERNEL(ARG) as layer NAME, between dmo_layer_begin and dmo_layer_end.
 * Returns 0; 1 when the kernel refused to run, for the caller to say why;
 * or -1 after saying which marker call failed. */
static int between_markers(const char *name, const char *spec, const void *in, size_t in_bytes,
			   void *out, size_t out_bytes, int (*kernel)(void *), void *arg)
{
	int rc;

	if (dmo_layer_begin(name, spec, in, in_bytes, out, out_bytes) != 0) {
		fprintf(stderr, "dmo-harness: %s: dmo_layer_begin failed: %s\n", name, dmo_layer_error());
		return -1;
	}
	rc = kernel(arg) ? 1 : 0;
	if (dmo_layer_end() != 0) {
		fprintf(stderr, "dmo-harness: %s: dmo_layer_end failed: %s\n", name, dmo_layer_error());
		return -1;
	}
	return rc;
}

/* The operands of one kernel call, for the three kinds below. */
struct kernel_call {
	struct dmo_backend_run *backend;
	struct dmo_op_run *ref;
	const void *in, *in2;
	void *out;
	const struct harness_options *opts;
};

static int backend_kernel(void *arg)
{
	const struct kernel_call *call = arg;
	return dmo_backend_execute(call->backend, call->in, call->out);
}

static int reference_kernel(void *arg)
{
	const struct kernel_call *call = arg;
	return dmo_op_execute2(call->ref, call->in, call->in2, call->out, call->opts->threads,
			       call->opts->interleave);
}

/* Run one layer: weights are made before begin, so only the kernel is
 * profiled.  Returns 0, or -1 after printing why. */
static int run_layer(const char *name, const struct dmo_opspec *spec, const void *in,
		     const void *in2, void *out, const struct harness_options *opts)
{
	struct kernel_call call = { .in = in, .in2 = in2, .out = out, .opts = opts };
	char err[512], text[512];
	int rc;

	dmo_opspec_format(spec, text, sizeof text);
	if (opts->backend != NULL)
		call.backend = dmo_backend_prepare(opts->backend, spec, in2, err, sizeof err);
	else
		call.ref = dmo_op_prepare(spec, err, sizeof err);
	if (call.backend == NULL && call.ref == NULL) {
		fprintf(stderr, "dmo-harness: %s: %s\n", name, err);
		return -1;
	}
	write_info(opts, name, opts->described, call.backend);
	rc = between_markers(name, text, in, dmo_opspec_in_bytes(spec), out, dmo_opspec_out_bytes(spec),
			     call.backend ? backend_kernel : reference_kernel, &call);
	if (rc > 0 && call.backend)
		fprintf(stderr, "dmo-harness: %s: backend %s failed to run\n", name,
			dmo_backend_desc(opts->backend)->name);
	else if (rc > 0)
		fprintf(stderr, "dmo-harness: %s: the kernel refused its arguments\n", name);
	dmo_backend_release(call.backend);
	dmo_op_free(call.ref);
	return rc ? -1 : 0;
}

/* 64-byte aligned: more than any backend asks (Arm NN imports 16). */
static void *alloc_buffer(const char *name, size_t bytes)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, bytes ? bytes : 1) != 0)
		p = NULL;
	if (p == NULL)
		fprintf(stderr, "dmo-harness: %s: cannot allocate %zu bytes\n", name, bytes);
	return p;
}

static int run_specs(char **texts, int count, const struct harness_options *opts)
{
	struct dmo_opspec *specs = calloc((size_t)count, sizeof *specs);
	struct dmo_progress steps;
	char err[256];
	int rc = 0;

	if (specs == NULL) {
		fprintf(stderr, "dmo-harness: out of memory\n");
		return 1;
	}
	/* Reject a bad spec before anything runs. */
	for (int i = 0; i < count; i++)
		if (dmo_opspec_parse(texts[i], &specs[i], err, sizeof err) != 0) {
			fprintf(stderr, "dmo-harness: '%s': %s\n", texts[i], err);
			free(specs);
			return 2;
		}
	dmo_progress_start(&steps, "run", (size_t)count, opts->progress);
	for (int i = 0; i < count && rc == 0; i++) {
		char name[64];
		void *in, *out;

		snprintf(name, sizeof name, "op%d_%s", i + 1, dmo_op_name(specs[i].op));
		in = alloc_buffer(name, dmo_opspec_in_bytes(&specs[i]));
		out = alloc_buffer(name, dmo_opspec_out_bytes(&specs[i]));
		if (in == NULL || out == NULL)
			rc = 1;
		else {
			dmo_op_fill_input(&specs[i], in, INPUT_SEED);
			rc = run_layer(name, &specs[i], in, NULL, out, opts) ? 1 : 0;
			if (rc == 0)
				dmo_progress_step(&steps, "layer %d %s", i + 1, name);
		}
		free(in);
		free(out);
	}
	free(specs);
	return rc;
}

/* --progress: layer L of MODEL has completed, in the line format of every
 * dmo command (runner/progress.h). */
static void progress(struct dmo_progress *p, const struct dmo_model *model, size_t l)
{
	const struct dmo_model_layer *layer = &model->layers[l];

	dmo_progress_step(p, "layer %zu %s %s", l + 1, layer->name,
			  layer->supported ? dmo_op_name(layer->op.op) : layer->op_name ? layer->op_name : "");
}

/* Every activation tensor stays allocated until the end, which keeps any
 * producer available to later consumers (residual adds) at the cost of the
 * whole model's activations, a few tens of MB for the tables here.  Layers
 * without a dmo op spec (a model file's other ops) are not profiled: their
 * outputs are filled with a fixed pattern for the layers after them. */
static int run_model(const struct dmo_model *model, const struct harness_options *opts)
{
	void **buffers = calloc(model->n_tensors + 1, sizeof *buffers);
	struct dmo_progress steps;
	size_t n_supported = 0;
	int rc = 0;

	if (buffers == NULL) {
		fprintf(stderr, "dmo-harness: out of memory\n");
		return 1;
	}
	for (size_t t = 0; t < model->n_tensors && rc == 0; t++) {
		const struct dmo_model_tensor *tt = &model->tensors[t];
		const struct dmo_opspec *reader = NULL;

		if (tt->producer == DMO_MODEL_CONSTANT)
			continue;
		buffers[t] = alloc_buffer(tt->name, tt->bytes ? tt->bytes : 1);
		if (buffers[t] == NULL) {
			rc = 1;
			break;
		}
		if (tt->producer != DMO_MODEL_INPUT)
			continue;
		for (size_t l = 0; l < model->n_layers && reader == NULL; l++)
			if (model->layers[l].supported && model->layers[l].n_act_in &&
			    model->layers[l].act_in[0] == (int)t)
				reader = &model->layers[l].op;
		if (reader != NULL)
			dmo_op_fill_input(reader, buffers[t], INPUT_SEED);
		else
			memset(buffers[t], 0x11, tt->bytes);
	}
	for (size_t l = 0; l < model->n_layers; l++)
		n_supported += model->layers[l].supported;
	dmo_progress_start(&steps, "run", n_supported, opts->progress);
	for (size_t l = 0; l < model->n_layers && rc == 0; l++) {
		const struct dmo_model_layer *layer = &model->layers[l];
		/* A second operand that broadcasts is smaller than the
		 * runner's (the input's shape): it gets the input's bytes.
		 * matmul's B is fed as it is. */
		int binary = (dmo_op_binary(layer->op.op) && layer->n_act_in > 1 &&
			      model->tensors[layer->act_in[1]].bytes ==
				      model->tensors[layer->act_in[0]].bytes) ||
			     (layer->op.op == DMO_OP_MATMUL && layer->n_act_in == 2);

		if (!layer->supported) {
			for (size_t k = 0; k < layer->n_results; k++)
				memset(buffers[layer->results[k]], 0x22,
				       model->tensors[layer->results[k]].bytes);
			continue;
		}
		rc = run_layer(layer->name, &layer->op, buffers[layer->act_in[0]],
			       binary ? buffers[layer->act_in[1]] : NULL,
			       buffers[layer->results[0]], opts) ? 1 : 0;
		if (rc == 0)
			progress(&steps, model, l);
	}
	for (size_t t = 0; t < model->n_tensors; t++)
		free(buffers[t]);
	free(buffers);
	return rc;
}

/* The model's outputs, raw, in tensor order, into PATH. */
static int write_outputs(const struct dmo_net *net, const unsigned char *arena,
			 const uint64_t *offsets, const char *path)
{
	FILE *out = fopen(path, "wb");
	int rc = out == NULL ? -1 : 0;

	for (size_t t = 0; t < net->n_tensors && rc == 0; t++) {
		uint64_t bytes = dmo_net_tensor_bytes(net, (int)t);
		if (net->tensors[t].graph_output && fwrite(arena + offsets[t], 1, bytes, out) != bytes)
			rc = -1;
	}
	if (out != NULL && fclose(out) != 0)
		rc = -1;
	if (rc != 0)
		fprintf(stderr, "dmo-harness: %s: cannot write\n", path);
	return rc;
}

/* --replay: layer L's operands from the other runtime's files (LOAD), or
 * its output to DIR/dmo-LLLL.bin.  Returns 0, or -1 after a message. */
static int replay_io(const struct dmo_model *model, size_t l, unsigned char *arena,
		     const uint64_t *offsets, const char *dir, int load)
{
	const struct dmo_model_layer *layer = &model->layers[l];
	char path[4096];

	for (size_t k = 0; k < (load ? layer->n_act_in : 1); k++) {
		int t = load ? layer->act_in[k] : layer->results[0];
		int from = load ? model->tensors[t].producer : (int)l;
		uint64_t bytes = model->tensors[t].bytes;

		if (from < 0)
			continue; /* a model input: --input's bytes */
		snprintf(path, sizeof path, "%s/%s-%04d.bin", dir, load ? "armnn" : "dmo", from);
		FILE *f = fopen(path, load ? "rb" : "wb");
		if (f == NULL && load)
			continue; /* not in the other runtime's dump: dmo's own */
		int ok = f != NULL && (load ? fread(arena + offsets[t], 1, bytes, f) == bytes &&
						      fgetc(f) == EOF
					    : fwrite(arena + offsets[t], 1, bytes, f) == bytes);
		if (f != NULL && fclose(f) != 0)
			ok = 0;
		if (!ok) {
			fprintf(stderr, "dmo-harness: %s: %s %llu bytes failed\n", path,
				load ? "reading exactly" : "writing", (unsigned long long)bytes);
			return -1;
		}
	}
	return 0;
}

/* One step of a real-weight net, for between_markers: on the backend when
 * it was prepared there, else on the reference kernels; ERR says why it
 * failed. */
struct net_step {
	const struct dmo_net *net;
	size_t l;
	unsigned char *arena;
	const uint64_t *offsets;
	struct dmo_backend_run *backend;
	const void *in;
	void *out;
	char *err;
	size_t err_len;
};

static int net_kernel(void *arg)
{
	const struct net_step *step = arg;

	if (step->backend == NULL)
		return dmo_net_run_step(step->net, step->l, step->arena, step->offsets, step->err,
					step->err_len);
	if (dmo_backend_execute(step->backend, step->in, step->out) == 0)
		return 0;
	snprintf(step->err, step->err_len, "step %zu: the backend failed to run", step->l);
	return -1;
}

/* A .tflite model run with its real weights: every activation tensor in
 * its own 64-byte aligned slot of one allocation (so a layer's input and
 * output never overlap, and each producer's output stays for every later
 * consumer), the inputs from --input/--random/--zeros, and each step
 * between begin and end with its first activation operand as the profiled
 * input (the one the planner may overlap, model_table.h's act_in[0]).
 * Layers without a dmo op spec are profiled too, with no spec.  With
 * --backend, each step the backend takes (its first operand being the
 * profiled input) runs there, prepared before its begin; the others run on
 * the reference kernels; --info says which, per layer.  Returns 0, 1 when
 * a layer or a file failed, 2 when the input does not fit the model. */
static int run_net(const struct dmo_model *model, const struct dmo_net *net,
		   const struct harness_options *opts)
{
	uint64_t *offsets = calloc(model->n_tensors + 1, sizeof *offsets), total = 0;
	unsigned char *arena = NULL;
	struct dmo_progress steps;
	char err[1024];
	int rc = 0;

	if (offsets == NULL) {
		fprintf(stderr, "dmo-harness: out of memory\n");
		return 1;
	}
	for (size_t t = 0; t < model->n_tensors; t++)
		if (!net->tensors[t].data) {
			offsets[t] = total;
			total += (dmo_net_tensor_bytes(net, (int)t) + 63) / 64 * 64;
		}
	arena = alloc_buffer("arena", total);
	if (arena == NULL) {
		free(offsets);
		return 1;
	}
	/* Bytes no layer wrote must never look like a result. */
	memset(arena, 0xa5, total);
	if (dmo_net_fill_inputs(net, &opts->input.source, arena, offsets, err, sizeof err)) {
		fprintf(stderr, "dmo-harness: %s\n", err);
		rc = 2;
	}
	dmo_progress_start(&steps, "run", model->n_layers, opts->progress);
	for (size_t l = 0; l < model->n_layers && rc == 0; l++) {
		const struct dmo_model_layer *layer = &model->layers[l];
		int in = layer->n_act_in ? layer->act_in[0] : -1, out = layer->results[0];

		if (opts->replay && replay_io(model, l, arena, offsets, opts->replay, 1)) {
			rc = 1;
			break;
		}
		if (in < 0) { /* nothing to profile: a layer of constants only */
			rc = dmo_net_run_step(net, l, arena, offsets, err, sizeof err) ? 1 : 0;
		} else {
			struct net_step step = { net, l, arena, offsets, NULL, arena + offsets[in],
						 arena + offsets[out], err, sizeof err };

			if (opts->backend != NULL && net->steps[l].inputs[0] == in)
				step.backend = dmo_net_backend_prepare(opts->backend, net, l, arena,
								       offsets, err, sizeof err);
			write_info(opts, layer->name, step.backend ? opts->backend : opts->reference,
				   step.backend);
			rc = between_markers(layer->name, layer->supported ? layer->spec : NULL,
					     arena + offsets[in], model->tensors[in].bytes,
					     arena + offsets[out], model->tensors[out].bytes, net_kernel, &step);
			dmo_backend_release(step.backend);
		}
		if (rc > 0)
			fprintf(stderr, "dmo-harness: %s\n", err);
		if (rc != 0) {
			rc = 1;
			break;
		}
		progress(&steps, model, l);
		if (opts->replay && replay_io(model, l, arena, offsets, opts->replay, 0))
			rc = 1;
	}
	if (rc == 0 && opts->output != NULL && write_outputs(net, arena, offsets, opts->output) != 0)
		rc = 1;
	free(arena);
	free(offsets);
	return rc;
}

static int run_inputs(int argc, char **argv, struct harness_options *opts,
		      struct dmo_model *model, char *err, size_t err_len);

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "threads", required_argument, NULL, 'j' },
		{ "interleave", no_argument, NULL, 'i' },
		{ "model", required_argument, NULL, 'm' },
		{ "backend", required_argument, NULL, 'b' },
		{ "isa", required_argument, NULL, OPT_ISA },
		{ "info", required_argument, NULL, OPT_INFO },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "rounding", required_argument, NULL, OPT_ROUNDING },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "native-isa", required_argument, NULL, OPT_NATIVE_ISA },
		{ "host-isa", required_argument, NULL, OPT_HOST_ISA },
		DMO_INPUT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct harness_options opts = { .threads = 1, .input.source.seed = 1, .native_isa = "",
					.host_isa = "" };
	struct dmo_model model = { 0 };
	const char *backend = NULL, *info = NULL;
	char err[1024];
	int c, rc;

	while ((c = getopt_long(argc, argv, "j:im:b:h", options, NULL)) != -1) {
		rc = dmo_input_option(&opts.input, c, optarg, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "dmo-harness: %s\n", err);
			return 2;
		}
		if (rc)
			continue;
		switch (c) {
		case 'j':
			if (dmo_op_parse_threads(optarg, &opts.threads) != 0) {
				fprintf(stderr, "dmo-harness: --threads must be 1..%d, not '%s'\n",
					DMO_OP_MAX_THREADS, optarg);
				return 2;
			}
			break;
		case 'i':
			opts.interleave = 1;
			break;
		case 'm':
			opts.model = optarg;
			break;
		case 'b':
			backend = optarg;
			break;
		case OPT_ISA:
			opts.isa = optarg;
			break;
		case OPT_INFO:
			info = optarg;
			break;
		case OPT_PROGRESS:
			opts.progress = 1;
			break;
		case OPT_OUTPUT:
			opts.output = optarg;
			break;
		case OPT_ROUNDING:
			if (strcmp(optarg, "single") && strcmp(optarg, "double")) {
				fprintf(stderr, "dmo-harness: --rounding '%s': expected double or single\n",
					optarg);
				return 2;
			}
			opts.single_rounding = !strcmp(optarg, "single");
			break;
		case OPT_REPLAY:
			opts.replay = optarg;
			break;
		case OPT_NATIVE_ISA:
			opts.native_isa = optarg;
			break;
		case OPT_HOST_ISA:
			opts.host_isa = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (opts.isa != NULL && backend == NULL)
		backend = "ref";
	if (backend != NULL) {
		/* A backend's threads are its library's own pool. */
		opts.backend = dmo_backend_load(backend, opts.isa, err, sizeof err);
		if (opts.backend == NULL ||
		    dmo_backend_set_threads(opts.backend, opts.threads, err, sizeof err) != 0) {
			fprintf(stderr, "dmo-harness: %s\n", err);
			return 2;
		}
	}
	if (info != NULL) {
		opts.reference = dmo_backend_load("ref", NULL, err, sizeof err);
		opts.described = opts.backend ? opts.backend : opts.reference;
		opts.info = fopen(info, "w");
		if (opts.info == NULL || opts.described == NULL) {
			fprintf(stderr, "dmo-harness: %s: cannot write\n", info);
			return 2;
		}
		fputs(backend_info_header, opts.info);
	}
	rc = run_inputs(argc, argv, &opts, &model, err, sizeof err);
	if (opts.info != NULL) {
		/* A row that did not reach the disk failed at its fflush already. */
		int lost = ferror(opts.info);

		if ((fclose(opts.info) != 0 || lost) && rc == 0) {
			fprintf(stderr, "dmo-harness: %s: cannot write\n", info);
			rc = 1;
		}
	}
	return rc;
}

/* The op specs or the model of the command line. */
static int run_inputs(int argc, char **argv, struct harness_options *opts,
		      struct dmo_model *model, char *err, size_t err_len)
{
	int rc;

	if (opts->model == NULL) {
		if (optind >= argc) {
			fprintf(stderr, "dmo-harness: no op spec given\n%s", usage);
			return 2;
		}
		return run_specs(argv + optind, argc - optind, opts);
	}
	if (optind < argc) {
		fprintf(stderr, "dmo-harness: give either --model or op specs, not both\n");
		return 2;
	}
	if (dmo_model_load(opts->model, model, err, err_len) != 0 ||
	    dmo_model_check_shapes(model, err, err_len) != 0) {
		fprintf(stderr, "dmo-harness: %s\n", err);
		dmo_model_free(model);
		return 2;
	}
	struct dmo_net net;
	char why[1024];
	int real = model->format == DMO_FORMAT_TFLITE ? dmo_net_runs(model, &net, why, sizeof why) : 0;
	if (real < 0) {
		fprintf(stderr, "dmo-harness: %s\n", why);
		dmo_model_free(model);
		return 1;
	}
	if (real && opts->threads != 1) {
		fprintf(stderr, "dmo-harness: a .tflite model runs with its real weights one "
			"thread at a time: no --threads\n");
		rc = 2;
	} else if (real) {
		net.single_rounding = opts->single_rounding;
		rc = run_net(model, &net, opts);
	} else {
		if (model->format == DMO_FORMAT_TFLITE)
			fprintf(stderr, "dmo-harness: %s: not with real weights (%s): its layers with "
				"an op spec run on deterministic data instead\n", opts->model, why);
		else if (opts->input.given)
			fprintf(stderr, "dmo-harness: --input, --random and --zeros need a .tflite "
				"model (its real weights); ignored\n");
		rc = run_model(model, opts);
	}
	if (real)
		dmo_net_free(&net);
	dmo_model_free(model);
	return rc;
}
