# tests/coverage.mk - `make coverage`: line coverage of the libc side (every
# dmo folder but the tool, whose static no-libc binary cannot write gcov
# counters) over `make check`, with lcov.  Needs ./configure
# --enable-coverage, with the default CFLAGS: CFLAGS comes last on every
# compile, and the test targets' event counts assume they are built -O2.
# docs/coverage.md has the figure and the uncovered lines by reason.
COVERAGE_SIDE = '$(abs_top_srcdir)/common/*' '$(abs_top_srcdir)/opspec/*' \
	'$(abs_top_srcdir)/runner/*' '$(abs_top_srcdir)/target-harness/*' \
	'$(abs_top_srcdir)/analysis/*'
# Generated from onnx.proto, not written here.
COVERAGE_NOT_OURS = '*/opspec/onnx.pb-c.c' '*/opspec/onnx.pb-c.h'
.PHONY: coverage
if COVERAGE
# Preloaded into every test (tests/gcov_exit.c): children ending in _exit
# keep their counters.  -O2, no counters of its own.
check_LTLIBRARIES += tests/gcov_exit.la
tests_gcov_exit_la_SOURCES = tests/gcov_exit.c
tests_gcov_exit_la_CFLAGS = -O2
tests_gcov_exit_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
GCOV_EXIT = $(abs_top_builddir)/tests/.libs/gcov_exit.so
coverage: tests/gcov_exit.la
	$(LCOV) -q --zerocounters --directory .
	$(MAKE) $(AM_MAKEFLAGS) check TESTS_ENVIRONMENT='LD_PRELOAD=$(GCOV_EXIT); export LD_PRELOAD;'
	$(LCOV) -q --capture --directory . --output-file coverage-all.info
	$(LCOV) -q --extract coverage-all.info $(COVERAGE_SIDE) --output-file coverage-side.info
	$(LCOV) -q --remove coverage-side.info $(COVERAGE_NOT_OURS) --output-file coverage.info
	$(GENHTML) -q --output-directory coverage coverage.info
	$(LCOV) --list coverage.info
	@echo "make coverage: per-line report in coverage/index.html"
else
coverage:
	@echo "make coverage: configure with --enable-coverage first" >&2; exit 2
endif
CLEANFILES += coverage-all.info coverage-side.info coverage.info
clean-local: clean-coverage
clean-coverage:
	-rm -rf coverage
	-find . -name '*.gcda' -o -name '*.gcno' | xargs rm -f
.PHONY: clean-coverage
