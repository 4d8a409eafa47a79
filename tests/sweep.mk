# tests/sweep.mk - `dmo sweep`: its languages (Check), a formula in a shared
# object for the --formula-lib test, and the end-to-end test under the tool.
check_PROGRAMS += tests/test_sweep_lang
TESTS += tests/test_sweep_lang
tests_test_sweep_lang_SOURCES = tests/test_sweep_lang.c tests/check_main.h
tests_test_sweep_lang_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_sweep_lang_LDADD = $(ANALYSIS_LIBS) $(CHECK_LIBS)

# The paper's depthwise bound as a C function: a plugin, built like user code.
check_LTLIBRARIES += tests/sweep/paper_dwconv.la
tests_sweep_paper_dwconv_la_SOURCES = tests/sweep/paper_dwconv.c
tests_sweep_paper_dwconv_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
# One built for the next formula ABI, which dmo must refuse.
check_LTLIBRARIES += tests/sweep/future_abi.la
tests_sweep_future_abi_la_SOURCES = tests/sweep/future_abi.c
tests_sweep_future_abi_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere

TESTS += tests/sweep.sh
EXTRA_DIST += tests/sweep.sh tests/sweep/paper_dwconv.formula tests/fuzz/formula.dict docs/sweep.md
# Issue 20: the sweep on a third-party backend (skipped when it was not built).
TESTS += tests/sweep_backend.sh
EXTRA_DIST += tests/sweep_backend.sh
