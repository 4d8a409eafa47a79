/* plan_arena.h - a plan's arena put to use: the model tensors' offsets in
 * it, a plan read back from `dmo plan --csv` (`dmo infer --arena PLAN.csv`),
 * and the proof by execution with a .tflite model's real weights (`dmo
 * plan --verify`): the overlap arena's outputs against the plain arena's. */
#ifndef DMO_PLAN_ARENA_H
#define DMO_PLAN_ARENA_H

#include <stdint.h>

#include "infer.h"
#include "model_table.h"
#include "plan.h"

/* OFFSETS[t] for every tensor t of MODEL: its offset in PLAN's arena,
 * offset_dmo WITH_OVERLAPS, else offset_plain (constants get 0). */
void dmo_plan_offsets(const struct dmo_model *model, const struct dmo_plan *plan,
		      int with_overlaps, uint64_t *offsets);

/* Replace PLAN's overlap offsets (offset_dmo, peak_dmo) with the
 * offset_dmo column of PATH, a `dmo plan --csv` table of the same model:
 * one row per planned tensor in the same order, each with the same layer,
 * name and out_bytes.  The result must pass dmo_plan_check against PLAN's
 * live ranges and O_s, so a plan that would clobber a live tensor is
 * refused before anything runs.  Returns 0, or -1 with ERR naming the file
 * and line. */
int dmo_plan_read_csv(const char *path, const struct dmo_model *model, struct dmo_plan *plan,
		      char *err, size_t err_len);

/* Run NET (read from MODEL) on the input of SOURCE twice, step by step: in
 * PLAN's plain arena (peak_plain) and in its overlap arena (peak_dmo), each
 * first filled with a different byte so that a read of a byte nobody wrote
 * shows, and compare every step's output bit for bit as soon as it is
 * written, and every model output again once all have run.  Returns 0 when all are equal, 1
 * at the first that differs (ERR names the layer, tensor and byte), -1 with
 * ERR when the model could not run.  WATCH (or NULL) is told of each step
 * checked. */
int dmo_plan_verify_net(const struct dmo_model *model, const struct dmo_net *net,
			const struct dmo_plan *plan, const struct dmo_net_input *source,
			const struct dmo_plan_watch *watch, char *err, size_t err_len);

#endif
