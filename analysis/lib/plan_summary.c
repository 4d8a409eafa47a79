/* plan_summary.c - a plan's summary as named fields (plan_summary.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "plan_summary.h"

static void field(struct dmo_plan_field *f, const char *key, int text, const char *format, ...)
	__attribute__((format(printf, 4, 5)));

static void field(struct dmo_plan_field *f, const char *key, int text, const char *format, ...)
{
	va_list ap;

	f->key = key;
	f->text = text;
	va_start(ap, format);
	vsnprintf(f->value, sizeof f->value, format, ap);
	va_end(ap);
}

void dmo_plan_summary_fields(const char *model_name, const char *os_name,
			     const struct dmo_kernels *k, const struct dmo_plan *p,
			     uint64_t no_overlap, struct dmo_plan_field *f)
{
	field(&f[0], "model", 1, "%s", model_name);
	field(&f[1], "kernels", 1, "%s", k->name);
	field(&f[2], "kernels_version", 1, "%s", k->version);
	field(&f[3], "os", 1, "%s", os_name);
	field(&f[4], "arena", 1, "%s", dmo_plan_arena_kind(p));
	field(&f[5], "align", 0, "%llu", (unsigned long long)p->align);
	field(&f[6], "scratch_buffers", 0, "%zu", p->n_scratch);
	field(&f[7], "peak_plain", 0, "%llu", (unsigned long long)p->peak_plain);
	field(&f[8], "peak_no_overlap", 0, "%llu", (unsigned long long)no_overlap);
	field(&f[9], "peak_dmo", 0, "%llu", (unsigned long long)p->peak_dmo);
	field(&f[10], "peak_greedy", 0, "%llu", (unsigned long long)p->peak_by_size);
	field(&f[11], "peak_reverse", 0, "%llu", (unsigned long long)p->peak_reverse);
	field(&f[12], "bound", 0, "%llu", (unsigned long long)p->bound_dmo);
	field(&f[13], "bound_layer", 0, "%d", p->bound_layer + 1);
	field(&f[14], "status", 1, "%s", dmo_plan_status_name(p->status));
	field(&f[15], "saving_bytes", 0, "%llu", (unsigned long long)(p->peak_plain - p->peak_dmo));
	field(&f[16], "saving_placement", 0, "%lld",
	      (long long)p->peak_plain - (long long)no_overlap);
	field(&f[17], "saving_overlap", 0, "%lld", (long long)no_overlap - (long long)p->peak_dmo);
}
