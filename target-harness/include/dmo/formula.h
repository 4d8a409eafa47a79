/* dmo/formula.h - the ABI of a user formula in a shared object, for
 * `dmo sweep GRID --formula-lib FILE.so` (docs/sweep.md).
 *
 * The object exports two symbols:
 *
 *     const int dmo_formula_abi = DMO_FORMULA_ABI;
 *     int dmo_formula(const struct dmo_formula_vars *v, int64_t *os_bytes);
 *
 * dmo_formula stores the formula's safe overlap in bytes for the
 * configuration V into *OS_BYTES and returns 0, or returns non-zero when
 * the formula has no value there (dmo reports that configuration as an
 * error).  It must be a pure function of V: dmo may call it from several
 * processes, in any order, once or more per configuration.
 *
 * Every size is in elements unless it says bytes; shapes are NHWC and the
 * output shape and the resolved padding follow TensorFlow's rules, as for
 * the expression variables of the same names. */
#ifndef DMO_FORMULA_H
#define DMO_FORMULA_H

#include <stdint.h>

#define DMO_FORMULA_ABI 1

struct dmo_formula_vars {
	const char *op;   /* "dwconv2d", "conv2d", "maxpool", ... */
	const char *spec; /* the configuration's op spec, canonical form */
	int64_t batch, in_h, in_w, in_c;
	int64_t out_h, out_w, out_c;
	int64_t k_h, k_w, stride_h, stride_w, dil_h, dil_w;
	int64_t pad_top, pad_left, pad_bottom, pad_right;
	int64_t mult;
	int64_t es;       /* bytes per element */
	int64_t IB, OB;   /* input and output buffer bytes */
};

typedef int dmo_formula_fn(const struct dmo_formula_vars *v, int64_t *os_bytes);

#endif
