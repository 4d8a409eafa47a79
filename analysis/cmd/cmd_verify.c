/* cmd_verify.c - `dmo verify SPEC [--overlap BYTES]`: run the reference
 * kernel with its input really placed at an overlap inside one arena and
 * compare the output bit for bit with a separate-buffer run (verify.h). */
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend_options.h"
#include "cmd.h"
#include "cpu_features.h"
#include "locate.h"
#include "model_report.h"
#include "model_table.h"
#include "opspec.h"
#include "json.h"
#include "progress.h"
#include "runner.h"
#include "verify.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct cmd_option options[] = {
	{ "overlap", required_argument, 'x', "BYTES",
	  "overlap X to test (default: the exact O_s of\n"
	  "the reference loop order, as `dmo formula`);\n"
	  "any byte count up to min(IB, OB), though one that\n"
	  "is not a multiple of e misaligns the input" },
	{ "threads", required_argument, 'j', "N",
	  "split the kernel's output over N threads (with\n"
	  "--backend: the library's own pool of N; default 1);\n"
	  "the threads race, so an overlapped run may differ\n"
	  "from run to run: use the safe_os_bytes of a\n"
	  "threaded profile as --overlap" },
	{ "repeat", required_argument, 'r', "R",
	  "overlapped runs at X after the first, counting\n"
	  "those that differ (default with --threads 2 or\n"
	  "more: about a second's worth, at least "
	  STR(DMO_VERIFY_REPEAT_THREADED) "; else 0)" },
	{ "interleave", no_argument, 'i', NULL, "threads take every N-th output element" },
	{ "scan-limit", required_argument, 's', "N",
	  "at most N kernel runs for the larger-overlap scan\n"
	  "(default " STR(DMO_VERIFY_SCAN_LIMIT) "; 0: no scan)" },
	{ "model", required_argument, 'm', "MODEL",
	  "check every layer of MODEL (a built-in table, a\n"
	  "table file, a .tflite or .onnx file) that has an\n"
	  "op spec, each at its own O_s, one line a layer\n"
	  "(no scan unless --scan-limit is given)" },
	{ "backend", required_argument, 'b', "NAME",
	  "run the op on backend NAME (" DMO_BACKEND_NAMES_HOST "\n"
	  DMO_BACKEND_NAMES_CMSIS "; docs/backends.md); the\n"
	  "default overlap stays the reference's O_s, so give\n"
	  "the backend's measured O_s (dmo run --backend)" },
	{ "isa", required_argument, OPT_ISA, "CAP",
	  "cap the backend's instruction set (sse4 avx avx2),\n"
	  "as under the tool, so the same kernel runs" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "verify",
	.synopsis = "[OPTIONS] SPEC\n[OPTIONS] --model MODEL",
	.description =
	"Run the reference kernel of the op SPEC (e.g.\n"
	"dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same) on deterministic data\n"
	"with its input placed X bytes before the end of its output in one arena\n"
	"(input byte r shares memory with output byte r + OB - X), and compare\n"
	"the output bit for bit with a run on separate buffers.  Then try larger\n"
	"overlaps X + e, X + 2e, ... (e = element size) up to min(IB, OB), one\n"
	"kernel run each, and report the smallest one that changes the output.\n",
	.tables = { options },
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON | CMD_HAS_QUIET,
	.notes =
	"The check is value based.  At X = O_s the output must match: that is\n"
	"the check.  An unchanged output at some X' > O_s is no proof that X' is\n"
	"safe: a clobbered input may happen to hold the value it had, so the\n"
	"smallest changing overlap is an upper bound of the real limit, and O_s,\n"
	"derived from the access order, is the proof.\n",
	.finding = "the output differs at the tested overlap",
};

/* A whole decimal number into *VALUE: 0, or -1 when TEXT is not one. */
static int parse_u64(const char *text, uint64_t *value)
{
	char *end;
	unsigned long long v;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*value = v;
	return 0;
}

static void print_diff(const char *what, const struct dmo_verify_diff *d)
{
	printf("%-20s output byte %llu, element %llu (n=%d y=%d x=%d c=%d)\n", what,
	       (unsigned long long)d->byte, (unsigned long long)d->elem, d->n, d->y, d->x,
	       d->c);
}

static const char *runs(uint64_t n)
{
	return n == 1 ? "run" : "runs";
}

static void print_scan(const struct dmo_verify_result *r)
{
	const char *label = "smallest changing:";

	switch (r->scan) {
	case DMO_SCAN_SKIPPED:
		printf("%-20s not scanned (%s)\n", label,
		       r->safe ? "--scan-limit 0" : "the tested overlap already does");
		break;
	case DMO_SCAN_AT_MAX:
		printf("%-20s none: the tested overlap is min(IB, OB)\n", label);
		break;
	case DMO_SCAN_NONE:
		printf("%-20s none: no larger overlap changes the output (%llu %s)\n", label,
		       (unsigned long long)r->scan_runs, runs(r->scan_runs));
		break;
	case DMO_SCAN_LIMIT:
		printf("%-20s no change found up to X'=%llu (scan limit, %llu %s)\n", label,
		       (unsigned long long)r->scan_overlap, (unsigned long long)r->scan_runs,
		       runs(r->scan_runs));
		break;
	case DMO_SCAN_FOUND:
		printf("%-20s %llu bytes (+%llu over the tested overlap, %llu %s)\n",
		       label, (unsigned long long)r->scan_overlap,
		       (unsigned long long)(r->scan_overlap - r->overlap),
		       (unsigned long long)r->scan_runs, runs(r->scan_runs));
		print_diff("  first difference:", &r->scan_diff);
		break;
	}
}

/* Uncapped, the backend runs the host's own kernels: say when the tool
 * cannot have measured them (host_isa.h). */
static void print_native_isa(const char *backend)
{
	const char *native = backend_native_isa(backend, NULL);

	printf("%-20s %s, the host's own (widest: %s)%s\n", "native ISA:", native,
	       dmo_cpu_widest_isa(),
	       dmo_isa_beyond_valgrind(native)
		       ? "; Valgrind's CPU lacks it, so the tool measured other kernels: this "
			 "checks an O_s measured there on the kernels that ship"
		       : "");
}

static void print_result(const char *text, const struct dmo_verify_opts *opts,
			 const struct dmo_verify_result *r)
{
	printf("%-20s %s\n", "spec:", text);
	if (opts->backend != NULL)
		print_backend(opts->backend, opts->isa);
	if (opts->backend != NULL && opts->isa == NULL)
		print_native_isa(opts->backend);
	printf("%-20s %llu bytes\n", "input IB:", (unsigned long long)r->in_bytes);
	printf("%-20s %llu bytes\n", "output OB:", (unsigned long long)r->out_bytes);
	/* The reference loop order's: another backend's may differ. */
	printf("%-20s %llu bytes\n", opts->backend ? "reference O_s:" : "exact O_s:",
	       (unsigned long long)r->exact_os);
	printf("%-20s %llu bytes (", "overlap tested:", (unsigned long long)r->overlap);
	if (r->overlap == r->exact_os)
		printf("= O_s");
	else if (r->overlap > r->exact_os)
		printf("O_s + %llu", (unsigned long long)(r->overlap - r->exact_os));
	else
		printf("O_s - %llu", (unsigned long long)(r->exact_os - r->overlap));
	printf("), arena %llu bytes\n", (unsigned long long)r->arena_bytes);
	if (r->misaligned)
		printf("%-20s %llu is not a multiple of the %llu-byte element: the input "
		       "is misaligned\n", "note:", (unsigned long long)r->overlap,
		       (unsigned long long)r->elem_size);
	if (r->runs > 1)
		printf("%-20s %llu overlapped %s, %llu differed\n", "runs:",
		       (unsigned long long)r->runs, runs(r->runs), (unsigned long long)r->differed);
	if (r->safe) {
		printf("%-20s safe: output identical bit for bit\n", "result:");
	} else {
		printf("%-20s UNSAFE: output differs\n", "result:");
		print_diff("  first difference:", &r->diff);
	}
	print_scan(r);
}

/* --csv: one header for a spec and a model's layers (LAYER 0: a spec). */
static void csv_header(FILE *out)
{
	fputs("layer,name,spec,in_bytes,out_bytes,os_bytes,overlap_bytes,max_overlap_bytes,safe,"
	      "runs,differed,smallest_changing_bytes\n", out);
}

static void csv_row(FILE *out, size_t layer, const char *name, const char *spec,
		    const struct dmo_verify_result *r)
{
	if (layer > 0)
		fprintf(out, "%zu", layer);
	fputc(',', out);
	csv_fwrite(out, name, strlen(name));
	fputc(',', out);
	csv_fwrite(out, spec, strlen(spec));
	fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%d,%llu,%llu,", (unsigned long long)r->in_bytes,
	       (unsigned long long)r->out_bytes, (unsigned long long)r->exact_os,
	       (unsigned long long)r->overlap, (unsigned long long)r->max_overlap, r->safe,
	       (unsigned long long)r->runs, (unsigned long long)r->differed);
	if (r->scan == DMO_SCAN_FOUND)
		fprintf(out, "%llu", (unsigned long long)r->scan_overlap);
	fputc('\n', out);
}

/* The table written: JSON printed, or a message and 2. */
static int table_done(struct cmd_table *table)
{
	char err[256];

	if (cmd_table_close(table, err, sizeof err) == 0)
		return 0;
	fprintf(stderr, "dmo verify: %s\n", err);
	return 2;
}

/* --model: every layer with an op spec at its overlap; 1 if any differs. */
static int verify_model(const char *name, const struct dmo_verify_opts *opts,
			const struct cmd_output *output)
{
	int as_csv = output->format != CMD_TEXT;
	struct cmd_table table;
	struct dmo_model model;
	struct dmo_verify_result res;
	struct dmo_progress progress;
	size_t n_supported = 0;
	char err[1024];
	int rc = 0;

	if (dmo_load_model(name, NULL, 0, &model, err, sizeof err) != 0) {
		fprintf(stderr, "dmo verify: %s\n", err);
		return 2;
	}
	if (cmd_table_open(&table, output->format, "verify") == NULL) {
		dmo_model_free(&model);
		return 2;
	}
	if (as_csv)
		csv_header(table.stream);
	else
		dmo_model_print_unsupported(stdout, &model);
	for (size_t l = 0; l < model.n_layers; l++)
		n_supported += model.layers[l].supported;
	dmo_progress_start(&progress, command.name, n_supported, dmo_progress_wanted(output->quiet));
	for (size_t l = 0; l < model.n_layers && rc != 2; l++) {
		const struct dmo_model_layer *layer = &model.layers[l];

		if (!layer->supported)
			continue;
		if (dmo_verify(&layer->op, opts, &res, err, sizeof err) != 0) {
			fprintf(stderr, "dmo verify: layer %s '%s': %s\n", layer->name, layer->spec, err);
			rc = 2;
			break;
		}
		if (as_csv)
			csv_row(table.stream, l + 1, layer->name, layer->spec, &res);
		else
			printf("%-24s overlap %10llu of %10llu bytes: %s  %s\n", layer->name,
			       (unsigned long long)res.overlap, (unsigned long long)res.max_overlap,
			       res.safe ? "output identical" : "OUTPUT DIFFERS  ", layer->spec);
		fflush(stdout);
		dmo_progress_step(&progress, "layer %zu %s", l + 1, layer->name);
		if (!res.safe)
			rc = 1;
	}
	if (table_done(&table) != 0)
		rc = 2;
	dmo_model_free(&model);
	return rc;
}

int cmd_verify(int argc, char **argv)
{
	struct dmo_verify_opts opts = { .threads = 1, .scan_limit = DMO_VERIFY_SCAN_LIMIT,
					.repeat = DMO_VERIFY_REPEAT_AUTO };
	const char *model = NULL;
	struct cmd_output output = { CMD_TEXT, 0 };
	struct cmd_table table;
	int c, scan_given = 0;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (cmd_output_option(&command, c, &output))
			continue;
		switch (c) {
		case 'x':
			if (parse_u64(optarg, &opts.overlap) != 0)
				return cmd_misuse(&command, "--overlap '%s' is not a byte count",
						  optarg);
			opts.have_overlap = 1;
			break;
		case 'j':
			if (dmo_op_parse_threads(optarg, &opts.threads) != 0)
				return cmd_misuse(&command, "--threads '%s' is not 1..%d", optarg,
						  DMO_OP_MAX_THREADS);
			break;
		case 'i':
			opts.interleave = 1;
			break;
		case 's':
			if (parse_u64(optarg, &opts.scan_limit) != 0)
				return cmd_misuse(&command, "--scan-limit '%s' is not a number",
						  optarg);
			scan_given = 1;
			break;
		case 'm':
			model = optarg;
			break;
		case 'r':
			if (parse_u64(optarg, &opts.repeat) != 0 ||
			    opts.repeat > DMO_VERIFY_REPEAT_MAX)
				return cmd_misuse(&command, "--repeat '%s' is not 0..%d", optarg,
						  DMO_VERIFY_REPEAT_MAX);
			break;
		case 'b':
			opts.backend = optarg;
			break;
		case OPT_ISA:
			opts.isa = optarg;
			break;
		}
	}
	if (model != NULL) {
		if (argc != optind || opts.have_overlap)
			return cmd_misuse(&command, "--model takes no SPEC and no --overlap "
					  "(each layer is tested at its O_s)");
		if (!scan_given)
			opts.scan_limit = 0;
		return verify_model(model, &opts, &output);
	}
	if (argc - optind != 1)
		return cmd_misuse(&command, optind == argc ? "no op spec given"
						       : "one op spec expected");
	if (dmo_backend_options_check("dmo verify", &opts.backend, opts.isa, opts.threads) != 0)
		return 2;

	const char *text = argv[optind];
	struct dmo_opspec spec;
	struct dmo_verify_result res;
	char err[512];

	if (dmo_opspec_parse(text, &spec, err, sizeof err) != 0) {
		fprintf(stderr, "dmo verify: invalid spec '%s': %s\n", text, err);
		return 2;
	}
	if (dmo_verify(&spec, &opts, &res, err, sizeof err) != 0) {
		fprintf(stderr, "dmo verify: '%s': %s\n", text, err);
		return 2;
	}
	if (output.format != CMD_TEXT) {
		if (cmd_table_open(&table, output.format, "verify") == NULL)
			return 2;
		csv_header(table.stream);
		csv_row(table.stream, 0, "", text, &res);
		if (table_done(&table) != 0)
			return 2;
	} else {
		print_result(text, &opts, &res);
	}
	if (fflush(stdout) != 0)
		return 2;
	return res.safe ? 0 : 1;
}
