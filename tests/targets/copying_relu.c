/* copying_relu.c - a backend plugin for the tests only: relu through a
 * buffer of its own (copy in, compute, copy out), flagged
 * DMO_BACKEND_COPIES.  dmo must refuse to profile it and still verify it.
 * It is written for version 1 of the ABI (dmo_backend_v1, no scratch
 * size), so the same tests show that such a plugin still loads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmo/backend.h>

struct copying_relu {
	size_t bytes;
	float *scratch;
};

/* It claims no sse4 build, so that cap fails init: the case of a plugin
 * whose init fails (dmo compare loads it with its default cap, avx2). */
static int copy_init(const char *isa, char *err, size_t err_len)
{
	if (isa != NULL && strcmp(isa, "sse4") == 0) {
		snprintf(err, err_len, "the copying test backend has no sse4 build");
		return -1;
	}
	return 0;
}

static const char *copy_text(void)
{
	return "test";
}

static void *copy_prepare(const struct dmo_backend_op *op, char *err, size_t err_len)
{
	struct copying_relu *r;

	if (strcmp(op->op, "relu") != 0 || strcmp(op->dtype, "f32") != 0) {
		snprintf(err, err_len, "relu f32 only");
		return NULL;
	}
	r = malloc(sizeof *r);
	if (r == NULL)
		return NULL;
	r->bytes = op->in_bytes;
	r->scratch = malloc(op->in_bytes);
	if (r->scratch == NULL) {
		free(r);
		return NULL;
	}
	return r;
}

static const char *copy_implementation(void *p)
{
	(void)p;
	return "copy in, compute, copy out";
}

static int copy_run(void *p, const void *in, void *out)
{
	struct copying_relu *r = p;

	memcpy(r->scratch, in, r->bytes);
	for (size_t i = 0; i < r->bytes / sizeof(float); i++)
		r->scratch[i] = r->scratch[i] > 0 ? r->scratch[i] : 0;
	memcpy(out, r->scratch, r->bytes);
	return 0;
}

static void copy_release(void *p)
{
	struct copying_relu *r = p;

	free(r->scratch);
	free(r);
}

const struct dmo_backend *dmo_backend_v1(void)
{
	static const struct dmo_backend copying = {
		.abi_version = DMO_BACKEND_ABI_VERSION_1, .name = "onednn", .alignment = 1,
		.init = copy_init, .version = copy_text, .isa = copy_text,
		.prepare = copy_prepare, .implementation = copy_implementation,
		.run = copy_run, .release = copy_release, .flags = DMO_BACKEND_COPIES,
	};
	return &copying;
}
