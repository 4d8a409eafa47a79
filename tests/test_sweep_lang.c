/* test_sweep_lang.c - Check tests of the two languages of `dmo sweep`: op-spec
 * grids (opspec/grid.c) and formulas (analysis/lib/formula.c).  Expected
 * configurations, values and columns are worked out by hand next to each
 * case (columns are 1-based byte positions). */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "formula.h"
#include "grid.h"

static struct dmo_grid *grid_ok(const char *text)
{
	struct dmo_grid *g;
	char err[256] = "";
	ck_assert_msg(dmo_grid_parse(text, &g, err, sizeof err) == 0, "'%s': %s", text, err);
	return g;
}

static void expect_spec(const struct dmo_grid *g, uint64_t i, const char *want)
{
	char buf[256];
	ck_assert_int_eq(dmo_grid_spec(g, i, buf, sizeof buf), (int)strlen(want));
	ck_assert_str_eq(buf, want);
}

START_TEST(grid_expands)
{
	/* 2 x 3 = 6, the last set fastest. */
	struct dmo_grid *g = grid_ok("relu:in={4,6}x{1..3}x2");
	ck_assert_uint_eq(dmo_grid_count(g), 6);
	expect_spec(g, 0, "relu:in=4x1x2");
	expect_spec(g, 2, "relu:in=4x3x2");
	expect_spec(g, 3, "relu:in=6x1x2");
	expect_spec(g, 5, "relu:in=6x3x2");
	char buf[64];
	ck_assert_int_eq(dmo_grid_spec(g, 6, buf, sizeof buf), -1);
	ck_assert_int_eq(dmo_grid_spec(g, 5, buf, 8), -1); /* too small a buffer */
	dmo_grid_free(g);

	/* Room for "relu:in=" and its NUL, not for the range's number. */
	g = grid_ok("relu:in={1..3}x2x2");
	ck_assert_int_eq(dmo_grid_spec(g, 0, buf, 9), -1);
	dmo_grid_free(g);

	g = grid_ok("fc:in={1..10:4},units=3"); /* 1, 5, 9 */
	ck_assert_uint_eq(dmo_grid_count(g), 3);
	expect_spec(g, 2, "fc:in=9,units=3");
	dmo_grid_free(g);

	g = grid_ok("dwconv2d:in=4x4x1,k=3,pad={2,4..6:2,same}"); /* 2, 4, 6, same */
	ck_assert_uint_eq(dmo_grid_count(g), 4);
	expect_spec(g, 1, "dwconv2d:in=4x4x1,k=3,pad=4");
	expect_spec(g, 3, "dwconv2d:in=4x4x1,k=3,pad=same");
	dmo_grid_free(g);

	g = grid_ok("relu:in=4x4x4"); /* no set: one configuration */
	ck_assert_uint_eq(dmo_grid_count(g), 1);
	expect_spec(g, 0, "relu:in=4x4x4");
	dmo_grid_free(g);

	/* The example: 8 * 8 * 3 * 5 * 5 * 2 * 2 = 19200. */
	g = grid_ok("dwconv2d:in={8..64:8}x{8..64:8}x{1,3,16},k={1..5}x{1..5},stride={1,2},pad={same,valid}");
	ck_assert_uint_eq(dmo_grid_count(g), 19200);
	expect_spec(g, 19199, "dwconv2d:in=64x64x16,k=5x5,stride=2,pad=valid");
	dmo_grid_free(g);
}
END_TEST

static const struct error_case {
	const char *text, *message; /* message starts with "column N: " */
} grid_errors[] = {
	{ "", "column 1: empty grid" },
	{ "relu:in={4,6x1x1", "column 9: '{' is never closed" },
	{ "relu:in=4}x1x1", "column 10: '}' without '{'" },
	{ "relu:in={}x1", "column 10: empty item" },
	{ "relu:in={4,,5}", "column 12: empty item" },  /* the second ',' is at 12 */
	{ "relu:in={9..3}", "column 10: empty range: 9 > 3" },
	{ "relu:in={1..x}", "column 13: a range ends" },
	{ "relu:in={x..2}", "column 10: a range starts" },
	{ "relu:in={1..5:0}", "column 15: a range's step" }, /* after ':' at 14 */
	{ "relu:in={1{2}}", "column 11: sets do not nest" },
	{ "relu:in={1..3000000000}", "column 13: a range ends" }, /* beyond 2^31 */
	/* 10^4 * 10^4 configurations: the second set, at 18, breaks the limit. */
	{ "fc:in={1..10000}x{1..10000},units=1", "column 18: grid has more than" },
	{ "relu:in={1..20000000}x1x1", "column 9: set has more than 10000000 values" },
};

START_TEST(grid_too_long)
{
	char text[DMO_GRID_MAX_TEXT + 2], err[256] = "";
	struct dmo_grid *g = NULL;

	memset(text, 'x', sizeof text - 1);
	text[sizeof text - 1] = '\0';
	ck_assert_int_eq(dmo_grid_parse(text, &g, err, sizeof err), -1);
	ck_assert_str_eq(err, "column 4097: grid longer than 4096 characters");
	text[DMO_GRID_MAX_TEXT] = '\0'; /* 4096 characters are read */
	ck_assert_int_eq(dmo_grid_parse(text, &g, err, sizeof err), 0);
	dmo_grid_free(g);
}
END_TEST

START_TEST(grid_errors_name_the_column)
{
	const struct error_case *c = &grid_errors[_i];
	struct dmo_grid *g = NULL;
	char err[256] = "";
	ck_assert_int_eq(dmo_grid_parse(c->text, &g, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, c->message, strlen(c->message)) == 0, "'%s': got '%s'",
		      c->text, err);
}
END_TEST

/* The variables of the golden layer (docs/definitions.md). */
static struct dmo_formula_vars golden_vars(void)
{
	static char canon[256];
	struct dmo_opspec s;
	char err[128];
	ck_assert_int_eq(dmo_opspec_parse("dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same", &s, err,
					  sizeof err), 0);
	struct dmo_formula_vars v;
	dmo_formula_vars_of(&s, canon, sizeof canon, &v);
	return v;
}

static const struct value_case {
	const char *text;
	int64_t value;
} values[] = {
	{ "OB", 1204224 },                   /* 56 * 56 * 96 * 4 */
	{ "IB / OB", 4 },
	{ "in_h * in_w + pad_bottom", 12545 },
	{ "out_h + k_w + stride_h + dil_w + mult + es + pad_top", 56 + 3 + 2 + 1 + 1 + 4 + 0 },
	{ "7 / 2", 3 },
	{ "-7 / 2", -4 },                    /* floor, not C's truncation */
	{ "floor(7, -2)", -4 },
	{ "ceil(7, 2)", 4 },
	{ "ceil(-7, 2)", -3 },
	{ "-7 % 3", 2 },                     /* the divisor's sign */
	{ "7 % -3", -2 },
	{ "min(3, 1, 2)", 1 },
	{ "max(3, 9, 2)", 9 },
	{ "clamp(15, 0, 10)", 10 },
	{ "clamp(-3, 0, 10)", 0 },
	{ "abs(-5)", 5 },
	{ "2 < 3", 1 },
	{ "2 >= 3", 0 },
	{ "3 <= 3", 1 },
	{ "2 != 3", 1 },
	{ "3 == 3", 1 },
	{ "if(0, 1 / 0, 7)", 7 },           /* only the branch taken runs */
	{ "a = 2; b = a * 3; b + a", 8 },
	{ "1 + 2 * 3", 7 },
	{ "(1 + 2) * 3", 9 },
	{ "2 - 3 - 4", -5 },                 /* left to right */
	{ "- - 3", 3 },
	{ "-9223372036854775807 - 1", INT64_MIN },
	{ "(-9223372036854775807 - 1) % -1", 0 },
	{ "OB / -1", -1204224 },             /* the divisor -1 is a negation */
	{ "# a comment\nOB # and another\n;", 1204224 },
};

START_TEST(formula_values)
{
	const struct value_case *c = &values[_i];
	struct dmo_formula_vars v = golden_vars();
	struct dmo_expr *e;
	char err[512] = "";
	int64_t got;
	ck_assert_msg(dmo_expr_parse(c->text, &e, err, sizeof err) == 0, "'%s': %s", c->text, err);
	ck_assert_msg(dmo_expr_eval(e, &v, &got, err, sizeof err) == 0, "'%s': %s", c->text, err);
	ck_assert_msg(got == c->value, "'%s' = %lld, not %lld", c->text, (long long)got,
		      (long long)c->value);
	dmo_expr_free(e);
}
END_TEST

static const struct error_case eval_errors[] = {
	{ "OB / (in_h - 112)", "column 4: division by zero" },
	{ "OB % 0", "column 4: division by zero" },
	{ "9223372036854775807 + 1", "column 21: overflow in '+'" },
	{ "OB * OB * OB * OB", "column 14: overflow in '*'" }, /* 1204224^3 fits, ^4 not */
	{ "(-9223372036854775807 - 1) / -1", "column 28: overflow in '/'" },
	{ "-(-9223372036854775807 - 1)", "column 1: overflow in '-'" },
	{ "abs(-9223372036854775807 - 1)", "column 1: overflow in 'abs'" },
	{ "clamp(1, 5, 2)", "column 1: clamp with lower bound 5 above upper bound 2" },
};

START_TEST(formula_eval_errors)
{
	const struct error_case *c = &eval_errors[_i];
	struct dmo_formula_vars v = golden_vars();
	struct dmo_expr *e;
	char err[512] = "";
	int64_t got;
	ck_assert_msg(dmo_expr_parse(c->text, &e, err, sizeof err) == 0, "'%s': %s", c->text, err);
	ck_assert_int_eq(dmo_expr_eval(e, &v, &got, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, c->message, strlen(c->message)) == 0, "'%s': got '%s'",
		      c->text, err);
	dmo_expr_free(e);
}
END_TEST

static const struct error_case parse_errors[] = {
	{ "", "column 1: expected a number" },
	{ "OB +", "column 5: expected a number, name or '(' at the end" },
	{ "foo + 1", "column 1: unknown name 'foo'" },
	{ "OB * (1 + 2", "column 12: expected ')' at the end" },
	{ "max(1)", "column 1: max takes 2 or more arguments, not 1" },
	{ "1 < 2 < 3", "column 7: comparisons do not chain" },
	{ "OB = 3; OB", "column 1: 'OB' is a variable" },
	{ "x = 1; x = 2; x", "column 8: 'x' is defined twice" },
	{ "x = 1 x", "column 7: expected ';'" },
	{ "bogus(1)", "column 1: unknown function 'bogus'" },
	{ "12abc", "column 3: a number runs into a name" },
	{ "99999999999999999999", "column 1: number too large" },
	{ "OB $", "column 4: unexpected '$'" },
	{ "y = x; x = 1; y", "column 5: unknown name 'x'" }, /* defined after use */
	{ "min = 1; min", "column 1: 'min' is a function" },
	{ "in_h = 1; in_h", "column 1: 'in_h' is a variable of the spec" },
	/* 33 characters, one past the limit. */
	{ "abcdefghijklmnopqrstuvwxyzabcdefg = 1; 1", "column 1: name longer than 32 characters" },
};

START_TEST(formula_parse_errors)
{
	const struct error_case *c = &parse_errors[_i];
	struct dmo_expr *e = NULL;
	char err[1024] = "";
	ck_assert_int_eq(dmo_expr_parse(c->text, &e, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, c->message, strlen(c->message)) == 0, "'%s': got '%s'",
		      c->text, err);
}
END_TEST

static void expect_parse_error(const char *text, const char *message)
{
	struct dmo_expr *e = NULL;
	char err[1024] = "";
	ck_assert_int_eq(dmo_expr_parse(text, &e, err, sizeof err), -1);
	ck_assert_msg(strcmp(err, message) == 0, "got '%s', not '%s'", err, message);
}

/* The parser's limits, each met by a formula one past it, built here. */
START_TEST(formula_limits)
{
	static char text[20000];
	size_t n = 0;

	/* 8193 characters, one past DMO_EXPR_MAX_TEXT: refused at column 8193. */
	memset(text, ' ', 8192);
	strcpy(text + 8192, "1");
	expect_parse_error(text, "column 8193: formula longer than 8192 characters");
	/* 201 '(' : the 201st, at column 201, is one level past 200. */
	memset(text, '(', 201);
	strcpy(text + 201, "1");
	expect_parse_error(text, "column 201: nested deeper than 200");
	/* min of 65 ones: "min(" is 4 characters, each "1," 2 more, so the
	 * 65th argument starts at column 4 + 64 * 2 + 1 = 133. */
	n = (size_t)sprintf(text, "min(");
	for (int i = 0; i < 65; i++)
		n += (size_t)sprintf(text + n, "1,");
	strcpy(text + n - 1, ")");
	expect_parse_error(text, "column 133: min takes at most 64 arguments");
	/* 65 definitions "dNN = 1; " (9 characters each from d10): the 65th
	 * starts at column 64 * 9 + 1 = 577. */
	n = 0;
	for (int i = 10; i < 75; i++)
		n += (size_t)sprintf(text + n, "d%d = 1; ", i);
	strcpy(text + n, "1");
	expect_parse_error(text, "column 577: more than 64 definitions");
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("sweep languages");
	TCase *tc = tcase_create("grid and formula");

	tcase_add_test(tc, grid_expands);
	tcase_add_test(tc, grid_too_long);
	tcase_add_loop_test(tc, grid_errors_name_the_column, 0,
			    sizeof grid_errors / sizeof grid_errors[0]);
	tcase_add_loop_test(tc, formula_values, 0, sizeof values / sizeof values[0]);
	tcase_add_loop_test(tc, formula_eval_errors, 0, sizeof eval_errors / sizeof eval_errors[0]);
	tcase_add_loop_test(tc, formula_parse_errors, 0,
			    sizeof parse_errors / sizeof parse_errors[0]);
	tcase_add_test(tc, formula_limits);
	suite_add_tcase(suite, tc);
	return dmo_run_suite(suite);
}
