/* test_runner.c - libdmo-runner: every op and dtype prepares, its data is
 * deterministic, and its output does not depend on how threads split it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "check_main.h"
#include "runner.h"

/* One small spec per op; the dtype is appended by the test. */
static const char *const specs[] = {
	"relu:in=2x5x7x3",
	"relu6:in=5x7x3",
	"add:in=4x6x5",
	"mul:in=4x6x5",
	"conv2d:in=2x9x8x3,k=3x2,stride=2,pad=same,out_c=5",
	"conv2d:in=9x8x2,k=3,dil=2,pad=valid,out_c=3",
	"dwconv2d:in=9x8x4,k=3,stride=2,pad=same,mult=2",
	"maxpool:in=9x8x4,k=3,stride=2,pad=same",
	"avgpool:in=2x9x8x4,k=2,stride=2,pad=valid",
	"fc:in=3x20,units=7",
};
#define N_SPECS (sizeof specs / sizeof specs[0])

static const char *const dtypes[] = { "f32", "i8", "i16" };

static struct dmo_opspec parse(int i)
{
	char text[256], err[256];
	struct dmo_opspec spec;

	snprintf(text, sizeof text, "%s,dtype=%s", specs[i / 3], dtypes[i % 3]);
	ck_assert_msg(dmo_opspec_parse(text, &spec, err, sizeof err) == 0, "%s: %s", text, err);
	return spec;
}

/* Output of a fresh prepare on the seed-7 input, run by THREADS threads. */
static void *run_op(const struct dmo_opspec *spec, int threads, int interleave)
{
	char err[256];
	struct dmo_op_run *run = dmo_op_prepare(spec, err, sizeof err);
	void *in = malloc(dmo_opspec_in_bytes(spec));
	void *out = malloc(dmo_opspec_out_bytes(spec));

	ck_assert_msg(run != NULL, "prepare: %s", err);
	dmo_op_fill_input(spec, in, 7);
	memset(out, 0xa5, dmo_opspec_out_bytes(spec));
	ck_assert_int_eq(dmo_op_execute(run, in, out, threads, interleave), 0);
	dmo_op_free(run);
	free(in);
	return out;
}

START_TEST(deterministic_and_thread_independent)
{
	struct dmo_opspec spec = parse(_i);
	size_t ob = dmo_opspec_out_bytes(&spec), size = dmo_dtype_size(spec.dtype);
	unsigned char *one = run_op(&spec, 1, 0);
	unsigned char *again = run_op(&spec, 1, 0);
	unsigned char *contiguous = run_op(&spec, 3, 0);
	unsigned char *interleaved = run_op(&spec, 3, 1);
	size_t distinct = 0;

	ck_assert_mem_eq(one, again, ob);
	ck_assert_mem_eq(one, contiguous, ob);
	ck_assert_mem_eq(one, interleaved, ob);
	/* Quantisation parameters that clamp everything would hide bugs. */
	for (size_t e = size; e < ob; e += size)
		distinct += memcmp(one + e, one, size) != 0;
	ck_assert_msg(distinct > 0, "%s %s: constant output", specs[_i / 3], dtypes[_i % 3]);
	free(one);
	free(again);
	free(contiguous);
	free(interleaved);
}
END_TEST

START_TEST(fill_depends_on_seed_only)
{
	struct dmo_opspec spec = parse(_i);
	size_t ib = dmo_opspec_in_bytes(&spec);
	char *a = malloc(ib), *b = malloc(ib);

	dmo_op_fill_input(&spec, a, 42);
	dmo_op_fill_input(&spec, b, 42);
	ck_assert_mem_eq(a, b, ib);
	dmo_op_fill_input(&spec, b, 43);
	ck_assert(memcmp(a, b, ib) != 0);
	free(a);
	free(b);
}
END_TEST

/* Element-wise ops read each element before writing it, so running them in
 * place (in == out, full overlap) must give the separate-buffer result. */
START_TEST(in_place_elementwise)
{
	struct dmo_opspec spec = parse(_i);
	size_t ob = dmo_opspec_out_bytes(&spec);
	unsigned char *expected = run_op(&spec, 1, 0);
	unsigned char *buf = malloc(ob);
	char err[256];
	struct dmo_op_run *run = dmo_op_prepare(&spec, err, sizeof err);

	ck_assert_ptr_nonnull(run);
	dmo_op_fill_input(&spec, buf, 7);
	ck_assert_int_eq(dmo_op_execute(run, buf, buf, 2, 1), 0);
	ck_assert_mem_eq(buf, expected, ob);
	dmo_op_free(run);
	free(buf);
	free(expected);
}
END_TEST

START_TEST(second_operand_override)
{
	char err[256];
	struct dmo_opspec spec;
	float in[6] = { 1, -2, 3.5f, 0, 8, -0.25f }, out[6];
	struct dmo_op_run *run;

	ck_assert_int_eq(dmo_opspec_parse("add:in=2x3x1", &spec, err, sizeof err), 0);
	run = dmo_op_prepare(&spec, err, sizeof err);
	ck_assert_ptr_nonnull(run);
	ck_assert_int_eq(dmo_op_execute2(run, in, in, out, 1, 0), 0);
	for (int i = 0; i < 6; i++)
		ck_assert_float_eq(out[i], 2 * in[i]);
	dmo_op_free(run);
}
END_TEST

START_TEST(rejects_what_has_no_kernel)
{
	char err[256];
	struct dmo_opspec spec;
	struct dmo_op_run *run;
	float in[4] = { 0 }, out[4];

	ck_assert_int_eq(dmo_opspec_parse("relu:in=2x2x1,dtype=i32", &spec, err, sizeof err), 0);
	ck_assert_ptr_null(dmo_op_prepare(&spec, err, sizeof err));
	ck_assert_msg(strstr(err, "i32") != NULL, "message: %s", err);
	ck_assert_int_eq(dmo_opspec_parse("quantize:in=2x2x1,dtype=i16,out_dtype=i8", &spec, err,
					  sizeof err), 0);
	ck_assert_ptr_null(dmo_op_prepare(&spec, err, sizeof err));
	ck_assert_str_eq(err, "quantize from i16 to i8 has no reference kernel "
			      "(there are f32 to i8, i8 to i8 and f32 to u8)");

	ck_assert_int_eq(dmo_opspec_parse("relu:in=2x2x1", &spec, err, sizeof err), 0);
	run = dmo_op_prepare(&spec, err, sizeof err);
	ck_assert_int_eq(dmo_op_execute(run, in, out, 0, 0), -1);
	ck_assert_int_eq(dmo_op_execute(run, in, out, DMO_OP_MAX_THREADS + 1, 0), -1);
	ck_assert_int_eq(dmo_op_execute(run, NULL, out, 1, 0), -1);
	dmo_op_free(run);
}
END_TEST

/* pad copies elements of any size: an int32 tensor 1x1x2 padded by one
 * element after each row axis gets zeros around its two values. */
START_TEST(pad_int32)
{
	char err[256];
	struct dmo_opspec spec;
	const int32_t in[2] = { -5, 70000 };
	const int32_t want[8] = { -5, 70000, 0, 0, 0, 0, 0, 0 }; /* 2x2x2, HWC */
	int32_t out[8];

	ck_assert_int_eq(dmo_opspec_parse("pad:in=1x1x2,after=1x1x0,dtype=i32", &spec, err,
					  sizeof err), 0);
	ck_assert_uint_eq(dmo_opspec_out_bytes(&spec), sizeof out);
	struct dmo_op_run *run = dmo_op_prepare(&spec, err, sizeof err);
	ck_assert_msg(run != NULL, "%s", err);
	memset(out, 0xa5, sizeof out);
	ck_assert_int_eq(dmo_op_execute(run, in, out, 1, 0), 0);
	ck_assert_mem_eq(out, want, sizeof out);
	dmo_op_free(run);
}
END_TEST

/* The backend loader's refusals that the command line checks first. */
START_TEST(backend_load_refusals)
{
	char err[512];
	struct dmo_opspec spec;

	ck_assert_ptr_null(dmo_backend_load("ref", "avx9", err, sizeof err));
	ck_assert_str_eq(err, "unknown ISA cap 'avx9' (known: sse4 avx avx2)");
	struct dmo_backend_handle *ref = dmo_backend_load("ref", NULL, err, sizeof err);
	ck_assert_msg(ref != NULL, "%s", err);
	ck_assert_ptr_eq(dmo_backend_load("ref", NULL, err, sizeof err), ref);
	ck_assert_ptr_null(dmo_backend_load("ref", "avx2", err, sizeof err));
	ck_assert_str_eq(err, "backend ref is already initialised with ISA cap ''");
	ck_assert_int_eq(dmo_opspec_parse("relu:in=2x2x1,dtype=i32", &spec, err, sizeof err), 0);
	ck_assert_ptr_null(dmo_backend_prepare(ref, &spec, NULL, err, sizeof err));
	ck_assert_msg(strstr(err, "relu of dtype i32 has no reference kernel") != NULL, "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("runner");

	tcase_add_loop_test(tc, deterministic_and_thread_independent, 0, N_SPECS * 3);
	tcase_add_loop_test(tc, fill_depends_on_seed_only, 0, N_SPECS * 3);
	/* relu, relu6, add, mul in every dtype: specs[0..3]. */
	tcase_add_loop_test(tc, in_place_elementwise, 0, 4 * 3);
	tcase_add_test(tc, second_operand_override);
	tcase_add_test(tc, rejects_what_has_no_kernel);
	tcase_add_test(tc, pad_int32);
	tcase_add_test(tc, backend_load_refusals);
	suite_add_tcase(s, tc);
	return dmo_run_suite(s);
}
