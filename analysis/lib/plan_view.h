/* plan_view.h - a plan seen layer by layer and tensor by tensor: the one
 * source of what its figure (`dmo plot --plan`) and any page showing it
 * draw.  The bytes live at each layer with and without overlaps, the
 * highest byte each plan uses there, the peak layer, each tensor's label,
 * the peak of dmo's own placement without overlaps, and the model's name
 * as shown in titles and file names. */
#ifndef DMO_PLAN_VIEW_H
#define DMO_PLAN_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "model_table.h"
#include "plan.h"

/* One layer of a plan. */
struct dmo_plan_use {
	uint64_t live;      /* bytes of the tensors live at the layer: what
			     * any plan without overlaps needs there */
	uint64_t shared;    /* bytes the layer's dying input and its output
			     * share in the overlap plan (its overlap) */
	uint64_t live_dmo;  /* live - shared: what the overlap plan holds */
	uint64_t top_plain; /* highest arena byte in use at the layer + 1,
			     * without overlaps */
	uint64_t top_dmo;   /* the same with overlaps */
};

/* USE[l] for every layer l of PLAN (plan->n_layers entries).  Bytes, or
 * units of plan->align for an aligned plan, as the plan's own. */
void dmo_plan_use(const struct dmo_plan *plan, struct dmo_plan_use *use);

/* The peak layer: the first at which the overlap plan holds the most
 * live bytes (USE from dmo_plan_use). */
size_t dmo_plan_peak_layer(const struct dmo_plan *plan, const struct dmo_plan_use *use);

/* Tensor T of PLAN as named in MODEL ("scratch of layer N" for a
 * kernel's scratch buffer, layers from 1). */
void dmo_plan_tensor_label(const struct dmo_model *model, const struct dmo_plan *plan, size_t t,
			   char *buf, size_t len);

/* The lowest peak without overlaps dmo's planner finds for MODEL under
 * RULES (NULL: bytes), the search given TIME_LIMIT seconds: TFLite
 * Micro's greedy rule (peak_plain) may need more.  Returns 0, or -1 with
 * ERR. */
int dmo_plan_peak_no_overlap(const struct dmo_model *model, const struct dmo_plan_rules *rules,
			     double time_limit, uint64_t *peak, char *err, size_t err_len);

/* The name a model is shown and its figures are named by, from the path
 * or name it was given: the file name less its extension, or for a
 * generic one ("model.onnx", "model_int8.tflite": a stem starting with
 * "model") the folder's name before it ("zoo/resnet/model.onnx" ->
 * "resnet", "zoo/resnet/model_int8.tflite" -> "resnet-model_int8").
 * Characters other than letters, digits, '.', '_' and '-' become '_'. */
void dmo_model_display_name(const char *path, char *buf, size_t len);

#endif
