/* kernels.c - the kernel sets dmo knows, and a run directory's kernels.csv
 * (kernels.h). */
#include "kernels.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "backend_info.h"
#include "errbuf.h"
#include "fs.h"
#include "model_table.h"
#include "rundir.h"

/* The kernel sets of issue 26 beside dmo's own: CMSIS-NN as backends, and
 * TFLM with its reference or CMSIS-NN kernels.  The DSP variants are the
 * ARM_MATH_DSP path of Cortex-M4/M7/M33; "ac6" its Arm Compiler 6 branches
 * (their O_s differ: docs/plan.md, "Kernels"). */
static const struct known {
	const char *name;
	enum dmo_kernels_kind kind;
	const char *words;
} known[] = {
	{ DMO_KERNELS_REF_NAME, DMO_KERNELS_REF,
	  "dmo's reference kernels (TFLM reference loop order)" },
	{ "cmsis-nn", DMO_KERNELS_BACKEND, "CMSIS-NN, portable C path" },
	{ "cmsis-nn-dsp", DMO_KERNELS_BACKEND, "CMSIS-NN, DSP path (Cortex-M4/M7/M33), gcc branches" },
	{ "cmsis-nn-dsp-ac6", DMO_KERNELS_BACKEND,
	  "CMSIS-NN, DSP path (Cortex-M4/M7/M33), Arm Compiler 6 branches" },
	{ "tflm", DMO_KERNELS_RUNTIME, "TensorFlow Lite Micro's reference kernels, inside TFLM" },
	{ "tflm-cmsis-nn", DMO_KERNELS_RUNTIME, "TensorFlow Lite Micro with CMSIS-NN, portable C path" },
	{ "tflm-cmsis-nn-dsp", DMO_KERNELS_RUNTIME,
	  "TensorFlow Lite Micro with CMSIS-NN, DSP path, gcc branches" },
	{ "tflm-cmsis-nn-dsp-ac6", DMO_KERNELS_RUNTIME,
	  "TensorFlow Lite Micro with CMSIS-NN, DSP path, Arm Compiler 6 branches" },
};

#define N_KNOWN (sizeof known / sizeof known[0])
#define PROGRAM_PREFIX "program:"

static const char *const kind_names[] = { "ref", "backend", "runtime", "program" };

static const struct known *find_known(const char *name)
{
	for (size_t i = 0; i < N_KNOWN; i++)
		if (strcmp(known[i].name, name) == 0)
			return &known[i];
	return NULL;
}

const char *dmo_kernels_runtime(size_t i)
{
	for (size_t k = 0; k < N_KNOWN; k++)
		if (known[k].kind == DMO_KERNELS_RUNTIME && i-- == 0)
			return known[k].name;
	return NULL;
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

int dmo_kernels_named(const char *name, struct dmo_kernels *k, char *err, size_t err_len)
{
	const struct known *set = find_known(name);
	char list[512] = "";

	memset(k, 0, sizeof *k);
	if (strlen(name) >= sizeof k->name)
		return dmo_errf(err, err_len, "kernels '%.40s...': name too long", name);
	copy(k->name, sizeof k->name, name);
	if (set != NULL) {
		k->kind = set->kind;
		return 0;
	}
	if (dmo_backend_known(name)) {
		k->kind = DMO_KERNELS_BACKEND;
		return 0;
	}
	if (strncmp(name, PROGRAM_PREFIX, strlen(PROGRAM_PREFIX)) == 0 &&
	    name[strlen(PROGRAM_PREFIX)] != '\0') {
		k->kind = DMO_KERNELS_PROGRAM;
		return 0;
	}
	for (size_t i = 0; i < N_KNOWN; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s ", known[i].name);
	for (size_t i = 0; dmo_backend_names[i] != NULL; i++)
		if (find_known(dmo_backend_names[i]) == NULL)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s ",
				 dmo_backend_names[i]);
	return dmo_errf(err, err_len, "unknown kernels '%s'; dmo knows %sand program:NAME", name, list);
}

const char *dmo_kernels_describe(const struct dmo_kernels *k)
{
	const struct known *set = find_known(k->name);

	if (set != NULL)
		return set->words;
	switch (k->kind) {
	case DMO_KERNELS_BACKEND:
		return "a backend's kernels (dmo run --backend, docs/backends.md)";
	case DMO_KERNELS_PROGRAM:
		return "a program's own kernels, profiled by dmo profile";
	default:
		return "kernels no run directory names";
	}
}

int dmo_kernels_of_backend(const char *name, const char *isa, struct dmo_kernels *k, char *err,
			   size_t err_len)
{
	struct dmo_backend_handle *h = dmo_backend_load(name, isa, err, err_len);
	const struct dmo_backend *desc;

	if (h == NULL || dmo_kernels_named(name, k, err, err_len) != 0)
		return -1;
	desc = dmo_backend_desc(h);
	copy(k->variant, sizeof k->variant, isa ? isa : "");
	copy(k->version, sizeof k->version, desc->version());
	copy(k->isa, sizeof k->isa, desc->isa());
	return 0;
}

void dmo_kernels_of_program(const char *program, struct dmo_kernels *k)
{
	const char *base = strrchr(program, '/');

	memset(k, 0, sizeof *k);
	k->kind = DMO_KERNELS_PROGRAM;
	snprintf(k->name, sizeof k->name, PROGRAM_PREFIX "%.80s", base ? base + 1 : program);
}

static void csv_field(FILE *out, const char *text, int last)
{
	csv_fwrite(out, text, strlen(text));
	fputc(last ? '\n' : ',', out);
}

int dmo_kernels_write(const char *dir, const struct dmo_kernels *k, char *err, size_t err_len)
{
	char path[4096];
	struct dmo_out written;
	FILE *out;

	snprintf(path, sizeof path, "%s/%s", dir, DMO_KERNELS_CSV);
	if ((out = dmo_out_open(&written, path, err, err_len)) == NULL)
		return -1;
	fputs("kernels,kind,variant,version,isa\n", out);
	csv_field(out, k->name, 0);
	csv_field(out, kind_names[k->kind], 0);
	csv_field(out, k->variant, 0);
	csv_field(out, k->version, 0);
	csv_field(out, k->isa, 1);
	return dmo_out_commit(&written, err, err_len);
}

/* kernels.csv: its header, then one row; fields by position. */
enum { K_NAME, K_KIND, K_VARIANT, K_VERSION, K_ISA, K_FIELDS };

struct kernels_reader {
	struct dmo_kernels *k;
	char fields[2][K_FIELDS][96];
	int field, rows, failed;
};

static void on_kernels_field(void *text, size_t len, void *data)
{
	struct kernels_reader *rd = data;

	if (rd->rows >= 2 || rd->field >= K_FIELDS || len >= sizeof rd->fields[0][0] ||
	    memchr(text, '\0', len) != NULL) {
		rd->failed = 1;
		return;
	}
	memcpy(rd->fields[rd->rows][rd->field], text, len);
	rd->fields[rd->rows][rd->field++][len] = '\0';
}

static void on_kernels_row(int terminator, void *data)
{
	struct kernels_reader *rd = data;
	(void)terminator;

	if (rd->field != K_FIELDS)
		rd->failed = 1;
	rd->field = 0;
	rd->rows++;
}

static int read_kernels_csv(const char *path, struct dmo_kernels *k, char *err, size_t err_len)
{
	struct kernels_reader rd = { .k = k };
	struct csv_parser parser;
	char buf[1024];
	size_t n;
	int kind = -1;
	FILE *in = fopen(path, "rb");

	if (in == NULL)
		return dmo_errf(err, err_len, "%s: %s", path, strerror(errno));
	csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
	while (!rd.failed && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (csv_parse(&parser, buf, n, on_kernels_field, on_kernels_row, &rd) != n)
			rd.failed = 1;
	if (!rd.failed && csv_fini(&parser, on_kernels_field, on_kernels_row, &rd) != 0)
		rd.failed = 1;
	csv_free(&parser);
	fclose(in);
	for (int i = 0; !rd.failed && rd.rows == 2 && i < 4; i++)
		if (strcmp(rd.fields[1][K_KIND], kind_names[i]) == 0)
			kind = i;
	if (rd.failed || rd.rows != 2 || strcmp(rd.fields[0][K_NAME], "kernels") != 0 || kind < 0 ||
	    rd.fields[1][K_NAME][0] == '\0')
		return dmo_errf(err, err_len, "%s: not a kernels.csv of dmo (a header "
				"kernels,kind,variant,version,isa and one row)", path);
	memset(k, 0, sizeof *k);
	copy(k->name, sizeof k->name, rd.fields[1][K_NAME]);
	k->kind = (enum dmo_kernels_kind)kind;
	copy(k->variant, sizeof k->variant, rd.fields[1][K_VARIANT]);
	copy(k->version, sizeof k->version, rd.fields[1][K_VERSION]);
	copy(k->isa, sizeof k->isa, rd.fields[1][K_ISA]);
	return 0;
}

int dmo_kernels_read(const char *dir, struct dmo_kernels *k, char *err, size_t err_len)
{
	struct dmo_backend_info_table info;
	char path[4096];
	FILE *probe;

	snprintf(path, sizeof path, "%s/%s", dir, DMO_KERNELS_CSV);
	if ((probe = fopen(path, "rb")) != NULL || errno != ENOENT) {
		if (probe != NULL)
			fclose(probe);
		return read_kernels_csv(path, k, err, err_len);
	}
	memset(k, 0, sizeof *k);
	copy(k->name, sizeof k->name, "unknown");
	k->kind = DMO_KERNELS_PROGRAM;
	if (dmo_backend_info_read(dir, &info, err, err_len) != 0)
		return -1;
	/* A run from before kernels.csv: backend.csv names each layer's. */
	for (size_t i = 0; i < info.count; i++)
		if (i > 0 && (strcmp(info.rows[i].backend, info.rows[0].backend) != 0 ||
			      strcmp(info.rows[i].version, info.rows[0].version) != 0)) {
			dmo_backend_info_free(&info);
			return 1;
		}
	if (info.count == 0) {
		dmo_backend_info_free(&info);
		return 1;
	}
	dmo_kernels_named(info.rows[0].backend, k, err, err_len);
	copy(k->variant, sizeof k->variant, info.rows[0].isa_cap);
	copy(k->version, sizeof k->version, info.rows[0].version);
	copy(k->isa, sizeof k->isa, info.rows[0].isa);
	dmo_backend_info_free(&info);
	return 0;
}

int dmo_kernels_of_os(const char *source, struct dmo_kernels *k, char *err, size_t err_len)
{
	if (strncmp(source, "measured:", 9) == 0)
		return dmo_kernels_read(source + 9, k, err, err_len);
	return dmo_kernels_of_backend(DMO_KERNELS_REF_NAME, NULL, k, err, err_len);
}

int dmo_kernels_check_run(const struct dmo_kernels *os, int unknown, const struct dmo_kernels *runs,
			  const char *what, char *err, size_t err_len)
{
	char a[256], b[256];

	if (!unknown && dmo_kernels_same(os, runs))
		return 0;
	dmo_kernels_label(runs, b, sizeof b);
	if (unknown)
		return dmo_errf(err, err_len, "%s runs %s kernels, but the run directory of the O_s "
				"does not say which kernels it measured (no %s): profile them again "
				"(dmo run, or dmo profile --kernels NAME)", what, b, DMO_KERNELS_CSV);
	dmo_kernels_label(os, a, sizeof a);
	return dmo_errf(err, err_len, "%s runs %s kernels, but the O_s were measured on %s: a plan "
			"is safe only for the kernels it was measured on", what, b, a);
}

int dmo_kernels_same(const struct dmo_kernels *a, const struct dmo_kernels *b)
{
	return strcmp(a->name, b->name) == 0 &&
	       (!a->version[0] || !b->version[0] || strcmp(a->version, b->version) == 0) &&
	       (!a->isa[0] || !b->isa[0] || strcmp(a->isa, b->isa) == 0);
}

void dmo_kernels_label(const struct dmo_kernels *k, char *buf, size_t len)
{
	if (k->version[0] || k->isa[0])
		snprintf(buf, len, "%s (%s%s%s)", k->name, k->version,
			 k->version[0] && k->isa[0] ? ", " : "", k->isa);
	else
		snprintf(buf, len, "%s", k->name);
}

int dmo_kernels_scratch(const struct dmo_kernels *k, const struct dmo_model *model, size_t layer,
			unsigned long long *bytes, char *err, size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[layer];
	const char *backend = k->name;
	struct dmo_backend_handle *h;
	struct dmo_backend_run *run;
	char refused[256];

	*bytes = 0;
	/* dmo's and TFLM's reference kernels take no scratch buffer. */
	if (k->kind == DMO_KERNELS_REF || strcmp(k->name, "tflm") == 0)
		return 0;
	/* TFLM's CMSIS-NN builds ask CMSIS-NN's own *_get_buffer_size, as the
	 * cmsis-nn backend of the same variant does (docs/backends.md). */
	if (k->kind == DMO_KERNELS_RUNTIME && strncmp(k->name, "tflm-", 5) == 0)
		backend = k->name + 5;
	else if (k->kind != DMO_KERNELS_BACKEND)
		return dmo_errf(err, err_len, "the scratch buffers of %s kernels are unknown to dmo",
				k->name);
	/* Every op that takes scratch in CMSIS-NN (conv, depthwise, fc,
	 * pools) has an op spec; a layer without one runs TFLM's reference
	 * kernel, which takes none. */
	if (!l->supported)
		return 0;
	if ((h = dmo_backend_load(backend, NULL, err, err_len)) == NULL)
		return -1;
	/* The size depends on the geometry only, so the op spec's own
	 * quantisation gives the model's. A layer the backend refuses runs on
	 * the reference kernels, without scratch. */
	if ((run = dmo_backend_prepare(h, &l->op, NULL, refused, sizeof refused)) == NULL)
		return 0;
	*bytes = dmo_backend_scratch_bytes(run);
	dmo_backend_release(run);
	return 0;
}
