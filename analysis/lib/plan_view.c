/* plan_view.c - a plan seen layer by layer and tensor by tensor
 * (plan_view.h). */
#include "plan_view.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "errbuf.h"

void dmo_plan_use(const struct dmo_plan *plan, struct dmo_plan_use *use)
{
	for (size_t l = 0; l < plan->n_layers; l++) {
		use[l] = (struct dmo_plan_use){ .live = plan->layers[l].live_bytes,
						.shared = plan->layers[l].overlap };
		use[l].live_dmo = use[l].live - use[l].shared;
	}
	/* A tensor live from its first layer (inputs and state: the first
	 * layer) to its last. */
	for (size_t t = 0; t < plan->n_tensors; t++) {
		const struct dmo_plan_tensor *tt = &plan->tensors[t];
		for (int l = tt->first < 0 ? 0 : tt->first; l <= tt->last && l < (int)plan->n_layers;
		     l++) {
			if (tt->offset_plain + tt->bytes > use[l].top_plain)
				use[l].top_plain = tt->offset_plain + tt->bytes;
			if (tt->offset_dmo + tt->bytes > use[l].top_dmo)
				use[l].top_dmo = tt->offset_dmo + tt->bytes;
		}
	}
}

size_t dmo_plan_peak_layer(const struct dmo_plan *plan, const struct dmo_plan_use *use)
{
	size_t peak = 0;

	for (size_t l = 1; l < plan->n_layers; l++)
		if (use[l].live_dmo > use[peak].live_dmo)
			peak = l;
	return peak;
}

void dmo_plan_tensor_label(const struct dmo_model *model, const struct dmo_plan *plan, size_t t,
			   char *buf, size_t len)
{
	const struct dmo_plan_tensor *tt = &plan->tensors[t];

	if (tt->model_tensor < 0)
		snprintf(buf, len, "scratch of layer %d", tt->producer + 1);
	else
		snprintf(buf, len, "%s", model->tensors[tt->model_tensor].name);
}

int dmo_plan_peak_no_overlap(const struct dmo_model *model, const struct dmo_plan_rules *rules,
			     double time_limit, uint64_t *peak, char *err, size_t err_len)
{
	uint64_t *zero = calloc(model->n_layers + 1, sizeof *zero);
	struct dmo_plan plain;
	int rc;

	if (zero == NULL)
		return dmo_errf(err, err_len, "out of memory");
	rc = dmo_plan_build_rules(model, zero, rules, time_limit, NULL, &plain, err, err_len);
	if (rc == 0) {
		*peak = plain.peak_dmo;
		dmo_plan_free(&plain);
	}
	free(zero);
	return rc;
}

/* Copy N bytes of TEXT to the end of BUF (of LEN), each character that
 * is not safe in a file name as '_'. */
static void append_safe(char *buf, size_t len, const char *text, size_t n)
{
	size_t used = strlen(buf);

	for (size_t i = 0; i < n && used + 1 < len; i++) {
		unsigned char c = (unsigned char)text[i];
		buf[used++] = isalnum(c) || c == '.' || c == '_' || c == '-' ? (char)c : '_';
	}
	buf[used] = '\0';
}

void dmo_model_display_name(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/'), *dot;
	char cwd[PATH_MAX];
	size_t stem;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	buf[0] = '\0';
	if (stem >= 5 && strncasecmp(base, "model", 5) == 0 &&
	    !isalnum((unsigned char)base[5])) {
		/* The folder holding it: named in PATH, or the current one. */
		const char *folder = path, *end = base > path ? base - 1 : path;
		if (end == path && base == path) {
			folder = getcwd(cwd, sizeof cwd) ? cwd : "";
			end = folder + strlen(folder);
		}
		while (end > folder && end[-1] == '/')
			end--;
		const char *start = end;
		while (start > folder && start[-1] != '/')
			start--;
		append_safe(buf, len, start, (size_t)(end - start));
		if (stem > 5 && buf[0])
			append_safe(buf, len, "-", 1);
		if (stem > 5 || !buf[0])
			append_safe(buf, len, base, stem);
		return;
	}
	append_safe(buf, len, base, stem);
}
