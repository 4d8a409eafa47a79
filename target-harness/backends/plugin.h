/* plugin.h - what every third-party backend plugin needs beside
 * <dmo/backend.h>: the op name test, the f32-only refusal, and the ISA cap
 * names.  Header-only, so each plugin stays one self-contained object. */
#ifndef DMO_BACKEND_PLUGIN_H
#define DMO_BACKEND_PLUGIN_H

#include <stdio.h>
#include <string.h>

#include <dmo/backend.h>

static inline int op_is(const struct dmo_backend_op *op, const char *name)
{
	return strcmp(op->op, name) == 0;
}

/* The XNNPACK, oneDNN, OpenBLAS and Arm NN plugins wrap the libraries'
 * float kernels only: they were written before the ABI carried
 * quantisation (version 2's op->quant), and use none. */
static inline int refuse_non_f32(const struct dmo_backend_op *op, const char *library,
				 char *err, size_t err_len)
{
	if (strcmp(op->dtype, "f32") == 0)
		return 0;
	snprintf(err, err_len, "%s backend runs f32 only, not %s (its plugin does not "
		 "wire the library's integer kernels)", library, op->dtype);
	return -1;
}

/* ISA cap rank: 0 none, 1 sse4, 2 avx, 3 avx2. */
static inline int isa_rank(const char *isa)
{
	if (isa == NULL)
		return 0;
	return strcmp(isa, "sse4") == 0 ? 1 : strcmp(isa, "avx") == 0 ? 2 : 3;
}

#endif
