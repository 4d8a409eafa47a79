/* plot.c - the figures of one profiled layer (plot.h): the table of kinds,
 * and what each of them goes through: the scan of the layer's events, a
 * data folder, the shared title and O_s values, then the kind's renderer
 * (plot_memory.c, plot_bounds.c).  Also the sweep figure's entry point
 * (see there why it is here); the plan's is plot_plan.c. */
#include "plot.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "plot_kinds.h"

static const struct plot_kind kinds[] = {
	[DMO_PLOT_PATTERN] = { "pattern", "Access pattern", "pattern.gp", PLOT_BY_KIND,
			       plot_memory_figure },
	[DMO_PLOT_BOUNDS] = { "bounds", "minR/maxW bounds", "bounds.gp", PLOT_BY_KIND,
			      plot_bounds_figure },
	[DMO_PLOT_THREADS] = { "threads", "Threads", "threads.gp", PLOT_BY_THREAD,
			       plot_memory_figure },
};

const char *dmo_plot_kind_name(enum dmo_plot_kind kind)
{
	return kinds[kind].name;
}

int dmo_plot_kind_parse(const char *name, enum dmo_plot_kind *kind)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(name, kinds[i].name) == 0) {
			*kind = (enum dmo_plot_kind)i;
			return 0;
		}
	return -1;
}

static const char *const format_names[DMO_PLOT_N_FORMATS] = {
	[DMO_PLOT_PNG] = "png", [DMO_PLOT_SVG] = "svg", [DMO_PLOT_PDF] = "pdf",
};

const char *dmo_plot_format_name(enum dmo_plot_format format)
{
	return format_names[format];
}

int dmo_plot_formats_parse(const char *text, unsigned *formats)
{
	*formats = 0;
	for (const char *word = text;; word += strcspn(word, ",") + 1) {
		size_t n = strcspn(word, ","), f;
		for (f = 0; f < DMO_PLOT_N_FORMATS; f++)
			if (strlen(format_names[f]) == n && strncmp(word, format_names[f], n) == 0)
				break;
		if (f == DMO_PLOT_N_FORMATS)
			return -1;
		*formats |= 1u << f;
		if (word[n] == '\0')
			return 0;
	}
}

void dmo_plot_output_path(const struct dmo_plot_output *out, enum dmo_plot_format format,
			  char *path, size_t len)
{
	const char *dot = strrchr(out->file, '.'), *slash = strrchr(out->file, '/');
	int stem = (int)strlen(out->file);

	/* FILE's own figure extension gives way to each format's. */
	for (int f = 0; dot != NULL && (slash == NULL || dot > slash) && f < DMO_PLOT_N_FORMATS; f++)
		if (strcmp(dot + 1, format_names[f]) == 0)
			stem = (int)(dot - out->file);
	snprintf(path, len, "%.*s.%s", stem, out->file, format_names[format]);
}

void dmo_plot_output_print(const struct dmo_plot_output *out, FILE *stream)
{
	char path[4096];

	for (int f = 0; f < DMO_PLOT_N_FORMATS; f++)
		if ((out->formats ? out->formats : 1u << DMO_PLOT_PNG) & 1u << f) {
			dmo_plot_output_path(out, (enum dmo_plot_format)f, path, sizeof path);
			fprintf(stream, "%s\n", path);
		}
}

uint64_t plot_safe_os(const struct dmo_layer_row *row, const struct plot_scan *s)
{
	return row->safe_rule == DMO_SAFE_AS_RUN    ? dmo_reducer_os(&s->red)
	       : row->safe_rule == DMO_SAFE_ANY_SPLIT ? dmo_any_split_os(&s->any)
						      : dmo_any_os(&s->any);
}

void plot_layer_header(struct plot_gp *gp, const struct plot_kind *kind,
		       const struct dmo_plot_request *req, const struct plot_scan *s,
		       const char *detail)
{
	const struct dmo_layer_row *row = req->row;
	char title[1600], subtitle[512], value[160];
	/* A layer cut short has no O_s: nothing is drawn as if it had one. */
	int known = dmo_layer_os_known(row);
	uint64_t ob = row->out_bytes, os = known ? plot_safe_os(row, s) : 0;
	uint64_t os_run = known ? dmo_reducer_os(&s->red) : 0;

	snprintf(title, sizeof title, "%s of layer %u '%s'%s%s%s", kind->what, row->layer,
		 row->name, row->op[0] ? " (" : "", row->op, row->op[0] ? ")" : "");
	if (!known)
		snprintf(subtitle, sizeof subtitle,
			 "INCOMPLETE layer (the program ended inside it): no O_s; OB = %" PRIu64
			 " B, IB = %" PRIu64 " B, %" PRIu64 " events seen",
			 ob, row->in_bytes, s->events);
	else {
		if (row->safe_rule != DMO_SAFE_AS_RUN)
			snprintf(value, sizeof value, "%u threads, %u alive: O_s = %" PRIu64
				 " B (%s; %" PRIu64 " B as run)", s->any.n_threads, row->alive_threads,
				 os, dmo_safe_rule_name(row->safe_rule), os_run);
		else
			snprintf(value, sizeof value, "O_s = %" PRIu64 " B", os);
		snprintf(subtitle, sizeof subtitle,
			 "%s of OB = %" PRIu64 " B (%.2f %%), IB = %" PRIu64 " B, %" PRIu64 " events",
			 value, ob, ob ? 100.0 * (double)os / (double)ob : 0.0, row->in_bytes,
			 s->events);
	}
	/* The detail after the subtitle, or under it when both together
	 * are long. */
	char text[sizeof title + sizeof subtitle + 200];
	snprintf(text, sizeof text, "%s\n%s%s%s", title, subtitle,
		 strlen(subtitle) + strlen(detail) > 150 ? "\n" : "; ", detail);
	plot_gp_title(gp, text);
	plot_gp_uint(gp, "ob", ob);
	plot_gp_uint(gp, "ib", row->in_bytes);
	plot_gp_uint(gp, "os", os);
	plot_gp_uint(gp, "osrun", os_run);
	plot_gp_string(gp, "osrule", dmo_safe_rule_name(row->safe_rule));
	plot_gp_uint(gp, "known", (uint64_t)known);
	/* One event, or all at one instant, still has a time axis. */
	plot_gp_uint(gp, "tlo", s->t_min);
	plot_gp_uint(gp, "thi", s->t_max + 1);
}

int dmo_plot_render(const struct dmo_plot_request *req, struct dmo_plot_result *res,
		    char *err, size_t err_len)
{
	const struct plot_kind *kind = &kinds[req->kind];
	struct plot_scan s;
	struct plot_gp *gp;
	int rc;

	memset(res, 0, sizeof *res);
	if (plot_scan_file(req->event_file, req->row->in_bytes, req->row->out_bytes, &s, err,
			   err_len) != 0)
		return -1;
	res->events = s.events;
	res->os = dmo_reducer_os(&s.red);
	res->os_safe = plot_safe_os(req->row, &s);
	res->threads = s.any.n_threads;
	gp = plot_gp_open(&req->out, 1200, 800, err, err_len);
	if (gp == NULL)
		return -1;
	rc = kind->render(kind, req, &s, gp, res, err, err_len);
	plot_gp_close(gp);
	return rc;
}

/* A formula sweep's figure.  It lives in this file, the one every dmo
 * link pulls in, because its caller (sweep.c) is in libdmo-analysis,
 * which links after libdmo-plot: in a file of its own it would never be
 * pulled from the archive. */
int dmo_plot_sweep(const char *data_csv, const char *title, const char *subtitle,
		   const struct dmo_plot_output *out, char *err, size_t err_len)
{
	struct plot_gp *gp = plot_gp_open(out, 1200, 800, err, err_len);
	int rc;

	if (gp == NULL)
		return -1;
	char text[4096];

	snprintf(text, sizeof text, "%s\n%s", title, subtitle);
	plot_gp_string(gp, "datafile", data_csv);
	plot_gp_title(gp, text);
	rc = plot_gp_run(gp, "sweep.gp", err, err_len);
	plot_gp_close(gp);
	return rc;
}
