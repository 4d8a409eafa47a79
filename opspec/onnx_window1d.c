/* onnx_window1d.c - PyTorch's Conv1d, MaxPool1d, AvgPool1d and
 * ConvTranspose1d (audio and sequence models) read as dmo's 2-D NCHW
 * window ops over one row.  N x C x L is stored exactly as N x C x 1 x L,
 * and ONNX Runtime computes them so: MlasConvPrepare promotes a 1-D
 * convolution to a 2-D one of height 1, and the pooling loops of a 1-D
 * window are those of a 2-D one with one row (docs/formulas.md 3.11). */
#include "onnx_window1d.h"

#include <string.h>

/* The 2-D value of a 1-D spatial attribute: the leading row's entry, then
 * the 1-D entries.  Pads list begins then ends, so each gains a 0. */
static const struct {
	const char *name;
	int64_t row; /* the value of the added axis */
	int pairs;   /* begins and ends (pads) */
} spatial[] = {
	{ "kernel_shape", 1, 0 }, { "strides", 1, 0 },	  { "dilations", 1, 0 },
	{ "pads", 0, 1 },	  { "output_padding", 0, 0 }, { "output_shape", 1, 0 },
};

static void view_tensor(const struct dmo_model_tensor *t, struct dmo_model_tensor *v)
{
	*v = *t;
	v->rank = 4;
	v->shape[0] = t->shape[0];
	v->shape[1] = t->shape[1];
	v->shape[2] = 1;
	v->shape[3] = t->shape[2];
}

int dmo_window1d_view(const Onnx__NodeProto *n, const struct dmo_model_tensor *in,
		      const struct dmo_model_tensor *out, const struct dmo_model_tensor *w,
		      struct dmo_window1d *v)
{
	if (in->rank != 3 || out->rank != 3 || (w != NULL && w->rank != 3) ||
	    n->n_attribute > DMO_WINDOW1D_MAX_ATTRS)
		return -1;
	view_tensor(in, &v->in);
	view_tensor(out, &v->out);
	if (w != NULL)
		view_tensor(w, &v->w);
	v->node = *n;
	v->node.attribute = v->list;
	for (size_t i = 0; i < n->n_attribute; i++) {
		const Onnx__AttributeProto *a = n->attribute[i];

		v->attrs[i] = *a;
		v->list[i] = &v->attrs[i];
		for (size_t k = 0; k < sizeof spatial / sizeof spatial[0]; k++) {
			size_t len = spatial[k].pairs ? 2 : 1;

			/* Another count stays as it is, for the 2-D reader
			 * to refuse ("not 2-D"). */
			if (strcmp(a->name, spatial[k].name) || a->n_ints != len)
				continue;
			for (size_t j = 0; j < len; j++) {
				v->ints[i][2 * j] = spatial[k].row;
				v->ints[i][2 * j + 1] = a->ints[j];
			}
			v->attrs[i].ints = v->ints[i];
			v->attrs[i].n_ints = 2 * len;
		}
	}
	return 0;
}
