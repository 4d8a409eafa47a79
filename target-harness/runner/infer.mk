# target-harness/runner/infer.mk - libdmo-infer: a whole model with real weights run
# through the reference kernels in one arena (infer.h), and its Check test.
noinst_LTLIBRARIES += target-harness/runner/libdmo-infer.la
target_harness_runner_libdmo_infer_la_SOURCES = target-harness/runner/infer.h target-harness/runner/infer.c \
	target-harness/runner/infer_model.h target-harness/runner/infer_model.c \
	target-harness/runner/input_options.h target-harness/runner/input_options.c
target_harness_runner_libdmo_infer_la_LIBADD = target-harness/kernels/libdmokernels.la -lm

check_PROGRAMS += tests/test_infer
TESTS += tests/test_infer
tests_test_infer_SOURCES = tests/test_infer.c
tests_test_infer_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_infer_LDADD = target-harness/runner/libdmo-infer.la $(METHODS_LIBS) $(CHECK_LIBS) -lm
