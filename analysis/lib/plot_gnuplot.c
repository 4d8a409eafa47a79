/* plot_gnuplot.c - the data folder, the assignments and the gnuplot run
 * behind every dmo figure (plot_gnuplot.h). */
#include "plot_gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fs.h"
#include "locate.h"
#include "plot_record.h"

struct plot_gp *plot_gp_open(const struct dmo_plot_output *out, unsigned width, unsigned height,
			     char *err, size_t err_len)
{
	struct plot_gp *gp = calloc(1, sizeof *gp);
	char path[PATH_MAX];

	if (gp == NULL) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	gp->out = *out;
	if (gp->out.formats == 0)
		gp->out.formats = 1u << DMO_PLOT_PNG;
	gp->width = out->width ? out->width : width;
	gp->height = out->height ? out->height : height;
	gp->font_scale = out->font_scale > 0 ? out->font_scale : 1.0;
	/* Refused before any drawing, so a planted link or another
	 * command's figure costs no gnuplot run. */
	for (int f = 0; f < DMO_PLOT_N_FORMATS; f++) {
		if (!(gp->out.formats & 1u << f))
			continue;
		dmo_plot_output_path(&gp->out, (enum dmo_plot_format)f, path, sizeof path);
		if (strlen(path) + 1 >= sizeof path) {
			snprintf(err, err_len, "%s: %s", path, strerror(ENAMETOOLONG));
			free(gp);
			return NULL;
		}
		if (plot_record_check(path, out->key, out->force, err, err_len) != 0) {
			free(gp);
			return NULL;
		}
	}
	if (dmo_make_temp_dir(gp->dir, sizeof gp->dir, "dmo-plot", err, err_len) != 0) {
		free(gp);
		return NULL;
	}
	plot_gp_string(gp, "datadir", gp->dir);
	plot_gp_string(gp, "plotsdir", dmo_locate_plots());
	plot_gp_uint(gp, "width", gp->width);
	plot_gp_uint(gp, "height", gp->height);
	plot_gp_double(gp, "fontscale", gp->font_scale);
	return gp;
}

void plot_gp_close(struct plot_gp *gp)
{
	if (gp == NULL)
		return;
	dmo_remove_dir(gp->dir);
	free(gp);
}

void plot_gp_add(struct plot_gp *gp, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (gp->used >= sizeof gp->text)
		return;
	va_start(ap, fmt);
	n = vsnprintf(gp->text + gp->used, sizeof gp->text - gp->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		gp->used += (size_t)n; /* past the end on truncation: plot_gp_run refuses */
}

/* NAME="VALUE" with VALUE escaped; a line break kept as gnuplot's \n
 * when LINES, else a space as every control character. */
static void assign_text(struct plot_gp *gp, const char *name, const char *value, int lines)
{
	/* Double quotes, where gnuplot takes \\ and \" as escapes: its
	 * single-quoted '' escape fails when two follow each other (an empty
	 * layer name in quotes made the title hold '''' and gnuplot stop). */
	plot_gp_add(gp, "%s=\"", name);
	for (const char *c = value; *c; c++) {
		if (*c == '"' || *c == '\\')
			plot_gp_add(gp, "\\%c", *c);
		else if (*c == '\n' && lines)
			plot_gp_add(gp, "\\n");
		else
			plot_gp_add(gp, "%c", (unsigned char)*c < 0x20 ? ' ' : *c);
	}
	plot_gp_add(gp, "\";");
}

void plot_gp_string(struct plot_gp *gp, const char *name, const char *value)
{
	assign_text(gp, name, value, 0);
}

/* Break TEXT (in place) into lines of at most WIDTH characters at spaces;
 * returns the number of lines. */
static int wrap(char *text, size_t width)
{
	int lines = 1;
	char *line = text, *space = NULL;

	for (char *c = text; *c; c++) {
		if (*c == '\n') {
			line = c + 1;
			space = NULL;
			lines++;
			continue;
		}
		if (*c == ' ')
			space = c;
		if ((size_t)(c - line) >= width && space != NULL) {
			*space = '\n';
			line = space + 1;
			space = NULL;
			lines++;
		}
	}
	return lines;
}

int plot_gp_title(struct plot_gp *gp, const char *text)
{
	char *copy = strdup(text);
	double ch = PLOT_CHAR_PX * gp->font_scale;
	int lines = 1;

	if (copy == NULL) { /* out of memory: one line, cut by gnuplot */
		assign_text(gp, "title", text, 0);
	} else {
		lines = wrap(copy, (size_t)((gp->width - 4 * ch) / ch));
		assign_text(gp, "title", copy, 1);
		free(copy);
	}
	plot_gp_uint(gp, "titlelines", (uint64_t)lines);
	return lines;
}

void plot_gp_uint(struct plot_gp *gp, const char *name, uint64_t value)
{
	plot_gp_add(gp, "%s=%" PRIu64 ";", name, value);
}

void plot_gp_double(struct plot_gp *gp, const char *name, double value)
{
	plot_gp_add(gp, "%s=%.17g;", name, value);
}

/* The line of gnuplot's stderr (at LOG) that says what failed: its
 * messages name their line ("...gp" line 12: ...), after an echo of the
 * command and a caret; warnings (a fit through as many points as
 * parameters) are no failure.  Empty when only warnings or nothing. */
static void gnuplot_error(const char *log, char *line, size_t len)
{
	FILE *f = fopen(log, "r");
	char text[512];
	int found = 0;

	line[0] = '\0';
	while (f != NULL && !found && fgets(text, sizeof text, f) != NULL) {
		text[strcspn(text, "\n")] = '\0';
		const char *at = strstr(text, "line ");
		if (strstr(text, "warning") != NULL || strstr(text, "Warning") != NULL ||
		    text[strspn(text, " ^")] == '\0')
			continue;
		/* A message naming its line wins over an echoed command. */
		found = at != NULL && at[5] >= '0' && at[5] <= '9' && strchr(at, ':') != NULL;
		if (found || line[0] == '\0')
			snprintf(line, len, "%s", text);
	}
	if (f != NULL)
		fclose(f);
}

/* gnuplot's terminal for FORMAT (plots/common.gp sets it up). */
static const char *const terminals[DMO_PLOT_N_FORMATS] = {
	[DMO_PLOT_PNG] = "pngcairo", [DMO_PLOT_SVG] = "svg", [DMO_PLOT_PDF] = "pdfcairo",
};

/* One gnuplot run of SCRIPT with the assignments PROGRAM, stderr and
 * stdout into LOG.  Returns 0, or -1 with ERR. */
static int run_gnuplot(const char *script, const char *program, const char *log, char *err,
		       size_t err_len)
{
	const char *gnuplot = DMO_GNUPLOT[0] ? DMO_GNUPLOT : "gnuplot";
	pid_t pid;
	int status, fd;

	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		snprintf(err, err_len, "%s: %s", log, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 2);
		dup2(fd, 1);
		execlp(gnuplot, gnuplot, "-e", program, script, (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	close(fd);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		snprintf(err, err_len, "cannot run %s: %s", gnuplot, strerror(errno));
		return -1;
	}
	/* gnuplot reports errors on stderr but may still exit 0 for some. */
	char line[512];
	gnuplot_error(log, line, sizeof line);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || line[0]) {
		snprintf(err, err_len, "gnuplot failed on %s: %s", script,
			 line[0] ? line : "no message");
		return -1;
	}
	return 0;
}

int plot_gp_run(struct plot_gp *gp, const char *template_name, char *err, size_t err_len)
{
	char script[PATH_MAX], log[PATH_MAX], figure[PATH_MAX], path[PATH_MAX];
	size_t base = gp->used;

	snprintf(script, sizeof script, "%s/%s", dmo_locate_plots(), template_name);
	snprintf(log, sizeof log, "%s/gnuplot.err", gp->dir);
	if (access(script, R_OK) != 0) {
		snprintf(err, err_len, "gnuplot template %s not found (set DMO_PLOTS_DIR)", script);
		return -1;
	}
	if (base >= sizeof gp->text) {
		snprintf(err, err_len, "gnuplot arguments too long");
		return -1;
	}
	for (int f = 0; f < DMO_PLOT_N_FORMATS; f++) {
		if (!(gp->out.formats & 1u << f))
			continue;
		gp->used = base;
		gp->text[base] = '\0';
		plot_gp_string(gp, "term", terminals[f]);
		snprintf(figure, sizeof figure, "%s/figure.%s", gp->dir,
			 dmo_plot_format_name((enum dmo_plot_format)f));
		plot_gp_string(gp, "outfile", figure);
		if (gp->used >= sizeof gp->text) {
			snprintf(err, err_len, "gnuplot arguments too long");
			return -1;
		}
		if (run_gnuplot(script, gp->text, log, err, err_len) != 0)
			return -1;
	}
	gp->used = base;
	gp->text[base] = '\0';
	/* Only once every format is drawn: a failure leaves no figure half
	 * of whose formats are new. */
	for (int f = 0; f < DMO_PLOT_N_FORMATS; f++) {
		if (!(gp->out.formats & 1u << f))
			continue;
		snprintf(figure, sizeof figure, "%s/figure.%s", gp->dir,
			 dmo_plot_format_name((enum dmo_plot_format)f));
		dmo_plot_output_path(&gp->out, (enum dmo_plot_format)f, path, sizeof path);
		if (dmo_out_copy(figure, path, err, err_len) != 0 ||
		    plot_record_note(path, gp->out.key, err, err_len) != 0)
			return -1;
	}
	return 0;
}
