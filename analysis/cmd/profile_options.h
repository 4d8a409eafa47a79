/* profile_options.h - the options `dmo profile` and `dmo run` share, one
 * table for both (their keys are dmo_profile_option's, profile.h). */
#ifndef DMO_CMD_PROFILE_OPTIONS_H
#define DMO_CMD_PROFILE_OPTIONS_H

#include "options.h"

extern const struct cmd_option cmd_profile_options[];

#endif
