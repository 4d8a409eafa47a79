/* plan_search.c - the exact placement search of `dmo plan`: dynamic
 * programming over the tensors in order of their first layer, on which of
 * each pair of simultaneously live tensors lies below the other, with
 * dominated partial plans dropped (docs/plan.md, "The search"). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan_search.h"

/* No path between two tensors (real path lengths are >= 0). */
#define NO_PATH (-1)
/* Tensors live at once beyond which 2^k choices per state are too many:
 * the search then leaves the incumbent alone. */
#define MAX_FRONTIER 12
/* States kept per step; past it (or past the time limit) the search keeps
 * the most promising ones and stops being exact. */
#define STATE_BUDGET 20000
#define BEAM_AFTER_TIME_LIMIT 256
/* A beam also keeps the next step's extensions (states x 2^k) near this. */
#define BEAM_EXTENSIONS 65536
/* Memory for one step's children; past it the step stops extending and the
 * search is a beam from then on. */
#define CHILDREN_BYTES (256u << 20)

/* One step places one tensor above or below each tensor placed before it
 * that is live with it (the frontier).  A state is a partial plan: every
 * choice so far, summarised by what the rest of the search needs. */
struct step {
	int tensor;
	int n_frontier;
	int *frontier;           /* tensor ids, the new tensor excluded */
	size_t n_states;         /* states it starts from */
	uint32_t *parent;        /* per state it ends in: the one it came from */
	uint32_t *below;         /* bit k: frontier[k] lies below the tensor */
};

/* A state's values over a frontier of K tensors, as int64 in a row:
 * peak (the longest chain of "lies below" constraints so far, tensor bytes
 * included: the arena the partial plan needs), then for each frontier
 * tensor its lowest offset (down) and the arena it needs from its own
 * offset upwards (up), then the K x K longest paths between them (NO_PATH
 * when there is none).  Paths through tensors already dead are summarised
 * in these, so the rest of the search never needs them again. */
static size_t row_len(int k)
{
	return 1 + 2 * (size_t)k + (size_t)k * (size_t)k;
}

#define PEAK(s) ((s)[0])
#define DOWN(s, i) ((s)[1 + (i)])
#define UP(s, k, i) ((s)[1 + (k) + (i)])
#define PATH(s, k, i, j) ((s)[1 + 2 * (k) + (i) * (k) + (j)])

struct search {
	const struct dmo_plan *plan;
	int64_t incumbent;
	double deadline;
	size_t beam;             /* states kept per step; 0: all (exact) */
	int exact;
	int timed_out;
	int next_k;              /* frontier of the states being pruned */
};

/* Past the deadline: from now on a narrow beam.  Checked often enough that
 * a step's extensions or pruning overrun the time limit only briefly. */
static void check_time(struct search *s)
{
	if (!s->timed_out && dmo_plan_seconds() > s->deadline) {
		s->timed_out = 1;
		s->exact = 0;
		s->beam = BEAM_AFTER_TIME_LIMIT;
	}
}

/* States a beam keeps: S->beam, fewer when each has 2^K choices next. */
static size_t beam_width(const struct search *s, int k)
{
	size_t by_choices = (size_t)BEAM_EXTENSIONS >> k;

	by_choices = by_choices < 4 ? 4 : by_choices;
	return s->beam < by_choices ? s->beam : by_choices;
}

double dmo_plan_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Offset distance when X lies below Y: Y.off >= X.off + gap(X, Y). */
static int64_t gap(const struct dmo_plan *p, int x, int y)
{
	return (int64_t)(p->tensors[x].bytes - dmo_plan_share(p, y, x));
}

/* CHILD (frontier K + 1, the new tensor N last) = PARENT (frontier K) with
 * N placed above the frontier tensors in BELOW and below the others.
 * Returns 0, or -1 when the choice closes a cycle (no placement exists). */
static int extend(const struct dmo_plan *p, const int *frontier, int k, int n,
		  const int64_t *parent, uint32_t below, int64_t *child)
{
	int64_t into[MAX_FRONTIER], from[MAX_FRONTIER], down_n = 0, up_n;
	int kk = k + 1;

	up_n = (int64_t)p->tensors[n].bytes;
	for (int g = 0; g < k; g++)
		if (!(below >> g & 1))
			up_n = max64(up_n, gap(p, n, frontier[g]) + UP(parent, k, g));
	for (int f = 0; f < k; f++)
		if (below >> f & 1)
			down_n = max64(down_n, DOWN(parent, f) + gap(p, frontier[f], n));
	/* into[a]: longest path a -> N (through a tensor below N);
	 * from[b]: longest path N -> b (through a tensor above N). */
	for (int a = 0; a < k; a++) {
		into[a] = from[a] = NO_PATH;
		for (int f = 0; f < k; f++) {
			int64_t d = a == f ? 0 : PATH(parent, k, a, f);

			if ((below >> f & 1) && d != NO_PATH)
				into[a] = max64(into[a], d + gap(p, frontier[f], n));
			d = a == f ? 0 : PATH(parent, k, f, a);
			if (!(below >> f & 1) && d != NO_PATH)
				from[a] = max64(from[a], gap(p, n, frontier[f]) + d);
		}
	}
	for (int a = 0; a < k; a++)
		if (into[a] != NO_PATH && from[a] != NO_PATH)
			return -1; /* a -> N -> a */
	PEAK(child) = max64(PEAK(parent), down_n + up_n);
	for (int a = 0; a < k; a++) {
		DOWN(child, a) = from[a] == NO_PATH ? DOWN(parent, a)
						    : max64(DOWN(parent, a), down_n + from[a]);
		UP(child, kk, a) = into[a] == NO_PATH ? UP(parent, k, a)
						      : max64(UP(parent, k, a), into[a] + up_n);
		for (int b = 0; b < k; b++) {
			int64_t d = PATH(parent, k, a, b);

			if (a != b && into[a] != NO_PATH && from[b] != NO_PATH)
				d = max64(d, into[a] + from[b]);
			PATH(child, kk, a, b) = d;
		}
		PATH(child, kk, a, k) = into[a];
		PATH(child, kk, k, a) = from[a];
	}
	DOWN(child, k) = down_n;
	UP(child, kk, k) = up_n;
	PATH(child, kk, k, k) = NO_PATH;
	return 0;
}

/* SRC over frontier K to DST over the frontier tensors KEEP[0..m-1]
 * (indices into the K). */
static void project(const int64_t *src, int k, const int *keep, int m, int64_t *dst)
{
	PEAK(dst) = PEAK(src);
	for (int i = 0; i < m; i++) {
		DOWN(dst, i) = DOWN(src, keep[i]);
		UP(dst, m, i) = UP(src, k, keep[i]);
		for (int j = 0; j < m; j++)
			PATH(dst, m, i, j) = PATH(src, k, keep[i], keep[j]);
	}
}

/* A no worse than B in every value: whatever completes B completes A with
 * a peak no higher (and closes no cycle B's completion does not). */
static int dominates(const int64_t *a, const int64_t *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (a[i] > b[i])
			return 0;
	return 1;
}

/* Sort key: peak, then the sum of the other values (promise for the beam). */
struct ranked {
	int64_t peak, rest;
	size_t index;
};

static int by_promise(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->peak != y->peak)
		return x->peak < y->peak ? -1 : 1;
	if (x->rest != y->rest)
		return x->rest < y->rest ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* Keep the undominated states among N rows of LEN in VALUES (with their
 * PARENT and BELOW), most promising first, at most S->beam of them when
 * beaming.  Returns how many are kept, in place. */
static size_t prune(struct search *s, int64_t *values, uint32_t *parent, uint32_t *below,
		    size_t n, size_t len)
{
	struct ranked *rank = malloc((n ? n : 1) * sizeof *rank);
	int64_t *kept_values;
	uint32_t *kept_parent, *kept_below;
	size_t kept = 0;

	if (n == 0) {
		free(rank);
		return 0;
	}
	kept_values = malloc((n ? n : 1) * len * sizeof *kept_values);
	kept_parent = malloc((n ? n : 1) * sizeof *kept_parent);
	kept_below = malloc((n ? n : 1) * sizeof *kept_below);
	if (rank == NULL || kept_values == NULL || kept_parent == NULL || kept_below == NULL) {
		free(rank);
		free(kept_values);
		free(kept_parent);
		free(kept_below);
		return (size_t)-1;
	}
	for (size_t i = 0; i < n; i++) {
		rank[i] = (struct ranked){ values[i * len], 0, i };
		for (size_t j = 1; j < len; j++)
			rank[i].rest += values[i * len + j];
	}
	qsort(rank, n, sizeof *rank, by_promise);
	for (size_t r = 0; r < n; r++) {
		const int64_t *v = &values[rank[r].index * len];
		int dominated = 0;

		if (r % 1024 == 1023)
			check_time(s);
		if (s->beam && kept >= beam_width(s, s->next_k))
			break;
		for (size_t q = 0; q < kept && !dominated; q++)
			dominated = dominates(&kept_values[q * len], v, len);
		if (dominated)
			continue;
		memcpy(&kept_values[kept * len], v, len * sizeof *v);
		kept_parent[kept] = parent[rank[r].index];
		kept_below[kept] = below[rank[r].index];
		kept++;
		if (s->beam == 0 && kept == STATE_BUDGET) {
			s->exact = 0; /* the rest are dropped unexamined */
			break;
		}
	}
	memcpy(values, kept_values, kept * len * sizeof *values);
	memcpy(parent, kept_parent, kept * sizeof *parent);
	memcpy(below, kept_below, kept * sizeof *below);
	free(rank);
	free(kept_values);
	free(kept_parent);
	free(kept_below);
	return kept;
}

/* Tensors in the order the search places them: by first layer, then id. */
struct start {
	int first, tensor;
};

static int by_first(const void *a, const void *b)
{
	const struct start *x = a, *y = b;

	if (x->first != y->first)
		return x->first - y->first;
	return x->tensor - y->tensor;
}

/* The offsets of the plan chosen by the states of STEPS ending at state
 * LAST of the final step: each tensor at its longest "lies below" path.
 * Returns 0, -1 when out of memory, -2 when the choices hold a cycle. */
static int offsets_of(const struct dmo_plan *p, const struct step *steps, size_t n_steps,
		      size_t last, uint64_t *offsets)
{
	struct edge {
		int from, to;
		int64_t gap;
	} *edges;
	size_t n_edges = 0, cap = 0, state = last;
	int changed = 1;

	for (size_t i = 0; i < n_steps; i++)
		cap += (size_t)steps[i].n_frontier;
	edges = malloc((cap ? cap : 1) * sizeof *edges);
	if (edges == NULL)
		return -1;
	for (size_t i = n_steps; i-- > 0;) {
		const struct step *st = &steps[i];

		for (int f = 0; f < st->n_frontier; f++) {
			int other = st->frontier[f], n = st->tensor;

			if (st->below[state] >> f & 1)
				edges[n_edges++] = (struct edge){ other, n, gap(p, other, n) };
			else
				edges[n_edges++] = (struct edge){ n, other, gap(p, n, other) };
		}
		state = st->parent[state];
	}
	memset(offsets, 0, p->n_tensors * sizeof *offsets);
	/* Acyclic (the search refused every cycle): settled within n passes;
	 * a change after that would be a cycle, an internal error. */
	for (size_t pass = 0; changed; pass++) {
		if (pass > p->n_tensors) {
			free(edges);
			return -2;
		}
		changed = 0;
		for (size_t e = 0; e < n_edges; e++) {
			int64_t at = (int64_t)offsets[edges[e].from] + edges[e].gap;

			if (at > (int64_t)offsets[edges[e].to]) {
				offsets[edges[e].to] = (uint64_t)at;
				changed = 1;
			}
		}
	}
	free(edges);
	return 0;
}

static void free_steps(struct step *steps, size_t n)
{
	for (size_t i = 0; steps != NULL && i < n; i++) {
		free(steps[i].frontier);
		free(steps[i].parent);
		free(steps[i].below);
	}
	free(steps);
}

/* Room for twice as many children (at least 64). */
static int grow(int64_t **values, uint32_t **parent, uint32_t **below, size_t *cap,
		size_t len)
{
	size_t more = *cap ? 2 * *cap : 64;
	int64_t *v = realloc(*values, more * len * sizeof *v);
	uint32_t *pa, *be;

	if (v == NULL)
		return -1;
	*values = v;
	pa = realloc(*parent, more * sizeof *pa);
	if (pa == NULL)
		return -1;
	*parent = pa;
	be = realloc(*below, more * sizeof *be);
	if (be == NULL)
		return -1;
	*below = be;
	*cap = more;
	return 0;
}

static uint32_t *shrink(uint32_t *array, size_t n)
{
	uint32_t *smaller = n ? realloc(array, n * sizeof *array) : NULL;

	return smaller ? smaller : array;
}

/* Expand every state of CUR (frontier of step ST) by every choice for
 * ST's tensor, project the children onto the tensors still live when the
 * next tensor starts (NEXT_FIRST; INT_MAX after the last) and prune.
 * *VALUES is replaced by the kept children; *NEXT_K is their frontier. */
static int expand(struct search *s, struct step *st, int64_t **values, int next_first,
		  int *next_frontier, int *next_k)
{
	const struct dmo_plan *p = s->plan;
	int k = st->n_frontier, kk = k + 1, keep[MAX_FRONTIER + 1], m = 0, all[MAX_FRONTIER + 1];
	size_t len = row_len(k), child_len, n_children = 0, cap;
	int64_t *children, child[1 + 2 * (MAX_FRONTIER + 1) + (MAX_FRONTIER + 1) * (MAX_FRONTIER + 1)];
	uint32_t *parent, *below;
	size_t kept;

	memcpy(all, st->frontier, (size_t)k * sizeof *all);
	all[k] = st->tensor;
	for (int i = 0; i < kk; i++)
		if (p->tensors[all[i]].last >= next_first) {
			next_frontier[m] = all[i];
			keep[m++] = i;
		}
	child_len = row_len(m);
	cap = 0;
	children = NULL;
	parent = below = NULL;
	for (size_t i = 0; i < st->n_states; i++) {
		/* Out of time: the states come most promising first (prune's
		 * order), so the beam extends only the first ones. */
		if (i % 256 == 255)
			check_time(s);
		if (s->beam && i >= beam_width(s, k))
			break;
		if ((n_children + (1u << k)) * child_len * sizeof *children > CHILDREN_BYTES) {
			s->exact = 0; /* the remaining states are dropped unexamined */
			break;
		}
		for (uint32_t choice = 0; choice < (1u << k); choice++) {
			if (extend(p, st->frontier, k, st->tensor, &(*values)[i * len], choice, child) != 0 ||
			    PEAK(child) >= s->incumbent)
				continue;
			if (n_children == cap && grow(&children, &parent, &below, &cap, child_len) != 0)
				goto fail;
			project(child, kk, keep, m, &children[n_children * child_len]);
			parent[n_children] = (uint32_t)i;
			below[n_children] = choice;
			n_children++;
		}
	}
	check_time(s);
	s->next_k = m;
	kept = prune(s, children, parent, below, n_children, child_len);
	if (kept == (size_t)-1)
		goto fail;
	if (s->exact == 0 && s->beam == 0)
		s->beam = STATE_BUDGET;
	free(*values);
	*values = children;
	/* Kept for the trace back: only the kept states' choices (a shrink
	 * that fails leaves the larger block, which is as good). */
	st->parent = shrink(parent, kept);
	st->below = shrink(below, kept);
	*next_k = m;
	return (int)kept;
fail:
	free(children);
	free(parent);
	free(below);
	return -1;
}

int dmo_plan_search(const struct dmo_plan *p, uint64_t incumbent, double time_limit,
		    const struct dmo_plan_watch *watch, uint64_t *offsets,
		    struct dmo_plan_search_result *result)
{
	struct search s = { p, (int64_t)incumbent, dmo_plan_seconds() + time_limit, 0, 1, 0, 0 };
	size_t n = p->n_tensors, best = 0;
	struct start *order = malloc(n * sizeof *order);
	struct step *steps = calloc(n, sizeof *steps);
	int64_t *values = calloc(1, sizeof *values); /* one empty plan, peak 0 */
	int frontier[MAX_FRONTIER + 1], k = 0, rc = 0;
	size_t n_states = 1;

	memset(result, 0, sizeof *result);
	result->peak = incumbent;
	if (order == NULL || steps == NULL || values == NULL) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (struct start){ p->tensors[i].first, (int)i };
	qsort(order, n, sizeof *order, by_first);
	for (size_t i = 0; i < n && n_states > 0; i++) {
		struct step *st = &steps[i];
		int kept;

		if (k > MAX_FRONTIER) {
			/* Too many tensors live at once to try every choice. */
			s.exact = 0;
			n_states = 0;
			break;
		}
		st->tensor = order[i].tensor;
		st->n_frontier = k;
		st->n_states = n_states;
		st->frontier = malloc(((size_t)k + 1) * sizeof *st->frontier);
		if (st->frontier == NULL) {
			rc = -1;
			goto out;
		}
		memcpy(st->frontier, frontier, (size_t)k * sizeof *frontier);
		kept = expand(&s, st, &values,
			      i + 1 < n ? order[i + 1].first : INT32_MAX, frontier, &k);
		if (kept < 0) {
			rc = -1;
			goto out;
		}
		n_states = (size_t)kept;
		result->states += n_states;
		if (watch != NULL && watch->tensor_placed != NULL)
			watch->tensor_placed(watch->arg, n, result->states, s.exact);
	}
	result->exact = s.exact;
	if (n_states == 0)
		goto out; /* nothing below the incumbent (proof if exact) */
	for (size_t j = 1; j < n_states; j++)
		if (values[j * row_len(k)] < values[best * row_len(k)])
			best = j;
	rc = offsets_of(p, steps, n, best, offsets);
	if (rc != 0)
		goto out;
	result->improved = 1;
	result->peak = 0;
	for (size_t t = 0; t < n; t++)
		if (offsets[t] + p->tensors[t].bytes > result->peak)
			result->peak = offsets[t] + p->tensors[t].bytes;
out:
	free_steps(steps, n);
	free(order);
	free(values);
	return rc;
}
