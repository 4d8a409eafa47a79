# bench/local.mk - the benchmarks of the foundation issue (bench/README.md).
# Nothing here is built by `make`; `make bench` builds and runs them all.

BENCH_LIBS = target-harness/lib/libdmo-harness.la

# -no-install: the binaries run from the build tree without a libtool
# wrapper script, which valgrind would otherwise instrument instead.
EXTRA_PROGRAMS += bench/tool_speed bench/harness_cost
bench_tool_speed_SOURCES = bench/tool_speed.c
bench_tool_speed_LDFLAGS = -no-install
bench_tool_speed_LDADD = $(BENCH_LIBS)
bench_harness_cost_SOURCES = bench/harness_cost.c bench/bench_clock.h
bench_harness_cost_LDFLAGS = -no-install
bench_harness_cost_LDADD = $(BENCH_LIBS)
CLEANFILES += bench/tool_speed$(EXEEXT) bench/harness_cost$(EXEEXT)
dist_noinst_SCRIPTS += bench/tool_speed.sh bench/run_model.sh bench/onnx_files.sh
EXTRA_DIST += bench/README.md

# 10^8 elements keeps the tape's part of `make bench` near three minutes;
# the full table: make bench BENCH_TAPE_MAX=1e9 (16 GB in $TMPDIR or /tmp).
BENCH_TAPE_MAX = 1e8

.PHONY: bench
bench: bench/harness_cost$(EXEEXT) bench/bench_algorithmic$(EXEEXT) \
		bench/tool_speed$(EXEEXT) bench/bench_tape$(EXEEXT) \
		bench/unmap_walk$(EXEEXT) analysis/dmo$(EXEEXT) \
		dmo-tool/dmo-amd64-linux$(EXEEXT) dmo-tool/$(VG_PRELOAD)
	bench/harness_cost
	bench/bench_algorithmic
	top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
		$(SHELL) $(srcdir)/bench/tool_speed.sh
	bench/bench_tape --max $(BENCH_TAPE_MAX)
	bench/unmap_walk
	DMO=analysis/dmo TABLES='$(srcdir)/target-harness/models' \
		$(SHELL) $(srcdir)/bench/plan_report.sh
	DMO=analysis/dmo $(SHELL) $(srcdir)/bench/run_model.sh

# The sweep issue's bars (minutes: 2000 configurations under the tool,
# twice, on ref; then 1000 on each third-party backend that was built).
dist_noinst_SCRIPTS += bench/sweep_jobs.sh bench/sweep_backend.sh
.PHONY: bench-sweep
bench-sweep: all
	top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
		$(SHELL) $(srcdir)/bench/sweep_jobs.sh
	top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
		$(SHELL) $(srcdir)/bench/sweep_backend.sh
