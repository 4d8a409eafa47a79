# opspec/local.mk - the op-spec parser (libc only) and the model layer-table
# reader built on it (adds libcsv), kept apart so the parser stays libc-only.
noinst_LTLIBRARIES += opspec/libdmo-opspec.la
opspec_libdmo_opspec_la_SOURCES = opspec/opspec.h opspec/opspec.c \
	opspec/grid.h opspec/grid.c

noinst_LTLIBRARIES += opspec/libdmo-model.la
opspec_libdmo_model_la_SOURCES = opspec/model_table.h opspec/model_table.c
opspec_libdmo_model_la_LIBADD = opspec/libdmo-opspec.la $(CSV_LIBS)

check_PROGRAMS += tests/test_opspec tests/test_models
TESTS += tests/test_opspec tests/test_models
tests_test_opspec_SOURCES = tests/test_opspec.c
tests_test_opspec_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_opspec_LDADD = opspec/libdmo-opspec.la $(CHECK_LIBS)
tests_test_models_SOURCES = tests/test_models.c
tests_test_models_CPPFLAGS = $(AM_CPPFLAGS) -DDMO_MODELS_DIR='"$(abs_top_srcdir)/target-harness/models"'
tests_test_models_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_models_LDADD = opspec/libdmo-model.la $(CHECK_LIBS)
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/fuzz_opspec.c tests/fuzz/opspec.dict \
	target-harness/models/README.md $(wildcard $(srcdir)/target-harness/models/*.csv)
