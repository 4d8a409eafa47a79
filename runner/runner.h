/* runner.h - runs the reference kernel (libdmokernels) that a parsed op spec
 * describes, on deterministic data, from one or many threads.
 *
 * It is the one place that maps a struct dmo_opspec to a dk_* call, shared by
 * the harness program (`dmo run`), `dmo verify` and `dmo plan --verify`.
 * A prepared op owns everything that is not profiled: weights, bias,
 * quantisation parameters and, for add/mul, the second operand.  The
 * profiled input and output buffers are the caller's and may overlap. */
#ifndef DMO_RUNNER_H
#define DMO_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "opspec.h"

struct dmo_op_run;

/* Most threads dmo_op_execute accepts. */
#define DMO_OP_MAX_THREADS 256

/* Derive the kernel parameters of SPEC and allocate its deterministic
 * weights (the same spec gives the same bytes in every run).  Returns NULL
 * with a message in ERR when the spec has no reference kernel (dtype i32) or
 * memory runs out. */
struct dmo_op_run *dmo_op_prepare(const struct dmo_opspec *spec, char *err,
				  size_t err_len);

/* Run the kernel once: IN holds dmo_opspec_in_bytes() bytes, OUT
 * dmo_opspec_out_bytes().  THREADS (1..DMO_OP_MAX_THREADS) split the output
 * contiguously, or round-robin by element when INTERLEAVE is set; the calling
 * thread takes share 0 and waits for the others.  Returns 0, or -1 when the
 * kernel refused its arguments or a thread could not be started. */
int dmo_op_execute(struct dmo_op_run *run, const void *in, void *out,
		   int threads, int interleave);

/* Same, with IN2 as the second operand of add/mul instead of the prepared
 * one (a model feeds it from another layer); IN2 == NULL means the prepared
 * one, and other ops ignore it. */
int dmo_op_execute2(struct dmo_op_run *run, const void *in, const void *in2,
		    void *out, int threads, int interleave);

/* Fill IN (dmo_opspec_in_bytes(SPEC) bytes) with pseudo-random values of
 * SPEC's dtype determined by SEED alone. */
void dmo_op_fill_input(const struct dmo_opspec *spec, void *in, uint64_t seed);

void dmo_op_free(struct dmo_op_run *run);

/* The deterministic weights of a prepared op, for another kernel library
 * to run the same op on (backend.h): filter and bias in the dk_* layouts
 * (NULL for ops without), the second add/mul operand (else NULL). */
struct dmo_op_weights {
	const void *filter, *bias, *in2;
};
void dmo_op_weights(const struct dmo_op_run *run, struct dmo_op_weights *weights);

/* The kernel parameters a prepared op runs with: geometry and the
 * quantisation derived for it (dmokernels.h), for another kernel library
 * to compute the same integer op. */
struct dk_params;
const struct dk_params *dmo_op_params(const struct dmo_op_run *run);

/* Parse a thread count given on a command line (1..DMO_OP_MAX_THREADS).
 * Returns 0, or -1 when TEXT is not such a number. */
int dmo_op_parse_threads(const char *text, int *threads);

#endif
