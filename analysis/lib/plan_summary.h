/* plan_summary.h - the summary of a plan as named fields, the one source
 * of `dmo plan --summary FILE` (CSV or JSON) and of `dmo report`'s
 * summary, so the page and the file cannot disagree; and the peak of
 * dmo's plan without overlaps that splits the saving into placement and
 * overlap. */
#ifndef DMO_PLAN_SUMMARY_H
#define DMO_PLAN_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h"
#include "model_table.h"
#include "plan.h"

/* The fields, in the order of summary.csv's columns. */
#define DMO_PLAN_SUMMARY_FIELDS 18

struct dmo_plan_field {
	const char *key;   /* the CSV column */
	int text;          /* 1: text (quoted in CSV), 0: a number */
	char value[512];
};

/* Fill FIELDS[DMO_PLAN_SUMMARY_FIELDS] for PLAN of MODEL_NAME, its O_s
 * from OS_NAME, for kernels K; NO_OVERLAP is dmo_plan_peak_no_overlap's. */
void dmo_plan_summary_fields(const char *model_name, const char *os_name,
			     const struct dmo_kernels *k, const struct dmo_plan *plan,
			     uint64_t no_overlap, struct dmo_plan_field *fields);

#endif
