/* cmd_annotate.c - `dmo annotate DIR [--layer N|NAME]`: which source lines
 * of the kernel load and store the layer's buffers, and which two bind its
 * O_s, from the code locations the tool wrote (analysis/lib/annotate.c). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "cmd.h"
#include "json.h"
#include "layer_list.h"
#include "profile.h"
#include "rundir.h"

enum { OPT_CONTEXT = CMD_LONG_ONLY };

static const struct cmd_option options[] = {
	{ "layer", required_argument, 'l', "N|NAME|LIST",
	  "only these layers: a number, a name, or a list of numbers, ranges N-M\n"
	  "and names with * and ? (as dmo plot --layer; default: every layer)" },
	{ "context", required_argument, OPT_CONTEXT, "LINES",
	  "source lines shown around each counted line (default 3)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "annotate",
	.synopsis = "DIR [--layer N|NAME|LIST] [--context LINES] [--csv|--json]",
	.description =
	"Show where in the kernel's code a layer of run directory DIR touched its\n"
	"buffers, as cg_annotate does for cachegrind: per source line the loads and\n"
	"stores of the input and output buffers, and a mark (bind 1, 2) on the lines\n"
	"of the two accesses that bind O_s, the write and the later access whose\n"
	"pair gives the tightest bound OB + i - o_end.  The tool records these for\n"
	"every layer (layer-NNNN-where.csv), from the program's debug information:\n"
	"build it with -g; a program without it still gets instruction addresses.\n"
	"Source lines are shown when the file named by the debug information can\n"
	"be read.\n"
	"\n"
	"--csv and --json print one row per source line (per instruction when it\n"
	"has no line): layer, name, file, line, function, loads, stores, the four\n"
	"counts by kind, binds (first, second, first+second or empty), ip, object,\n"
	"object_address (the address in the object's file, for objdump and\n"
	"addr2line; ip and object_address only for an instruction without a line)\n"
	"and called_from.\n"
	"\n"
	"A binding access in code whose source is not on this machine (libc's\n"
	"memcpy, a library without -g) is shown where it is, and with the line of\n"
	"the kernel that called it (called from FUNCTION (FILE:LINE)).  Optimised\n"
	"code gives a load folded into the instruction that uses it the line of\n"
	"that statement; the pair's instruction addresses say which instruction of\n"
	"a line binds (docs/annotate.md).  dmo plot labels the binding pair's\n"
	"rings with these lines.\n",
	.tables = { options },
	.finding = "some layers had no readable code locations (named on stderr), the\n"
		   "others were annotated",
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON,
};

/* Whether --layer LAYER asks for ROW: its exact name (which may hold a
 * comma, or be a list's text), else LAYER as a list (common/layer_list.h),
 * when it is one. */
static int names_layer(const struct dmo_layer_row *row, const char *layer, int is_list)
{
	return strcmp(row->name, layer) == 0 ||
	       (is_list && dmo_layer_list_has(layer, row->layer, row->name));
}

/* Whether LAYER is a well-formed list; when not, and no layer of TABLE
 * has it as its name, *BAD_AT is where it goes wrong and -1 is returned. */
static int layer_list_kind(const char *layer, const struct dmo_layer_table *table,
			   size_t *bad_at)
{
	if (dmo_layer_list_check(layer, bad_at) == 0)
		return 1;
	for (size_t i = 0; i < table->count; i++)
		if (strcmp(table->rows[i].name, layer) == 0)
			return 0;
	return -1;
}

int cmd_annotate(int argc, char **argv)
{
	struct cmd_output output = { CMD_TEXT, 0 };
	struct dmo_layer_table table = { 0 };
	struct cmd_table out_table;
	const char *layer = NULL, *dir;
	char csv[PATH_MAX], err[PATH_MAX + 256];
	unsigned long context = 3;
	size_t done = 0, failed = 0, bad_at;
	int c, read_rc, is_list = 0;
	FILE *out;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		char *end;
		if (cmd_output_option(&command, c, &output))
			continue;
		if (c == 'l') {
			layer = optarg;
		} else if (c == OPT_CONTEXT) {
			context = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *optarg == '-' || *end != '\0' || context > 1000)
				return cmd_misuse(&command, "--context takes a number of lines "
						  "up to 1000, not '%s'", optarg);
		}
	}
	if (optind != argc - 1)
		return cmd_misuse(&command, optind < argc ? "one run directory expected"
							  : "no run directory given");
	dir = argv[optind];
	read_rc = dmo_rundir_layers(dir, "dmo annotate", &table);
	if (read_rc < 0)
		return 2;
	if (layer != NULL && (is_list = layer_list_kind(layer, &table, &bad_at)) < 0) {
		dmo_layer_table_free(&table);
		return cmd_misuse(&command, "--layer: '%s' at '%s' is not " DMO_LAYER_LIST_ITEM,
				  layer, layer + bad_at);
	}
	snprintf(csv, sizeof csv, "%s/" DMO_LAYERS_CSV, dir);
	out = cmd_table_open(&out_table, output.format, "dmo annotate");
	if (out == NULL) {
		dmo_layer_table_free(&table);
		return 2;
	}
	if (output.format != CMD_TEXT)
		fputs(DMO_ANNOTATE_CSV_HEADER "\n", out);
	for (size_t i = 0; i < table.count; i++) {
		const struct dmo_layer_row *row = &table.rows[i];
		if (row->layer == 0 || (layer != NULL && !names_layer(row, layer, is_list)))
			continue;
		if (layer == NULL && !dmo_layer_ok(row) && strcmp(row->status, "incomplete") != 0)
			continue; /* refused layers were never measured */
		done++;
		if (dmo_annotate_layer(out, dir, row, output.format != CMD_TEXT, (unsigned)context,
				       err, sizeof err) != 0) {
			fprintf(stderr, "dmo annotate: layer %u: %s\n", row->layer, err);
			failed++;
		}
	}
	if (cmd_table_close(&out_table, err, sizeof err) != 0) {
		fprintf(stderr, "dmo annotate: %s\n", err);
		failed = done = 1;
	}
	dmo_layer_table_free(&table);
	if (done == 0) {
		if (layer != NULL)
			fprintf(stderr, "dmo annotate: %s has no layer '%s'\n", csv, layer);
		else
			fprintf(stderr, "dmo annotate: %s has no measured layers\n", csv);
		return 2;
	}
	return failed == done ? 2 : failed > 0 || read_rc > 0 ? 1 : 0;
}
