/* test_json.c - the one CSV-to-JSON writer of `--json` (analysis/cmd/json.c):
 * numbers by JSON's grammar only, empty fields as null, strings escaped,
 * libcsv's quoting undone, and malformed tables refused.  Each expected text
 * is written out by hand from JSON's grammar (RFC 8259). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"

/* CSV converted: the JSON text, or NULL with ERR set. */
static char *convert(const char *csv, char *err, size_t err_len)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int rc;

	ck_assert_ptr_nonnull(out);
	rc = cmd_csv_to_json(csv, strlen(csv), out, err, err_len);
	fclose(out);
	if (rc != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static const struct good {
	const char *csv, *json;
} good[] = {
	/* numbers stay numbers, others become strings: "007", "1.", "nan",
	 * "+1" and "0x10" are no JSON numbers */
	{ "a,b,c,d,e\n-1.5e3,0,007,1.,nan\n",
	  "[\n  {\"a\": -1.5e3, \"b\": 0, \"c\": \"007\", \"d\": \"1.\", \"e\": \"nan\"}\n]\n" },
	{ "a,b\n+1,0x10\n", "[\n  {\"a\": \"+1\", \"b\": \"0x10\"}\n]\n" },
	/* a signed exponent is a number; an exponent without digits is not */
	{ "a,b,c\n2E-7,1e+9,1e\n", "[\n  {\"a\": 2E-7, \"b\": 1e+9, \"c\": \"1e\"}\n]\n" },
	/* an empty field is null; a quoted comma, quote and newline survive,
	 * escaped as JSON wants */
	{ "x,y\n,\"a,\"\"b\"\"\nc\"\n", "[\n  {\"x\": null, \"y\": \"a,\\\"b\\\"\\u000ac\"}\n]\n" },
	{ "p\n\\\n", "[\n  {\"p\": \"\\\\\"}\n]\n" },
	/* two rows, and a header alone: an empty array */
	{ "n\n1\n2\n", "[\n  {\"n\": 1},\n  {\"n\": 2}\n]\n" },
	{ "n\n", "[]\n" },
};

START_TEST(converts)
{
	char err[256] = "";
	char *text = convert(good[_i].csv, err, sizeof err);

	ck_assert_msg(text != NULL, "case %d: %s", _i, err);
	ck_assert_str_eq(text, good[_i].json);
	free(text);
}
END_TEST

static const struct bad {
	const char *csv, *needle;
} bad[] = {
	{ "a,b\n1,2,3\n", "more fields than the header's 2" },
	{ "a,b\n1\n", "row 2 has 1 fields, the header 2" },
	{ "a\n\"open\n", "malformed CSV" },
	/* strict libcsv: a quote inside an unquoted field stops the parse */
	{ "a\nx\"y\n", "malformed CSV" },
};

START_TEST(refuses)
{
	char err[256] = "";
	char *text = convert(bad[_i].csv, err, sizeof err);

	ck_assert_ptr_null(text);
	ck_assert_msg(strstr(err, bad[_i].needle) != NULL, "case %d: '%s' lacks '%s'", _i, err,
		      bad[_i].needle);
}
END_TEST

/* cmd_table_file: the file is copied to stdout (CSV) or converted (JSON);
 * a file it cannot read, cannot copy, or cannot convert is an error. */
static const struct file_case {
	enum cmd_format format;
	const char *content; /* NULL: PATH is a directory; "": it does not exist */
	const char *needle;
} file_cases[] = {
	{ CMD_CSV, "", "cannot read " },
	{ CMD_CSV, NULL, "cannot copy " },
	{ CMD_JSON, "a\nx\"y\n", "malformed CSV" },
};

START_TEST(table_file_refuses)
{
	const struct file_case *c = &file_cases[_i];
	char dir[] = "/tmp/test_json.XXXXXX", path[64], err[256] = "";

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/%s", dir, c->content == NULL ? "" : "t.csv");
	if (c->content != NULL && *c->content) {
		FILE *f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(c->content, f);
		fclose(f);
	}
	ck_assert_ptr_nonnull(freopen("/dev/null", "w", stdout)); /* the "[" of a JSON start */
	ck_assert_int_eq(cmd_table_file(c->format, path, err, sizeof err), -1);
	ck_assert_msg(strstr(err, c->needle) != NULL, "case %d: '%s' lacks '%s'", _i, err, c->needle);
	if (c->content != NULL && *c->content)
		remove(path);
	rmdir(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("csv_to_json");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, converts, 0, sizeof good / sizeof good[0]);
	tcase_add_loop_test(tc, refuses, 0, sizeof bad / sizeof bad[0]);
	tcase_add_loop_test(tc, table_file_refuses, 0, sizeof file_cases / sizeof file_cases[0]);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
