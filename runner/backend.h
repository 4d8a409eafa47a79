/* backend.h - dmo's side of the backend ABI (<dmo/backend.h>): load a
 * backend by name (`ref`, built in, or the plugin dmo-backend-NAME.so),
 * prepare an op spec on it with the reference runner's deterministic
 * weights, so every backend computes the same op on the same numbers, and
 * run it on the caller's buffers. */
#ifndef DMO_RUNNER_BACKEND_H
#define DMO_RUNNER_BACKEND_H

#include <stddef.h>

#include <dmo/backend.h>

#include "opspec.h"

/* The file of a run directory that names, per layer, the backend that ran
 * it: columns name,backend,version,isa_cap,isa,implementation,cpu,
 * scratch_bytes (the kernel's scratch memory, dmo_backend_scratch_bytes;
 * appended later, so a reader takes a file without it). */
#define DMO_BACKEND_INFO_CSV "backend.csv"

/* The backends dmo knows, in the order `dmo compare` lists them, and the
 * same names as text for messages and help (in two parts that fit a help
 * line each). */
#define DMO_BACKEND_COUNT 8
#define DMO_BACKEND_NAMES_HOST "ref xnnpack onednn openblas armnn"
#define DMO_BACKEND_NAMES_CMSIS "cmsis-nn cmsis-nn-dsp cmsis-nn-dsp-ac6"
#define DMO_BACKEND_NAMES_TEXT DMO_BACKEND_NAMES_HOST " " DMO_BACKEND_NAMES_CMSIS
extern const char *const dmo_backend_names[DMO_BACKEND_COUNT + 1];

/* The ISA caps the --isa option accepts (NULL-terminated). */
extern const char *const dmo_backend_isas[];

struct dmo_backend_handle;
struct dmo_backend_run;

/* Load backend NAME and initialise it with the ISA cap (NULL: none).
 * Plugins are looked for in $DMO_BACKEND_DIR, else in the build tree when
 * the running program is in it, else in the installed folder.  NULL with
 * the reason in ERR (unknown name, plugin not built, ABI version, init).
 * A library is initialised once per process: loading NAME again returns
 * the same handle, or fails when ISA differs.  Handles live until the
 * process ends. */
struct dmo_backend_handle *dmo_backend_load(const char *name, const char *isa, char *err,
					    size_t err_len);
const struct dmo_backend *dmo_backend_desc(const struct dmo_backend_handle *handle);

/* Run the backend's ops on its library's own pool of THREADS threads from
 * now on (dmo_backend_threads_v1); THREADS 1 is the calling thread alone.
 * -1 with ERR when the backend has no pool and THREADS > 1, or it failed. */
int dmo_backend_set_threads(struct dmo_backend_handle *handle, int threads, char *err,
			    size_t err_len);

/* Whether NAME is one of dmo_backend_names. */
int dmo_backend_known(const char *name);

/* Whether ISA is one of dmo_backend_isas. */
int dmo_backend_isa_valid(const char *isa);

/* Prepare SPEC.  IN2 is the second operand of add/mul (NULL: the runner's
 * deterministic one).  NULL with ERR when the backend refuses the op. */
struct dmo_backend_run *dmo_backend_prepare(struct dmo_backend_handle *handle,
					    const struct dmo_opspec *spec, const void *in2,
					    char *err, size_t err_len);
/* Prepare an op described directly (a model's layer with its own weights):
 * OP without quant, Q its integer quantisation (NULL for f32) and SCALES
 * the input, second input and output scales (NULL: unknown); the run takes
 * WEIGHTS (may be NULL), freed with it or on failure.  NULL with ERR. */
struct dk_quant;
struct dmo_op_run;
struct dmo_backend_run *dmo_backend_prepare_op(struct dmo_backend_handle *handle,
					       struct dmo_backend_op *op, const struct dk_quant *q,
					       const float scales[3], struct dmo_op_run *weights,
					       char *err, size_t err_len);
/* 0 when the backend can run SPEC under the tool, else -1 with the reason
 * in ERR (it refuses the op, or it copies its buffers). */
int dmo_backend_check(struct dmo_backend_handle *handle, const struct dmo_opspec *spec,
		      char *err, size_t err_len);

int dmo_backend_execute(struct dmo_backend_run *run, const void *in, void *out);
const char *dmo_backend_implementation(const struct dmo_backend_run *run);
/* The scratch memory the backend's kernel uses for RUN (0: none, or a
 * version 1 backend). */
size_t dmo_backend_scratch_bytes(const struct dmo_backend_run *run);
void dmo_backend_release(struct dmo_backend_run *run);

/* The built-in reference backend (backend_ref.c). */
const struct dmo_backend *dmo_backend_ref(void);

#endif
