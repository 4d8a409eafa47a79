/* annotate_layer.h - what the test targets of dmo annotate share
 * (annotate_kernels.c, annotate_opt.c): one layer run between the
 * markers, and the int32 buffers they run on. */
#ifndef ANNOTATE_LAYER_H
#define ANNOTATE_LAYER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "dmo/harness.h"

/* Run KERNEL as layer NAME over IN_BYTES of IN and OUT_BYTES of OUT;
 * nonzero when a marker failed. */
static inline int annotate_layer(const char *name, void (*kernel)(const int32_t *, int32_t *),
				 const int32_t *in, size_t in_bytes, int32_t *out,
				 size_t out_bytes)
{
	if (dmo_layer_begin(name, NULL, in, in_bytes, out, out_bytes) != 0)
		return 1;
	kernel(in, out);
	return dmo_layer_end() != 0;
}

/* Input and output of ELEMENTS int32 each, the input a small ramp; nonzero
 * when out of memory. */
static inline int annotate_buffers(size_t elements, int32_t **in, int32_t **out)
{
	*in = malloc(elements * sizeof **in);
	*out = malloc(elements * sizeof **out);
	if (*in == NULL || *out == NULL)
		return 1;
	for (size_t i = 0; i < elements; i++)
		(*in)[i] = (int32_t)(i % 11);
	return 0;
}

#endif
