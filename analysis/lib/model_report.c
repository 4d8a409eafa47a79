/* model_report.c - `dmo model`'s tables and the conversion of a model to a
 * layer table; see model_report.h. */
#include "errbuf.h"
#include "model_report.h"
#include "textcol.h"

#include <stdlib.h>
#include <string.h>

void dmo_model_print_unsupported(FILE *out, const struct dmo_model *m)
{
	for (size_t l = 0; l < m->n_layers; l++) {
		const struct dmo_model_layer *layer = &m->layers[l];

		if (layer->supported)
			continue;
		if (layer->why && strstr(layer->why, "has no dmo model"))
			fprintf(out, "no overlap: %s (layer %s)\n", layer->why, layer->name);
		else
			fprintf(out, "no overlap: op %s, %s (layer %s)\n", layer->op_name,
				layer->why ? layer->why : "no op spec", layer->name);
	}
}

static void shape_text(const struct dmo_model_tensor *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (t->rank == 0)
		snprintf(buf, len, "scalar");
	for (int i = 0; i < t->rank && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "x" : "",
					 (long long)t->shape[i]);
}

static const char *kind(const struct dmo_model_tensor *t)
{
	if (t->producer == DMO_MODEL_CONSTANT)
		return "constant";
	if (t->variable)
		return "state";
	if (t->graph_input)
		return "input";
	if (t->graph_output)
		return "output";
	return "activation";
}

static void quant_text(const struct dmo_model_tensor *t, char *buf, size_t len)
{
	if (t->quant.count == 0)
		snprintf(buf, len, "-");
	else if (t->quant.count == 1)
		snprintf(buf, len, "s=%g z=%lld", (double)t->quant.scale[0],
			 (long long)t->quant.zero_point[0]);
	else
		snprintf(buf, len, "per-channel(axis %d, %zu)", t->quant.axis, t->quant.count);
}

/* "a;b;c" of tensor indices LIST[N] (absent ones skipped). */
static void index_list(const int *list, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		if (list[i] >= 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? ";" : "",
						 list[i]);
}

/* Layers are shown numbered from 1, in the order they run, as in a run
 * directory's layers.csv (docs/cli.md); in memory they count from 0.
 * A tensor no layer writes keeps its negative producer. */
static long shown_layer(long index)
{
	return index < 0 ? index : index + 1;
}

/* The layers reading tensor T, from FIRST (its first reader, found for
 * every tensor in one pass) until all its readers are listed: a scan from
 * layer 1 for every tensor made printing a 10^5-op chain quadratic. */
static void consumers(const struct dmo_model *m, int t, size_t first, char *buf, size_t len)
{
	size_t used = 0, found = 0, wanted = m->tensors[t].n_consumers;

	buf[0] = '\0';
	for (size_t l = first; l < m->n_layers && used < len && found < wanted; l++)
		for (size_t k = 0; k < m->layers[l].n_operands; k++)
			if (m->layers[l].operands[k] == t) {
				used += (size_t)snprintf(buf + used, len - used, "%s%ld",
							 used ? ";" : "", shown_layer((long)l));
				found++;
				break;
			}
}

/* Each tensor's first reader (n_layers: none); NULL out of memory. */
static size_t *first_readers(const struct dmo_model *m)
{
	size_t *first = malloc((m->n_tensors + 1) * sizeof *first);

	for (size_t t = 0; first != NULL && t < m->n_tensors; t++)
		first[t] = m->n_layers;
	for (size_t l = m->n_layers; first != NULL && l-- > 0;)
		for (size_t k = 0; k < m->layers[l].n_operands; k++) {
			int o = m->layers[l].operands[k];
			if (o >= 0 && (size_t)o < m->n_tensors)
				first[o] = l;
		}
	return first;
}

void dmo_model_print(FILE *out, const char *source, const struct dmo_model *m)
{
	size_t n_const = 0, n_in = 0, n_out = 0, n_state = 0;
	uint64_t const_bytes = 0;
	char ins[256], outs[256], shape[96], quant[64], cons[256], prod[24], live[32];
	struct dmo_text_column name, op;
	size_t *first;

	for (size_t t = 0; t < m->n_tensors; t++) {
		const struct dmo_model_tensor *tt = &m->tensors[t];

		n_const += tt->producer == DMO_MODEL_CONSTANT;
		const_bytes += tt->producer == DMO_MODEL_CONSTANT ? tt->data_len : 0;
		n_in += tt->graph_input;
		n_out += tt->graph_output;
		n_state += tt->variable;
	}
	fprintf(out, "model %s (%s): %zu layers (%zu with a dmo op spec, %zu without), %zu tensors (%zu activations, %zu constants of %llu bytes, %zu inputs, %zu outputs, %zu state)\n",
		source, dmo_model_format_name(m->format), m->n_layers,
		m->n_layers - dmo_model_unsupported(m), dmo_model_unsupported(m), m->n_tensors,
		m->n_tensors - n_const, n_const, (unsigned long long)const_bytes, n_in, n_out,
		n_state);
	dmo_model_print_unsupported(out, m);
	dmo_text_column_init(&name, "name", DMO_TEXT_NAME_CAP);
	dmo_text_column_init(&op, "op", DMO_TEXT_NAME_CAP);
	for (size_t l = 0; l < m->n_layers; l++) {
		dmo_text_column_see(&name, m->layers[l].name);
		dmo_text_column_see(&op, m->layers[l].op_name);
	}
	fprintf(out, "\n%5s  ", "layer");
	dmo_text_cell(out, &name, "name", " ");
	dmo_text_cell(out, &op, "op", " ");
	fprintf(out, "%-6s %-14s %-14s %s\n", "act", "inputs", "outputs", "op spec");
	for (size_t l = 0; l < m->n_layers; l++) {
		const struct dmo_model_layer *layer = &m->layers[l];

		index_list(layer->operands, layer->n_operands, ins, sizeof ins);
		index_list(layer->results, layer->n_results, outs, sizeof outs);
		fprintf(out, "%5ld  ", shown_layer((long)l));
		dmo_text_cell(out, &name, layer->name, " ");
		dmo_text_cell(out, &op, layer->op_name, " ");
		fprintf(out, "%-6s %-14s %-14s %s\n", dmo_act_name(layer->act), ins, outs,
			layer->supported ? layer->spec : "-");
	}
	dmo_text_column_init(&name, "name", DMO_TEXT_NAME_CAP);
	for (size_t t = 0; t < m->n_tensors; t++)
		dmo_text_column_see(&name, m->tensors[t].name ? m->tensors[t].name : "");
	first = first_readers(m);
	fprintf(out, "\n%6s  ", "tensor");
	dmo_text_cell(out, &name, "name", " ");
	fprintf(out, "%-8s %-16s %10s %-10s %8s %-10s %8s %s\n", "type", "shape", "bytes", "kind",
		"producer", "consumers", "live", "quantisation");
	for (size_t t = 0; t < m->n_tensors; t++) {
		const struct dmo_model_tensor *tt = &m->tensors[t];

		shape_text(tt, shape, sizeof shape);
		quant_text(tt, quant, sizeof quant);
		consumers(m, (int)t, first ? first[t] : 0, cons, sizeof cons);
		snprintf(prod, sizeof prod, "%ld", shown_layer(tt->producer));
		if (tt->producer < 0)
			snprintf(prod, sizeof prod, "-");
		if (tt->producer == DMO_MODEL_CONSTANT)
			snprintf(live, sizeof live, "-");
		else
			snprintf(live, sizeof live, "%ld-%ld", shown_layer(tt->first),
				 shown_layer(tt->last));
		fprintf(out, "%6zu  ", t);
		dmo_text_cell(out, &name, tt->name ? tt->name : "", " ");
		fprintf(out, "%-8s %-16s %10llu %-10s %8s %-10s %8s %s\n", tt->type_name, shape,
			(unsigned long long)tt->bytes, kind(tt), prod, cons[0] ? cons : "-", live,
			quant);
	}
	free(first);
}

/* A CSV field: quoted when it holds a comma, quote or newline. */
static void csv_field(FILE *out, const char *s, int last)
{
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

void dmo_model_print_csv(FILE *out, const struct dmo_model *m, int tensors)
{
	char a[256], b[256], c[96], d[64], e[32];
	size_t *first;

	if (!tensors) {
		fputs("layer,name,op,supported,spec,act,operands,results,in_bytes,out_bytes,why\n", out);
		for (size_t l = 0; l < m->n_layers; l++) {
			const struct dmo_model_layer *layer = &m->layers[l];
			uint64_t in = layer->n_act_in ? m->tensors[layer->act_in[0]].bytes : 0;

			fprintf(out, "%ld,", shown_layer((long)l));
			csv_field(out, layer->name, 0);
			csv_field(out, layer->op_name, 0);
			fprintf(out, "%d,", layer->supported);
			csv_field(out, layer->supported ? layer->spec : "", 0);
			csv_field(out, dmo_act_name(layer->act), 0);
			index_list(layer->operands, layer->n_operands, a, sizeof a);
			index_list(layer->results, layer->n_results, b, sizeof b);
			fprintf(out, "%s,%s,%llu,%llu,", a, b, (unsigned long long)in,
				(unsigned long long)m->tensors[layer->results[0]].bytes);
			csv_field(out, layer->supported ? "" : layer->why ? layer->why : "", 1);
		}
		return;
	}
	fputs("tensor,name,type,shape,elems,bytes,kind,producer,consumers,live_from,live_to,quant_count,scale,zero_point,quant_axis,data_bytes\n",
	      out);
	first = first_readers(m);
	for (size_t t = 0; t < m->n_tensors; t++) {
		const struct dmo_model_tensor *tt = &m->tensors[t];

		fprintf(out, "%zu,", t);
		csv_field(out, tt->name, 0);
		shape_text(tt, c, sizeof c);
		consumers(m, (int)t, first ? first[t] : 0, a, sizeof a);
		snprintf(d, sizeof d, "%.9g", tt->quant.count ? (double)tt->quant.scale[0] : 0.0);
		snprintf(e, sizeof e, "%lld", tt->quant.count ? (long long)tt->quant.zero_point[0] : 0LL);
		fprintf(out, "%s,%s,%llu,%llu,%s,%ld,%s,%ld,%ld,%zu,%s,%s,%d,%zu\n", tt->type_name, c,
			(unsigned long long)tt->elems, (unsigned long long)tt->bytes, kind(tt),
			shown_layer(tt->producer), a, shown_layer(tt->first), shown_layer(tt->last),
			tt->quant.count,
			tt->quant.count ? d : "", tt->quant.count ? e : "", tt->quant.axis,
			tt->data_len);
	}
	free(first);
}

int dmo_model_write_table(FILE *out, FILE *notes, const struct dmo_model *m, char *err,
			  size_t err_len)
{
	/* For each tensor, the kept layer whose output it is (-1: the model
	 * input, -2: none). */
	int *source = malloc((m->n_tensors + 1) * sizeof *source);
	int input = -1, rows = 0, rc = 0;

	if (source == NULL)
		return dmo_errf(err, err_len, "out of memory");
	for (size_t t = 0; t < m->n_tensors && rc == 0; t++) {
		const struct dmo_model_tensor *tt = &m->tensors[t];

		source[t] = -2;
		if (tt->variable)
			rc = dmo_errf(err, err_len, "state tensor '%s' has no place in a layer table", tt->name);
		else if (tt->producer == DMO_MODEL_INPUT && tt->n_consumers) {
			if (input >= 0)
				rc = dmo_errf(err, err_len, "two model inputs ('%s', '%s'); a layer table has one",
					  m->tensors[input].name, tt->name);
			input = (int)t;
			source[t] = -1;
		}
	}
	if (rc == 0)
		fputs("layer,name,spec,inputs\n", out);
	for (size_t l = 0; l < m->n_layers && rc == 0; l++) {
		const struct dmo_model_layer *layer = &m->layers[l];
		char inputs[512] = "";
		size_t used = 0;

		if (!layer->supported) {
			if (layer->n_act_in == 1 && layer->n_results == 1 &&
			    m->tensors[layer->act_in[0]].bytes == m->tensors[layer->results[0]].bytes) {
				source[layer->results[0]] = source[layer->act_in[0]];
				if (notes)
					fprintf(notes, "dmo model: left out layer %s (%s): no op spec, same bytes in and out\n",
						layer->name, layer->op_name);
				continue;
			}
			rc = dmo_errf(err, err_len, "layer %s (%s) has no op spec and changes its tensor's size; a layer table cannot hold it",
				  layer->name, layer->op_name);
			break;
		}
		if (layer->n_results != 1 ||
		    layer->n_act_in != (dmo_op_binary(layer->op.op) ? 2u : 1u)) {
			rc = dmo_errf(err, err_len, "layer %s (%s) reads a constant operand or writes several tensors; a layer table cannot hold it",
				  layer->name, layer->op_name);
			break;
		}
		for (size_t k = 0; k < layer->n_act_in && rc == 0; k++) {
			int from = source[layer->act_in[k]];

			if (from == -1 && rows == 0 && layer->n_act_in == 1)
				continue; /* empty: the model input */
			if (from < 0)
				rc = dmo_errf(err, err_len, "layer %s reads the model input after the first row; a layer table cannot say so",
					  layer->name);
			else
				used += (size_t)snprintf(inputs + used, sizeof inputs - used, "%s%s",
							 used ? ";" : "", m->layers[from].name);
		}
		if (rc != 0)
			break;
		fprintf(out, "%d,%s,\"%s\",%s\n", ++rows, layer->name, layer->spec, inputs);
		source[layer->results[0]] = (int)l;
	}
	free(source);
	return rc;
}
