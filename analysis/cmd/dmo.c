/* dmo.c - the `dmo` command: dispatches `dmo <cmd>` to cmd_<cmd>(). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "nearest.h"

static const struct dmo_command commands[] = {
	{ "profile", cmd_profile, "run a program under the dmo Valgrind tool" },
	{ "export", cmd_export, "turn a run directory's event files into CSV" },
	{ "analyze", cmd_analyze, "cross-check exact, algorithmic and analytic O_s of a run" },
	{ "demo", cmd_demo, "profile a reference kernel and show what dmo finds" },
	{ "run", cmd_run, "profile reference kernels for op specs or a whole model" },
	{ "formula", cmd_formula, "analytic and algorithmic O_s of op specs, without running them" },
	{ "annotate", cmd_annotate, "the source lines that load, store and bind O_s in a run" },
	{ "plot", cmd_plot, "figures of a layer: access pattern, minR/maxW bounds, threads" },
	{ "plan", cmd_plan, "arena plan of a model with and without diagonal overlaps" },
	{ "report", cmd_report, "one self-contained HTML page of a plan, a run directory or a sweep" },
	{ "model", cmd_model, "the layers and tensors dmo reads from a .tflite, .onnx or table" },
	{ "infer", cmd_infer, "run a .tflite model with its real weights in a planned arena" },
	{ "verify", cmd_verify, "run a kernel with its buffers really overlapped and compare bit for bit" },
	{ "compare", cmd_compare, "one op spec measured and verified on every backend" },
	{ "sweep", cmd_sweep, "check a formula for O_s against the tool over a grid of op specs" },
	{ "ops", cmd_ops, "the op-spec grammar: every op, key, value format and default" },
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: dmo COMMAND [OPTIONS] [ARGS]\n"
		"  or:  dmo --help | --version\n\n"
		"dmo finds how many bytes of a kernel's input and output buffers can\n"
		"share memory (the safe overlap O_s), three ways: under its Valgrind\n"
		"tool, by replaying the kernel's loop order, and by a closed form.\n"
		"\nCommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'dmo COMMAND --help' describes each command and its options.\n"
		"Layers are numbered from 1, in the order they ran, in every command.\n"
		"\nExit status (every command but dmo profile, which passes on its\n"
		"program's):\n"
		"  0  success\n"
		"  1  a finding: what the command checks failed (a verdict, an\n"
		"     overlapped run that differs, an unsafe formula), or some inputs\n"
		"     were bad and skipped, each named on stderr\n"
		"  2  misuse (bad option, operand or input), or dmo could not do its work\n");
}

/* As coreutils' close_stdout: output that never reached its file (a full
 * disk, /dev/full, a closed pipe) is a failure, not a success, and the
 * commands write through stdio, whose last buffer is only written here.
 * A command's own status wins when it already failed. */
static int finish_stdout(const char *who, int status)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	if (errno)
		fprintf(stderr, "%s: write error on standard output: %s\n", who, strerror(errno));
	else
		fprintf(stderr, "%s: write error on standard output\n", who);
	return status ? status : 2;
}

/* Standard streams closed by the caller (`dmo profile 2>&-`) reopened on
 * /dev/null: else the next file dmo opens takes descriptor 2, and what is
 * said to stderr goes into it (the run's lock got the pid, Valgrind found
 * no stderr and exited 127 before the program ran). */
static void open_standard_streams(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			_exit(2); /* nowhere to say it */
}

int main(int argc, char **argv)
{
	open_standard_streams();
	if (argc < 2) {
		fprintf(stderr, "dmo: no command given\ntry 'dmo --help'\n");
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish_stdout("dmo", 0);
	}
	if (!strcmp(argv[1], "--version")) {
		cmd_print_version(stdout);
		return finish_stdout("dmo", 0);
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name)) {
			char who[32];
			int status = commands[i].run(argc - 1, argv + 1);
			snprintf(who, sizeof who, "dmo %s", commands[i].name);
			return finish_stdout(who, status);
		}
	const char *names[sizeof commands / sizeof commands[0]];
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		names[i] = commands[i].name;
	const char *near = dmo_nearest(argv[1], strlen(argv[1]), names,
				       sizeof commands / sizeof commands[0]);
	if (near)
		fprintf(stderr, "dmo: '%s' is not a dmo command; did you mean '%s'?\n"
			"try 'dmo %s --help'\n", argv[1], near, near);
	else
		fprintf(stderr, "dmo: '%s' is not a dmo command\ntry 'dmo --help'\n", argv[1]);
	return 2;
}
