/* cmd_plan.c - `dmo plan`: the tensor arena a model layer table needs with
 * and without diagonal overlaps, and optionally the proof by execution. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_info.h"
#include "cmd.h"
#include "errbuf.h"
#include "infer.h"
#include "infer_model.h"
#include "json.h"
#include "model_report.h"
#include "model_table.h"
#include "plan.h"
#include "plan_arena.h"
#include "profile_options.h"
#include "progress.h"
#include "rundir.h"

enum { OPT_OS = CMD_LONG_ONLY, OPT_TIME_LIMIT, OPT_VERIFY };

static const struct cmd_option options[] = {
	{ "os", required_argument, OPT_OS, "SOURCE",
	  "per-layer O_s: algorithmic (exact, default), analytic\n"
	  "(safe lower bound) or measured:DIR (safe_os_bytes of a\n"
	  "run directory, matched by layer name: for a layer run\n"
	  "while several threads were alive, safe for any split of\n"
	  "its work, or for the observed one if declared static)" },
	{ "time-limit", required_argument, OPT_TIME_LIMIT, "SECONDS",
	  "stop the exact placement search after SECONDS (default\n"
	  "10); it then finishes as a narrow beam search, keeps the\n"
	  "best plan found and says so" },
	{ "verify", no_argument, OPT_VERIFY, NULL,
	  "run the model inside one arena laid out by the overlap\n"
	  "plan and compare its outputs bit for bit with a run on\n"
	  "separate buffers (a .tflite: its real weights, every\n"
	  "layer's output against the plain plan's arena, on the\n"
	  "input of --random 1)" },
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
	"limit with the best plan found.  Print both peaks, the lower bound, the\n"
	"status, the saving and a per-layer table of offsets, live ranges and\n"
	"overlaps (docs/plan.md).\n",
	.tables = { options, cmd_shape_options },
	.notes = "With --csv or --json, only the per-layer table is printed (and --verify's\n"
		 "verdict goes to stderr).  --verify shows a line per layer on stderr.\n"
		 "Environment: DMO_MODELS_DIR (tables).\n",
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON | CMD_HAS_QUIET,
	.finding = "with --verify, the overlapped arena's outputs differ",
};

/* For --os measured:DIR, which of the run directory's values the plan
 * took: the safe one, by the rule of each layer (docs/threads.md); and the
 * ISA of the kernels measured, which is the one its O_s hold for. */
static void print_measured_rule(const char *os_name)
{
	enum dmo_os_source source;
	const char *dir = NULL;
	char path[4096], err[512], rule[256];
	struct dmo_layer_table table;
	struct dmo_backend_info_table kernels = { 0 };
	if (dmo_os_source_parse(os_name, &source, &dir) != 0 || source != DMO_OS_MEASURED)
		return;
	snprintf(path, sizeof path, "%s/%s", dir, DMO_LAYERS_CSV);
	if (dmo_layers_csv_read(path, &table, err, sizeof err) < 0)
		return; /* the plan read it a moment ago; nothing to add */
	dmo_layers_rule_text(&table, rule, sizeof rule);
	printf("measured O_s taken:    %s\n", rule);
	dmo_layer_table_free(&table);
	if (dmo_backend_info_read(dir, &kernels, err, sizeof err) == 0 && kernels.count > 0)
		printf("measured O_s hold for: %s kernels at ISA %s%s%s%s\n", kernels.rows[0].backend,
		       kernels.rows[0].isa, kernels.rows[0].native_isa[0] ? " (natively: " : "",
		       kernels.rows[0].native_isa, kernels.rows[0].native_isa[0] ? ")" : "");
	dmo_backend_info_free(&kernels);
}

static void print_summary(const char *model_name, const struct dmo_model *model,
			  const char *os_name, const struct dmo_plan *plan)
{
	double saving = 100.0 * ((double)plan->peak_plain - (double)plan->peak_dmo) /
			(double)plan->peak_plain;
	uint64_t gap = plan->peak_dmo - plan->bound_dmo;

	printf("model %s: %zu layers, %zu tensors, O_s %s\n", model_name, plan->n_layers,
	       plan->n_tensors, os_name);
	print_measured_rule(os_name);
	printf("peak without overlaps: %llu bytes (TFLite Micro's greedy rule)\n",
	       (unsigned long long)plan->peak_plain);
	printf("peak with overlaps:    %llu bytes (greedy by the same rule: %llu, in reverse execution order: %llu)\n",
	       (unsigned long long)plan->peak_dmo, (unsigned long long)plan->peak_by_size,
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
	printf("saving:                %.1f %% (%llu bytes)\n", saving,
	       (unsigned long long)(plan->peak_plain - plan->peak_dmo));
	dmo_model_print_unsupported(stdout, model);
	printf("\n");
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

/* A .tflite that dmo's kernels run is verified with its real weights and
 * quantisation; any other model with the reference kernels on
 * deterministic data (and stand-ins for layers without an op spec).  *WHAT
 * says which. */
static int verify_plan(const struct dmo_model *model, const struct dmo_plan *plan, int quiet,
		       const char **what, char *err, size_t err_len)
{
	struct layer_progress progress = { .model = model };
	struct dmo_plan_watch watch = { .layer_done = layer_checked, .arg = &progress };
	struct dmo_net net;
	char why[1024];

	if (model->format == DMO_FORMAT_TFLITE) {
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

int cmd_plan(int argc, char **argv)
{
	struct cmd_shapes shapes = { .n = 0 };
	const char *os_name = "algorithmic";
	double time_limit = DMO_PLAN_TIME_LIMIT;
	char *end;
	struct dmo_model model = { 0 };
	struct dmo_plan plan;
	char err[1024];
	struct cmd_output output = { CMD_TEXT, 0 };
	struct cmd_table table;
	struct dmo_progress search;
	struct dmo_plan_watch searched = { .tensor_placed = tensor_placed, .arg = &search };
	int c, csv, verify = 0, rc;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (cmd_output_option(&command, c, &output))
			continue;
		if (cmd_shape_option(&shapes, c, optarg, err, sizeof err) < 0)
			return cmd_misuse(&command, "%s", err);
		switch (c) {
		case OPT_OS:
			os_name = optarg;
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
	dmo_progress_start(&search, command.name, 0, dmo_progress_wanted(output.quiet));
	if (dmo_plan_model(argv[optind], shapes.list, shapes.n, os_name, time_limit, &searched,
			   &model, &plan, err, sizeof err) != 0) {
		fprintf(stderr, "dmo plan: %s\n", err);
		return 2;
	}
	csv = output.format != CMD_TEXT;
	if (!csv)
		print_summary(argv[optind], &model, os_name, &plan);
	rc = cmd_table_open(&table, output.format, "plan") == NULL ? 2 : 0;
	if (rc == 0) {
		dmo_plan_print(table.stream, &model, &plan, csv);
		if (cmd_table_close(&table, err, sizeof err) != 0) {
			fprintf(stderr, "dmo plan: %s\n", err);
			rc = 2;
		}
	}
	if (verify && rc == 0) {
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
	dmo_model_free(&model);
	return rc;
}
