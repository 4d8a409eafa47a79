/* faulty_relu.c - backend plugins for the tests only (issue 28): relu f32
 * that goes wrong in its run, as another party's plugin might.  Built twice:
 * FAULTY_CRASH dereferences a null pointer (SIGSEGV); otherwise it computes
 * the right output and then writes a page past its end.  dmo must report
 * either as the backend's failure, keep every other backend's result, and
 * never die of it. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dmo/backend.h>

static size_t out_bytes;
#ifdef FAULTY_CRASH
static volatile uintptr_t nowhere; /* 0, hidden from the compiler */
#endif

static int faulty_init(const char *isa, char *err, size_t err_len)
{
	(void)isa;
	(void)err;
	(void)err_len;
	return 0;
}

static const char *faulty_text(void)
{
	return "faulty test plugin";
}

static void *faulty_prepare(const struct dmo_backend_op *op, char *err, size_t err_len)
{
	if (strcmp(op->op, "relu") != 0 || strcmp(op->dtype, "f32") != 0) {
		snprintf(err, err_len, "relu f32 only");
		return NULL;
	}
	out_bytes = op->out_bytes;
	return &out_bytes;
}

static const char *faulty_implementation(void *prepared)
{
	(void)prepared;
	return "";
}

static int faulty_run(void *prepared, const void *in, void *out)
{
	const float *x = in;
	float *y = out;

	(void)prepared;
#ifdef FAULTY_CRASH
	*(volatile float *)nowhere = 1.0f; /* a store through a null pointer */
#endif
	for (size_t i = 0; i < out_bytes / sizeof(float); i++)
		y[i] = x[i] > 0 ? x[i] : 0;
#ifndef FAULTY_CRASH
	memset((char *)out + out_bytes, 0x5a, 4096);
#endif
	return 0;
}

static void faulty_release(void *prepared)
{
	(void)prepared;
}

const struct dmo_backend *dmo_backend_v2(void)
{
	static const struct dmo_backend faulty = {
		.abi_version = DMO_BACKEND_ABI_VERSION,
#ifdef FAULTY_CRASH
		.name = "xnnpack",
#else
		.name = "onednn",
#endif
		.alignment = 1, .init = faulty_init, .version = faulty_text, .isa = faulty_text,
		.prepare = faulty_prepare, .implementation = faulty_implementation,
		.run = faulty_run, .release = faulty_release,
	};
	return &faulty;
}
