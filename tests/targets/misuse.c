/* misuse.c - test target: one protocol misuse, named by argv[1], between
 * two good layers.  The tool must report it, record it, and let the
 * program go on; the good layers must be recorded as ok.
 * The last four cases end the program inside a layer on purpose. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dmo/harness.h"

#define N 256

static float in[N], out[N], both[2 * N];
static const char *self; /* argv[0], for the case that runs itself */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void good_layer(const char *name)
{
	if (dmo_layer_begin(name, "relu:in=1x1x256", in, sizeof in, out, sizeof out) != 0 ||
	    (out[0] = in[0], dmo_layer_end() != 0)) {
		fprintf(stderr, "misuse: good layer %s was refused\n", name);
		exit(3);
	}
}

/* two-threads: a second thread begins a layer while the main thread's is
 * open.  Threads do not get a layer each: still a nested begin. */
static void *begin_elsewhere(void *rc)
{
	*(int *)rc = dmo_layer_begin("inner", NULL, in, sizeof in, out, sizeof out);
	return NULL;
}

/* Returns the value the harness call returned, which must be negative. */
static int misuse(const char *what)
{
	if (strcmp(what, "end-without-begin") == 0)
		return dmo_layer_end();
	if (strcmp(what, "nested") == 0) {
		int rc;
		dmo_layer_begin("outer", NULL, in, sizeof in, out, sizeof out);
		rc = dmo_layer_begin("inner", NULL, in, sizeof in, out, sizeof out);
		out[1] = in[1];
		if (dmo_layer_end() != 0)
			return 0;
		return rc;
	}
	if (strcmp(what, "two-threads") == 0) {
		pthread_t other;
		int rc = 0;
		dmo_layer_begin("outer", NULL, in, sizeof in, out, sizeof out);
		if (pthread_create(&other, NULL, begin_elsewhere, &rc) != 0)
			exit(3);
		pthread_join(other, NULL);
		out[1] = in[1];
		if (dmo_layer_end() != 0)
			return 0;
		return rc;
	}
	if (strcmp(what, "zero-size") == 0) {
		int rc = dmo_layer_begin("zero", NULL, in, 0, out, sizeof out);
		dmo_layer_end();
		return rc;
	}
	if (strcmp(what, "overlap") == 0) {
		int rc = dmo_layer_begin("overlap", NULL, both, sizeof both / 2 + 64,
					 both + N, sizeof both / 2);
		dmo_layer_end();
		return rc;
	}
	if (strcmp(what, "unmapped") == 0) {
		int rc = dmo_layer_begin("unmapped", NULL, (void *)0x1000, 4096, out, sizeof out);
		dmo_layer_end();
		return rc;
	}
	if (strcmp(what, "exit-mid-layer") == 0) {
		dmo_layer_begin("dying", NULL, in, sizeof in, out, sizeof out);
		out[2] = in[2];
		exit(7);
	}
	if (strcmp(what, "crash-mid-layer") == 0) {
		dmo_layer_begin("crashing", NULL, in, sizeof in, out, sizeof out);
		out[3] = in[3];
		raise(SIGSEGV);
	}
	if (strcmp(what, "long-name") == 0 || strcmp(what, "long-spec") == 0 ||
	    strcmp(what, "control-char") == 0) {
		/* Refused by the library, never opened by the tool: the end
		 * that follows fails too, and "after" is intact. */
		static char text[2048];
		int rc;
		memset(text, 'x', sizeof text - 1);
		if (strcmp(what, "long-name") == 0) {
			text[256] = '\0';
			rc = dmo_layer_begin(text, NULL, in, sizeof in, out, sizeof out);
		} else if (strcmp(what, "long-spec") == 0) {
			text[1024] = '\0';
			rc = dmo_layer_begin("long_spec", text, in, sizeof in, out, sizeof out);
		} else {
			rc = dmo_layer_begin("tab\there", NULL, in, sizeof in, out, sizeof out);
		}
		out[4] = in[4];
		if (dmo_layer_end() == 0)
			return 0;
		return rc;
	}
	if (strcmp(what, "bad-spec") == 0 || strcmp(what, "spec-size") == 0) {
		/* Refused by the library with and without the tool, for the
		 * same reason; under the tool a row records it.  spec-size
		 * reuses the spec that passed for "before", with half the input
		 * buffer: a spec that passed once is checked again. */
		int rc = what[0] == 'b'
				 ? dmo_layer_begin("badspec", "relu:in=1x1x256,k=3", in, sizeof in, out,
						   sizeof out)
				 : dmo_layer_begin("specsize", "relu:in=1x1x256", in, sizeof in / 2, out,
						   sizeof out);
		printf("begin: %s\n", dmo_layer_error());
		out[4] = in[4];
		if (dmo_layer_end() == 0)
			return 0;
		return rc;
	}
	if (strcmp(what, "fork") == 0) {
		/* The child's layers are not recorded, and it says so once.  It
		 * leaves by exit, as a real program's child would (and so a
		 * coverage build keeps its counts); nothing is left to flush. */
		pid_t child;
		int status;
		fflush(stdout);
		child = fork();
		if (child == 0) {
			good_layer("child1");
			good_layer("child2");
			exit(0);
		}
		if (child < 0 || waitpid(child, &status, 0) != child || status != 0)
			return 0;
		return -1;
	}
	if (strcmp(what, "system") == 0) {
		/* Issue 28: a child linked with the harness, started by
		 * system(): its layers (numbered 1, 2, 3 too) are not this
		 * process's, which keeps "before" and "after" as 1 and 2. */
		char command[4096];
		snprintf(command, sizeof command, "'%s' child-layers", self);
		fflush(stdout);
		return system(command) == 0 ? -1 : 0;
	}
	if (strcmp(what, "child-layers") == 0) {
		good_layer("child");
		return -1;
	}
	if (strcmp(what, "utf8") == 0) {
		good_layer("\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb8" "d" "\xc3\xa9" "_\xe5\xb1\x82");
		return -1;
	}
	if (strcmp(what, "sigint-then-finish") == 0) {
		/* A program that handles SIGINT and finishes its layer. */
		struct sigaction act = { .sa_handler = on_sigint };
		sigaction(SIGINT, &act, NULL);
		dmo_layer_begin("interrupted", NULL, in, sizeof in, out, sizeof out);
		printf("waiting\n");
		fflush(stdout);
		for (int i = 0; i < 600 && !interrupted; i++)
			usleep(100000);
		out[5] = in[5];
		return dmo_layer_end() == 0 && interrupted ? -1 : 0;
	}
	if (strcmp(what, "sleep-in-layer") == 0) {
		dmo_layer_begin("sleeping", NULL, in, sizeof in, out, sizeof out);
		printf("waiting\n");
		fflush(stdout);
		sleep(60);
		exit(9);
	}
	if (strcmp(what, "spin-in-layer") == 0 || strcmp(what, "spin-ignoring-sigterm") == 0) {
		/* Works in its layer for ever: only a signal ends it (SIGKILL
		 * alone, ignoring SIGTERM). */
		volatile float *o = out;
		if (strcmp(what, "spin-ignoring-sigterm") == 0)
			signal(SIGTERM, SIG_IGN);
		dmo_layer_begin("spinning", NULL, in, sizeof in, out, sizeof out);
		for (unsigned i = 0;; i++)
			o[i % N] = in[i % N];
	}
	if (strcmp(what, "_exit") == 0)
		_exit(5);
	fprintf(stderr, "misuse: unknown case %s\n", what);
	exit(2);
}

int main(int argc, char **argv)
{
	int rc;
	if (argc != 2)
		return 2;
	self = argv[0];
	good_layer("before");
	rc = misuse(argv[1]);
	good_layer("after");
	printf("misuse %s returned %d\n", argv[1], rc);
	return rc < 0 ? 0 : 4;
}
