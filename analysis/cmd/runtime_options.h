/* runtime_options.h - `dmo run --runtime NAME`: profile a .tflite as a
 * whole runtime runs it, TensorFlow Lite Micro with one kernel build
 * (dmo-tflm-run-NAME, built with ./configure --with-tflm=DIR; docs/deploy.md). */
#ifndef DMO_RUNTIME_OPTIONS_H
#define DMO_RUNTIME_OPTIONS_H

#include <stddef.h>

#include "input_options.h"

/* getopt_long code of --runtime (a long option only). */
enum { OPT_RUNTIME = 0x1c0 };

/* The runtimes, as --help lists them. */
#define DMO_RUNTIME_NAMES_TEXT "tflm tflm-cmsis-nn tflm-cmsis-nn-dsp tflm-cmsis-nn-dsp-ac6"

/* A runtime run's argv and the temporary input file it reads. */
struct dmo_runtime_run {
	char program[4096];
	char input_dir[4000]; /* "" when the user's --input is read */
	char input[4096];
	char info[4096];      /* DIR/runtime.txt */
	char backend_csv[4096];
	char *argv[12];
};

/* Set up RUN for runtime NAME on the .tflite MODEL_PATH with the input
 * INPUT (the user's --input file, or bytes dmo writes as `dmo infer` would
 * fill them, to a temporary file) into run directory OUT_DIR.  Returns 0,
 * or -1 after a message on stderr starting with WHO. */
int dmo_runtime_prepare(const char *who, const char *name, const char *model_path,
			const struct dmo_input_options *input, const char *out_dir,
			struct dmo_runtime_run *run);

/* Remove the temporary input of RUN. */
void dmo_runtime_finish(struct dmo_runtime_run *run);

#endif
