/* analyze.c - per-layer cross-check of the three O_s methods (analyze.h).
 *
 * The exact value is the one dmo calls safe (safe_os_bytes: as run for a
 * layer run with one thread alive, else for any split of its work or, when
 * the split was declared static, for every interleaving of the observed
 * one).  The event file, when kept, is reduced again here through the same
 * rules and must agree on every value, and the value must
 * lie in [0, min(IB, OB)].  For a layer with an op spec, the algorithmic
 * and analytic values describe the reference loop order: when the
 * reference kernel ran (backend ref) the algorithmic value must equal the
 * exact one and the analytic one must not exceed it; for any other kernel
 * the differences are reported, not failed (docs/backends.md, "Verdicts"). */
#include <assert.h>
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "algorithmic.h"
#include "analytic.h"
#include "analyze.h"
#include "opspec.h"
#include "fs.h"
#include "textcol.h"
#include "trace.h"
#include "trace_format.h"

static int write_curve_point(void *ctx, const struct dmo_curve_point *p)
{
	FILE *out = ctx;
	return fprintf(out, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", p->step,
		       p->time, p->min_read, p->max_write) < 0 ? -1 : 0;
}

static int analyze_trace(const char *dir, struct dmo_layer_analysis *a, char *err,
			 size_t err_len)
{
	char events[4096], curves[4096];
	struct dmo_trace check;
	struct stat info;
	struct dmo_out out;
	int rc;

	snprintf(events, sizeof events, "%s/" DMO_TRACE_FILE_FORMAT, dir, a->row->layer);
	if (lstat(events, &info) != 0)
		return 0;
	/* Believed only if it is this layer's: a file copied from another
	 * run or renamed would give another layer's curves. */
	if (dmo_trace_open(events, &check, err, err_len) != 0)
		return -1;
	rc = dmo_trace_matches(&check, a->row, err, err_len);
	dmo_trace_close(&check);
	if (rc != 0)
		return -1;
	snprintf(curves, sizeof curves, "%s/layer-%04u-curves.csv", dir, a->row->layer);
	if (dmo_out_open(&out, curves, err, err_len) == NULL)
		return -1;
	fputs("step,time,min_read,max_write\n", out.stream);
	rc = dmo_trace_curves(events, dir, write_curve_point, out.stream, &a->trace, err,
			      err_len);
	if (rc != 0) {
		dmo_out_abandon(&out); /* part of the curves is no result */
		return -1;
	}
	if (dmo_out_commit(&out, err, err_len) != 0)
		return -1;
	a->have_trace = 1;
	a->trace_os = a->row->safe_rule == DMO_SAFE_AS_RUN ? dmo_reducer_os(&a->trace.exact)
		      : a->row->safe_rule == DMO_SAFE_ANY_SPLIT ? a->trace.split_os
							       : a->trace.any_os;
	/* A layers.csv from before threads were counted has no os_any; from
	 * before threads alive were counted, no os_split. */
	a->trace_mismatch = !a->trace.incomplete &&
			    (dmo_reducer_os(&a->trace.exact) != a->row->os_bytes ||
			     (a->row->threads > 0 && a->trace.any_os != a->row->os_any_bytes) ||
			     (a->row->alive_threads > 0 &&
			      a->trace.split_os != a->row->os_split_bytes));
	return 0;
}

/* The note of a kernel that is not the reference: what the reference
 * formulas would mean for it. */
static void describe_other_kernel(struct dmo_layer_analysis *a, uint64_t exact)
{
	const char *who = a->backend ? a->backend : "this kernel";
	int used = 0;

	if (a->algorithmic_os > exact)
		used = snprintf(a->note, sizeof a->note,
				"%s: kernel order differs: the reference formula would be unsafe "
				"by %" PRIu64 " bytes for it", who, a->algorithmic_os - exact);
	else if (a->algorithmic_os < exact)
		used = snprintf(a->note, sizeof a->note,
				"%s: kernel order differs: it allows %" PRIu64 " bytes more than "
				"the reference order (reference formula safe here)", who,
				exact - a->algorithmic_os);
	if (a->analytic_unsafe && used >= 0 && (size_t)used < sizeof a->note)
		snprintf(a->note + used, sizeof a->note - (size_t)used,
			 "%sthe analytic bound exceeds its O_s by %" PRIu64 " bytes",
			 used ? "; " : "", a->analytic_os - exact);
}

int dmo_analyze_layer(const char *dir, const struct dmo_layer_row *row, const char *backend,
		      struct dmo_layer_analysis *a, char *err, size_t err_len)
{
	struct dmo_opspec spec;
	struct dmo_algo_result algo;
	struct dmo_analytic_result bound;
	char spec_err[256];

	memset(a, 0, sizeof *a);
	a->row = row;
	a->backend = backend;
	a->reference_kernel = backend != NULL && strcmp(backend, "ref") == 0;
	if (!dmo_layer_ok(row)) {
		snprintf(a->note, sizeof a->note, "not analysed: status %s", row->status);
		return 0;
	}
	if (analyze_trace(dir, a, err, err_len) != 0)
		return -1;
	if (row->op[0] == '\0')
		return 0;
	if (dmo_opspec_parse(row->op, &spec, spec_err, sizeof spec_err) != 0) {
		snprintf(a->note, sizeof a->note, "op spec ignored: %s", spec_err);
		return 0;
	}
	if (dmo_opspec_in_bytes(&spec) != row->in_bytes ||
	    dmo_opspec_out_bytes(&spec) != row->out_bytes) {
		snprintf(a->note, sizeof a->note,
			 "op spec ignored: its buffers (%" PRIu64 "/%" PRIu64 " bytes) differ from the layer's",
			 dmo_opspec_in_bytes(&spec), dmo_opspec_out_bytes(&spec));
		return 0;
	}
	/* Both refuse only shapes the op-spec parser refused first. */
	int geometry = dmo_algorithmic(&spec, &algo) | dmo_analytic(&spec, &bound);
	assert(geometry == 0);
	(void)geometry;
	a->have_spec = 1;
	a->algorithmic_os = algo.os;
	a->analytic_os = bound.os;
	a->analytic_unsafe = bound.os > dmo_layer_safe_os(row);
	if (row->safe_rule != DMO_SAFE_AS_RUN) {
		/* Both methods model the one-thread loop order. */
		snprintf(a->note, sizeof a->note,
			 "%u threads touched I/O, %u alive: exact is %s (%s; %" PRIu64
			 " as run); algorithmic models one thread", row->threads, row->alive_threads,
			 row->safe_rule == DMO_SAFE_ANY_SPLIT ? "os_split_bytes" : "os_any_bytes",
			 dmo_safe_rule_name(row->safe_rule), row->os_bytes);
		return 0;
	}
	a->algorithmic_mismatch = algo.os != row->os_bytes;
	if (!a->reference_kernel)
		describe_other_kernel(a, row->os_bytes);
	else if (a->algorithmic_mismatch)
		snprintf(a->note, sizeof a->note,
			 "exact differs from algorithmic: the kernel did not run in the reference loop order");
	return 0;
}

/* Whether the analytic bound exceeding the safe value is dmo's failure:
 * for the reference kernel's one-thread order and its static split, it
 * must hold; for any split of the work it is a formula of one order, so
 * exceeding the safe value is reported, not failed. */
static int bound_fails(const struct dmo_layer_analysis *a)
{
	return a->analytic_unsafe && a->row->safe_rule != DMO_SAFE_ANY_SPLIT;
}

/* Whether the verdict is a failure of dmo itself. */
static int failed_verdict(const struct dmo_layer_analysis *a)
{
	return a->trace_mismatch || (a->reference_kernel && (bound_fails(a) ||
							      a->algorithmic_mismatch));
}

/* A layer's note: on its row when short; a longer one under the row,
 * indented and wrapped at word boundaries, so that no reason pushes the
 * table wider than a terminal (notes run to about 180 characters). */
enum { NOTE_ON_ROW = 60, NOTE_INDENT = 7, NOTE_WIDTH = 100 };

static void print_note(FILE *out, const char *note)
{
	size_t column = NOTE_INDENT;

	if (strlen(note) <= NOTE_ON_ROW) {
		fprintf(out, "%s%s\n", note[0] ? "  " : "", note);
		return;
	}
	fprintf(out, "\n%*s", NOTE_INDENT, "");
	while (*note != '\0') {
		size_t word = strcspn(note, " ");

		if (column > NOTE_INDENT && column + 1 + word > NOTE_WIDTH) {
			fprintf(out, "\n%*s", NOTE_INDENT, "");
			column = NOTE_INDENT;
		} else if (column > NOTE_INDENT) {
			fputc(' ', out);
			column++;
		}
		fprintf(out, "%.*s", (int)word, note);
		column += word;
		note += word;
		note += strspn(note, " ");
	}
	fputc('\n', out);
}

static const char *verdict(const struct dmo_layer_analysis *a)
{
	if (a->trace_mismatch)
		return "TRACE-MISMATCH";
	if (a->reference_kernel && bound_fails(a))
		return "UNSAFE";
	if (a->reference_kernel && a->algorithmic_mismatch)
		return "MISMATCH";
	if ((!a->reference_kernel || !bound_fails(a)) && a->have_spec) {
		/* The one-thread order only: a multi-thread layer has no algorithmic
		 * counterpart (its note says so). */
		int one_order = a->row->safe_rule == DMO_SAFE_AS_RUN;
		if (!a->reference_kernel && one_order && a->algorithmic_os > a->row->os_bytes)
			return "ref-formula-unsafe";
		if (!a->reference_kernel && one_order && a->algorithmic_os < a->row->os_bytes)
			return "ref-formula-safe";
		if (a->analytic_unsafe)
			return "ref-bound-unsafe";
	}
	if (!dmo_layer_ok(a->row))
		return "skipped";
	return a->have_spec || a->have_trace ? "ok" : "exact-only";
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void put_text(FILE *out, const char *text)
{
	csv_fwrite(out, text, strlen(text));
	fputc(',', out);
}

int dmo_analysis_report(const char *dir, const struct dmo_layer_analysis *layers,
			size_t count, FILE *out, char *err, size_t err_len)
{
	char path[4096];
	uint64_t total_out = 0, total_exact = 0, total_algo = 0, total_analytic = 0;
	uint64_t total_penalty = 0;
	int failed = 0;
	struct dmo_out written;
	FILE *csv;
	struct dmo_text_column name;

	snprintf(path, sizeof path, "%s/" DMO_ANALYSIS_CSV, dir);
	csv = dmo_out_open(&written, path, err, err_len);
	if (csv == NULL)
		return -1;
	fputs("layer,name,op,out_bytes,exact_os,trace_os,algorithmic_os,analytic_os,"
	      "penalty_bytes,penalty_pct,verdict,threads,os_bytes,backend,safe_os_rule\n", csv);
	dmo_text_column_init(&name, "name", DMO_TEXT_NAME_CAP);
	for (size_t i = 0; i < count; i++)
		dmo_text_column_see(&name, layers[i].row->name);
	fprintf(out, "%5s  ", "layer");
	dmo_text_cell(out, &name, "name", " ");
	fprintf(out, "%12s %12s %12s %12s %12s %8s  %s\n", "out_bytes", "exact", "trace",
		"algorithmic", "analytic", "penalty", "verdict");
	for (size_t i = 0; i < count; i++) {
		const struct dmo_layer_analysis *a = &layers[i];
		const struct dmo_layer_row *r = a->row;
		char exact[24] = "-", trace[24] = "-", algo[24] = "-", analytic[24] = "-";
		char penalty[24] = "-", penalty_pct[24] = "";
		uint64_t penalty_bytes = 0;

		if (dmo_layer_os_known(r))
			snprintf(exact, sizeof exact, "%" PRIu64, dmo_layer_safe_os(r));

		if (a->have_trace)
			snprintf(trace, sizeof trace, "%" PRIu64, a->trace_os);
		if (a->have_spec) {
			uint64_t safe = dmo_layer_safe_os(r);
			penalty_bytes = a->analytic_os <= safe ? safe - a->analytic_os : 0;
			snprintf(algo, sizeof algo, "%" PRIu64, a->algorithmic_os);
			snprintf(analytic, sizeof analytic, "%" PRIu64, a->analytic_os);
			snprintf(penalty, sizeof penalty, "%.3f%%", percent(penalty_bytes, r->out_bytes));
			/* A number, as dmo formula --csv writes it: no % sign. */
			snprintf(penalty_pct, sizeof penalty_pct, "%.4f",
				 percent(penalty_bytes, r->out_bytes));
			total_out += r->out_bytes;
			total_exact += safe;
			total_algo += a->algorithmic_os;
			total_analytic += a->analytic_os;
			total_penalty += penalty_bytes;
		}
		failed += failed_verdict(a);
		fprintf(out, "%5u  ", r->layer);
		dmo_text_cell(out, &name, r->name, " ");
		/* A layer refused or cut short has no O_s to show (CSV keeps
		 * layers.csv's value for scripts). */
		fprintf(out, "%12" PRIu64 " %12s %12s %12s %12s %8s  %s", r->out_bytes,
			dmo_layer_ok(r) ? exact : "-", trace, algo, analytic, penalty, verdict(a));
		print_note(out, a->note);
		fprintf(csv, "%u,", r->layer);
		put_text(csv, r->name);
		put_text(csv, r->op);
		/* exact_os is safe_os_bytes; os_bytes (as run) comes after. */
		fprintf(csv, "%" PRIu64 ",%s,%s,%s,%s,%" PRIu64 ",%s,%s,%u,%" PRIu64 ",", r->out_bytes,
			dmo_layer_os_known(r) ? exact : "", a->have_trace ? trace : "",
			a->have_spec ? algo : "",
			a->have_spec ? analytic : "", penalty_bytes,
			penalty_pct, verdict(a), r->threads, r->os_bytes);
		put_text(csv, a->backend ? a->backend : "");
		fprintf(csv, "%s\n", dmo_safe_rule_name(r->safe_rule));
	}
	if (total_out > 0) {
		fprintf(out, "%5s  ", "total");
		dmo_text_cell(out, &name, "", " ");
		fprintf(out, "%12" PRIu64 " %12" PRIu64 " %12s %12" PRIu64 " %12" PRIu64
			" %7.3f%%  (layers with an op spec; penalty %.3f%% of the exact saving)\n",
			total_out, total_exact, "", total_algo, total_analytic,
			percent(total_penalty, total_out), percent(total_penalty, total_exact));
	}
	if (dmo_out_commit(&written, err, err_len) != 0)
		return -1;
	size_t rules[DMO_SAFE_OBSERVED + 1] = { 0 };
	for (size_t i = 0; i < count; i++)
		rules[layers[i].row->safe_rule]++;
	if (count > rules[DMO_SAFE_AS_RUN])
		fprintf(out, "%zu layer%s ran while several threads were alive: their exact and "
			"trace values are the safe ones (docs/threads.md): any-split (os_split_bytes) "
			"%zu, static-split (os_any_bytes) %zu, observed-split from an older "
			"layers.csv (os_any_bytes) %zu\n", count - rules[DMO_SAFE_AS_RUN],
			count - rules[DMO_SAFE_AS_RUN] == 1 ? "" : "s", rules[DMO_SAFE_ANY_SPLIT],
			rules[DMO_SAFE_STATIC_SPLIT], rules[DMO_SAFE_OBSERVED]);
	size_t traced = 0;
	for (size_t i = 0; i < count; i++)
		traced += layers[i].have_trace != 0;
	/* Name the curves only when some were written. */
	if (traced > 0)
		fprintf(out, "analysis: %s; curves of %zu layer%s: %s/layer-NNNN-curves.csv\n", path,
			traced, traced == 1 ? "" : "s", dir);
	else
		fprintf(out, "analysis: %s (no event files, so no curves: profile with "
			"--trace=full)\n", path);
	return failed;
}
