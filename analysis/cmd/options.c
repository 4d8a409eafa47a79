/* options.c - getopt_long's tables and each command's --help text, built
 * from one struct cmd_spec (options.h). */
#include "options.h"
#include "nearest.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { KEY_HELP = 'h', KEY_VERSION = 0xff };

/* --help and --version, which every command takes. */
static const struct cmd_option common_options[] = {
	{ "help", no_argument, KEY_HELP, NULL, "show this help and exit" },
	{ "version", no_argument, KEY_VERSION, NULL, "show dmo's version and exit" },
	{ NULL, 0, 0, NULL, NULL },
};

/* The output options (options.h), each taken by the commands whose spec
 * names its flag. */
static const struct output_option {
	unsigned flag;
	struct cmd_option option;
} output_options[] = {
	{ CMD_HAS_CSV, { "csv", no_argument, CMD_KEY_CSV, NULL,
			 "print the table as CSV: a header line naming the\n"
			 "columns, then a row a line" } },
	{ CMD_HAS_JSON, { "json", no_argument, CMD_KEY_JSON, NULL,
			  "print the table as JSON: an array of objects, one a\n"
			  "row, keyed by the CSV header's names" } },
	{ CMD_HAS_QUIET, { "quiet", no_argument, CMD_KEY_QUIET, NULL,
			   "no progress lines on stderr (shown only when stderr\n"
			   "is a terminal)" } },
};

#define N_OUTPUT_OPTIONS (sizeof output_options / sizeof output_options[0])
#define MAX_OPTIONS 64

/* getopt_long's view of the spec last parsed; rebuilt when another
 * command parses. */
static const struct cmd_spec *built_for;
static struct option long_options[MAX_OPTIONS + 1];
static char short_options[3 * MAX_OPTIONS + 3];

/* Each option of SPEC's tables, its output options and then the common
 * ones, in help order. */
static const struct cmd_option *option_at(const struct cmd_spec *spec, size_t index)
{
	for (int t = 0; t < CMD_MAX_TABLES; t++)
		for (const struct cmd_option *o = spec->tables[t]; o != NULL && o->name != NULL; o++)
			if (index-- == 0)
				return o;
	for (size_t k = 0; k < N_OUTPUT_OPTIONS; k++)
		if ((spec->outputs & output_options[k].flag) && index-- == 0)
			return &output_options[k].option;
	for (const struct cmd_option *o = common_options; o->name != NULL; o++)
		if (index-- == 0)
			return o;
	return NULL;
}

static int has_short(const struct cmd_option *o)
{
	return o->key < 0x80;
}

static void build(const struct cmd_spec *spec)
{
	const struct cmd_option *o;
	size_t n = 0, s = 0;

	/* ':' first: a missing value is told apart from an unknown option. */
	if (spec->stop_at_operand)
		short_options[s++] = '+';
	short_options[s++] = ':';
	for (; (o = option_at(spec, n)) != NULL && n < MAX_OPTIONS; n++) {
		long_options[n] = (struct option){ o->name, o->has_arg, NULL, o->key };
		if (has_short(o)) {
			short_options[s++] = (char)o->key;
			if (o->has_arg == required_argument)
				short_options[s++] = ':';
		}
	}
	long_options[n] = (struct option){ NULL, 0, NULL, 0 };
	short_options[s] = '\0';
	built_for = spec;
}

static const struct cmd_option *option_with_key(const struct cmd_spec *spec, int key)
{
	const struct cmd_option *o;

	for (size_t i = 0; (o = option_at(spec, i)) != NULL; i++)
		if (o->key == key)
			return o;
	return NULL;
}

static void vmessage(const struct cmd_spec *spec, const char *fmt, va_list ap)
{
	fprintf(stderr, "dmo %s: ", spec->name);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\ntry 'dmo %s --help'\n", spec->name);
}

int cmd_output_option(const struct cmd_spec *spec, int key, struct cmd_output *out)
{
	switch (key) {
	case CMD_KEY_CSV:
	case CMD_KEY_JSON:
		if (out->format != CMD_TEXT && out->format != (key == CMD_KEY_CSV ? CMD_CSV : CMD_JSON)) {
			cmd_misuse(spec, "give one of --csv and --json");
			exit(2);
		}
		out->format = key == CMD_KEY_CSV ? CMD_CSV : CMD_JSON;
		return 1;
	case CMD_KEY_QUIET:
		out->quiet = 1;
		return 1;
	}
	return 0;
}

int cmd_misuse(const struct cmd_spec *spec, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(spec, fmt, ap);
	va_end(ap);
	return 2;
}

/* stdout was written: exit 0, or 2 when it could not be (a full disk, a
 * closed pipe), as coreutils do. */
static void exit_after_output(void)
{
	exit(fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2);
}

/* "unknown option '--verfiy'", with the nearest option SPEC's command
 * takes when the word looks like a slip of it. */
static void unknown_long_option(const struct cmd_spec *spec, const char *arg)
{
	const char *names[MAX_OPTIONS], *near;
	const struct cmd_option *o;
	size_t n = 0, len;

	for (; n < MAX_OPTIONS && (o = option_at(spec, n)) != NULL; n++)
		names[n] = o->name;
	/* The word alone: "--verfiy=1" is a slip of "--verify" too. */
	len = strncmp(arg, "--", 2) == 0 ? strcspn(arg + 2, "=") : 0;
	near = len ? dmo_nearest(arg + 2, len, names, n) : NULL;
	if (near)
		cmd_misuse(spec, "unknown option '%s'; did you mean '--%s'?", arg, near);
	else
		cmd_misuse(spec, "unknown option '%s'", arg);
}

int cmd_getopt(const struct cmd_spec *spec, int argc, char **argv)
{
	int key;

	if (built_for != spec)
		build(spec);
	opterr = 0; /* the messages below say which command */
	key = getopt_long(argc, argv, short_options, long_options, NULL);
	switch (key) {
	case KEY_HELP:
		cmd_print_help(spec, stdout);
		exit_after_output();
		break;
	case KEY_VERSION:
		cmd_print_version(stdout);
		exit_after_output();
		break;
	case ':':
		cmd_misuse(spec, "option '%s' needs a value", argv[optind - 1]);
		exit(2);
	case '?':
		if (optopt != 0 && option_with_key(spec, optopt) == NULL)
			cmd_misuse(spec, "unknown option -%c", optopt);
		else if (optopt != 0)
			cmd_misuse(spec, "option '%s' takes no value", argv[optind - 1]);
		else
			unknown_long_option(spec, argv[optind - 1]);
		exit(2);
	}
	return key;
}

/* TEXT, each of its lines indented by INDENT after the first. */
static void indented(FILE *out, const char *text, int indent)
{
	for (const char *p = text; *p; p++) {
		fputc(*p, out);
		if (*p == '\n' && p[1] != '\0')
			fprintf(out, "%*s", indent, "");
	}
}

/* "  -o, --out DIR" or "      --isa CAP": an option's left column. */
static int option_label(const struct cmd_option *o, char *label, size_t len)
{
	char letter[8] = "    ";

	if (has_short(o))
		snprintf(letter, sizeof letter, "-%c, ", o->key);
	return snprintf(label, len, "  %s--%s%s%s", letter, o->name, o->arg ? " " : "",
			o->arg ? o->arg : "");
}

/* Labels up to this width have their help beside them, longer ones above. */
#define HELP_COLUMN 24

void cmd_print_help(const struct cmd_spec *spec, FILE *out)
{
	const struct cmd_option *o;
	const char *form = spec->synopsis;
	char label[128];

	/* "Usage:" and "  or:" are the forms help2man reads (docs/man.mk). */
	for (int first = 1; first || *form; first = 0) {
		size_t len = strcspn(form, "\n");

		fprintf(out, "%s dmo %s%s%.*s\n", first ? "Usage:" : "  or: ", spec->name,
			len ? " " : "", (int)len, form);
		form += len + (form[len] == '\n');
	}
	fprintf(out, "\n%s\nOptions:\n", spec->description);
	for (size_t i = 0; (o = option_at(spec, i)) != NULL; i++) {
		int width = option_label(o, label, sizeof label);

		if (width + 2 > HELP_COLUMN)
			fprintf(out, "%s\n%*s", label, HELP_COLUMN, "");
		else
			fprintf(out, "%-*s", HELP_COLUMN, label);
		indented(out, o->help, HELP_COLUMN);
		fputc('\n', out);
	}
	if (spec->notes != NULL)
		fprintf(out, "\n%s", spec->notes);
	fprintf(out, "\nExit status:\n");
	if (spec->exit_status != NULL) {
		fprintf(out, "%s", spec->exit_status);
		return;
	}
	fprintf(out, "  0  success\n");
	if (spec->finding != NULL) {
		fprintf(out, "  1  ");
		indented(out, spec->finding, 5);
		fputc('\n', out);
	}
	fprintf(out, "  2  misuse (bad option, operand or input), or dmo could not do its work\n");
}

void cmd_print_version(FILE *out)
{
	fprintf(out, "dmo %s\n", PACKAGE_VERSION);
}
