/* test_infer_model.c - Check tests of dmo_net_from_model and dmo_net_runs
 * (runner/infer_model.c) on models built here, as a .tflite reader would
 * fill them: a two-layer model maps tensor for tensor and step for step
 * (SQUEEZE as a reshape, options from the op spec); every model the engine
 * cannot run is refused with the tensor or layer named and the reason:
 * tables, TFLite operator names in an ONNX model, an element type, rank
 * or dimension it has no kernel for, a short constant, a layer's
 * operand/result count, fused activation, explicit padding or missing
 * options, and a net dmo_net_check refuses. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "infer_model.h"

enum { T_IN, T_POOL, T_OUT, N_T };
static struct dmo_model_tensor tensors[N_T];
static struct dmo_model_layer layers[2];
static struct dmo_model model;
static int pool_operands[] = { T_IN }, pool_results[] = { T_POOL };
static int squeeze_operands[] = { T_POOL }, squeeze_results[] = { T_OUT };
static char name_in[] = "in", name_pool[] = "pool", name_out[] = "out";
static char op_pool[] = "MAX_POOL_2D", op_squeeze[] = "SQUEEZE", layer_name[] = "l";
static struct dmo_net net;
static char err[512];

/* in 1x4x4x2 float -> max pool 2x2 stride 2 -> 1x2x2x2 -> squeeze -> 2x2x2. */
static void build(void)
{
	static const int64_t shapes[N_T][4] = { { 1, 4, 4, 2 }, { 1, 2, 2, 2 }, { 2, 2, 2 } };
	char *names[N_T] = { name_in, name_pool, name_out };

	memset(tensors, 0, sizeof tensors);
	for (int i = 0; i < N_T; i++) {
		tensors[i] = (struct dmo_model_tensor){ .name = names[i], .type_name = "float32",
							.known_dtype = 1, .dtype = DMO_F32,
							.rank = i == T_OUT ? 3 : 4 };
		memcpy(tensors[i].shape, shapes[i], sizeof shapes[i]);
	}
	tensors[T_IN].graph_input = 1;
	tensors[T_OUT].graph_output = 1;
	layers[0] = (struct dmo_model_layer){ .name = layer_name, .supported = 1, .op_name = op_pool,
					      .act = DMO_ACT_RELU6, .n_operands = 1,
					      .operands = pool_operands, .n_results = 1,
					      .results = pool_results };
	layers[0].op = (struct dmo_opspec){ .op = DMO_OP_MAXPOOL, .pad = DMO_PAD_VALID, .stride_h = 2,
					    .stride_w = 2, .k_h = 2, .k_w = 2 };
	layers[1] = (struct dmo_model_layer){ .name = layer_name, .op_name = op_squeeze,
					      .why = "no op spec", .n_operands = 1,
					      .operands = squeeze_operands, .n_results = 1,
					      .results = squeeze_results };
	model = (struct dmo_model){ .n_layers = 2, .layers = layers, .n_tensors = N_T,
				    .tensors = tensors, .format = DMO_FORMAT_TFLITE };
}

static void refused(const char *why)
{
	ck_assert_int_eq(dmo_net_from_model(&model, &net, err, sizeof err), -1);
	ck_assert_msg(strstr(err, why) != NULL, "'%s' does not say '%s'", err, why);
	ck_assert_ptr_null(net.tensors);
	ck_assert_ptr_null(net.steps);
}

START_TEST(maps_and_runs)
{
	build();
	ck_assert_msg(dmo_net_runs(&model, &net, err, sizeof err) == 1, "%s", err);
	ck_assert_uint_eq(net.n_tensors, N_T);
	ck_assert_uint_eq(net.n_steps, 2);
	ck_assert_int_eq(net.tensors[T_IN].graph_input, 1);
	ck_assert_int_eq(net.tensors[T_OUT].graph_output, 1);
	ck_assert_int_eq(net.tensors[T_OUT].rank, 3);
	ck_assert_int_eq(net.tensors[T_POOL].dims[1], 2);
	ck_assert_int_eq(net.steps[0].op, DMO_NET_MAXPOOL);
	ck_assert_int_eq(net.steps[0].act, DMO_NET_ACT_RELU6);
	ck_assert_int_eq(net.steps[0].filter_w, 2);
	ck_assert_int_eq(net.steps[0].stride_h, 2);
	ck_assert_int_eq(net.steps[0].padding_same, 0);
	ck_assert_int_eq(net.steps[1].op, DMO_NET_RESHAPE);
	ck_assert_int_eq(net.steps[1].inputs[0], T_POOL);
	ck_assert_int_eq(net.steps[1].output, T_OUT);
	dmo_net_free(&net);
	ck_assert_ptr_null(net.tensors);
}
END_TEST

START_TEST(format_decides)
{
	build();
	model.format = DMO_FORMAT_TABLE;
	refused("dmo infer runs .tflite and .onnx models (a layer table has no weights)");
	/* An ONNX model's layers are looked up by ONNX's operator names, in
	 * which TFLite's mean nothing. */
	model.format = DMO_FORMAT_ONNX;
	refused("layer 1 'l': operator MAX_POOL_2D has no dmo kernel");
}
END_TEST

START_TEST(tensors_refused)
{
	static const unsigned char three[3];

	build();
	tensors[T_POOL].known_dtype = 0;
	tensors[T_POOL].type_name = "int64";
	refused("tensor 'pool': element type int64 is not supported");
	tensors[T_POOL].type_name = NULL;
	refused("tensor 'pool': element type ? is not supported");
	build();
	tensors[T_IN].rank = 7;
	refused("tensor 'in': rank 7 (at most 6)");
	build();
	tensors[T_IN].shape[2] = 0;
	refused("tensor 'in': dimension 2 is 0");
	build();
	tensors[T_IN].shape[1] = (int64_t)1 << 31;
	refused("tensor 'in': dimension 1 is 2147483648");
	build();
	tensors[T_IN].data = three;
	tensors[T_IN].data_len = 3;
	tensors[T_IN].bytes = 128;
	refused("tensor 'in': constant holds 3 of its 128 bytes");
}
END_TEST

START_TEST(layers_refused)
{
	build();
	layers[1].n_results = 2;
	refused("layer 2 'l': 1 operands and 2 results");
	build();
	layers[0].n_operands = DMO_NET_MAX_INPUTS + 1;
	refused("layer 1 'l': 18 operands and 1 results"); /* DMO_NET_MAX_INPUTS + 1 */
	build();
	layers[0].act = DMO_ACT_TANH;
	refused("layer 1 'l': fused activation tanh is not supported");
	build();
	layers[0].op.pad = DMO_PAD_EXPLICIT;
	refused("layer 1 'l': explicit padding");
	build();
	layers[0].supported = 0;
	layers[0].why = "dilation 3 exceeds the filter";
	refused("layer 1 'l': MAX_POOL_2D without its options (dilation 3 exceeds the filter)");
	layers[0].why = NULL;
	refused("layer 1 'l': MAX_POOL_2D without its options (no op spec)");
}
END_TEST

START_TEST(unrunnable_net_refused)
{
	build();
	layers[0].op.stride_w = 1; /* 1x4x4x2 pooled 2x2 stride 1 is 3 wide, not 2 */
	ck_assert_int_eq(dmo_net_runs(&model, &net, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "step 0 'l' (maxpool): output width 2, but the options give 3"),
		      "%s", err);
	ck_assert_ptr_null(net.tensors);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("infer_model");
	TCase *tc = tcase_create("infer_model");

	tcase_add_test(tc, maps_and_runs);
	tcase_add_test(tc, format_decides);
	tcase_add_test(tc, tensors_refused);
	tcase_add_test(tc, layers_refused);
	tcase_add_test(tc, unrunnable_net_refused);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
