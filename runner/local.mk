# runner/local.mk - libdmo-runner: op spec -> reference
# kernel call on deterministic data (runner), shared by the harness program
# and the `dmo` subcommands that execute kernels (run, verify, plan
# --verify).  Its own layer, below both (docs/layering.md).
noinst_LTLIBRARIES += runner/libdmo-runner.la
runner_libdmo_runner_la_SOURCES = \
	runner/runner.h runner/runner.c \
	runner/backend.h runner/backend.c \
	runner/backend_ref.c \
	runner/cpu_features.h runner/cpu_features.c \
	runner/progress.h runner/progress.c
runner_libdmo_runner_la_CFLAGS = $(AM_CFLAGS) -pthread
runner_libdmo_runner_la_CPPFLAGS = $(RUNNER_CPPFLAGS) \
	-DDMO_TOP_BUILDDIR='"$(abs_top_builddir)"' \
	-DDMO_BACKEND_BUILDDIR='"$(abs_top_builddir)/target-harness/backends/.libs"' \
	-DDMO_BACKEND_INSTALLDIR='"$(pkglibdir)"'
runner_libdmo_runner_la_LIBADD = target-harness/kernels/libdmokernels.la \
	opspec/libdmo-opspec.la $(AX_PTHREAD_LIBS) -lm -ldl

check_PROGRAMS += tests/test_runner
TESTS += tests/test_runner
tests_test_runner_SOURCES = tests/test_runner.c
tests_test_runner_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_runner_LDADD = runner/libdmo-runner.la $(CHECK_LIBS)
