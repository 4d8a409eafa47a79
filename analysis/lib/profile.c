/* profile.c - run a program under valgrind --tool=dmo (profile.h).
 *
 * The FIFO lives in a fresh 0700 directory so no other user can write
 * records into it.  The tool opens it before the program starts and the
 * program finds it through $DMO_FIFO, so neither side waits on the other. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend_info.h"
#include "locate.h"
#include "profile.h"
#include "profile_runs.h"
#include "summary.h"
#include "wire.h"

#ifndef DMO_VALGRIND
#define DMO_VALGRIND "valgrind"
#endif

int dmo_make_dirs(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Leftovers of an earlier run would mix with this one's. */
static void clear_run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	if (d == NULL)
		return;
	while ((entry = readdir(d)) != NULL) {
		size_t len = strlen(entry->d_name);
		if (strcmp(entry->d_name, DMO_SUMMARY_FILE) == 0 ||
		    strcmp(entry->d_name, DMO_LAYERS_CSV) == 0 ||
		    strcmp(entry->d_name, DMO_THREADS_CSV) == 0 ||
		    strcmp(entry->d_name, DMO_BACKEND_INFO_CSV) == 0 ||
		    (strncmp(entry->d_name, "layer-", 6) == 0 &&
		     ((len > 7 && strcmp(entry->d_name + len - 7, ".events") == 0) ||
		      (len > 4 && strcmp(entry->d_name + len - 4, ".csv") == 0)))) {
			char path[PATH_MAX + 256];
			snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

static int check_out_dir(const char *dir, char *err, size_t err_len)
{
	char probe[PATH_MAX];
	int fd;
	if (dmo_make_dirs(dir) != 0) {
		snprintf(err, err_len, "cannot create output directory %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(probe, sizeof probe, "%s/.dmo-write-test", dir);
	fd = open(probe, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0) {
		snprintf(err, err_len, "cannot write to output directory %s: %s", dir, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

static void run_valgrind(const struct dmo_profile_options *opts, const char *tool_dir,
			 const char *fifo, const char *out_dir)
{
	const char *valgrind = getenv("DMO_VALGRIND");
	char fifo_opt[PATH_MAX + 16], out_opt[PATH_MAX + 16], mem_opt[64];
	size_t argc = 0;
	char **argv;

	while (opts->argv[argc] != NULL)
		argc++;
	argv = calloc(argc + 8 + (size_t)opts->n_vg_opts, sizeof *argv);
	if (argv == NULL)
		_exit(127);
	snprintf(fifo_opt, sizeof fifo_opt, "--dmo-fifo=%s", fifo);
	snprintf(out_opt, sizeof out_opt, "--dmo-out=%s", out_dir);
	argv[0] = (char *)(valgrind ? valgrind : DMO_VALGRIND);
	argv[1] = "-q";
	argv[2] = "--tool=dmo";
	argv[3] = fifo_opt;
	argv[4] = out_opt;
	argv[5] = opts->full_trace ? "--dmo-trace=full" : "--dmo-trace=summary";
	argv[6] = "--dmo-max-mem=64M";
	if (opts->max_mem != NULL) {
		snprintf(mem_opt, sizeof mem_opt, "--dmo-max-mem=%s", opts->max_mem);
		argv[6] = mem_opt;
	}
	memcpy(argv + 7, opts->vg_opts, (size_t)opts->n_vg_opts * sizeof *argv);
	memcpy(argv + 7 + opts->n_vg_opts, opts->argv, argc * sizeof *argv);
	setenv("VALGRIND_LIB", tool_dir, 1);
	setenv(DMO_FIFO_ENV, fifo, 1);
	if (opts->quiet_program) {
		int null_fd = open("/dev/null", O_WRONLY);
		if (null_fd >= 0)
			dup2(null_fd, STDOUT_FILENO);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "dmo: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int dmo_profile_run(const struct dmo_profile_options *opts, int *program_status,
		    int *program_signal, struct dmo_layer_table *table, char *err,
		    size_t err_len)
{
	char tool_dir[PATH_MAX], out_dir[PATH_MAX], private_dir[] = "/tmp/dmo-XXXXXX";
	char fifo[sizeof private_dir + 8], csv[PATH_MAX + 16];
	int status, rc = -1;
	pid_t child;

	table->rows = NULL;
	table->count = 0;
	if (dmo_locate_tool(tool_dir, sizeof tool_dir, err, err_len) != 0)
		return -1;
	if (check_out_dir(opts->out_dir, err, err_len) != 0)
		return -1;
	if (realpath(opts->out_dir, out_dir) == NULL) {
		snprintf(err, err_len, "%s: %s", opts->out_dir, strerror(errno));
		return -1;
	}
	clear_run_dir(out_dir);
	if (mkdtemp(private_dir) == NULL) {
		snprintf(err, err_len, "cannot create a private directory for the FIFO: %s",
			 strerror(errno));
		return -1;
	}
	snprintf(fifo, sizeof fifo, "%s/fifo", private_dir);
	if (mkfifo(fifo, 0600) != 0) {
		snprintf(err, err_len, "cannot create FIFO %s: %s", fifo, strerror(errno));
		goto out;
	}
	fflush(NULL);
	child = fork();
	if (child < 0) {
		snprintf(err, err_len, "fork: %s", strerror(errno));
		goto out;
	}
	if (child == 0)
		run_valgrind(opts, tool_dir, fifo, out_dir);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, err_len, "waitpid: %s", strerror(errno));
			goto out;
		}
	*program_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	*program_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + *program_signal;
	if (dmo_summary_read(out_dir, table, err, err_len) != 0)
		goto out;
	snprintf(csv, sizeof csv, "%s/%s", out_dir, DMO_LAYERS_CSV);
	rc = dmo_layers_csv_write(csv, table, err, err_len);
	snprintf(csv, sizeof csv, "%s/%s", out_dir, DMO_THREADS_CSV);
	if (rc == 0)
		rc = dmo_threads_csv_write(csv, table, err, err_len);
out:
	unlink(fifo);
	rmdir(private_dir);
	return rc;
}

int dmo_profile_option(struct dmo_profile_options *opts, int option, const char *value,
		       char *err, size_t err_len)
{
	switch (option) {
	case 'o':
		opts->out_dir = value;
		return 1;
	case 't':
		if (strcmp(value, "full") != 0 && strcmp(value, "summary") != 0) {
			snprintf(err, err_len, "--trace must be summary or full, not '%s'", value);
			return -1;
		}
		opts->full_trace = strcmp(value, "full") == 0;
		return 1;
	case DMO_OPT_MAX_MEM:
		opts->max_mem = value;
		return 1;
	case DMO_OPT_VG_OPT:
		return dmo_profile_vg_opt(opts, value, err, err_len) == 0 ? 1 : -1;
	case DMO_OPT_RUNS:
		return dmo_profile_runs_option(opts, value, err, err_len) == 0 ? 1 : -1;
	default:
		return 0;
	}
}

int dmo_profile_command(const struct dmo_profile_options *opts, const char *who)
{
	struct dmo_layer_table table;
	char err[1024];
	int status, signal_no;

	if (opts->runs > 1)
		return dmo_profile_runs_command(opts, who);
	if (dmo_profile_run(opts, &status, &signal_no, &table, err, sizeof err) != 0) {
		/* What the tool recorded is shown even when layers.csv failed. */
		if (table.count > 0)
			dmo_layers_print(stdout, &table);
		fprintf(stderr, "%s: %s\n", who, err);
		dmo_layer_table_free(&table);
		return 2;
	}
	dmo_layers_print(stdout, &table);
	printf("run directory: %s (%s)\n", opts->out_dir, DMO_LAYERS_CSV);
	dmo_layers_warn_threads(stderr, who, &table);
	dmo_layer_table_free(&table);
	/* Said on stderr, since a layer left "incomplete" needs its cause.  A
	 * SIGKILL nobody sent by hand is usually the kernel's OOM killer. */
	if (signal_no)
		fprintf(stderr, "%s: the program was killed by signal %d (%s)%s\n", who,
			signal_no, strsignal(signal_no),
			signal_no == SIGKILL ? "; if by the out-of-memory killer, a "
					       "smaller --max-mem bounds a full trace's RAM"
					     : "");
	return status;
}
