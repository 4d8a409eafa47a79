/* cmd_model.c - `dmo model`: the layers and tensors dmo derives from a
 * model file (.tflite, .onnx or a layer table), or that model written as a
 * layer table. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "locate.h"
#include "model_report.h"
#include "model_table.h"

#define MAX_SHAPES 16

static const char usage[] =
	"usage: dmo model [OPTIONS] MODEL\n"
	"\n"
	"Show what dmo reads from MODEL (a .tflite or .onnx file, a layer table, or\n"
	"a table shipped with dmo; the format is told by content): its layers with\n"
	"the op spec dmo derived for each (or why it has none: such a layer is\n"
	"planned with no overlap), and its tensors with type, shape, bytes,\n"
	"producer, consumers, live range and quantisation.  ONNX shapes are NCHW\n"
	"as in the file; op specs are NHWC (docs/models.md).\n"
	"\n"
	"  --csv                the layers as CSV (with --tensors: the tensors)\n"
	"  --tensors            with --csv, print the tensor table\n"
	"  --table              write the model in dmo's layer-table format\n"
	"                       (layer,name,spec,inputs) on stdout\n"
	"  --shape NAME=DIMS    the shape of a tensor the file leaves dynamic,\n"
	"                       e.g. --shape input=1x3x224x224 (repeatable)\n"
	"  -h, --help           this text\n";

int cmd_model(int argc, char **argv)
{
	static const struct option options[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "tensors", no_argument, NULL, 't' },
		{ "table", no_argument, NULL, 'T' },
		{ "shape", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dmo_model_shape shapes[MAX_SHAPES];
	struct dmo_model model;
	char path[PATH_MAX], err[1024];
	int c, csv = 0, tensors = 0, table = 0, rc = 0;
	size_t n_shapes = 0;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'c':
			csv = 1;
			break;
		case 't':
			tensors = 1;
			break;
		case 'T':
			table = 1;
			break;
		case 's':
			if (n_shapes == MAX_SHAPES) {
				fprintf(stderr, "dmo model: at most %d --shape options\n", MAX_SHAPES);
				return 2;
			}
			if (dmo_model_shape_parse(optarg, &shapes[n_shapes++], err, sizeof err) != 0) {
				fprintf(stderr, "dmo model: %s\n", err);
				return 2;
			}
			break;
		default:
			return cmd_usage(usage, c == 'h');
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "dmo model: give exactly one MODEL\n%s", usage);
		return 2;
	}
	if (table && (csv || tensors)) {
		fprintf(stderr, "dmo model: --table is a format of its own, not with --csv or --tensors\n");
		return 2;
	}
	if (tensors && !csv) {
		fprintf(stderr, "dmo model: --tensors selects the CSV table; the text report shows both\n");
		return 2;
	}
	if (dmo_locate_model(argv[optind], path, sizeof path, err, sizeof err) != 0 ||
	    dmo_model_load_shaped(path, shapes, n_shapes, &model, err, sizeof err) != 0) {
		fprintf(stderr, "dmo model: %s\n", err);
		return 2;
	}
	if (table) {
		if (dmo_model_write_table(stdout, stderr, &model, err, sizeof err) != 0) {
			fprintf(stderr, "dmo model: --table: %s\n", err);
			rc = 2;
		}
	} else if (csv) {
		dmo_model_print_csv(stdout, &model, tensors);
	} else {
		dmo_model_print(stdout, argv[optind], &model);
	}
	dmo_model_free(&model);
	return rc;
}
