/* cmd_plan.c - `dmo plan`: the tensor arena a model layer table needs with
 * and without diagonal overlaps, and optionally the proof by execution. */
#include <csv.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "errbuf.h"
#include "infer.h"
#include "infer_model.h"
#include "fs.h"
#include "json.h"
#include "kernels.h"
#include "locate.h"
#include "measure.h"
#include "model_report.h"
#include "model_table.h"
#include "plan.h"
#include "plan_arena.h"
#include "plan_emit.h"
#include "plan_view.h"
#include "plan_summary.h"
#include "profile_options.h"
#include "progress.h"
#include "rundir.h"
#include "tflm_run.h"

/* Inputs --verify runs inside TFLM, each on both plans. */
#define TFLM_VERIFY_INPUTS 3

enum { OPT_OS = CMD_LONG_ONLY, OPT_TIME_LIMIT, OPT_VERIFY, OPT_KERNELS, OPT_EMIT_TFLITE,
       OPT_EMIT_HEADER, OPT_ALIGN, OPT_SUMMARY };

static const struct cmd_option options[] = {
	{ "os", required_argument, OPT_OS, "SOURCE",
	  "per-layer O_s: algorithmic (exact, default), analytic\n"
	  "(safe lower bound), both for dmo's reference kernels,\n"
	  "or measured:DIR (safe_os_bytes of a run directory,\n"
	  "matched by layer name: for a layer run while several\n"
	  "threads were alive, safe for any split of its work, or\n"
	  "for the observed one if declared static; for the\n"
	  "kernels DIR/kernels.csv names)" },
	{ "kernels", required_argument, OPT_KERNELS, "NAME",
	  "plan for these kernels: ref (dmo's reference kernels,\n"
	  "default), a backend (cmsis-nn, cmsis-nn-dsp, ...) or\n"
	  "TFLM itself (tflm, tflm-cmsis-nn, ...): each layer's\n"
	  "O_s measured on them by dmo run --model, or taken from\n"
	  "--os measured:DIR when DIR ran the same kernels" },
	{ "emit-tflite", required_argument, OPT_EMIT_TFLITE, "FILE",
	  "write the model with the plan as TFLite Micro's offline\n"
	  "memory plan (metadata OfflineMemoryAllocation) and a\n"
	  "dmo_kernels entry; offsets aligned to 16 by default" },
	{ "emit-header", required_argument, OPT_EMIT_HEADER, "FILE",
	  "write the arena size and each tensor's offset as a C\n"
	  "header (aligned as --emit-tflite)" },
	{ "summary", required_argument, OPT_SUMMARY, "FILE",
	  "also write the summary (kernels, arena kind, peaks with\n"
	  "and without overlaps, bound, status, saving split) to\n"
	  "FILE as one CSV row, or JSON with --json" },
	{ "align", required_argument, OPT_ALIGN, "BYTES",
	  "plan offsets and sizes in units of BYTES, a power of two\n"
	  "(default 1; 16, TFLM's alignment, with --emit-*; TFLM\n"
	  "needs a multiple of 16)" },
	{ "time-limit", required_argument, OPT_TIME_LIMIT, "SECONDS",
	  "stop the exact placement search after SECONDS (default\n"
	  "10); it then finishes as a narrow beam search, keeps the\n"
	  "best plan found and says so" },
	{ "verify", no_argument, OPT_VERIFY, NULL,
	  "run the model inside one arena laid out by the overlap\n"
	  "plan and compare its outputs bit for bit with a run on\n"
	  "separate buffers (a .tflite or .onnx dmo infer runs: its\n"
	  "real weights, every layer's output against the plain\n"
	  "plan's arena, on the input of --random 1), on the kernels\n"
	  "the O_s hold for: dmo's reference kernels, or for TFLM's\n"
	  "kernels the plan written into the model and run in TFLM\n"
	  "against TFLM's own plan (dmo-tflm-run-KERNELS, 3 inputs)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "plan",
	.synopsis = "[OPTIONS] MODEL",
	.description =
	"Plan the tensor arena of a model (MODEL: a .tflite or .onnx file, a layer\n"
	"table file, or a name shipped with dmo, e.g. mobilenet_v2_1.0_224) twice:\n"
	"without overlaps\n"
	"(TFLite Micro's greedy rule: by size, each at the lowest free offset) and\n"
	"with diagonal overlaps (each layer's dying input may overlap its output\n"
	"by O_s): greedy by the same rule and in reverse execution order, then a\n"
	"search for the lowest peak, which proves it optimal or stops at the time\n"
	"limit with the best plan found.  Print the kernels the O_s hold for (a\n"
	"plan is safe for those kernels only), both peaks and whether they are\n"
	"activations only or TFLite Micro's whole non-persistent arena, the lower\n"
	"bound, the status, the saving split into placement and overlap, and a\n"
	"per-layer table of offsets, live ranges and overlaps (docs/plan.md).\n"
	"--emit-tflite writes the plan into the model, where TFLite Micro reads\n"
	"it; --verify runs it on the kernels it was made for.\n",
	.tables = { options, cmd_shape_options },
	.notes = "With --csv or --json, only the per-layer table is printed (and --verify's\n"
		 "verdict goes to stderr); --summary FILE keeps the summary.  The table's\n"
		 "column tensor is the model's own tensor index (-1: a scratch buffer).\n"
		 "--verify shows a line per layer on stderr.\n"
		 "Environment: DMO_MODELS_DIR (tables), DMO_TFLM_RUNNER_DIR (the folder of\n"
		 "dmo-tflm-run-KERNELS).\n",
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON | CMD_HAS_QUIET,
	.finding = "with --verify, the overlapped arena's outputs differ (inside TFLM:\n"
		   "  or its arena is not lower by the saving dmo printed)",
};

/* For --os measured:DIR, which of the run directory's values the plan
 * took: the safe one, by the rule of each layer (docs/threads.md).  (The
 * kernels and the ISA they hold for are the header's kernels line.) */
static void print_measured_rule(const char *os_name)
{
	enum dmo_os_source source;
	const char *dir = NULL;
	char path[4096], err[512], rule[256];
	struct dmo_layer_table table;
	if (dmo_os_source_parse(os_name, &source, &dir) != 0 || source != DMO_OS_MEASURED)
		return;
	snprintf(path, sizeof path, "%s/%s", dir, DMO_LAYERS_CSV);
	if (dmo_layers_csv_read(path, &table, err, sizeof err) < 0)
		return; /* the plan read it a moment ago; nothing to add */
	dmo_layers_rule_text(&table, rule, sizeof rule);
	printf("measured O_s taken:    %s\n", rule);
	dmo_layer_table_free(&table);
}

/* The memory order and loop order the windowed layers' O_s hold for: an
 * ONNX model's are NCHW (layout=nchw), in the order of ONNX Runtime's
 * CPU kernels (float planes in turn, integers an image at a time); a
 * TFLite model's NHWC (docs/kernels.md). */
static void print_layout(const struct dmo_model *model)
{
	size_t nchw = 0, nhwc = 0, images = 0, convt = 0, qoperator = 0;

	for (size_t i = 0; i < model->n_layers; i++) {
		const struct dmo_model_layer *l = &model->layers[i];
		convt += l->supported && l->op.op == DMO_OP_CONVT;
		qoperator += l->supported && l->op.op >= DMO_OP_QLINEARADD &&
			     l->op.op <= DMO_OP_QLINEARAVGPOOL;
		if (!l->supported || l->op.op < DMO_OP_CONV2D || l->op.op > DMO_OP_AVGPOOL ||
		    l->op.op == DMO_OP_FC)
			continue;
		if (dmo_opspec_image_at_a_time(&l->op))
			images++;
		else if (l->op.layout == DMO_LAYOUT_NCHW)
			nchw++;
		else
			nhwc++;
	}
	if (nchw)
		printf("layout:                NCHW: O_s of %zu conv/pool layer%s in the NCHW loop order "
		       "(batch, out_c, out_y, out_x: output planes in turn, as ONNX Runtime's CPU "
		       "kernels)%s\n", nchw, nchw == 1 ? "" : "s", nhwc ? "; the others NHWC" : "");
	/* Integer convolutions (QLinearConv): ONNX Runtime's image at a time. */
	if (images)
		printf("layout:                NCHW integers: O_s of %zu conv layer%s in the order of ONNX "
		       "Runtime's QLinearConv (per image: the whole input read, then the output "
		       "written)\n", images, images == 1 ? "" : "s");
	/* ConvTranspose: ONNX Runtime's GEMM then col2im, a group of an
	 * image at a time. */
	if (convt)
		printf("layout:                NCHW ConvTranspose: O_s of %zu convt layer%s in the order "
		       "of ONNX Runtime's ConvTranspose (per image and group: a GEMM reading the "
		       "group's whole input, then col2im writing its output)\n", convt,
		       convt == 1 ? "" : "s");
	/* ONNX Runtime's com.microsoft QOperator ops (formulas.md 4.12). */
	if (qoperator)
		printf("layout:                NCHW QOperator: O_s of %zu layer%s in the order of ONNX "
		       "Runtime's com.microsoft QLinear kernels (QLinearAdd, QLinearMul: flat order; "
		       "QLinearGlobalAveragePool: plane by plane; QLinearAveragePool: the whole input "
		       "read first)\n", qoperator, qoperator == 1 ? "" : "s");
	if (nchw || images || convt || qoperator)
		return;
	if (nhwc)
		printf("layout:                NHWC: O_s of %zu conv/pool layer%s in the NHWC loop order "
		       "(batch, out_y, out_x, out_c: TFLite Micro's reference order)\n", nhwc,
		       nhwc == 1 ? "" : "s");
}

/* What the plan's numbers mean, said beside them (issue 29): the kernels
 * its O_s hold for, whether the arena is activations only or TFLM's whole
 * non-persistent arena, and the saving split into a better placement than
 * TFLM's greedy rule (NO_OVERLAP: dmo's plan with every O_s 0) and the
 * overlaps themselves. */
static void print_summary(const char *model_name, const struct dmo_model *model,
			  const char *os_name, const struct dmo_kernels *kernels,
			  const struct dmo_plan *plan, uint64_t no_overlap)
{
	double saving = 100.0 * ((double)plan->peak_plain - (double)plan->peak_dmo) /
			(double)plan->peak_plain;
	uint64_t gap = plan->peak_dmo - plan->bound_dmo;
	const char *arena = dmo_plan_arena_kind(plan);

	printf("model %s: %zu layers, %zu tensors, O_s %s\n", model_name, plan->n_layers,
	       plan->n_tensors - plan->n_scratch, os_name);
	print_measured_rule(os_name);
	printf("kernels:               %s: %s%s%s%s%s\n", kernels->name, dmo_kernels_describe(kernels),
	       kernels->version[0] ? ", " : "", kernels->version, kernels->isa[0] ? ", " : "",
	       kernels->isa);
	print_layout(model);
	if (plan->whole_arena)
		printf("arena:                 TFLite Micro's whole non-persistent arena: offsets aligned to "
		       "%llu, sizes rounded up to it, %zu scratch buffer%s of the kernels\n",
		       (unsigned long long)plan->align, plan->n_scratch, plan->n_scratch == 1 ? "" : "s");
	else if (plan->align > 1)
		printf("arena:                 activations only, offsets aligned to %llu and sizes rounded "
		       "up to it as in TFLite Micro's arena; the kernels' scratch buffers, unknown to "
		       "dmo, come on top (TFLM fits them around the plan)\n",
		       (unsigned long long)plan->align);
	else
		printf("arena:                 activations only, in bytes (no alignment, no scratch buffers)\n");
	printf("peak without overlaps: %llu bytes, %s (TFLite Micro's greedy rule)\n",
	       (unsigned long long)plan->peak_plain, arena);
	printf("peak with overlaps:    %llu bytes, %s (greedy by the same rule: %llu, in reverse execution order: %llu)\n",
	       (unsigned long long)plan->peak_dmo, arena, (unsigned long long)plan->peak_by_size,
	       (unsigned long long)plan->peak_reverse);
	printf("lower bound:           %llu bytes (live at layer %d %s, less its O_s)\n",
	       (unsigned long long)plan->bound_dmo, plan->bound_layer + 1,
	       model->layers[plan->bound_layer].name);
	if (plan->status == DMO_PLAN_BEST_FOUND)
		printf("status:                best found in %.3f s, gap %llu bytes (%.2f %%)\n",
		       plan->plan_seconds, (unsigned long long)gap,
		       100.0 * (double)gap / (double)plan->bound_dmo);
	else
		printf("status:                %s\n", dmo_plan_status_name(plan->status));
	if (plan->searched)
		printf("planning:              %.6f s (search: %llu partial plans kept)\n",
		       plan->plan_seconds, (unsigned long long)plan->search_states);
	else
		printf("planning:              %.6f s (a greedy plan is at the bound: no search)\n",
		       plan->plan_seconds);
	printf("saving:                %.1f %% (%llu bytes) = placement %lld (dmo's plan without "
	       "overlaps: %llu) + overlap %lld\n", saving,
	       (unsigned long long)(plan->peak_plain - plan->peak_dmo),
	       (long long)plan->peak_plain - (long long)no_overlap, (unsigned long long)no_overlap,
	       (long long)no_overlap - (long long)plan->peak_dmo);
	dmo_model_print_unsupported(stdout, model);
	printf("\n");
}

/* --summary FILE: the summary as one CSV row (JSON with --json), by the
 * same converter as every table; the fields are dmo report's too. */
static int write_summary(const char *path, enum cmd_format format, const char *model_name,
			 const char *os_name, const struct dmo_kernels *k, const struct dmo_plan *p,
			 uint64_t no_overlap, char *err, size_t err_len)
{
	struct dmo_plan_field fields[DMO_PLAN_SUMMARY_FIELDS];
	char *csv = NULL, *json = NULL;
	size_t csv_len = 0, json_len = 0;
	FILE *out = open_memstream(&csv, &csv_len), *conv;
	int rc = 0;

	if (out == NULL)
		return dmo_errf(err, err_len, "out of memory");
	dmo_plan_summary_fields(model_name, os_name, k, p, no_overlap, fields);
	for (size_t i = 0; i < DMO_PLAN_SUMMARY_FIELDS; i++)
		fprintf(out, "%s%s", i ? "," : "", fields[i].key);
	for (size_t i = 0; i < DMO_PLAN_SUMMARY_FIELDS; i++) {
		fputc(i ? ',' : '\n', out);
		if (fields[i].text)
			csv_fwrite(out, fields[i].value, strlen(fields[i].value));
		else
			fputs(fields[i].value, out);
	}
	fputc('\n', out);
	if (fclose(out) != 0 || csv == NULL) {
		free(csv);
		return dmo_errf(err, err_len, "out of memory");
	}
	if (format == CMD_JSON) {
		conv = open_memstream(&json, &json_len);
		if (conv == NULL)
			rc = dmo_errf(err, err_len, "out of memory");
		else if ((rc = cmd_csv_to_json(csv, csv_len, conv, err, err_len)) != 0)
			fclose(conv);
		else if (fclose(conv) != 0 || json == NULL)
			rc = dmo_errf(err, err_len, "out of memory");
	}
	if (rc == 0)
		rc = format == CMD_JSON ? dmo_write_file(path, json, json_len, err, err_len)
					: dmo_write_file(path, csv, csv_len, err, err_len);
	free(csv);
	free(json);
	return rc;
}

/* The placement search's progress: a line per tensor placed.  The count
 * is known once the model is loaded, after the clock started. */
static void tensor_placed(void *arg, size_t n_tensors, uint64_t states, int exact)
{
	struct dmo_progress *p = arg;

	p->total = n_tensors;
	dmo_progress_step(p, "tensors placed, %llu partial plans kept%s",
			  (unsigned long long)states, exact ? "" : " (past the time or state budget)");
}

/* --verify's progress: a line as each layer's results compare equal. */
struct layer_progress {
	struct dmo_progress steps;
	const struct dmo_model *model;
};

static void layer_checked(void *arg, size_t layer)
{
	struct layer_progress *p = arg;

	dmo_progress_step(&p->steps, "layer %zu %s", layer + 1, p->model->layers[layer].name);
}

/* A .tflite or .onnx that dmo's kernels run (dmo infer) is verified with
 * its real weights and quantisation; any other model with the reference
 * kernels on
 * deterministic data (and stand-ins for layers without an op spec).  *WHAT
 * says which. */
static int verify_plan(const struct dmo_model *model, const struct dmo_plan *plan, int quiet,
		       const char **what, char *err, size_t err_len)
{
	struct layer_progress progress = { .model = model };
	struct dmo_plan_watch watch = { .layer_done = layer_checked, .arg = &progress };
	struct dmo_net net;
	char why[1024];

	if (model->format == DMO_FORMAT_TFLITE || model->format == DMO_FORMAT_ONNX) {
		int runs = dmo_net_runs(model, &net, why, sizeof why);

		if (runs < 0)
			return dmo_errf(err, err_len, "%s", why);
		if (runs) {
			struct dmo_net_input input = { .seed = 1 };
			dmo_progress_start(&progress.steps, command.name, net.n_steps,
					   dmo_progress_wanted(quiet));
			int rc = dmo_plan_verify_net(model, &net, plan, &input, &watch, err, err_len);
			dmo_net_free(&net);
			*what = "the plain arena's run, layer by layer, with the model's real weights "
				"(input --random 1)";
			return rc;
		}
		fprintf(stderr, "dmo plan: --verify: not with real weights (%s): the reference "
			"kernels on deterministic data instead\n", why);
	}
	*what = "the separate-buffer run";
	dmo_progress_start(&progress.steps, command.name, plan->n_layers, dmo_progress_wanted(quiet));
	return dmo_plan_verify(model, plan, &watch, err, err_len);
}

/* The scratch bytes of every layer on kernels K (TFLM's arena). */
static uint64_t *scratch_of(const struct dmo_model *model, const struct dmo_kernels *k, char *err,
			    size_t err_len)
{
	uint64_t *scratch = calloc(model->n_layers + 1, sizeof *scratch);

	if (scratch == NULL) {
		dmo_errf(err, err_len, "out of memory");
		return NULL;
	}
	for (size_t l = 0; l < model->n_layers; l++) {
		unsigned long long bytes;

		if (dmo_kernels_scratch(k, model, l, &bytes, err, err_len) != 0) {
			free(scratch);
			return NULL;
		}
		scratch[l] = bytes;
	}
	return scratch;
}

int cmd_plan(int argc, char **argv)
{
	struct cmd_shapes shapes = { .n = 0 };
	const char *os_name = NULL, *kernels_name = NULL, *emit_tflite = NULL, *emit_header = NULL,
		   *summary = NULL;
	double time_limit = DMO_PLAN_TIME_LIMIT;
	char *end, measured[PATH_MAX + 16], tmp_dir[PATH_MAX] = "", os_label[256] = "";
	struct dmo_model model = { 0 };
	struct dmo_plan plan;
	struct dmo_kernels kernels, want, ref;
	struct dmo_plan_rules rules = { .align = 0 };
	uint64_t *scratch = NULL, no_overlap = 0, *os = NULL;
	char err[1024];
	struct cmd_output output = { CMD_TEXT, 0 };
	struct cmd_table table;
	struct dmo_progress search;
	struct dmo_plan_watch searched = { .tensor_placed = tensor_placed, .arg = &search };
	int c, csv, verify = 0, rc, unknown, in_tflm;
	unsigned long long align;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (cmd_output_option(&command, c, &output))
			continue;
		if (cmd_shape_option(&shapes, c, optarg, err, sizeof err) < 0)
			return cmd_misuse(&command, "%s", err);
		switch (c) {
		case OPT_OS:
			os_name = optarg;
			break;
		case OPT_KERNELS:
			kernels_name = optarg;
			break;
		case OPT_EMIT_TFLITE:
			emit_tflite = optarg;
			break;
		case OPT_EMIT_HEADER:
			emit_header = optarg;
			break;
		case OPT_SUMMARY:
			summary = optarg;
			break;
		case OPT_ALIGN:
			align = strtoull(optarg, &end, 10);
			if (end == optarg || *end != '\0' || *optarg == '-' || align == 0 ||
			    align > 4096 || (align & (align - 1)) != 0)
				return cmd_misuse(&command, "--align takes a power of two from 1 to 4096, "
						  "not '%s'", optarg);
			rules.align = align;
			break;
		case OPT_TIME_LIMIT:
			time_limit = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(time_limit >= 0 && time_limit <= 1e6))
				return cmd_misuse(&command,
						  "--time-limit takes seconds from 0 to 1e6, not '%s'",
						  optarg);
			break;
		case OPT_VERIFY:
			verify = 1;
			break;
		}
	}
	if (optind != argc - 1)
		return cmd_misuse(&command, "give exactly one MODEL");
	if (kernels_name != NULL && dmo_kernels_named(kernels_name, &want, err, sizeof err) != 0)
		return cmd_misuse(&command, "--kernels: %s", err);
	if ((emit_tflite || emit_header) && rules.align % DMO_TFLM_ALIGN != 0)
		return cmd_misuse(&command, "--emit-tflite and --emit-header lay out TFLite Micro's "
				  "arena, whose buffers are 16-byte aligned: --align must be a "
				  "multiple of 16");
	/* The O_s: of the kernels asked for, measured unless a run directory
	 * of them is given; by default dmo's reference kernels'.  Kernels
	 * --verify cannot run are refused before anything is measured. */
	if (verify && kernels_name != NULL && want.kind != DMO_KERNELS_REF &&
	    want.kind != DMO_KERNELS_RUNTIME &&
	    (dmo_kernels_of_backend(DMO_KERNELS_REF_NAME, NULL, &ref, err, sizeof err) != 0 ||
	     dmo_kernels_check_run(&want, 0, &ref, "--verify", err, sizeof err) != 0)) {
		fprintf(stderr, "dmo plan: --kernels %s: %s\n", want.name, err);
		return 2;
	}
	if (os_name == NULL && kernels_name != NULL && want.kind != DMO_KERNELS_REF) {
		if (dmo_make_temp_dir(tmp_dir, sizeof tmp_dir, "dmo-plan", err, sizeof err) != 0 ||
		    dmo_measure_model("dmo plan", argv[optind], &want, tmp_dir, err, sizeof err) != 0) {
			fprintf(stderr, "dmo plan: %s\n", err);
			rc = 2;
			goto out;
		}
		snprintf(measured, sizeof measured, "measured:%s", tmp_dir);
		os_name = measured;
		snprintf(os_label, sizeof os_label, "measured on %s kernels by dmo run (a temporary run "
			 "directory)", want.name);
	}
	if (os_name == NULL)
		os_name = "algorithmic";
	unknown = dmo_kernels_of_os(os_name, &kernels, err, sizeof err);
	if (unknown < 0 ||
	    (kernels_name != NULL &&
	     dmo_kernels_check_run(&kernels, unknown, &want, "--kernels", err, sizeof err) != 0)) {
		fprintf(stderr, "dmo plan: --os %s: %s\n", os_name, err);
		rc = 2;
		goto out;
	}
	/* --verify runs the kernels the O_s hold for: dmo's reference
	 * kernels, or TFLM with its kernels (dmo-tflm-run-KERNELS). */
	in_tflm = verify && !unknown && kernels.kind == DMO_KERNELS_RUNTIME;
	if (verify && !in_tflm &&
	    (dmo_kernels_of_backend(DMO_KERNELS_REF_NAME, NULL, &ref, err, sizeof err) != 0 ||
	     dmo_kernels_check_run(&kernels, unknown, &ref, "--verify", err, sizeof err) != 0)) {
		fprintf(stderr, "dmo plan: --os %s: %s\n", os_name, err);
		rc = 2;
		goto out;
	}
	/* A plan in TFLM's arena: aligned to its 16 bytes unless told. */
	if (rules.align == 0)
		rules.align = emit_tflite || emit_header || in_tflm ? DMO_TFLM_ALIGN : 1;
	dmo_progress_start(&search, command.name, 0, dmo_progress_wanted(output.quiet));
	rc = dmo_load_model(argv[optind], shapes.list, shapes.n, &model, err, sizeof err);
	os = rc == 0 ? calloc(model.n_layers + 1, sizeof *os) : NULL;
	if (rc == 0 && os == NULL)
		rc = dmo_errf(err, sizeof err, "out of memory");
	if (rc == 0)
		rc = dmo_plan_os_named(&model, os_name, os, err, sizeof err);
	/* TFLM's arena (aligned, scratch buffers included) for a plan that
	 * goes into TFLM. */
	if (rc == 0 && (emit_tflite || emit_header || in_tflm)) {
		rules.scratch = scratch = scratch_of(&model, &kernels, err, sizeof err);
		if (scratch == NULL)
			fprintf(stderr, "dmo plan: %s: the plan holds the activations only\n", err);
	}
	if (rc == 0)
		rc = dmo_plan_build_rules(&model, os, &rules, time_limit, &searched, &plan, err,
					  sizeof err);
	if (rc != 0) {
		fprintf(stderr, "dmo plan: %s\n", err);
		rc = 2;
		goto out;
	}
	csv = output.format != CMD_TEXT;
	rc = dmo_plan_peak_no_overlap(&model, &rules, time_limit, &no_overlap, err, sizeof err);
	if (rc == 0 && !csv)
		print_summary(argv[optind], &model, os_label[0] ? os_label : os_name, &kernels, &plan,
			      no_overlap);
	if (rc == 0 && summary &&
	    write_summary(summary, output.format, argv[optind], os_label[0] ? os_label : os_name,
			  &kernels, &plan, no_overlap,
			  err, sizeof err) != 0)
		rc = -1;
	if (rc == 0 && emit_tflite && dmo_plan_emit_tflite(emit_tflite, &model, &plan, &kernels, err,
							    sizeof err) != 0)
		rc = -1;
	if (rc == 0 && emit_header && dmo_plan_emit_header(emit_header, &model, &plan, &kernels, err,
							    sizeof err) != 0)
		rc = -1;
	if (rc != 0) {
		fprintf(stderr, "dmo plan: %s\n", err);
		rc = 2;
	} else if (emit_tflite || emit_header) {
		fprintf(csv ? stderr : stdout, "wrote %s%s%s: %llu-byte arena for %s kernels (%s)\n\n",
			emit_tflite ? emit_tflite : "", emit_tflite && emit_header ? " and " : "",
			emit_header ? emit_header : "", (unsigned long long)plan.peak_dmo, kernels.name,
			dmo_plan_arena_kind(&plan));
	}
	if (rc == 0)
		rc = cmd_table_open(&table, output.format, "plan") == NULL ? 2 : 0;
	if (rc == 0) {
		dmo_plan_print(table.stream, &model, &plan, csv);
		if (cmd_table_close(&table, err, sizeof err) != 0) {
			fprintf(stderr, "dmo plan: %s\n", err);
			rc = 2;
		}
	}
	if (in_tflm && rc == 0) {
		char summary[1024], path[PATH_MAX];

		rc = dmo_locate_model(argv[optind], path, sizeof path, err, sizeof err) != 0 ? -1 :
		     dmo_tflm_verify(path, &model, &plan, kernels.name, TFLM_VERIFY_INPUTS, summary,
				     sizeof summary, err, sizeof err);
		if (rc != 0)
			fprintf(stderr, "dmo plan: --verify in TFLM: %s\n", err);
		else
			fprintf(csv ? stderr : stdout, "verify: %s\n", summary);
		rc = rc < 0 ? 2 : rc;
	} else if (verify && rc == 0) {
		const char *what = NULL;
		rc = verify_plan(&model, &plan, output.quiet, &what, err, sizeof err);
		if (rc != 0)
			fprintf(stderr, "dmo plan: --verify: %s\n", err);
		else
			fprintf(csv ? stderr : stdout,
				"verify: outputs of the %llu-byte overlapped arena equal %s bit for bit\n",
				(unsigned long long)plan.peak_dmo, what);
		rc = rc < 0 ? 2 : rc;
	}
	dmo_plan_free(&plan);
out:
	dmo_model_free(&model);
	free(os);
	free(scratch);
	if (tmp_dir[0])
		dmo_remove_dir(tmp_dir);
	return rc;
}
