# target-harness/runner/local.mk - libdmo-runner: op spec -> reference
# kernel call on deterministic data (runner), shared by the harness program
# and the `dmo` subcommands that execute kernels (run, verify, plan
# --verify).
noinst_LTLIBRARIES += target-harness/runner/libdmo-runner.la
target_harness_runner_libdmo_runner_la_SOURCES = \
	target-harness/runner/runner.h target-harness/runner/runner.c \
	target-harness/runner/backend.h target-harness/runner/backend.c \
	target-harness/runner/backend_ref.c
target_harness_runner_libdmo_runner_la_CFLAGS = $(AM_CFLAGS) -pthread
target_harness_runner_libdmo_runner_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DDMO_TOP_BUILDDIR='"$(abs_top_builddir)"' \
	-DDMO_BACKEND_BUILDDIR='"$(abs_top_builddir)/target-harness/backends/.libs"' \
	-DDMO_BACKEND_INSTALLDIR='"$(pkglibdir)"'
target_harness_runner_libdmo_runner_la_LIBADD = target-harness/kernels/libdmokernels.la \
	opspec/libdmo-opspec.la $(AX_PTHREAD_LIBS) -lm -ldl

check_PROGRAMS += tests/test_runner
TESTS += tests/test_runner
tests_test_runner_SOURCES = tests/test_runner.c
tests_test_runner_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_runner_LDADD = target-harness/runner/libdmo-runner.la $(CHECK_LIBS)
