/* tflm_run.h - a .tflite run inside TensorFlow Lite Micro by dmo's runner
 * dmo-tflm-run-KERNELS, and the proof of a plan there (`dmo plan --verify`
 * for TFLM's kernels): the model with dmo's offline plan against the same
 * model on TFLM's own plan, bit for bit, and the arena TFLM used.
 *
 * The runner's interface: `dmo-tflm-run-KERNELS [--input FILE] [--output
 * FILE] [--arena-size BYTES] [--info] MODEL.tflite`; input and output are
 * the raw bytes of the model's inputs (outputs) concatenated in their
 * order; on stdout, lines `kernels NAME`, `tflm VERSION`, `cmsis_nn
 * VERSION`, `offline_plan yes|no`, `arena_used_bytes N`; exit 0, 1 (the
 * model failed in TFLM), 2 (misuse). */
#ifndef DMO_TFLM_RUN_H
#define DMO_TFLM_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "model_table.h"
#include "plan.h"

struct dmo_tflm_result {
	char kernels[96], tflm[96], cmsis_nn[96];
	int offline_plan;             /* TFLM took the model's offline plan */
	uint64_t arena_used_bytes;
};

/* Run MODEL_PATH in RUNNER on the input bytes of INPUT_PATH, outputs to
 * OUTPUT_PATH.  Returns 0 with *RESULT, or -1 with ERR (the runner's exit
 * status and its stderr on dmo's). */
int dmo_tflm_run(const char *runner, const char *model_path, const char *input_path,
		 const char *output_path, struct dmo_tflm_result *result, char *err, size_t err_len);

/* Write the bytes of every input of MODEL (tensor order), filled from
 * SOURCE as `dmo infer` fills them (--random SEED, --zeros, --input FILE),
 * to PATH: the --input of dmo-tflm-run-KERNELS.  Returns 0, or -1 with ERR
 * (dmo cannot run the model, so cannot say what its inputs are). */
struct dmo_net_input;
int dmo_tflm_write_input(const struct dmo_model *model, const struct dmo_net_input *source,
			 const char *path, char *err, size_t err_len);

/* The proof: MODEL (read from MODEL_PATH) with PLAN written in as its
 * offline plan for KERNELS, run in dmo-tflm-run-KERNELS on N_INPUTS
 * inputs (dmo infer's --random 1 to N), each against the model as it is (TFLM's own
 * plan).  Returns 0 when every output is equal bit for bit and TFLM's
 * arena is lower by exactly PLAN's saving (peak_plain - peak_dmo; only
 * when PLAN is TFLM's whole arena, its kernels' scratch buffers known), 1 when
 * not (ERR says which), -1 with ERR when it could not run.  SUMMARY gets a
 * line for the report. */
int dmo_tflm_verify(const char *model_path, const struct dmo_model *model,
		    const struct dmo_plan *plan, const char *kernels, int n_inputs, char *summary,
		    size_t summary_len, char *err, size_t err_len);

#endif
