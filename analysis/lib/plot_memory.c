/* plot_memory.c - the access figures of a layer, pattern and threads
 * (plots/memory.gp): every access at its time and byte offset, the input
 * moved onto the output by the exact O_s, and the two accesses that set
 * it ringed. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "plot_kinds.h"

/* pair.csv: the two events that set O_s, at their drawn positions: the
 * output side at its range's end, the input side at its range's start.
 * LABEL says which they are and the bound they give, for the legend
 * (short: a key column is as wide as its longest entry). */
static int write_pair(const char *dir, const struct plot_scan *s, uint64_t in_shift,
		      char *label, size_t label_len)
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
	fputs("time,offset\n", f);
	for (int i = 0; i < 2; i++)
		fprintf(f, "%" PRIu64 ",%" PRIu64 "\n", s->pair[i].time,
			edge[i] + (i == o ? 0 : in_shift));
	return (ferror(f) | fclose(f)) ? -1 : 0;
}

int plot_memory_figure(const struct plot_kind *kind, const struct dmo_plot_request *req,
		       const struct plot_scan *s, struct plot_gp *gp,
		       struct dmo_plot_result *res, char *err, size_t err_len)
{
	struct plot_series_list list;
	char detail[160], pair[200] = "";
	int known = dmo_layer_os_known(req->row);
	/* No pair sets an O_s the layer does not have. */
	int have_pair = known && s->have_pair;
	uint64_t in_shift = req->row->out_bytes - (known ? plot_safe_os(req->row, s) : 0);

	if (plot_series_write(req->event_file, gp->dir, kind->series, in_shift, s, &list, err,
			      err_len) != 0)
		return -1;
	res->points = list.rows;
	res->decimated = list.decimated;
	if (have_pair &&
	    write_pair(gp->dir, s, in_shift, pair, sizeof pair) != 0) {
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
	plot_gp_string(gp, "pairtitle", pair);
	return plot_gp_run(gp, kind->template_name, err, err_len);
}
