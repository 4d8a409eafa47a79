# analysis/lib/tape.mk - libc side of the tape (ops table, I/O thread,
# thread-safe variant), its test, and its benchmark.
noinst_LTLIBRARIES += analysis/lib/libdmo-tape.la
analysis_lib_libdmo_tape_la_SOURCES = analysis/lib/tape_libc.h \
	analysis/lib/tape_libc.c
analysis_lib_libdmo_tape_la_CPPFLAGS = $(ANALYSIS_CPPFLAGS)
analysis_lib_libdmo_tape_la_CFLAGS = $(AM_CFLAGS) -pthread
analysis_lib_libdmo_tape_la_LIBADD = common/libdmo-tape-core.la $(AX_PTHREAD_LIBS)

check_PROGRAMS += tests/test_tape
TESTS += tests/test_tape
tests_test_tape_SOURCES = tests/test_tape.c
tests_test_tape_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -pthread
tests_test_tape_LDADD = analysis/lib/libdmo-tape.la $(CHECK_LIBS) \
	$(AX_PTHREAD_LIBS)

# Built and run by `make bench` (the table, with dd).
EXTRA_PROGRAMS += bench/bench_tape
bench_bench_tape_SOURCES = bench/bench_tape.c bench/bench_event.h bench/bench_clock.h
bench_bench_tape_LDADD = analysis/lib/libdmo-tape.la $(AX_PTHREAD_LIBS)
# ... and beside it, the VM effect behind the doubling array's slow walks.
EXTRA_PROGRAMS += bench/unmap_walk
bench_unmap_walk_SOURCES = bench/unmap_walk.c bench/bench_event.h \
	bench/bench_clock.h
