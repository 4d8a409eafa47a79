/* cmd_run.c - `dmo run`: profile the reference kernels of op specs, of a
 * whole model layer table, or of a .tflite model with its real weights, by
 * running dmo-harness under the dmo tool. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "backend_options.h"
#include "cmd.h"
#include "cpu_features.h"
#include "host_isa.h"
#include "json.h"
#include "kernels.h"
#include "infer_model.h"
#include "input_options.h"
#include "locate.h"
#include "model_table.h"
#include "profile.h"
#include "profile_options.h"
#include "progress.h"
#include "runner.h"
#include "runtime_options.h"

static const struct cmd_option run_options[] = {
	{ "threads", required_argument, 'j', "N",
	  "split each kernel's output over N threads (default 1)" },
	{ "interleave", no_argument, 'i', NULL,
	  "threads take every N-th output element instead of\n"
	  "one contiguous block each" },
	{ "model", required_argument, 'm', "M", "run a model layer table instead of SPECs" },
	{ "backend", required_argument, 'b', "NAME",
	  "profile backend NAME's kernels (" DMO_BACKEND_NAMES_HOST "\n"
	  DMO_BACKEND_NAMES_CMSIS "; docs/backends.md;\n"
	  "--threads N: xnnpack and onednn on their own pools);\n"
	  "the run directory gets backend.csv (version, ISA,\n"
	  "implementation, CPU features seen under the tool, the\n"
	  "ISA picked natively, the host's)" },
	{ "isa", required_argument, OPT_ISA, "CAP",
	  "cap the backend's instruction set: sse4, avx, avx2" },
	{ "runtime", required_argument, OPT_RUNTIME, "NAME",
	  "profile the .tflite --model inside TensorFlow Lite\n"
	  "Micro with kernel build NAME: tflm, tflm-cmsis-nn,\n"
	  "tflm-cmsis-nn-dsp or tflm-cmsis-nn-dsp-ac6 (built when\n"
	  "configure is given a TFLM tree; docs/deploy.md); every\n"
	  "op TFLM invokes is a layer; backend.csv names the\n"
	  "kernels per layer, runtime.txt the versions and\n"
	  "arena_used_bytes" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "run",
	.synopsis = "[OPTIONS] SPEC...\n[OPTIONS] --model NAME|FILE",
	.description =
	"Profile libdmokernels' reference kernel of each op SPEC (e.g.\n"
	"dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same), or every layer of a\n"
	"model, under valgrind --tool=dmo, and print the per-layer table (the\n"
	"safe overlap O_s dmo calls safe in safe_os_bytes: os_bytes as run, or\n"
	"with several threads alive os_split_bytes, safe for any split of the\n"
	"work; docs/threads.md).  NAME is a table shipped with dmo (e.g.\n"
	"mobilenet_v2_1.0_224); FILE a table, .onnx or .tflite.  A .tflite or\n"
	".onnx runs with its real weights and quantisation (an ONNX model's Conv\n"
	"and pools on the NCHW kernels), each layer on the previous\n"
	"layers' real outputs from the input below (as `dmo infer`), so every\n"
	"layer's O_s is that of the real computation; with --backend, each\n"
	"layer the backend runs is run there with the model's quantisation, the\n"
	"others on the reference kernels (backend.csv says which).  Everything\n"
	"else runs on deterministic data.  Progress goes to stderr, a line per layer\n"
	"(not with -q or when stderr is not a terminal).\n",
	.tables = { cmd_profile_options, run_options, cmd_input_options },
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON,
	.notes = "--csv and --json print DIR/layers.csv (written either way) instead of\n"
		 "the table.\n"
		 "Environment: DMO_HARNESS (the harness program), DMO_MODELS_DIR (tables).\n",
	.finding = "a kernel failed under the tool (the harness's status)",
};

/* Check the specs or the table here, and that the backend runs each op, so
 * a typo fails before valgrind starts. */
static int check_inputs(char **specs, int count, const char *model_path, const char *backend,
			const char *isa, int threads, const char *input_file, int *real)
{
	char err[1024];
	struct dmo_opspec spec;
	struct dmo_model model = { 0 };
	struct dmo_backend_handle *h = backend ? dmo_backend_load(backend, isa, err, sizeof err) : NULL;
	int rc = 0;

	for (int i = 0; i < count; i++)
		if (dmo_opspec_parse(specs[i], &spec, err, sizeof err) != 0 ||
		    (h != NULL && dmo_backend_check(h, &spec, err, sizeof err) != 0)) {
			fprintf(stderr, "dmo run: '%s': %s\n", specs[i], err);
			return -1;
		}
	if (model_path != NULL &&
	    (dmo_model_load(model_path, &model, err, sizeof err) != 0 ||
	     dmo_model_check_shapes(&model, err, sizeof err) != 0)) {
		fprintf(stderr, "dmo run: %s\n", err);
		rc = -1;
	}
	struct dmo_net net;
	*real = rc == 0 && model.format == DMO_FORMAT_TFLITE ? dmo_net_runs(&model, &net, err, sizeof err) : 0;
	if (*real < 0) {
		fprintf(stderr, "dmo run: %s\n", err);
		*real = 0;
		rc = -1;
	}
	if (*real) {
		struct stat st;
		uint64_t want = dmo_net_input_bytes(&net);
		dmo_net_free(&net);
		if (input_file != NULL && (stat(input_file, &st) != 0 || !S_ISREG(st.st_mode) ||
					   (uint64_t)st.st_size != want)) {
			fprintf(stderr, "dmo run: --input %s: not a file of the model's %llu input bytes\n",
				input_file, (unsigned long long)want);
			rc = -1;
		}
		if (threads != 1) {
			fprintf(stderr, "dmo run: a .tflite model runs with its real weights one "
				"thread at a time: no --threads\n");
			rc = -1;
		}
	}
	/* A real-weight run puts each layer the backend refuses on the
	 * reference kernels (backend.csv says which ran), so only a table
	 * must fit the backend whole. */
	for (size_t l = 0; rc == 0 && !*real && h != NULL && l < model.n_layers; l++)
		if (dmo_backend_check(h, &model.layers[l].op, err, sizeof err) != 0) {
			fprintf(stderr, "dmo run: layer %s: %s\n", model.layers[l].name, err);
			rc = -1;
		}
	dmo_model_free(&model);
	return rc;
}

/* The table of a finished run: on stdout as text, or layers.csv as CSV or
 * JSON.  Returns STATUS, or 2 when layers.csv cannot be shown. */
static int show_table(int status, const struct dmo_profile_options *opts,
		      const struct cmd_output *shown)
{
	char path[PATH_MAX], err[1024];

	snprintf(path, sizeof path, "%s/%s", opts->out_dir, DMO_LAYERS_CSV);
	if (shown->format != CMD_TEXT && status != 2 &&
	    cmd_table_file(shown->format, path, err, sizeof err) != 0) {
		fprintf(stderr, "dmo run: %s\n", err);
		status = 2;
	}
	return status;
}

/* --runtime NAME: the .tflite model inside TFLM's runner of that kernel
 * build (dmo-tflm-run-NAME), which marks every op it invokes. */
static int run_runtime(const char *runtime, const char *model_path, int real,
		       const struct dmo_input_options *input, struct dmo_profile_options *opts,
		       const struct cmd_output *shown)
{
	struct dmo_runtime_run run;
	struct dmo_kernels kernels;
	char err[1024];
	int status;

	if (!real)
		return cmd_misuse(&command, "--runtime runs a .tflite --model that dmo's kernels "
				  "also run (to line its layers up with dmo's)");
	if (dmo_runtime_prepare("dmo run", runtime, model_path, input, opts->out_dir, &run) != 0)
		return 2;
	/* kernels.csv names the kernel build (a runtime dmo_runtime_prepare
	 * knows); its versions, which the runner prints as it runs, go to
	 * runtime.txt. */
	if (dmo_kernels_named(runtime, &kernels, err, sizeof err) != 0) {
		fprintf(stderr, "dmo run: --runtime: %s\n", err);
		dmo_runtime_finish(&run);
		return 2;
	}
	opts->kernels = &kernels;
	opts->argv = run.argv;
	opts->report = stdout;
	opts->quiet |= shown->format != CMD_TEXT;
	status = dmo_profile_command(opts, "dmo run");
	dmo_runtime_finish(&run);
	return show_table(status, opts, shown);
}

int cmd_run(int argc, char **argv)
{
	struct dmo_profile_options opts = { .out_dir = "dmo-run", .who = "dmo run" };
	char harness[PATH_MAX], model_path[PATH_MAX], err[1024], info[PATH_MAX], note[512];
	const char *threads_text = "1", *model = NULL, *backend = NULL, *isa = NULL, *runtime = NULL;
	struct dmo_input_options input = { .source.seed = 1 };
	struct cmd_output shown = { CMD_TEXT, 0 };
	struct dmo_kernels kernels;
	char **hargv;
	int c, n = 0, threads = 1, interleave = 0, status, taken, real = 0;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		taken = dmo_profile_option(&opts, c, optarg, err, sizeof err);
		if (taken == 0)
			taken = dmo_input_option(&input, c, optarg, err, sizeof err);
		if (taken == 0)
			taken = cmd_output_option(&command, c, &shown);
		if (taken < 0)
			return cmd_misuse(&command, "%s", err);
		if (taken)
			continue;
		switch (c) {
		case 'j':
			if (dmo_op_parse_threads(optarg, &threads) != 0)
				return cmd_misuse(&command, "--threads must be 1..%d, not '%s'",
						  DMO_OP_MAX_THREADS, optarg);
			threads_text = optarg;
			break;
		case 'i':
			interleave = 1;
			break;
		case 'm':
			model = optarg;
			break;
		case 'b':
			backend = optarg;
			break;
		case OPT_ISA:
			isa = optarg;
			break;
		case OPT_RUNTIME:
			runtime = optarg;
			break;
		}
	}
	if ((model == NULL) == (optind >= argc))
		return cmd_misuse(&command, "give op specs or --model, %s",
				  model == NULL ? "none given" : "not both");
	if (model != NULL && dmo_locate_model(model, model_path, sizeof model_path, err, sizeof err) != 0) {
		fprintf(stderr, "dmo run: %s\n", err);
		return 2;
	}
	if (dmo_backend_options_check("dmo run", &backend, isa, threads) != 0 ||
	    check_inputs(argv + optind, argc - optind, model ? model_path : NULL, backend, isa,
			 threads, input.source.file, &real) != 0)
		return 2;
	if (input.given && !real)
		return cmd_misuse(&command, "--input, --random and --zeros are for a .tflite model "
				  "that runs with its real weights");
	if (runtime != NULL && (backend != NULL || threads != 1 || interleave))
		return cmd_misuse(&command, "--runtime runs the runtime's own kernels, one thread: "
				  "no --backend, --isa, --threads or --interleave");
	if (runtime != NULL)
		return run_runtime(runtime, model_path, real, &input, &opts, &shown);
	if (dmo_locate_harness(harness, sizeof harness, err, sizeof err) != 0 ||
	    dmo_kernels_of_backend(backend ? backend : DMO_KERNELS_REF_NAME, isa, &kernels, err,
				   sizeof err) != 0) {
		fprintf(stderr, "dmo run: %s\n", err);
		return 2;
	}

	/* dmo-harness --threads N [--interleave] (--model FILE | -- SPEC...) */
	hargv = calloc((size_t)(argc - optind) + 21, sizeof *hargv);
	if (hargv == NULL) {
		fprintf(stderr, "dmo run: out of memory\n");
		return 2;
	}
	hargv[n++] = harness;
	hargv[n++] = "--threads";
	hargv[n++] = (char *)threads_text;
	if (interleave)
		hargv[n++] = "--interleave";
	if (backend != NULL) {
		hargv[n++] = "--backend";
		hargv[n++] = (char *)backend;
	}
	if (isa != NULL) {
		hargv[n++] = "--isa";
		hargv[n++] = (char *)isa;
	}
	/* What runs natively, found here, outside Valgrind (host_isa.h). */
	hargv[n++] = "--native-isa";
	hargv[n++] = (char *)backend_native_isa(backend, isa);
	hargv[n++] = "--host-isa";
	hargv[n++] = (char *)dmo_cpu_widest_isa();
	/* Every run directory says which kernels ran (ref by default). */
	snprintf(info, sizeof info, "%s/" DMO_BACKEND_INFO_CSV, opts.out_dir);
	hargv[n++] = "--info";
	hargv[n++] = info;
	if (input.source.file != NULL) {
		hargv[n++] = "--input";
		hargv[n++] = (char *)input.source.file;
	} else if (input.source.zeros) {
		hargv[n++] = "--zeros";
	} else if (input.seed_text != NULL) {
		hargv[n++] = "--random";
		hargv[n++] = (char *)input.seed_text;
	}
	/* Hundreds of layers take minutes under the tool, and one large op
	 * spec seconds: say how far it is. */
	if (dmo_progress_wanted(opts.quiet))
		hargv[n++] = "--progress";
	if (model != NULL) {
		hargv[n++] = "--model";
		hargv[n++] = model_path;
	} else {
		hargv[n++] = "--";
		for (int i = optind; i < argc; i++)
			hargv[n++] = argv[i];
	}
	opts.argv = hargv;
	opts.kernels = &kernels;
	/* The program is dmo's own harness: the table is this command's
	 * output, on stdout, or layers.csv as CSV or JSON. */
	opts.report = stdout;
	opts.quiet |= shown.format != CMD_TEXT;
	status = dmo_profile_command(&opts, "dmo run");
	free(hargv);
	if (!opts.quiet && dmo_rundir_isa_note(opts.out_dir, note, sizeof note))
		fprintf(stderr, "dmo run: note: %s\n", note);
	return show_table(status, &opts, &shown);
}
