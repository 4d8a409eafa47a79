/* progress.c - the progress lines of progress.h. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "progress.h"

int dmo_progress_wanted(int quiet)
{
	return !quiet && isatty(STDERR_FILENO);
}

void dmo_progress_start(struct dmo_progress *p, const char *cmd, size_t total, int on)
{
	p->cmd = cmd;
	p->done = 0;
	p->total = total;
	p->on = on;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void dmo_progress_step(struct dmo_progress *p, const char *fmt, ...)
{
	struct timespec now;
	va_list ap;

	p->done++;
	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(stderr, "dmo %s: %zu/%zu ", p->cmd, p->done, p->total);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "  %.1f s\n", (double)(now.tv_sec - p->start.tv_sec) +
					  1e-9 * (double)(now.tv_nsec - p->start.tv_nsec));
}
