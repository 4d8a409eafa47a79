/* sweep.c - `dmo sweep` (sweep.h): expand a grid, run its configurations
 * in batches under the tool, judge a user formula against the exact O_s,
 * and summarise.  Resumable and mergeable because every result is a row in
 * a batch file of the sweep directory, keyed by the configuration's index. */
#include "errbuf.h"
#include "sweep.h"

#include <csv.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "algorithmic.h"
#include "analytic.h"
#include "backend.h"
#include "formula.h"
#include "fs.h"
#include "grid.h"
#include "locate.h"
#include "opspec.h"
#include "plot.h"
#include "progress.h"
#include "profile.h"
#include "rundir.h"

#define SPEC_MAX 1024
#define MAX_REASONS 5
#define SWEEP_FILE "sweep.txt"
#define FORMULA_FILE "formula.txt"
#define PARTS_DIR "parts"
/* Room for a file name under a sweep directory within PATH_MAX. */
#define DIR_MAX (PATH_MAX - 300)

enum verdict { V_NONE, V_SAFE, V_TIGHT, V_UNSAFE, V_ERROR };
static const char *const verdict_names[] = { "", "safe", "tight", "UNSAFE", "error" };

struct result {
	enum verdict verdict; /* V_NONE: no result yet */
	uint64_t in_bytes, out_bytes, exact, algorithmic, analytic;
	int64_t formula;
	char note[200];       /* the formula's error, if any */
};

struct reason {
	char text[160];
	uint64_t count;
};

struct dmo_sweep {
	char *grid_text, *backend, *isa, *formula_text, *formula_lib; /* isa: NULL = no cap */
	uint64_t sample, seed;
	int jobs, batch, have_range;
	uint64_t first, last;
	struct dmo_grid *grid;
	uint64_t grid_total, skipped;
	struct reason reasons[MAX_REASONS];
	uint64_t *configs; /* grid index of each configuration swept */
	size_t count;
	struct dmo_expr *expr;
	void *lib;
	dmo_formula_fn *fn;
	char key[17];
	char dir[DIR_MAX];
	char out_dir[DIR_MAX];
	struct result *results;
	int lock_fd;
};

/* ---- configurations ----------------------------------------------------- */

static int config_spec(const struct dmo_sweep *s, size_t i, char *buf, struct dmo_opspec *spec)
{
	char err[8];
	if (dmo_grid_spec(s->grid, s->configs[i], buf, SPEC_MAX) < 0)
		return -1;
	return dmo_opspec_parse(buf, spec, err, sizeof err);
}

static void count_reason(struct dmo_sweep *s, const char *text)
{
	s->skipped++;
	for (int r = 0; r < MAX_REASONS; r++) {
		if (s->reasons[r].count == 0)
			snprintf(s->reasons[r].text, sizeof s->reasons[r].text, "%s", text);
		if (strcmp(s->reasons[r].text, text) == 0) {
			s->reasons[r].count++;
			return;
		}
	}
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Every valid configuration of the grid that BACKEND runs (NULL: the
 * reference runner, which runs every valid spec), or a sample of SAMPLE of
 * them (partial Fisher-Yates from SEED, then back in grid order). */
static int expand(struct dmo_sweep *s, struct dmo_backend_handle *backend, char *err,
		  size_t err_len)
{
	char spec_text[SPEC_MAX], why[256];
	struct dmo_opspec spec;

	s->grid_total = dmo_grid_count(s->grid);
	s->configs = malloc(s->grid_total * sizeof *s->configs);
	if (!s->configs)
		return dmo_errf(err, err_len, "out of memory for %" PRIu64 " configurations",
			     s->grid_total);
	for (uint64_t g = 0; g < s->grid_total; g++) {
		if (dmo_grid_spec(s->grid, g, spec_text, sizeof spec_text) < 0) {
			count_reason(s, "spec longer than 1023 characters");
			continue;
		}
		if (dmo_opspec_parse(spec_text, &spec, why, sizeof why) != 0 ||
		    (backend && dmo_backend_check(backend, &spec, why, sizeof why) != 0)) {
			count_reason(s, why);
			continue;
		}
		s->configs[s->count++] = g;
	}
	if (s->count == 0)
		return dmo_errf(err, err_len, "no configuration of the grid is a valid op spec%s (%s)",
			     backend ? " that the backend runs" : "", s->reasons[0].text);
	if (s->sample && s->sample < s->count) {
		uint64_t state = s->seed;
		for (size_t i = 0; i < s->sample; i++) {
			size_t j = i + (size_t)(splitmix64(&state) % (s->count - i));
			uint64_t t = s->configs[i];
			s->configs[i] = s->configs[j];
			s->configs[j] = t;
		}
		s->count = s->sample;
		qsort(s->configs, s->count, sizeof *s->configs, cmp_u64);
	}
	s->results = calloc(s->count, sizeof *s->results);
	if (!s->results)
		return dmo_errf(err, err_len, "out of memory");
	return 0;
}

static struct dmo_sweep *sweep_new(const char *grid, uint64_t sample, uint64_t seed,
				   const char *backend, const char *isa, char *err, size_t err_len)
{
	struct dmo_sweep *s = calloc(1, sizeof *s);
	struct dmo_backend_handle *handle = NULL;
	char why[512];

	if (!s) {
		dmo_errf(err, err_len, "out of memory");
		return NULL;
	}
	s->lock_fd = -1;
	s->sample = sample;
	s->seed = seed;
	s->grid_text = strdup(grid);
	s->backend = strdup(backend);
	s->isa = isa ? strdup(isa) : NULL;
	if (!s->grid_text || !s->backend || (isa && !s->isa)) {
		dmo_errf(err, err_len, "out of memory");
		goto bad;
	}
	/* The reference kernels run through dmo-harness's own runner, as
	 * before backends existed (so ref sweeps keep their keys); another
	 * backend is loaded here, with its cap, to skip what it cannot run. */
	if ((strcmp(backend, "ref") != 0 || isa) &&
	    !(handle = dmo_backend_load(backend, isa, why, sizeof why))) {
		dmo_errf(err, err_len, "%s", why);
		goto bad;
	}
	if (dmo_grid_parse(grid, &s->grid, why, sizeof why) != 0) {
		dmo_errf(err, err_len, "bad grid: %s", why);
		goto bad;
	}
	if (expand(s, strcmp(backend, "ref") != 0 ? handle : NULL, err, err_len) != 0)
		goto bad;
	return s;
bad:
	dmo_sweep_close(s);
	return NULL;
}

void dmo_sweep_close(struct dmo_sweep *s)
{
	if (!s)
		return;
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	if (s->lib)
		dlclose(s->lib);
	dmo_expr_free(s->expr);
	dmo_grid_free(s->grid);
	free(s->configs);
	free(s->results);
	free(s->grid_text);
	free(s->backend);
	free(s->isa);
	free(s->formula_text);
	free(s->formula_lib);
	free(s);
}

/* ---- formula and key ---------------------------------------------------- */

static char *read_file(const char *path, size_t *len, char *err, size_t err_len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		dmo_errf(err, err_len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *more = realloc(buf, cap = 2 * cap + 8192);
			if (!more) {
				free(buf);
				fclose(f);
				dmo_errf(err, err_len, "%s: out of memory", path);
				return NULL;
			}
			buf = more;
		}
		size_t got = fread(buf + n, 1, 4096, f);
		n += got;
		if (got < 4096)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		dmo_errf(err, err_len, "%s: read error", path);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *text)
{
	return fnv1a(h, text, strlen(text) + 1); /* the NUL separates fields */
}

static int load_formula(struct dmo_sweep *s, const struct dmo_sweep_options *o, uint64_t *hash,
			char *err, size_t err_len)
{
	char why[512];
	size_t len;

	if (o->formula) {
		if (o->formula[0] == '@') {
			s->formula_text = read_file(o->formula + 1, &len, err, err_len);
			if (!s->formula_text)
				return -1;
			if (strlen(s->formula_text) != len)
				return dmo_errf(err, err_len, "%s: a formula file holds text, not NUL bytes",
					     o->formula + 1);
		} else if (!(s->formula_text = strdup(o->formula))) {
			return dmo_errf(err, err_len, "out of memory");
		}
		if (dmo_expr_parse(s->formula_text, &s->expr, why, sizeof why) != 0)
			return dmo_errf(err, err_len, "bad formula: %s", why);
		*hash = fnv_str(fnv_str(*hash, "expression"), s->formula_text);
		return 0;
	}
	char path[PATH_MAX];
	if (!realpath(o->formula_lib, path))
		return dmo_errf(err, err_len, "%s: %s", o->formula_lib, strerror(errno));
	char *bytes = read_file(path, &len, err, err_len);
	if (!bytes)
		return -1;
	*hash = fnv1a(fnv_str(*hash, "library"), bytes, len);
	free(bytes);
	if (!(s->formula_lib = strdup(path)))
		return dmo_errf(err, err_len, "out of memory");
	s->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!s->lib)
		return dmo_errf(err, err_len, "cannot load %s: %s", path, dlerror());
	const int *abi = dlsym(s->lib, "dmo_formula_abi");
	s->fn = (dmo_formula_fn *)dlsym(s->lib, "dmo_formula");
	if (!abi || !s->fn)
		return dmo_errf(err, err_len,
			     "%s exports no %s (see <dmo/formula.h>: dmo_formula_abi and dmo_formula)",
			     path, abi ? "dmo_formula" : "dmo_formula_abi");
	if (*abi != DMO_FORMULA_ABI)
		return dmo_errf(err, err_len, "%s is built for formula ABI %d, dmo speaks %d", path,
			     *abi, DMO_FORMULA_ABI);
	return 0;
}

static int make_dir(const char *path, char *err, size_t err_len)
{
	return dmo_make_dirs(path) ? dmo_errf(err, err_len, "cannot create %s: %s", path,
					   strerror(errno)) : 0;
}

/* Write PATH through a temporary and rename (fs.h): readers see all of it
 * or none, and a link in its place is refused. */
typedef int (*writer_fn)(FILE *f, const void *ctx);
static int write_atomic(const char *path, writer_fn fn, const void *ctx, char *err,
			size_t err_len)
{
	struct dmo_out out;
	if (dmo_out_open(&out, path, err, err_len) == NULL)
		return -1;
	if (fn(out.stream, ctx) != 0 || fflush(out.stream) != 0 || fsync(fileno(out.stream)) != 0) {
		dmo_out_abandon(&out);
		return dmo_errf(err, err_len, "cannot write %s: %s", path, strerror(errno));
	}
	return dmo_out_commit(&out, err, err_len);
}

static int write_sweep_file(FILE *f, const void *ctx)
{
	const struct dmo_sweep *s = ctx;
	fprintf(f, "key=%s\ngrid=%s\nsample=%" PRIu64 "\nseed=%" PRIu64 "\nbackend=%s\n", s->key,
		s->grid_text, s->sample, s->seed, s->backend);
	if (s->isa) /* only then: sweeps without a cap keep their files */
		fprintf(f, "isa=%s\n", s->isa);
	fprintf(f, "formula_lib=%s\n", s->formula_lib ? s->formula_lib : "");
	return ferror(f);
}

static int write_formula_file(FILE *f, const void *ctx)
{
	fputs(ctx, f);
	return ferror(f);
}

struct dmo_sweep *dmo_sweep_open(const struct dmo_sweep_options *o, char *err, size_t err_len)
{
	struct dmo_sweep *s;
	uint64_t hash = 0xcbf29ce484222325ull;

	if (strchr(o->grid, '\n')) {
		dmo_errf(err, err_len, "bad grid: column %zu: a grid is one line",
		      (size_t)(strchr(o->grid, '\n') - o->grid) + 1);
		return NULL;
	}
	s = sweep_new(o->grid, o->sample, o->seed, o->backend, o->isa, err, err_len);
	if (!s)
		return NULL;
	s->jobs = o->jobs;
	s->batch = o->batch;
	s->have_range = o->have_range;
	s->first = o->first;
	s->last = o->last;
	if (s->have_range && (s->first > s->last || s->last >= s->count)) {
		dmo_errf(err, err_len, "--configs %" PRIu64 "-%" PRIu64 " is outside 0-%zu", s->first,
		      s->last, s->count - 1);
		goto bad;
	}
	hash = fnv_str(hash, "dmo-sweep-1");
	hash = fnv_str(hash, o->grid);
	hash = fnv1a(hash, &s->sample, sizeof s->sample);
	hash = fnv1a(hash, &s->seed, sizeof s->seed);
	hash = fnv_str(hash, o->backend);
	if (o->isa)
		hash = fnv_str(fnv_str(hash, "isa"), o->isa);
	if (load_formula(s, o, &hash, err, err_len) != 0)
		goto bad;
	snprintf(s->key, sizeof s->key, "%016" PRIx64, hash);
	snprintf(s->out_dir, sizeof s->out_dir, "%s", o->out_dir);
	if ((size_t)snprintf(s->dir, sizeof s->dir, "%s/sweep-%s", o->out_dir, s->key) >=
	    sizeof s->dir) {
		dmo_errf(err, err_len, "--out path too long");
		goto bad;
	}
	return s;
bad:
	dmo_sweep_close(s);
	return NULL;
}

/* ---- result rows (libcsv) ----------------------------------------------- */

static const char *const columns[] = {
	"config", "spec", "in_bytes", "out_bytes", "exact_os", "algorithmic_os",
	"analytic_os", "formula_os", "verdict", "note",
};
enum { COL_CONFIG, COL_SPEC, COL_IN, COL_OUT, COL_EXACT, COL_ALGO, COL_ANALYTIC,
       COL_FORMULA, COL_VERDICT, COL_NOTE, NCOLS };

static void write_header(FILE *f)
{
	for (int c = 0; c < NCOLS; c++)
		fprintf(f, "%s%s", c ? "," : "", columns[c]);
	fputc('\n', f);
}

static void write_row(FILE *f, const struct dmo_sweep *s, size_t i)
{
	const struct result *r = &s->results[i];
	char spec[SPEC_MAX];

	dmo_grid_spec(s->grid, s->configs[i], spec, sizeof spec);
	fprintf(f, "%zu,", i);
	csv_fwrite(f, spec, strlen(spec));
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", r->in_bytes,
		r->out_bytes, r->exact, r->algorithmic, r->analytic);
	if (r->verdict != V_ERROR)
		fprintf(f, "%" PRId64, r->formula);
	fprintf(f, ",%s,", verdict_names[r->verdict]);
	csv_fwrite(f, r->note, strlen(r->note));
	fputc('\n', f);
}

struct rows_read {
	struct dmo_sweep *s;
	const char *path;
	size_t line;
	int col;
	int map[NCOLS];  /* field index -> column, from the header */
	char field[NCOLS][SPEC_MAX];
	size_t taken;    /* rows that filled a result */
	int failed;
	char *err;
	size_t err_len;
};

static void on_field(void *data, size_t len, void *ctx)
{
	struct rows_read *rd = ctx;
	if (rd->failed)
		return;
	if (rd->col >= NCOLS) {
		rd->failed = 1;
		dmo_errf(rd->err, rd->err_len, "%s:%zu: more than %d fields", rd->path, rd->line, NCOLS);
		return;
	}
	if (len >= SPEC_MAX)
		len = SPEC_MAX - 1;
	memcpy(rd->field[rd->col], data, len);
	rd->field[rd->col][len] = '\0';
	rd->col++;
}

static int parse_num(const char *text, uint64_t *v)
{
	char *end;
	if (!text[0] || text[0] == '-')
		return -1;
	errno = 0;
	*v = strtoull(text, &end, 10);
	return *end || errno ? -1 : 0;
}

static int same_result(const struct result *a, const struct result *b)
{
	return a->verdict == b->verdict && a->in_bytes == b->in_bytes &&
	       a->out_bytes == b->out_bytes && a->exact == b->exact &&
	       a->algorithmic == b->algorithmic && a->analytic == b->analytic &&
	       (a->verdict == V_ERROR || a->formula == b->formula) && !strcmp(a->note, b->note);
}

static int take_row(struct rows_read *rd)
{
	struct dmo_sweep *s = rd->s;
	char f[NCOLS][SPEC_MAX], spec[SPEC_MAX], *end;
	struct result r = { 0 };
	uint64_t index;

	for (int c = 0; c < NCOLS; c++)
		memcpy(f[c], rd->field[rd->map[c]], SPEC_MAX);
	if (parse_num(f[COL_CONFIG], &index) || index >= s->count)
		return dmo_errf(rd->err, rd->err_len, "%s:%zu: bad config index '%s'", rd->path,
			     rd->line, f[COL_CONFIG]);
	dmo_grid_spec(s->grid, s->configs[index], spec, sizeof spec);
	if (strcmp(spec, f[COL_SPEC]) != 0)
		return dmo_errf(rd->err, rd->err_len,
			     "%s:%zu: configuration %" PRIu64 " is '%s' in this sweep, not '%s'",
			     rd->path, rd->line, index, spec, f[COL_SPEC]);
	for (int v = 1; v < 5; v++)
		if (!strcmp(f[COL_VERDICT], verdict_names[v]))
			r.verdict = (enum verdict)v;
	if (r.verdict == V_NONE || parse_num(f[COL_IN], &r.in_bytes) ||
	    parse_num(f[COL_OUT], &r.out_bytes) || parse_num(f[COL_EXACT], &r.exact) ||
	    parse_num(f[COL_ALGO], &r.algorithmic) || parse_num(f[COL_ANALYTIC], &r.analytic))
		return dmo_errf(rd->err, rd->err_len, "%s:%zu: malformed result row", rd->path,
			     rd->line);
	if (r.verdict != V_ERROR) {
		errno = 0;
		r.formula = strtoll(f[COL_FORMULA], &end, 10);
		if (!f[COL_FORMULA][0] || *end || errno)
			return dmo_errf(rd->err, rd->err_len, "%s:%zu: bad formula_os '%s'", rd->path,
				     rd->line, f[COL_FORMULA]);
	}
	snprintf(r.note, sizeof r.note, "%.199s", f[COL_NOTE]);
	struct result *have = &s->results[index];
	if (have->verdict != V_NONE && !same_result(have, &r))
		return dmo_errf(rd->err, rd->err_len,
			     "%s:%zu: configuration %" PRIu64 " has two different results", rd->path,
			     rd->line, index);
	*have = r;
	rd->taken++;
	return 0;
}

static void on_row(int c, void *ctx)
{
	struct rows_read *rd = ctx;
	(void)c;
	if (rd->failed)
		return;
	if (rd->col != NCOLS) {
		rd->failed = 1;
		dmo_errf(rd->err, rd->err_len, "%s:%zu: %d fields, not %d", rd->path, rd->line, rd->col,
		      NCOLS);
	} else if (rd->line == 1) {
		for (int c2 = 0; c2 < NCOLS; c2++) {
			rd->map[c2] = -1;
			for (int k = 0; k < NCOLS; k++)
				if (!strcmp(rd->field[k], columns[c2]))
					rd->map[c2] = k;
			if (rd->map[c2] < 0) {
				rd->failed = 1;
				dmo_errf(rd->err, rd->err_len, "%s: no column '%s'", rd->path,
				      columns[c2]);
				break;
			}
		}
	} else if (take_row(rd) != 0) {
		rd->failed = 1;
	}
	rd->line++;
	rd->col = 0;
}

static int read_rows(struct dmo_sweep *s, const char *path, size_t *taken, char *err,
		     size_t err_len)
{
	struct rows_read rd = { .s = s, .path = path, .line = 1, .err = err, .err_len = err_len };
	struct csv_parser parser;
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return dmo_errf(err, err_len, "%s: %s", path, strerror(errno));
	csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
	while (!rd.failed && (n = fread(buf, 1, sizeof buf, f)) > 0)
		if (csv_parse(&parser, buf, n, on_field, on_row, &rd) != n && !rd.failed) {
			rd.failed = 1;
			dmo_errf(err, err_len, "%s:%zu: %s", path, rd.line,
			      csv_strerror(csv_error(&parser)));
		}
	if (!rd.failed && csv_fini(&parser, on_field, on_row, &rd) != 0) {
		rd.failed = 1;
		dmo_errf(err, err_len, "%s:%zu: %s", path, rd.line, csv_strerror(csv_error(&parser)));
	}
	csv_free(&parser);
	fclose(f);
	if (taken)
		*taken = rd.taken;
	return rd.failed ? -1 : 0;
}

/* Every batch file in DIR/parts. */
static int read_parts(struct dmo_sweep *s, const char *dir, char *err, size_t err_len)
{
	char parts[PATH_MAX], path[PATH_MAX + 300];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	snprintf(parts, sizeof parts, "%s/%s", dir, PARTS_DIR);
	if (!(d = opendir(parts)))
		return errno == ENOENT ? 0 : dmo_errf(err, err_len, "%s: %s", parts, strerror(errno));
	while (rc == 0 && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "part-", 5) || len < 4 || strcmp(e->d_name + len - 4, ".csv"))
			continue;
		snprintf(path, sizeof path, "%s/%s", parts, e->d_name);
		rc = read_rows(s, path, NULL, err, err_len);
	}
	closedir(d);
	return rc;
}

/* ---- running a batch ------------------------------------------------------ */

static void judge(struct dmo_sweep *s, size_t i, const struct dmo_opspec *spec)
{
	struct result *r = &s->results[i];
	struct dmo_algo_result algo;
	struct dmo_analytic_result bound;
	struct dmo_formula_vars v;
	char canon[SPEC_MAX], why[160];
	int rc;

	r->in_bytes = dmo_opspec_in_bytes(spec);
	r->out_bytes = dmo_opspec_out_bytes(spec);
	if (dmo_algorithmic(spec, &algo) == 0)
		r->algorithmic = algo.os;
	if (dmo_analytic(spec, &bound) == 0)
		r->analytic = bound.os;
	dmo_formula_vars_of(spec, canon, sizeof canon, &v);
	if (s->expr) {
		rc = dmo_expr_eval(s->expr, &v, &r->formula, why, sizeof why);
	} else {
		rc = s->fn(&v, &r->formula);
		if (rc)
			snprintf(why, sizeof why, "dmo_formula returned %d", rc);
	}
	if (rc) {
		r->verdict = V_ERROR;
		snprintf(r->note, sizeof r->note, "%s", why);
		return;
	}
	r->verdict = r->formula > (int64_t)r->exact ? V_UNSAFE :
		     r->formula == (int64_t)r->exact ? V_TIGHT : V_SAFE;
}

struct part_ctx {
	const struct dmo_sweep *s;
	size_t first, count;
};

static int write_part(FILE *f, const void *ctx)
{
	const struct part_ctx *p = ctx;
	write_header(f);
	for (size_t i = p->first; i < p->first + p->count; i++)
		write_row(f, p->s, i);
	return ferror(f);
}

static void part_path(const struct dmo_sweep *s, size_t first, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/part-%08zu.csv", s->dir, PARTS_DIR, first);
}

/* Run configurations FIRST..FIRST+COUNT-1 in one Valgrind process and
 * write their batch file.  The harness is given the canonical specs; the
 * tool's layers come back in order, named op1_<op>, op2_<op>, ... */
static int run_batch(struct dmo_sweep *s, size_t first, size_t count, char *err,
		     size_t err_len)
{
	char harness[PATH_MAX], run_dir[PATH_MAX], csv[PATH_MAX + 32], path[PATH_MAX];
	char (*texts)[SPEC_MAX] = calloc(count, sizeof *texts);
	struct dmo_opspec *specs = calloc(count, sizeof *specs);
	char **argv = calloc(count + 8, sizeof *argv);
	struct dmo_layer_table table = { 0 };
	struct dmo_kernels kernels;
	int rc = -1, status, signal_no, n = 0;

	if (!texts || !specs || !argv) {
		dmo_errf(err, err_len, "out of memory");
		goto out;
	}
	if (dmo_locate_harness(harness, sizeof harness, err, err_len) != 0)
		goto out;
	argv[n++] = harness;
	if (strcmp(s->backend, "ref") != 0) { /* ref: the harness's own runner */
		argv[n++] = "--backend";
		argv[n++] = s->backend;
	}
	if (s->isa) {
		argv[n++] = "--isa";
		argv[n++] = s->isa;
	}
	argv[n++] = "--";
	for (size_t k = 0; k < count; k++) {
		char text[SPEC_MAX];
		if (config_spec(s, first + k, text, &specs[k]) != 0) {
			dmo_errf(err, err_len, "configuration %zu no longer parses", first + k);
			goto out;
		}
		dmo_opspec_format(&specs[k], texts[k], SPEC_MAX);
		argv[n++] = texts[k];
	}
	/* The pid keeps a Valgrind orphaned by a killed sweep out of the
	 * directory a resumed sweep runs the same batch in. */
	snprintf(run_dir, sizeof run_dir, "%s/run-%08zu-%ld", s->dir, first, (long)getpid());
	struct dmo_profile_options opts = { .out_dir = run_dir, .argv = argv, .quiet_program = 1,
					    .who = "dmo sweep", .kernels = &kernels };
	if (dmo_kernels_of_backend(s->backend, s->isa, &kernels, err, err_len) != 0 ||
	    dmo_profile_run(&opts, &status, &signal_no, &table, err, err_len) != 0)
		goto out;
	dmo_layer_table_free(&table);
	if (status != 0) {
		dmo_errf(err, err_len, "configurations %zu-%zu: the harness exited with status %d",
		      first, first + count - 1, status);
		goto out;
	}
	snprintf(csv, sizeof csv, "%s/%s", run_dir, DMO_LAYERS_CSV);
	if (dmo_layers_csv_read(csv, &table, err, err_len) != 0)
		goto out;
	if (table.count != count) {
		dmo_errf(err, err_len, "configurations %zu-%zu: %zu layers recorded, not %zu", first,
		      first + count - 1, table.count, count);
		goto out;
	}
	for (size_t k = 0; k < count; k++) {
		const struct dmo_layer_row *row = &table.rows[k];
		char name[64];
		snprintf(name, sizeof name, "op%zu_%s", k + 1, dmo_op_name(specs[k].op));
		if (strcmp(row->name, name) != 0 || strncmp(row->status, "ok", 2) != 0 ||
		    !dmo_layer_os_known(row)) {
			dmo_errf(err, err_len, "%s: layer %s has status '%s'", texts[k], row->name,
			      row->status);
			goto out;
		}
		s->results[first + k].exact = dmo_layer_safe_os(row); /* os_bytes on one thread */
		judge(s, first + k, &specs[k]);
	}
	part_path(s, first, path, sizeof path);
	struct part_ctx ctx = { s, first, count };
	rc = write_atomic(path, write_part, &ctx, err, err_len);
	if (rc == 0)
		dmo_remove_dir(run_dir);
out:
	dmo_layer_table_free(&table);
	free(texts);
	free(specs);
	free(argv);
	return rc;
}

/* ---- the sweep directory -------------------------------------------------- */

/* Create or check DIR/sweep.txt, lock the directory, clear what a killed
 * run left, and read the results already there. */
static int prepare_dir(struct dmo_sweep *s, char *err, size_t err_len)
{
	char path[PATH_MAX + 32], *have;
	size_t len;
	DIR *d;
	struct dirent *e;

	if (make_dir(s->dir, err, err_len) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/lock", s->dir);
	s->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (s->lock_fd < 0)
		return dmo_errf(err, err_len, "%s: %s", path, strerror(errno));
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0)
		return dmo_errf(err, err_len, "%s is in use by another dmo sweep", s->dir);
	snprintf(path, sizeof path, "%s/%s", s->dir, SWEEP_FILE);
	have = read_file(path, &len, err, err_len);
	if (have) {
		/* The key is a hash: check the words behind it too. */
		char *want = NULL;
		size_t want_len = 0;
		FILE *m = open_memstream(&want, &want_len);
		if (!m || write_sweep_file(m, s) || fclose(m)) {
			free(have);
			return dmo_errf(err, err_len, "out of memory");
		}
		int same = strcmp(have, want) == 0;
		free(want);
		free(have);
		if (!same)
			return dmo_errf(err, err_len, "%s belongs to a different sweep", s->dir);
	} else if (write_atomic(path, write_sweep_file, s, err, err_len) != 0) {
		return -1;
	}
	if (s->formula_text) {
		snprintf(path, sizeof path, "%s/%s", s->dir, FORMULA_FILE);
		if (write_atomic(path, write_formula_file, s->formula_text, err, err_len) != 0)
			return -1;
	}
	snprintf(path, sizeof path, "%s/%s", s->dir, PARTS_DIR);
	if (make_dir(path, err, err_len) != 0)
		return -1;
	/* A killed batch's run folder: a real folder (not a link) named as
	 * run_batch names them and holding dmo's lock.  Anything else named
	 * run-* is not dmo's and stays. */
	if ((d = opendir(s->dir))) {
		while ((e = readdir(d))) {
			struct stat info;
			char lock[PATH_MAX + 64];
			if (strncmp(e->d_name, "run-", 4) != 0)
				continue;
			snprintf(path, sizeof path, "%s/%s", s->dir, e->d_name);
			snprintf(lock, sizeof lock, "%s/" DMO_LOCK_FILE, path);
			if (lstat(path, &info) == 0 && S_ISDIR(info.st_mode) &&
			    lstat(lock, &info) == 0 && S_ISREG(info.st_mode))
				dmo_remove_dir(path);
		}
		closedir(d);
	}
	return read_parts(s, s->dir, err, err_len);
}

/* The pending configurations of the range, cut into batches: batch b is
 * [start[b], start[b] + len[b]); consecutive pending configurations only. */
struct batches {
	size_t *start, *len, count;
};

static int plan_batches(const struct dmo_sweep *s, struct batches *b)
{
	size_t lo = s->have_range ? s->first : 0, hi = s->have_range ? s->last + 1 : s->count;

	b->count = 0;
	b->start = malloc((hi - lo + 1) * sizeof *b->start);
	b->len = malloc((hi - lo + 1) * sizeof *b->len);
	if (!b->start || !b->len)
		return -1;
	for (size_t i = lo; i < hi; i++) {
		if (s->results[i].verdict != V_NONE)
			continue;
		if (b->count && b->start[b->count - 1] + b->len[b->count - 1] == i &&
		    b->len[b->count - 1] < (size_t)s->batch) {
			b->len[b->count - 1]++;
		} else {
			b->start[b->count] = i;
			b->len[b->count++] = 1;
		}
	}
	return 0;
}

static void batches_free(struct batches *b)
{
	free(b->start);
	free(b->len);
}

static void show_progress(struct dmo_progress *p, const struct dmo_sweep *s, size_t first,
			  size_t count)
{
	char spec[SPEC_MAX];
	for (size_t i = first; i < first + count; i++) {
		const struct result *r = &s->results[i];
		dmo_grid_spec(s->grid, s->configs[i], spec, sizeof spec);
		if (r->verdict == V_ERROR)
			dmo_progress_step(p, "%s: exact %" PRIu64 ", formula error: %s", spec,
					  r->exact, r->note);
		else
			dmo_progress_step(p, "%s: exact %" PRIu64 ", formula %" PRId64 ": %s", spec,
					  r->exact, r->formula, verdict_names[r->verdict]);
	}
}

/* ---- signals while batches run -------------------------------------------- */

/* Ctrl-C, SIGTERM or SIGHUP to the sweep: it must outlive its batches, or
 * they die of PR_SET_PDEATHSIG (SIGKILL) in the middle of their profiling
 * run and leave its FIFO folder (and Valgrind's vgdb pipes) in TMPDIR.  So
 * the sweep passes the signal on (a terminal's Ctrl-C reached them
 * already), starts no new batch, waits for the running ones, which finish
 * their cleanup, and then dies of the signal itself. */
static const int sweep_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM };
enum { N_SWEEP_SIGNALS = sizeof sweep_signals / sizeof sweep_signals[0] };
static volatile sig_atomic_t sweep_signal;
static pid_t *volatile sweep_children;
static volatile int sweep_n_children;

static void on_sweep_signal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	sweep_signal = sig;
	if (info->si_code == SI_KERNEL)
		return;
	/* --time-limit's timer (SIGALRM) stops the batches as SIGTERM does. */
	for (int i = 0; sweep_children != NULL && i < sweep_n_children; i++)
		if (sweep_children[i] > 0)
			kill(sweep_children[i], sig == SIGALRM ? SIGTERM : sig);
}

static void catch_sweep_signals(pid_t *children, int n, struct sigaction *saved)
{
	struct sigaction act;

	sweep_signal = 0;
	sweep_children = children;
	sweep_n_children = n;
	memset(&act, 0, sizeof act);
	act.sa_sigaction = on_sweep_signal;
	act.sa_flags = SA_SIGINFO; /* wait() returns EINTR, and the loop looks */
	sigemptyset(&act.sa_mask);
	for (int i = 0; i < N_SWEEP_SIGNALS; i++) {
		sigaction(sweep_signals[i], &act, &saved[i]);
		if (saved[i].sa_handler == SIG_IGN) /* ignored on entry: stays so */
			sigaction(sweep_signals[i], &saved[i], NULL);
	}
}

/* Put the handlers back; when a signal came, die of it (the time limit's
 * is the caller's to report). */
static void release_sweep_signals(const struct sigaction *saved)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
	sweep_children = NULL;
	for (int i = 0; i < N_SWEEP_SIGNALS; i++)
		sigaction(sweep_signals[i], &saved[i], NULL);
	if (sweep_signal && sweep_signal != SIGALRM) {
		struct rlimit no_core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &no_core); /* SIGQUIT's default dumps core */
		fflush(NULL);
		signal(sweep_signal, SIG_DFL);
		raise(sweep_signal);
	}
}

int dmo_sweep_run(struct dmo_sweep *s, int show, char *err, size_t err_len)
{
	return dmo_sweep_run_for(s, show, 0, err, err_len);
}

int dmo_sweep_run_for(struct dmo_sweep *s, int show, double seconds, char *err,
		      size_t err_len)
{
	struct sigaction saved[N_SWEEP_SIGNALS];
	struct dmo_progress steps, *progress = &steps;
	struct batches b;
	pid_t *pids = NULL;
	size_t *slot_batch = NULL; /* the batch each running child has */
	size_t next = 0, running = 0, total = 0, failed = 0, completed = 0;

	if (prepare_dir(s, err, err_len) != 0)
		return -1;
	if (plan_batches(s, &b) != 0 || !(pids = calloc((size_t)s->jobs, sizeof *pids)) ||
	    !(slot_batch = calloc((size_t)s->jobs, sizeof *slot_batch))) {
		free(pids);
		batches_free(&b);
		return dmo_errf(err, err_len, "out of memory");
	}
	for (size_t k = 0; k < b.count; k++)
		total += b.len[k];
	dmo_progress_start(progress, "sweep", total, show);
	if (show)
		fprintf(stderr, "dmo sweep: %zu configurations to run in %zu batches, %d at a time "
			"(%s)\n", total, b.count, s->jobs, s->dir);
	/* One child per batch, at most JOBS at once: each writes its batch file
	 * and exits; the parent reads it back for the progress lines. */
	catch_sweep_signals(pids, s->jobs, saved);
	if (seconds > 0) {
		struct itimerval limit = { { 0, 0 }, { (time_t)seconds,
				(suseconds_t)((seconds - (double)(time_t)seconds) * 1e6) } };
		setitimer(ITIMER_REAL, &limit, NULL);
	}
	while ((next < b.count && !sweep_signal) || running > 0) {
		while (running < (size_t)s->jobs && next < b.count && !sweep_signal) {
			int slot = 0;
			while (pids[slot])
				slot++;
			fflush(NULL);
			pid_t parent = getpid(), pid = fork();
			if (pid < 0) {
				fprintf(stderr, "dmo sweep: fork: %s\n", strerror(errno));
				failed += b.len[next++];
				continue;
			}
			if (pid == 0) {
				char why[1024];
				release_sweep_signals(saved);
				/* Die with the sweep: a batch finished after it would
				 * race the resumed sweep for the same configurations. */
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				if (getppid() != parent)
					_exit(1);
				if (run_batch(s, b.start[next], b.len[next], why, sizeof why) != 0) {
					fprintf(stderr, "dmo sweep: %s\n", why);
					_exit(1);
				}
				_exit(0);
			}
			pids[slot] = pid;
			slot_batch[slot] = next++;
			running++;
		}
		int status;
		pid_t pid = wait(&status);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int slot = 0; slot < s->jobs; slot++) {
			if (pids[slot] != pid)
				continue;
			size_t k = slot_batch[slot], taken = 0;
			char path[PATH_MAX], why[1024];
			pids[slot] = 0;
			running--;
			part_path(s, b.start[k], path, sizeof path);
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
			    read_rows(s, path, &taken, why, sizeof why) != 0 || taken != b.len[k]) {
				if (WIFSIGNALED(status))
					fprintf(stderr, "dmo sweep: batch at configuration %zu killed by signal %d\n",
						b.start[k], WTERMSIG(status));
				failed += b.len[k];
				progress->done += b.len[k]; /* counted, though not shown */
				continue;
			}
			show_progress(progress, s, b.start[k], b.len[k]);
			completed += b.len[k];
		}
	}
	int timed_out = sweep_signal == SIGALRM;
	release_sweep_signals(saved);
	free(slot_batch);
	free(pids);
	batches_free(&b);
	if (timed_out) {
		dmo_errf(err, err_len, "the time limit of %g s was reached: %zu of %zu "
			 "configurations ran in whole batches, kept in %s with what the stopped "
			 "batches finished; run the same command again to continue", seconds,
			 completed, total, s->dir);
		return -2;
	}
	if (failed) {
		fprintf(stderr, "dmo sweep: %zu configurations failed to run; run the same command "
			"again to retry them\n", failed);
		return 1;
	}
	return 0;
}

/* ---- emitting commands ---------------------------------------------------- */

static void shell_quote(FILE *out, const char *text)
{
	fputc('\'', out);
	for (const char *c = text; *c; c++)
		if (*c == '\'')
			fputs("'\\''", out);
		else
			fputc(*c, out);
	fputc('\'', out);
}

/* Quoting makes every byte literal to the shell, but a command is one
 * line: GNU parallel and xargs read it line by line, so a newline would
 * start another command, and a NUL would end the argument.  Any control
 * character cannot be written on one line and is refused. */
static int one_line(const char *what, const char *text, char *err, size_t err_len)
{
	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return dmo_errf(err, err_len, "%s holds a control character (byte 0x%02x at "
				     "offset %td): it cannot be written safely on one command line",
				     what, *c, (const char *)c - text);
	return 0;
}

int dmo_sweep_emit(struct dmo_sweep *s, const char *self, FILE *out, char *err, size_t err_len)
{
	char out_abs[PATH_MAX], formula_path[PATH_MAX + 32];
	struct batches b;

	if (one_line("the dmo program (DMO_COMMAND)", self, err, err_len) ||
	    one_line("the grid", s->grid_text, err, err_len) ||
	    one_line("--out", s->out_dir, err, err_len) ||
	    (s->formula_lib && one_line("--formula-lib", s->formula_lib, err, err_len)) ||
	    one_line("--backend", s->backend, err, err_len) ||
	    (s->isa && one_line("--isa", s->isa, err, err_len)))
		return -1;
	if (make_dir(s->out_dir, err, err_len) != 0 || !realpath(s->out_dir, out_abs))
		return dmo_errf(err, err_len, "%s: %s", s->out_dir, strerror(errno));
	/* The folder's real path is what the commands name. */
	if (one_line("--out's real path", out_abs, err, err_len))
		return -1;
	/* Results already in OUT/sweep-KEY or OUT/part-*\/sweep-KEY are not
	 * emitted again. */
	struct stat st;
	if (stat(s->dir, &st) == 0 && read_parts(s, s->dir, err, err_len) != 0)
		return -1;
	DIR *d = opendir(out_abs);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char sub[PATH_MAX + 300];
		if (strncmp(e->d_name, "part-", 5))
			continue;
		snprintf(sub, sizeof sub, "%s/%s/sweep-%s", out_abs, e->d_name, s->key);
		if (stat(sub, &st) == 0 && read_parts(s, sub, err, err_len) != 0) {
			closedir(d);
			return -1;
		}
	}
	if (d)
		closedir(d);
	if (s->formula_text) {
		/* One line per command: the formula goes by file. */
		snprintf(formula_path, sizeof formula_path, "%s/formula-%s.txt", out_abs, s->key);
		if (write_atomic(formula_path, write_formula_file, s->formula_text, err, err_len))
			return -1;
	}
	if (plan_batches(s, &b) != 0) {
		batches_free(&b);
		return dmo_errf(err, err_len, "out of memory");
	}
	for (size_t k = 0; k < b.count; k++) {
		char part[PATH_MAX + 32];
		shell_quote(out, self);
		fputs(" sweep ", out);
		shell_quote(out, s->grid_text);
		if (s->sample)
			fprintf(out, " --sample %" PRIu64 " --seed %" PRIu64, s->sample, s->seed);
		if (s->formula_text) {
			fputs(" --formula ", out);
			char arg[PATH_MAX + 40];
			snprintf(arg, sizeof arg, "@%s", formula_path);
			shell_quote(out, arg);
		} else {
			fputs(" --formula-lib ", out);
			shell_quote(out, s->formula_lib);
		}
		fputs(" --backend ", out);
		shell_quote(out, s->backend);
		if (s->isa) {
			fputs(" --isa ", out);
			shell_quote(out, s->isa);
		}
		fprintf(out, " --batch %d --configs %zu-%zu --out ", s->batch, b.start[k],
			b.start[k] + b.len[k] - 1);
		snprintf(part, sizeof part, "%s/part-%08zu", out_abs, b.start[k]);
		shell_quote(out, part);
		fputc('\n', out);
	}
	batches_free(&b);
	return fflush(out) == 0 ? 0 : dmo_errf(err, err_len, "write error");
}

/* ---- collecting ----------------------------------------------------------- */

static int write_results_csv(FILE *f, const void *ctx);

int dmo_sweep_find_dir(const char *dir, char *found, size_t len, char *err, size_t err_len)
{
	char path[PATH_MAX + 32];
	struct dirent *e;
	int n = 0;

	snprintf(path, sizeof path, "%s/%s", dir, SWEEP_FILE);
	if (access(path, R_OK) == 0) {
		snprintf(found, len, "%s", dir);
		return 0;
	}
	DIR *d = opendir(dir);
	if (!d)
		return dmo_errf(err, err_len, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "sweep-", 6)) {
			snprintf(found, len, "%s/%s", dir, e->d_name);
			n++;
		}
	closedir(d);
	if (n != 1)
		return dmo_errf(err, err_len, "%s holds %s sweep directory (sweep-KEY/)", dir,
			     n ? "more than one" : "no");
	return 0;
}

/* The value of KEY= in a sweep.txt text, copied into BUF. */
static int field_of(const char *text, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line)
		if (!strncmp(line, key, n) && line[n] == '=') {
			size_t v = strcspn(line + n + 1, "\n");
			if (v >= len)
				return -1;
			memcpy(buf, line + n + 1, v);
			buf[v] = '\0';
			return 0;
		}
	return -1;
}

struct dmo_sweep *dmo_sweep_collect(char *const *dirs, int count, const char *out_dir, char *err,
				    size_t err_len)
{
	struct dmo_sweep *s = NULL;
	char first_text[DMO_GRID_MAX_TEXT + 1024] = "";

	for (int i = 0; i < count; i++) {
		char dir[PATH_MAX], path[PATH_MAX + 32], *text;
		size_t len;
		if (dmo_sweep_find_dir(dirs[i], dir, sizeof dir, err, err_len) != 0)
			goto bad;
		snprintf(path, sizeof path, "%s/%s", dir, SWEEP_FILE);
		if (!(text = read_file(path, &len, err, err_len)))
			goto bad;
		if (!s) {
			char grid[DMO_GRID_MAX_TEXT + 1], backend[64], isa[16], key[32], lib[PATH_MAX];
			char num[2][32];
			uint64_t sample, seed;
			if (field_of(text, "key", key, sizeof key) || strlen(key) != 16 ||
			    field_of(text, "grid", grid, sizeof grid) ||
			    field_of(text, "backend", backend, sizeof backend) ||
			    field_of(text, "formula_lib", lib, sizeof lib) ||
			    field_of(text, "sample", num[0], sizeof num[0]) ||
			    field_of(text, "seed", num[1], sizeof num[1]) ||
			    parse_num(num[0], &sample) || parse_num(num[1], &seed)) {
				dmo_errf(err, err_len, "%s is not a sweep description", path);
				free(text);
				goto bad;
			}
			int capped = field_of(text, "isa", isa, sizeof isa) == 0;
			s = sweep_new(grid, sample, seed, backend, capped ? isa : NULL, err, err_len);
			if (!s) {
				free(text);
				goto bad;
			}
			memcpy(s->key, key, 17);
			s->formula_lib = lib[0] ? strdup(lib) : NULL;
			snprintf(first_text, sizeof first_text, "%s", text);
			snprintf(path, sizeof path, "%s/%s", dir, FORMULA_FILE);
			if (!lib[0] && !(s->formula_text = read_file(path, &len, err, err_len))) {
				free(text);
				goto bad;
			}
			snprintf(s->out_dir, sizeof s->out_dir, "%s", out_dir);
			snprintf(s->dir, sizeof s->dir, "%s/sweep-%s", out_dir, s->key);
		} else if (strcmp(text, first_text) != 0) {
			dmo_errf(err, err_len, "%s is a different sweep from %s (grid, formula or backend)",
			      dir, dirs[0]);
			free(text);
			goto bad;
		}
		free(text);
		if (read_parts(s, dir, err, err_len) != 0)
			goto bad;
	}
	/* The merged results become a batch file of OUT/sweep-KEY, so running
	 * the sweep there continues from them (rows already there are read
	 * again as identical duplicates, which is allowed). */
	if (prepare_dir(s, err, err_len) != 0)
		goto bad;
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s/part-collected.csv", s->dir, PARTS_DIR);
	if (write_atomic(path, write_results_csv, s, err, err_len))
		goto bad;
	return s;
bad:
	dmo_sweep_close(s);
	return NULL;
}

/* ---- summary -------------------------------------------------------------- */

struct summary {
	uint64_t run, missing, n[5], mismatches, equal_analytic, analytic_unsafe;
	size_t worst;         /* configuration of the largest unsafe excess */
	int64_t worst_excess;
	double mean, p50, p90, p99, max;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least P % of the values <= it. */
static double percentile(const double *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	return sorted[rank ? rank - 1 : 0];
}

static int summarize(const struct dmo_sweep *s, struct summary *m)
{
	double *pen = malloc((s->count + 1) * sizeof *pen);
	size_t npen = 0;

	if (!pen)
		return -1;
	memset(m, 0, sizeof *m);
	for (size_t i = 0; i < s->count; i++) {
		const struct result *r = &s->results[i];
		if (r->verdict == V_NONE) {
			m->missing++;
			continue;
		}
		m->run++;
		m->n[r->verdict]++;
		m->mismatches += r->exact != r->algorithmic;
		m->analytic_unsafe += r->analytic > r->exact;
		if (r->verdict == V_ERROR)
			continue;
		m->equal_analytic += r->formula == (int64_t)r->analytic;
		/* A formula may return any int64 (INT64_MIN too): the difference
		 * saturates in 64 bits, and the penalty is taken in double. */
		int64_t excess;
		if (__builtin_sub_overflow(r->formula, (int64_t)r->exact, &excess))
			excess = r->formula < 0 ? INT64_MIN : INT64_MAX;
		if (r->verdict == V_UNSAFE && excess > m->worst_excess) {
			m->worst_excess = excess;
			m->worst = i;
		}
		if (r->verdict != V_UNSAFE)
			pen[npen++] = r->out_bytes ? 100.0 * ((double)r->exact - (double)r->formula) /
							   (double)r->out_bytes : 0;
	}
	if (npen) {
		qsort(pen, npen, sizeof *pen, cmp_double);
		for (size_t i = 0; i < npen; i++)
			m->mean += pen[i] / (double)npen;
		m->p50 = percentile(pen, npen, 50);
		m->p90 = percentile(pen, npen, 90);
		m->p99 = percentile(pen, npen, 99);
		m->max = pen[npen - 1];
	}
	free(pen);
	return 0;
}

struct summary_ctx {
	const struct dmo_sweep *s;
	const struct summary *m;
};

static void csv_text(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s,", name);
	csv_fwrite(f, value, strlen(value));
	fputc('\n', f);
}

static int write_summary_csv(FILE *f, const void *ctx)
{
	const struct dmo_sweep *s = ((const struct summary_ctx *)ctx)->s;
	const struct summary *m = ((const struct summary_ctx *)ctx)->m;
	char spec[SPEC_MAX] = "";

	fputs("metric,value\n", f);
	csv_text(f, "grid", s->grid_text);
	csv_text(f, "backend", s->backend);
	csv_text(f, "isa_cap", s->isa ? s->isa : "none");
	csv_text(f, "formula", s->formula_text ? s->formula_text : s->formula_lib);
	fprintf(f, "key,%s\ngrid_configurations,%" PRIu64 "\nskipped_invalid,%" PRIu64 "\n",
		s->key, s->grid_total, s->skipped);
	fprintf(f, "sample,%" PRIu64 "\nseed,%" PRIu64 "\nconfigurations,%zu\n", s->sample,
		s->seed, s->count);
	fprintf(f, "run,%" PRIu64 "\nmissing,%" PRIu64 "\n", m->run, m->missing);
	fprintf(f, "safe,%" PRIu64 "\ntight,%" PRIu64 "\nunsafe,%" PRIu64 "\nformula_errors,%" PRIu64
		"\n", m->n[V_SAFE], m->n[V_TIGHT], m->n[V_UNSAFE], m->n[V_ERROR]);
	if (m->n[V_UNSAFE])
		dmo_grid_spec(s->grid, s->configs[m->worst], spec, sizeof spec);
	fprintf(f, "worst_unsafe_excess_bytes,%" PRId64 "\n", m->worst_excess);
	fprintf(f, "worst_unsafe_excess_pct,%.4f\n",
		m->n[V_UNSAFE] && s->results[m->worst].out_bytes
			? 100.0 * (double)m->worst_excess / (double)s->results[m->worst].out_bytes
			: 0.0);
	csv_text(f, "worst_unsafe_config", spec);
	fprintf(f, "penalty_mean_pct,%.4f\npenalty_p50_pct,%.4f\npenalty_p90_pct,%.4f\n"
		"penalty_p99_pct,%.4f\npenalty_max_pct,%.4f\n", m->mean, m->p50, m->p90, m->p99,
		m->max);
	fprintf(f, "formula_equals_analytic,%" PRIu64 "\nanalytic_unsafe,%" PRIu64 "\n",
		m->equal_analytic, m->analytic_unsafe);
	fprintf(f, "exact_ne_algorithmic,%" PRIu64 "\n", m->mismatches);
	return ferror(f);
}

static int write_results_csv(FILE *f, const void *ctx)
{
	const struct dmo_sweep *s = ctx;
	write_header(f);
	for (size_t i = 0; i < s->count; i++)
		if (s->results[i].verdict != V_NONE)
			write_row(f, s, i);
	return ferror(f);
}

/* Which fields (split at ':' and ',') of the configurations' specs differ
 * between configurations with a formula value: the bits of *VARYING.
 * Returns 0, or -1 when the specs do not all have the same fields (then
 * a label is the whole spec). */
#define LABEL_FIELDS 32
static int varying_fields(const struct dmo_sweep *s, uint32_t *varying)
{
	char first[SPEC_MAX] = "", spec[SPEC_MAX];

	*varying = 0;
	for (size_t i = 0; i < s->count; i++) {
		const struct result *r = &s->results[i];
		if (r->verdict == V_NONE || r->verdict == V_ERROR)
			continue;
		dmo_grid_spec(s->grid, s->configs[i], spec, sizeof spec);
		if (!first[0]) {
			snprintf(first, sizeof first, "%s", spec);
			continue;
		}
		const char *a = first, *b = spec;
		for (int field = 0;; field++) {
			size_t na = strcspn(a, ":,"), nb = strcspn(b, ":,");
			if (field >= LABEL_FIELDS || !a[na] != !b[nb])
				return -1;
			if (na != nb || strncmp(a, b, na) != 0)
				*varying |= 1u << field;
			if (!a[na])
				break;
			a += na + 1;
			b += nb + 1;
		}
	}
	return 0;
}

/* The fields of SPEC in VARYING, space-separated, as a configuration's
 * tick label (no comma: the label is a CSV cell). */
static void config_label(const char *spec, int fields_known, uint32_t varying, char *label,
			 size_t len)
{
	size_t used = 0;

	label[0] = '\0';
	for (int field = 0; *spec; field++) {
		size_t n = strcspn(spec, ":,");
		if (!fields_known || (varying & 1u << field))
			used += (size_t)snprintf(label + used, used < len ? len - used : 0, "%s%.*s",
						 used ? " " : "", (int)n, spec);
		spec += n + (spec[n] != '\0');
	}
	if (used >= len)
		label[len - 1] = '\0';
}

static int write_figure_data(FILE *f, const void *ctx)
{
	const struct dmo_sweep *s = ctx;
	char spec[SPEC_MAX], label[SPEC_MAX];
	uint32_t varying;
	int fields_known = varying_fields(s, &varying) == 0;

	fputs("config,label,out_bytes,exact_os,formula_os,unsafe\n", f);
	for (size_t i = 0; i < s->count; i++) {
		const struct result *r = &s->results[i];
		if (r->verdict == V_NONE || r->verdict == V_ERROR)
			continue;
		dmo_grid_spec(s->grid, s->configs[i], spec, sizeof spec);
		config_label(spec, fields_known, varying, label, sizeof label);
		fprintf(f, "%zu,%s,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%d\n", i + 1, label,
			r->out_bytes, r->exact, r->formula, r->verdict == V_UNSAFE);
	}
	return ferror(f);
}

/* The figure's two title lines, kept in FIGURE_TITLES beside figure.csv
 * so that `dmo plot --sweep` redraws it as the sweep drew it. */
#define FIGURE_TITLES "figure-titles.txt"
struct titles {
	char title[1024], subtitle[1024];
};

static int write_titles(FILE *f, const void *ctx)
{
	const struct titles *t = ctx;
	fprintf(f, "%s\n%s\n", t->title, t->subtitle);
	return ferror(f);
}

int dmo_sweep_plot(const char *dir, struct dmo_plot_output *out, char *err, size_t err_len)
{
	char path[PATH_MAX + 32], file[PATH_MAX + 32], key[2 * PATH_MAX], real[PATH_MAX];
	struct titles t;
	FILE *f;

	snprintf(path, sizeof path, "%s/" FIGURE_TITLES, dir);
	f = fopen(path, "r");
	if (f == NULL || fgets(t.title, sizeof t.title, f) == NULL ||
	    fgets(t.subtitle, sizeof t.subtitle, f) == NULL) {
		if (f != NULL)
			fclose(f);
		return dmo_errf(err, err_len, "%s: %s (not a summarised sweep directory)", path,
				f == NULL ? strerror(errno) : "damaged");
	}
	fclose(f);
	t.title[strcspn(t.title, "\n")] = '\0';
	t.subtitle[strcspn(t.subtitle, "\n")] = '\0';
	if (out->file == NULL) {
		snprintf(file, sizeof file, "%s/sweep", dir);
		out->file = file;
	}
	/* One key whichever command draws it: the sweep's own figure. */
	snprintf(key, sizeof key, "figure of the sweep %s", realpath(dir, real) ? real : dir);
	out->key = key;
	snprintf(path, sizeof path, "%s/figure.csv", dir);
	int rc = dmo_plot_sweep(path, t.title, t.subtitle, out, err, err_len);
	if (out->file == file)
		out->file = NULL;
	return rc;
}

/* The summary for people; summary.csv holds the same for scripts. */
static void print_summary(const struct dmo_sweep *s, const struct summary *m, FILE *out)
{
	char spec[SPEC_MAX];

	fprintf(out, "grid:     %s\n", s->grid_text);
	if (!s->formula_text)
		fprintf(out, "formula:  function dmo_formula in %s\n", s->formula_lib);
	else if (strchr(s->formula_text, '\n'))
		fprintf(out, "formula:  %s/%s\n", s->dir, FORMULA_FILE);
	else
		fprintf(out, "formula:  %s\n", s->formula_text);
	fprintf(out, "backend:  %s", s->backend);
	if (s->isa)
		fprintf(out, " (ISA cap %s)", s->isa);
	fputc('\n', out);
	fprintf(out, "configurations: %" PRIu64 " in the grid, %" PRIu64 " skipped as invalid%s%s",
		s->grid_total, s->skipped, strcmp(s->backend, "ref") ? " or not run by " : "",
		strcmp(s->backend, "ref") ? s->backend : "");
	if (s->sample)
		fprintf(out, ", a sample of %zu (seed %" PRIu64 ")", s->count, s->seed);
	fprintf(out, ", %" PRIu64 " with results", m->run);
	if (m->missing)
		fprintf(out, ", %" PRIu64 " MISSING", m->missing);
	fputc('\n', out);
	for (int r = 0; r < MAX_REASONS && s->reasons[r].count; r++)
		fprintf(out, "  skipped %" PRIu64 "x: %s\n", s->reasons[r].count, s->reasons[r].text);
	fprintf(out, "verdicts: %" PRIu64 " safe, %" PRIu64 " tight, %" PRIu64 " UNSAFE, %" PRIu64
		" formula errors\n", m->n[V_SAFE], m->n[V_TIGHT], m->n[V_UNSAFE], m->n[V_ERROR]);
	size_t shown = 0;
	for (size_t i = 0; i < s->count && shown < 20; i++) {
		const struct result *r = &s->results[i];
		if (r->verdict != V_UNSAFE && r->verdict != V_ERROR)
			continue;
		dmo_grid_spec(s->grid, s->configs[i], spec, sizeof spec);
		if (r->verdict == V_UNSAFE)
			fprintf(out, "  UNSAFE %s: formula %" PRId64 " > exact %" PRIu64 " (by %" PRId64
				" bytes)\n", spec, r->formula, r->exact, r->formula - (int64_t)r->exact);
		else
			fprintf(out, "  error  %s: %s\n", spec, r->note);
		shown++;
	}
	if (shown < m->n[V_UNSAFE] + m->n[V_ERROR])
		fprintf(out, "  ... (all in results.csv)\n");
	if (m->n[V_UNSAFE]) {
		dmo_grid_spec(s->grid, s->configs[m->worst], spec, sizeof spec);
		fprintf(out, "worst unsafe excess: %" PRId64 " bytes (%.3f %% of OB) at %s\n",
			m->worst_excess,
			100.0 * (double)m->worst_excess / (double)s->results[m->worst].out_bytes, spec);
	}
	fprintf(out, "penalty (exact - formula, %% of OB, safe and tight): mean %.3f, p50 %.3f, "
		"p90 %.3f, p99 %.3f, max %.3f\n", m->mean, m->p50, m->p90, m->p99, m->max);
	fprintf(out, "formula = dmo's analytic bound on %" PRIu64 " of %" PRIu64
		"; exact = algorithmic on %" PRIu64 "\n", m->equal_analytic, m->run - m->n[V_ERROR],
		m->run - m->mismatches);
	/* On ref a difference is a bug of dmo's; elsewhere a finding. */
	if (m->mismatches && strcmp(s->backend, "ref") == 0)
		fprintf(stderr, "dmo sweep: warning: the measured O_s differs from the reference "
			"loop order's algorithmic value on %" PRIu64 " configurations\n",
			m->mismatches);
	else if (m->mismatches)
		fprintf(out, "%s's kernels differ from the reference loop order on %" PRIu64
			" configurations (exact != algorithmic; docs/backends.md)\n", s->backend,
			m->mismatches);
}

int dmo_sweep_summary(struct dmo_sweep *s, FILE *out, int csv, char *err, size_t err_len)
{
	struct summary m;
	char path[PATH_MAX + 32];

	if (summarize(s, &m) != 0)
		return dmo_errf(err, err_len, "out of memory");
	snprintf(path, sizeof path, "%s/results.csv", s->dir);
	if (write_atomic(path, write_results_csv, s, err, err_len))
		return -1;
	snprintf(path, sizeof path, "%s/summary.csv", s->dir);
	struct summary_ctx ctx = { s, &m };
	if (write_atomic(path, write_summary_csv, &ctx, err, err_len))
		return -1;

	if (csv) {
		if (write_summary_csv(out, &ctx) != 0)
			return dmo_errf(err, err_len, "cannot write the summary");
	} else {
		print_summary(s, &m, out);
	}

	/* The figure last: a gnuplot problem must not cost the tables. */
	snprintf(path, sizeof path, "%s/figure.csv", s->dir);
	if (write_atomic(path, write_figure_data, s, err, err_len))
		return -1;
	struct titles titles;
	if (!s->formula_text)
		snprintf(titles.title, sizeof titles.title,
			 "residual of dmo_formula in %s against the exact O_s", s->formula_lib);
	else
		snprintf(titles.title, sizeof titles.title,
			 "residual of the formula %.*s%s against the exact O_s",
			 (int)strcspn(s->formula_text, "\n"), s->formula_text,
			 strchr(s->formula_text, '\n') ? " ..." : "");
	snprintf(titles.subtitle, sizeof titles.subtitle, "%s (%s%s%s): %" PRIu64
		 " configurations, %" PRIu64 " safe, %" PRIu64 " tight, %" PRIu64 " UNSAFE",
		 s->grid_text, s->backend, s->isa ? ", ISA cap " : "", s->isa ? s->isa : "", m.run,
		 m.n[V_SAFE], m.n[V_TIGHT], m.n[V_UNSAFE]);
	snprintf(path, sizeof path, "%s/" FIGURE_TITLES, s->dir);
	if (write_atomic(path, write_titles, &titles, err, err_len))
		return -1;
	/* The sweep's own folder: its figure is redrawn on a resume. */
	struct dmo_plot_output figure = { .force = 1 };
	int drawn = 0;
	if (m.run - m.n[V_ERROR] == 0)
		fprintf(stderr, "dmo sweep: no figure: no configuration has a formula value yet\n");
	else if (dmo_sweep_plot(s->dir, &figure, err, err_len) != 0)
		fprintf(stderr, "dmo sweep: no figure: %s\n", err);
	else
		drawn = 1;
	if (!csv)
		fprintf(out, "results:  %s/ (results.csv, summary.csv%s)\n", s->dir,
			drawn ? ", sweep.png" : "");
	if (m.missing)
		return 2;
	return m.n[V_UNSAFE] || m.n[V_ERROR] ? 1 : 0;
}
