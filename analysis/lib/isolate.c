/* isolate.c - a child process for another party's code (isolate.h). */
#include "isolate.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Set in a child of dmo_isolated.  Work isolated again inside it (compare's
 * child verifying its rows) runs in that child: the outer child already
 * keeps dmo alive, and a fork there would copy a library's thread pool
 * without its threads (OpenMP's team then waits for them forever). */
static int in_isolated_child;

int dmo_isolated(void (*work)(void *arg, void *reply), void *arg, void *reply,
		 size_t reply_len, const char *who, int *signal_no, char *err, size_t err_len)
{
	unsigned char *bytes = reply;
	size_t got = 0;
	int fds[2], status;
	pid_t child;

	*signal_no = 0;
	if (in_isolated_child) {
		work(arg, reply);
		return 0;
	}
	if (pipe(fds) != 0) {
		snprintf(err, err_len, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL); /* nothing buffered is written twice */
	child = fork();
	if (child == 0) {
		close(fds[0]);
		in_isolated_child = 1;
		work(arg, reply);
		for (size_t sent = 0; sent < reply_len;) {
			ssize_t n = write(fds[1], bytes + sent, reply_len - sent);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				_exit(3);
			sent += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	if (child < 0) {
		close(fds[0]);
		snprintf(err, err_len, "fork: %s", strerror(errno));
		return -1;
	}
	while (got < reply_len) {
		ssize_t n = read(fds[0], bytes + got, reply_len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, err_len, "waitpid: %s", strerror(errno));
			return -1;
		}
	if (WIFSIGNALED(status)) {
		*signal_no = WTERMSIG(status);
		snprintf(err, err_len, "%s crashed: killed by signal %d (%s)%s", who, *signal_no,
			 strsignal(*signal_no),
			 *signal_no == SIGSEGV ? ", e.g. by a write out of its buffers" : "");
		return -1;
	}
	if (got != reply_len) {
		snprintf(err, err_len, "%s ended with exit status %d and no result", who,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return 0;
}
