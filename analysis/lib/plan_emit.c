/* plan_emit.c - a plan in the .tflite, in a C header, and back
 * (plan_emit.h). */
#include "plan_emit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "fs.h"
#include "tflite_plan.h"

void dmo_plan_kernels_text(const struct dmo_kernels *k, const struct dmo_plan *plan, char *buf,
			   size_t len)
{
	snprintf(buf, len, "kernels=%s\nversion=%s\nisa=%s\ndmo=%s\nalign=%" PRIu64 "\narena=%" PRIu64 "\n",
		 k->name, k->version, k->isa, PACKAGE_VERSION, plan->align, plan->peak_dmo);
}

void dmo_plan_kernels_of_text(const char *text, char *name, size_t len)
{
	const char *at = strstr(text, "kernels=");
	size_t n;

	name[0] = '\0';
	if (at == NULL || (at != text && at[-1] != '\n'))
		return;
	at += strlen("kernels=");
	n = strcspn(at, "\n");
	snprintf(name, len, "%.*s", (int)n, at);
}

/* The offline offset of every model tensor: the overlap plan's for those
 * in the arena, -1 for constants.  Returns 0, or -1 with ERR. */
static int32_t *tensor_offsets(const struct dmo_model *model, const struct dmo_plan *plan,
			       char *err, size_t err_len)
{
	int32_t *offsets = malloc((model->n_tensors + 1) * sizeof *offsets);

	if (offsets == NULL) {
		dmo_errf(err, err_len, "out of memory");
		return NULL;
	}
	for (size_t t = 0; t < model->n_tensors; t++)
		offsets[t] = -1;
	for (size_t i = 0; i < plan->n_tensors - plan->n_scratch; i++) {
		const struct dmo_plan_tensor *pt = &plan->tensors[i];

		if (pt->offset_dmo > INT32_MAX) {
			free(offsets);
			dmo_errf(err, err_len, "offset %" PRIu64 " does not fit TFLM's int32 plan",
				 pt->offset_dmo);
			return NULL;
		}
		offsets[pt->model_tensor] = (int32_t)pt->offset_dmo;
	}
	return offsets;
}

int dmo_plan_emit_tflite(const char *path, const struct dmo_model *model,
			 const struct dmo_plan *plan, const struct dmo_kernels *k, char *err,
			 size_t err_len)
{
	char text[512];
	unsigned char *bytes;
	size_t len;
	int32_t *offsets;
	int rc;

	if (model->format != DMO_FORMAT_TFLITE)
		return dmo_errf(err, err_len, "--emit-tflite needs a .tflite model");
	offsets = tensor_offsets(model, plan, err, err_len);
	if (offsets == NULL)
		return -1;
	dmo_plan_kernels_text(k, plan, text, sizeof text);
	rc = dmo_tflite_plan_write(model->blob, model->blob_len, offsets, (uint32_t)model->n_tensors,
				   text, &bytes, &len, err, err_len);
	free(offsets);
	if (rc != 0)
		return -1;
	rc = dmo_write_file(path, bytes, len, err, err_len);
	free(bytes);
	return rc;
}

/* NAME as a C identifier: letters and digits kept, anything else '_'. */
static void c_name(const char *name, char *buf, size_t len)
{
	size_t i = 0;

	for (; name[i] && i + 1 < len; i++)
		buf[i] = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
				 (name[i] >= '0' && name[i] <= '9') ? name[i] : '_';
	buf[i] = '\0';
}

int dmo_plan_emit_header(const char *path, const struct dmo_model *model,
			 const struct dmo_plan *plan, const struct dmo_kernels *k, char *err,
			 size_t err_len)
{
	char *text = NULL, ident[96];
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	int rc;

	if (out == NULL)
		return dmo_errf(err, err_len, "out of memory");
	fprintf(out, "/* Written by dmo %s (dmo plan --emit-header): the tensor arena of\n"
		" * this model with diagonal overlaps, safe for the kernels below only.\n"
		" * kernels: %s: %s%s%s */\n", PACKAGE_VERSION, k->name, dmo_kernels_describe(k),
		k->version[0] ? ", " : "", k->version);
	fprintf(out, "#ifndef DMO_PLAN_H_INCLUDED\n#define DMO_PLAN_H_INCLUDED\n\n");
	fprintf(out, "#define DMO_PLAN_KERNELS \"%s\"\n", k->name);
	fprintf(out, "/* Arena bytes, %s: offsets aligned to %" PRIu64 ", sizes rounded up to it%s */\n",
		dmo_plan_arena_kind(plan), plan->align,
		plan->whole_arena ? ", scratch buffers included"
				  : "; the kernels' scratch buffers, unknown to dmo, come on top");
	fprintf(out, "#define DMO_PLAN_ARENA_BYTES %" PRIu64 "u\n", plan->peak_dmo);
	fprintf(out, "#define DMO_PLAN_TENSORS %zu\n\n", model->n_tensors);
	fprintf(out, "/* Offset of each tensor by the model's tensor index; -1: a constant. */\n");
	fprintf(out, "static const long dmo_plan_offsets[DMO_PLAN_TENSORS] = {\n");
	for (size_t t = 0; t < model->n_tensors; t++) {
		long offset = -1;

		for (size_t i = 0; i < plan->n_tensors - plan->n_scratch; i++)
			if (plan->tensors[i].model_tensor == (int)t)
				offset = (long)plan->tensors[i].offset_dmo;
		c_name(model->tensors[t].name, ident, sizeof ident);
		fprintf(out, "\t%ld, /* %zu %s */\n", offset, t, ident);
	}
	fprintf(out, "};\n");
	for (size_t i = plan->n_tensors - plan->n_scratch; i < plan->n_tensors; i++)
		fprintf(out, "#define DMO_PLAN_SCRATCH_OPERATOR_%d_OFFSET %" PRIu64 "u /* %" PRIu64
			" bytes */\n", plan->tensors[i].producer, plan->tensors[i].offset_dmo,
			plan->tensors[i].bytes);
	fprintf(out, "\n#endif\n");
	if (fclose(out) != 0 || text == NULL) {
		free(text);
		return dmo_errf(err, err_len, "out of memory");
	}
	rc = dmo_write_file(path, text, size, err, err_len);
	free(text);
	return rc;
}

int dmo_plan_read_embedded(const struct dmo_model *model, const struct dmo_kernels *runs,
			   struct dmo_plan *plan, char *err, size_t err_len)
{
	struct dmo_tflite_plan embedded;
	char name[96], msg[512];
	int rc = 0;

	if (model->format != DMO_FORMAT_TFLITE)
		return dmo_errf(err, err_len, "--arena model needs a .tflite model");
	if (dmo_tflite_plan_read(model->blob, model->blob_len, &embedded, err, err_len) != 0)
		return -1;
	dmo_plan_kernels_of_text(embedded.kernels, name, sizeof name);
	if (!embedded.present)
		rc = dmo_errf(err, err_len, "the model carries no offline memory plan (%s): "
			      "write one with dmo plan --emit-tflite", DMO_TFLITE_PLAN_NAME);
	else if (name[0] == '\0')
		rc = dmo_errf(err, err_len, "the model's offline plan does not say which kernels it "
			      "holds for (no %s entry: not written by dmo); dmo runs %s kernels",
			      DMO_TFLITE_KERNELS_NAME, runs->name);
	else if (strcmp(name, runs->name) != 0)
		rc = dmo_errf(err, err_len, "the model's offline plan holds for %s kernels, but dmo "
			      "infer runs %s kernels: a plan is safe only for the kernels it was "
			      "measured on", name, runs->name);
	else if (embedded.n != model->n_tensors)
		rc = dmo_errf(err, err_len, "the offline plan has %u offsets for the model's %zu tensors",
			      embedded.n, model->n_tensors);
	for (size_t i = 0; rc == 0 && i < plan->n_tensors - plan->n_scratch; i++) {
		struct dmo_plan_tensor *pt = &plan->tensors[i];
		int32_t at = embedded.offsets[pt->model_tensor];

		if (at < 0)
			rc = dmo_errf(err, err_len, "tensor %d '%s' has no offline offset",
				      pt->model_tensor, model->tensors[pt->model_tensor].name);
		else
			pt->offset_dmo = (uint64_t)at;
	}
	dmo_tflite_plan_free(&embedded);
	if (rc != 0)
		return -1;
	plan->peak_dmo = 0;
	for (size_t i = 0; i < plan->n_tensors; i++)
		if (plan->tensors[i].offset_dmo + plan->tensors[i].bytes > plan->peak_dmo)
			plan->peak_dmo = plan->tensors[i].offset_dmo + plan->tensors[i].bytes;
	if (dmo_plan_check(plan, 1, msg, sizeof msg) != 0)
		return dmo_errf(err, err_len, "the model's offline plan is not safe for its %s "
				"kernels: %s", runs->name, msg);
	return 0;
}

int dmo_plan_print_embedded(FILE *out, const struct dmo_model *model, char *err, size_t err_len)
{
	struct dmo_tflite_plan embedded;
	uint64_t end = 0;
	size_t planned = 0;

	if (model->format != DMO_FORMAT_TFLITE)
		return 0;
	if (dmo_tflite_plan_read(model->blob, model->blob_len, &embedded, err, err_len) != 0)
		return -1;
	if (embedded.kernels[0] != '\0') {
		fprintf(out, "\nkernels entry (%s):", DMO_TFLITE_KERNELS_NAME);
		for (const char *p = embedded.kernels; *p; p++)
			if (*p != '\n')
				fprintf(out, "%s%c", p == embedded.kernels || p[-1] == '\n' ? " " : "", *p);
		fputc('\n', out);
	}
	if (!embedded.present) {
		dmo_tflite_plan_free(&embedded);
		return 0;
	}
	for (uint32_t t = 0; t < embedded.n && t < model->n_tensors; t++)
		if (embedded.offsets[t] >= 0 && model->tensors[t].producer != DMO_MODEL_CONSTANT) {
			planned++;
			if ((uint64_t)embedded.offsets[t] + model->tensors[t].bytes > end)
				end = (uint64_t)embedded.offsets[t] + model->tensors[t].bytes;
		}
	fprintf(out, "\noffline memory plan (%s, version %d, subgraph %d): %u offsets for the "
		"model's %zu tensors; %zu activations planned, ending at byte %" PRIu64
		" (activations only; TFLM fits -1 and scratch buffers around them)\n",
		DMO_TFLITE_PLAN_NAME, embedded.version, embedded.subgraph, embedded.n, model->n_tensors,
		planned, end);
	fprintf(out, "%7s %10s %10s  %s\n", "tensor", "offset", "bytes", "name");
	for (uint32_t t = 0; t < embedded.n && t < model->n_tensors; t++)
		if (embedded.offsets[t] >= 0 && model->tensors[t].producer != DMO_MODEL_CONSTANT)
			fprintf(out, "%7u %10d %10" PRIu64 "  %s\n", t, embedded.offsets[t],
				model->tensors[t].bytes, model->tensors[t].name);
	dmo_tflite_plan_free(&embedded);
	return 0;
}
