/* report_sweep.c - `dmo report SWEEP`: a sweep's page from its own files,
 * summary.csv (as the summary) and results.csv (the residual figure and
 * the worst configurations). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "kernels.h"
#include "report_csv.h"
#include "report_html.h"

/* Configurations the worst-first table shows. */
#define WORST_SHOWN 25

/* One configuration with a formula value: its row and residual. */
struct residual {
	size_t row;
	double config, bytes, pct;
	int unsafe;
};

static int worst_first(const void *a, const void *b)
{
	const struct residual *x = a, *y = b;

	return (x->bytes < y->bytes) - (x->bytes > y->bytes);
}

static void summary(FILE *out, const struct dmo_csv_table *s)
{
	fputs("<h2>Summary</h2>\n<p>summary.csv, as <code>dmo sweep</code> wrote it.</p>\n"
	      "<table class=\"summary\" id=\"summary\">\n", out);
	for (size_t r = 0; r < s->n_rows; r++)
		dmo_html_summary_row(out, dmo_csv_cell(s, r, 0), dmo_csv_cell(s, r, 0),
				     dmo_csv_cell(s, r, 1));
	fputs("</table>\n", out);
}

static const char *metric(const struct dmo_csv_table *s, const char *name)
{
	for (size_t r = 0; r < s->n_rows; r++)
		if (strcmp(dmo_csv_cell(s, r, 0), name) == 0)
			return dmo_csv_cell(s, r, 1);
	return "";
}

/* The residual formula - exact of every configuration with a formula
 * value (a formula error has none), into *RES. */
static int residuals(const struct dmo_csv_table *t, struct residual **res, size_t *n, char *err,
		     size_t err_len)
{
	int config = dmo_csv_column(t, "config"), out = dmo_csv_column(t, "out_bytes"),
	    exact = dmo_csv_column(t, "exact_os"), formula = dmo_csv_column(t, "formula_os"),
	    verdict = dmo_csv_column(t, "verdict");

	if (config < 0 || out < 0 || exact < 0 || formula < 0 || verdict < 0)
		return dmo_errf(err, err_len, "results.csv lacks config, out_bytes, exact_os, "
				"formula_os or verdict");
	*res = calloc(t->n_rows + 1, sizeof **res);
	if (*res == NULL)
		return dmo_errf(err, err_len, "out of memory");
	*n = 0;
	for (size_t r = 0; r < t->n_rows; r++) {
		const char *f = dmo_csv_cell(t, r, formula);
		double ob = strtod(dmo_csv_cell(t, r, out), NULL);
		struct residual *q = &(*res)[*n];

		if (f[0] == '\0')
			continue;
		q->row = r;
		q->config = strtod(dmo_csv_cell(t, r, config), NULL);
		q->bytes = strtod(f, NULL) - strtod(dmo_csv_cell(t, r, exact), NULL);
		q->pct = ob > 0 ? 100 * q->bytes / ob : 0;
		q->unsafe = strcmp(dmo_csv_cell(t, r, verdict), "UNSAFE") == 0;
		(*n)++;
	}
	return 0;
}

static void figures(FILE *out, const struct residual *res, size_t n, const char *formula)
{
	double *x = calloc(n + 1, sizeof *x), *bytes = calloc(n + 1, sizeof *bytes),
	       *pct = calloc(n + 1, sizeof *pct), zero[2] = { 0, 0 }, ends[2];
	unsigned char *alarm = calloc(n + 1, 1);
	double lo = 0, hi = 0, plo = 0, phi = 0, xmax = 0;
	char title[600];

	if (x == NULL || bytes == NULL || pct == NULL || alarm == NULL)
		goto out;
	for (size_t i = 0; i < n; i++) {
		x[i] = res[i].config;
		bytes[i] = res[i].bytes;
		pct[i] = res[i].pct;
		alarm[i] = (unsigned char)res[i].unsafe;
		lo = fmin(lo, bytes[i]);
		hi = fmax(hi, bytes[i]);
		plo = fmin(plo, pct[i]);
		phi = fmax(phi, pct[i]);
		xmax = fmax(xmax, x[i]);
	}
	ends[0] = -0.5;
	ends[1] = xmax + 0.5;
	snprintf(title, sizeof title, "Residual of %s", formula);
	struct dmo_svg_series s[] = {
		{ "formula - exact (above 0: UNSAFE, red)", "#06c", x, bytes, NULL, n, DMO_SVG_POINTS,
		  alarm, 0 },
		{ "0: the formula is exact", "#888", ends, zero, NULL, 2, DMO_SVG_LINE, NULL, 1 },
	};
	struct dmo_svg_chart c = { "residual", title, "configuration", "formula - exact (bytes)", -0.5,
				   xmax + 0.5, lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.05 + 1, NAN,
				   NULL };
	fputs("<h2>Residual</h2>\n", out);
	dmo_svg_chart(out, &c, s, 2);
	s[0].y = pct;
	c.id = "residual_pct";
	c.ylabel = "formula - exact (% of OB)";
	c.ymin = plo - (phi - plo) * 0.05;
	c.ymax = phi + (phi - plo) * 0.05 + 0.01;
	dmo_svg_chart(out, &c, s, 2);
out:
	free(x);
	free(bytes);
	free(pct);
	free(alarm);
}

static void worst_table(FILE *out, const struct dmo_csv_table *t, struct residual *res, size_t n)
{
	static const char *const headers[] = { "config", "spec", "in_bytes", "out_bytes",
		"exact_os", "formula_os", "residual_bytes", "residual_pct", "verdict" };
	static const int numeric[] = { 1, 0, 1, 1, 1, 1, 1, 1, 0 };
	char pct[32];

	qsort(res, n, sizeof *res, worst_first);
	fprintf(out, "<h2>Worst configurations</h2>\n<p>The %zu with the largest formula - exact "
		"(of %zu with a formula value; every one is in results.csv).</p>\n",
		n < WORST_SHOWN ? n : WORST_SHOWN, n);
	dmo_html_table_begin(out, "worst", headers, numeric, sizeof headers / sizeof headers[0]);
	for (size_t i = 0; i < n && i < WORST_SHOWN; i++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < 6; c++)
			dmo_html_cell(out, headers[c],
				      dmo_csv_cell(t, res[i].row, dmo_csv_column(t, headers[c])));
		fprintf(out, "<td data-col=\"residual_bytes\" data-v=\"%.0f\">%.0f</td>",
			res[i].bytes, res[i].bytes);
		snprintf(pct, sizeof pct, "%.3f", res[i].pct);
		fprintf(out, "<td data-col=\"residual_pct\" data-v=\"%s\">%s</td>", pct, pct);
		dmo_html_cell(out, "verdict", dmo_csv_cell(t, res[i].row, dmo_csv_column(t, "verdict")));
		fputs("</tr>\n", out);
	}
	dmo_html_table_end(out);
}

int dmo_report_sweep_page(FILE *out, const char *dir, char *err, size_t err_len)
{
	struct dmo_csv_table results, sums;
	struct residual *res = NULL;
	size_t n = 0;
	char path[4200], title[4400], why[512];
	struct dmo_kernels k;
	int rc, known;

	snprintf(path, sizeof path, "%s/summary.csv", dir);
	if (dmo_csv_table_read(path, &sums, err, err_len) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/results.csv", dir);
	rc = dmo_csv_table_read(path, &results, err, err_len);
	if (rc == 0)
		rc = residuals(&results, &res, &n, err, err_len);
	if (rc == 0) {
		snprintf(title, sizeof title, "dmo report: sweep %s", metric(&sums, "grid"));
		const char *isa = metric(&sums, "isa_cap");
		known = dmo_kernels_of_backend(metric(&sums, "backend"),
					       strcmp(isa, "none") ? isa : NULL, &k, why,
					       sizeof why) == 0;
		dmo_html_begin(out, title, known ? &k : NULL);
		fputs("<p>Backend <span data-key=\"backend\">", out);
		dmo_html_text(out, metric(&sums, "backend"));
		fputs("</span>; formula <code>", out);
		dmo_html_text(out, metric(&sums, "formula"));
		fputs("</code>.</p>\n", out);
		summary(out, &sums);
		figures(out, res, n, metric(&sums, "formula"));
		worst_table(out, &results, res, n);
		dmo_html_end(out);
		dmo_csv_table_free(&results);
	}
	free(res);
	dmo_csv_table_free(&sums);
	return rc;
}
