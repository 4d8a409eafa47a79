/* model_table.c - the model layer-table reader, on top of libcsv; see
 * model_table.h.  Tables are hand-written, so every mistake is reported with
 * its row rather than discovered later as a wrong arena plan. */
#include "model_table.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "name_index.h"

#define COLUMNS 4

static const char *const header[COLUMNS] = { "layer", "name", "spec", "inputs" };

struct reader {
	const char *source;
	struct dmo_model *model;
	size_t cap;
	char *fields[COLUMNS];
	size_t n_fields;
	int row;
	long first;     /* the first row's layer number: 1, or 0 in an old table */
	/* Layer names to indices: a chain of 10^5 layers searched them all
	 * for every row, quadratic. */
	struct dmo_name_index names;
	int failed;
	char *err;
	size_t err_len;
};

static void reader_fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	char msg[384];

	if (r->failed)
		return;
	r->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->err && r->err_len)
		snprintf(r->err, r->err_len, "%s: row %d: %s", r->source, r->row, msg);
}

static void free_fields(struct reader *r)
{
	for (size_t i = 0; i < r->n_fields && i < COLUMNS; i++)
		free(r->fields[i]);
	r->n_fields = 0;
}

static void on_field(void *text, size_t len, void *data)
{
	struct reader *r = data;

	if (r->failed)
		return;
	if (r->n_fields == 0)
		r->row++;
	if (r->n_fields >= COLUMNS) {
		r->n_fields++;
		return;
	}
	if (memchr(text, '\0', len)) {
		reader_fail(r, "NUL byte in column '%s'", header[r->n_fields]);
		return;
	}
	char *copy = malloc(len + 1);
	if (!copy) {
		reader_fail(r, "out of memory");
		return;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	r->fields[r->n_fields++] = copy;
}

static int find_layer(const struct reader *r, const char *name, size_t len)
{
	return dmo_name_index_find(&r->names, name, len);
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || *s == '.' ||
		      (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return 0;
	return 1;
}

/* Resolve the inputs column of the layer being added (index N). */
static int resolve_inputs(struct reader *r, struct dmo_model_layer *l,
			  const char *text, size_t n)
{
	size_t count = 1;

	for (const char *c = text; *c; c++)
		count += *c == ';';
	l->inputs = malloc(count * sizeof *l->inputs);
	if (!l->inputs) {
		reader_fail(r, "out of memory");
		return -1;
	}
	if (!*text) {
		l->inputs[0] = n == 0 ? DMO_MODEL_INPUT : (int)n - 1;
		l->n_inputs = 1;
		return 0;
	}
	for (const char *p = text;; p++) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int idx = find_layer(r, p, len);
		if (idx < 0) {
			reader_fail(r, "input '%.*s' is not an earlier layer",
				    (int)(len > 64 ? 64 : len), p);
			return -1;
		}
		l->inputs[l->n_inputs++] = idx;
		if (!end)
			return 0;
		p = end;
	}
}

static void add_layer(struct reader *r)
{
	struct dmo_model *m = r->model;
	char msg[256];

	if (m->n_layers == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		struct dmo_model_layer *grown = realloc(m->layers, cap * sizeof *grown);
		if (!grown) {
			reader_fail(r, "out of memory");
			return;
		}
		m->layers = grown;
		r->cap = cap;
	}
	char *end;
	errno = 0;
	long index = strtol(r->fields[0], &end, 10);
	/* Layers count from 1, as every command prints them; a table written
	 * before that counts from 0, and its first row says which. */
	if (m->n_layers == 0 && !errno && !*end && (index == 0 || index == 1))
		r->first = index;
	if (!*r->fields[0] || *end || errno || index != r->first + (long)m->n_layers) {
		reader_fail(r, "column 'layer' is '%.32s', expected %ld (layers are numbered in order, from 1)",
			    r->fields[0], r->first + (long)m->n_layers);
		return;
	}
	if (!valid_name(r->fields[1])) {
		reader_fail(r, "column 'name' '%.64s' must be non-empty [A-Za-z0-9_.-]", r->fields[1]);
		return;
	}
	if (find_layer(r, r->fields[1], strlen(r->fields[1])) >= 0) {
		reader_fail(r, "duplicate layer name '%.64s'", r->fields[1]);
		return;
	}
	struct dmo_model_layer *l = &m->layers[m->n_layers];
	*l = (struct dmo_model_layer){ .row = r->row };
	if (dmo_opspec_parse(r->fields[2], &l->op, msg, sizeof msg)) {
		reader_fail(r, "column 'spec': %s", msg);
		return;
	}
	if (resolve_inputs(r, l, r->fields[3], m->n_layers)) {
		free(l->inputs);
		return;
	}
	l->name = r->fields[1];
	l->spec = r->fields[2];
	r->fields[1] = r->fields[2] = NULL;
	if (dmo_name_index_add(&r->names, l->name, (int)m->n_layers) != 0) {
		reader_fail(r, "out of memory");
		free(l->inputs);
		free(l->name);
		free(l->spec);
		return;
	}
	m->n_layers++;
}

static int spec_tensor(struct dmo_model_tensor *t, const char *name,
		       const struct dmo_opspec *op, int output)
{
	t->name = strdup(name);
	t->known_dtype = 1;
	t->dtype = op->dtype;
	t->type_name = dmo_dtype_name(op->dtype);
	t->elem_size = dmo_dtype_size(op->dtype);
	t->rank = 4;
	t->shape[0] = op->batch;
	t->shape[1] = output ? op->out_h : op->in_h;
	t->shape[2] = output ? op->out_w : op->in_w;
	t->shape[3] = output ? op->out_c : op->in_c;
	t->elems = output ? dmo_opspec_out_elems(op) : dmo_opspec_in_elems(op);
	t->bytes = t->elems * t->elem_size;
	return t->name ? 0 : -1;
}

/* Tensor 0 is the model input (layer 0's input), tensor L+1 layer L's
 * output; the planner and the tables' users rely on that numbering. */
static int table_tensors(struct dmo_model *m)
{
	m->format = DMO_FORMAT_TABLE;
	/* N_TENSORS only once they exist: dmo_model_free walks them. */
	m->tensors = calloc(m->n_layers + 1, sizeof *m->tensors);
	if (m->tensors == NULL)
		return -1;
	m->n_tensors = m->n_layers + 1;
	if (spec_tensor(&m->tensors[0], "input", &m->layers[0].op, 0))
		return -1;
	m->tensors[0].graph_input = 1;
	for (size_t l = 0; l < m->n_layers; l++) {
		struct dmo_model_layer *layer = &m->layers[l];

		layer->supported = 1;
		layer->op_name = strdup(dmo_op_name(layer->op.op));
		layer->results = malloc(sizeof *layer->results);
		layer->operands = malloc(layer->n_inputs * sizeof *layer->operands);
		if (layer->op_name == NULL || layer->results == NULL || layer->operands == NULL ||
		    spec_tensor(&m->tensors[l + 1], layer->name, &layer->op, 1))
			return -1;
		layer->results[0] = (int)l + 1;
		layer->n_results = 1;
		for (size_t k = 0; k < layer->n_inputs; k++)
			layer->operands[k] = layer->inputs[k] == DMO_MODEL_INPUT ? 0
					     : layer->inputs[k] + 1;
		layer->n_operands = layer->n_inputs;
	}
	return 0;
}

static void on_row(int terminator, void *data)
{
	struct reader *r = data;

	(void)terminator;
	if (r->failed)
		return;
	if (r->n_fields != COLUMNS) {
		reader_fail(r, "%zu columns, expected %d (layer,name,spec,inputs)",
			    r->n_fields, COLUMNS);
	} else if (r->row == 1) {
		for (int i = 0; i < COLUMNS; i++)
			if (strcmp(r->fields[i], header[i]) != 0) {
				reader_fail(r, "header must be 'layer,name,spec,inputs' (column %d is '%.32s')",
					    i + 1, r->fields[i]);
				break;
			}
	} else {
		add_layer(r);
	}
	free_fields(r);
}

int dmo_model_parse(const char *data, size_t len, const char *source,
		    struct dmo_model *model, char *err, size_t err_len)
{
	struct csv_parser parser;
	struct reader r = { .source = source, .model = model, .first = 1, .err = err,
			    .err_len = err_len };

	*model = (struct dmo_model){ 0 };
	csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI); /* fails only for a NULL parser */
	if (csv_parse(&parser, data, len, on_field, on_row, &r) != len ||
	    csv_fini(&parser, on_field, on_row, &r) != 0) {
		r.row++;
		reader_fail(&r, "malformed CSV: %s", csv_strerror(csv_error(&parser)));
	}
	csv_free(&parser);
	free_fields(&r);
	dmo_name_index_free(&r.names);
	if (!r.failed && model->n_layers == 0) {
		r.row = r.row ? r.row : 1;
		reader_fail(&r, "no layers");
	}
	if (!r.failed && table_tensors(model) != 0)
		reader_fail(&r, "out of memory");
	if (r.failed || dmo_model_link(model, source, err, err_len) != 0) {
		dmo_model_free(model);
		return -1;
	}
	return 0;
}

int dmo_model_check_shapes(const struct dmo_model *m, char *err, size_t err_len)
{
	/* The file readers check each layer against its tensors. */
	if (m->format != DMO_FORMAT_TABLE)
		return 0;
	for (size_t i = 0; i < m->n_layers; i++) {
		const struct dmo_model_layer *l = &m->layers[i];
		int binary = dmo_op_binary(l->op.op);
		if (l->n_inputs != (binary ? 2u : 1u)) {
			snprintf(err, err_len, "row %d (%s): %s takes %d input(s), table gives %zu",
				 l->row, l->name, dmo_op_name(l->op.op), binary ? 2 : 1,
				 l->n_inputs);
			return -1;
		}
		for (size_t k = 0; k < l->n_inputs; k++) {
			if (l->inputs[k] == DMO_MODEL_INPUT)
				continue;
			const struct dmo_model_layer *src = &m->layers[l->inputs[k]];
			if (dmo_opspec_out_elems(&src->op) != dmo_opspec_in_elems(&l->op) ||
			    src->op.dtype != l->op.dtype) {
				snprintf(err, err_len,
					 "row %d (%s): input has %llu %s elements but '%s' produces %llu %s",
					 l->row, l->name,
					 (unsigned long long)dmo_opspec_in_elems(&l->op),
					 dmo_dtype_name(l->op.dtype), src->name,
					 (unsigned long long)dmo_opspec_out_elems(&src->op),
					 dmo_dtype_name(src->op.dtype));
				return -1;
			}
		}
	}
	return 0;
}
