/* measure.h - every layer of a model measured on one set of kernels: `dmo
 * run --model` (on a backend, inside TFLM with --runtime, or on dmo's
 * reference kernels) run as a child of this very dmo into a run directory.
 * `dmo plan --kernels` plans with what it measures; `dmo compare --model`
 * sets several kernel sets side by side. */
#ifndef DMO_MEASURE_H
#define DMO_MEASURE_H

#include <stddef.h>

struct dmo_kernels;

/* Run `dmo ARGS...` (this very program, ARGS[0] "dmo") with its stdout on
 * stderr, so that the caller's table stays the only thing on stdout.
 * Returns its exit status (128+N for signal N), or -1 with ERR. */
int dmo_run_self(char *const *args, char *err, size_t err_len);

/* Measure every layer of MODEL on kernels K into the run directory DIR,
 * saying so on stderr after WHO.  Returns 0, or -1 with ERR (K cannot be
 * run by dmo: a user's program, a TFLM build that is not built; or the run
 * failed). */
int dmo_measure_model(const char *who, const char *model, const struct dmo_kernels *k,
		      const char *dir, char *err, size_t err_len);

#endif
