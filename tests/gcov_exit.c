/* gcov_exit.c - for `make coverage` only: an LD_PRELOAD object whose _exit
 * writes the gcov counters first.  A forked child that ends in _exit (dmo
 * sweep's batches, the exec-failure paths of profile and gnuplot) skips the
 * exit handlers, gcov's among them, so the lines it ran would count as never
 * run.  In a process with counters of its own, _exit becomes exit, so the
 * program's own gcov handler writes and merges them: calling gcov's dump
 * from this object's copy of libgcov fails to merge ("Merge mismatch").
 * That is safe for dmo's children: they flush stdio before fork and
 * register no atexit handler.  A coverage build exports __gcov_master from
 * every executable (configure.ac): this object sees its list of counters
 * and tells dmo's programs from the shells and tools the tests also run,
 * which keep the real _exit.  A child's counters start as a copy of its
 * parent's, so lines the parent ran are counted twice: line coverage (run
 * or not) is unaffected. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* libgcov's list of counter sets, as GCC 12 lays it out. */
extern struct {
	unsigned version;
	void *root;
} __gcov_master;

void _exit(int status)
{
	if (__gcov_master.root != NULL)
		exit(status);
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}
