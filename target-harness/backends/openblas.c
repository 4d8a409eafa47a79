/* openblas.c - the `openblas` backend: fully connected as OpenBLAS's
 * cblas_sgemm (beta = 0) plus the bias by cblas_saxpy, one thread, behind
 * <dmo/backend.h>.  OpenBLAS has no convolution, pooling or element-wise
 * op; dmo does not write an im2col of its own, so those are refused.
 *
 * OpenBLAS picks its core (kernel set) when the library is loaded, from
 * OPENBLAS_CORETYPE or the CPU, so this plugin loads it itself, in init,
 * after setting the cap: the same core natively and under Valgrind. */
#include <dlfcn.h>
#include <stdlib.h>

#include "plugin.h"

/* cblas.h's enum values (CBLAS is a fixed standard). */
enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };

static void (*sgemm)(int order, int trans_a, int trans_b, int m, int n, int k, float alpha,
		     const float *a, int lda, const float *b, int ldb, float beta, float *c,
		     int ldc);
static void (*saxpy)(int n, float alpha, const float *x, int incx, float *y, int incy);
static char *(*get_corename)(void);
static char *(*get_config)(void);
static char version_text[96];

struct blas_fc {
	int rows, units, depth;
	const float *weights, *bias;
};

static int openblas_init(const char *isa, char *err, size_t err_len)
{
	static const char *const cores[] = { NULL, "Nehalem", "Sandybridge", "Haswell" };
	const char *core = cores[isa_rank(isa)];
	void *lib;

	if (core != NULL)
		setenv("OPENBLAS_CORETYPE", core, 1);
	setenv("OPENBLAS_NUM_THREADS", "1", 1);
	lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		snprintf(err, err_len, "openblas: %s", dlerror());
		return -1;
	}
	*(void **)&sgemm = dlsym(lib, "cblas_sgemm");
	*(void **)&saxpy = dlsym(lib, "cblas_saxpy");
	*(void **)&get_corename = dlsym(lib, "openblas_get_corename");
	*(void **)&get_config = dlsym(lib, "openblas_get_config");
	if (sgemm == NULL || saxpy == NULL || get_corename == NULL || get_config == NULL) {
		snprintf(err, err_len, "openblas: libopenblas.so.0 lacks cblas_sgemm or its info calls");
		return -1;
	}
	snprintf(version_text, sizeof version_text, "%s", get_config());
	return 0;
}

static const char *openblas_version(void)
{
	return version_text;
}

static const char *openblas_isa(void)
{
	return get_corename();
}

static void *openblas_prepare(const struct dmo_backend_op *op, char *err, size_t err_len)
{
	struct blas_fc *f;

	if (refuse_non_f32(op, "openblas", err, err_len) != 0)
		return NULL;
	if (!op_is(op, "fc")) {
		snprintf(err, err_len, "openblas backend runs fc only (sgemm); OpenBLAS has no %s",
			 op->op);
		return NULL;
	}
	f = malloc(sizeof *f);
	if (f == NULL)
		return NULL;
	*f = (struct blas_fc){ op->batch, op->out_c, op->in_h * op->in_w * op->in_c, op->filter,
			       op->bias };
	return f;
}

static const char *openblas_implementation(void *prepared)
{
	(void)prepared;
	return "cblas_sgemm(beta=0) + cblas_saxpy";
}

/* out[N][units] = in[N][depth] x weights[units][depth]^T, then + bias. */
static int openblas_run(void *prepared, const void *in, void *out)
{
	const struct blas_fc *f = prepared;
	float *rows = out;

	sgemm(ROW_MAJOR, NO_TRANS, TRANS, f->rows, f->units, f->depth, 1.0f, in, f->depth,
	      f->weights, f->depth, 0.0f, rows, f->units);
	for (int r = 0; r < f->rows; r++)
		saxpy(f->units, 1.0f, f->bias, 1, rows + (size_t)r * f->units, 1);
	return 0;
}

static void openblas_release(void *prepared)
{
	free(prepared);
}

const struct dmo_backend *dmo_backend_v2(void)
{
	static const struct dmo_backend backend = {
		.abi_version = DMO_BACKEND_ABI_VERSION,
		.name = "openblas",
		.alignment = 1,
		.init = openblas_init,
		.version = openblas_version,
		.isa = openblas_isa,
		.prepare = openblas_prepare,
		.implementation = openblas_implementation,
		.run = openblas_run,
		.release = openblas_release,
	};
	return &backend;
}
