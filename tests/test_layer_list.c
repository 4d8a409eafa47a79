/* test_layer_list.c - `--layers LIST` (common/layer_list.h): numbers,
 * ranges, names and globs, and the lists refused.  Expected answers are
 * written by hand from docs/cli.md's rules. */
#include "check_main.h"
#include "layer_list.h"

START_TEST(numbers_and_ranges)
{
	ck_assert(dmo_layer_list_has("3", 3, "x"));
	ck_assert(!dmo_layer_list_has("3", 2, "x"));
	ck_assert(!dmo_layer_list_has("3", 33, "x"));
	ck_assert(dmo_layer_list_has("1,7-9", 1, "x"));
	ck_assert(dmo_layer_list_has("1,7-9", 7, "x"));
	ck_assert(dmo_layer_list_has("1,7-9", 9, "x"));
	ck_assert(!dmo_layer_list_has("1,7-9", 6, "x"));
	ck_assert(!dmo_layer_list_has("1,7-9", 10, "x"));
	ck_assert(dmo_layer_list_has("4294967295", 4294967295u, "x"));
}
END_TEST

START_TEST(names_and_globs)
{
	ck_assert(dmo_layer_list_has("op2_conv", 2, "op2_conv"));
	ck_assert(!dmo_layer_list_has("op2_conv", 2, "op2_conv2d"));
	ck_assert(dmo_layer_list_has("*conv*", 5, "op5_dwconv2d"));
	ck_assert(!dmo_layer_list_has("*conv*", 5, "op5_relu"));
	ck_assert(dmo_layer_list_has("op?_relu", 4, "op4_relu"));
	ck_assert(!dmo_layer_list_has("op?_relu", 14, "op14_relu"));
	ck_assert(dmo_layer_list_has("*", 1, ""));
	ck_assert(dmo_layer_list_has("a*b*c", 1, "aXbYbZc"));
	ck_assert(!dmo_layer_list_has("a*b*c", 1, "aXbYbZ"));
	/* a name of digits and dashes reads as a number or range */
	ck_assert(!dmo_layer_list_has("1-2", 9, "1-2"));
	ck_assert(dmo_layer_list_has("2,relu*", 9, "relu_backward"));
}
END_TEST

START_TEST(bad_lists)
{
	static const struct { const char *list; size_t at; } bad[] = {
		{ "", 0 }, { "0", 0 }, { "1,,2", 2 }, { "3-1", 0 }, { "1,0-2", 2 }, { "1-", 0 },
		{ "-3", 0 }, { "1-2-3", 0 }, { "2,", 2 }, { "99999999999", 0 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t at = 99;
		ck_assert_msg(dmo_layer_list_check(bad[i].list, &at) == -1, "'%s' taken", bad[i].list);
		ck_assert_uint_eq(at, bad[i].at);
	}
	size_t at;
	ck_assert_int_eq(dmo_layer_list_check("1,3-5,conv*,op?_x", &at), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("layer_list");
	TCase *c = tcase_create("layer_list");
	tcase_add_test(c, numbers_and_ranges);
	tcase_add_test(c, names_and_globs);
	tcase_add_test(c, bad_lists);
	suite_add_tcase(s, c);
	return dmo_run_suite(s);
}
