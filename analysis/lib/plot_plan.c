/* plot_plan.c - the arena figure of a planned model (`dmo plot --plan`,
 * plots/plan.gp): every tensor as a box of its live layers and its arena
 * bytes, without and with diagonal overlaps side by side. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"
#include "plot.h"
#include "plot_gnuplot.h"

/* DIR/plan.csv: one row per tensor, both placements. */
static int write_tensors(const struct dmo_plan *plan, const char *dir, char *err, size_t err_len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/plan.csv", dir);
	f = fopen(path, "w");
	if (f == NULL) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	fputs("first,last,plain_lo,plain_hi,dmo_lo,dmo_hi,colour\n", f);
	for (size_t i = 0; i < plan->n_tensors; i++) {
		const struct dmo_plan_tensor *t = &plan->tensors[i];
		fprintf(f, "%d,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu\n", t->first,
			t->last, t->offset_plain, t->offset_plain + t->bytes, t->offset_dmo,
			t->offset_dmo + t->bytes, i % 8 + 1);
	}
	if (ferror(f) | fclose(f)) {
		snprintf(err, err_len, "%s: write failed", path);
		return -1;
	}
	return 0;
}

int dmo_plot_plan(const struct dmo_plan *plan, const char *model_name,
		  enum dmo_plot_format format, const char *out_file, char *err, size_t err_len)
{
	struct plot_gp *gp = plot_gp_open(format, out_file, err, err_len);
	char caption[256];
	int rc;

	if (gp == NULL)
		return -1;
	rc = write_tensors(plan, gp->dir, err, err_len);
	if (rc != 0)
		goto out;
	snprintf(caption, sizeof caption, "arena of %s over its %zu layers (activations only)",
		 model_name, plan->n_layers);
	plot_gp_string(gp, "title", caption);
	snprintf(caption, sizeof caption,
		 "lower bound with overlaps: %" PRIu64 " B; overlap plan: %s", plan->bound_dmo,
		 dmo_plan_status_name(plan->status));
	plot_gp_string(gp, "subtitle", caption);
	plot_gp_uint(gp, "layers", plan->n_layers);
	plot_gp_uint(gp, "peakplain", plan->peak_plain);
	plot_gp_uint(gp, "peakdmo", plan->peak_dmo);
	snprintf(caption, sizeof caption, "without overlaps: peak %" PRIu64 " B", plan->peak_plain);
	plot_gp_string(gp, "plaincaption", caption);
	snprintf(caption, sizeof caption, "with diagonal overlaps: peak %" PRIu64 " B (-%.1f %%)",
		 plan->peak_dmo,
		 plan->peak_plain ? 100.0 * (double)(plan->peak_plain - plan->peak_dmo) /
					    (double)plan->peak_plain : 0.0);
	plot_gp_string(gp, "dmocaption", caption);
	rc = plot_gp_run(gp, "plan.gp", err, err_len);
out:
	plot_gp_close(gp);
	return rc;
}
