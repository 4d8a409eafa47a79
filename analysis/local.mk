# analysis/local.mk - the analysis library (run directories, traces,
# profiling) and the `dmo` command, one cmd_<name>.c per subcommand.
noinst_LTLIBRARIES += analysis/lib/libdmo-analysis.la
analysis_lib_libdmo_analysis_la_SOURCES = \
	analysis/lib/fs.h analysis/lib/fs.c \
	analysis/lib/textcol.h analysis/lib/textcol.c \
	analysis/lib/rundir.h analysis/lib/rundir.c \
	analysis/lib/where.h analysis/lib/where.c \
	analysis/lib/annotate.h analysis/lib/annotate.c \
	analysis/lib/trace.h analysis/lib/trace.c \
	analysis/lib/locate.h analysis/lib/locate.c \
	analysis/lib/profile.h analysis/lib/profile.c \
	analysis/lib/profile_runs.h analysis/lib/profile_runs.c \
	analysis/lib/curves.h analysis/lib/curves.c \
	analysis/lib/analyze.h analysis/lib/analyze.c \
	analysis/lib/plan.h analysis/lib/plan.c \
	analysis/lib/plan_arena.h analysis/lib/plan_arena.c \
	analysis/lib/plan_emit.h analysis/lib/plan_emit.c \
	analysis/lib/plan_view.h analysis/lib/plan_view.c \
	analysis/lib/plan_summary.h analysis/lib/plan_summary.c \
	analysis/lib/tflm_run.h analysis/lib/tflm_run.c \
	analysis/lib/model_report.h analysis/lib/model_report.c \
	analysis/lib/plan_search.h analysis/lib/plan_search.c \
	analysis/lib/isolate.h analysis/lib/isolate.c \
	analysis/lib/verify.h analysis/lib/verify.c \
	analysis/lib/backend_info.h analysis/lib/backend_info.c \
	analysis/lib/kernels.h analysis/lib/kernels.c \
	analysis/lib/measure.h analysis/lib/measure.c \
	analysis/lib/host_isa.h analysis/lib/host_isa.c \
	analysis/lib/compare.h analysis/lib/compare.c \
	analysis/lib/formula.h analysis/lib/formula.c \
	analysis/lib/sweep.h analysis/lib/sweep.c
analysis_lib_libdmo_analysis_la_CPPFLAGS = $(ANALYSIS_CPPFLAGS) -DDMO_VALGRIND='"$(VALGRIND)"' \
	-DDMO_BUILDDIR='"$(abs_top_builddir)"' -DDMO_SRCDIR='"$(abs_top_srcdir)"' \
	-DDMO_PKGLIBEXECDIR='"$(pkglibexecdir)"' -DDMO_BINDIR='"$(bindir)"' \
	-DDMO_MODELS_DIR='"$(modelsdir)"' -DDMO_PLOTS_DIR='"$(plotsdir)"'
analysis_lib_libdmo_analysis_la_LIBADD = $(CSV_LIBS) -lm
# What links the analysis links these convenience libraries, each after
# every library that uses it (libtool keeps only the last mention of one).
ANALYSIS_LIBS = analysis/lib/libdmo-analysis.la analysis/lib/libdmo-tape.la \
	analysis/lib/libdmo-methods.la runner/libdmo-infer.la runner/libdmo-runner.la opspec/libdmo-model.la \
	opspec/libdmo-opspec.la common/libdmo-core.la

bin_PROGRAMS += analysis/dmo
analysis_dmo_SOURCES = analysis/cmd/dmo.c analysis/cmd/cmd.h \
	analysis/cmd/options.h analysis/cmd/options.c \
	analysis/cmd/json.h analysis/cmd/json.c \
	analysis/cmd/profile_options.h analysis/cmd/profile_options.c \
	analysis/cmd/cmd_profile.c analysis/cmd/cmd_export.c analysis/cmd/cmd_demo.c \
	analysis/cmd/cmd_formula.c analysis/cmd/cmd_run.c analysis/cmd/cmd_analyze.c \
	analysis/cmd/cmd_plot.c analysis/cmd/cmd_annotate.c \
	analysis/cmd/cmd_plan.c analysis/cmd/cmd_model.c \
	analysis/cmd/cmd_verify.c \
	analysis/cmd/backend_options.h analysis/cmd/backend_options.c \
	analysis/cmd/runtime_options.h analysis/cmd/runtime_options.c \
	analysis/cmd/cmd_compare.c \
	analysis/cmd/cmd_sweep.c analysis/cmd/cmd_infer.c analysis/cmd/cmd_ops.c \
	analysis/cmd/cmd_report.c
analysis_dmo_CPPFLAGS = $(FRONTEND_CPPFLAGS)
analysis_dmo_LDADD = analysis/lib/libdmo-report.la analysis/lib/libdmo-plot.la $(ANALYSIS_LIBS)
# dmo's own libraries (libdmokernels, through the runner) linked in, as
# dmo-harness does: an install under any prefix, or a DESTDIR tree moved
# elsewhere, starts with no LD_LIBRARY_PATH or ldconfig (docs/install.md).
analysis_dmo_LDFLAGS = -static

check_PROGRAMS += tests/test_json
TESTS += tests/test_json
tests_test_json_SOURCES = tests/test_json.c analysis/cmd/json.c
tests_test_json_CPPFLAGS = -I$(top_srcdir)/analysis/cmd $(FRONTEND_CPPFLAGS)
tests_test_json_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_json_LDADD = $(CSV_LIBS) $(CHECK_LIBS)
