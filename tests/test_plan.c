/* test_plan.c - checks `dmo plan`'s planner (analysis/lib/plan.c and
 * plan_search.c): peaks of tiny hand-made tables derived by hand beside each
 * test (TFLite Micro's greedy rule among them), a residual DAG, the search
 * against a brute force over every placement of random small models, the
 * plan invariant (an independent per-layer formulation) over every shipped
 * model, measured O_s, that --verify catches a too-large O_s, and the
 * per-layer view of a plan (plan_view.h) and the names models are shown by. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "algorithmic.h"
#include "model_table.h"
#include "infer_model.h"
#include "plan.h"
#include "plan_arena.h"
#include "plan_view.h"
#include "rundir.h"

static void load(const char *csv, struct dmo_model *m)
{
	char err[512];

	ck_assert_msg(dmo_model_parse(csv, strlen(csv), "test", m, err, sizeof err) == 0,
		      "%s", err);
}

static void build(const struct dmo_model *m, const uint64_t *os, struct dmo_plan *p)
{
	char err[512];

	ck_assert_msg(dmo_plan_build(m, os, DMO_PLAN_TIME_LIMIT, NULL, p, err, sizeof err) == 0, "%s", err);
}

/* The invariant, stated per layer rather than per pair as in plan.c: at
 * every layer, any two live tensors are disjoint, except the layer's
 * diagonal input starting at most O_s before the end of its output. */
static void check_invariant(const struct dmo_plan *p)
{
	for (size_t l = 0; l < p->n_layers; l++) {
		const struct dmo_plan_layer *pl = &p->layers[l];

		for (size_t a = 0; a < p->n_tensors; a++)
			for (size_t b = 0; b < p->n_tensors; b++) {
				const struct dmo_plan_tensor *ta = &p->tensors[a], *tb = &p->tensors[b];
				const struct dmo_plan_tensor *in, *out;

				if (a == b || ta->first > (int)l || ta->last < (int)l ||
				    tb->first > (int)l || tb->last < (int)l)
					continue;
				ck_assert(ta->offset_dmo + ta->bytes <= p->peak_dmo);
				ck_assert(ta->offset_plain + ta->bytes <= p->peak_plain);
				ck_assert_msg(ta->offset_plain >= tb->offset_plain + tb->bytes ||
					      tb->offset_plain >= ta->offset_plain + ta->bytes,
					      "plain plan: tensors %zu and %zu overlap at layer %zu", a, b, l);
				if (ta->offset_dmo >= tb->offset_dmo + tb->bytes ||
				    tb->offset_dmo >= ta->offset_dmo + ta->bytes)
					continue;
				ck_assert_msg(pl->diagonal && (((int)a == pl->in && (int)b == pl->out) ||
							       ((int)b == pl->in && (int)a == pl->out)),
					      "tensors %zu and %zu overlap at layer %zu", a, b, l);
				in = &p->tensors[pl->in];
				out = &p->tensors[pl->out];
				ck_assert(in->offset_dmo >= out->offset_dmo);
				ck_assert_uint_le(out->offset_dmo + out->bytes - in->offset_dmo, pl->os);
				ck_assert_uint_eq(out->offset_dmo + out->bytes - in->offset_dmo, pl->overlap);
			}
	}
}

/* Two in-place ReLUs, 4x4x1 f32: three 64-byte tensors T0 [0,0], T1 [0,1],
 * T2 [1,1]; O_s = 64 each (algorithmic, element-wise in order).
 * Plain, by size then index: T0@0, T1 meets T0 -> 64, T2 meets only T1 ->
 * 0: peak 128.  Overlaps, reverse: T2@0, T1 may start 64 - 64 = 0 bytes
 * after T2 -> 0, T0 likewise -> 0: peak 64.  Bound: 64 + 64 - 64 = 64. */
START_TEST(relu_chain)
{
	struct dmo_model m;
	struct dmo_plan p;
	uint64_t os[2];
	char err[256];

	load("layer,name,spec,inputs\n0,r1,\"relu:in=4x4x1\",\n1,r2,\"relu:in=4x4x1\",\n", &m);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_ALGORITHMIC, NULL, os, err, sizeof err), 0);
	ck_assert_uint_eq(os[0], 64);
	ck_assert_uint_eq(os[1], 64);
	build(&m, os, &p);
	ck_assert_uint_eq(p.peak_plain, 128);
	ck_assert_uint_eq(p.peak_dmo, 64);
	ck_assert_uint_eq(p.bound_dmo, 64);
	ck_assert_uint_eq(p.layers[0].overlap, 64);
	ck_assert_uint_eq(p.layers[1].overlap, 64);
	check_invariant(&p);
	ck_assert_int_eq(dmo_plan_verify(&m, &p, NULL, err, sizeof err), 0);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* A chain with O_s given by hand (the planner does not care where it comes
 * from): T0 128 [0,0] -relu(os 128)-> T1 128 [0,1] -maxpool 2x2(os 32)->
 * T2 32 [1,2] -conv 1x1 to 8 channels(os 16)-> T3 128 [2,2].
 * Plain, TFLite Micro's order (size descending, equal sizes by id
 * descending: T3 T1 T0 T2): T3@0; T1 (layers 0-1) does not meet T3
 * (layer 2) -> 0; T0 meets T1 -> 128; T2 meets T1 [0,128) and T3 [0,128)
 * -> 128: peak 256.  (Ids ascending, T0 T1 T3 T2, would give 288.)
 * Reverse: T3@0; T2 as input may start at 128 - 16 = 112 -> 112; T1 as
 * input of the pool may start at 112 + 32 - 32 = 112 -> 112; T0 at
 * 112 + 128 - 128 -> 112: peak 240.
 * By size: T3@0; T1@0; T0 as T1's input may start where T1 does -> 0;
 * T2 (output of the pool over T1@0: offsets 1..127 excluded; input of the
 * conv under T3@0: offsets below 112 excluded) -> 128: peak 160.
 * Bound: layer 0: 256 - 128, layer 1: 160 - 32, layer 2: 160 - 16 = 144.
 * Not reachable: 144 needs T3 below T2 sharing 16 (T2@112), and then T1
 * can be neither below T2 (T1 would need 128 bytes under 112) nor above
 * it (T1 >= 112 ends at 240); with T2 below T3 instead, T3 >= 32 ends at
 * 160.  So 160 is optimal, and the search must say so. */
START_TEST(hand_chain)
{
	struct dmo_model m;
	struct dmo_plan p;
	const uint64_t os[3] = { 128, 32, 16 };

	load("layer,name,spec,inputs\n"
	     "0,a,\"relu:in=4x4x2\",\n"
	     "1,b,\"maxpool:in=4x4x2,k=2x2,stride=2,pad=valid\",\n"
	     "2,c,\"conv2d:in=2x2x2,k=1x1,out_c=8\",\n", &m);
	build(&m, os, &p);
	ck_assert_uint_eq(p.peak_plain, 256);
	ck_assert_uint_eq(p.tensors[0].offset_plain, 128);
	ck_assert_uint_eq(p.tensors[2].offset_plain, 128);
	ck_assert_uint_eq(p.peak_reverse, 240);
	ck_assert_uint_eq(p.peak_by_size, 160);
	ck_assert_uint_eq(p.peak_dmo, 160);
	ck_assert_uint_eq(p.bound_dmo, 144);
	ck_assert_int_eq(p.bound_layer, 2);
	ck_assert_int_eq(p.status, DMO_PLAN_OPTIMAL);
	check_invariant(&p);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* plan_view.h on hand_chain's plan (above): live bytes per layer, layer 0
 * T0 + T1 = 256, layer 1 T1 + T2 = 160, layer 2 T2 + T3 = 160; the plain
 * plan's highest byte per layer from its offsets there (T0@128 at layer
 * 0: 256; T1@0 and T2@128 at layer 1: 160; T2@128 and T3@0 at layer 2:
 * 160).  The overlap plan shares at most O_s at a layer, reaches its peak
 * at some layer, and its peak layer holds the most live bytes. */
START_TEST(plan_view_of_hand_chain)
{
	struct dmo_model m;
	struct dmo_plan p;
	struct dmo_plan_use use[3];
	const uint64_t os[3] = { 128, 32, 16 }, live[3] = { 256, 160, 160 };
	uint64_t top = 0;

	load("layer,name,spec,inputs\n"
	     "0,a,\"relu:in=4x4x2\",\n"
	     "1,b,\"maxpool:in=4x4x2,k=2x2,stride=2,pad=valid\",\n"
	     "2,c,\"conv2d:in=2x2x2,k=1x1,out_c=8\",\n", &m);
	build(&m, os, &p);
	dmo_plan_use(&p, use);
	for (int l = 0; l < 3; l++) {
		ck_assert_uint_eq(use[l].live, live[l]);
		ck_assert_uint_eq(use[l].top_plain, live[l]);
		ck_assert_uint_le(use[l].shared, os[l]);
		ck_assert_uint_eq(use[l].live_dmo, live[l] - use[l].shared);
		ck_assert_uint_le(use[l].top_dmo, p.peak_dmo);
		ck_assert_uint_ge(use[l].top_dmo, use[l].live_dmo);
		top = use[l].top_dmo > top ? use[l].top_dmo : top;
	}
	ck_assert_uint_eq(top, p.peak_dmo);
	size_t peak = dmo_plan_peak_layer(&p, use);
	for (int l = 0; l < 3; l++)
		ck_assert_uint_le(use[l].live_dmo, use[peak].live_dmo);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* Names of models in titles and figure files: a generic file name takes
 * its folder's. */
START_TEST(model_display_names)
{
	static const char *const cases[][2] = {
		{ "zoo/resnet/model.onnx", "resnet" },
		{ "zoo/resnet/model_int8.tflite", "resnet-model_int8" },
		{ "/x/mobilenet_v2_1.0_224.tflite", "mobilenet_v2_1.0_224" },
		{ "a b/model.onnx", "a_b" },
		{ "ds_cnn_kws", "ds_cnn_kws" },
		{ "zoo/modelzoo.onnx", "modelzoo" },
		{ "/model.onnx", "model" },
	};
	char name[64];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		dmo_model_display_name(cases[i][0], name, sizeof name);
		ck_assert_str_eq(name, cases[i][1]);
	}
}
END_TEST

/* TFLite Micro's rule takes the first gap a buffer fits between the live
 * buffers already placed.  fc chain, f32: T0 4 B [0,0], T1 32 B [0,1],
 * T2 16 B [1,2], T3 8 B [2,3], T4 16 B [3,3].  Order: T1, then the two of
 * 16 bytes by id descending (T4, T2), T3, T0.  T1@0; T4 meets nothing
 * placed -> 0; T2 meets T1 [0,32) -> 32; T3 meets T4 [0,16) and T2
 * [32,48), not T1: the gap [16,32) holds its 8 bytes -> 16; T0 meets T1
 * -> 32.  Peak 48. */
START_TEST(tflm_first_gap)
{
	struct dmo_model m;
	struct dmo_plan p;
	const uint64_t os[4] = { 0, 0, 0, 0 };
	const uint64_t expected[5] = { 32, 0, 32, 16, 0 };

	load("layer,name,spec,inputs\n"
	     "0,a,\"fc:in=1,units=8\",\n"
	     "1,b,\"fc:in=8,units=4\",\n"
	     "2,c,\"fc:in=4,units=2\",\n"
	     "3,d,\"fc:in=2,units=4\",\n", &m);
	build(&m, os, &p);
	for (int t = 0; t < 5; t++)
		ck_assert_uint_eq(p.tensors[t].offset_plain, expected[t]);
	ck_assert_uint_eq(p.peak_plain, 48);
	check_invariant(&p);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* A residual: a = relu(x), b = relu(a), s = add(a, b), all 64 bytes, O_s 64.
 * T1 (a) lives 0..2, so layer 1 may not overlap it (not diagonal); at layer
 * 2 it dies as the add's first operand (diagonal), T2 as the second (never).
 * Plain, by index: T0@0, T1 -> 64, T2 (meets T1) -> 0, T3 (meets T1, T2)
 * -> 128: peak 192.  Reverse: T3@0; T2 meets T3 without sharing -> 64;
 * T1 may sit on T3 (share 64) but not on T2 -> 0; T0 on T1 -> 0: peak 128.
 * Bound: layer 1 holds T1 + T2 = 128 with nothing to share; layer 2 holds
 * 192 less 64: 128. */
START_TEST(residual)
{
	struct dmo_model m;
	struct dmo_plan p;
	uint64_t os[3];
	char err[256];

	load("layer,name,spec,inputs\n"
	     "0,a,\"relu:in=4x4x1\",\n"
	     "1,b,\"relu:in=4x4x1\",\n"
	     "2,s,\"add:in=4x4x1\",a;b\n", &m);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_ALGORITHMIC, NULL, os, err, sizeof err), 0);
	build(&m, os, &p);
	ck_assert_int_eq(p.layers[1].diagonal, 0);
	ck_assert_int_eq(p.layers[2].diagonal, 1);
	ck_assert_int_eq(p.layers[2].in2, 2);
	ck_assert_int_eq(p.tensors[1].last, 2);
	ck_assert_uint_eq(p.peak_plain, 192);
	ck_assert_uint_eq(p.peak_reverse, 128);
	ck_assert_uint_eq(p.peak_dmo, 128);
	ck_assert_uint_eq(p.bound_dmo, 128);
	ck_assert_uint_eq(p.tensors[2].offset_dmo, 64);
	check_invariant(&p);
	ck_assert_int_eq(dmo_plan_verify(&m, &p, NULL, err, sizeof err), 0);

	/* The checker refuses the residual overlapped by b's output... */
	p.tensors[2].offset_dmo = 32;
	ck_assert_int_eq(dmo_plan_check(&p, 1, err, sizeof err), -1);
	/* ...and the diagonal input sliding further than O_s allows. */
	p.tensors[2].offset_dmo = 64;
	p.layers[2].os = 32;
	ck_assert_int_eq(dmo_plan_check(&p, 1, err, sizeof err), -1);
	/* Without overlaps nothing may be shared at all. */
	ck_assert_int_eq(dmo_plan_check(&p, 0, err, sizeof err), 0);
	p.tensors[3].offset_plain = p.tensors[1].offset_plain;
	ck_assert_int_eq(dmo_plan_check(&p, 0, err, sizeof err), -1);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* A 3x3 convolution is not in-place: claiming O_s = OB puts its input on
 * its output, and --verify must see the difference; its true O_s passes. */
START_TEST(verify_catches_wrong_os)
{
	struct dmo_model m;
	struct dmo_plan p;
	uint64_t os[1];
	char err[256];

	load("layer,name,spec,inputs\n0,c,\"conv2d:in=8x8x4,k=3x3,pad=same,out_c=4\",\n", &m);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_ALGORITHMIC, NULL, os, err, sizeof err), 0);
	ck_assert_uint_lt(os[0], 8 * 8 * 4 * 4);
	build(&m, os, &p);
	ck_assert_uint_eq(p.layers[0].overlap, os[0]);
	ck_assert_int_eq(dmo_plan_verify(&m, &p, NULL, err, sizeof err), 0);
	dmo_plan_free(&p);
	os[0] = 8 * 8 * 4 * 4;
	build(&m, os, &p);
	ck_assert_int_eq(dmo_plan_verify(&m, &p, NULL, err, sizeof err), 1);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* Measured O_s comes from layers.csv by name; a missing layer is an error.
 * It is safe_os_bytes: r1 ran on two threads, and only 8 of its 40 bytes
 * hold for any split of its work (16 for every interleaving of the
 * observed split, taken when that split is declared static). */
START_TEST(measured)
{
	char dir[] = "/tmp/dmo-test-plan.XXXXXX", path[256], err[512];
	struct dmo_layer_row rows[2] = {
		{ .layer = 0, .name = "r1", .in_bytes = 64, .out_bytes = 64, .os_bytes = 40,
		  .status = "ok:threads=2", .threads = 2, .os_any_bytes = 16, .alive_threads = 2,
		  .os_split_bytes = 8 },
		{ .layer = 1, .name = "r2", .in_bytes = 64, .out_bytes = 64, .os_bytes = 24,
		  .status = "ok", .threads = 1, .os_any_bytes = 24, .alive_threads = 1,
		  .os_split_bytes = 0 },
	};
	struct dmo_layer_table table = { rows, 1 };
	struct dmo_model m;
	uint64_t os[2];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	dmo_layer_set_safe(&rows[0], 0);
	dmo_layer_set_safe(&rows[1], 0);
	snprintf(path, sizeof path, "%s/%s", dir, DMO_LAYERS_CSV);
	load("layer,name,spec,inputs\n0,r1,\"relu:in=4x4x1\",\n1,r2,\"relu:in=4x4x1\",\n", &m);
	ck_assert_int_eq(dmo_layers_csv_write(path, &table, err, sizeof err), 0);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_MEASURED, dir, os, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "r2"));
	table.count = 2;
	ck_assert_int_eq(dmo_layers_csv_write(path, &table, err, sizeof err), 0);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_MEASURED, dir, os, err, sizeof err), 0);
	ck_assert_uint_eq(os[0], 8);
	ck_assert_uint_eq(os[1], 24);
	dmo_layer_set_safe(&rows[0], 1);
	ck_assert_int_eq(dmo_layers_csv_write(path, &table, err, sizeof err), 0);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_MEASURED, dir, os, err, sizeof err), 0);
	ck_assert_uint_eq(os[0], 16);
	/* A layer that failed under the tool has no O_s to plan with. */
	strcpy(rows[1].status, "error:the kernel crashed");
	ck_assert_int_eq(dmo_layers_csv_write(path, &table, err, sizeof err), 0);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_MEASURED, dir, os, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "layers.csv: layer 'r2' has status error:the kernel crashed"));
	/* Nor one profiled on other buffers: relu:in=4x4x1 is 64/64 bytes. */
	strcpy(rows[1].status, "ok");
	rows[1].in_bytes = 32;
	ck_assert_int_eq(dmo_layers_csv_write(path, &table, err, sizeof err), 0);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_MEASURED, dir, os, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "layers.csv: layer 'r2' profiled 32/64 input/output bytes, "
					  "the table says 64/64"));
	/* A layer without an op spec gets no O_s, measured or not. */
	rows[1].in_bytes = 64;
	ck_assert_int_eq(dmo_layers_csv_write(path, &table, err, sizeof err), 0);
	m.layers[0].supported = 0;
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_MEASURED, dir, os, err, sizeof err), 0);
	ck_assert_uint_eq(os[0], 0);
	ck_assert_uint_eq(os[1], 24);
	unlink(path);
	rmdir(dir);
	dmo_model_free(&m);
}
END_TEST

/* What the planner refuses, with its message: no layers, a table whose
 * layers do not fit together, an O_s above the smaller buffer (relu on
 * 4x4x1 f32: 64 bytes each), an O_s for a layer dmo has no model of. */
START_TEST(build_refusals)
{
	struct dmo_model m = { 0 };
	struct dmo_plan p;
	uint64_t os[2] = { 65, 0 };
	char err[256];

	ck_assert_int_eq(dmo_plan_build(&m, os, 0, NULL, &p, err, sizeof err), -1);
	ck_assert_str_eq(err, "the model has no layers");
	/* 4x4x1 = 16 elements in, the second layer reads 8. */
	load("layer,name,spec,inputs\n0,r1,\"relu:in=4x4x1\",\n1,r2,\"relu:in=2x4x1\",\n", &m);
	ck_assert_int_eq(dmo_plan_build(&m, os, 0, NULL, &p, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "(r2): input has 8 f32 elements but 'r1' produces 16 f32"));
	dmo_model_free(&m);
	load("layer,name,spec,inputs\n0,r1,\"relu:in=4x4x1\",\n1,r2,\"relu:in=4x4x1\",\n", &m);
	ck_assert_int_eq(dmo_plan_build(&m, os, 0, NULL, &p, err, sizeof err), -1);
	ck_assert_str_eq(err, "layer 'r1': O_s 65 exceeds min(IB, OB) = 64");
	/* A layer without an op spec (as a .tflite SVDF is) never overlaps. */
	m.layers[1].supported = 0;
	os[0] = 0;
	os[1] = 8;
	ck_assert_int_eq(dmo_plan_build(&m, os, 0, NULL, &p, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "layer 'r2' ("));
	ck_assert_ptr_nonnull(strstr(err, ") has no dmo model, so no O_s"));
	dmo_model_free(&m);
}
END_TEST

/* The brute force's model: tensors and the layers' operands, derived from
 * the table here (not from struct dmo_plan) so that the check is
 * independent of plan.c: tensor 0 is the model input, tensor L+1 layer L's
 * output, live from its producer to its last reader (to the end if none). */
#define BF_MAX 8

struct bf_model {
	int n_tensors, n_layers;
	uint64_t bytes[BF_MAX];
	int first[BF_MAX], last[BF_MAX];
	int in[BF_MAX], in2[BF_MAX];
	uint64_t os[BF_MAX];
};

static void bf_derive(const struct dmo_model *m, const uint64_t *os, struct bf_model *bf)
{
	bf->n_layers = (int)m->n_layers;
	bf->n_tensors = bf->n_layers + 1;
	bf->bytes[0] = dmo_opspec_in_bytes(&m->layers[0].op);
	bf->first[0] = 0;
	for (int l = 0; l < bf->n_layers; l++) {
		bf->bytes[l + 1] = dmo_opspec_out_bytes(&m->layers[l].op);
		bf->first[l + 1] = l;
		bf->in[l] = m->layers[l].inputs[0] + 1; /* DMO_MODEL_INPUT is -1 */
		bf->in2[l] = m->layers[l].n_inputs > 1 ? m->layers[l].inputs[1] + 1 : -1;
		bf->os[l] = os[l];
	}
	for (int t = 0; t < bf->n_tensors; t++) {
		bf->last[t] = bf->n_layers - 1;
		for (int l = bf->n_layers - 1; l >= 0; l--)
			if (bf->in[l] == t || bf->in2[l] == t) {
				bf->last[t] = l;
				break;
			}
	}
}

/* May tensors A and B (A placed at OA, B at OB) coexist?  At every layer
 * where both are live they must be disjoint, unless they are that layer's
 * input (dying there, not its second operand) and output, the input
 * starting at most O_s bytes before the output's end. */
static int bf_compatible(const struct bf_model *bf, int a, uint64_t oa, int b, uint64_t ob)
{
	for (int l = 0; l < bf->n_layers; l++) {
		int in = bf->in[l], out = l + 1;

		if (bf->first[a] > l || bf->last[a] < l || bf->first[b] > l || bf->last[b] < l)
			continue;
		if (oa + bf->bytes[a] <= ob || ob + bf->bytes[b] <= oa)
			continue;
		if (bf->last[in] == l && bf->in2[l] != in &&
		    ((a == in && b == out && oa >= ob && ob + bf->bytes[b] - oa <= bf->os[l]) ||
		     (b == in && a == out && ob >= oa && oa + bf->bytes[a] - ob <= bf->os[l])))
			continue;
		return 0;
	}
	return 1;
}

/* Every placement on the GRID (all sizes and O_s are multiples of it, so
 * the optimum is on it too), tensor by tensor; *BEST the lowest peak.
 * Offsets run up to the sum of all sizes, enough for any plan; the only
 * cut is that a tensor ending at or above *BEST cannot improve it. */
static void bf_place(const struct bf_model *bf, int t, uint64_t *off, uint64_t peak,
		     uint64_t grid, uint64_t *best)
{
	if (t == bf->n_tensors) {
		if (peak < *best)
			*best = peak;
		return;
	}
	for (off[t] = 0; off[t] + bf->bytes[t] < *best; off[t] += grid) {
		int ok = 1;

		for (int u = 0; u < t && ok; u++)
			ok = bf_compatible(bf, t, off[t], u, off[u]);
		if (ok)
			bf_place(bf, t + 1, off,
				 peak > off[t] + bf->bytes[t] ? peak : off[t] + bf->bytes[t], grid, best);
	}
}

/* Random small models, chains of fc and relu layers with residual adds,
 * f32 tensors of 1 to 4 elements and random O_s in whole elements: the
 * plan's peak equals the brute force's, it keeps the invariant, and its
 * status is the right one (the search has all the time it needs). */
START_TEST(search_equals_brute_force)
{
	unsigned seed = 15;
	int statuses[3] = { 0 }, improved = 0;

	for (int trial = 0; trial < 300; trial++) {
		char csv[2048];
		int elems[BF_MAX], n_layers = 3 + (int)(rand_r(&seed) % 4), len;
		uint64_t os[BF_MAX], off[BF_MAX], best;
		struct bf_model bf;
		struct dmo_model m;
		struct dmo_plan p;

		elems[0] = 1 + (int)(rand_r(&seed) % 4);
		len = snprintf(csv, sizeof csv, "layer,name,spec,inputs\n");
		for (int l = 0; l < n_layers; l++) {
			int kind = (int)(rand_r(&seed) % 3), other = 0;

			/* add: the previous tensor and an earlier layer's output
			 * as large (possibly the same), in either order */
			for (int t = l; kind == 2 && t >= 1 && other == 0; t--)
				if (elems[t] == elems[l] && rand_r(&seed) % 2)
					other = t;
			if (other > 0) {
				int swap = (int)(rand_r(&seed) % 2);

				elems[l + 1] = elems[l];
				len += snprintf(csv + len, sizeof csv - (size_t)len,
						"%d,l%d,\"add:in=1x1x%d\",l%d;l%d\n", l, l, elems[l],
						swap ? other - 1 : l - 1, swap ? l - 1 : other - 1);
			} else if (kind == 1) {
				elems[l + 1] = elems[l];
				len += snprintf(csv + len, sizeof csv - (size_t)len,
						"%d,l%d,\"relu:in=1x1x%d\",\n", l, l, elems[l]);
			} else {
				elems[l + 1] = 1 + (int)(rand_r(&seed) % 4);
				len += snprintf(csv + len, sizeof csv - (size_t)len,
						"%d,l%d,\"fc:in=%d,units=%d\",\n", l, l, elems[l],
						elems[l + 1]);
			}
			/* O_s in whole f32 elements, 0..min(IB, OB) */
			os[l] = 4 * (rand_r(&seed) % (uint64_t)((elems[l] < elems[l + 1] ? elems[l]
										 : elems[l + 1]) + 1));
		}
		load(csv, &m);
		build(&m, os, &p);
		check_invariant(&p);
		bf_derive(&m, os, &bf);
		best = UINT64_MAX;
		bf_place(&bf, 0, off, 0, 4, &best);
		ck_assert_msg(p.peak_dmo == best, "trial %d: plan %llu, brute force %llu\n%s", trial,
			      (unsigned long long)p.peak_dmo, (unsigned long long)best, csv);
		ck_assert_uint_ge(best, p.bound_dmo);
		ck_assert_int_eq(p.status, best == p.bound_dmo ? DMO_PLAN_AT_BOUND : DMO_PLAN_OPTIMAL);
		statuses[p.status]++;
		improved += p.peak_dmo < p.peak_by_size && p.peak_dmo < p.peak_reverse;
		dmo_plan_free(&p);
		dmo_model_free(&m);
	}
	/* The random models exercise both outcomes, and the search beats
	 * both greedy orders on some. */
	fprintf(stderr, "search_equals_brute_force: %d at the bound, %d optimal above it, %d better than greedy\n",
		statuses[DMO_PLAN_AT_BOUND], statuses[DMO_PLAN_OPTIMAL], improved);
	ck_assert_int_gt(statuses[DMO_PLAN_AT_BOUND], 0);
	ck_assert_int_gt(statuses[DMO_PLAN_OPTIMAL], 0);
	ck_assert_int_gt(improved, 0);
}
END_TEST

/* Plans in TFLite Micro's arena: aligned offsets, sizes rounded up.  On
 * random chains of fc, relu and residual adds with f32 tensors of 1 to 12
 * elements (4 to 48 bytes) and O_s in whole elements, the plan made in
 * 16-byte units keeps the invariant with the true sizes and O_s, has every
 * offset a multiple of 16, and its peak is the brute force's over every
 * placement on the 16-byte grid (true sizes), rounded up to 16: with
 * aligned offsets off + ceil16(B) = ceil16(off + B), so that is the lowest
 * rounded arena. */
START_TEST(aligned_equals_brute_force)
{
	unsigned seed = 26;
	const struct dmo_plan_rules rules = { .align = 16 };
	int exact = 0;

	for (int trial = 0; trial < 120; trial++) {
		char csv[2048];
		int elems[BF_MAX], n_layers = 3 + (int)(rand_r(&seed) % 3), len;
		uint64_t os[BF_MAX], off[BF_MAX], best = UINT64_MAX;
		struct bf_model bf;
		struct dmo_model m;
		struct dmo_plan p;
		char err[512];

		elems[0] = 1 + (int)(rand_r(&seed) % 12);
		len = snprintf(csv, sizeof csv, "layer,name,spec,inputs\n");
		for (int l = 0; l < n_layers; l++) {
			int kind = (int)(rand_r(&seed) % 3), other = 0;

			for (int t = l; kind == 2 && t >= 1 && other == 0; t--)
				if (elems[t] == elems[l])
					other = t;
			if (other > 0) {
				elems[l + 1] = elems[l];
				len += snprintf(csv + len, sizeof csv - (size_t)len,
						"%d,l%d,\"add:in=1x1x%d\",l%d;l%d\n", l, l, elems[l],
						l - 1, other - 1);
			} else if (kind == 1) {
				elems[l + 1] = elems[l];
				len += snprintf(csv + len, sizeof csv - (size_t)len,
						"%d,l%d,\"relu:in=1x1x%d\",\n", l, l, elems[l]);
			} else {
				elems[l + 1] = 1 + (int)(rand_r(&seed) % 12);
				len += snprintf(csv + len, sizeof csv - (size_t)len,
						"%d,l%d,\"fc:in=%d,units=%d\",\n", l, l, elems[l],
						elems[l + 1]);
			}
			os[l] = 4 * (rand_r(&seed) % (uint64_t)((elems[l] < elems[l + 1] ? elems[l]
										 : elems[l + 1]) + 1));
		}
		load(csv, &m);
		ck_assert_msg(dmo_plan_build_rules(&m, os, &rules, DMO_PLAN_TIME_LIMIT, NULL, &p, err,
						   sizeof err) == 0, "%s", err);
		check_invariant(&p);
		for (size_t t = 0; t < p.n_tensors; t++)
			ck_assert_uint_eq(p.tensors[t].offset_dmo % 16, 0);
		bf_derive(&m, os, &bf);
		bf_place(&bf, 0, off, 0, 16, &best);
		if (p.status != DMO_PLAN_BEST_FOUND) {
			ck_assert_msg(p.peak_dmo == (best + 15) / 16 * 16,
				      "trial %d: aligned plan %llu, brute force %llu\n%s", trial,
				      (unsigned long long)p.peak_dmo, (unsigned long long)best, csv);
			exact++;
		}
		ck_assert_uint_le(p.peak_dmo, p.peak_plain);
		dmo_plan_free(&p);
		dmo_model_free(&m);
	}
	ck_assert_int_gt(exact, 100);
}
END_TEST

/* A kernel's scratch buffer, planned as a tensor live during its layer
 * only.  hand_chain with 40 scratch bytes at layer b (derived by hand):
 * the bound is at b, T1 128 + T2 32 + 40 less the share 32 = 168.  It is
 * reached: T0, T1 and T2 at 0 (each may lie on its successor's start), the
 * scratch at [128, 168), T3 (live at c only, beside T2 [0, 32)) at 32 or
 * above, ending by 160. */
START_TEST(scratch_buffer)
{
	struct dmo_model m;
	struct dmo_plan p;
	const uint64_t os[3] = { 128, 32, 16 }, scratch[3] = { 0, 40, 0 };
	const struct dmo_plan_rules rules = { .align = 1, .scratch = scratch };
	char err[256];

	load("layer,name,spec,inputs\n"
	     "0,a,\"relu:in=4x4x2\",\n"
	     "1,b,\"maxpool:in=4x4x2,k=2x2,stride=2,pad=valid\",\n"
	     "2,c,\"conv2d:in=2x2x2,k=1x1,out_c=8\",\n", &m);
	ck_assert_msg(dmo_plan_build_rules(&m, os, &rules, DMO_PLAN_TIME_LIMIT, NULL, &p, err,
					   sizeof err) == 0, "%s", err);
	check_invariant(&p);
	ck_assert_uint_eq(p.n_scratch, 1);
	ck_assert_int_eq(p.tensors[4].model_tensor, -1);
	ck_assert_int_eq(p.tensors[4].first, 1);
	ck_assert_int_eq(p.tensors[4].last, 1);
	ck_assert_uint_eq(p.bound_dmo, 168);
	ck_assert_uint_eq(p.peak_dmo, 168);
	ck_assert_int_eq(p.status, DMO_PLAN_AT_BOUND);
	ck_assert_int_eq(dmo_plan_check(&p, 1, err, sizeof err), 0);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* No time for the search: the plan keeps the invariant, and above the
 * bound it is only "best found" -- never claimed optimal -- even where the
 * search had time to prove it (hand_chain, 160 over a bound of 144). */
START_TEST(time_limit_zero)
{
	struct dmo_model m;
	struct dmo_plan p;
	const uint64_t os[3] = { 128, 32, 16 };
	char err[256];

	load("layer,name,spec,inputs\n"
	     "0,a,\"relu:in=4x4x2\",\n"
	     "1,b,\"maxpool:in=4x4x2,k=2x2,stride=2,pad=valid\",\n"
	     "2,c,\"conv2d:in=2x2x2,k=1x1,out_c=8\",\n", &m);
	ck_assert_msg(dmo_plan_build(&m, os, 0, NULL, &p, err, sizeof err) == 0, "%s", err);
	check_invariant(&p);
	ck_assert_uint_eq(p.peak_dmo, 160);
	ck_assert_int_eq(p.status, DMO_PLAN_BEST_FOUND);
	ck_assert_str_eq(dmo_plan_status_name(p.status), "best found");
	/* The checker: a tensor moved past the peak. */
	p.tensors[3].offset_dmo = p.peak_dmo;
	ck_assert_int_eq(dmo_plan_check(&p, 1, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "tensor 3 ends at 288, past the peak 160"));
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* Issue 26, item 8: a model output may be read again, here by the last
 * layer, whose dying first operand it then is.  Before the fix the
 * planner let that layer's output lie diagonally over it (O_s of a 1x1
 * convolution with as many output as input channels is OB less one
 * element: 124 of 128 bytes), and the output 'a' was overwritten by 'b'.  Now no live tensor
 * shares a byte with a model output, and --verify's end check holds. */
START_TEST(output_never_overlapped)
{
	struct dmo_model m;
	struct dmo_plan p;
	char err[512];
	uint64_t os[2];

	load("layer,name,spec,inputs\n"
	     "0,a,\"relu:in=4x4x2\",\n"
	     "1,b,\"conv2d:in=4x4x2,k=1x1,out_c=2\",\n", &m);
	/* Tensor 1 (a's output) is also one of the model's outputs, as a
	 * .tflite's SubGraph.outputs may say. */
	m.tensors[1].graph_output = 1;
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_ALGORITHMIC, NULL, os, err, sizeof err), 0);
	ck_assert_uint_eq(os[1], 124); /* all but the last pixel's other channel */
	build(&m, os, &p);
	check_invariant(&p);
	ck_assert_int_eq(p.layers[1].diagonal, 0);
	ck_assert_uint_eq(p.layers[1].overlap, 0);
	/* Independently: no tensor live with an output touches its bytes. */
	for (size_t a = 0; a < p.n_tensors; a++)
		for (size_t b = 0; b < p.n_tensors; b++) {
			const struct dmo_plan_tensor *o = &p.tensors[a], *u = &p.tensors[b];

			if (a == b || !o->output || u->last < o->first || o->last < u->first)
				continue;
			ck_assert_msg(o->offset_dmo >= u->offset_dmo + u->bytes ||
				      u->offset_dmo >= o->offset_dmo + o->bytes,
				      "model output %zu overlaps tensor %zu", a, b);
		}
	ck_assert_uint_eq(p.peak_dmo, 2 * 128); /* a and b, both live at layer b */
	ck_assert_msg(dmo_plan_verify(&m, &p, NULL, err, sizeof err) == 0, "%s", err);
	/* The old plan, b's output laid over a: the end check catches it
	 * (b itself is computed right: its input is read before b writes). */
	p.tensors[2].offset_dmo = p.tensors[1].offset_dmo;
	ck_assert_int_eq(dmo_plan_verify(&m, &p, NULL, err, sizeof err), 1);
	ck_assert_msg(strstr(err, "output") != NULL, "%s", err);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* The same with a .tflite's real weights (hello_world int8: three fully
 * connected layers): its first layer's output made a model output too,
 * and the third layer's output laid over it, which the step-by-step
 * comparison cannot see (that tensor was right when written); the end
 * comparison of dmo_plan_verify_net does. */
START_TEST(verify_net_checks_outputs_at_end)
{
	const char *src = getenv("top_srcdir");
	struct dmo_model m;
	struct dmo_plan p;
	struct dmo_net net;
	struct dmo_net_input input = { .seed = 1 };
	char path[1024], err[512];
	uint64_t os[3];
	int a, c;

	snprintf(path, sizeof path, "%s/tests/models/tflm_hello_world_int8.tflite", src ? src : ".");
	ck_assert_msg(dmo_model_load(path, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq((int)m.n_layers, 3);
	a = m.layers[0].results[0];
	c = m.layers[2].results[0];
	m.tensors[a].graph_output = 1;
	m.tensors[a].last = 2;
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_ALGORITHMIC, NULL, os, err, sizeof err), 0);
	build(&m, os, &p);
	ck_assert_int_eq(dmo_net_runs(&m, &net, err, sizeof err), 1);
	net.tensors[a].graph_output = 1;
	ck_assert_msg(dmo_plan_verify_net(&m, &net, &p, &input, NULL, err, sizeof err) == 0, "%s",
		      err);
	for (size_t t = 0; t < p.n_tensors; t++)
		if (p.tensors[t].model_tensor == c)
			for (size_t u = 0; u < p.n_tensors; u++)
				if (p.tensors[u].model_tensor == a)
					p.tensors[t].offset_dmo = p.tensors[u].offset_dmo;
	ck_assert_int_eq(dmo_plan_verify_net(&m, &net, &p, &input, NULL, err, sizeof err), 1);
	ck_assert_msg(strstr(err, "once the model has run") != NULL, "%s", err);
	dmo_net_free(&net);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* Every shipped table, with exact and with analytic O_s: the invariant
 * holds, overlaps never raise the peak, the plan is no worse than either
 * greedy order, the bound is below it, and the status says which. */
START_TEST(shipped_models)
{
	static const char *const names[] = { "ds_cnn_kws", "mobilenet_v1_0.25_128",
		"mobilenet_v1_1.0_224", "mobilenet_v2_1.0_224", "person_detect_96" };
	const char *src = getenv("top_srcdir");
	char path[1024], err[512];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		for (int source = DMO_OS_ALGORITHMIC; source <= DMO_OS_ANALYTIC; source++) {
			struct dmo_model m;
			struct dmo_plan p;
			uint64_t *os;

			snprintf(path, sizeof path, "%s/target-harness/models/%s.csv",
				 src ? src : ".", names[i]);
			ck_assert_msg(dmo_model_load(path, &m, err, sizeof err) == 0, "%s", err);
			os = calloc(m.n_layers, sizeof *os);
			ck_assert_int_eq(dmo_plan_os(&m, source, NULL, os, err, sizeof err), 0);
			build(&m, os, &p);
			check_invariant(&p);
			ck_assert_uint_le(p.peak_dmo, p.peak_plain);
			ck_assert_uint_le(p.peak_dmo, p.peak_by_size);
			ck_assert_uint_le(p.peak_dmo, p.peak_reverse);
			ck_assert_uint_le(p.bound_dmo, p.peak_dmo);
			/* Tables this small are settled: at the bound or
			 * proven optimal, never merely the best found. */
			ck_assert_int_eq(p.status, p.peak_dmo == p.bound_dmo ? DMO_PLAN_AT_BOUND
									     : DMO_PLAN_OPTIMAL);
			dmo_plan_free(&p);
			free(os);
			dmo_model_free(&m);
		}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, relu_chain);
	tcase_add_test(tc, hand_chain);
	tcase_add_test(tc, plan_view_of_hand_chain);
	tcase_add_test(tc, model_display_names);
	tcase_add_test(tc, tflm_first_gap);
	tcase_add_test(tc, residual);
	tcase_add_test(tc, verify_catches_wrong_os);
	tcase_add_test(tc, measured);
	tcase_add_test(tc, build_refusals);
	tcase_add_test(tc, search_equals_brute_force);
	tcase_add_test(tc, time_limit_zero);
	tcase_add_test(tc, shipped_models);
	tcase_add_test(tc, output_never_overlapped);
	tcase_add_test(tc, aligned_equals_brute_force);
	tcase_add_test(tc, scratch_buffer);
	tcase_add_test(tc, verify_net_checks_outputs_at_end);
	suite_add_tcase(s, tc);
	return dmo_run_suite(s);
}
