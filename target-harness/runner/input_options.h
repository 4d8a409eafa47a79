/* input_options.h - --input FILE, --random SEED and --zeros: where a real
 * model's input bytes come from, one parser for dmo infer, dmo run --model
 * and dmo-harness (which dmo run hands them on to, so that a profiled run
 * and an inference see the same bytes). */
#ifndef DMO_INPUT_OPTIONS_H
#define DMO_INPUT_OPTIONS_H

#include <stddef.h>

#include "infer.h"

/* getopt_long codes (long options only). */
enum { OPT_INPUT = 0x1a0, OPT_RANDOM, OPT_ZEROS };

#define DMO_INPUT_LONG_OPTIONS                                 \
	{ "input", required_argument, NULL, OPT_INPUT },       \
	{ "random", required_argument, NULL, OPT_RANDOM },     \
	{ "zeros", no_argument, NULL, OPT_ZEROS }

#define DMO_INPUT_OPTIONS_HELP                                                    \
	"      --input FILE   raw bytes of every model input, in tensor order\n"     \
	"      --random SEED  pseudo-random inputs (default: --random 1)\n"          \
	"      --zeros        inputs of all-zero bytes\n"

/* The input options as given, SOURCE ready for dmo_net_fill_inputs. */
struct dmo_input_options {
	struct dmo_net_input source;
	const char *seed_text; /* the --random argument as given, or NULL */
	int given;             /* how many of the three were given */
};

/* Take OPTION (with VALUE) into *OPTS.  Returns 1 when it is one of the
 * three, 0 when it is not, -1 with a message in ERR (a bad seed, a second
 * source). */
int dmo_input_option(struct dmo_input_options *opts, int option, const char *value, char *err,
		     size_t err_len);

#endif
