/* runtime_options.c - dmo run --runtime (runtime_options.h). */
#include "runtime_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h" /* DMO_BACKEND_INFO_CSV */
#include "fs.h"
#include "infer_model.h"
#include "kernels.h"
#include "locate.h"
#include "model_table.h"
#include "rundir.h" /* DMO_RUNTIME_INFO_FILE */
#include "tflm_run.h"

/* A TFLM kernel build dmo knows (kernels.h owns the list). */
static int known(const char *name)
{
	for (size_t i = 0; dmo_kernels_runtime(i) != NULL; i++)
		if (strcmp(name, dmo_kernels_runtime(i)) == 0)
			return 1;
	return 0;
}

/* The model's input bytes, filled as dmo infer and dmo-harness fill them,
 * into the file RUN->input of a new temporary folder.  Returns 0, or -1
 * with ERR. */
static int write_input(const char *model_path, const struct dmo_input_options *input,
		       struct dmo_runtime_run *run, char *err, size_t err_len)
{
	struct dmo_model model = { 0 };
	int rc;

	if (dmo_model_load(model_path, &model, err, err_len) != 0)
		return -1;
	rc = dmo_make_temp_dir(run->input_dir, sizeof run->input_dir, "dmo-runtime", err, err_len);
	snprintf(run->input, sizeof run->input, "%s/input.bin", run->input_dir);
	if (rc == 0)
		rc = dmo_tflm_write_input(&model, &input->source, run->input, err, err_len);
	dmo_model_free(&model);
	return rc;
}

int dmo_runtime_prepare(const char *who, const char *name, const char *model_path,
			const struct dmo_input_options *input, const char *out_dir,
			struct dmo_runtime_run *run)
{
	char err[1024] = "";
	int n = 0;

	*run = (struct dmo_runtime_run){ 0 };
	if (!known(name)) {
		fprintf(stderr, "%s: unknown runtime '%s' (known: " DMO_RUNTIME_NAMES_TEXT ")\n",
			who, name);
		return -1;
	}
	if (dmo_locate_tflm_runner(name, run->program, sizeof run->program, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		return -1;
	}
	if (input->source.file != NULL)
		snprintf(run->input, sizeof run->input, "%s", input->source.file);
	else if (write_input(model_path, input, run, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		dmo_runtime_finish(run);
		return -1;
	}
	snprintf(run->info, sizeof run->info, "%s/%s", out_dir, DMO_RUNTIME_INFO_FILE);
	snprintf(run->backend_csv, sizeof run->backend_csv, "%s/%s", out_dir, DMO_BACKEND_INFO_CSV);
	run->argv[n++] = run->program;
	run->argv[n++] = "--input";
	run->argv[n++] = run->input;
	run->argv[n++] = "--summary";
	run->argv[n++] = run->info;
	run->argv[n++] = "--backend-csv";
	run->argv[n++] = run->backend_csv;
	run->argv[n++] = (char *)model_path;
	run->argv[n] = NULL;
	return 0;
}

void dmo_runtime_finish(struct dmo_runtime_run *run)
{
	if (!run->input_dir[0])
		return;
	unlink(run->input);
	rmdir(run->input_dir);
	run->input_dir[0] = '\0';
}
