# analysis/lib/plan.mk - `dmo plan`'s tests (the planner itself is in the
# analysis library, analysis/local.mk): the Check test on hand-made tables
# and the plan/--verify run over every shipped model table.
check_PROGRAMS += tests/test_plan
TESTS += tests/test_plan tests/plan_models.sh tests/plan_emit.sh tests/plan_tflm.sh \
	tests/plan_tflm_standin.sh
tests_test_plan_SOURCES = tests/test_plan.c
tests_test_plan_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_plan_LDADD = $(ANALYSIS_LIBS) $(CHECK_LIBS)
EXTRA_DIST += tests/plan_models.sh tests/plan_emit.sh tests/plan_tflm.sh tests/tflite_plan_walk.py \
	tests/plan_tflm_standin.sh tests/tflm_standin_runner.py \
	bench/plan_report.sh docs/plan.md
