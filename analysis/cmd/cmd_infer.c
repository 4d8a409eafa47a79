/* cmd_infer.c - `dmo infer`: a whole .tflite model run with its real weights
 * through the reference kernels, every activation in one arena laid out by
 * a plan (with or without diagonal overlaps); the outputs written raw and
 * summarised (the top classes of a classifier). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "infer.h"
#include "infer_model.h"
#include "model_table.h"
#include "plan.h"

enum { OPT_INPUT = CMD_LONG_ONLY, OPT_RANDOM, OPT_ZEROS, OPT_ARENA, OPT_ROUNDING, OPT_OS,
       OPT_OUTPUT };

static const struct cmd_option options[] = {
	{ "input", required_argument, OPT_INPUT, "FILE",
	  "raw bytes of every model input, in tensor order" },
	{ "random", required_argument, OPT_RANDOM, "SEED",
	  "pseudo-random inputs (default: --random 1)" },
	{ "zeros", no_argument, OPT_ZEROS, NULL, "inputs of all-zero bytes" },
	{ "arena", required_argument, OPT_ARENA, "KIND",
	  "overlap (the plan with diagonal overlaps, default) or\n"
	  "plain (no overlaps, TFLite Micro's greedy placement)" },
	{ "rounding", required_argument, OPT_ROUNDING, "MODE",
	  "double (TFLite Micro's default requantisation, default)\n"
	  "or single (TFLITE_SINGLE_ROUNDING; what Arm NN computes)" },
	{ "os", required_argument, OPT_OS, "SOURCE",
	  "per-layer O_s of the overlap plan: algorithmic\n"
	  "(default), analytic or measured:DIR" },
	{ "output", required_argument, OPT_OUTPUT, "FILE",
	  "write the raw bytes of every model output, in tensor\n"
	  "order" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "infer",
	.synopsis = "[OPTIONS] MODEL",
	.description =
	"Run a .tflite MODEL with its real weights and quantisation through dmo's\n"
	"reference kernels (TensorFlow Lite Micro's integer arithmetic), every\n"
	"activation tensor inside one arena laid out by `dmo plan`.  Print the\n"
	"arena size and each output (the top classes of a classifier).\n",
	.tables = { options },
};

/* xorshift64*: the same bytes for the same seed on every machine. */
static uint8_t next_byte(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return (uint8_t)((*state * 0x2545F4914F6CDD1DULL) >> 56);
}

/* Fill the model inputs: from FILE (exact size), zeros, or random; a float
 * input gets values in [-1, 1) rather than random bit patterns. */
static int fill_inputs(const struct dmo_model *model, const struct dmo_net *net, unsigned char *arena,
		       const uint64_t *offsets, const char *file, int zeros, uint64_t seed)
{
	FILE *f = NULL;
	uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;

	if (file && !(f = fopen(file, "rb"))) {
		fprintf(stderr, "dmo infer: %s: %s\n", file, strerror(errno));
		return -1;
	}
	for (size_t t = 0; t < model->n_tensors; t++) {
		if (!model->tensors[t].graph_input || model->tensors[t].data)
			continue;
		unsigned char *p = arena + offsets[t];
		uint64_t bytes = dmo_net_tensor_bytes(net, (int)t);
		if (f) {
			if (fread(p, 1, bytes, f) != bytes) {
				fprintf(stderr, "dmo infer: %s: too short for input '%s' (%" PRIu64 " bytes)\n",
					file, model->tensors[t].name, bytes);
				fclose(f);
				return -1;
			}
		} else if (zeros) {
			memset(p, 0, bytes);
		} else if (net->tensors[t].dtype == DMO_NET_F32) {
			for (uint64_t i = 0; i < bytes / 4; i++) {
				float v = (float)((next_byte(&state) << 8 | next_byte(&state)) / 32768.0 - 1.0);
				memcpy(p + 4 * i, &v, 4);
			}
		} else {
			for (uint64_t i = 0; i < bytes; i++)
				p[i] = next_byte(&state);
		}
	}
	if (f) {
		int extra = fgetc(f);
		fclose(f);
		if (extra != EOF) {
			fprintf(stderr, "dmo infer: %s: longer than the model's inputs\n", file);
			return -1;
		}
	}
	return 0;
}

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

static void summarise(FILE *out, const struct dmo_net_tensor *t, const unsigned char *p, uint64_t n)
{
	fprintf(out, "output '%s' [", t->name);
	for (int i = 0; i < t->rank; i++)
		fprintf(out, "%s%d", i ? "x" : "", t->dims[i]);
	fprintf(out, "]:");
	if (n <= 8) {
		for (uint64_t i = 0; i < n; i++)
			fprintf(out, " %g", real_value(t, p, i));
		fprintf(out, "\n");
		return;
	}
	/* A classifier's scores: the three best classes. */
	uint64_t best[3] = { 0, 0, 0 };
	int have = 0;
	for (uint64_t i = 0; i < n; i++) {
		double v = real_value(t, p, i);
		int k = have < 3 ? have++ : 3;
		while (k > 0 && real_value(t, p, best[k - 1]) < v) {
			if (k < 3)
				best[k] = best[k - 1];
			k--;
		}
		if (k < 3)
			best[k] = i;
	}
	fprintf(out, " top classes");
	for (int k = 0; k < have; k++)
		fprintf(out, " %" PRIu64 " (%g)", best[k], real_value(t, p, best[k]));
	fprintf(out, "\n");
}

int cmd_infer(int argc, char **argv)
{
	const char *input = NULL, *output = NULL, *arena_kind = "overlap", *os_name = "algorithmic";
	uint64_t seed = 1;
	int c, zeros = 0, sources = 0, single = 0;
	char *end;

	optind = 0;
	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		switch (c) {
		case OPT_INPUT:
			input = optarg;
			sources++;
			break;
		case OPT_RANDOM:
			errno = 0;
			seed = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end)
				return cmd_misuse(&command, "--random '%s': expected a number", optarg);
			sources++;
			break;
		case OPT_ZEROS:
			zeros = 1;
			sources++;
			break;
		case OPT_ARENA:
			arena_kind = optarg;
			break;
		case OPT_OS:
			os_name = optarg;
			break;
		case OPT_OUTPUT:
			output = optarg;
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
	if (sources > 1)
		return cmd_misuse(&command, "give at most one of --input, --random, --zeros");
	int overlap = !strcmp(arena_kind, "overlap");
	if (!overlap && strcmp(arena_kind, "plain"))
		return cmd_misuse(&command, "--arena '%s': expected overlap or plain", arena_kind);

	struct dmo_model model = { 0 };
	struct dmo_plan plan;
	struct dmo_net net;
	char err[1024];
	int rc = 2; /* a model dmo cannot run is bad input: infer has no finding */
	if (dmo_plan_model(argv[optind], NULL, 0, os_name, DMO_PLAN_TIME_LIMIT, &model, &plan,
			   err, sizeof err)) {
		fprintf(stderr, "dmo infer: %s\n", err);
		return 2;
	}
	if (dmo_net_from_model(&model, &net, err, sizeof err) || dmo_net_check(&net, err, sizeof err)) {
		fprintf(stderr, "dmo infer: %s: %s\n", argv[optind], err);
		dmo_plan_free(&plan);
		dmo_model_free(&model);
		return 2;
	}
	net.single_rounding = single;
	uint64_t size = overlap ? plan.peak_dmo : plan.peak_plain;
	uint64_t *offsets = calloc(model.n_tensors ? model.n_tensors : 1, sizeof *offsets);
	unsigned char *arena = malloc(size ? size : 1);
	FILE *out = NULL;
	if (!offsets || !arena) {
		fprintf(stderr, "dmo infer: out of memory for a %" PRIu64 "-byte arena\n", size);
		goto done;
	}
	for (size_t i = 0; i < plan.n_tensors; i++)
		offsets[plan.tensors[i].model_tensor] =
			overlap ? plan.tensors[i].offset_dmo : plan.tensors[i].offset_plain;
	/* Stale bytes from an earlier layer must never look like a result. */
	memset(arena, 0xa5, size);
	if (fill_inputs(&model, &net, arena, offsets, input, zeros, seed))
		goto done;
	if (dmo_net_run(&net, arena, offsets, err, sizeof err)) {
		fprintf(stderr, "dmo infer: %s: %s\n", argv[optind], err);
		goto done;
	}
	printf("model %s: %zu layers run in a %" PRIu64 "-byte arena (%s plan; %s: %" PRIu64 " bytes)\n",
	       argv[optind], net.n_steps, size, overlap ? "overlap" : "plain",
	       overlap ? "without overlaps" : "with overlaps", overlap ? plan.peak_plain : plan.peak_dmo);
	if (output && !(out = fopen(output, "wb"))) {
		fprintf(stderr, "dmo infer: %s: %s\n", output, strerror(errno));
		goto done;
	}
	for (size_t t = 0; t < model.n_tensors; t++) {
		if (!model.tensors[t].graph_output)
			continue;
		uint64_t bytes = dmo_net_tensor_bytes(&net, (int)t);
		summarise(stdout, &net.tensors[t], arena + offsets[t], bytes / dmo_net_dtype_size(net.tensors[t].dtype));
		if (out && fwrite(arena + offsets[t], 1, bytes, out) != bytes) {
			fprintf(stderr, "dmo infer: %s: write failed\n", output);
			goto done;
		}
	}
	if (out && fclose(out)) {
		out = NULL;
		fprintf(stderr, "dmo infer: %s: write failed\n", output);
		goto done;
	}
	out = NULL;
	rc = 0;
done:
	if (out)
		fclose(out);
	free(arena);
	free(offsets);
	dmo_net_free(&net);
	dmo_plan_free(&plan);
	dmo_model_free(&model);
	return rc;
}
