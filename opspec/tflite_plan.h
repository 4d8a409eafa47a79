/* tflite_plan.h - TensorFlow Lite Micro's offline memory plan inside a
 * .tflite: the metadata entry "OfflineMemoryAllocation" whose buffer holds
 * little-endian int32 [version, subgraph, N, offset of tensor 0 .. N-1]
 * (-1: planned by TFLM at run time; constants' entries are ignored), and
 * dmo's second entry "dmo_kernels" saying which kernels the plan holds for.
 * Read from any model, and written into a copy of one (docs/plan.md,
 * "The plan in the model"). */
#ifndef DMO_TFLITE_PLAN_H
#define DMO_TFLITE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define DMO_TFLITE_PLAN_NAME "OfflineMemoryAllocation"
#define DMO_TFLITE_KERNELS_NAME "dmo_kernels"

struct dmo_tflite_plan {
	int present;          /* the model carries an OfflineMemoryAllocation */
	int32_t version, subgraph;
	uint32_t n;           /* tensors over all subgraphs */
	int32_t *offsets;     /* N offsets, -1 where TFLM plans at run time */
	char kernels[512];    /* the dmo_kernels entry's text ("" if none) */
};

/* Read the offline plan and the kernels entry of the .tflite DATA (LEN
 * bytes).  A model without them gives PRESENT 0 and KERNELS "".  Returns
 * 0, or -1 with ERR (a damaged FlatBuffer or plan). */
int dmo_tflite_plan_read(const unsigned char *data, size_t len, struct dmo_tflite_plan *plan,
			 char *err, size_t err_len);

/* A copy of the .tflite DATA (LEN bytes) whose Model carries the offline
 * plan OFFSETS (N of them: every tensor of its one subgraph) and the
 * kernels entry KERNELS (text), replacing any entries of those names; every
 * other field and byte of the model is kept.  The new objects go ahead of
 * the old bytes, which move by a multiple of 16 so that every old relative
 * offset and alignment stays valid.  Returns 0 with *OUT (malloc'ed,
 * *OUT_LEN bytes), or -1 with ERR. */
int dmo_tflite_plan_write(const unsigned char *data, size_t len, const int32_t *offsets,
			  uint32_t n, const char *kernels, unsigned char **out, size_t *out_len,
			  char *err, size_t err_len);

void dmo_tflite_plan_free(struct dmo_tflite_plan *plan);

#endif
