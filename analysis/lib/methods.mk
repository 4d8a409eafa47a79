# analysis/lib/methods.mk - algorithmic and analytic O_s (libdmo-methods), the
# `dmo formula` front end's library, their Check test and benchmark.
# Users link: analysis/lib/libdmo-methods.la opspec/libdmo-opspec.la
# common/libdmo-core.la (kept apart so no object is linked twice).
noinst_LTLIBRARIES += analysis/lib/libdmo-methods.la
analysis_lib_libdmo_methods_la_SOURCES = \
	analysis/lib/algorithmic.h analysis/lib/algorithmic.c \
	analysis/lib/analytic.h analysis/lib/analytic.c
analysis_lib_libdmo_methods_la_CPPFLAGS = $(ANALYSIS_CPPFLAGS)

METHODS_LIBS = analysis/lib/libdmo-methods.la opspec/libdmo-opspec.la \
	common/libdmo-core.la

check_PROGRAMS += tests/test_methods
TESTS += tests/test_methods
tests_test_methods_SOURCES = tests/test_methods.c
tests_test_methods_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_methods_LDADD = $(METHODS_LIBS) $(CHECK_LIBS)

# Not built by default: `make bench/bench_algorithmic`.
EXTRA_PROGRAMS += bench/bench_algorithmic
bench_bench_algorithmic_SOURCES = bench/bench_algorithmic.c bench/bench_clock.h
bench_bench_algorithmic_LDADD = $(METHODS_LIBS)
CLEANFILES += bench/bench_algorithmic$(EXEEXT)
