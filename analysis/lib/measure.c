/* measure.c - a model measured on a set of kernels (measure.h). */
#include "measure.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errbuf.h"
#include "kernels.h"
#include "locate.h"

int dmo_run_self(char *const *args, char *err, size_t err_len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	int status;
	pid_t child;

	if (n <= 0)
		return dmo_errf(err, err_len, "cannot find the dmo program itself (/proc/self/exe)");
	self[n] = '\0';
	fflush(NULL);
	child = fork();
	if (child == 0) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execv(self, args);
		_exit(127);
	}
	if (child < 0 || waitpid(child, &status, 0) < 0)
		return dmo_errf(err, err_len, "cannot run %s", self);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int dmo_measure_model(const char *who, const char *model, const struct dmo_kernels *k,
		      const char *dir, char *err, size_t err_len)
{
	/* dmo's reference kernels run as `dmo run --model` does by default. */
	char *args[] = { "dmo", "run", "-q", "--model", (char *)model, "--out", (char *)dir,
			 k->kind == DMO_KERNELS_RUNTIME ? "--runtime" : "--backend", (char *)k->name,
			 NULL };
	char runner[PATH_MAX];
	int status;

	if (k->kind == DMO_KERNELS_REF)
		args[7] = NULL;
	if (k->kind == DMO_KERNELS_RUNTIME &&
	    dmo_locate_tflm_runner(k->name, runner, sizeof runner, err, err_len) != 0)
		return -1;
	if (k->kind == DMO_KERNELS_PROGRAM)
		return dmo_errf(err, err_len, "dmo cannot run %s itself: profile it (dmo profile "
				"--kernels %s -- PROGRAM) and give --os measured:DIR", k->name, k->name);
	fprintf(stderr, "%s: measuring every layer on %s kernels: dmo run -q --model %s", who,
		k->name, model);
	if (args[7] != NULL)
		fprintf(stderr, " %s %s", args[7], k->name);
	fputc('\n', stderr);
	status = dmo_run_self(args, err, err_len);
	if (status < 0)
		return -1;
	if (status != 0)
		return dmo_errf(err, err_len, "measuring the O_s on %s kernels failed (dmo run exit "
				"status %d)", k->name, status);
	return 0;
}
