/* profile.c - run a program under valgrind --tool=dmo (profile.h).
 *
 * The FIFO lives in a fresh 0700 directory so no other user can write
 * records into it.  The tool opens it before the program starts and the
 * program finds it through $DMO_FIFO, so neither side waits on the other.
 *
 * Nothing a run has recorded is lost to what happens around it: the run
 * directory is locked against a second run, SIGINT, SIGTERM, SIGHUP and SIGQUIT are
 * passed on to the program and dmo waits for it before writing layers.csv,
 * and the Valgrind child dies with dmo if dmo itself is killed.
 * --time-limit's timer (SIGALRM) takes the same path: the program gets
 * SIGTERM when the time is up. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#include "backend_info.h"
#include "fs.h"
#include "locate.h"
#include "host_isa.h"
#include "layer_list.h"
#include "profile.h"
#include "profile_runs.h"
#include "size_text.h"
#include "summary.h"
#include "wire.h"

#ifndef DMO_VALGRIND
#define DMO_VALGRIND "valgrind"
#endif

/* Leftovers of an earlier run would mix with this one's: dmo's own files
 * go, derived ones (analysis, curves, figures) too, anything else stays.
 * Only regular files named as dmo names them are dmo's: a link or a FIFO
 * under such a name was planted, and the run is refused with its name
 * (the tool would write through it).  Returns 0 with *COUNT files gone
 * and the first few names in REMOVED, or -1 with ERR. */
static int clear_run_dir(const char *dir, size_t *count, char *removed, size_t removed_len,
			 char *err, size_t err_len);

/* Whether LEAF names a traced child's run folder, proc-PID; its PID. */
static int child_dir_pid(const char *leaf, unsigned *pid)
{
	const char *digits = leaf + strlen(DMO_CHILD_DIR_PREFIX);
	size_t n = strspn(digits, "0123456789");
	if (strncmp(leaf, DMO_CHILD_DIR_PREFIX, strlen(DMO_CHILD_DIR_PREFIX)) != 0 || n == 0 ||
	    n > 9 || digits[n] != '\0' || digits[0] == '0')
		return 0;
	*pid = (unsigned)strtoul(digits, NULL, 10);
	return 1;
}

/* The FIFO a traced child's tool instance made in its folder DIR, left
 * when the child was killed outright: the tool's own, so dmo's to remove. */
static void remove_child_fifo(const char *dir)
{
	char path[PATH_MAX + 16];
	struct stat info;

	snprintf(path, sizeof path, "%s/dmo.fifo", dir);
	if (lstat(path, &info) == 0 && S_ISFIFO(info.st_mode))
		unlink(path);
}

/* An earlier run's child folder DIR: its dmo files go, and the folder
 * with them unless something else is in it. */
static int clear_child_dir(const char *dir, size_t *count, char *err, size_t err_len)
{
	size_t inside = 0;
	char names[256];
	int rc;

	remove_child_fifo(dir);
	rc = clear_run_dir(dir, &inside, names, sizeof names, err, err_len);
	*count += inside;
	if (rc == 0)
		rmdir(dir);
	return rc;
}

static int clear_run_dir(const char *dir, size_t *count, char *removed, size_t removed_len,
			 char *err, size_t err_len)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *entry;
	struct stat info;
	size_t used = 0;
	int rc = 0;

	*count = 0;
	removed[0] = '\0';
	if (d == NULL) {
		snprintf(err, err_len, "%s: %s", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((entry = readdir(d)) != NULL) {
		unsigned pid;
		char path[PATH_MAX + 256];

		snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
		if (child_dir_pid(entry->d_name, &pid) &&
		    fstatat(fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(info.st_mode) && rc == 0) {
			rc = clear_child_dir(path, count, err, err_len);
			continue;
		}
		if (!dmo_rundir_owns(entry->d_name) ||
		    fstatat(fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISREG(info.st_mode)) {
			if (unlinkat(fd, entry->d_name, 0) != 0)
				continue;
			if (++*count <= 3 && used < removed_len)
				used += (size_t)snprintf(removed + used, removed_len - used, "%s%s",
							 used ? ", " : "", entry->d_name);
		} else if (rc == 0) {
			dmo_refuse_non_regular(path, err, err_len);
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

/* A re-profile replaces the earlier run's figures: never silently.  The
 * runs that hide their program's output (compare's and sweep's) write
 * folders of dmo's own making, whose replacement is theirs to tell. */
static void say_replaced(const struct dmo_profile_options *opts, size_t count,
			 const char *removed)
{
	if (count == 0 || opts->quiet || opts->quiet_program)
		return;
	fprintf(stderr, "%s: %s held an earlier run; its %zu file%s (%s%s) were removed\n",
		opts->who, opts->out_dir, count, count == 1 ? "" : "s", removed,
		count > 3 ? ", ..." : "");
}

int dmo_run_dir_adopt(const char *dir, int force, char *err, size_t err_len)
{
	struct stat info;
	DIR *d;
	struct dirent *entry;
	int marked = 0, others = 0;

	/* Missing: dmo makes it.  No folder: creating it fails, and says so. */
	if (lstat(dir, &info) != 0 || !S_ISDIR(info.st_mode) || force)
		return 0;
	d = opendir(dir);
	if (d == NULL) {
		snprintf(err, err_len, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((entry = readdir(d)) != NULL) {
		if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
			continue;
		if (strcmp(entry->d_name, DMO_LOCK_FILE) == 0)
			marked = 1;
		else
			others = 1;
	}
	closedir(d);
	if (marked || !others)
		return 0;
	snprintf(err, err_len, "%s holds files but is no dmo run folder (no %s): a run would "
		 "replace its files named like dmo's (layers.csv, analysis.csv, layer-NNNN-*); "
		 "choose an empty or new folder, or --force to take it as one", dir,
		 DMO_LOCK_FILE);
	return -1;
}

/* One run at a time per directory: an flock on DIR/.dmo-lock, held until
 * dmo exits (the kernel drops it however dmo ends).  The file stays, as
 * removing a lock file races with the next run taking it. */
int dmo_run_dir_lock(const char *dir, char *err, size_t err_len)
{
	char path[PATH_MAX + 16], pid[32];
	int fd, n;

	snprintf(path, sizeof path, "%s/" DMO_LOCK_FILE, dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		snprintf(err, err_len, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		n = (int)read(fd, pid, sizeof pid - 1);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		snprintf(err, err_len, "%s is in use by another dmo run%s%s%s; "
			 "wait for it or choose another --out", dir, pid[0] ? " (pid " : "", pid,
			 pid[0] ? ")" : "");
		close(fd);
		return -1;
	}
	/* The pid only serves the message above: failing to write it is no
	 * reason to stop. */
	n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0)
		n = (int)write(fd, pid, (size_t)n);
	return fd;
}

static int check_out_dir(const struct dmo_profile_options *opts, char *err, size_t err_len)
{
	const char *dir = opts->out_dir;
	char probe[PATH_MAX];
	struct dmo_out test;

	if (dmo_run_dir_adopt(dir, opts->force, err, err_len) != 0)
		return -1;
	if (dmo_make_dirs(dir) != 0) {
		snprintf(err, err_len, "cannot create output directory %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(probe, sizeof probe, "%s/.dmo-write-test", dir);
	if (dmo_out_open(&test, probe, err, err_len) == NULL) {
		if (errno != EEXIST) /* else ERR names what stands there */
			snprintf(err, err_len, "cannot write to output directory %s: %s", dir,
				 strerror(errno));
		return -1;
	}
	dmo_out_abandon(&test);
	return 0;
}

/* ---- signals ---- */
/* SIGQUIT (Ctrl-\) too: it left no layers.csv and the FIFO folder.
 * SIGALRM is --time-limit's timer. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM };
enum { N_FORWARDED = sizeof forwarded / sizeof forwarded[0] };
static volatile pid_t signal_target;
static volatile sig_atomic_t signal_received;
static volatile sig_atomic_t time_is_up; /* the timer stopped the program: 1
					  * by SIGTERM, 2 by SIGKILL */
/* Seconds a program that outlives the time limit's SIGTERM (it handles or
 * ignores it) has before SIGKILL: the tool's rows then stay as claimed,
 * the open layer incomplete. */
#define TIME_LIMIT_GRACE 5

/* dmo stays to collect what the program recorded; the program gets the
 * signal.  A terminal's Ctrl-C (SI_KERNEL) already went to the whole
 * foreground process group, the program included, so it is not sent a
 * second time.  The timer's SIGALRM stops the program as SIGTERM does,
 * its next one TIME_LIMIT_GRACE seconds later with SIGKILL; it is no
 * signal dmo dies of afterwards. */
static void forward_signal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	if (sig == SIGALRM) {
		if (signal_target > 0 && time_is_up < 2) {
			time_is_up++;
			kill(signal_target, time_is_up == 1 ? SIGTERM : SIGKILL);
		}
		return;
	}
	signal_received = sig;
	if (signal_target > 0 && info->si_code != SI_KERNEL)
		kill(signal_target, sig);
}

/* Start (SECONDS > 0) or stop (0) --time-limit's timer, which then rings
 * every TIME_LIMIT_GRACE seconds. */
static void set_timer(double seconds)
{
	struct itimerval limit = { { seconds > 0 ? TIME_LIMIT_GRACE : 0, 0 }, { (time_t)seconds,
			(suseconds_t)((seconds - (double)(time_t)seconds) * 1e6) } };
	/* A zero timer is none: what is left of a limit runs out at once. */
	if (seconds > 0 && limit.it_value.tv_sec == 0 && limit.it_value.tv_usec == 0)
		limit.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &limit, NULL);
}

static void catch_signals(struct sigaction *saved)
{
	struct sigaction act;
	memset(&act, 0, sizeof act);
	act.sa_sigaction = forward_signal;
	act.sa_flags = SA_SIGINFO; /* no SA_RESTART: waitpid sees EINTR and waits again */
	sigemptyset(&act.sa_mask);
	for (int i = 0; i < N_FORWARDED; i++) {
		sigaction(forwarded[i], &act, &saved[i]);
		/* A signal ignored on entry (SIGINT in a background job) stays
		 * ignored, for dmo and the program, as a shell keeps it; the
		 * timer's is dmo's own. */
		if (saved[i].sa_handler == SIG_IGN && forwarded[i] != SIGALRM)
			sigaction(forwarded[i], &saved[i], NULL);
	}
}

static void restore_signals(const struct sigaction *saved)
{
	for (int i = 0; i < N_FORWARDED; i++)
		sigaction(forwarded[i], &saved[i], NULL);
}

/* Whether PROGRAM is a POSIX shell or env, which run other programs as
 * their work. */
static int is_shell(const char *program)
{
	static const char *const shells[] = { "sh", "bash", "dash", "ksh", "mksh", "zsh",
					      "busybox", "env" };
	const char *leaf = strrchr(program, '/');

	leaf = leaf ? leaf + 1 : program;
	for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++)
		if (strcmp(leaf, shells[i]) == 0)
			return 1;
	return 0;
}

/* Valgrind's vgdb pipes go to dmo's private folder PRIVATE_DIR: they stay
 * when a program that outlived the time limit's SIGTERM is killed, and go
 * with the folder (remove_vgdb_pipes). */
#define VGDB_PREFIX "vgdb-pipe"

static void run_valgrind(const struct dmo_profile_options *opts, const char *tool_dir,
			 const char *private_dir, const char *fifo, const char *out_dir,
			 pid_t parent)
{
	const char *valgrind = getenv("DMO_VALGRIND");
	char fifo_opt[PATH_MAX + 32], out_opt[PATH_MAX + 16], mem_opt[64], version_opt[32], pid_opt[48];
	char vgdb_opt[PATH_MAX + 32];
	size_t argc = 0, n;
	char **argv;

	while (opts->argv[argc] != NULL)
		argc++;
	argv = calloc(argc + 15 + (size_t)opts->n_vg_opts, sizeof *argv);
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
	argv[6] = "--dmo-max-mem=" DMO_MAX_MEM_DEFAULT_TEXT;
	if (opts->max_mem != NULL) {
		snprintf(mem_opt, sizeof mem_opt, "--dmo-max-mem=%s", opts->max_mem);
		argv[6] = mem_opt;
	}
	argv[7] = opts->count ? "--dmo-count=yes" : "--dmo-count=no";
	snprintf(version_opt, sizeof version_opt, "--dmo-trace-version=%d",
		 opts->trace_version ? opts->trace_version : (int)DMO_TRACE_VERSION);
	argv[8] = version_opt;
	/* The tool tells the instances of traced children from the
	 * program's own by this: their parent is not dmo. */
	snprintf(pid_opt, sizeof pid_opt, "--dmo-profiler-pid=%ld", (long)parent);
	argv[9] = pid_opt;
	/* A shell's work is the programs it runs (sh -c 'exec ./prog'):
	 * traced, unless --vg-opt=--trace-children=no says otherwise. */
	argv[10] = is_shell(opts->argv[0]) ? "--trace-children=yes" : "--trace-children=no";
	snprintf(vgdb_opt, sizeof vgdb_opt, "--vgdb-prefix=%s/" VGDB_PREFIX, private_dir);
	argv[11] = vgdb_opt;
	n = 12;
	if (opts->layers != NULL) {
		size_t len = strlen(opts->layers) + sizeof "--dmo-layers=";
		char *layers_opt = malloc(len);
		if (layers_opt == NULL)
			_exit(127);
		snprintf(layers_opt, len, "--dmo-layers=%s", opts->layers);
		argv[n++] = layers_opt;
		argv[n++] = opts->skip_untraced ? "--dmo-untraced=skip" : "--dmo-untraced=summary";
	}
	memcpy(argv + n, opts->vg_opts, (size_t)opts->n_vg_opts * sizeof *argv);
	memcpy(argv + n + opts->n_vg_opts, opts->argv, argc * sizeof *argv);
	/* If dmo is killed outright, Valgrind gets SIGTERM, so the tool still
	 * finishes its rows; the program is never left running alone. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
		_exit(127);
	setenv("VALGRIND_LIB", tool_dir, 1);
	setenv(DMO_FIFO_ENV, fifo, 1);
	if (opts->quiet_program) {
		int null_fd = open("/dev/null", O_WRONLY);
		if (null_fd >= 0)
			dup2(null_fd, STDOUT_FILENO);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", opts->who, argv[0], strerror(errno));
	_exit(127);
}

/* The vgdb pipes a killed Valgrind left in PRIVATE_DIR (VGDB_PREFIX...). */
static void remove_vgdb_pipes(const char *private_dir)
{
	DIR *d = opendir(private_dir);
	struct dirent *entry;

	if (d == NULL)
		return;
	while ((entry = readdir(d)) != NULL)
		if (strncmp(entry->d_name, VGDB_PREFIX, strlen(VGDB_PREFIX)) == 0)
			unlinkat(dirfd(d), entry->d_name, 0);
	closedir(d);
}

int dmo_profile_write_kernels(const struct dmo_profile_options *opts, const char *dir, char *err,
			      size_t err_len)
{
	struct dmo_kernels program;

	if (opts->kernels != NULL)
		return dmo_kernels_write(dir, opts->kernels, err, err_len);
	dmo_kernels_of_program(opts->argv[0], &program);
	return dmo_kernels_write(dir, &program, err, err_len);
}

/* MORE's rows after TABLE's (a traced child's after the others'); MORE is
 * emptied.  Short of memory, TABLE stays as it was. */
static void append_rows(struct dmo_layer_table *table, struct dmo_layer_table *more)
{
	struct dmo_layer_row *grown;

	if (more->count == 0)
		return;
	grown = realloc(table->rows, (table->count + more->count) * sizeof *grown);
	if (grown != NULL) {
		memcpy(grown + table->count, more->rows, more->count * sizeof *grown);
		table->rows = grown;
		table->count += more->count;
	}
	dmo_layer_table_free(more);
}

static int by_number(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

/* One traced child's folder DIR: its layers.csv and threads.csv written,
 * its rows appended to KIDS with its PID.  One that recorded no layer
 * (a shell's child such as ls) leaves no folder. */
static void take_child(const struct dmo_profile_options *opts, const char *dir, unsigned pid,
		       struct dmo_layer_table *kids)
{
	struct dmo_layer_table one;
	char why[1024], path[PATH_MAX + 64];
	int rc;

	remove_child_fifo(dir);
	rc = dmo_summary_read(dir, &one, why, sizeof why);
	if (rc != 0)
		fprintf(stderr, "%s: traced child %u: %s\n", opts->who, pid, why);
	if (rc >= 0 && one.count == 0) {
		snprintf(path, sizeof path, "%s/%s", dir, DMO_SUMMARY_FILE);
		unlink(path);
		rmdir(dir);
	}
	if (rc < 0 || one.count == 0)
		return;
	for (size_t i = 0; i < one.count; i++) {
		dmo_layer_set_safe(&one.rows[i], opts->static_split);
		one.rows[i].pid = pid;
	}
	snprintf(path, sizeof path, "%s/%s", dir, DMO_LAYERS_CSV);
	rc = dmo_layers_csv_write(path, &one, why, sizeof why);
	snprintf(path, sizeof path, "%s/%s", dir, DMO_THREADS_CSV);
	if (rc != 0 || dmo_threads_csv_write(path, &one, why, sizeof why) != 0)
		fprintf(stderr, "%s: traced child %u: %s\n", opts->who, pid, why);
	append_rows(kids, &one);
}

/* The rows of every child traced with --trace-children=yes (the tool's
 * proc-PID folders in DIR), by pid. */
static void take_children(const struct dmo_profile_options *opts, const char *dir,
			  struct dmo_layer_table *kids)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	unsigned *pids = NULL, pid;
	size_t n = 0;
	struct dirent *entry;
	struct stat info;
	char path[PATH_MAX + 32];

	kids->rows = NULL;
	kids->count = 0;
	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((entry = readdir(d)) != NULL) {
		unsigned *grown;
		if (!child_dir_pid(entry->d_name, &pid) ||
		    fstatat(fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(info.st_mode) || (grown = realloc(pids, (n + 1) * sizeof *pids)) == NULL)
			continue;
		pids = grown;
		pids[n++] = pid;
	}
	closedir(d);
	qsort(pids, n, sizeof *pids, by_number);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/" DMO_CHILD_DIR_PREFIX "%u", dir, pids[i]);
		take_child(opts, path, pids[i], kids);
	}
	free(pids);
}

int dmo_profile_run(const struct dmo_profile_options *opts, int *program_status,
		    int *program_signal, struct dmo_layer_table *table, char *err,
		    size_t err_len)
{
	char tool_dir[PATH_MAX], out_dir[PATH_MAX], private_dir[PATH_MAX];
	char fifo[PATH_MAX + 8], csv[PATH_MAX + 16], partial[1024] = "", removed[256];
	size_t removed_count;
	struct sigaction saved[N_FORWARDED];
	sigset_t block, old_mask;
	int status, rc = -1, lock_fd, read_rc;
	pid_t child, parent = getpid();
	struct dmo_layer_table kids;

	table->rows = NULL;
	table->count = 0;
	*program_status = -1; /* until it ran */
	*program_signal = 0;
	if (dmo_locate_tool(tool_dir, sizeof tool_dir, err, err_len) != 0 ||
	    dmo_program_runnable(opts->argv[0], err, err_len) != 0)
		return -1; /* said by dmo: Valgrind's 126 or 127 would read as the program's */
	if (check_out_dir(opts, err, err_len) != 0)
		return -1;
	if (opts->layers != NULL && !opts->full_trace) {
		snprintf(err, err_len, "--layers chooses the layers a full trace keeps: "
			 "give --trace=full too");
		return -1;
	}
	if (opts->untraced_given && opts->layers == NULL) {
		snprintf(err, err_len, "--untraced says what the layers --layers leaves out "
			 "get: give --layers too");
		return -1;
	}
	if (realpath(opts->out_dir, out_dir) == NULL) {
		snprintf(err, err_len, "%s: %s", opts->out_dir, strerror(errno));
		return -1;
	}
	lock_fd = dmo_run_dir_lock(out_dir, err, err_len);
	if (lock_fd < 0)
		return -1;
	if (clear_run_dir(out_dir, &removed_count, removed, sizeof removed, err, err_len) != 0) {
		close(lock_fd);
		return -1;
	}
	say_replaced(opts, removed_count, removed);
	/* Written before the program runs: whatever ends the run, its layers
	 * say which kernels they were measured on.  A full disk here does not
	 * stop the run (dmo's failure never hides the program's status): its
	 * kernels stay unknown, which plans refuse to run. */
	if (dmo_profile_write_kernels(opts, out_dir, err, err_len) != 0)
		fprintf(stderr, "%s: %s; the run's kernels stay unknown\n", opts->who, err);
	if (dmo_make_temp_dir(private_dir, sizeof private_dir, "dmo", err, err_len) != 0) {
		close(lock_fd);
		return -1;
	}
	snprintf(fifo, sizeof fifo, "%s/fifo", private_dir);
	if (mkfifo(fifo, 0600) != 0) {
		snprintf(err, err_len, "cannot create FIFO %s: %s", fifo, strerror(errno));
		goto out;
	}
	fflush(NULL);
	/* Signals wait until the child's pid is known, so none is lost. */
	sigemptyset(&block);
	for (int i = 0; i < N_FORWARDED; i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	signal_received = 0;
	time_is_up = 0;
	catch_signals(saved);
	child = fork();
	if (child == 0) {
		restore_signals(saved);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		run_valgrind(opts, tool_dir, private_dir, fifo, out_dir, parent);
	}
	signal_target = child;
	if (child > 0 && opts->time_limit > 0)
		set_timer(opts->time_limit - opts->time_spent);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	if (child < 0) {
		snprintf(err, err_len, "fork: %s", strerror(errno));
		signal_target = 0;
		restore_signals(saved);
		goto out;
	}
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, err_len, "waitpid: %s", strerror(errno));
			signal_target = 0;
			set_timer(0);
			restore_signals(saved);
			goto out;
		}
	signal_target = 0;
	set_timer(0);
	*program_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	*program_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + *program_signal;
	/* The handlers stay until layers.csv is in place: a second Ctrl-C
	 * must not cut it short. */
	read_rc = dmo_summary_read(out_dir, table, partial, sizeof partial);
	take_children(opts, out_dir, &kids);
	for (size_t i = 0; read_rc >= 0 && i < table->count; i++) {
		dmo_layer_set_safe(&table->rows[i], opts->static_split);
		/* Whose layers are whose, once a child recorded some. */
		table->rows[i].pid = kids.count > 0 ? (unsigned)child : 0;
	}
	if (read_rc < 0) {
		snprintf(err, err_len, "%s", partial);
	} else {
		snprintf(csv, sizeof csv, "%s/%s", out_dir, DMO_LAYERS_CSV);
		rc = dmo_layers_csv_write(csv, table, err, err_len);
		snprintf(csv, sizeof csv, "%s/%s", out_dir, DMO_THREADS_CSV);
		if (rc == 0)
			rc = dmo_threads_csv_write(csv, table, err, err_len);
		/* Natively, so the host's CPU: the ISA that will run outside the tool. */
		if (rc == 0)
			rc = dmo_host_csv_write(out_dir, err, err_len);
		if (rc == 0 && read_rc > 0) {
			/* The whole layers are in layers.csv; the damage is
			 * still a failure of the run. */
			snprintf(err, err_len, "%s", partial);
			rc = -1;
		} else if (rc != 0 && read_rc > 0) {
			size_t used = strlen(err);
			snprintf(err + used, err_len - used, "; %s", partial);
		}
	}
	append_rows(table, &kids);
	if (rc == 0 && time_is_up) {
		char killed[96] = "";
		if (time_is_up > 1)
			snprintf(killed, sizeof killed, "; the program outlived SIGTERM and was "
				 "killed %d s later", TIME_LIMIT_GRACE);
		snprintf(err, err_len, "the time limit of %g s was reached: %zu layer%s recorded%s",
			 opts->time_limit, table->count, table->count == 1 ? "" : "s", killed);
		rc = -2;
	}
	restore_signals(saved);
out:
	unlink(fifo);
	remove_vgdb_pipes(private_dir);
	rmdir(private_dir);
	close(lock_fd);
	return rc;
}

int dmo_rundir_recover(const char *dir, char *err, size_t err_len)
{
	char csv[PATH_MAX + 16], bin[PATH_MAX + 32], lock[PATH_MAX + 16], why[1024] = "";
	struct dmo_layer_table table;
	struct stat info;
	int lock_fd, rc, by_profile;

	snprintf(csv, sizeof csv, "%s/%s", dir, DMO_LAYERS_CSV);
	snprintf(bin, sizeof bin, "%s/%s", dir, DMO_SUMMARY_FILE);
	if (lstat(csv, &info) == 0 || errno != ENOENT || lstat(bin, &info) != 0)
		return 0;
	/* dmo profile takes its lock before anything runs; a folder without
	 * one was written by valgrind --tool=dmo itself, which leaves
	 * layers.csv to its first reader. */
	snprintf(lock, sizeof lock, "%s/" DMO_LOCK_FILE, dir);
	by_profile = lstat(lock, &info) == 0;
	lock_fd = dmo_run_dir_lock(dir, err, err_len);
	if (lock_fd < 0)
		return -1;
	rc = dmo_summary_read(dir, &table, why, sizeof why);
	if (rc >= 0 && dmo_layers_csv_write(csv, &table, err, err_len) == 0) {
		snprintf(err, err_len, "%s %s from %s: %zu layer%s%s%s", csv,
			 by_profile ? "was missing (a run killed or out of disk); rebuilt"
				    : "made (the run of valgrind --tool=dmo leaves it to its reader)",
			 DMO_SUMMARY_FILE, table.count, table.count == 1 ? "" : "s",
			 rc > 0 ? "; " : "", rc > 0 ? why : "");
		/* Only a damaged run is worth the note's warning. */
		rc = by_profile || rc > 0 ? 1 : 0;
	} else {
		if (rc < 0)
			snprintf(err, err_len, "%s", why);
		rc = -1;
	}
	dmo_layer_table_free(&table);
	close(lock_fd);
	return rc;
}

int dmo_rundir_layers(const char *dir, const char *who, struct dmo_layer_table *table)
{
	char csv[4096], err[4096 + 256];
	int rc;

	table->rows = NULL;
	table->count = 0;
	if (dmo_rundir_exists(dir, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		return -1;
	}
	if (dmo_rundir_recover(dir, err, sizeof err) != 0)
		fprintf(stderr, "%s: %s\n", who, err);
	snprintf(csv, sizeof csv, "%s/" DMO_LAYERS_CSV, dir);
	rc = dmo_layers_csv_read(csv, table, err, sizeof err);
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", who, err);
	return rc;
}

int dmo_time_limit_parse(const char *text, double *seconds, char *err, size_t err_len)
{
	char *end;
	double value = strtod(text, &end);

	if (end == text || *end != '\0' || !(value > 0 && value <= 1e6)) {
		snprintf(err, err_len, "--time-limit takes seconds above 0, up to 1e6, not '%s'",
			 text);
		return -1;
	}
	*seconds = value;
	return 0;
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
	case DMO_OPT_LAYERS: {
		size_t bad_at;
		if (dmo_layer_list_check(value, &bad_at) != 0) {
			snprintf(err, err_len, "--layers: '%s' at '%s' is not " DMO_LAYER_LIST_ITEM, value,
				 value + bad_at);
			return -1;
		}
		opts->layers = value;
		return 1;
	}
	case DMO_OPT_UNTRACED:
		if (strcmp(value, "summary") != 0 && strcmp(value, "skip") != 0) {
			snprintf(err, err_len, "--untraced must be summary or skip, not '%s'", value);
			return -1;
		}
		opts->skip_untraced = strcmp(value, "skip") == 0;
		opts->untraced_given = 1;
		return 1;
	case DMO_OPT_TRACE_VERSION:
		if (strcmp(value, "1") != 0 && strcmp(value, "2") != 0) {
			snprintf(err, err_len, "--trace-version must be 2 (compact) or 1, not '%s'",
				 value);
			return -1;
		}
		opts->trace_version = value[0] - '0';
		return 1;
	case DMO_OPT_MAX_MEM: {
		uint64_t bytes;

		/* Checked by the tool's own rule here, so Valgrind never
		 * starts with a size it would refuse. */
		if (dmo_size_parse(value, &bytes) != 0 || bytes < DMO_MAX_MEM_MIN) {
			snprintf(err, err_len, "--max-mem takes a size of at least 2M, "
				 "e.g. 64M or 2G, not '%s'", value);
			return -1;
		}
		opts->max_mem = value;
		return 1;
	}
	case 'q':
		opts->quiet = 1;
		return 1;
	case DMO_OPT_FORCE:
		opts->force = 1;
		return 1;
	case DMO_OPT_COUNT:
		opts->count = 1;
		return 1;
	case DMO_OPT_STATIC_SPLIT:
		opts->static_split = 1;
		return 1;
	case DMO_OPT_VG_OPT:
		return dmo_profile_vg_opt(opts, value, err, err_len) == 0 ? 1 : -1;
	case DMO_OPT_RUNS:
		return dmo_profile_runs_option(opts, value, err, err_len) == 0 ? 1 : -1;
	case DMO_OPT_TIME_LIMIT:
		return dmo_time_limit_parse(value, &opts->time_limit, err, err_len) == 0 ? 1 : -1;
	default:
		return 0;
	}
}

/* A run that recorded no row at all: never silent, and with the likely
 * causes, so that an empty table is not taken for a program without
 * overlap. */
static void say_no_layers(const char *who, const char *program)
{
	fprintf(stderr, "%s: no layer was recorded: %s never called dmo_layer_begin, is not "
		"linked with libdmo-harness (ldd %s shows it), or ended before its first "
		"layer\n", who, program, program);
}

/* Where each traced child's layers are: a run folder of its own. */
static void say_children(FILE *report, const char *dir, const struct dmo_layer_table *table)
{
	char path[PATH_MAX + 32];
	struct stat info;

	for (size_t i = 0; i < table->count; i++) {
		unsigned pid = table->rows[i].pid;
		if (pid == 0 || (i > 0 && table->rows[i - 1].pid == pid))
			continue;
		snprintf(path, sizeof path, "%s/" DMO_CHILD_DIR_PREFIX "%u", dir, pid);
		if (lstat(path, &info) == 0 && S_ISDIR(info.st_mode))
			fprintf(report, "process %u (a traced child): run directory %s (%s)\n", pid,
				path, DMO_LAYERS_CSV);
	}
}

/* Each item of --layers LIST that matched no layer of the run: a number
 * past the last layer or a mistyped name traces nothing, which without a
 * word looks like a run that kept the layer's events elsewhere. */
static void say_unmatched_layers(const char *who, const char *list,
				 const struct dmo_layer_table *table)
{
	const char *item = list;
	while (item != NULL) {
		const char *comma = strchr(item, ',');
		char *one = strndup(item, comma != NULL ? (size_t)(comma - item) : strlen(item));
		size_t i = 0;
		if (one == NULL)
			return;
		while (i < table->count &&
		       !dmo_layer_list_has(one, table->rows[i].layer, table->rows[i].name))
			i++;
		if (i == table->count)
			fprintf(stderr, "%s: note: --layers item '%s' matches no layer of the run "
				"(%s): nothing traced for it\n", who, one, DMO_LAYERS_CSV);
		free(one);
		item = comma != NULL ? comma + 1 : NULL;
	}
}

int dmo_profile_command(const struct dmo_profile_options *opts, const char *who)
{
	FILE *report = opts->report ? opts->report : stderr;
	struct dmo_layer_table table;
	char err[1024];
	int status, signal_no, rc, empty, timed_out;

	if (opts->runs > 1)
		return dmo_profile_runs_command(opts, who);
	rc = dmo_profile_run(opts, &status, &signal_no, &table, err, sizeof err);
	timed_out = rc == -2;
	/* What the tool recorded is shown even when layers.csv failed. */
	if (!opts->quiet && table.count > 0)
		dmo_layers_print(report, &table);
	if ((rc == 0 || timed_out) && !opts->quiet)
		fprintf(report, "run directory: %s (%s)\n", opts->out_dir, DMO_LAYERS_CSV);
	if (!opts->quiet)
		say_children(report, opts->out_dir, &table);
	fflush(report);
	dmo_layers_warn_threads(stderr, who, &table);
	if (opts->layers != NULL && rc == 0 && table.count > 0)
		say_unmatched_layers(who, opts->layers, &table);
	empty = rc == 0 && status >= 0 && table.count == 0;
	if (empty)
		say_no_layers(who, opts->argv[0]);
	dmo_layer_table_free(&table);
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", who, err);
	/* Said on stderr, since a layer left "incomplete" needs its cause.  A
	 * SIGKILL nobody sent by hand is usually the kernel's OOM killer.  The
	 * time limit's SIGTERM was said with the rc above. */
	if (signal_no && !timed_out)
		fprintf(stderr, "%s: the program was killed by signal %d (%s)%s\n", who,
			signal_no, strsignal(signal_no),
			signal_no == SIGKILL ? "; if by the out-of-memory killer, a "
					       "smaller --max-mem bounds a full trace's RAM"
					     : "");
	if (status < 0 || timed_out) /* the program never ran, or was stopped */
		return 2;
	/* Killed by the signal dmo was sent too: dmo dies of it as well, so a
	 * calling shell sees the interrupt (128+signal) and stops. */
	if (signal_no && signal_no == signal_received) {
		/* SIGQUIT's default dumps core: dmo's own core is of no use. */
		struct rlimit no_core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &no_core);
		fflush(NULL);
		signal(signal_no, SIG_DFL);
		raise(signal_no);
	}
	/* dmo's own failure never hides the program's: a failing program's
	 * status is kept, a succeeding one's becomes 2.  So does a run that
	 * profiled nothing: an empty table is no success. */
	return (rc != 0 || empty) && status == 0 ? 2 : status;
}
