/* cmd_infer.c - `dmo infer`: a whole .tflite model run with its real weights
 * through the reference kernels (or, layer by layer, a backend's), every
 * activation in one arena laid out by a plan (with or without diagonal
 * overlaps); the outputs written raw and summarised (the top classes of a
 * classifier). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "backend.h"
#include "backend_options.h"
#include "cmd.h"
#include "fs.h"
#include "json.h"
#include "kernels.h"
#include "profile_options.h"
#include "infer.h"
#include "infer_backend.h"
#include "infer_model.h"
#include "input_options.h"
#include "model_table.h"
#include "plan.h"
#include "plan_arena.h"
#include "plan_emit.h"
#include "progress.h"

enum { OPT_ARENA = CMD_LONG_ONLY, OPT_ROUNDING, OPT_OS, OPT_OUTPUT, OPT_BACKEND };

static const struct cmd_option options[] = {
	{ "arena", required_argument, OPT_ARENA, "KIND",
	  "overlap (the plan with diagonal overlaps, default),\n"
	  "plain (no overlaps, TFLite Micro's greedy placement)\n"
	  "or a FILE written by `dmo plan --csv` for this model\n"
	  "(its offset_dmo column; refused unless it is safe for\n"
	  "the layers' O_s), or model: the offline memory plan\n"
	  "the .tflite carries (dmo plan --emit-tflite; refused\n"
	  "unless made for the kernels infer runs, and safe)" },
	{ "rounding", required_argument, OPT_ROUNDING, "MODE",
	  "double (TFLite Micro's default requantisation, default)\n"
	  "or single (TFLITE_SINGLE_ROUNDING; what Arm NN computes)" },
	{ "os", required_argument, OPT_OS, "SOURCE",
	  "per-layer O_s of the overlap plan: algorithmic\n"
	  "(default), analytic or measured:DIR (a run of the\n"
	  "kernels infer runs: DIR/kernels.csv must say ref, or\n"
	  "--backend's name)" },
	{ "output", required_argument, OPT_OUTPUT, "FILE",
	  "write the raw bytes of every model output, in tensor\n"
	  "order" },
	{ "backend", required_argument, OPT_BACKEND, "NAME",
	  "run each layer backend NAME takes on it, with the\n"
	  "model's quantisation, the others on the reference\n"
	  "kernels (the layer lines on stderr say which)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "infer",
	.synopsis = "[OPTIONS] MODEL",
	.description =
	"Run a .tflite or .onnx MODEL with its real weights and quantisation\n"
	"through dmo's reference kernels (TensorFlow Lite Micro's integer\n"
	"arithmetic; an ONNX model's Conv and pools on the NCHW kernels, in ONNX\n"
	"Runtime's loop order), every activation tensor inside one arena laid out\n"
	"by `dmo plan`.  Print the arena size and each output (the top classes of\n"
	"a classifier).\n",
	.tables = { cmd_input_options, options },
	.notes = "--csv and --json print every output element, a row each: the output's\n"
		 "name and shape, the element's index and real value, and its rank by\n"
		 "value within its output (1: the largest; a classifier's best class).\n"
		 "A line per layer goes to stderr as each is run.\n",
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON | CMD_HAS_QUIET,
};

static double real_value(const struct dmo_net_tensor *t, const unsigned char *p, uint64_t i)
{
	switch (t->dtype) {
	case DMO_NET_F32: {
		float v;
		memcpy(&v, p + 4 * i, 4);
		return v;
	}
	case DMO_NET_I8:
		return t->n_quant ? t->scale[0] * ((int8_t)p[i] - (double)t->zero_point[0]) : (int8_t)p[i];
	case DMO_NET_U8:
		return t->n_quant ? t->scale[0] * (p[i] - (double)t->zero_point[0]) : p[i];
	default:
		return 0;
	}
}

/* T's dimensions as "1x2", the way the text and the CSV both show them. */
static void shape_text(const struct dmo_net_tensor *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->rank && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "x" : "", t->dims[i]);
}

static const struct dmo_net_tensor *ranked_tensor;
static const unsigned char *ranked_bytes;

/* Larger values first; equal ones by index, so ranks are deterministic. */
static int by_value(const void *a, const void *b)
{
	uint64_t i = *(const uint64_t *)a, j = *(const uint64_t *)b;
	double x = real_value(ranked_tensor, ranked_bytes, i), y = real_value(ranked_tensor, ranked_bytes, j);

	return x > y ? -1 : x < y ? 1 : (i > j) - (i < j);
}

/* The indices of output T's N elements (at P), best first: the order the
 * summary's top classes and the CSV's ranks both come from.  NULL when out
 * of memory; the caller frees it. */
static uint64_t *rank_order(const struct dmo_net_tensor *t, const unsigned char *p, uint64_t n)
{
	uint64_t *order = malloc((n ? n : 1) * sizeof *order);

	if (order == NULL)
		return NULL;
	for (uint64_t i = 0; i < n; i++)
		order[i] = i;
	ranked_tensor = t;
	ranked_bytes = p;
	qsort(order, n, sizeof *order, by_value);
	return order;
}

/* The text summary of output T: every value of a small output, else a
 * classifier's three best classes, in rank_order's order but found in one
 * pass: a 2 GiB output is not sorted to print three.  Returns 0. */
static int summarise(FILE *out, const struct dmo_net_tensor *t, const unsigned char *p, uint64_t n)
{
	enum { TOP = 3 };
	uint64_t best[TOP];
	char shape[128];

	shape_text(t, shape, sizeof shape);
	if (n <= 8) {
		fprintf(out, "output '%s' [%s]:", t->name, shape);
		for (uint64_t i = 0; i < n; i++)
			fprintf(out, " %g", real_value(t, p, i));
		fprintf(out, "\n");
		return 0;
	}
	ranked_tensor = t;
	ranked_bytes = p;
	for (uint64_t i = 0; i < n; i++) {
		/* Insert i among the best so far (at most TOP of them). */
		int k = i < TOP ? (int)i : TOP;
		if (k == TOP && by_value(&i, &best[TOP - 1]) > 0)
			continue;
		if (k == TOP)
			k--;
		for (; k > 0 && by_value(&i, &best[k - 1]) < 0; k--)
			best[k] = best[k - 1];
		best[k] = i;
	}
	fprintf(out, "output '%s' [%s]: top classes", t->name, shape);
	for (int k = 0; k < TOP; k++)
		fprintf(out, " %" PRIu64 " (%g)", best[k], real_value(t, p, best[k]));
	fprintf(out, "\n");
	return 0;
}

/* --csv: every element of output T (N of them at P), with its rank. */
static int write_rows(FILE *out, const struct dmo_net_tensor *t, const unsigned char *p, uint64_t n)
{
	uint64_t *order = rank_order(t, p, n), *rank = malloc((n ? n : 1) * sizeof *rank);
	char shape[128];

	if (order == NULL || rank == NULL) {
		free(order);
		free(rank);
		return -1;
	}
	for (uint64_t k = 0; k < n; k++)
		rank[order[k]] = k + 1;
	shape_text(t, shape, sizeof shape);
	for (uint64_t i = 0; i < n; i++) {
		csv_fwrite(out, t->name ? t->name : "", t->name ? strlen(t->name) : 0);
		fprintf(out, ",%s,%" PRIu64 ",%.9g,%" PRIu64 "\n", shape, i, real_value(t, p, i), rank[i]);
	}
	free(order);
	free(rank);
	return 0;
}

int cmd_infer(int argc, char **argv)
{
	struct dmo_input_options in = { .source.seed = 1 };
	const char *output = NULL, *arena_kind = "overlap", *os_name = "algorithmic";
	struct cmd_output shown = { CMD_TEXT, 0 };
	struct cmd_table table = { .stream = NULL };
	struct dmo_progress steps;
	char err[1024];
	int c, single = 0, taken;
	const char *backend_name = NULL;
	struct dmo_backend_handle *backend = NULL;
	size_t on_backend = 0;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (cmd_output_option(&command, c, &shown))
			continue;
		taken = dmo_input_option(&in, c, optarg, err, sizeof err);
		if (taken < 0)
			return cmd_misuse(&command, "%s", err);
		if (taken)
			continue;
		switch (c) {
		case OPT_ARENA:
			arena_kind = optarg;
			break;
		case OPT_OS:
			os_name = optarg;
			break;
		case OPT_OUTPUT:
			output = optarg;
			break;
		case OPT_BACKEND:
			backend_name = optarg;
			break;
		case OPT_ROUNDING:
			if (strcmp(optarg, "single") && strcmp(optarg, "double"))
				return cmd_misuse(&command, "--rounding '%s': expected double or single",
						  optarg);
			single = !strcmp(optarg, "single");
			break;
		}
	}
	if (optind != argc - 1)
		return cmd_misuse(&command, "give exactly one MODEL");
	if (backend_name != NULL &&
	    (dmo_backend_options_check("dmo infer", &backend_name, NULL, 1) != 0 ||
	     (backend = dmo_backend_load(backend_name, NULL, err, sizeof err)) == NULL))
		return 2;
	/* overlap, plain, the model's own plan, or a plan file (whose offsets
	 * replace offset_dmo) */
	int plain = !strcmp(arena_kind, "plain"), embedded = !strcmp(arena_kind, "model");
	int from_file = !plain && !embedded && strcmp(arena_kind, "overlap");
	struct dmo_kernels os_kernels, run_kernels;
	int unknown = dmo_kernels_of_os(os_name, &os_kernels, err, sizeof err);

	/* The kernels run here are dmo's reference kernels, or the backend's
	 * where it takes a layer: O_s measured on any other would not hold. */
	if (unknown < 0 ||
	    dmo_kernels_of_backend(backend_name ? backend_name : DMO_KERNELS_REF_NAME, NULL,
				   &run_kernels, err, sizeof err) != 0 ||
	    dmo_kernels_check_run(&os_kernels, unknown, &run_kernels, "dmo infer", err, sizeof err) != 0) {
		fprintf(stderr, "dmo infer: --os %s: %s\n", os_name, err);
		return 2;
	}

	struct dmo_model model = { 0 };
	struct dmo_plan plan;
	struct dmo_net net;
	int rc = 2; /* a model dmo cannot run is bad input: infer has no finding */
	struct dmo_out out = { 0 }; /* OUTPUT, renamed into place once whole */
	if (dmo_plan_model(argv[optind], NULL, 0, os_name, DMO_PLAN_TIME_LIMIT, NULL, &model, &plan,
			   err, sizeof err)) {
		fprintf(stderr, "dmo infer: %s\n", err);
		return 2;
	}
	if ((from_file && dmo_plan_read_csv(arena_kind, &model, &plan, err, sizeof err)) ||
	    (embedded && dmo_plan_read_embedded(&model, &run_kernels, &plan, err, sizeof err))) {
		fprintf(stderr, "dmo infer: --arena %s%s\n", embedded ? "model: " : "", err);
		dmo_plan_free(&plan);
		dmo_model_free(&model);
		return 2;
	}
	if (dmo_net_runs(&model, &net, err, sizeof err) <= 0) {
		fprintf(stderr, "dmo infer: %s: %s\n", argv[optind], err);
		dmo_plan_free(&plan);
		dmo_model_free(&model);
		return 2;
	}
	net.single_rounding = single;
	uint64_t size = plain ? plan.peak_plain : plan.peak_dmo;
	uint64_t *offsets = calloc(model.n_tensors ? model.n_tensors : 1, sizeof *offsets);
	unsigned char *arena = malloc(size ? size : 1);
	if (!offsets || !arena) {
		fprintf(stderr, "dmo infer: out of memory for a %" PRIu64 "-byte arena\n", size);
		goto done;
	}
	dmo_plan_offsets(&model, &plan, !plain, offsets);
	/* Stale bytes from an earlier layer must never look like a result. */
	memset(arena, 0xa5, size);
	if (dmo_net_fill_inputs(&net, &in.source, arena, offsets, err, sizeof err)) {
		fprintf(stderr, "dmo infer: %s\n", err);
		goto done;
	}
	dmo_progress_start(&steps, command.name, net.n_steps, dmo_progress_wanted(shown.quiet));
	for (size_t l = 0; l < net.n_steps; l++) {
		int ran = dmo_net_run_step_on(backend, &net, l, arena, offsets, err, sizeof err);

		if (ran < 0) {
			fprintf(stderr, "dmo infer: %s: %s\n", argv[optind], err);
			goto done;
		}
		on_backend += (size_t)ran;
		dmo_progress_step(&steps, "layer %zu %s on %s", l + 1, model.layers[l].name,
				  ran ? backend_name : "ref");
	}
	if (shown.format != CMD_TEXT) {
		if (cmd_table_open(&table, shown.format, "infer") == NULL)
			goto done;
		fputs("output,shape,index,value,rank\n", table.stream);
	} else {
		printf("model %s: %zu layers run in a %" PRIu64 "-byte arena (%s%s; %s: %" PRIu64
		       " bytes; activations only)\n",
	       argv[optind], net.n_steps, size, from_file ? "plan " : plain ? "plain plan" :
	       embedded ? "the model's offline plan" : "overlap plan",
	       from_file ? arena_kind : "", plain ? "with overlaps" : "without overlaps",
	       plain ? plan.peak_dmo : plan.peak_plain);
		if (backend != NULL)
			printf("kernels: %zu layers on %s (%s), %zu on the reference kernels\n",
			       on_backend, backend_name, dmo_backend_desc(backend)->version(),
			       net.n_steps - on_backend);
	}
	if (output && !dmo_out_open(&out, output, err, sizeof err)) {
		fprintf(stderr, "dmo infer: %s\n", err);
		goto done;
	}
	for (size_t t = 0; t < net.n_tensors; t++) {
		if (!net.tensors[t].graph_output)
			continue;
		uint64_t bytes = dmo_net_tensor_bytes(&net, (int)t);
		uint64_t n = bytes / dmo_net_dtype_size(net.tensors[t].dtype);

		if ((shown.format == CMD_TEXT ? summarise(stdout, &net.tensors[t], arena + offsets[t], n)
					      : write_rows(table.stream, &net.tensors[t], arena + offsets[t], n)) != 0) {
			fprintf(stderr, "dmo infer: out of memory\n");
			goto done;
		}
		if (out.stream && fwrite(arena + offsets[t], 1, bytes, out.stream) != bytes) {
			fprintf(stderr, "dmo infer: %s: write failed\n", output);
			goto done;
		}
	}
	if (out.stream && dmo_out_commit(&out, err, sizeof err)) {
		fprintf(stderr, "dmo infer: %s\n", err);
		goto done;
	}
	if (table.stream != NULL && cmd_table_close(&table, err, sizeof err) != 0) {
		table.stream = NULL;
		fprintf(stderr, "dmo infer: %s\n", err);
		goto done;
	}
	table.stream = NULL;
	rc = 0;
done:
	if (table.stream != NULL && table.stream != stdout)
		fclose(table.stream);
	free(table.csv);
	dmo_out_abandon(&out); /* a part of the outputs is no result */
	free(arena);
	free(offsets);
	dmo_net_free(&net);
	dmo_plan_free(&plan);
	dmo_model_free(&model);
	return rc;
}
