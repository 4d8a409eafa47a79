/* plan.c - tensor-arena planning with and without diagonal overlaps, the
 * plan's invariant check, and the proof by execution (docs/plan.md). */
#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "algorithmic.h"
#include "analytic.h"
#include "locate.h"
#include "plan.h"
#include "plan_search.h"
#include "rundir.h"
#include "runner.h"

/* Seed of the model input in --verify (any fixed value would do). */
#define VERIFY_SEED 1

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static int measured_os(const struct dmo_model *model, const char *dir, uint64_t *os,
		       char *err, size_t err_len)
{
	struct dmo_layer_table table;
	char path[PATH_MAX], msg[512];
	int rc = 0;

	assert(dir != NULL); /* dmo_os_source_parse gives "measured:" one */
	snprintf(path, sizeof path, "%s/%s", dir, DMO_LAYERS_CSV);
	if (dmo_layers_csv_read(path, &table, msg, sizeof msg) != 0) {
		/* A plan from a table with rows missing would be wrong. */
		dmo_layer_table_free(&table);
		return dmo_errf(err, err_len, "%s", msg);
	}
	for (size_t l = 0; l < model->n_layers && rc == 0; l++) {
		const struct dmo_model_layer *layer = &model->layers[l];
		const struct dmo_layer_row *row = NULL;

		os[l] = 0;
		if (!layer->supported)
			continue; /* never profiled, never overlapped */
		for (size_t r = 0; r < table.count && row == NULL; r++)
			if (strcmp(table.rows[r].name, layer->name) == 0)
				row = &table.rows[r];
		if (row == NULL)
			rc = dmo_errf(err, err_len, "%s: no layer '%s'", path, layer->name);
		else if (!dmo_layer_ok(row))
			rc = dmo_errf(err, err_len, "%s: layer '%s' has status %s", path,
				  layer->name, row->status);
		else if (row->in_bytes != dmo_opspec_in_bytes(&layer->op) ||
			 row->out_bytes != dmo_opspec_out_bytes(&layer->op))
			rc = dmo_errf(err, err_len,
				  "%s: layer '%s' profiled %llu/%llu input/output bytes, the table says %llu/%llu",
				  path, layer->name, (unsigned long long)row->in_bytes,
				  (unsigned long long)row->out_bytes,
				  (unsigned long long)dmo_opspec_in_bytes(&layer->op),
				  (unsigned long long)dmo_opspec_out_bytes(&layer->op));
		else
			os[l] = dmo_layer_safe_os(row); /* by its safe_os_rule */
	}
	dmo_layer_table_free(&table);
	return rc;
}

int dmo_plan_os(const struct dmo_model *model, enum dmo_os_source source,
		const char *dir, uint64_t *os, char *err, size_t err_len)
{
	if (source == DMO_OS_MEASURED)
		return measured_os(model, dir, os, err, err_len);
	for (size_t l = 0; l < model->n_layers; l++) {
		const struct dmo_model_layer *layer = &model->layers[l];
		struct dmo_algo_result algo;
		struct dmo_analytic_result ana;
		int rc;

		os[l] = 0;
		if (!layer->supported)
			continue;
		/* Both refuse only shapes the op-spec parser refused first. */
		if (source == DMO_OS_ALGORITHMIC) {
			rc = dmo_algorithmic(&layer->op, &algo);
			os[l] = algo.os;
		} else {
			rc = dmo_analytic(&layer->op, &ana);
			os[l] = ana.os;
		}
		assert(rc == 0);
	}
	return 0;
}

uint64_t dmo_plan_share(const struct dmo_plan *p, int in, int out)
{
	const struct dmo_plan_layer *l;

	if (p->tensors[out].producer < 0)
		return 0;
	l = &p->layers[p->tensors[out].producer];
	return l->diagonal && l->in == in && l->out == out ? l->os : 0;
}

/* Offsets of T excluded by one placed neighbour U, as the half-open range
 * [lo, hi).  Without sharing, T conflicts with U when T.off < U.off + U.bytes
 * and T.off + T.bytes > U.off; a permitted diagonal share of S bytes moves
 * the input's edge: input.off may reach output.off + output.bytes - S. */
struct span {
	int64_t lo, hi;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The tensors live at each layer, as lists: a tensor's live neighbours are
 * those of the layers it is live at, found without scanning every tensor
 * (which made a chain of 10^5 layers quadratic). */
struct live_index {
	int lo;            /* the first layer */
	size_t *start;     /* layer lo + k's tensors: at[start[k] .. start[k + 1]) */
	int *at;
	unsigned *seen;    /* per tensor: the last tensor + 1 it was visited for */
};

static void live_index_free(struct live_index *x)
{
	free(x->start);
	free(x->at);
	free(x->seen);
}

static int live_index_build(const struct dmo_plan *p, struct live_index *x)
{
	int lo = 0, hi = -1;
	size_t total = 0;

	for (size_t t = 0; t < p->n_tensors; t++) {
		const struct dmo_plan_tensor *tt = &p->tensors[t];
		lo = t == 0 || tt->first < lo ? tt->first : lo;
		hi = tt->last > hi ? tt->last : hi;
		total += tt->last >= tt->first ? (size_t)(tt->last - tt->first) + 1 : 0;
	}
	size_t steps = hi >= lo ? (size_t)(hi - lo) + 1 : 0;
	x->lo = lo;
	x->start = calloc(steps + 2, sizeof *x->start);
	x->at = malloc((total ? total : 1) * sizeof *x->at);
	x->seen = calloc(p->n_tensors ? p->n_tensors : 1, sizeof *x->seen);
	if (x->start == NULL || x->at == NULL || x->seen == NULL)
		return -1;
	for (size_t t = 0; t < p->n_tensors; t++)
		for (int s = p->tensors[t].first; s <= p->tensors[t].last; s++)
			x->start[s - lo + 2]++;
	for (size_t k = 2; k < steps + 2; k++)
		x->start[k] += x->start[k - 1];
	for (size_t t = 0; t < p->n_tensors; t++)
		for (int s = p->tensors[t].first; s <= p->tensors[t].last; s++)
			x->at[x->start[s - lo + 1]++] = (int)t;
	return 0;
}

static uint64_t lowest_offset(const struct dmo_plan *p, int t, const uint64_t *off,
			      const char *placed, int with_overlaps, struct span *spans,
			      struct live_index *live)
{
	const struct dmo_plan_tensor *tt = &p->tensors[t];
	size_t n = 0;
	int64_t at = 0;

	for (int s = tt->first; s <= tt->last; s++)
	for (size_t k = live->start[s - live->lo]; k < live->start[s - live->lo + 1]; k++) {
		int u = live->at[k];
		const struct dmo_plan_tensor *tu = &p->tensors[u];
		int64_t as_in = 0, as_out = 0; /* share when T is input / output */

		if (!placed[u] || live->seen[u] == (unsigned)t + 1)
			continue;
		live->seen[u] = (unsigned)t + 1;
		if (with_overlaps) {
			as_in = (int64_t)dmo_plan_share(p, t, (int)u);
			as_out = (int64_t)dmo_plan_share(p, (int)u, t);
		}
		spans[n].lo = (int64_t)off[u] - (int64_t)tt->bytes + 1 + as_out;
		spans[n].hi = (int64_t)(off[u] + tu->bytes) - as_in;
		n++;
	}
	qsort(spans, n, sizeof *spans, span_cmp);
	for (size_t i = 0; i < n && at >= spans[i].lo; i++)
		if (at < spans[i].hi)
			at = spans[i].hi;
	return (uint64_t)at;
}

/* Place the tensors in ORDER, each at the lowest offset its already placed
 * live neighbours leave free; return the peak. */
static int place(struct dmo_plan *p, const int *order, int with_overlaps, uint64_t *peak)
{
	char *placed = calloc(p->n_tensors, 1);
	uint64_t *off = calloc(p->n_tensors, sizeof *off);
	struct span *spans = calloc(p->n_tensors, sizeof *spans);
	struct live_index live = { 0 };
	int rc = placed && off && spans && live_index_build(p, &live) == 0 ? 0 : -1;

	*peak = 0;
	for (size_t i = 0; i < p->n_tensors && rc == 0; i++) {
		int t = order[i];
		struct dmo_plan_tensor *tt = &p->tensors[t];

		off[t] = lowest_offset(p, t, off, placed, with_overlaps, spans, &live);
		placed[t] = 1;
		if (with_overlaps)
			tt->offset_dmo = off[t];
		else
			tt->offset_plain = off[t];
		if (off[t] + tt->bytes > *peak)
			*peak = off[t] + tt->bytes;
	}
	free(placed);
	free(off);
	free(spans);
	live_index_free(&live);
	return rc;
}

/* TFLite Micro's GreedyMemoryPlanner order: size descending, equal sizes
 * by id descending.  (Its CalculateOffsetsIfNeeded fills the sort array
 * from the tail, so the last buffer added comes first, and ReverseSortInPlace
 * is stable; here the id is the tensor index.) */
struct size_key {
	uint64_t bytes;
	int t;
};

static int by_size_desc(const void *a, const void *b)
{
	const struct size_key *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return (x->t < y->t) - (x->t > y->t);
}

static int size_order(const struct dmo_plan *p, int *order)
{
	struct size_key *keys = calloc(p->n_tensors, sizeof *keys);

	if (keys == NULL)
		return -1;
	for (size_t i = 0; i < p->n_tensors; i++)
		keys[i] = (struct size_key){ p->tensors[i].bytes, (int)i };
	qsort(keys, p->n_tensors, sizeof *keys, by_size_desc);
	for (size_t i = 0; i < p->n_tensors; i++)
		order[i] = keys[i].t;
	free(keys);
	return 0;
}

/* The plans: without overlaps by TFLM's rule; with overlaps by the same
 * rule and in reverse execution order (the paper's: each layer's output
 * is placed before its input, which can then slide onto it), keeping the
 * lowest of the three; then the search for a lower one, unless that is
 * the bound.  Returns 0, or dmo_plan_search's error (-1 memory). */
static int plan_all(struct dmo_plan *p, double time_limit, const struct dmo_plan_watch *watch,
		    int *order, uint64_t *offsets)
{
	struct dmo_plan_search_result found;
	double start = dmo_plan_seconds();

	if (size_order(p, order) != 0 || place(p, order, 0, &p->peak_plain) != 0 ||
	    place(p, order, 1, &p->peak_by_size) != 0)
		return -1;
	for (size_t t = 0; t < p->n_tensors; t++)
		offsets[t] = p->tensors[t].offset_dmo;
	for (size_t i = 0; i < p->n_tensors; i++)
		order[i] = (int)(p->n_tensors - 1 - i);
	if (place(p, order, 1, &p->peak_reverse) != 0)
		return -1;
	p->peak_dmo = p->peak_reverse;
	if (p->peak_by_size < p->peak_reverse) {
		p->peak_dmo = p->peak_by_size;
		for (size_t t = 0; t < p->n_tensors; t++)
			p->tensors[t].offset_dmo = offsets[t];
	}
	/* Lowest offset first can do worse with overlaps than without (an
	 * input slid onto its output pushes others up); the plain plan is a
	 * valid overlap plan too. */
	if (p->peak_plain < p->peak_dmo) {
		p->peak_dmo = p->peak_plain;
		for (size_t t = 0; t < p->n_tensors; t++)
			p->tensors[t].offset_dmo = p->tensors[t].offset_plain;
	}
	p->status = DMO_PLAN_AT_BOUND;
	if (p->peak_dmo > p->bound_dmo) {
		int rc = dmo_plan_search(p, p->peak_dmo, time_limit, watch, offsets, &found);

		if (rc != 0)
			return rc;
		if (found.improved) {
			p->peak_dmo = found.peak;
			for (size_t t = 0; t < p->n_tensors; t++)
				p->tensors[t].offset_dmo = offsets[t];
		}
		p->searched = 1;
		p->search_states = found.states;
		if (p->peak_dmo > p->bound_dmo)
			p->status = found.exact ? DMO_PLAN_OPTIMAL : DMO_PLAN_BEST_FOUND;
	}
	p->plan_seconds = dmo_plan_seconds() - start;
	return 0;
}

const char *dmo_plan_arena_kind(const struct dmo_plan *plan)
{
	return plan->whole_arena ? "whole non-persistent arena" : "activations only";
}

const char *dmo_plan_status_name(enum dmo_plan_status status)
{
	switch (status) {
	case DMO_PLAN_AT_BOUND:
		return "optimal (= bound)";
	case DMO_PLAN_OPTIMAL:
		return "optimal, bound not reachable";
	default:
		return "best found";
	}
}

/* The plan's tensors are the model's activations; PLAN_OF maps a model
 * tensor to its plan index (-1: a constant). */
static int build_graph(const struct dmo_model *model, const uint64_t *os,
		       struct dmo_plan *p, const int *plan_of, char *err, size_t err_len)
{
	for (size_t t = 0; t < model->n_tensors; t++) {
		const struct dmo_model_tensor *mt = &model->tensors[t];
		struct dmo_plan_tensor *pt;

		if (plan_of[t] < 0)
			continue;
		pt = &p->tensors[plan_of[t]];
		pt->model_tensor = (int)t;
		pt->producer = mt->producer >= 0 ? mt->producer : -1;
		pt->bytes = mt->bytes;
		pt->first = mt->first;
		pt->last = mt->last;
		pt->output = mt->graph_output || mt->n_consumers == 0;
	}
	for (size_t l = 0; l < model->n_layers; l++) {
		const struct dmo_model_layer *layer = &model->layers[l];
		struct dmo_plan_layer *pl = &p->layers[l];
		/* The runner takes a second operand for add/mul/sub/div (of
		 * the input's shape: one that broadcasts is not fed), for
		 * a concat of two tensors its other input, and matmul's B. */
		int binary = layer->supported &&
			     ((dmo_op_binary(layer->op.op) && layer->n_act_in > 1 &&
			       model->tensors[layer->act_in[1]].bytes ==
				       model->tensors[layer->act_in[0]].bytes) ||
			      (layer->op.op == DMO_OP_CONCAT && layer->op.before[3] == 0 &&
			       layer->n_act_in == 2) ||
			      (layer->op.op == DMO_OP_MATMUL && layer->n_act_in == 2));
		int reread = 0;

		pl->in = layer->n_act_in ? plan_of[layer->act_in[0]] : -1;
		pl->in2 = binary && layer->n_act_in > 1 ? plan_of[layer->act_in[1]] : -1;
		pl->out = plan_of[layer->results[0]];
		pl->os = os[l];
		if (layer->supported) {
			uint64_t cap = min_u64(dmo_opspec_in_bytes(&layer->op),
					       dmo_opspec_out_bytes(&layer->op));

			if (os[l] > cap)
				return dmo_errf(err, err_len, "layer '%s': O_s %llu exceeds min(IB, OB) = %llu",
					    layer->name, (unsigned long long)os[l],
					    (unsigned long long)cap);
		} else if (os[l] != 0) {
			return dmo_errf(err, err_len, "layer '%s' (%s) has no dmo model, so no O_s",
				    layer->name, layer->op_name);
		}
		/* Another operand read from the same tensor would see the
		 * clobbered bytes: O_s only covers the first operand. */
		for (size_t k = 1; k < layer->n_act_in; k++)
			reread |= layer->n_act_in && layer->act_in[k] == layer->act_in[0];
		/* A model output lives to the end even when its last reader
		 * is the last layer: it must never be overlapped. */
		pl->diagonal = layer->supported && pl->in >= 0 &&
			       p->tensors[pl->in].last == (int)l && !p->tensors[pl->in].output &&
			       pl->in2 != pl->in && !reread && layer->n_results == 1;
	}
	return 0;
}

/* The lower bound: every tensor live at a layer needs its own bytes there,
 * except what the layer's diagonal pair may share. */
static void bound(struct dmo_plan *p)
{
	p->bound_dmo = 0;
	p->bound_layer = 0;
	/* Each layer's live bytes as a running sum: a tensor's bytes join at
	 * its first layer and leave after its last (every tensor per layer
	 * was quadratic in a chain of 10^5 layers).  live_bytes first holds
	 * the changes. */
	for (size_t l = 0; l < p->n_layers; l++)
		p->layers[l].live_bytes = 0;
	for (size_t t = 0; t < p->n_tensors; t++) {
		const struct dmo_plan_tensor *tt = &p->tensors[t];
		int from = tt->first < 0 ? 0 : tt->first;
		if (tt->last < from || from >= (int)p->n_layers)
			continue;
		p->layers[from].live_bytes += tt->bytes;
		if (tt->last + 1 < (int)p->n_layers)
			p->layers[tt->last + 1].live_bytes -= tt->bytes;
	}
	for (size_t l = 0; l < p->n_layers; l++) {
		struct dmo_plan_layer *pl = &p->layers[l];
		uint64_t need;

		if (l > 0)
			pl->live_bytes += p->layers[l - 1].live_bytes;
		need = pl->live_bytes - (pl->diagonal ? pl->os : 0);
		if (need > p->bound_dmo) {
			p->bound_dmo = need;
			p->bound_layer = (int)l;
		}
	}
}

static void overlaps(struct dmo_plan *p)
{
	for (size_t l = 0; l < p->n_layers; l++) {
		struct dmo_plan_layer *pl = &p->layers[l];
		const struct dmo_plan_tensor *out = &p->tensors[pl->out];
		const struct dmo_plan_tensor *in = pl->in >= 0 ? &p->tensors[pl->in] : out;

		pl->overlap = 0;
		if (in != out && in->offset_dmo < out->offset_dmo + out->bytes &&
		    out->offset_dmo < in->offset_dmo + in->bytes)
			pl->overlap = out->offset_dmo + out->bytes - in->offset_dmo;
	}
}

/* Scratch buffers: a tensor each, live during its layer only, after the
 * model's tensors. */
static void add_scratch(struct dmo_plan *p, const uint64_t *scratch)
{
	for (size_t l = 0; scratch != NULL && l < p->n_layers; l++) {
		struct dmo_plan_tensor *pt;

		if (scratch[l] == 0)
			continue;
		pt = &p->tensors[p->n_tensors++];
		*pt = (struct dmo_plan_tensor){ .model_tensor = -1, .producer = (int)l,
						.bytes = scratch[l], .first = (int)l, .last = (int)l };
		p->n_scratch++;
	}
}

static uint64_t units(uint64_t bytes, uint64_t align)
{
	return (bytes + align - 1) / align;
}

/* Plan in units of P->align (docs/plan.md, "Aligned plans"): sizes and
 * shares converted, planned, and offsets scaled back; sizes and O_s are
 * the true ones again afterwards. */
static int plan_aligned(struct dmo_plan *p, double time_limit, const struct dmo_plan_watch *watch,
			int *order, uint64_t *scratch)
{
	uint64_t a = p->align, *bytes = calloc(p->n_tensors + 1, sizeof *bytes);
	uint64_t *os = calloc(p->n_layers + 1, sizeof *os);
	int rc = bytes && os ? 0 : -1;

	for (size_t t = 0; rc == 0 && t < p->n_tensors; t++) {
		bytes[t] = p->tensors[t].bytes;
		p->tensors[t].bytes = units(bytes[t], a);
	}
	for (size_t l = 0; rc == 0 && l < p->n_layers; l++) {
		uint64_t ob = bytes[p->layers[l].out];

		os[l] = p->layers[l].os;
		p->layers[l].os = units(ob, a) - units(ob - os[l], a);
	}
	if (rc == 0) {
		bound(p);
		rc = plan_all(p, time_limit, watch, order, scratch);
	}
	for (size_t t = 0; bytes && t < p->n_tensors; t++) {
		p->tensors[t].bytes = bytes[t];
		p->tensors[t].offset_plain *= a;
		p->tensors[t].offset_dmo *= a;
	}
	for (size_t l = 0; os && l < p->n_layers; l++) {
		p->layers[l].os = os[l];
		p->layers[l].live_bytes *= a;
	}
	p->peak_plain *= a;
	p->peak_dmo *= a;
	p->peak_reverse *= a;
	p->peak_by_size *= a;
	p->bound_dmo *= a;
	free(bytes);
	free(os);
	return rc;
}

int dmo_plan_build(const struct dmo_model *model, const uint64_t *os, double time_limit,
		   const struct dmo_plan_watch *watch, struct dmo_plan *plan, char *err,
		   size_t err_len)
{
	return dmo_plan_build_rules(model, os, NULL, time_limit, watch, plan, err, err_len);
}

int dmo_plan_build_rules(const struct dmo_model *model, const uint64_t *os,
			 const struct dmo_plan_rules *rules, double time_limit,
			 const struct dmo_plan_watch *watch, struct dmo_plan *plan, char *err,
			 size_t err_len)
{
	struct dmo_plan p = { .n_layers = model->n_layers, .align = rules ? rules->align : 1,
			      .whole_arena = rules && rules->scratch };
	const uint64_t *scratch_bytes = rules ? rules->scratch : NULL;
	char msg[512];
	uint64_t *scratch;
	int *order, *plan_of;
	size_t n_scratch = 0;
	int rc;

	memset(plan, 0, sizeof *plan);
	if (model->n_layers == 0)
		return dmo_errf(err, err_len, "the model has no layers");
	if (model->format == DMO_FORMAT_TABLE &&
	    dmo_model_check_shapes(model, msg, sizeof msg) != 0)
		return dmo_errf(err, err_len, "%s", msg);
	plan_of = calloc(model->n_tensors + 1, sizeof *plan_of);
	if (plan_of == NULL)
		return dmo_errf(err, err_len, "out of memory");
	/* Execution order: model inputs and state, then each layer's results
	 * (for a table: the input, then layer L's output as tensor L + 1).
	 * A layer's input thus always comes before its output. */
	for (size_t t = 0; t < model->n_tensors; t++)
		plan_of[t] = model->tensors[t].producer == DMO_MODEL_INPUT ? (int)p.n_tensors++ : -1;
	for (size_t l = 0; l < model->n_layers; l++)
		for (size_t k = 0; k < model->layers[l].n_results; k++)
			plan_of[model->layers[l].results[k]] = (int)p.n_tensors++;
	if (p.align == 0 || (p.align & (p.align - 1)) != 0) {
		free(plan_of);
		return dmo_errf(err, err_len, "alignment %llu is not a power of two",
				(unsigned long long)p.align);
	}
	for (size_t l = 0; scratch_bytes != NULL && l < model->n_layers; l++)
		n_scratch += scratch_bytes[l] != 0;
	p.layers = calloc(p.n_layers, sizeof *p.layers);
	p.tensors = calloc(p.n_tensors + n_scratch + 1, sizeof *p.tensors);
	order = calloc(p.n_tensors + n_scratch + 1, sizeof *order);
	scratch = calloc(p.n_tensors + n_scratch + 1, sizeof *scratch);
	if (p.layers == NULL || p.tensors == NULL || order == NULL || scratch == NULL) {
		rc = dmo_errf(err, err_len, "out of memory");
		goto out;
	}
	rc = build_graph(model, os, &p, plan_of, err, err_len);
	if (rc != 0)
		goto out;
	add_scratch(&p, scratch_bytes);
	if (p.align > 1) {
		rc = plan_aligned(&p, time_limit, watch, order, scratch);
	} else {
		bound(&p);
		rc = plan_all(&p, time_limit, watch, order, scratch);
	}
	if (rc != 0) {
		rc = dmo_errf(err, err_len, rc == -2 ? "internal error: the placement search chose a cycle"
						 : "out of memory");
		goto out;
	}
	overlaps(&p);
	/* The planner's own assertion: a broken plan never leaves here. */
	if (dmo_plan_check(&p, 0, msg, sizeof msg) != 0 ||
	    dmo_plan_check(&p, 1, msg, sizeof msg) != 0)
		rc = dmo_errf(err, err_len, "internal error, invalid plan: %s", msg);
out:
	free(plan_of);
	free(order);
	free(scratch);
	if (rc == 0)
		*plan = p;
	else
		dmo_plan_free(&p);
	return rc;
}

/* Whether tensors A < B, live together, clash at their offsets: they
 * intersect, and not as input A starting at most O_s bytes before the
 * end of output B (a tensor is only ever produced after its reader's
 * input, so in a permitted pair the input is A and the output B). */
static int clash(const struct dmo_plan *p, int with_overlaps, size_t a, size_t b)
{
	const struct dmo_plan_tensor *ta = &p->tensors[a], *tb = &p->tensors[b];
	uint64_t oa = with_overlaps ? ta->offset_dmo : ta->offset_plain;
	uint64_t ob = with_overlaps ? tb->offset_dmo : tb->offset_plain;
	uint64_t share = with_overlaps ? dmo_plan_share(p, (int)a, (int)b) : 0;

	if (oa >= ob + tb->bytes || ob >= oa + ta->bytes)
		return 0;
	return share == 0 || oa + share < ob + tb->bytes;
}

int dmo_plan_check(const struct dmo_plan *p, int with_overlaps, char *err, size_t err_len)
{
	uint64_t peak = with_overlaps ? p->peak_dmo : p->peak_plain;
	struct live_index live = { 0 };
	int rc = 0;

	if (live_index_build(p, &live) != 0) {
		live_index_free(&live);
		return dmo_errf(err, err_len, "out of memory");
	}
	for (size_t a = 0; a < p->n_tensors && rc == 0; a++) {
		const struct dmo_plan_tensor *ta = &p->tensors[a];
		uint64_t oa = with_overlaps ? ta->offset_dmo : ta->offset_plain;
		size_t bad = SIZE_MAX; /* the first B that clashes with A */

		if (oa + ta->bytes > peak) {
			rc = dmo_errf(err, err_len, "tensor %zu ends at %llu, past the peak %llu", a,
				      (unsigned long long)(oa + ta->bytes),
				      (unsigned long long)peak);
			break;
		}
		/* Only A's live neighbours (the tensors of the layers A is live
		 * at), each once. */
		for (int s = ta->first; s <= ta->last; s++)
			for (size_t k = live.start[s - live.lo]; k < live.start[s - live.lo + 1]; k++) {
				size_t b = (size_t)live.at[k];
				if (b <= a || b >= bad || live.seen[b] == (unsigned)a + 1)
					continue;
				live.seen[b] = (unsigned)a + 1;
				if (clash(p, with_overlaps, a, b))
					bad = b;
			}
		if (bad != SIZE_MAX) {
			const struct dmo_plan_tensor *tb = &p->tensors[bad];
			uint64_t ob = with_overlaps ? tb->offset_dmo : tb->offset_plain;
			rc = dmo_errf(err, err_len,
				      "tensors %zu [%llu, +%llu) and %zu [%llu, +%llu) are live together and overlap%s",
				      a, (unsigned long long)oa, (unsigned long long)ta->bytes,
				      bad, (unsigned long long)ob, (unsigned long long)tb->bytes,
				      with_overlaps && dmo_plan_share(p, (int)a, (int)bad) ? " beyond O_s" : "");
		}
	}
	live_index_free(&live);
	return rc;
}

/* splitmix64: the stand-in kernel's and the inputs' byte source. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void fill_bytes(unsigned char *buf, uint64_t len, uint64_t seed)
{
	for (uint64_t i = 0; i < len; i++)
		buf[i] = (unsigned char)mix(seed ^ (i * 0x100000001b3ULL));
}

/* A layer without a dmo model (so without a kernel): it reads every byte
 * of its activation operands before it writes anything, and its outputs
 * are a hash of them, so a clobbered input shows up downstream. */
static void stand_in(const struct dmo_plan *p, const struct dmo_model_layer *layer,
		     size_t l, unsigned char **bases, const int *plan_of)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ l;

	for (size_t k = 0; k < layer->n_act_in; k++) {
		int t = plan_of[layer->act_in[k]];

		for (uint64_t i = 0; i < p->tensors[t].bytes; i++)
			h = (h ^ bases[t][i]) * 0x100000001b3ULL;
	}
	for (size_t k = 0; k < layer->n_results; k++) {
		int t = plan_of[layer->results[k]];

		fill_bytes(bases[t], p->tensors[t].bytes, h + k);
	}
}

/* Fill the model inputs (and state) at BASES[T]: through the kernel's own
 * input filler when a layer with an op spec reads them first, else with
 * bytes of a fixed seed. */
static void fill_model_inputs(const struct dmo_model *model, const struct dmo_plan *p,
			      unsigned char **bases)
{
	for (size_t t = 0; t < p->n_tensors; t++) {
		const struct dmo_model_layer *reader = NULL;

		if (p->tensors[t].producer >= 0)
			continue;
		for (size_t l = 0; l < model->n_layers && reader == NULL; l++)
			if (p->layers[l].in == (int)t)
				reader = &model->layers[l];
		if (reader && reader->supported)
			dmo_op_fill_input(&reader->op, bases[t], VERIFY_SEED + t);
		else
			fill_bytes(bases[t], p->tensors[t].bytes, VERIFY_SEED + t);
	}
}

/* Run layer L with tensor T at BASES[T].  Returns 0, or -1 with ERR. */
static int run_layer(const struct dmo_model *model, const struct dmo_plan *p,
		     struct dmo_op_run **runs, unsigned char **bases, const int *plan_of,
		     size_t l, char *err, size_t err_len)
{
	const struct dmo_plan_layer *pl = &p->layers[l];

	if (!model->layers[l].supported) {
		stand_in(p, &model->layers[l], l, bases, plan_of);
		return 0;
	}
	if (dmo_op_execute2(runs[l], bases[pl->in], pl->in2 >= 0 ? bases[pl->in2] : NULL,
			    bases[pl->out], 1, 0) != 0)
		return dmo_errf(err, err_len, "layer '%s': the kernel refused its arguments",
				model->layers[l].name);
	return 0;
}

/* Tensor T the same in both runs?  Returns 0, or 1 with ERR naming the
 * first differing byte. */
static int same_tensor(const struct dmo_model *model, const struct dmo_plan *p,
		       unsigned char **separate, unsigned char **planned, int t, char *err,
		       size_t err_len)
{
	const struct dmo_plan_tensor *pt = &p->tensors[t];

	for (uint64_t i = 0; i < pt->bytes; i++)
		if (separate[t][i] != planned[t][i]) {
			snprintf(err, err_len, "output %s of layer '%s' differs at byte %llu of %llu",
				 model->tensors[pt->model_tensor].name,
				 pt->producer >= 0 ? model->layers[pt->producer].name : "-",
				 (unsigned long long)i, (unsigned long long)pt->bytes);
			return 1;
		}
	return 0;
}

int dmo_plan_verify(const struct dmo_model *model, const struct dmo_plan *p,
		    const struct dmo_plan_watch *watch, char *err, size_t err_len)
{
	struct dmo_op_run **runs = calloc(p->n_layers, sizeof *runs);
	unsigned char **separate = calloc(p->n_tensors, sizeof *separate);
	unsigned char **planned = calloc(p->n_tensors, sizeof *planned);
	int *plan_of = malloc((model->n_tensors + 1) * sizeof *plan_of);
	unsigned char *arena = malloc(p->peak_dmo ? p->peak_dmo : 1);
	char msg[512];
	int rc = 0;

	if (runs == NULL || separate == NULL || planned == NULL || arena == NULL ||
	    plan_of == NULL)
		rc = dmo_errf(err, err_len, "out of memory");
	for (size_t t = 0; rc == 0 && t < model->n_tensors; t++)
		plan_of[t] = -1;
	for (size_t t = 0; rc == 0 && t < p->n_tensors; t++)
		plan_of[p->tensors[t].model_tensor] = (int)t;
	for (size_t l = 0; l < p->n_layers && rc == 0; l++) {
		if (!model->layers[l].supported)
			continue;
		runs[l] = dmo_op_prepare(&model->layers[l].op, msg, sizeof msg);
		if (runs[l] == NULL)
			rc = dmo_errf(err, err_len, "layer '%s': %s", model->layers[l].name, msg);
	}
	for (size_t t = 0; t < p->n_tensors && rc == 0; t++) {
		/* Zeroed separate buffers and a differently filled arena: a
		 * kernel reading bytes nobody wrote shows up as a difference. */
		separate[t] = calloc(1, p->tensors[t].bytes ? p->tensors[t].bytes : 1);
		planned[t] = arena + p->tensors[t].offset_dmo;
		if (separate[t] == NULL)
			rc = dmo_errf(err, err_len, "out of memory");
	}
	if (rc == 0) {
		memset(arena, 0xa5, p->peak_dmo);
		fill_model_inputs(model, p, separate);
		fill_model_inputs(model, p, planned);
	}
	/* Layer by layer, each result compared as soon as it is written: a
	 * clobbered input shows at the layer that read it, even where later
	 * layers (a pool, a softmax) would wash it out of the model outputs
	 * (as dmo_plan_verify_net does for real weights). */
	for (size_t l = 0; l < p->n_layers && rc == 0; l++) {
		const struct dmo_model_layer *layer = &model->layers[l];

		rc = run_layer(model, p, runs, separate, plan_of, l, err, err_len);
		if (rc == 0)
			rc = run_layer(model, p, runs, planned, plan_of, l, err, err_len);
		for (size_t k = 0; k < layer->n_results && rc == 0; k++)
			if (plan_of[layer->results[k]] >= 0)
				rc = same_tensor(model, p, separate, planned,
						 plan_of[layer->results[k]], err, err_len);
		if (rc == 0 && watch != NULL && watch->layer_done != NULL)
			watch->layer_done(watch->arg, l);
	}
	/* And the model outputs at the end, which no later layer may touch. */
	for (size_t t = 0; t < p->n_tensors && rc == 0; t++)
		if (p->tensors[t].output)
			rc = same_tensor(model, p, separate, planned, (int)t, err, err_len);
	for (size_t l = 0; runs != NULL && l < p->n_layers; l++)
		dmo_op_free(runs[l]);
	for (size_t t = 0; separate != NULL && t < p->n_tensors; t++)
		free(separate[t]);
	free(runs);
	free(separate);
	free(planned);
	free(plan_of);
	free(arena);
	return rc;
}

/* One row: tensor T and, when L >= 0 and T is its first result, layer L. */
int dmo_plan_layer_of(const struct dmo_model *model, const struct dmo_plan *p, size_t t)
{
	int l = p->tensors[t].producer;

	return l >= 0 && model->layers[l].results[0] == p->tensors[t].model_tensor ? l : -1;
}

void dmo_plan_tensor_name(const struct dmo_model *model, const struct dmo_plan *p, size_t t,
			  char *name, size_t len)
{
	const struct dmo_plan_tensor *pt = &p->tensors[t];
	int l = dmo_plan_layer_of(model, p, t);

	if (pt->model_tensor < 0)
		snprintf(name, len, "(scratch of %d)", pt->producer + 1);
	else if (l < 0)
		snprintf(name, len, "%s",
			 pt->producer < 0 && model->format == DMO_FORMAT_TABLE
				 ? "(model input)" : model->tensors[pt->model_tensor].name);
	else
		snprintf(name, len, "%s", model->layers[l].name);
}

static void print_row(FILE *out, const struct dmo_model *model, const struct dmo_plan *p,
		      int t, int l, int csv)
{
	static const char *const text = "%5s  %-18s %-9s %10s %8s %10s %10s %10s %10s %10s\n";
	const struct dmo_plan_tensor *pt = &p->tensors[t];
	const struct dmo_plan_layer *pl = l >= 0 ? &p->layers[l] : NULL;
	const struct dmo_model_layer *ml = l >= 0 ? &model->layers[l] : NULL;
	const char *op = ml == NULL ? "" : ml->supported ? dmo_op_name(ml->op.op) : ml->op_name;
	char layer[24] = "-", live[32], bytes[24], plain[24], dmo[24], in_off[24] = "",
	     os[24] = "", overlap[24] = "", name[160];

	dmo_plan_tensor_name(model, p, (size_t)t, name, sizeof name);
	/* Layers are shown numbered from 1, as in a run directory (docs/cli.md);
	 * '*' marks a model output, live to the end. */
	snprintf(live, sizeof live, "%d-%d%s", pt->first + 1, pt->last + 1, pt->output ? "*" : "");
	snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)pt->bytes);
	snprintf(plain, sizeof plain, "%llu", (unsigned long long)pt->offset_plain);
	snprintf(dmo, sizeof dmo, "%llu", (unsigned long long)pt->offset_dmo);
	if (pl != NULL) {
		snprintf(layer, sizeof layer, "%d", l + 1);
		if (pl->in >= 0)
			snprintf(in_off, sizeof in_off, "%llu",
				 (unsigned long long)p->tensors[pl->in].offset_dmo);
		snprintf(os, sizeof os, "%llu", (unsigned long long)pl->os);
		if (pl->diagonal)
			snprintf(overlap, sizeof overlap, "%llu", (unsigned long long)pl->overlap);
		else
			snprintf(overlap, sizeof overlap, ml->supported ? "in live" : "no model");
	}
	if (csv)
		fprintf(out, "%s,%s,%s,%d,%s,%d,%d,%s,%s,%s,%s,%d,%llu,%llu,%d\n", layer,
			pl ? name : "input", op, pl ? pl->in : -1, bytes, pt->first + 1, pt->last + 1,
			plain, dmo, in_off, os, pl ? pl->diagonal : 0,
			pl ? (unsigned long long)pl->overlap : 0ULL,
			pl ? (unsigned long long)pl->live_bytes : 0ULL, pt->model_tensor);
	else
		fprintf(out, text, layer, name, op, bytes, live, plain, dmo, in_off, os, overlap);
}

void dmo_plan_print(FILE *out, const struct dmo_model *model, const struct dmo_plan *p,
		    int csv)
{
	static const char *const text = "%5s  %-18s %-9s %10s %8s %10s %10s %10s %10s %10s\n";

	if (csv)
		fputs("layer,name,op,in_tensor,out_bytes,live_from,live_to,offset_plain,"
		      "offset_dmo,in_offset_dmo,os_bytes,diagonal,overlap_bytes,live_bytes,tensor\n", out);
	else
		fprintf(out, text, "layer", "name", "op", "out_bytes", "live", "plain_off",
			"dmo_off", "in_dmo_off", "os_bytes", "overlap");
	for (size_t t = 0; t < p->n_tensors; t++)
		print_row(out, model, p, (int)t, dmo_plan_layer_of(model, p, t), csv);
	if (!csv)
		fputs("\nlive: the layers (from 1) during which the tensor is in the arena; * a model\n"
		      "output, kept to the end.  overlap: bytes the layer's output shares with its\n"
		      "input; 'in live' none: the input is read again (later, or twice here);\n"
		      "'no model' dmo has no O_s for the op.  Offsets in bytes (docs/plan.md).\n",
		      out);
}

void dmo_plan_free(struct dmo_plan *plan)
{
	free(plan->layers);
	free(plan->tensors);
	memset(plan, 0, sizeof *plan);
}

int dmo_os_source_parse(const char *text, enum dmo_os_source *source, const char **dir)
{
	if (strcmp(text, "algorithmic") == 0)
		*source = DMO_OS_ALGORITHMIC;
	else if (strcmp(text, "analytic") == 0)
		*source = DMO_OS_ANALYTIC;
	else if (strncmp(text, "measured:", 9) == 0 && text[9] != '\0') {
		*source = DMO_OS_MEASURED;
		*dir = text + 9;
	} else
		return -1;
	return 0;
}

/* dmo_os_source_parse, with the message of a bad SOURCE in ERR. */
static int parse_source(const char *source, enum dmo_os_source *from, const char **dir, char *err,
			size_t err_len)
{
	if (dmo_os_source_parse(source, from, dir) != 0)
		return dmo_errf(err, err_len, "--os must be algorithmic, analytic or measured:DIR, not '%s'",
				source);
	return 0;
}

int dmo_plan_os_named(const struct dmo_model *model, const char *source, uint64_t *os, char *err,
		      size_t err_len)
{
	enum dmo_os_source from;
	const char *dir = NULL;

	if (parse_source(source, &from, &dir, err, err_len) != 0)
		return -1;
	return dmo_plan_os(model, from, dir, os, err, err_len);
}

int dmo_plan_model(const char *name, const struct dmo_model_shape *shapes, size_t n_shapes,
		   const char *source, double time_limit, const struct dmo_plan_watch *watch,
		   struct dmo_model *model, struct dmo_plan *plan, char *err, size_t err_len)
{
	enum dmo_os_source from;
	const char *dir = NULL;
	uint64_t *os;
	int rc;

	/* The source is checked before the model is read. */
	if (parse_source(source, &from, &dir, err, err_len) != 0)
		return -1;
	if (dmo_load_model(name, shapes, n_shapes, model, err, err_len) != 0)
		return -1;
	os = calloc(model->n_layers ? model->n_layers : 1, sizeof *os);
	if (os == NULL)
		snprintf(err, err_len, "out of memory");
	rc = os == NULL || dmo_plan_os_named(model, source, os, err, err_len) != 0 ||
			     dmo_plan_build(model, os, time_limit, watch, plan, err, err_len) != 0 ? -1 : 0;
	free(os);
	if (rc != 0)
		dmo_model_free(model);
	return rc;
}
