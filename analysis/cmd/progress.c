/* progress.c - the progress lines of progress.h. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "progress.h"

int cmd_progress_wanted(int quiet)
{
	return !quiet && isatty(STDERR_FILENO);
}

void cmd_progress_start(struct cmd_progress *p, const char *cmd, size_t total, int quiet)
{
	p->cmd = cmd;
	p->done = 0;
	p->total = total;
	p->on = cmd_progress_wanted(quiet);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void cmd_progress_step(struct cmd_progress *p, const char *fmt, ...)
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
