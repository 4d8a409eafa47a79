/* profile_options.h - option tables several commands share: the profiling
 * options of `dmo profile` and `dmo run` (keys of dmo_profile_option,
 * profile.h) and the model-input options of `dmo run` and `dmo infer`
 * (keys of dmo_input_option, input_options.h). */
#ifndef DMO_CMD_PROFILE_OPTIONS_H
#define DMO_CMD_PROFILE_OPTIONS_H

#include "options.h"

extern const struct cmd_option cmd_profile_options[];
extern const struct cmd_option cmd_input_options[];

#endif
