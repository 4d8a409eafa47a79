/* gcov_exit.c - for `make coverage` only: an LD_PRELOAD object whose _exit
 * writes the gcov counters first.  A forked child that ends in _exit (dmo
 * sweep's batches, the exec-failure paths of profile and gnuplot) skips the
 * atexit handler that would write them, so the lines it ran would count as
 * never run.  __gcov_dump walks __gcov_master, which a coverage build
 * exports from every executable (configure.ac), so this object, the
 * program and its shared libraries all share one list of counters.  A
 * child's counters start as a copy of its parent's, so lines the parent
 * ran are counted twice: line coverage (run or not) is unaffected. */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

extern void __gcov_dump(void);

void _exit(int status)
{
	__gcov_dump();
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}
