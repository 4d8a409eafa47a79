/* locate.c - build-tree or installed paths of dmo's pieces (locate.h).
 * The build defines DMO_BUILDDIR and DMO_SRCDIR (the trees), and
 * DMO_PKGLIBEXECDIR, DMO_BINDIR, DMO_MODELS_DIR and DMO_PLOTS_DIR (the
 * install locations). */
#include "locate.h"
#include "model_table.h"

#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The running executable's folder (for libtool's build-tree binaries, the
 * .libs folder inside the build tree). */
static int exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	if (n <= 0)
		return -1;
	dir[n] = '\0';
	*strrchr(dir, '/') = '\0';
	return 0;
}

static int in_build_tree(const char *exe)
{
	char root[PATH_MAX];
	size_t root_len;

	if (realpath(DMO_BUILDDIR, root) == NULL)
		return 0;
	root_len = strlen(root);
	return strncmp(exe, root, root_len) == 0 && (exe[root_len] == '/' || !exe[root_len]);
}

/* INSTALLED as seen from the installed dmo wherever its tree was moved
 * (a DESTDIR staging, a copied prefix): the path from DMO_BINDIR to
 * INSTALLED, appended to the running dmo's folder. */
static void relocated(const char *exe, const char *installed, char *out, size_t len)
{
	const char *bin = DMO_BINDIR;
	size_t i = 0, common = 0, used;

	/* The longest common folder of DMO_BINDIR and INSTALLED. */
	for (; bin[i] && bin[i] == installed[i]; i++)
		if (bin[i] == '/')
			common = i;
	if (bin[i] == '\0' && (installed[i] == '/' || installed[i] == '\0'))
		common = i;
	used = (size_t)snprintf(out, len, "%s", exe);
	for (const char *c = bin + common; *c && used < len; c++)
		if (*c == '/')
			used += (size_t)snprintf(out + used, len - used, "/..");
	if (used < len)
		snprintf(out + used, len - used, "%s", installed + common);
}

/* ENV when set; else the build-tree path for a build-tree dmo; else the
 * installed path next to the running dmo if it is there, else as
 * configured.  The result lives until the next call. */
static const char *pick(const char *env, const char *in_tree, const char *installed)
{
	static char path[PATH_MAX];
	char exe[PATH_MAX];
	const char *value = getenv(env);

	if (value != NULL && *value != '\0')
		return value;
	if (exe_dir(exe, sizeof exe) != 0)
		return installed;
	if (in_build_tree(exe))
		return in_tree;
	relocated(exe, installed, path, sizeof path);
	return access(path, F_OK) == 0 ? path : installed;
}

int dmo_locate_tool(char *dir, size_t len, char *err, size_t err_len)
{
	char tool[PATH_MAX];
	snprintf(dir, len, "%s", pick("DMO_TOOL_DIR", DMO_BUILDDIR "/dmo-tool", DMO_PKGLIBEXECDIR));
	snprintf(tool, sizeof tool, "%s/dmo-amd64-linux", dir);
	if (access(tool, X_OK) != 0) {
		snprintf(err, err_len, "cannot find the dmo Valgrind tool %s; build it or set "
			 "DMO_TOOL_DIR to the folder that holds it", tool);
		return -1;
	}
	return 0;
}

const char *dmo_locate_plots(void)
{
	return pick("DMO_PLOTS_DIR", DMO_SRCDIR "/plots", DMO_PLOTS_DIR);
}

int dmo_locate_harness(char *path, size_t len, char *err, size_t err_len)
{
	snprintf(path, len, "%s", pick("DMO_HARNESS", DMO_BUILDDIR "/target-harness/harness/dmo-harness",
				       DMO_BINDIR "/dmo-harness"));
	if (access(path, X_OK) != 0) {
		snprintf(err, err_len, "cannot run the harness program %s; build it or set DMO_HARNESS",
			 path);
		return -1;
	}
	return 0;
}

int dmo_locate_tflm_runner(const char *kernels, char *path, size_t len, char *err, size_t err_len)
{
	snprintf(path, len, "%s/dmo-tflm-run-%s",
		 pick("DMO_TFLM_RUNNER_DIR", DMO_BUILDDIR "/target-harness/tflm", DMO_PKGLIBEXECDIR),
		 kernels);
	if (access(path, X_OK) != 0) {
		snprintf(err, err_len, "runtime %s is not built (no %s): configure dmo with "
			 "--with-tflm=DIR%s (docs/deploy.md), or set DMO_TFLM_RUNNER_DIR", kernels, path,
			 strncmp(kernels, "tflm-cmsis-nn", 13) == 0 ? " --with-cmsis-nn=DIR" : "");
		return -1;
	}
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "a, b, c" of the tables in DIR, for the error message. */
static void list_tables(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	size_t used = 0;

	*out = '\0';
	if (d == NULL)
		return;
	while ((entry = readdir(d)) != NULL && used < len) {
		if (!ends_with(entry->d_name, ".csv"))
			continue;
		used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? ", " : "",
					 (int)strlen(entry->d_name) - 4, entry->d_name);
	}
	closedir(d);
}

int dmo_locate_model(const char *model, char *path, size_t len, char *err,
		     size_t err_len)
{
	const char *dir = pick("DMO_MODELS_DIR", DMO_SRCDIR "/target-harness/models", DMO_MODELS_DIR);
	char known[1024];

	/* A file (table, .tflite, .onnx: told apart by content when read)
	 * before a built-in name. */
	snprintf(path, len, "%s", model);
	if (access(path, R_OK) == 0)
		return 0;
	if (strchr(model, '/') != NULL) {
		snprintf(err, err_len, "cannot read model file %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(path, len, "%s/%s.csv", dir, model);
	if (access(path, R_OK) == 0)
		return 0;
	/* The .tflite examples shipped with dmo (test data in the build tree). */
	snprintf(path, len, "%s/%s.tflite",
		 pick("DMO_MODELS_DIR", DMO_SRCDIR "/tests/models", DMO_MODELS_DIR), model);
	if (access(path, R_OK) == 0)
		return 0;
	list_tables(dir, known, sizeof known);
	snprintf(err, err_len, "no model named '%s' in %s (known: %s)", model, dir,
		 *known ? known : "none");
	return -1;
}

int dmo_load_model(const char *model, const struct dmo_model_shape *shapes, size_t n_shapes,
		   struct dmo_model *out, char *err, size_t err_len)
{
	char path[PATH_MAX];

	*out = (struct dmo_model){ 0 };
	if (dmo_locate_model(model, path, sizeof path, err, err_len) != 0)
		return -1;
	return dmo_model_load_shaped(path, shapes, n_shapes, out, err, err_len);
}
