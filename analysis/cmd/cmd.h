/* cmd.h - the `dmo` subcommands.  Each cmd_<name>.c is a thin front end:
 * it parses options with cmd_getopt (options.h) from one table that also
 * writes its --help, and calls into analysis/lib. */
#ifndef DMO_CMD_H
#define DMO_CMD_H

#include "options.h"

struct dmo_command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
	const char *summary;
};

int cmd_profile(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_formula(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_infer(int argc, char **argv);
int cmd_ops(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

#endif
