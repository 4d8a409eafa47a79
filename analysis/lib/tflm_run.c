/* tflm_run.c - running dmo-tflm-run-KERNELS, and a plan proven inside
 * TensorFlow Lite Micro (tflm_run.h). */
#include "tflm_run.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errbuf.h"
#include "fs.h"
#include "infer.h"
#include "infer_model.h"
#include "kernels.h"
#include "locate.h"
#include "plan_emit.h"

/* One line of the runner's report into RESULT. */
static void take_line(const char *line, struct dmo_tflm_result *r)
{
	char value[96];

	if (sscanf(line, "kernels %95s", value) == 1)
		snprintf(r->kernels, sizeof r->kernels, "%s", value);
	else if (sscanf(line, "tflm %95s", value) == 1)
		snprintf(r->tflm, sizeof r->tflm, "%s", value);
	else if (sscanf(line, "cmsis_nn %95s", value) == 1)
		snprintf(r->cmsis_nn, sizeof r->cmsis_nn, "%s", value);
	else if (sscanf(line, "offline_plan %95s", value) == 1)
		r->offline_plan = strcmp(value, "yes") == 0;
	else
		sscanf(line, "arena_used_bytes %" SCNu64, &r->arena_used_bytes);
}

int dmo_tflm_run(const char *runner, const char *model_path, const char *input_path,
		 const char *output_path, struct dmo_tflm_result *result, char *err, size_t err_len)
{
	char *args[] = { (char *)runner, "--input", (char *)input_path, "--output",
			 (char *)output_path, (char *)model_path, NULL };
	char line[512];
	int pipe_fd[2], status;
	FILE *report;
	pid_t child;

	memset(result, 0, sizeof *result);
	if (pipe(pipe_fd) != 0)
		return dmo_errf(err, err_len, "pipe: %s", strerror(errno));
	fflush(NULL);
	child = fork();
	if (child == 0) {
		dup2(pipe_fd[1], STDOUT_FILENO);
		close(pipe_fd[0]);
		close(pipe_fd[1]);
		execv(runner, args);
		_exit(127);
	}
	close(pipe_fd[1]);
	if (child < 0) {
		close(pipe_fd[0]);
		return dmo_errf(err, err_len, "fork: %s", strerror(errno));
	}
	report = fdopen(pipe_fd[0], "r");
	while (report != NULL && fgets(line, sizeof line, report) != NULL)
		take_line(line, result);
	if (report != NULL)
		fclose(report);
	else
		close(pipe_fd[0]);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return dmo_errf(err, err_len, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return dmo_errf(err, err_len, "%s %s failed (%s %d)", runner, model_path,
				WIFEXITED(status) ? "exit status" : "signal",
				WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return 0;
}

int dmo_tflm_write_input(const struct dmo_model *model, const struct dmo_net_input *source,
			 const char *path, char *err, size_t err_len)
{
	struct dmo_net net;
	uint64_t *offsets = NULL, at = 0;
	unsigned char *bytes = NULL;
	int rc = -1;

	if (dmo_net_runs(model, &net, err, err_len) != 1) {
		if (!*err)
			snprintf(err, err_len, "dmo cannot fill this model's inputs");
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
	if (dmo_net_fill_inputs(&net, source, bytes, offsets, err, err_len) == 0)
		rc = dmo_write_file(path, bytes, at, err, err_len);
done:
	free(offsets);
	free(bytes);
	dmo_net_free(&net);
	return rc;
}

int dmo_tflm_verify(const char *model_path, const struct dmo_model *model,
		    const struct dmo_plan *plan, const char *kernels, int n_inputs, char *summary,
		    size_t summary_len, char *err, size_t err_len)
{
	char runner[PATH_MAX], dir[PATH_MAX], planned[PATH_MAX + 32], input[PATH_MAX + 32],
	     out_tflm[PATH_MAX + 32], out_dmo[PATH_MAX + 32], why[512];
	struct dmo_tflm_result own, ours;
	struct dmo_kernels k;
	uint64_t saving = plan->peak_plain - plan->peak_dmo;
	long at;
	int rc = 0, same, differ[2];

	if (dmo_locate_tflm_runner(kernels, runner, sizeof runner, err, err_len) != 0 ||
	    dmo_kernels_named(kernels, &k, err, err_len) != 0 ||
	    dmo_make_temp_dir(dir, sizeof dir, "dmo-tflm", err, err_len) != 0)
		return -1;
	snprintf(planned, sizeof planned, "%s/planned.tflite", dir);
	snprintf(input, sizeof input, "%s/input.bin", dir);
	snprintf(out_tflm, sizeof out_tflm, "%s/out-tflm.bin", dir);
	snprintf(out_dmo, sizeof out_dmo, "%s/out-dmo.bin", dir);
	if (dmo_plan_emit_tflite(planned, model, plan, &k, err, err_len) != 0)
		rc = -1;
	for (int i = 0; i < n_inputs && rc == 0; i++) {
		struct dmo_net_input source = { .seed = (uint64_t)i + 1 }; /* dmo infer --random i+1 */

		if (dmo_tflm_write_input(model, &source, input, err, err_len) != 0 ||
		    dmo_tflm_run(runner, model_path, input, out_tflm, &own, err, err_len) != 0 ||
		    dmo_tflm_run(runner, planned, input, out_dmo, &ours, err, err_len) != 0) {
			rc = -1;
			break;
		}
		same = dmo_same_bytes(out_tflm, out_dmo, &at, differ, why, sizeof why);
		if (same < 0) {
			rc = dmo_errf(err, err_len, "the runner's outputs: %s", why);
			break;
		}
		if (!same)
			snprintf(why, sizeof why, "outputs differ at byte %ld (%d on TFLM's plan, %d on "
				 "dmo's)", at, differ[0], differ[1]);
		if (!ours.offline_plan)
			dmo_errf(err, err_len, "%s did not take the offline plan", runner);
		else if (!same)
			dmo_errf(err, err_len, "input %d: %s", i + 1, why);
		else if (plan->whole_arena && (own.arena_used_bytes < ours.arena_used_bytes ||
					       own.arena_used_bytes - ours.arena_used_bytes != saving))
			dmo_errf(err, err_len, "TFLM used %" PRIu64 " bytes with its own plan and %" PRIu64
				 " with dmo's, where dmo said %" PRIu64 " fewer", own.arena_used_bytes,
				 ours.arena_used_bytes, saving);
		else
			continue;
		rc = 1; /* a finding: the plan does not hold in TFLM as dmo said */
	}
	if (rc == 0 && plan->whole_arena)
		snprintf(summary, summary_len, "outputs of TFLM %s (%s kernels%s%s) with dmo's offline "
			 "plan equal TFLM's own plan's bit for bit on %d inputs; arena_used_bytes %"
			 PRIu64 " instead of %" PRIu64 ", %" PRIu64 " lower as dmo said", ours.tflm,
			 ours.kernels, ours.cmsis_nn[0] ? ", CMSIS-NN " : "", ours.cmsis_nn, n_inputs,
			 ours.arena_used_bytes, own.arena_used_bytes, saving);
	else if (rc == 0)
		snprintf(summary, summary_len, "outputs of TFLM %s (%s kernels%s%s) with dmo's offline "
			 "plan equal TFLM's own plan's bit for bit on %d inputs; arena_used_bytes %"
			 PRIu64 " instead of %" PRIu64 " (dmo's plan of the activations saves %" PRIu64
			 "; TFLM fitted the scratch buffers dmo does not know around it)", ours.tflm,
			 ours.kernels, ours.cmsis_nn[0] ? ", CMSIS-NN " : "", ours.cmsis_nn, n_inputs,
			 ours.arena_used_bytes, own.arena_used_bytes, saving);
	dmo_remove_dir(dir);
	return rc;
}
