/* backend.c - loading backends and running op specs on them (backend.h).
 * The build defines DMO_TOP_BUILDDIR, DMO_BACKEND_BUILDDIR (where libtool
 * leaves the plugins in the build tree) and DMO_BACKEND_INSTALLDIR. */
#include "backend.h"

#include <dlfcn.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmokernels.h"
#include "runner.h"

const char *const dmo_backend_names[DMO_BACKEND_COUNT + 1] = { "ref", "xnnpack", "onednn", "openblas", "armnn",
					  "cmsis-nn", "cmsis-nn-dsp", "cmsis-nn-dsp-ac6",
					  NULL };
const char *const dmo_backend_isas[] = { "sse4", "avx", "avx2", NULL };

struct dmo_backend_handle {
	/* The plugin's descriptor, a version 1 one extended with the members
	 * version 2 added, left NULL. */
	struct dmo_backend desc;
	char isa[8];   /* the cap it was initialised with, "" for none */
	/* The plugin's dmo_backend_threads_v1, NULL when it has none. */
	int (*set_threads)(int threads, char *err, size_t err_len);
};

/* Loaded backends, one per name for the life of the process: a library is
 * initialised once (oneDNN takes its ISA cap before its first primitive
 * only), and keeps state (thread pools, caches, atexit handlers) past its
 * last call, so a plugin is never unloaded. */
static struct dmo_backend_handle *loaded[DMO_BACKEND_COUNT];

struct dmo_backend_run {
	struct dmo_backend_handle *handle;
	struct dmo_op_run *weights; /* the reference runner's, shared by every backend */
	struct dmo_backend_quant quant; /* the reference runner's, for integer ops */
	int32_t *out_mults, *out_shifts; /* its per-channel factors, owned, or NULL */
	void *prepared;
};

int dmo_backend_isa_valid(const char *isa)
{
	for (int i = 0; dmo_backend_isas[i] != NULL; i++)
		if (strcmp(isa, dmo_backend_isas[i]) == 0)
			return 1;
	return 0;
}

/* NAME's index in dmo_backend_names, or -1. */
static int name_index(const char *name)
{
	for (int i = 0; dmo_backend_names[i] != NULL; i++)
		if (strcmp(name, dmo_backend_names[i]) == 0)
			return i;
	return -1;
}

int dmo_backend_known(const char *name)
{
	return name_index(name) >= 0;
}

/* Whether the running program lives in the build tree. */
static int running_in_build_tree(void)
{
	char exe[PATH_MAX], root[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	size_t len;

	if (n <= 0 || realpath(DMO_TOP_BUILDDIR, root) == NULL)
		return 0;
	exe[n] = '\0';
	len = strlen(root);
	return strncmp(exe, root, len) == 0 && exe[len] == '/';
}

static const char *plugin_dir(void)
{
	const char *env = getenv("DMO_BACKEND_DIR");

	if (env != NULL && *env != '\0')
		return env;
	return running_in_build_tree() ? DMO_BACKEND_BUILDDIR : DMO_BACKEND_INSTALLDIR;
}

/* The descriptor of the plugin at PATH, into DESC: dmo_backend_v2, else a
 * version 1 descriptor (its members are the prefix of version 2's). */
static int open_plugin(const char *name, struct dmo_backend *desc, void **library, char *err,
		       size_t err_len)
{
	char path[PATH_MAX];
	const struct dmo_backend *(*entry)(void);
	const struct dmo_backend *found = NULL;

	snprintf(path, sizeof path, "%s/dmo-backend-%s.so", plugin_dir(), name);
	if (access(path, F_OK) != 0) {
		snprintf(err, err_len,
			 "backend %s is not available: %s is missing (configure did not find "
			 "the library, see its summary)", name, path);
		return -1;
	}
	*library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (*library == NULL) {
		snprintf(err, err_len, "backend %s: %s", name, dlerror());
		return -1;
	}
	*(void **)&entry = dlsym(*library, "dmo_backend_v2");
	if (entry != NULL && (found = entry()) != NULL &&
	    found->abi_version == DMO_BACKEND_ABI_VERSION) {
		*desc = *found;
		return 0;
	}
	*(void **)&entry = dlsym(*library, "dmo_backend_v1");
	if (found == NULL && entry != NULL && (found = entry()) != NULL &&
	    found->abi_version == DMO_BACKEND_ABI_VERSION_1) {
		memset(desc, 0, sizeof *desc);
		memcpy(desc, found, offsetof(struct dmo_backend, scratch_bytes));
		return 0;
	}
	if (found != NULL)
		snprintf(err, err_len, "backend %s: %s's descriptor says ABI version %u, which its "
			 "entry point does not take (dmo_backend_v2 returns version %d, "
			 "dmo_backend_v1 version %d)", name, path, found->abi_version,
			 DMO_BACKEND_ABI_VERSION, DMO_BACKEND_ABI_VERSION_1);
	else
		snprintf(err, err_len, "backend %s: %s exports neither a version %d descriptor "
			 "(dmo_backend_v2) nor a version %d one (dmo_backend_v1)", name, path,
			 DMO_BACKEND_ABI_VERSION, DMO_BACKEND_ABI_VERSION_1);
	dlclose(*library);
	*library = NULL;
	return -1;
}

struct dmo_backend_handle *dmo_backend_load(const char *name, const char *isa, char *err,
					    size_t err_len)
{
	struct dmo_backend_handle *h;
	void *library = NULL;
	struct dmo_backend desc;
	int index = name_index(name);

	if (index < 0) {
		snprintf(err, err_len, "unknown backend '%s' (known: " DMO_BACKEND_NAMES_TEXT ")",
			 name);
		return NULL;
	}
	if (isa != NULL && !dmo_backend_isa_valid(isa)) {
		snprintf(err, err_len, "unknown ISA cap '%s' (known: sse4 avx avx2)", isa);
		return NULL;
	}
	if (loaded[index] != NULL) {
		if (strcmp(loaded[index]->isa, isa ? isa : "") == 0)
			return loaded[index];
		snprintf(err, err_len, "backend %s is already initialised with ISA cap '%s'", name,
			 loaded[index]->isa);
		return NULL;
	}
	if (strcmp(name, "ref") == 0)
		desc = *dmo_backend_ref();
	else if (open_plugin(name, &desc, &library, err, err_len) != 0)
		return NULL;
	if (desc.init(isa, err, err_len) != 0 || (h = calloc(1, sizeof *h)) == NULL) {
		if (library != NULL)
			dlclose(library);
		return NULL;
	}
	h->desc = desc;
	if (library != NULL)
		*(void **)&h->set_threads = dlsym(library, "dmo_backend_threads_v1");
	snprintf(h->isa, sizeof h->isa, "%s", isa ? isa : "");
	loaded[index] = h;
	return h;
}

const struct dmo_backend *dmo_backend_desc(const struct dmo_backend_handle *handle)
{
	return &handle->desc;
}

/* Q as the ABI carries it, into R->quant (per-channel factors copied, the
 * shifts as int32, OUT_C of each). */
static int export_quant(struct dmo_backend_run *r, const struct dk_quant *q, int out_c)
{
	r->quant = (struct dmo_backend_quant){
		.in_zero = q->in_zero, .in2_zero = q->in2_zero, .filter_zero = q->filter_zero,
		.out_zero = q->out_zero, .out_mult = q->out_mult, .out_shift = q->out_shift,
		.left_shift = q->left_shift,
		.in_mult = q->in_mult, .in_shift = q->in_shift,
		.in2_mult = q->in2_mult, .in2_shift = q->in2_shift, .diff_min = q->diff_min,
		.act_min = q->act_min, .act_max = q->act_max, .single_rounding = q->single_rounding,
	};
	if (q->out_mults == NULL || q->out_shifts == NULL)
		return 0;
	r->out_mults = malloc(sizeof *r->out_mults * (size_t)out_c);
	r->out_shifts = malloc(sizeof *r->out_shifts * (size_t)out_c);
	if (r->out_mults == NULL || r->out_shifts == NULL)
		return -1;
	for (int c = 0; c < out_c; c++) {
		r->out_mults[c] = q->out_mults[c];
		r->out_shifts[c] = q->out_shifts[c];
	}
	r->quant.out_mults = r->out_mults;
	r->quant.out_shifts = r->out_shifts;
	return 0;
}

int dmo_backend_set_threads(struct dmo_backend_handle *handle, int threads, char *err,
			    size_t err_len)
{
	if (handle->set_threads != NULL)
		return handle->set_threads(threads, err, err_len);
	if (threads == 1)
		return 0;
	snprintf(err, err_len, "backend %s runs one thread (it has no pool of its own); "
		 "--threads %d needs a backend that has one (xnnpack, onednn) or the default "
		 "reference runner", handle->desc.name, threads);
	return -1;
}

struct dmo_backend_run *dmo_backend_prepare_op(struct dmo_backend_handle *handle,
					       struct dmo_backend_op *op, const struct dk_quant *q,
					       const float scales[3], struct dmo_op_run *weights,
					       char *err, size_t err_len)
{
	struct dmo_backend_run *r = calloc(1, sizeof *r);

	if (r == NULL) {
		snprintf(err, err_len, "out of memory");
		dmo_op_free(weights);
		return NULL;
	}
	r->handle = handle;
	r->weights = weights;
	if (q != NULL && handle->desc.abi_version == DMO_BACKEND_ABI_VERSION_1) {
		snprintf(err, err_len, "backend %s is written for version 1 of the backend ABI, "
			 "which carries no quantisation: it runs f32 ops only", handle->desc.name);
		goto fail;
	}
	if (q != NULL) {
		if (export_quant(r, q, op->out_c) != 0) {
			snprintf(err, err_len, "out of memory");
			goto fail;
		}
		if (scales != NULL) {
			r->quant.in_scale = scales[0];
			r->quant.in2_scale = scales[1];
			r->quant.out_scale = scales[2];
		}
		op->quant = &r->quant;
	}
	r->prepared = handle->desc.prepare(op, err, err_len);
	if (r->prepared != NULL)
		return r;
fail:
	dmo_op_free(r->weights);
	free(r->out_mults);
	free(r->out_shifts);
	free(r);
	return NULL;
}

struct dmo_backend_run *dmo_backend_prepare(struct dmo_backend_handle *handle,
					    const struct dmo_opspec *spec, const void *in2,
					    char *err, size_t err_len)
{
	struct dmo_op_run *weights;
	struct dmo_op_weights w;
	char text[512];

	/* The ABI's op has NHWC buffers and no groups: an NCHW spec (a
	 * grouped conv2d among them) is the reference kernels' alone. */
	if (spec->layout == DMO_LAYOUT_NCHW && strcmp(handle->desc.name, "ref") != 0) {
		snprintf(err, err_len, "backend %s takes NHWC op specs only (the backend ABI has no "
			 "layout or group); layout=nchw runs on ref", handle->desc.name);
		return NULL;
	}
	weights = dmo_op_prepare(spec, err, err_len);
	if (weights == NULL)
		return NULL;
	dmo_op_weights(weights, &w);
	dmo_opspec_format(spec, text, sizeof text);
	struct dmo_backend_op op = {
		.spec = text, .op = dmo_op_name(spec->op), .dtype = dmo_dtype_name(spec->dtype),
		.batch = spec->batch, .in_h = spec->in_h, .in_w = spec->in_w, .in_c = spec->in_c,
		.out_h = spec->out_h, .out_w = spec->out_w, .out_c = spec->out_c,
		.k_h = spec->k_h, .k_w = spec->k_w,
		.stride_h = spec->stride_h, .stride_w = spec->stride_w,
		.dil_h = spec->dil_h, .dil_w = spec->dil_w,
		.pad_top = spec->pad_top, .pad_left = spec->pad_left,
		.pad_bottom = spec->pad_bottom, .pad_right = spec->pad_right,
		.mult = spec->mult,
		.in_bytes = dmo_opspec_in_bytes(spec), .out_bytes = dmo_opspec_out_bytes(spec),
		.filter = w.filter, .bias = w.bias, .in2 = in2 != NULL ? in2 : w.in2,
	};
	return dmo_backend_prepare_op(handle, &op,
				      spec->dtype != DMO_F32 ? &dmo_op_params(weights)->q : NULL,
				      NULL, weights, err, err_len);
}

int dmo_backend_check(struct dmo_backend_handle *handle, const struct dmo_opspec *spec,
		      char *err, size_t err_len)
{
	struct dmo_backend_run *run;

	if (handle->desc.flags & DMO_BACKEND_COPIES) {
		snprintf(err, err_len, "backend %s copies its input or output: profiling would "
			 "measure the copy, not the kernel", handle->desc.name);
		return -1;
	}
	run = dmo_backend_prepare(handle, spec, NULL, err, err_len);

	dmo_backend_release(run);
	return run != NULL ? 0 : -1;
}

int dmo_backend_execute(struct dmo_backend_run *run, const void *in, void *out)
{
	return run->handle->desc.run(run->prepared, in, out);
}

const char *dmo_backend_implementation(const struct dmo_backend_run *run)
{
	const char *impl = run->handle->desc.implementation(run->prepared);

	return impl != NULL ? impl : "";
}

size_t dmo_backend_scratch_bytes(const struct dmo_backend_run *run)
{
	size_t (*scratch)(void *) = run->handle->desc.scratch_bytes;

	return scratch != NULL ? scratch(run->prepared) : 0;
}

void dmo_backend_release(struct dmo_backend_run *run)
{
	if (run == NULL)
		return;
	run->handle->desc.release(run->prepared);
	dmo_op_free(run->weights);
	free(run->out_mults);
	free(run->out_shifts);
	free(run);
}
