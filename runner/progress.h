/* progress.h - a line on stderr as each step of a long run completes, with a
 * count: "dmo CMD: DONE/TOTAL WHAT  SECONDS s".  One format and one on/off
 * rule (stderr a terminal, no -q) for every `dmo` command and for
 * dmo-harness, which prints `dmo run`'s lines from under the tool: that is
 * why it lives in the runner's layer, below both (docs/layering.md). */
#ifndef DMO_PROGRESS_H
#define DMO_PROGRESS_H

#include <stddef.h>
#include <time.h>

struct dmo_progress {
	const char *cmd;         /* "verify": lines start "dmo verify: " */
	size_t done, total;
	int on;
	struct timespec start;
};

/* The rule: a command given -q (QUIET) or whose stderr is no terminal
 * shows no progress (docs/cli.md). */
int dmo_progress_wanted(int quiet);

/* Start counting TOTAL steps of CMD; lines are printed only when ON (the
 * front ends pass dmo_progress_wanted's answer; dmo-harness its --progress,
 * which dmo run sets by that answer). */
void dmo_progress_start(struct dmo_progress *p, const char *cmd, size_t total, int on);

/* One more step done: "dmo CMD: DONE/TOTAL WHAT  SECONDS s", WHAT from FMT. */
void dmo_progress_step(struct dmo_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
