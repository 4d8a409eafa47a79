/* analyze.h - the three methods side by side for each layer of a run
 * directory: the tool's online O_s, the same recomputed from the event
 * file, the algorithmic and analytic O_s of the layer's op spec, and the
 * verdicts that relate them. */
#ifndef DMO_ANALYZE_H
#define DMO_ANALYZE_H

#include <stdio.h>

#include "curves.h"
#include "rundir.h"

struct dmo_layer_analysis {
	const struct dmo_layer_row *row;
	int have_trace;             /* an event file was found and read */
	struct dmo_curve_summary trace;
	uint64_t trace_os;
	const char *backend;        /* what ran the layer (backend.csv), NULL: unknown */
	int reference_kernel;       /* it was libdmokernels (backend ref) */
	int have_spec;              /* the op spec parsed */
	uint64_t algorithmic_os, analytic_os;
	/* Verdicts; each is 0 when it does not apply. */
	int trace_mismatch;         /* event file disagrees with the tool */
	int out_of_range;           /* exact O_s > min(IB, OB) */
	/* For the reference kernel these are failures of dmo; for any other
	 * kernel they describe how it differs from the reference loop order
	 * (docs/backends.md, "Verdicts"). */
	int algorithmic_mismatch;   /* the kernel did not run in the reference order */
	int analytic_unsafe;        /* analytic > exact */
	char note[320];
};

/* Analyse one row run by BACKEND (NULL: unknown, e.g. dmo profile of any
 * program); with a trace, also write DIR/layer-NNNN-curves.csv. */
int dmo_analyze_layer(const char *dir, const struct dmo_layer_row *row, const char *backend,
		      struct dmo_layer_analysis *a, char *err, size_t err_len);

/* Print the table with totals; write DIR/analysis.csv.  Returns the number
 * of failed verdicts, or -1 when the CSV could not be written. */
int dmo_analysis_report(const char *dir, const struct dmo_layer_analysis *layers,
			size_t count, FILE *out, char *err, size_t err_len);

#endif
