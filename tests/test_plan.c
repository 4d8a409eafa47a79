/* test_plan.c - checks `dmo plan`'s planner (analysis/lib/plan.c): peaks of
 * tiny hand-made tables derived by hand beside each test, a residual DAG,
 * the plan invariant (an independent per-layer formulation) over every
 * shipped model, measured O_s, and that --verify catches a too-large O_s. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "algorithmic.h"
#include "model_table.h"
#include "plan.h"
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

	ck_assert_msg(dmo_plan_build(m, os, p, err, sizeof err) == 0, "%s", err);
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
	ck_assert_int_eq(dmo_plan_verify(&m, &p, err, sizeof err), 0);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* A chain with O_s given by hand (the planner does not care where it comes
 * from): T0 128 [0,0] -relu(os 128)-> T1 128 [0,1] -maxpool 2x2(os 32)->
 * T2 32 [1,2] -conv 1x1 to 8 channels(os 16)-> T3 128 [2,2].
 * Plain, by size (T0 T1 T3 T2): T0@0, T1 -> 128, T3 (meets only T2) -> 0,
 * T2 meets T1 [128,256) and T3 [0,128) -> 256: peak 288.
 * Reverse: T3@0; T2 as input may start at 128 - 16 = 112 -> 112; T1 as
 * input of the pool may start at 112 + 32 - 32 = 112 -> 112; T0 at
 * 112 + 128 - 128 -> 112: peak 240.
 * By size: T0@0; T1 as output may start where its input T0 does -> 0;
 * T3@0; T2 (output of the pool over T1@0: offsets 1..127 excluded; input
 * of the conv under T3@0: offsets below 112 excluded) -> 128: peak 160.
 * The lower of the two is kept: 160.  Overlaps used: 128, 0, 0.
 * Bound: layer 0: 256 - 128, layer 1: 160 - 32, layer 2: 160 - 16 = 144. */
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
	ck_assert_uint_eq(p.peak_plain, 288);
	ck_assert_uint_eq(p.peak_reverse, 240);
	ck_assert_uint_eq(p.peak_by_size, 160);
	ck_assert_uint_eq(p.peak_dmo, 160);
	ck_assert_uint_eq(p.bound_dmo, 144);
	ck_assert_int_eq(p.bound_layer, 2);
	ck_assert_uint_eq(p.tensors[2].offset_dmo, 128);
	ck_assert_uint_eq(p.layers[0].overlap, 128);
	ck_assert_uint_eq(p.layers[1].overlap, 0);
	ck_assert_uint_eq(p.layers[2].overlap, 0);
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
	ck_assert_int_eq(dmo_plan_verify(&m, &p, err, sizeof err), 0);

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
	ck_assert_int_eq(dmo_plan_verify(&m, &p, err, sizeof err), 0);
	dmo_plan_free(&p);
	os[0] = 8 * 8 * 4 * 4;
	build(&m, os, &p);
	ck_assert_int_eq(dmo_plan_verify(&m, &p, err, sizeof err), 1);
	dmo_plan_free(&p);
	dmo_model_free(&m);
}
END_TEST

/* Measured O_s comes from layers.csv by name; a missing layer is an error.
 * It is os_any_bytes: r1 ran on two threads, and only 16 of its 40 bytes
 * hold for every interleaving. */
START_TEST(measured)
{
	char dir[] = "/tmp/dmo-test-plan.XXXXXX", path[256], err[512];
	struct dmo_layer_row rows[2] = {
		{ .layer = 0, .name = "r1", .in_bytes = 64, .out_bytes = 64, .os_bytes = 40,
		  .status = "ok:threads=2", .threads = 2, .os_any_bytes = 16 },
		{ .layer = 1, .name = "r2", .in_bytes = 64, .out_bytes = 64, .os_bytes = 24,
		  .status = "ok", .threads = 1, .os_any_bytes = 24 },
	};
	struct dmo_layer_table table = { rows, 1 };
	struct dmo_model m;
	uint64_t os[2];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/%s", dir, DMO_LAYERS_CSV);
	load("layer,name,spec,inputs\n0,r1,\"relu:in=4x4x1\",\n1,r2,\"relu:in=4x4x1\",\n", &m);
	ck_assert_int_eq(dmo_layers_csv_write(path, &table, err, sizeof err), 0);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_MEASURED, dir, os, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "r2"));
	table.count = 2;
	ck_assert_int_eq(dmo_layers_csv_write(path, &table, err, sizeof err), 0);
	ck_assert_int_eq(dmo_plan_os(&m, DMO_OS_MEASURED, dir, os, err, sizeof err), 0);
	ck_assert_uint_eq(os[0], 16);
	ck_assert_uint_eq(os[1], 24);
	unlink(path);
	rmdir(dir);
	dmo_model_free(&m);
}
END_TEST

/* Every shipped table, with exact and with analytic O_s: the invariant
 * holds, overlaps never raise the peak, and the bound is below both. */
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
			ck_assert_uint_le(p.bound_dmo, p.peak_dmo);
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
	tcase_add_test(tc, residual);
	tcase_add_test(tc, verify_catches_wrong_os);
	tcase_add_test(tc, measured);
	tcase_add_test(tc, shipped_models);
	suite_add_tcase(s, tc);
	return dmo_run_suite(s);
}
