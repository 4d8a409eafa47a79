/* progress.h - a line on stderr as each step of a long command completes,
 * with a count, as `dmo run --model` prints its layers: only when stderr is
 * a terminal and the command was not given -q (docs/cli.md). */
#ifndef DMO_CMD_PROGRESS_H
#define DMO_CMD_PROGRESS_H

#include <stddef.h>
#include <time.h>

struct cmd_progress {
	const char *cmd;         /* "verify": lines start "dmo verify: " */
	size_t done, total;
	int on;
	struct timespec start;
};

/* Whether a command given -q (QUIET) shows progress: stderr a terminal. */
int cmd_progress_wanted(int quiet);

/* Start counting TOTAL steps of CMD; silent unless cmd_progress_wanted. */
void cmd_progress_start(struct cmd_progress *p, const char *cmd, size_t total, int quiet);

/* One more step done: "dmo CMD: DONE/TOTAL WHAT  SECONDS s". */
void cmd_progress_step(struct cmd_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
