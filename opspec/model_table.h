/* model_table.h - reader of the model layer tables in target-harness/models
 * (CSV columns `layer,name,spec,inputs`), shared by the harness program and the
 * planner so that both see the same layers, specs and data-flow edges. */
#ifndef DMO_MODEL_TABLE_H
#define DMO_MODEL_TABLE_H

#include <stddef.h>

#include "opspec.h"

/* Producer index meaning "the model's input tensor". */
#define DMO_MODEL_INPUT (-1)

struct dmo_model_layer {
	char *name;
	char *spec;              /* op-spec text as written in the table */
	struct dmo_opspec op;    /* SPEC, parsed */
	size_t n_inputs;
	int *inputs;             /* producer layer indices, or DMO_MODEL_INPUT */
	int row;                 /* CSV row (header = 1), for messages */
};

struct dmo_model {
	size_t n_layers;
	struct dmo_model_layer *layers;
};

/* Read the table at PATH into *MODEL (which the caller later releases with
 * dmo_model_free).  An empty `inputs` field means the previous layer (the
 * model input for the first layer); otherwise it is a `;`-separated list of
 * names of earlier layers.  Returns 0, or -1 with one message naming the
 * file and row in ERR (and *MODEL left empty). */
int dmo_model_load(const char *path, struct dmo_model *model, char *err,
		   size_t err_len);

/* Same from memory; SOURCE names the table in messages. */
int dmo_model_parse(const char *data, size_t len, const char *source,
		    struct dmo_model *model, char *err, size_t err_len);

/* Check that shapes chain: every producer's output has as many elements as
 * its consumer's input (both operands of add/mul), dtypes agree, add/mul have
 * exactly two inputs and every other op one.  Returns 0 or -1 with ERR. */
int dmo_model_check_shapes(const struct dmo_model *model, char *err,
			   size_t err_len);

void dmo_model_free(struct dmo_model *model);

#endif
