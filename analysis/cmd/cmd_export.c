/* cmd_export.c - `dmo export [--csv] DIR`: each layer-NNNN.events of a run
 * directory becomes layer-NNNN.csv beside it. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "fs.h"
#include "rundir.h"
#include "trace.h"
#include "trace_format.h"

static const struct cmd_option options[] = {
	{ "csv", no_argument, CMD_LONG_ONLY, NULL, "CSV, the one format (the default; kept for scripts)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "export",
	.synopsis = "[--csv] DIR",
	.description =
	"Write DIR/layer-NNNN.csv (index,time,tid,kind,buffer,offset,size) for\n"
	"every event file DIR/layer-NNNN.events of a `dmo profile --trace=full` run.\n",
	.tables = { options },
	.finding = "some files were bad and skipped (named on stderr), the others\n"
		   "exported",
};

static int export_one(const char *dir, const char *leaf)
{
	char in_path[PATH_MAX], out_path[PATH_MAX], err[PATH_MAX + 128] = "";
	struct dmo_trace trace;
	struct dmo_out out;
	int rc;

	snprintf(in_path, sizeof in_path, "%s/%s", dir, leaf);
	snprintf(out_path, sizeof out_path, "%s/%.*s.csv", dir, (int)(strlen(leaf) - 7), leaf);
	if (dmo_trace_open(in_path, &trace, err, sizeof err) != 0) {
		fprintf(stderr, "dmo export: %s\n", err);
		return -1;
	}
	if (dmo_out_open(&out, out_path, err, sizeof err) == NULL) {
		fprintf(stderr, "dmo export: %s\n", err);
		dmo_trace_close(&trace);
		return -1;
	}
	rc = dmo_trace_export_csv(&trace, out.stream, err, sizeof err);
	if (rc != 0)
		dmo_out_abandon(&out); /* a part of the events is no result */
	else
		rc = dmo_out_commit(&out, err, sizeof err);
	/* The reader's and the commit's messages name their file; a failed
	 * write during the export is the CSV's. */
	if (rc != 0 && !err[0])
		snprintf(err, sizeof err, "%s: write failed", out_path);
	if (rc != 0)
		fprintf(stderr, "dmo export: %s\n", err);
	else
		printf("%s (%llu events%s)\n", out_path, (unsigned long long)trace.count,
		       trace.incomplete ? ", incomplete run" : "");
	dmo_trace_close(&trace);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	char err[PATH_MAX + 128];
	int failed = 0, found = 0;
	struct dirent **names;
	int n;

	while (cmd_getopt(&command, argc, argv) != -1)
		; /* --csv: the one format */
	if (optind != argc - 1)
		return cmd_misuse(&command, optind == argc ? "no run directory given"
						      : "one run directory expected");
	if (dmo_rundir_exists(argv[optind], err, sizeof err) != 0) {
		fprintf(stderr, "dmo export: %s\n", err);
		return 2;
	}
	n = scandir(argv[optind], &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "dmo export: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	for (int i = 0; i < n; i++) {
		const char *leaf = names[i]->d_name;
		size_t len = strlen(leaf);
		if (strncmp(leaf, DMO_LAYER_FILE_PREFIX, strlen(DMO_LAYER_FILE_PREFIX)) == 0 &&
		    len > strlen(DMO_LAYER_FILE_PREFIX) + strlen(DMO_TRACE_FILE_SUFFIX) &&
		    strcmp(leaf + len - strlen(DMO_TRACE_FILE_SUFFIX), DMO_TRACE_FILE_SUFFIX) == 0) {
			found++;
			failed += export_one(argv[optind], leaf) != 0;
		}
		free(names[i]);
	}
	free(names);
	if (!found) {
		fprintf(stderr, "dmo export: %s holds no layer-NNNN.events files "
			"(profile with --trace=full)\n", argv[optind]);
		return 2;
	}
	return failed == found ? 2 : failed ? 1 : 0;
}
