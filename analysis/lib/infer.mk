# analysis/lib/infer.mk - libdmo-infer: a whole model with real weights run
# through the reference kernels in one arena (infer.h), and its Check test.
noinst_LTLIBRARIES += analysis/lib/libdmo-infer.la
analysis_lib_libdmo_infer_la_SOURCES = analysis/lib/infer.h analysis/lib/infer.c \
	analysis/lib/infer_model.h analysis/lib/infer_model.c
analysis_lib_libdmo_infer_la_CPPFLAGS = $(ANALYSIS_CPPFLAGS)
analysis_lib_libdmo_infer_la_LIBADD = target-harness/kernels/libdmokernels.la -lm

check_PROGRAMS += tests/test_infer
TESTS += tests/test_infer
tests_test_infer_SOURCES = tests/test_infer.c
tests_test_infer_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_infer_LDADD = analysis/lib/libdmo-infer.la $(METHODS_LIBS) $(CHECK_LIBS) -lm
