/* cmd_compare.c - `dmo compare SPEC...`: one op spec measured and verified
 * on every backend, side by side (compare.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "backend.h"
#include "backend_options.h"
#include "cmd.h"
#include "compare.h"
#include "cpu_features.h"
#include "fs.h"
#include "host_isa.h"
#include "json.h"
#include "kernels.h"
#include "locate.h"
#include "measure.h"
#include "model_table.h"
#include "rundir.h"
#include "progress.h"
#include "runner.h"
#include "verify.h"

#define STR_(x) #x
#define STR(x) STR_(x)

enum { OPT_KERNELS = OPT_ISA + 1 };

static const struct cmd_option options[] = {
	{ "backends", required_argument, 'b', "LIST",
	  "comma-separated (default: every backend that is\n"
	  "available: " DMO_BACKEND_NAMES_HOST "\n"
	  DMO_BACKEND_NAMES_CMSIS ")" },
	{ "isa", required_argument, OPT_ISA, "CAP",
	  "instruction-set cap for every backend, under the\n"
	  "tool and natively: sse4, avx, avx2 (default avx2,\n"
	  "the most Valgrind's virtual CPU offers), none" },
	{ "out", required_argument, 'o', "DIR",
	  "run directories, one per backend (default dmo-compare)" },
	{ "threads", required_argument, 'j', "N",
	  "run each library on its own pool of N threads\n"
	  "(xnnpack: pthreadpool, onednn: OpenMP), under the\n"
	  "tool and natively; the O_s is the one safe for any\n"
	  "split of the work, verified by at least "
	  STR(DMO_VERIFY_REPEAT_THREADED) "\nnative runs (default 1)" },
	{ "model", required_argument, 'm', "MODEL",
	  "instead of op specs: every layer of MODEL (a .tflite)\n"
	  "measured on each kernel set of --kernels, its safe O_s\n"
	  "side by side (DIR/compare-model.csv)" },
	{ "kernels", required_argument, OPT_KERNELS, "LIST",
	  "with --model, comma-separated kernel sets (ref, a\n"
	  "backend, a TFLM build such as tflm-cmsis-nn-dsp;\n"
	  "default: ref and, for a .tflite, every TFLM build dmo was\n"
	  "built with)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "compare",
	.synopsis = "[OPTIONS] SPEC...\n  or:  dmo compare [OPTIONS] --model MODEL [--kernels LIST]",
	.description =
	"For each op SPEC and each backend: profile the backend's kernel under\n"
	"valgrind --tool=dmo (exact O_s), run it natively with its input really\n"
	"placed at that overlap in one arena and compare the output bit for bit\n"
	"with a separate-buffer run (safe), then at one element more (whether\n"
	"the output changes: tight), beside the reference loop order's\n"
	"algorithmic and analytic O_s.  A backend that needs aligned buffers\n"
	"(armnn: 16 bytes) is verified at the largest aligned overlap <= O_s and\n"
	"one alignment step more.  \"vs ref\" is the largest relative difference\n"
	"of the backend's output from the ref backend's on the same input\n"
	"(integer ops: the largest absolute difference, which must be 0).\n"
	"With --model, each kernel set measures every layer of the model under the\n"
	"tool (dmo run --model, with --backend or inside TFLM with --runtime) and\n"
	"the table shows each layer's safe O_s per kernel set: which kernel build\n"
	"allows what, and where one allows less than dmo's reference kernels.\n",
	.tables = { options },
	.notes = "DIR/compare.csv holds the table as --csv prints it, written either way;\n"
		 "a line per spec and backend goes to stderr as each completes.\n",
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON | CMD_HAS_QUIET,
	.finding = "a measured O_s is not safe natively, or an integer op's output\n"
		   "differs from ref's",
};

static const char *const csv_columns[] = {
	"spec", "backend", "status", "version", "isa_tool", "isa_native", "implementation",
	"in_bytes", "out_bytes", "os_bytes", "tested_bytes", "safe", "next_bytes",
	"next_changed", "algorithmic_os", "analytic_os", "diff_vs_ref", "reason", "threads",
	"runs", "differed", "safe_os_rule", NULL
};

static void csv_text(FILE *out, const char *text, int last)
{
	csv_fwrite(out, text, strlen(text));
	fputc(last ? '\n' : ',', out);
}

static const char *status_name(enum dmo_compare_status s)
{
	return s == DMO_COMPARE_OK ? "ok" : s == DMO_COMPARE_UNAVAILABLE ? "unavailable"
		: s == DMO_COMPARE_UNSUPPORTED ? "unsupported" : "failed";
}

static void write_csv(FILE *out, const struct dmo_compare_row *rows, size_t n, int threads)
{
	for (int c = 0; csv_columns[c] != NULL; c++)
		fprintf(out, "%s%s", c ? "," : "", csv_columns[c]);
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		const struct dmo_compare_row *r = &rows[i];
		int ok = r->status == DMO_COMPARE_OK;

		csv_text(out, r->spec, 0);
		csv_text(out, r->backend, 0);
		csv_text(out, status_name(r->status), 0);
		csv_text(out, r->version, 0);
		csv_text(out, r->isa_tool, 0);
		csv_text(out, r->isa_native, 0);
		csv_text(out, r->implementation, 0);
		fprintf(out, "%" PRIu64 ",%" PRIu64 ",", r->in_bytes, r->out_bytes);
		if (ok)
			fprintf(out, "%" PRIu64 ",%" PRIu64 ",%d,", r->os, r->tested, r->safe);
		else
			fputs(",,,", out);
		if (ok && r->next_changed >= 0)
			fprintf(out, "%" PRIu64 ",%d,", r->tested + r->step, r->next_changed);
		else
			fputs(",,", out);
		fprintf(out, "%" PRIu64 ",%" PRIu64 ",", r->algorithmic, r->analytic);
		if (ok && r->diff_vs_ref >= 0)
			fprintf(out, "%.3g,", r->diff_vs_ref);
		else
			fputc(',', out);
		csv_text(out, r->reason, 0);
		fprintf(out, "%d,", threads);
		if (ok)
			fprintf(out, "%" PRIu64 ",%" PRIu64 ",", r->runs, r->differed);
		else
			fputs(",,", out);
		csv_text(out, r->safe_rule, 1);
	}
}

/* What the reference formula would mean for this kernel. */
static void formula_note(const struct dmo_compare_row *r, char *text, size_t len)
{
	if (r->algorithmic == r->os)
		snprintf(text, len, "= reference order");
	else if (r->algorithmic > r->os)
		snprintf(text, len, "ref formula UNSAFE by %" PRIu64, r->algorithmic - r->os);
	else
		snprintf(text, len, "allows %" PRIu64 " more than ref", r->os - r->algorithmic);
}

static void print_table(const struct dmo_compare_row *rows, size_t n, int threads)
{
	const char *last_spec = NULL;

	if (threads > 1)
		printf("%d threads: O_s safe for any split of each library's work, verified "
		       "natively on its own pool (column 'runs': overlapped runs that differed / "
		       "runs)\n", threads);
	printf("  %-16s %-10s %10s %8s %10s %-5s %-12s %10s %10s %8s %11s  %s\n", "backend", "isa",
	       "O_s", "O_s %", "verified", "safe", "next step", "ref algo", "analytic", "vs ref",
	       "runs", "kernel order");
	for (size_t i = 0; i < n; i++) {
		const struct dmo_compare_row *r = &rows[i];
		char next[40], note[64], diff[16] = "-", runs[32];

		if (last_spec == NULL || strcmp(last_spec, r->spec) != 0) {
			printf("%s  (IB %" PRIu64 ", OB %" PRIu64 ")\n", r->spec, r->in_bytes,
			       r->out_bytes);
			last_spec = r->spec;
		}
		if (r->status != DMO_COMPARE_OK) {
			printf("  %-16s %s: %s\n", r->backend, status_name(r->status), r->reason);
			continue;
		}
		if (!r->safe || r->next_changed < 0)
			snprintf(next, sizeof next, "-");
		else
			snprintf(next, sizeof next, "+%" PRIu64 " %s", r->step,
				 r->next_changed ? "changes" : "same");
		formula_note(r, note, sizeof note);
		if (r->diff_vs_ref >= 0)
			snprintf(diff, sizeof diff, "%.1e", r->diff_vs_ref);
		snprintf(runs, sizeof runs, "%" PRIu64 "/%" PRIu64, r->differed, r->runs);
		printf("  %-16s %-10.10s %10" PRIu64 " %7.2f%% %10" PRIu64 " %-5s %-12s %10" PRIu64
		       " %10" PRIu64 " %8s %11s  %s\n",
		       r->backend, r->isa_tool, r->os,
		       r->out_bytes ? 100.0 * (double)r->os / (double)r->out_bytes : 0.0, r->tested,
		       r->safe ? "yes" : "NO", next, r->algorithmic, r->analytic, diff, runs, note);
	}
}

/* One line on stderr for each backend whose kernels natively are not
 * those measured (host_isa.h). */
static void print_isa_notes(const struct dmo_compare_row *rows, size_t n)
{
	char note[512];
	const char *noted = "";

	for (size_t i = 0; i < n; i++)
		if (rows[i].status == DMO_COMPARE_OK && strcmp(rows[i].backend, noted) != 0 &&
		    dmo_isa_note(note, sizeof note, rows[i].backend, rows[i].isa_tool,
				 rows[i].isa_native, dmo_cpu_widest_isa())) {
			fprintf(stderr, "dmo compare: note: %s\n", note);
			noted = rows[i].backend;
		}
}

/* Split LIST at commas into a NULL-terminated array (LIST is modified). */
static const char **split_list(char *list)
{
	size_t n = 2;
	const char **names;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	names = calloc(n, sizeof *names);
	if (names == NULL)
		return NULL;
	n = 0;
	for (char *tok = strtok(list, ","); tok != NULL; tok = strtok(NULL, ","))
		names[n++] = tok;
	return names;
}

/* Every known backend whose plugin loads; the others are named on stderr. */
static const char **available_backends(const char *isa)
{
	const char **names = calloc(DMO_BACKEND_COUNT + 1, sizeof *names);
	char err[512];
	size_t n = 0;

	if (names == NULL)
		return NULL;
	for (int i = 0; dmo_backend_names[i] != NULL; i++) {
		if (dmo_backend_load(dmo_backend_names[i], isa, err, sizeof err) != NULL)
			names[n++] = dmo_backend_names[i];
		else
			fprintf(stderr, "dmo compare: skipping %s\n", err);
	}
	return names;
}

static void show_row(void *progress, const struct dmo_compare_row *row)
{
	dmo_progress_step(progress, "%s %s: %s", row->backend, row->spec, status_name(row->status));
}

/* The safe O_s of layer NAME in TABLE, or NULL when TABLE has no such
 * layer or no O_s for it. */
static const struct dmo_layer_row *layer_named(const struct dmo_layer_table *table,
					       const char *name)
{
	for (size_t i = 0; i < table->count; i++)
		if (strcmp(table->rows[i].name, name) == 0)
			return dmo_layer_os_known(&table->rows[i]) ? &table->rows[i] : NULL;
	return NULL;
}

/* Write DIR/compare-model.csv and print the table: a row per layer of the
 * first kernel set, a column of safe O_s per kernel set ("" where a set
 * has none for the layer). */
static int model_table(const char *dir, const char *const *names, const struct dmo_layer_table *t,
		       size_t n, int quiet, char *err, size_t err_len)
{
	char path[4096];
	struct dmo_out written;
	FILE *csv;

	snprintf(path, sizeof path, "%s/compare-model.csv", dir);
	if ((csv = dmo_out_open(&written, path, err, err_len)) == NULL)
		return -1;
	fputs("layer,name,in_bytes,out_bytes", csv);
	for (size_t k = 0; k < n; k++)
		fprintf(csv, ",%s", names[k]);
	fputc('\n', csv);
	if (!quiet) {
		printf("%5s  %-28s %10s %10s", "layer", "name", "in_bytes", "out_bytes");
		for (size_t k = 0; k < n; k++)
			printf(" %*s", (int)(strlen(names[k]) > 10 ? strlen(names[k]) : 10), names[k]);
		printf("\n");
	}
	for (size_t i = 0; i < t[0].count; i++) {
		const struct dmo_layer_row *r = &t[0].rows[i];

		fprintf(csv, "%u,", r->layer);
		csv_text(csv, r->name, 0);
		fprintf(csv, "%" PRIu64 ",%" PRIu64, r->in_bytes, r->out_bytes);
		if (!quiet)
			printf("%5u  %-28.28s %10" PRIu64 " %10" PRIu64, r->layer, r->name, r->in_bytes,
			       r->out_bytes);
		for (size_t k = 0; k < n; k++) {
			const struct dmo_layer_row *o = layer_named(&t[k], r->name);
			char cell[24] = "-";

			if (o != NULL)
				snprintf(cell, sizeof cell, "%" PRIu64, dmo_layer_safe_os(o));
			fprintf(csv, ",%s", o != NULL ? cell : "");
			if (!quiet)
				printf(" %*s", (int)(strlen(names[k]) > 10 ? strlen(names[k]) : 10), cell);
		}
		fputc('\n', csv);
		if (!quiet)
			printf("\n");
	}
	return dmo_out_commit(&written, err, err_len);
}

/* dmo compare --model: every layer of MODEL measured on each kernel set of
 * LIST (NULL: the defaults that dmo can run), side by side. */
static int compare_model(const char *model, char *list, const char *dir,
			 const struct cmd_output *output)
{
	const char *names[16];
	struct dmo_layer_table tables[16];
	size_t n = 0, measured = 0;
	char model_path[4096], run_dir[4096 + 128], csv_path[4096 + 256], err[1024], runner[4096];
	int status = 2;

	if (dmo_locate_model(model, model_path, sizeof model_path, err, sizeof err) != 0) {
		fprintf(stderr, "dmo compare: %s\n", err);
		return 2;
	}
	if (list != NULL) {
		for (char *tok = strtok(list, ","); tok != NULL; tok = strtok(NULL, ",")) {
			if (n == sizeof names / sizeof *names)
				return cmd_misuse(&command, "--kernels: at most %zu kernel sets",
						  sizeof names / sizeof *names);
			names[n++] = tok;
		}
	} else { /* dmo's reference kernels and, for a .tflite, every TFLM build
		  * dmo was built with (TFLM runs no other format) */
		const char *runtime;
		struct dmo_model m;
		int tflite;

		if (dmo_model_load_shaped(model_path, NULL, 0, &m, err, sizeof err) != 0) {
			fprintf(stderr, "dmo compare: %s\n", err);
			return 2;
		}
		tflite = m.format == DMO_FORMAT_TFLITE;
		dmo_model_free(&m);
		names[n++] = DMO_KERNELS_REF_NAME;
		for (size_t k = 0; tflite && (runtime = dmo_kernels_runtime(k)) != NULL; k++)
			if (dmo_locate_tflm_runner(runtime, runner, sizeof runner, err, sizeof err) == 0 &&
			    n < sizeof names / sizeof *names)
				names[n++] = runtime;
	}
	if (n == 0)
		return cmd_misuse(&command, "--kernels: no kernel set named");
	if (dmo_make_dirs(dir) != 0) {
		fprintf(stderr, "dmo compare: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	for (; measured < n; measured++) {
		struct dmo_kernels k;

		tables[measured].rows = NULL;
		tables[measured].count = 0;
		snprintf(run_dir, sizeof run_dir, "%s/%s", dir, names[measured]);
		snprintf(csv_path, sizeof csv_path, "%s/%s", run_dir, DMO_LAYERS_CSV);
		if (dmo_kernels_named(names[measured], &k, err, sizeof err) != 0 ||
		    dmo_measure_model("dmo compare", model_path, &k, run_dir, err, sizeof err) != 0 ||
		    dmo_layers_csv_read(csv_path, &tables[measured], err, sizeof err) < 0) {
			fprintf(stderr, "dmo compare: %s\n", err);
			goto out;
		}
	}
	if (model_table(dir, names, tables, n, output->format != CMD_TEXT, err, sizeof err) != 0) {
		fprintf(stderr, "dmo compare: %s\n", err);
		goto out;
	}
	snprintf(csv_path, sizeof csv_path, "%s/compare-model.csv", dir);
	status = output->format != CMD_TEXT &&
		 cmd_table_file(output->format, csv_path, err, sizeof err) != 0 ? 2 : 0;
	if (status != 0)
		fprintf(stderr, "dmo compare: %s\n", err);
out:
	for (size_t k = 0; k < measured; k++)
		dmo_layer_table_free(&tables[k]);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	struct dmo_compare_options opts = { .isa = "avx2", .out_dir = "dmo-compare",
					    .threads = 1 };
	struct dmo_compare_row *rows = NULL;
	const char **backends = NULL;
	char *list = NULL, *kernel_list = NULL, err[1024], path[4096];
	const char *model = NULL;
	struct cmd_output output = { CMD_TEXT, 0 };
	struct cmd_table table;
	int c, n_backends = 0, status = 2;
	struct dmo_progress progress;
	struct dmo_out csv;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (cmd_output_option(&command, c, &output))
			continue;
		switch (c) {
		case 'b':
			list = optarg;
			break;
		case OPT_ISA:
			opts.isa = strcmp(optarg, "none") == 0 ? NULL : optarg;
			break;
		case 'o':
			opts.out_dir = optarg;
			break;
		case 'm':
			model = optarg;
			break;
		case OPT_KERNELS:
			kernel_list = optarg;
			break;
		case 'j':
			if (dmo_op_parse_threads(optarg, &opts.threads) != 0)
				return cmd_misuse(&command, "--threads must be 1..%d, not '%s'",
						  DMO_OP_MAX_THREADS, optarg);
			break;
		}
	}
	if (model != NULL) {
		if (optind < argc)
			return cmd_misuse(&command, "give op specs or --model, not both");
		if (list != NULL || opts.threads != 1)
			return cmd_misuse(&command, "--model takes --kernels, not --backends or --threads");
		return compare_model(model, kernel_list, opts.out_dir, &output);
	}
	if (kernel_list != NULL)
		return cmd_misuse(&command, "--kernels goes with --model");
	if (optind >= argc)
		return cmd_misuse(&command, "no op spec given");
	if (opts.isa != NULL && !dmo_backend_isa_valid(opts.isa))
		return cmd_misuse(&command, "--isa '%s' is not one of sse4, avx, avx2, none",
				  opts.isa);
	backends = list != NULL ? split_list(list) : available_backends(opts.isa);
	if (backends == NULL) {
		fprintf(stderr, "dmo compare: out of memory\n");
		return 2;
	}
	for (; backends[n_backends] != NULL; n_backends++)
		if (!dmo_backend_known(backends[n_backends])) {
			fprintf(stderr, "dmo compare: unknown backend '%s' (known: "
				DMO_BACKEND_NAMES_TEXT ")\n", backends[n_backends]);
			goto out;
		}
	if (n_backends == 0) {
		fprintf(stderr, "dmo compare: no backend to compare\n");
		goto out;
	}
	opts.specs = argv + optind;
	opts.n_specs = argc - optind;
	opts.backends = backends;
	rows = calloc((size_t)opts.n_specs * (size_t)n_backends, sizeof *rows);
	if (rows == NULL) {
		fprintf(stderr, "dmo compare: out of memory\n");
		goto out;
	}
	dmo_progress_start(&progress, command.name, (size_t)opts.n_specs * (size_t)n_backends, dmo_progress_wanted(output.quiet));
	opts.row_done = show_row;
	opts.row_done_arg = &progress;
	if (dmo_compare(&opts, rows, err, sizeof err) != 0) {
		fprintf(stderr, "dmo compare: %s\n", err);
		goto out;
	}
	size_t n = (size_t)opts.n_specs * (size_t)n_backends;
	snprintf(path, sizeof path, "%s/compare.csv", opts.out_dir);
	if (dmo_out_open(&csv, path, err, sizeof err) == NULL) {
		fprintf(stderr, "dmo compare: %s\n", err);
		goto out;
	}
	write_csv(csv.stream, rows, n, opts.threads);
	if (dmo_out_commit(&csv, err, sizeof err) != 0) {
		fprintf(stderr, "dmo compare: %s\n", err);
		goto out;
	}
	if (output.format != CMD_TEXT) {
		if (cmd_table_open(&table, output.format, "compare") == NULL)
			goto out;
		write_csv(table.stream, rows, n, opts.threads);
		if (cmd_table_close(&table, err, sizeof err) != 0) {
			fprintf(stderr, "dmo compare: %s\n", err);
			goto out;
		}
	} else {
		print_table(rows, n, opts.threads);
		printf("ISA cap %s; run directories and compare.csv in %s\n",
		       opts.isa ? opts.isa : "none", opts.out_dir);
	}
	print_isa_notes(rows, n);
	/* A row whose profiling or verification did not complete is work dmo
	 * could not do (2), worse than a finding (1). */
	status = 0;
	for (size_t i = 0; i < n; i++)
		if (rows[i].status == DMO_COMPARE_FAILED)
			status = 2;
		else if (rows[i].status == DMO_COMPARE_OK && status == 0 &&
			 (!rows[i].safe || (rows[i].exact && rows[i].diff_vs_ref != 0)))
			status = 1;
	if (fflush(stdout) != 0)
		status = 2;
out:
	free(rows);
	free(backends);
	return status;
}
