/* options.h - one table per command drives both getopt_long and the
 * command's --help text, so the two cannot drift apart; and the rules every
 * command shares: --help and --version, one-line usage errors prefixed
 * "dmo CMD:" and followed by "try 'dmo CMD --help'", exit status 2 for
 * misuse (docs/cli.md). */
#ifndef DMO_CMD_OPTIONS_H
#define DMO_CMD_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* Keys of options with no short form start here (a key below 0x80 is also
 * the option's one-letter form). */
enum { CMD_LONG_ONLY = 0x100 };

/* The output options several commands take, written once (options.c) with
 * one key and one help text each: a command names the ones it has in its
 * spec's OUTPUTS and reads them with cmd_output_option. */
enum { CMD_HAS_CSV = 1, CMD_HAS_JSON = 2, CMD_HAS_QUIET = 4 };
enum { CMD_KEY_CSV = 0xfe, CMD_KEY_JSON = 0xfd, CMD_KEY_QUIET = 'q' };

/* How a command prints its table: aligned text, CSV or JSON (json.h). */
enum cmd_format { CMD_TEXT, CMD_CSV, CMD_JSON };

struct cmd_output {
	enum cmd_format format; /* CMD_CSV or CMD_JSON: never both */
	int quiet;              /* -q: no progress lines */
};

struct cmd_option {
	const char *name;  /* long name, without "--"; NULL ends a table */
	int has_arg;       /* no_argument or required_argument */
	int key;           /* what cmd_getopt returns: a letter (then -LETTER
			    * works too) or a code >= CMD_LONG_ONLY */
	const char *arg;   /* the value's name in the help, e.g. "DIR" */
	const char *help;  /* '\n' starts a continuation line */
};

/* A command's options come from up to CMD_MAX_TABLES tables, so options
 * that several commands share are written once (profile_options.h). */
#define CMD_MAX_TABLES 3

struct cmd_spec {
	const char *name;        /* "run": messages start "dmo run: " */
	const char *synopsis;    /* what follows "dmo NAME " on the usage
				  * line; '\n' separates alternative forms */
	const char *description; /* paragraphs before the options */
	const struct cmd_option *tables[CMD_MAX_TABLES];
	const char *notes;       /* paragraphs after the options, or NULL */
	const char *finding;     /* what exit status 1 means, or NULL when
				  * the command has no finding to report */
	const char *exit_status; /* a rule of its own instead (dmo profile
				  * passes on the program's status) */
	int stop_at_operand;     /* options end at the first operand */
	unsigned outputs;        /* CMD_HAS_* it takes, listed after its tables */
};

/* The next option of ARGV, as getopt_long: its key (optarg holds the value)
 * or -1 after the last one (optind is the first operand).  It handles the
 * rest itself, as git's option parser does: --help prints the full text on
 * stdout and exits 0, --version prints dmo's version and exits 0, an
 * unknown option or a missing value prints one line and the hint on stderr
 * and exits 2. */
int cmd_getopt(const struct cmd_spec *spec, int argc, char **argv);

/* KEY, as cmd_getopt returned it: one of the output options (--csv,
 * --json, -q) recorded in OUT and 1, or 0 for any other key.  --csv and
 * --json together are a usage error of SPEC's command: it exits 2. */
int cmd_output_option(const struct cmd_spec *spec, int key, struct cmd_output *out);

/* A usage error after parsing: "dmo NAME: MESSAGE" and the --help hint on
 * stderr.  Returns 2, the status of misuse. */
int cmd_misuse(const struct cmd_spec *spec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The command's --help text, generated from SPEC. */
void cmd_print_help(const struct cmd_spec *spec, FILE *out);

/* "dmo VERSION", what `dmo --version` and `dmo CMD --version` print. */
void cmd_print_version(FILE *out);

#endif
