/* grid.c - parser and enumerator of op-spec grids (grid.h).  A grid is kept
 * as its text cut into literal pieces and sets; configuration i is rendered
 * by reading i as a mixed-radix number over the set sizes. */
#include "grid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One set item: literal text (count 1) or the range lo..hi:step. */
struct item {
	size_t off, len; /* literal: a slice of the grid text */
	int is_range;
	uint64_t lo, step, count;
};

/* A part of the grid: literal text (nitems == 0) or a set. */
struct part {
	size_t off, len;
	struct item *items;
	size_t nitems;
	uint64_t count;
};

struct dmo_grid {
	char *text;
	struct part *parts;
	size_t nparts;
	uint64_t count;
};

int dmo_column_error(char *err, size_t err_len, size_t column, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !err_len)
		return -1;
	n = snprintf(err, err_len, "column %zu: ", column);
	if (n >= 0 && (size_t)n < err_len) {
		va_start(ap, fmt);
		vsnprintf(err + n, err_len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A decimal number filling [p, p + n); -1 when empty, not digits or
 * beyond the op-spec values (2^31 - 1). */
static int parse_num(const char *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(p[i] - '0');
		if (v > 0x7fffffff)
			return -1;
	}
	*out = v;
	return 0;
}

/* Parse the item text[off, off + len) of a set. */
static int parse_item(const char *text, size_t off, size_t len, struct item *it, char *err,
		      size_t err_len)
{
	const char *p = text + off;
	const char *dots = NULL;

	for (size_t i = 0; i + 1 < len; i++)
		if (p[i] == '.' && p[i + 1] == '.') {
			dots = p + i;
			break;
		}
	if (len == 0)
		return dmo_column_error(err, err_len, off + 1, "empty item in a set");
	if (!dots) {
		*it = (struct item){ .off = off, .len = len, .count = 1 };
		return 0;
	}
	const char *hi = dots + 2, *end = p + len;
	const char *colon = memchr(hi, ':', (size_t)(end - hi));
	uint64_t lo_v, hi_v, step = 1;
	if (parse_num(p, (size_t)(dots - p), &lo_v))
		return dmo_column_error(err, err_len, off + 1,
			    "a range starts with a number below 2^31 (A..B or A..B:STEP)");
	if (parse_num(hi, (size_t)((colon ? colon : end) - hi), &hi_v))
		return dmo_column_error(err, err_len, (size_t)(hi - text) + 1,
			    "a range ends with a number below 2^31 (A..B or A..B:STEP)");
	if (colon && (parse_num(colon + 1, (size_t)(end - colon - 1), &step) || step == 0))
		return dmo_column_error(err, err_len, (size_t)(colon - text) + 2,
			    "a range's step is a positive number");
	if (hi_v < lo_v)
		return dmo_column_error(err, err_len, off + 1, "empty range: %llu > %llu",
			    (unsigned long long)lo_v, (unsigned long long)hi_v);
	*it = (struct item){ .off = off, .len = len, .is_range = 1, .lo = lo_v, .step = step,
			     .count = (hi_v - lo_v) / step + 1 };
	return 0;
}

static int add_part(struct dmo_grid *g, struct part part)
{
	struct part *parts = realloc(g->parts, (g->nparts + 1) * sizeof *parts);

	if (!parts)
		return -1;
	g->parts = parts;
	g->parts[g->nparts++] = part;
	return 0;
}

/* Parse the set whose '{' is at text[open]; *END gets the index of its '}'. */
static int parse_set(struct dmo_grid *g, size_t open, size_t *end, char *err, size_t err_len)
{
	const char *text = g->text;
	struct part set = { .off = open, .count = 0 };
	size_t start = open + 1, i;

	for (i = start;; i++) {
		char c = text[i];
		if (c == '\0') {
			free(set.items);
			return dmo_column_error(err, err_len, open + 1, "'{' is never closed");
		}
		if (c == '{') {
			free(set.items);
			return dmo_column_error(err, err_len, i + 1, "sets do not nest");
		}
		if (c != ',' && c != '}')
			continue;
		struct item *items = realloc(set.items, (set.nitems + 1) * sizeof *items);
		if (!items) {
			free(set.items);
			return dmo_column_error(err, err_len, i + 1, "out of memory");
		}
		set.items = items;
		if (parse_item(text, start, i - start, &set.items[set.nitems], err, err_len)) {
			free(set.items);
			return -1;
		}
		set.count += set.items[set.nitems++].count;
		if (set.count > DMO_GRID_MAX_CONFIGS) {
			free(set.items);
			return dmo_column_error(err, err_len, open + 1, "set has more than %llu values",
				    DMO_GRID_MAX_CONFIGS);
		}
		start = i + 1;
		if (c == '}')
			break;
	}
	set.len = i + 1 - open;
	*end = i;
	if (g->count > DMO_GRID_MAX_CONFIGS / set.count) {
		free(set.items);
		return dmo_column_error(err, err_len, open + 1, "grid has more than %llu configurations",
			    DMO_GRID_MAX_CONFIGS);
	}
	g->count *= set.count;
	if (add_part(g, set)) {
		free(set.items);
		return dmo_column_error(err, err_len, open + 1, "out of memory");
	}
	return 0;
}

int dmo_grid_parse(const char *text, struct dmo_grid **grid, char *err, size_t err_len)
{
	struct dmo_grid *g;
	size_t n, lit = 0;

	if (!text || !text[0])
		return dmo_column_error(err, err_len, 1, "empty grid");
	n = strlen(text);
	if (n > DMO_GRID_MAX_TEXT)
		return dmo_column_error(err, err_len, DMO_GRID_MAX_TEXT + 1, "grid longer than %d characters",
			    DMO_GRID_MAX_TEXT);
	g = calloc(1, sizeof *g);
	if (!g || !(g->text = strdup(text))) {
		free(g);
		return dmo_column_error(err, err_len, 1, "out of memory");
	}
	g->count = 1;
	for (size_t i = 0; i <= n; i++) {
		char c = text[i];
		if (c != '\0' && c != '{' && c != '}')
			continue;
		if (c == '}') {
			dmo_grid_free(g);
			return dmo_column_error(err, err_len, i + 1, "'}' without '{'");
		}
		if (i > lit && add_part(g, (struct part){ .off = lit, .len = i - lit })) {
			dmo_grid_free(g);
			return dmo_column_error(err, err_len, i + 1, "out of memory");
		}
		if (c == '\0')
			break;
		if (parse_set(g, i, &i, err, err_len)) {
			dmo_grid_free(g);
			return -1;
		}
		lit = i + 1;
	}
	*grid = g;
	return 0;
}

uint64_t dmo_grid_count(const struct dmo_grid *grid)
{
	return grid->count;
}

static int append(char *buf, size_t len, size_t *at, const char *p, size_t n)
{
	if (*at + n >= len)
		return -1;
	memcpy(buf + *at, p, n);
	*at += n;
	buf[*at] = '\0';
	return 0;
}

int dmo_grid_spec(const struct dmo_grid *g, uint64_t index, char *buf, size_t len)
{
	uint64_t choice[g->nparts > 0 ? g->nparts : 1];
	size_t at = 0;

	if (index >= g->count || len == 0)
		return -1;
	/* The last set varies fastest: peel choices off from the end. */
	for (size_t k = g->nparts; k-- > 0;) {
		if (!g->parts[k].nitems)
			continue;
		choice[k] = index % g->parts[k].count;
		index /= g->parts[k].count;
	}
	buf[0] = '\0';
	for (size_t k = 0; k < g->nparts; k++) {
		const struct part *p = &g->parts[k];
		if (!p->nitems) {
			if (append(buf, len, &at, g->text + p->off, p->len))
				return -1;
			continue;
		}
		uint64_t c = choice[k];
		const struct item *it = p->items;
		while (c >= it->count)
			c -= it++->count;
		if (!it->is_range) {
			if (append(buf, len, &at, g->text + it->off, it->len))
				return -1;
		} else {
			char num[24];
			int w = snprintf(num, sizeof num, "%llu",
					 (unsigned long long)(it->lo + c * it->step));
			if (append(buf, len, &at, num, (size_t)w))
				return -1;
		}
	}
	return (int)at;
}

void dmo_grid_free(struct dmo_grid *g)
{
	if (!g)
		return;
	for (size_t k = 0; k < g->nparts; k++)
		free(g->parts[k].items);
	free(g->parts);
	free(g->text);
	free(g);
}
