/* cmd_model.c - `dmo model`: the layers and tensors dmo derives from a
 * model file (.tflite, .onnx or a layer table), or that model written as a
 * layer table. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "json.h"
#include "locate.h"
#include "model_report.h"
#include "model_table.h"
#include "plan_emit.h"
#include "profile_options.h"

enum { OPT_TENSORS = CMD_LONG_ONLY, OPT_TABLE };

static const struct cmd_option options[] = {
	{ "tensors", no_argument, OPT_TENSORS, NULL,
	  "with --csv or --json, the tensor table instead of\n"
	  "the layers" },
	{ "table", no_argument, OPT_TABLE, NULL,
	  "write the model in dmo's layer-table format\n"
	  "(layer,name,spec,inputs) on stdout" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "model",
	.synopsis = "[OPTIONS] MODEL",
	.description =
	"Show what dmo reads from MODEL (a .tflite or .onnx file, a layer table, or\n"
	"a table shipped with dmo; the format is told by content): its layers with\n"
	"the op spec dmo derived for each (or why it has none: such a layer is\n"
	"planned with no overlap), and its tensors with type, shape, bytes,\n"
	"producer, consumers, live range and quantisation.  ONNX shapes are NCHW\n"
	"as in the file; op specs are NHWC (docs/models.md).  A .tflite that\n"
	"carries TensorFlow Lite Micro's offline memory plan (written by dmo plan\n"
	"--emit-tflite, or by another tool) gets it listed, with the kernels it\n"
	"holds for when dmo wrote it.\n",
	.tables = { options, cmd_shape_options },
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON,
};

int cmd_model(int argc, char **argv)
{
	struct cmd_shapes shapes = { .n = 0 };
	struct dmo_model model;
	char path[PATH_MAX], err[1024];
	struct cmd_output output = { CMD_TEXT, 0 };
	struct cmd_table csv_table;
	int c, csv, tensors = 0, table = 0, rc = 0;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (cmd_output_option(&command, c, &output))
			continue;
		if (cmd_shape_option(&shapes, c, optarg, err, sizeof err) < 0)
			return cmd_misuse(&command, "%s", err);
		switch (c) {
		case OPT_TENSORS:
			tensors = 1;
			break;
		case OPT_TABLE:
			table = 1;
			break;
		}
	}
	if (optind != argc - 1)
		return cmd_misuse(&command, "give exactly one MODEL");
	csv = output.format != CMD_TEXT;
	if (table && (csv || tensors))
		return cmd_misuse(&command,
				  "--table is a format of its own, not with --csv, --json or --tensors");
	if (tensors && !csv)
		return cmd_misuse(&command,
				  "--tensors selects the CSV table (or the JSON one); the text report shows both");
	if (dmo_locate_model(argv[optind], path, sizeof path, err, sizeof err) != 0 ||
	    dmo_model_load_shaped(path, shapes.list, shapes.n, &model, err, sizeof err) != 0) {
		fprintf(stderr, "dmo model: %s\n", err);
		return 2;
	}
	if (table) {
		if (dmo_model_write_table(stdout, stderr, &model, err, sizeof err) != 0) {
			fprintf(stderr, "dmo model: --table: %s\n", err);
			rc = 2;
		}
	} else if (csv) {
		if (cmd_table_open(&csv_table, output.format, "model") == NULL) {
			rc = 2;
		} else {
			dmo_model_print_csv(csv_table.stream, &model, tensors);
			if (cmd_table_close(&csv_table, err, sizeof err) != 0) {
				fprintf(stderr, "dmo model: %s\n", err);
				rc = 2;
			}
		}
	} else {
		dmo_model_print(stdout, argv[optind], &model);
		if (dmo_plan_print_embedded(stdout, &model, err, sizeof err) != 0) {
			fprintf(stderr, "dmo model: %s: %s\n", argv[optind], err);
			rc = 2;
		}
	}
	dmo_model_free(&model);
	return rc;
}
