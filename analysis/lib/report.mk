# analysis/lib/report.mk - `dmo report`: the HTML page library
# (libdmo-report, linked into dmo before $(ANALYSIS_LIBS)) and its test in
# a real browser (headless Chromium; skipped without it).
noinst_LTLIBRARIES += analysis/lib/libdmo-report.la
analysis_lib_libdmo_report_la_SOURCES = analysis/lib/report_html.h analysis/lib/report_html.c \
	analysis/lib/report_csv.h analysis/lib/report_csv.c \
	analysis/lib/report_plan.c analysis/lib/report_rundir.c analysis/lib/report_sweep.c
analysis_lib_libdmo_report_la_CPPFLAGS = $(ANALYSIS_CPPFLAGS)
analysis_lib_libdmo_report_la_LIBADD = $(CSV_LIBS) -lm

TESTS += tests/report_browser.sh
EXTRA_DIST += tests/report_browser.sh tests/report_check.py tests/report_devtools.py docs/report.md
