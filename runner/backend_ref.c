/* backend_ref.c - the `ref` backend: libdmokernels' reference kernels behind
 * the backend ABI, one thread, in the normative loop order (the one the
 * algorithmic and analytic methods replay). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "runner.h"

struct ref_op {
	struct dmo_op_run *run;
	const void *in2;
};

static int ref_init(const char *isa, char *err, size_t err_len)
{
	(void)isa; /* plain C compiled once: there is nothing to dispatch */
	(void)err;
	(void)err_len;
	return 0;
}

static const char *ref_version(void)
{
	return "libdmokernels " PACKAGE_VERSION;
}

static const char *ref_isa(void)
{
	return "compiled";
}

/* The runner derives the same weights from the spec text as the caller's,
 * so only the second operand, which a model may feed, is taken over. */
static void *ref_prepare(const struct dmo_backend_op *op, char *err, size_t err_len)
{
	struct dmo_opspec spec;
	struct ref_op *r;

	if (dmo_opspec_parse(op->spec, &spec, err, err_len) != 0)
		return NULL;
	r = calloc(1, sizeof *r);
	if (r == NULL)
		return NULL;
	r->run = dmo_op_prepare(&spec, err, err_len);
	if (r->run == NULL) {
		free(r);
		return NULL;
	}
	r->in2 = op->in2;
	return r;
}

static const char *ref_implementation(void *prepared)
{
	(void)prepared;
	return "reference loop order";
}

static int ref_run(void *prepared, const void *in, void *out)
{
	struct ref_op *r = prepared;

	return dmo_op_execute2(r->run, in, r->in2, out, 1, 0);
}

static void ref_release(void *prepared)
{
	struct ref_op *r = prepared;

	dmo_op_free(r->run);
	free(r);
}

const struct dmo_backend *dmo_backend_ref(void)
{
	static const struct dmo_backend ref = {
		.abi_version = DMO_BACKEND_ABI_VERSION,
		.name = "ref",
		.alignment = 1,
		.init = ref_init,
		.version = ref_version,
		.isa = ref_isa,
		.prepare = ref_prepare,
		.implementation = ref_implementation,
		.run = ref_run,
		.release = ref_release,
	};
	return &ref;
}
