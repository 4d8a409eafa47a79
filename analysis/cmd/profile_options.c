/* profile_options.c - the shared tables of profile_options.h. */
#include "profile_options.h"

#include <stdio.h>

#include "input_options.h"
#include "profile.h"

const struct cmd_option cmd_profile_options[] = {
	{ "out", required_argument, 'o', "DIR", "run directory (default: dmo-run)" },
	{ "trace", required_argument, 't', "MODE",
	  "summary (counts and exact O_s) or full (every event)" },
	{ "layers", required_argument, DMO_OPT_LAYERS, "LIST",
	  "with --trace=full: event files for these layers only;\n"
	  "LIST is numbers (from 1), ranges N-M and names, * and ?\n"
	  "as wildcards, separated by commas (e.g. 3,7-9,conv*);\n"
	  "the other layers get their layers.csv rows (counts and\n"
	  "exact O_s) as always, without events (--untraced)" },
	{ "untraced", required_argument, DMO_OPT_UNTRACED, "MODE",
	  "what the layers --layers leaves out get: summary (their\n"
	  "rows, the default) or skip (no row; they run as code\n"
	  "outside layers does, near --tool=none speed)" },
	{ "trace-version", required_argument, DMO_OPT_TRACE_VERSION, "N",
	  "event files in version 2 (compact, the default) or 1\n"
	  "(16 bytes an event, as dmo wrote before; both are read)" },
	{ "count", no_argument, DMO_OPT_COUNT, NULL,
	  "count guest instructions for layers.csv's instructions\n"
	  "column (a full trace always counts; otherwise it is empty)" },
	{ "force", no_argument, DMO_OPT_FORCE, NULL,
	  "take DIR as a run folder though it holds other\n"
	  "files and no earlier run (its files named like\n"
	  "dmo's are replaced)" },
	{ "quiet", no_argument, 'q', NULL,
	  "no per-layer table and no notes (layers.csv is written\n"
	  "as always; warnings about threads stay)" },
	{ "max-mem", required_argument, DMO_OPT_MAX_MEM, "SIZE",
	  "RAM a full trace may hold before it goes to disk\n"
	  "(K, M, G suffixes; at least 2M; default " DMO_MAX_MEM_DEFAULT_TEXT ")" },
	{ "vg-opt", required_argument, DMO_OPT_VG_OPT, "OPT",
	  "hand OPT (e.g. --fair-sched=yes) to valgrind;\n"
	  "repeatable; the options dmo sets itself are refused;\n"
	  "a child traced (valgrind's --trace-children=yes, the\n"
	  "default when PROGRAM is a shell) records in DIR/proc-PID" },
	{ "runs", required_argument, DMO_OPT_RUNS, "K",
	  "run K times under different valgrind schedules\n"
	  "(--fair-sched=yes, varied block sizes); each layer's\n"
	  "values are the minimum over the runs, spread shown;\n"
	  "run K in DIR/run-K (default 1)" },
	{ "static-split", no_argument, DMO_OPT_STATIC_SPLIT, NULL,
	  "declare that the library splits a layer's work over\n"
	  "its threads the same way every run (a fixed range per\n"
	  "thread): a layer run while several threads are alive\n"
	  "is then safe at os_any_bytes, not os_split_bytes" },
	{ "time-limit", required_argument, DMO_OPT_TIME_LIMIT, "SECONDS",
	  "stop the run after SECONDS as SIGTERM does: the\n"
	  "layers recorded so far are kept in layers.csv (the\n"
	  "open one incomplete), exit status 2" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cmd_option cmd_input_options[] = {
	{ "input", required_argument, OPT_INPUT, "FILE",
	  "raw bytes of every model input, in tensor order" },
	{ "random", required_argument, OPT_RANDOM, "SEED",
	  "pseudo-random inputs (default: --random 1)" },
	{ "zeros", no_argument, OPT_ZEROS, NULL, "inputs of all-zero bytes" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cmd_option cmd_shape_options[] = {
	{ "shape", required_argument, CMD_OPT_SHAPE, "NAME=DIMS",
	  "the shape of a tensor a .tflite or .onnx file leaves\n"
	  "dynamic, e.g. input=1x3x224x224 (repeatable)" },
	{ NULL, 0, 0, NULL, NULL },
};

int cmd_shape_option(struct cmd_shapes *shapes, int key, const char *arg, char *err,
		     size_t err_len)
{
	if (key != CMD_OPT_SHAPE)
		return 0;
	if (shapes->n == CMD_MAX_SHAPES) {
		snprintf(err, err_len, "at most %d --shape options", CMD_MAX_SHAPES);
		return -1;
	}
	if (dmo_model_shape_parse(arg, &shapes->list[shapes->n], err, err_len) != 0)
		return -1;
	shapes->n++;
	return 1;
}
