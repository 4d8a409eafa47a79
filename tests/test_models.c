/* test_models.c - Check tests of the model layer tables: every shipped table
 * parses and its shapes chain, and the reader rejects malformed tables with
 * the offending row. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "model_table.h"

static const char *const models[] = {
	"mobilenet_v1_1.0_224.csv", "mobilenet_v1_0.25_128.csv",
	"mobilenet_v2_1.0_224.csv", "ds_cnn_kws.csv", "person_detect_96.csv",
};

static void model_path(char *buf, size_t len, const char *file)
{
	const char *top = getenv("top_srcdir");

	if (top)
		snprintf(buf, len, "%s/target-harness/models/%s", top, file);
	else
		snprintf(buf, len, "%s/%s", DMO_MODELS_DIR, file);
}

static struct dmo_model load(const char *file)
{
	struct dmo_model m;
	char path[4096], err[512] = "";

	model_path(path, sizeof path, file);
	ck_assert_msg(dmo_model_load(path, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(dmo_model_check_shapes(&m, err, sizeof err) == 0, "%s: %s", file, err);
	return m;
}

START_TEST(tables_chain)
{
	struct dmo_model m = load(models[_i]);
	const struct dmo_model_layer *last = &m.layers[m.n_layers - 1];

	/* Every table ends in the classifier: a 1x1 map of class scores. */
	ck_assert_int_eq(last->op.out_h * last->op.out_w, 1);
	ck_assert_int_eq(m.layers[0].inputs[0], DMO_MODEL_INPUT);
	dmo_model_free(&m);
}
END_TEST

static const struct dmo_model_layer *find(const struct dmo_model *m, const char *name)
{
	for (size_t i = 0; i < m->n_layers; i++)
		if (strcmp(m->layers[i].name, name) == 0)
			return &m->layers[i];
	ck_abort_msg("no layer %s", name);
	return NULL;
}

START_TEST(known_layers)
{
	struct dmo_model m = load("mobilenet_v2_1.0_224.csv");
	const struct dmo_model_layer *l = find(&m, "block2_dw");

	/* docs/definitions.md's golden layer is MobileNet v2's second depthwise conv. */
	ck_assert_int_eq(l->op.in_h, 112);
	ck_assert_int_eq(l->op.in_c, 96);
	ck_assert_int_eq(l->op.stride_h, 2);
	ck_assert_uint_eq(dmo_opspec_out_bytes(&l->op), 1204224);
	l = find(&m, "block3_add");
	ck_assert_uint_eq(l->n_inputs, 2);
	ck_assert_str_eq(m.layers[l->inputs[0]].name, "block2_project");
	ck_assert_str_eq(m.layers[l->inputs[1]].name, "block3_project");
	l = find(&m, "block6_add");
	ck_assert_str_eq(m.layers[l->inputs[0]].name, "block5_add");
	ck_assert_str_eq(m.layers[l->inputs[1]].name, "block6_project");
	ck_assert_int_eq(find(&m, "logits")->op.out_c, 1001);
	dmo_model_free(&m);

	m = load("ds_cnn_kws.csv");
	ck_assert_uint_eq(m.n_layers, 11);
	ck_assert_int_eq(m.layers[0].op.out_h, 25);
	ck_assert_int_eq(m.layers[0].op.out_w, 5);
	ck_assert_int_eq(find(&m, "fc")->op.out_c, 12);
	dmo_model_free(&m);

	m = load("person_detect_96.csv");
	ck_assert_int_eq(m.layers[0].op.in_c, 1);
	ck_assert_int_eq(find(&m, "pw13")->op.out_h, 3);
	ck_assert_int_eq(find(&m, "logits")->op.out_c, 2);
	dmo_model_free(&m);
}
END_TEST

#define HDR "layer,name,spec,inputs\n"

/* Malformed tables and the fragment their message must contain. */
static const struct bad_table {
	const char *csv, *needle;
} bad_tables[] = {
	{ "", "row 1: no layers" },
	{ HDR, "no layers" },
	{ "layer,name,op,inputs\n", "row 1: header must be" },
	{ HDR "0,a,\"relu:in=2x2x2\"\n", "row 2: 3 columns" },
	{ HDR "0,a,\"relu:in=2x2x2\",,extra\n", "row 2: 5 columns" },
	{ HDR "2,a,\"relu:in=2x2x2\",\n", "row 2: column 'layer' is '2', expected 1" },
	{ HDR "1,a,\"relu:in=2x2x2\",\n1,b,\"relu:in=2x2x2\",\n", "row 3: column 'layer' is '1', expected 2" },
	{ HDR "0,a,\"relu:in=2x2x2\",\n2,b,\"relu:in=2x2x2\",\n", "row 3: column 'layer' is '2', expected 1" },
	{ HDR "0,,\"relu:in=2x2x2\",\n", "row 2: column 'name'" },
	{ HDR "0,a b,\"relu:in=2x2x2\",\n", "row 2: column 'name' 'a b' must be non-empty [A-Za-z0-9_.-]" },
	{ HDR "0,a,\"relu:in=2x2x2\",\n1,a,\"relu:in=2x2x2\",\n", "row 3: duplicate layer name 'a'" },
	{ HDR "0,a,\"relu:in=2x2x2,units=3\",\n", "row 2: column 'spec': key 'units' does not apply" },
	{ HDR "0,a,\"relu:in=2x2x2\",\n1,b,\"add:in=2x2x2\",a;nope\n", "row 3: input 'nope' is not an earlier layer" },
	{ HDR "0,a,\"relu:in=2x2x2\",b\n1,b,\"relu:in=2x2x2\",\n", "row 2: input 'b'" },
	{ HDR "0,a,\"relu:in=2x2x2,\n", "malformed CSV" },
	{ HDR "0,a,\"relu:in=2x2x2\"x,\n", "malformed CSV" },
};

START_TEST(rejects_malformed)
{
	const struct bad_table *c = &bad_tables[_i];
	struct dmo_model m;
	char err[512] = "";

	ck_assert_int_eq(dmo_model_parse(c->csv, strlen(c->csv), "t.csv", &m, err, sizeof err), -1);
	ck_assert_msg(strstr(err, c->needle) && strncmp(err, "t.csv: ", 7) == 0,
		      "table %d: message '%s' lacks '%s'", _i, err, c->needle);
	ck_assert_uint_eq(m.n_layers, 0);
}
END_TEST

/* Layers count from 1, as every command prints them; a table written
 * when the format counted from 0 reads as the same model. */
START_TEST(counts_from_one_or_zero)
{
	static const char from1[] = HDR "1,a,\"relu:in=2x2x2\",\n2,b,\"add:in=2x2x2\",a;a\n";
	static const char from0[] = HDR "0,a,\"relu:in=2x2x2\",\n1,b,\"add:in=2x2x2\",a;a\n";
	struct dmo_model m1, m0;
	char err[512] = "";

	ck_assert_msg(dmo_model_parse(from1, strlen(from1), "t.csv", &m1, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(dmo_model_parse(from0, strlen(from0), "t.csv", &m0, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(m1.n_layers, 2);
	ck_assert_uint_eq(m0.n_layers, 2);
	for (size_t l = 0; l < 2; l++) {
		ck_assert_str_eq(m1.layers[l].name, m0.layers[l].name);
		ck_assert_uint_eq(m1.layers[l].n_inputs, m0.layers[l].n_inputs);
	}
	ck_assert_int_eq(m1.layers[1].inputs[0], 0);
	dmo_model_free(&m1);
	dmo_model_free(&m0);
}
END_TEST

/* Tables that parse but whose shapes do not chain. */
static const struct bad_chain {
	const char *csv, *needle;
} bad_chains[] = {
	{ HDR "0,a,\"relu:in=2x2x2\",\n1,b,\"relu:in=2x2x3\",\n", "row 3 (b): input has 12 f32 elements but 'a' produces 8" },
	{ HDR "0,a,\"relu:in=2x2x2\",\n1,b,\"relu:in=2x2x2,dtype=i8\",\n", "'a' produces 8 f32" },
	{ HDR "0,a,\"relu:in=2x2x2\",\n1,b,\"add:in=2x2x2\",\n", "add takes 2 input(s), table gives 1" },
	{ HDR "0,a,\"relu:in=2x2x2\",\n1,b,\"relu:in=2x2x2\",a;a\n", "relu takes 1 input(s), table gives 2" },
	{ HDR "0,a,\"relu:in=2x2x2\",\n1,b,\"fc:in=8,units=3\",\n2,c,\"add:in=2x2x2\",a;b\n", "row 4 (c): input has 8 f32 elements but 'b' produces 3" },
};

START_TEST(rejects_broken_chain)
{
	const struct bad_chain *c = &bad_chains[_i];
	struct dmo_model m;
	char err[512] = "";

	ck_assert_int_eq(dmo_model_parse(c->csv, strlen(c->csv), "t.csv", &m, err, sizeof err), 0);
	ck_assert_int_eq(dmo_model_check_shapes(&m, err, sizeof err), -1);
	ck_assert_msg(strstr(err, c->needle), "chain %d: message '%s' lacks '%s'", _i, err, c->needle);
	dmo_model_free(&m);
}
END_TEST

START_TEST(missing_file)
{
	struct dmo_model m;
	char err[512] = "";

	ck_assert_int_eq(dmo_model_load("/nonexistent/x.csv", &m, err, sizeof err), -1);
	ck_assert_str_eq(err, "/nonexistent/x.csv: No such file or directory");
	/* A folder opens, and its first read says what it is. */
	ck_assert_int_eq(dmo_model_load("/", &m, err, sizeof err), -1);
	ck_assert_str_eq(err, "/: Is a directory");
}
END_TEST

/* A NUL byte in a field is named; the CSV error after it (an unclosed
 * quote) does not replace that first message. */
START_TEST(nul_byte)
{
	static const char nul[] = HDR "1,a\0b,\"relu:in=2x2x2\",\n2,\"x";
	struct dmo_model m;
	char err[512] = "";

	ck_assert_int_eq(dmo_model_parse(nul, sizeof nul - 1, "t.csv", &m, err, sizeof err), -1);
	ck_assert_str_eq(err, "t.csv: row 2: NUL byte in column 'name'");
	ck_assert_uint_eq(m.n_layers, 0);
}
END_TEST

/* --shape fixes dims of .tflite and .onnx tensors; NAME=D1xD2x... */
START_TEST(shape_option)
{
	static const char table[] = HDR "1,a,\"relu:in=2x2x2\",\n";
	struct dmo_model_shape shape;
	struct dmo_model m;
	char err[512] = "";

	ck_assert_int_eq(dmo_model_shape_parse("x=1x224x3", &shape, err, sizeof err), 0);
	ck_assert_int_eq(shape.rank, 3);
	ck_assert_int_eq(shape.dims[1], 224);
	ck_assert_int_eq(dmo_model_parse_any((const unsigned char *)table, sizeof table - 1, "t.csv",
					     &shape, 1, &m, err, sizeof err), -1);
	ck_assert_str_eq(err, "t.csv: --shape applies to .tflite and .onnx files, not layer tables");
	ck_assert_int_eq(dmo_model_shape_parse("=1x2", &shape, err, sizeof err), -1);
	ck_assert_str_eq(err, "--shape '=1x2': expected NAME=D1xD2x... (e.g. input=1x224x224x3)");
	ck_assert_int_eq(dmo_model_shape_parse("x=1x0", &shape, err, sizeof err), -1);
	ck_assert_str_eq(err, "--shape 'x=1x0': dimensions must be positive integers joined by 'x', at most 8");
	ck_assert_int_eq(dmo_model_shape_parse("x=1x2x3x4x5x6x7x8x9", &shape, err, sizeof err), -1);
	ck_assert_str_eq(err, "--shape 'x=1x2x3x4x5x6x7x8x9': dimensions must be positive integers joined by 'x', at most 8");
	ck_assert_int_eq(dmo_model_shape_parse("x=2,3", &shape, err, sizeof err), -1);
	ck_assert_str_eq(err, "--shape 'x=2,3': dimensions must be positive integers joined by 'x', at most 8");
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("models");
	TCase *tc = tcase_create("tables");

	tcase_add_loop_test(tc, tables_chain, 0, sizeof models / sizeof models[0]);
	tcase_add_test(tc, known_layers);
	tcase_add_test(tc, counts_from_one_or_zero);
	tcase_add_loop_test(tc, rejects_malformed, 0, sizeof bad_tables / sizeof bad_tables[0]);
	tcase_add_loop_test(tc, rejects_broken_chain, 0, sizeof bad_chains / sizeof bad_chains[0]);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, nul_byte);
	tcase_add_test(tc, shape_option);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
