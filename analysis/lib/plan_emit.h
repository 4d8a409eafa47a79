/* plan_emit.h - a plan written where the runtime reads it: the model's own
 * .tflite with TFLite Micro's offline memory plan and dmo's kernels entry
 * (`dmo plan --emit-tflite`), a C header of the arena size and offsets
 * (`--emit-header`), and the embedded plan read back (`dmo infer --arena
 * model`).  docs/plan.md, "The plan in the model". */
#ifndef DMO_PLAN_EMIT_H
#define DMO_PLAN_EMIT_H

#include <stddef.h>
#include <stdio.h>

#include "kernels.h"
#include "model_table.h"
#include "plan.h"

/* The kernels entry's text for a plan made for kernels K: lines
 * "kernels=NAME", "version=", "isa=", "dmo=VERSION", "align=", "arena=". */
void dmo_plan_kernels_text(const struct dmo_kernels *k, const struct dmo_plan *plan, char *buf,
			   size_t len);

/* The kernels NAME of an embedded kernels entry TEXT, into NAME ("" when
 * the entry has none). */
void dmo_plan_kernels_of_text(const char *text, char *name, size_t len);

/* Write MODEL (a .tflite) with PLAN's overlap offsets as its offline plan
 * (constants -1) and the kernels entry for K to PATH (dmo_write_file: never
 * through a link).  Returns 0, or -1 with ERR. */
int dmo_plan_emit_tflite(const char *path, const struct dmo_model *model,
			 const struct dmo_plan *plan, const struct dmo_kernels *k, char *err,
			 size_t err_len);

/* Write a C header to PATH: the arena size, each planned tensor's offset by
 * the model's tensor index, the scratch buffers', and the kernels.
 * Returns 0, or -1 with ERR. */
int dmo_plan_emit_header(const char *path, const struct dmo_model *model,
			 const struct dmo_plan *plan, const struct dmo_kernels *k, char *err,
			 size_t err_len);

/* Print the offline plan and kernels entry MODEL carries, if any (`dmo
 * model`): each planned tensor's offset, by the model's tensor index.
 * Returns 0 (also when there is none), or -1 with ERR (a damaged plan). */
int dmo_plan_print_embedded(FILE *out, const struct dmo_model *model, char *err, size_t err_len);

/* Replace PLAN's overlap offsets with the offline plan MODEL carries,
 * which must hold for the kernels RUNS (its kernels entry names them) and
 * be safe for PLAN's live ranges and O_s (dmo_plan_check).  Returns 0, or
 * -1 with ERR (no plan, other kernels, a tensor without an offset, unsafe). */
int dmo_plan_read_embedded(const struct dmo_model *model, const struct dmo_kernels *runs,
			   struct dmo_plan *plan, char *err, size_t err_len);

#endif
