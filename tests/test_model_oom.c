/* test_model_oom.c - the model readers and the grid parser when memory runs
 * out.  Linked with -Wl,--wrap for malloc, calloc, realloc, strdup and free
 * (tests/local.mk), so the allocations of dmo's own code come through here,
 * not those of libc, protobuf-c or libcsv.  For each input the Nth of them
 * fails, for N = 1, 2, ... until a read needs fewer: every such read must be
 * refused with a message naming the input and ending "out of memory", and
 * must leave nothing allocated. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "grid.h"
#include "model_table.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

static int armed;       /* count only inside the read under test */
static long calls, fail_at, live;

static int failing(void)
{
	if (!armed || ++calls != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *__wrap_malloc(size_t n)
{
	void *p = failing() ? NULL : __real_malloc(n);

	live += armed && p;
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = failing() ? NULL : __real_calloc(n, size);

	live += armed && p;
	return p;
}

void *__wrap_realloc(void *old, size_t n)
{
	void *p = failing() ? NULL : __real_realloc(old, n);

	live += armed && p && !old;
	return p;
}

char *__wrap_strdup(const char *s)
{
	char *p = __wrap_malloc(strlen(s) + 1);

	return p ? strcpy(p, s) : NULL;
}

void __wrap_free(void *p)
{
	live -= armed && p;
	__real_free(p);
}

static const char *path(const char *file)
{
	static char buf[4096];
	const char *top = getenv("top_srcdir");

	snprintf(buf, sizeof buf, "%s/%s", top ? top : DMO_TOP_SRCDIR, file);
	return buf;
}

/* Read INPUT (a file, or with TEXT the text itself) with the Nth
 * allocation failing; 1 if it failed, 0 if it needed fewer than N. */
static int read_failing(long n, const char *input, int text, char *err, size_t len)
{
	struct dmo_model m;
	struct dmo_grid *g = NULL;
	int rc;

	calls = live = 0;
	fail_at = n;
	armed = 1;
	if (!text)
		rc = dmo_model_load(input, &m, err, len);
	else if (!strncmp(input, "layer,", 6))
		rc = dmo_model_parse(input, strlen(input), "t.csv", &m, err, len);
	else
		rc = dmo_grid_parse(input, &g, err, len);
	if (rc == 0 && g)
		dmo_grid_free(g);
	else if (rc == 0)
		dmo_model_free(&m);
	armed = 0;
	ck_assert_msg(live == 0, "%s, allocation %ld failing: %ld blocks left allocated", input, n,
		      live);
	return rc != 0;
}

static void each_allocation_fails(const char *input, int text, const char *source)
{
	char err[512];
	long n;

	for (n = 1; n < 100000; n++) {
		size_t len;

		err[0] = '\0';
		if (!read_failing(n, input, text, err, sizeof err))
			break;
		len = strlen(err);
		ck_assert_msg(!strncmp(err, source, strlen(source)) && len > 13 &&
				      !strcmp(err + len - 13, "out of memory"),
			      "allocation %ld failing: '%s'", n, err);
	}
	/* The read allocates, and all of it was tried. */
	ck_assert_int_gt(n, 1);
	ck_assert_int_eq(calls, n - 1);
}

START_TEST(tflite)
{
	/* Quantised tensors, constants; an int16 QUANTIZE and an SVDF kept
	 * without op specs, each with its reason. */
	const char *file = path("tests/models/tflm_hello_world_int8.tflite");

	each_allocation_fails(file, 0, file);
	file = path("tests/models/tflm_keyword_scrambled_8bit.tflite");
	each_allocation_fails(file, 0, file);
}
END_TEST

START_TEST(onnx)
{
	const char *file = path("tests/models/onnx_conv2d_depthwise_with_multiplier.onnx");

	each_allocation_fails(file, 0, file);
}
END_TEST

START_TEST(table)
{
	/* More rows than the reader's first 16, a layer of two inputs. */
	char text[2048] = "layer,name,spec,inputs\n";

	for (int l = 1; l <= 18; l++)
		snprintf(text + strlen(text), sizeof text - strlen(text),
			 "%d,l%d,\"%s:in=2x2x2\",%s\n", l, l, l == 18 ? "add" : "relu",
			 l == 18 ? "l16;l17" : "");
	each_allocation_fails(text, 1, "t.csv: ");
}
END_TEST

START_TEST(grid)
{
	each_allocation_fails("dwconv2d:in={4,8}x4x{1..3:2},k=3", 1, "column ");
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("model_oom");
	TCase *tc = tcase_create("readers");

	tcase_add_test(tc, tflite);
	tcase_add_test(tc, onnx);
	tcase_add_test(tc, table);
	tcase_add_test(tc, grid);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
