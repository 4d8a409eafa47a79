/* future_abi.c - a formula plugin built for a formula ABI one past dmo's,
 * which dmo sweep must refuse to call (tests/sweep_errors.sh). */
#include <stdint.h>

#include <dmo/formula.h>

const int dmo_formula_abi = DMO_FORMULA_ABI + 1;

int dmo_formula(const struct dmo_formula_vars *v, int64_t *os)
{
	*os = v->OB;
	return 0;
}
