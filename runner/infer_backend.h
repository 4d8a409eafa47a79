/* infer_backend.h - a step of a real-weight net (infer.h) on a backend
 * (backend.h) instead of the reference kernels, with the step's own
 * weights and quantisation. */
#ifndef DMO_RUNNER_INFER_BACKEND_H
#define DMO_RUNNER_INFER_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "infer.h"

/* Prepare step I of NET on HANDLE: geometry and quantisation as
 * dmo_net_run derives them, the constant tensors as weights, the second
 * add/mul operand at its slot of ARENA (OFFSETS), which must stay put.
 * Run it with dmo_backend_execute(run, its input's slot, its output's
 * slot).  NULL with the reason in ERR: HANDLE is ref, not an op a
 * backend runs, a constant first or second operand, or the backend
 * refuses it. */
struct dmo_backend_run *dmo_net_backend_prepare(struct dmo_backend_handle *handle,
						const struct dmo_net *net, size_t i,
						unsigned char *arena, const uint64_t *offsets,
						char *err, size_t err_len);

/* Run step I of NET in ARENA: on HANDLE when it takes the step (as above),
 * else on the reference kernels (dmo_net_run_step; HANDLE may be NULL).
 * Returns 1 when it ran on the backend, 0 on the reference kernels, -1
 * with ERR when the run failed. */
int dmo_net_run_step_on(struct dmo_backend_handle *handle, const struct dmo_net *net, size_t i,
			unsigned char *arena, const uint64_t *offsets, char *err, size_t err_len);

#endif
