/* input_options.c - parsing of --input, --random and --zeros
 * (input_options.h). */
#include "input_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int dmo_input_option(struct dmo_input_options *opts, int option, const char *value, char *err,
		     size_t err_len)
{
	char *end;

	if (option != OPT_INPUT && option != OPT_RANDOM && option != OPT_ZEROS)
		return 0;
	if (opts->given++) {
		snprintf(err, err_len, "give at most one of --input, --random, --zeros");
		return -1;
	}
	if (option == OPT_INPUT) {
		opts->source.file = value;
	} else if (option == OPT_ZEROS) {
		opts->source.zeros = 1;
	} else {
		errno = 0;
		opts->source.seed = strtoull(value, &end, 10);
		if (errno || end == value || *end || *value == '-') {
			snprintf(err, err_len, "--random '%s': expected a number", value);
			return -1;
		}
		opts->seed_text = value;
	}
	return 1;
}
