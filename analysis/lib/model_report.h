/* model_report.h - what dmo derived from a model file (`dmo model`): its
 * layers with op specs, its tensors with shapes, dtypes, bytes, producers,
 * consumers and live ranges, the ops dmo has no model for, and the
 * conversion to dmo's own layer-table format. */
#ifndef DMO_MODEL_REPORT_H
#define DMO_MODEL_REPORT_H

#include <stdio.h>

#include "model_table.h"

/* One line per layer without a dmo op spec: "no overlap: op X has no dmo
 * model (layer N_x)" or its other reason.  Nothing when all have one. */
void dmo_model_print_unsupported(FILE *out, const struct dmo_model *model);

/* The summary, the layer table and the tensor table as aligned text. */
void dmo_model_print(FILE *out, const char *source, const struct dmo_model *model);

/* One CSV table: the layers (TENSORS 0) or the tensors (TENSORS 1). */
void dmo_model_print_csv(FILE *out, const struct dmo_model *model, int tensors);

/* MODEL as a layer table (`layer,name,spec,inputs`, model_table.h).  Layers
 * without an op spec that keep their input's bytes (reshape, softmax, ...)
 * are left out and their readers read their input instead; they are named
 * on NOTES.  Returns 0, or -1 with ERR when the model does not fit a table
 * (one model input, one result per layer, no other layer without a spec). */
int dmo_model_write_table(FILE *out, FILE *notes, const struct dmo_model *model, char *err,
			  size_t err_len);

#endif
