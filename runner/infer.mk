# runner/infer.mk - libdmo-infer: a whole model with real weights run
# through the reference kernels in one arena (infer.h), and its Check test.
noinst_LTLIBRARIES += runner/libdmo-infer.la
runner_libdmo_infer_la_SOURCES = runner/infer.h runner/infer.c \
	runner/infer_model.h runner/infer_model.c \
	runner/input_options.h runner/input_options.c \
	runner/infer_backend.h runner/infer_backend.c
runner_libdmo_infer_la_CPPFLAGS = $(RUNNER_CPPFLAGS)
runner_libdmo_infer_la_LIBADD = target-harness/kernels/libdmokernels.la -lm

check_PROGRAMS += tests/test_infer
TESTS += tests/test_infer
tests_test_infer_SOURCES = tests/test_infer.c
tests_test_infer_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_infer_LDADD = runner/libdmo-infer.la $(METHODS_LIBS) $(CHECK_LIBS) -lm
check_PROGRAMS += tests/test_infer_ops
TESTS += tests/test_infer_ops
tests_test_infer_ops_SOURCES = tests/test_infer_ops.c
tests_test_infer_ops_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_infer_ops_LDADD = runner/libdmo-infer.la $(CHECK_LIBS) -lm
check_PROGRAMS += tests/test_infer_model
TESTS += tests/test_infer_model
tests_test_infer_model_SOURCES = tests/test_infer_model.c
tests_test_infer_model_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_infer_model_LDADD = runner/libdmo-infer.la opspec/libdmo-model.la $(CHECK_LIBS) -lm
