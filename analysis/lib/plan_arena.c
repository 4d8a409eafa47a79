/* plan_arena.c - a plan's offsets, read from CSV or run with real weights
 * (plan_arena.h). */
#include "plan_arena.h"
#include "rundir.h" /* dmo_rundir_open */

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dmo_plan_offsets(const struct dmo_model *model, const struct dmo_plan *plan,
		      int with_overlaps, uint64_t *offsets)
{
	memset(offsets, 0, (model->n_tensors ? model->n_tensors : 1) * sizeof *offsets);
	for (size_t i = 0; i < plan->n_tensors - plan->n_scratch; i++)
		offsets[plan->tensors[i].model_tensor] =
			with_overlaps ? plan->tensors[i].offset_dmo : plan->tensors[i].offset_plain;
}

/* The columns of `dmo plan --csv` this reader needs, found by name. */
enum { COL_LAYER, COL_NAME, COL_OUT_BYTES, COL_OFFSET, N_COLS };
static const char *const col_names[N_COLS] = { "layer", "name", "out_bytes", "offset_dmo" };

struct plan_reader {
	const struct dmo_model *model;
	struct dmo_plan *plan;
	uint64_t *offsets;      /* per plan tensor, from the file */
	int where[32];          /* header field -> COL_*, or -1 */
	int fields, field, seen;
	char text[N_COLS][256]; /* this row's fields */
	size_t line, row;
	char *err;
	size_t err_len;
	int failed;
};

static void plan_fail(struct plan_reader *rd, const char *fmt, const char *detail)
{
	if (rd->failed)
		return;
	char what[512];
	snprintf(what, sizeof what, fmt, detail);
	snprintf(rd->err, rd->err_len, "line %zu: %s", rd->line, what);
	rd->failed = 1;
}

static void on_plan_field(void *text, size_t len, void *data)
{
	struct plan_reader *rd = data;
	int f = rd->field++;

	if (rd->failed)
		return;
	if (f >= (int)(sizeof rd->where / sizeof rd->where[0])) {
		plan_fail(rd, "%s", "too many fields");
		return;
	}
	if (rd->line == 1) {
		rd->where[f] = -1;
		for (int c = 0; c < N_COLS; c++)
			if (len == strlen(col_names[c]) && !memcmp(text, col_names[c], len)) {
				rd->where[f] = c;
				rd->seen |= 1 << c;
			}
		return;
	}
	if (f >= rd->fields) {
		plan_fail(rd, "%s", "more fields than the header");
		return;
	}
	if (rd->where[f] < 0)
		return;
	if (len >= sizeof rd->text[0] || memchr(text, '\0', len)) {
		plan_fail(rd, "%s", "a field too long or holding a NUL byte");
		return;
	}
	memcpy(rd->text[rd->where[f]], text, len);
	rd->text[rd->where[f]][len] = '\0';
}

static int parse_u64(const char *text, uint64_t *value)
{
	char *end;

	errno = 0;
	*value = strtoull(text, &end, 10);
	return errno || end == text || *end || *text == '-' ? -1 : 0;
}

/* Row R of the file against plan tensor R: same producer, name, size. */
static void check_row(struct plan_reader *rd)
{
	const struct dmo_plan_tensor *pt = &rd->plan->tensors[rd->row];
	uint64_t bytes, offset;
	char layer[24] = "-";

	if (pt->producer >= 0)
		snprintf(layer, sizeof layer, "%d", pt->producer + 1); /* shown from 1 */
	if (strcmp(rd->text[COL_LAYER], layer))
		plan_fail(rd, "layer '%s' where this model's plan has another tensor", rd->text[COL_LAYER]);
	else if (pt->producer >= 0 && strcmp(rd->text[COL_NAME], rd->model->layers[pt->producer].name))
		plan_fail(rd, "layer name '%s' is not this model's", rd->text[COL_NAME]);
	else if (parse_u64(rd->text[COL_OUT_BYTES], &bytes) || bytes != pt->bytes)
		plan_fail(rd, "out_bytes '%s' is not this tensor's size", rd->text[COL_OUT_BYTES]);
	else if (parse_u64(rd->text[COL_OFFSET], &offset) || offset > UINT64_MAX / 2)
		plan_fail(rd, "offset_dmo '%s' is not a byte offset", rd->text[COL_OFFSET]);
	else
		rd->offsets[rd->row] = offset;
}

static void on_plan_row(int terminator, void *data)
{
	struct plan_reader *rd = data;
	(void)terminator;

	if (!rd->failed && rd->line == 1) {
		rd->fields = rd->field;
		if (rd->seen != (1 << N_COLS) - 1)
			plan_fail(rd, "%s", "the header lacks a column of `dmo plan --csv` "
					    "(layer, name, out_bytes, offset_dmo)");
	} else if (!rd->failed && rd->field != rd->fields) {
		plan_fail(rd, "%s", "fewer fields than the header");
	} else if (!rd->failed && rd->row >= rd->plan->n_tensors) {
		plan_fail(rd, "%s", "more rows than the model has activation tensors");
	} else if (!rd->failed) {
		check_row(rd);
		rd->row++;
	}
	memset(rd->text, 0, sizeof rd->text);
	rd->field = 0;
	rd->line++;
}

int dmo_plan_read_csv(const char *path, const struct dmo_model *model, struct dmo_plan *plan,
		      char *err, size_t err_len)
{
	struct plan_reader rd = { .model = model, .plan = plan, .line = 1, .err = err,
				  .err_len = err_len };
	struct csv_parser parser;
	char buf[16384], detail[768];
	size_t n;
	FILE *in = dmo_rundir_open(path, err, err_len); /* a FIFO would hang */

	if (in == NULL)
		return -1;
	rd.offsets = calloc(plan->n_tensors ? plan->n_tensors : 1, sizeof *rd.offsets);
	if (rd.offsets == NULL)
		plan_fail(&rd, "%s", "out of memory");
	csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
	while (!rd.failed && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (csv_parse(&parser, buf, n, on_plan_field, on_plan_row, &rd) != n && !rd.failed)
			plan_fail(&rd, "%s", csv_strerror(csv_error(&parser)));
	if (!rd.failed && csv_fini(&parser, on_plan_field, on_plan_row, &rd) != 0)
		plan_fail(&rd, "%s", csv_strerror(csv_error(&parser)));
	if (!rd.failed && rd.line == 1)
		plan_fail(&rd, "%s", "empty file, no header");
	if (!rd.failed && rd.row != plan->n_tensors) {
		snprintf(err, err_len, "%zu rows for the model's %zu activation tensors", rd.row,
			 plan->n_tensors);
		rd.failed = 1;
	}
	csv_free(&parser);
	fclose(in);
	if (!rd.failed) {
		uint64_t end_to_end = 0;
		plan->peak_dmo = 0;
		for (size_t t = 0; t < plan->n_tensors; t++) {
			plan->tensors[t].offset_dmo = rd.offsets[t];
			end_to_end += plan->tensors[t].bytes;
			if (rd.offsets[t] + plan->tensors[t].bytes > plan->peak_dmo)
				plan->peak_dmo = rd.offsets[t] + plan->tensors[t].bytes;
		}
		/* Judged by the bytes it needs before any are taken: an arena
		 * larger than every tensor laid end to end only holds gaps (a
		 * hand-edited offset of 2^40 would have made infer fill it). */
		if (plan->peak_dmo > end_to_end) {
			snprintf(err, err_len, "%s: the plan needs a %" PRIu64 "-byte arena, more than "
				 "the %" PRIu64 " bytes of all its tensors laid end to end: it holds "
				 "gaps, no plan dmo makes", path, plan->peak_dmo, end_to_end);
			free(rd.offsets);
			return -1;
		}
		if (dmo_plan_check(plan, 1, err, err_len)) {
			snprintf(detail, sizeof detail, "%s", err);
			snprintf(err, err_len, "%s: not a safe plan of this model: %s", path, detail);
			free(rd.offsets);
			return -1;
		}
	}
	free(rd.offsets);
	if (rd.failed) {
		snprintf(detail, sizeof detail, "%s", err);
		snprintf(err, err_len, "%s: %s", path, detail);
		return -1;
	}
	return 0;
}

/* An arena of PLAN (WITH_OVERLAPS or plain) filled with FILL, the model's
 * input from SOURCE written into it. */
static int arena_for(const struct dmo_model *model, const struct dmo_net *net,
		     const struct dmo_plan *plan, int with_overlaps, unsigned char fill,
		     const struct dmo_net_input *source, unsigned char **arena, uint64_t *offsets,
		     char *err, size_t err_len)
{
	uint64_t size = with_overlaps ? plan->peak_dmo : plan->peak_plain;

	*arena = malloc(size ? size : 1);
	if (*arena == NULL) {
		snprintf(err, err_len, "out of memory for a %" PRIu64 "-byte arena", size);
		return -1;
	}
	memset(*arena, fill, size);
	dmo_plan_offsets(model, plan, with_overlaps, offsets);
	return dmo_net_fill_inputs(net, source, *arena, offsets, err, err_len);
}

/* The two runs go step by step, and each step's output is compared as soon
 * as it is written, before a later step may reuse its bytes (and the model
 * outputs again at the end): a clobbered
 * input shows at the layer that read it, even when later layers (a pool, a
 * softmax over two classes) would wash the difference out of the model's
 * outputs. */
int dmo_plan_verify_net(const struct dmo_model *model, const struct dmo_net *net,
			const struct dmo_plan *plan, const struct dmo_net_input *source,
			const struct dmo_plan_watch *watch, char *err, size_t err_len)
{
	size_t n = model->n_tensors ? model->n_tensors : 1;
	uint64_t *plain_at = malloc(n * sizeof *plain_at), *dmo_at = malloc(n * sizeof *dmo_at);
	unsigned char *plain = NULL, *dmo = NULL;
	int rc = -1;

	if (plain_at == NULL || dmo_at == NULL) {
		snprintf(err, err_len, "out of memory");
		goto done;
	}
	if (arena_for(model, net, plan, 0, 0x00, source, &plain, plain_at, err, err_len) ||
	    arena_for(model, net, plan, 1, 0xa5, source, &dmo, dmo_at, err, err_len))
		goto done;
	rc = 0;
	for (size_t l = 0; l < net->n_steps && rc == 0; l++) {
		int t = net->steps[l].output;
		uint64_t bytes = dmo_net_tensor_bytes(net, t);

		if (dmo_net_run_step(net, l, plain, plain_at, err, err_len) ||
		    dmo_net_run_step(net, l, dmo, dmo_at, err, err_len)) {
			rc = -1;
			break;
		}
		for (uint64_t i = 0; i < bytes && rc == 0; i++)
			if (plain[plain_at[t] + i] != dmo[dmo_at[t] + i]) {
				snprintf(err, err_len, "layer %zu '%s': output '%s' differs at byte %" PRIu64
					 " of %" PRIu64, l + 1, model->layers[l].name,
					 net->tensors[t].name ? net->tensors[t].name : "", i, bytes);
				rc = 1;
			}
		if (rc == 0 && watch != NULL && watch->layer_done != NULL)
			watch->layer_done(watch->arg, l);
	}
	/* And every model output once the model has run: a later layer must
	 * not have written over one (an output that is also read again). */
	for (size_t t = 0; t < net->n_tensors && rc == 0; t++) {
		uint64_t bytes = dmo_net_tensor_bytes(net, (int)t);

		if (!net->tensors[t].graph_output || net->tensors[t].data != NULL)
			continue;
		for (uint64_t i = 0; i < bytes && rc == 0; i++)
			if (plain[plain_at[t] + i] != dmo[dmo_at[t] + i]) {
				snprintf(err, err_len, "model output '%s' differs at byte %" PRIu64
					 " of %" PRIu64 " once the model has run",
					 net->tensors[t].name ? net->tensors[t].name : "", i, bytes);
				rc = 1;
			}
	}
done:
	free(plain);
	free(dmo);
	free(plain_at);
	free(dmo_at);
	return rc;
}
