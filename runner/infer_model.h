/* infer_model.h - the dmo_net of a model file read by the model language
 * (model_table.h): TFLite builtin and ONNX operators mapped to the inference engine's
 * steps, tensors with their quantisation and constant bytes, and the
 * model's inputs and outputs. */
#ifndef DMO_INFER_MODEL_H
#define DMO_INFER_MODEL_H

#include "infer.h"
#include "model_table.h"

/* Fill *NET from MODEL (a .tflite or .onnx; tables carry no weights:
 * refused).  NET points into MODEL, which must outlive it.  Returns
 * 0, -1 with ERR naming the first layer or tensor dmo cannot run, or -2
 * with ERR when out of memory. */
int dmo_net_from_model(const struct dmo_model *model, struct dmo_net *net, char *err,
		       size_t err_len);

/* Whether MODEL runs with its real weights: a .tflite or .onnx whose every layer
 * dmo's kernels run (dmo_net_from_model and dmo_net_check).  Returns 1
 * with *NET filled (free it), 0 with the reason in WHY, or -1 when out of
 * memory (WHY says so): no answer, not a "no". */
int dmo_net_runs(const struct dmo_model *model, struct dmo_net *net, char *why, size_t why_len);

void dmo_net_free(struct dmo_net *net);

#endif
