/* plot_memory.c - the access figures of a layer, pattern and threads
 * (plots/memory.gp): every access at its time and byte offset, the input
 * moved onto the output by the exact O_s, and the two accesses that set
 * it ringed, labelled with their source lines when the run folder has the
 * layer's code locations (layer-NNNN-where.csv). */
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "plot_kinds.h"
#include "where.h"

/* "W(O) FILE:LINE (FUNCTION)" of one pair row (its kind first, as the
 * key spells it), FILE its base name; for an instruction with no line
 * "OBJECT+0xADDRESS (FUNCTION)"; and " from CALLER" when its source is
 * not here, CALLER the outermost frame of called_from.  Commas and quotes, which the
 * CSV's quoting would have to carry through gnuplot, become spaces and
 * apostrophes. */
static void source_label(const struct dmo_where_row *r, char *label, size_t len)
{
	const char *fn = r->function[0] ? r->function : "???";
	const char *file = strrchr(r->file, '/') ? strrchr(r->file, '/') + 1 : r->file;
	const char *object = strrchr(r->object, '/') ? strrchr(r->object, '/') + 1 : r->object;
	const char *caller = strrchr(r->called_from, ';') ? strrchr(r->called_from, ';') + 2
							 : r->called_from;
	int out = r->kind == DMO_COUNT_OUT_READS || r->kind == DMO_COUNT_OUT_WRITES;
	int write = r->kind == DMO_COUNT_IN_WRITES || r->kind == DMO_COUNT_OUT_WRITES;
	size_t used = (size_t)snprintf(label, len, "%s(%s) ", write ? "W" : "R", out ? "O" : "I");
	if (r->line > 0)
		used += (size_t)snprintf(label + used, len - used, "%s:%u (%s)", file, r->line, fn);
	else
		used += (size_t)snprintf(label + used, len - used, "%s+0x%" PRIx64 " (%s)",
					 object[0] ? object : "?",
					 r->in_object ? r->object_address : r->ip, fn);
	if (caller[0] && used < len) /* else the label was cut short already */
		snprintf(label + used, len - used, " from %s", caller);
	for (char *c = label; *c; c++)
		if (*c == ',' || *c == '"')
			*c = *c == ',' ? ' ' : '\'';
}

/* The source labels of the scan's pair into LABELS, from the layer's
 * where file beside EVENT_FILE: only when the tool's pair is the same two
 * accesses (kind, offset, size) as the one the trace gives; else (no
 * file, an unreadable one, another pair) none, and the figure is drawn as
 * without. */
static int pair_labels(const char *event_file, unsigned layer, const struct plot_scan *s,
		       char labels[2][600])
{
	char dir[PATH_MAX], path[PATH_MAX], err[PATH_MAX + 256];
	struct dmo_where w;
	int same = 1;

	snprintf(dir, sizeof dir, "%s", event_file);
	dmo_where_path(dirname(dir), layer, path, sizeof path);
	if (dmo_where_read(path, &w, err, sizeof err) != 0)
		return 0;
	for (int i = 0; i < 2 && same; i++)
		same = w.pair[i] != NULL && w.pair[i]->kind == dmo_event_kind(s->pair[i].flags) &&
		       w.pair[i]->offset == s->pair[i].offset && w.pair[i]->size == s->pair[i].size;
	for (int i = 0; i < 2 && same; i++)
		source_label(w.pair[i], labels[i], sizeof labels[i]);
	dmo_where_free(&w);
	return same;
}

/* pair.csv: the two events that set O_s, at their drawn positions: the
 * output side at its range's end, the input side at its range's start.
 * LABEL says which they are and the bound they give, for the legend
 * (short: a key column is as wide as its longest entry). */
static int write_pair(const char *dir, const struct plot_scan *s, uint64_t in_shift,
		      const char (*sources)[600], char *label, size_t label_len)
{
	char path[PATH_MAX], side[2][40];
	uint64_t edge[2]; /* o_end of the output-side event, i of the input side */
	FILE *f;

	for (int i = 0; i < 2; i++) {
		const struct dmo_event *e = &s->pair[i];
		int out = (e->flags & DMO_EV_OUT) != 0;
		edge[i] = out ? (uint64_t)e->offset + e->size : e->offset;
		snprintf(side[i], sizeof side[i], "%s(%s) %s %" PRIu64,
			 (e->flags & DMO_EV_WRITE) ? "W" : "R", out ? "O" : "I",
			 out ? "end" : "offset", edge[i]);
	}
	/* Exactly one event of a forbidding pair is on the output buffer. */
	int o = (s->pair[0].flags & DMO_EV_OUT) ? 0 : 1;
	snprintf(label, label_len, "%s, then %s: %s = OB + %" PRIu64 " - %" PRIu64, side[0], side[1],
		 s->any.n_threads > 1 ? "O_s as run" : "O_s", edge[1 - o], edge[o]);
	snprintf(path, sizeof path, "%s/pair.csv", dir);
	f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fputs("time,offset,source\n", f);
	for (int i = 0; i < 2; i++)
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",\"%s\"\n", s->pair[i].time,
			edge[i] + (i == o ? 0 : in_shift), sources != NULL ? sources[i] : "");
	return (ferror(f) | fclose(f)) ? -1 : 0;
}

int plot_memory_figure(const struct plot_kind *kind, const struct dmo_plot_request *req,
		       const struct plot_scan *s, struct plot_gp *gp,
		       struct dmo_plot_result *res, char *err, size_t err_len)
{
	struct plot_series_list list;
	char detail[160], pair[200] = "", sources[2][600];
	int known = dmo_layer_os_known(req->row);
	/* No pair sets an O_s the layer does not have. */
	int have_pair = known && s->have_pair;
	int have_sources = have_pair && pair_labels(req->event_file, req->row->layer, s, sources);
	uint64_t in_shift = req->row->out_bytes - (known ? plot_safe_os(req->row, s) : 0);

	if (plot_series_write(req->event_file, gp->dir, kind->series, in_shift, s, &list, err,
			      err_len) != 0)
		return -1;
	res->points = list.rows;
	res->decimated = list.decimated;
	if (have_pair &&
	    write_pair(gp->dir, s, in_shift, have_sources ? sources : NULL, pair, sizeof pair) !=
		    0) {
		snprintf(err, err_len, "cannot write plot data in %s", gp->dir);
		return -1;
	}
	if (list.decimated)
		snprintf(detail, sizeof detail,
			 "decimated 1:%" PRIu64 " (min/max envelopes in %u time bins)",
			 s->events / (list.rows ? list.rows : 1), DMO_PLOT_BINS);
	else
		snprintf(detail, sizeof detail, "every event drawn");
	plot_layer_header(gp, kind, req, s, detail);
	plot_gp_string(gp, "inseries", list.in_stems);
	plot_gp_string(gp, "outseries", list.out_stems);
	plot_gp_string(gp, "threads", list.threads);
	plot_gp_uint(gp, "decimated", (uint64_t)list.decimated);
	plot_gp_uint(gp, "have_pair", (uint64_t)have_pair);
	plot_gp_uint(gp, "have_sources", (uint64_t)have_sources);
	plot_gp_uint(gp, "pairtime0", have_pair ? s->pair[0].time : 0);
	plot_gp_uint(gp, "pairtime1", have_pair ? s->pair[1].time : 0);
	plot_gp_string(gp, "pairtitle", pair);
	return plot_gp_run(gp, kind->template_name, err, err_len);
}
