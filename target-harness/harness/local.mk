# target-harness/harness/local.mk - dmo-harness, the program `dmo run`
# profiles, the model layer tables it reads (installed for `dmo run --model`
# and `dmo plan`), and the end-to-end test of `dmo run`.
bin_PROGRAMS += target-harness/harness/dmo-harness
target_harness_harness_dmo_harness_SOURCES = target-harness/harness/harness_main.c
target_harness_harness_dmo_harness_LDADD = target-harness/lib/libdmo-harness.la \
	target-harness/runner/libdmo-infer.la target-harness/runner/libdmo-runner.la \
	opspec/libdmo-model.la $(CSV_LIBS)
# Link dmo's own libraries statically: in the build tree libtool would
# otherwise make dmo-harness a wrapper script, and valgrind would profile
# the shell instead of the kernels.
target_harness_harness_dmo_harness_LDFLAGS = -static

modelsdir = $(pkgdatadir)/models
dist_models_DATA = target-harness/models/ds_cnn_kws.csv \
	target-harness/models/mobilenet_v1_0.25_128.csv \
	target-harness/models/mobilenet_v1_1.0_224.csv \
	target-harness/models/mobilenet_v2_1.0_224.csv \
	target-harness/models/person_detect_96.csv \
	tests/models/tflm_person_detect.tflite
# dmo demo's real model (found by name, tflm_person_detect), with its
# source and licence.
dist_models_DATA += tests/models/NOTICE

TESTS += tests/run_golden.sh
EXTRA_DIST += tests/run_golden.sh
