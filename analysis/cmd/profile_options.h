/* profile_options.h - option tables several commands share: the profiling
 * options of `dmo profile` and `dmo run` (keys of dmo_profile_option,
 * profile.h) and the model-input options of `dmo run` and `dmo infer`
 * (keys of dmo_input_option, input_options.h), and --shape of `dmo model`
 * and `dmo plan` (cmd_shape_option). */
#ifndef DMO_CMD_PROFILE_OPTIONS_H
#define DMO_CMD_PROFILE_OPTIONS_H

#include "model_table.h"
#include "options.h"

extern const struct cmd_option cmd_profile_options[];
extern const struct cmd_option cmd_input_options[];
extern const struct cmd_option cmd_shape_options[];

enum { CMD_OPT_SHAPE = 0x1c0, CMD_MAX_SHAPES = 16 };

/* The --shape options given, in order. */
struct cmd_shapes {
	struct dmo_model_shape list[CMD_MAX_SHAPES];
	size_t n;
};

/* KEY --shape: ARG added to SHAPES and 1, or -1 with ERR (a usage error:
 * malformed, or more than CMD_MAX_SHAPES); any other key: 0. */
int cmd_shape_option(struct cmd_shapes *shapes, int key, const char *arg, char *err,
		     size_t err_len);

#endif
