# tests/fuzz/fuzz.mk - the fuzz harnesses built a second time with the plain
# compiler and replay.c as main(), so `make check` replays every checked-in
# seed and past crash (tests/fuzz_seeds.sh) without clang or libFuzzer.
# The fuzzers themselves are built by tests/fuzz/build.sh (see README.md).
FUZZ_HARNESS_H = tests/fuzz/input_file.h tests/fuzz/layers_check.h
check_PROGRAMS += tests/fuzz/replay_opspec tests/fuzz/replay_wire tests/fuzz/replay_protocol \
	tests/fuzz/replay_layers_csv tests/fuzz/replay_summary tests/fuzz/replay_trace \
	tests/fuzz/replay_model tests/fuzz/replay_backend_info tests/fuzz/replay_tflite \
	tests/fuzz/replay_onnx tests/fuzz/replay_grid \
	tests/fuzz/replay_formula
tests_fuzz_replay_opspec_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_opspec.c
tests_fuzz_replay_opspec_LDADD = opspec/libdmo-opspec.la
tests_fuzz_replay_wire_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_wire.c
tests_fuzz_replay_wire_LDADD = common/libdmo-core.la
tests_fuzz_replay_protocol_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_protocol.c
tests_fuzz_replay_protocol_LDADD = common/libdmo-core.la
tests_fuzz_replay_layers_csv_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_layers_csv.c \
	$(FUZZ_HARNESS_H)
tests_fuzz_replay_layers_csv_LDADD = $(ANALYSIS_LIBS)
tests_fuzz_replay_summary_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_summary.c \
	$(FUZZ_HARNESS_H)
tests_fuzz_replay_summary_LDADD = $(ANALYSIS_LIBS)
tests_fuzz_replay_trace_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_trace.c \
	$(FUZZ_HARNESS_H)
tests_fuzz_replay_trace_LDADD = $(ANALYSIS_LIBS)
tests_fuzz_replay_model_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_model.c
tests_fuzz_replay_model_LDADD = opspec/libdmo-model.la
tests_fuzz_replay_tflite_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_tflite.c \
	tests/fuzz/model_check.h
tests_fuzz_replay_tflite_LDADD = opspec/libdmo-model.la
tests_fuzz_replay_onnx_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_onnx.c \
	tests/fuzz/model_check.h
tests_fuzz_replay_onnx_LDADD = opspec/libdmo-model.la
tests_fuzz_replay_backend_info_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_backend_info.c \
	$(FUZZ_HARNESS_H)
tests_fuzz_replay_backend_info_LDADD = $(ANALYSIS_LIBS)
tests_fuzz_replay_grid_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_grid.c
tests_fuzz_replay_grid_LDADD = opspec/libdmo-opspec.la
tests_fuzz_replay_formula_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_formula.c
tests_fuzz_replay_formula_LDADD = $(ANALYSIS_LIBS)

TESTS += tests/fuzz_seeds.sh
EXTRA_DIST += tests/fuzz_seeds.sh tests/fuzz/build.sh tests/fuzz/run.sh \
	$(wildcard $(srcdir)/tests/fuzz/seeds/*/*) \
	$(wildcard $(srcdir)/tests/fuzz/regressions/*/*)
