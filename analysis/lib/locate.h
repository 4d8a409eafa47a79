/* locate.h - where dmo's own pieces are: the Valgrind tool, the harness
 * program, the model layer tables and the gnuplot templates.
 *
 * A program running from dmo's build tree uses what the build tree holds;
 * an installed one uses the installed copies ($(pkglibexecdir),
 * $(bindir), $(pkgdatadir)).  Both sets of paths are compiled in, so the
 * answer never depends on the current directory, and each has an
 * environment override. */
#ifndef DMO_LOCATE_H
#define DMO_LOCATE_H

#include <stddef.h>

/* The folder holding the tool dmo-amd64-linux, for VALGRIND_LIB:
 * $DMO_TOOL_DIR if set.  Returns 0, or -1 with a message in ERR. */
int dmo_locate_tool(char *dir, size_t len, char *err, size_t err_len);

/* The folder of the gnuplot templates (pattern.gp, ...): $DMO_PLOTS_DIR if
 * set.  Never fails; a missing template is reported by whoever opens it. */
const char *dmo_locate_plots(void);

/* The dmo-harness executable: $DMO_HARNESS if set, else as above.
 * Returns 0, or -1 with a message in ERR when it is not executable. */
int dmo_locate_harness(char *path, size_t len, char *err, size_t err_len);

/* The TensorFlow Lite Micro runner of kernel build KERNELS,
 * dmo-tflm-run-KERNELS, in $DMO_TFLM_RUNNER_DIR if set, else as above.
 * Returns 0, or -1 with a message in ERR (how to build it) when it is not
 * executable. */
int dmo_locate_tflm_runner(const char *kernels, char *path, size_t len, char *err,
			   size_t err_len);

/* The model file for MODEL: MODEL itself when such a file exists (a table,
 * .tflite or .onnx file), else, when MODEL has no '/', the
 * built-in table NAME.csv in $DMO_MODELS_DIR if set, else in the tables
 * folder as above, else the shipped example NAME.tflite (tests/models in
 * the build tree, installed beside the tables).  Returns 0, or -1 with a message in ERR (listing the
 * known names) when there is no such model. */
int dmo_locate_model(const char *model, char *path, size_t len, char *err,
		     size_t err_len);

struct dmo_model;
struct dmo_model_shape;

/* dmo_locate_model, then dmo_model_load_shaped (SHAPES may be NULL): the
 * MODEL argument of every command.  Returns 0 with *OUT to free, or -1
 * with ERR. */
int dmo_load_model(const char *model, const struct dmo_model_shape *shapes, size_t n_shapes,
		   struct dmo_model *out, char *err, size_t err_len);

#endif
