# analysis/lib/plot.mk - `dmo plot`: the figure library (libdmo-plot), the
# gnuplot templates it renders (docs/figures.md), and its end-to-end test.
# The dmo program links analysis/lib/libdmo-plot.la before $(ANALYSIS_LIBS).
plotsdir = $(pkgdatadir)/plots
dist_plots_DATA = plots/common.gp plots/memory.gp plots/pattern.gp \
	plots/bounds.gp plots/threads.gp plots/plan.gp plots/sweep.gp

noinst_LTLIBRARIES += analysis/lib/libdmo-plot.la
analysis_lib_libdmo_plot_la_SOURCES = analysis/lib/plot.h analysis/lib/plot.c \
	analysis/lib/plot_kinds.h analysis/lib/plot_scan.h analysis/lib/plot_scan.c \
	analysis/lib/plot_series.h analysis/lib/plot_series.c \
	analysis/lib/plot_gnuplot.h analysis/lib/plot_gnuplot.c \
	analysis/lib/plot_record.h analysis/lib/plot_record.c \
	analysis/lib/plot_memory.c analysis/lib/plot_bounds.c \
	analysis/lib/plot_plan.c
# Where the templates are: analysis/lib/locate.c.
analysis_lib_libdmo_plot_la_CPPFLAGS = $(ANALYSIS_CPPFLAGS) -DDMO_GNUPLOT='"$(GNUPLOT)"'
analysis_lib_libdmo_plot_la_LIBADD = $(CSV_LIBS) -lm

# Reads a PNG (zlib only) and reports its size and the share of inked pixels.
check_PROGRAMS += tests/png_ink
tests_png_ink_SOURCES = tests/png_ink.c
tests_png_ink_LDADD = -lz
TESTS += tests/plot_render.sh tests/plot_outputs.sh
EXTRA_DIST += tests/plot_render.sh tests/plot_outputs.sh tests/svg_text.awk docs/figures.md
