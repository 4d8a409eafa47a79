/* formula.h - user formulas for O_s: integer expressions over the variables
 * of an op spec (`dmo sweep --formula`), and C functions in shared objects
 * (`--formula-lib`, ABI in <dmo/formula.h>).  The language is in
 * docs/sweep.md: int64 arithmetic, exact (/ and % floor, overflow is an
 * error, never a wrapped value), definitions `name = expr;` before the
 * result. */
#ifndef DMO_FORMULA_EXPR_H
#define DMO_FORMULA_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include <dmo/formula.h>

#include "opspec.h"

#define DMO_EXPR_MAX_TEXT 8192

struct dmo_expr;

/* Parse TEXT (not NULL).  Returns 0 and *EXPR, or -1 with a message in ERR starting
 * with "column N: ". */
int dmo_expr_parse(const char *text, struct dmo_expr **expr, char *err, size_t err_len);

/* Evaluate for V.  Returns 0 with the value in *OUT, or -1 with a message
 * in ERR naming the column of the operation that failed (division by zero,
 * overflow). */
int dmo_expr_eval(const struct dmo_expr *expr, const struct dmo_formula_vars *v, int64_t *out,
		  char *err, size_t err_len);

void dmo_expr_free(struct dmo_expr *expr);

/* The variables of SPEC; CANON (kept by the caller) holds its canonical text. */
void dmo_formula_vars_of(const struct dmo_opspec *spec, char *canon, size_t canon_len,
			 struct dmo_formula_vars *v);

/* Names of the variables, space-separated, for messages and --help. */
extern const char dmo_formula_var_names[];

#endif
