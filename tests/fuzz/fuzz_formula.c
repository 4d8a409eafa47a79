/* fuzz_formula.c - libFuzzer target for the formula parser and evaluator:
 * any byte string is parsed or rejected with a "column N: " message inside
 * the text; an accepted formula evaluates, on a few op specs' variables
 * and on extreme values, to a value or to an error with a column, never a
 * crash or undefined behaviour (UBSan checks every overflow). */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formula.h"

static void check_error(const char *err, size_t len)
{
	assert(strncmp(err, "column ", 7) == 0);
	unsigned long column = strtoul(err + 7, NULL, 10);
	assert(column >= 1 && column <= len + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct dmo_expr *expr;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (dmo_expr_parse(text, &expr, err, sizeof err) == 0) {
		struct dmo_formula_vars v = {
			.op = "dwconv2d", .spec = "", .batch = 1, .in_h = 112, .in_w = 112,
			.in_c = 96, .out_h = 56, .out_w = 56, .out_c = 96, .k_h = 3, .k_w = 3,
			.stride_h = 2, .stride_w = 2, .dil_h = 1, .dil_w = 1, .pad_right = 1,
			.pad_bottom = 1, .mult = 1, .es = 4, .IB = 4816896, .OB = 1204224,
		};
		int64_t value;
		for (int round = 0; round < 3; round++) {
			if (dmo_expr_eval(expr, &v, &value, err, sizeof err) != 0)
				check_error(err, size);
			/* Extremes: every variable at INT64_MAX, then INT64_MIN. */
			int64_t *field = &v.batch;
			for (int64_t *f = field; f <= &v.OB; f++)
				*f = round == 0 ? INT64_MAX : INT64_MIN;
		}
		dmo_expr_free(expr);
	} else {
		check_error(err, size);
	}
	free(text);
	return 0;
}
