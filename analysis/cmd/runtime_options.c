/* runtime_options.c - dmo run --runtime (runtime_options.h). */
#include "runtime_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h" /* DMO_BACKEND_INFO_CSV */
#include "fs.h"
#include "infer_model.h"
#include "locate.h"
#include "model_table.h"
#include "rundir.h" /* DMO_RUNTIME_INFO_FILE */

static int known(const char *name)
{
	static const char *const names[] = { "tflm", "tflm-cmsis-nn", "tflm-cmsis-nn-dsp",
					     "tflm-cmsis-nn-dsp-ac6" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* The model's input bytes, filled as dmo infer and dmo-harness fill them
 * (every input in tensor order), into the file RUN->input of a new
 * temporary folder.  Returns 0, or -1 with ERR. */
static int write_input(const char *model_path, const struct dmo_input_options *input,
		       struct dmo_runtime_run *run, char *err, size_t err_len)
{
	struct dmo_model model = { 0 };
	struct dmo_net net;
	uint64_t *offsets = NULL, at = 0;
	unsigned char *bytes = NULL;
	FILE *out = NULL;
	int rc = -1;

	if (dmo_model_load(model_path, &model, err, err_len) != 0)
		return -1;
	if (dmo_net_runs(&model, &net, err, err_len) != 1) {
		if (!*err)
			snprintf(err, err_len, "%s: dmo cannot fill its inputs", model_path);
		dmo_model_free(&model);
		return -1;
	}
	offsets = calloc(net.n_tensors + 1, sizeof *offsets);
	bytes = malloc(dmo_net_input_bytes(&net) + 1);
	if (offsets == NULL || bytes == NULL) {
		snprintf(err, err_len, "out of memory");
		goto done;
	}
	for (size_t t = 0; t < net.n_tensors; t++)
		if (net.tensors[t].graph_input) {
			offsets[t] = at;
			at += dmo_net_tensor_bytes(&net, (int)t);
		}
	if (dmo_net_fill_inputs(&net, &input->source, bytes, offsets, err, err_len) != 0 ||
	    dmo_make_temp_dir(run->input_dir, sizeof run->input_dir, "dmo-runtime", err, err_len) != 0)
		goto done;
	snprintf(run->input, sizeof run->input, "%s/input.bin", run->input_dir);
	out = fopen(run->input, "wbx");
	rc = out != NULL && fwrite(bytes, 1, at, out) == at ? 0 : -1;
	if (out != NULL && fclose(out) != 0)
		rc = -1;
	if (rc != 0)
		snprintf(err, err_len, "cannot write the model's input bytes in TMPDIR");
done:
	free(offsets);
	free(bytes);
	dmo_net_free(&net);
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
