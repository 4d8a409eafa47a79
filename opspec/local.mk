# opspec/local.mk - the op-spec parser (libc only) and the model readers
# built on it (layer tables with libcsv, TFLite with our FlatBuffers reader,
# ONNX with protobuf-c), kept apart so the parser stays libc-only.
noinst_LTLIBRARIES += opspec/libdmo-opspec.la
opspec_libdmo_opspec_la_SOURCES = opspec/opspec.h opspec/opspec.c opspec/errbuf.h \
	opspec/nearest.h opspec/nearest.c \
	opspec/grid.h opspec/grid.c
opspec_libdmo_opspec_la_CPPFLAGS = $(OPSPEC_CPPFLAGS)

noinst_LTLIBRARIES += opspec/libdmo-model.la
opspec_libdmo_model_la_SOURCES = opspec/model_table.h opspec/model.c opspec/model_table.c \
	opspec/flatbuf.h opspec/flatbuf.c opspec/model_tflite.c \
	opspec/tflite_plan.h opspec/tflite_plan.c opspec/model_onnx.c \
	opspec/onnx_shapes.h opspec/onnx_shapes.c opspec/onnx_window1d.h opspec/onnx_window1d.c \
	opspec/protobuf_depth.h opspec/protobuf_depth.c opspec/name_index.h opspec/name_index.c
nodist_opspec_libdmo_model_la_SOURCES = opspec/onnx.pb-c.c opspec/onnx.pb-c.h
opspec_libdmo_model_la_CPPFLAGS = $(MODEL_CPPFLAGS)
opspec_libdmo_model_la_LIBADD = opspec/libdmo-opspec.la $(CSV_LIBS) $(PROTOBUF_C_LIBS)

# onnx.pb-c.{c,h}: generated from the system's onnx.proto (configure).
BUILT_SOURCES = opspec/onnx.pb-c.h
CLEANFILES += opspec/onnx.pb-c.c opspec/onnx.pb-c.h opspec/onnx.proto
opspec/onnx.pb-c.h: $(ONNX_PROTO)
	$(AM_V_GEN)$(MKDIR_P) opspec && cp $(ONNX_PROTO) opspec/onnx.proto && \
	cd opspec && $(PROTOC_C) --c_out=. onnx.proto
opspec/onnx.pb-c.c: opspec/onnx.pb-c.h

check_PROGRAMS += tests/test_opspec tests/test_models
TESTS += tests/test_opspec tests/test_models
tests_test_opspec_SOURCES = tests/test_opspec.c
tests_test_opspec_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_opspec_LDADD = opspec/libdmo-opspec.la $(CHECK_LIBS)
tests_test_models_SOURCES = tests/test_models.c
tests_test_models_CPPFLAGS = $(AM_CPPFLAGS) -DDMO_MODELS_DIR='"$(abs_top_srcdir)/target-harness/models"'
tests_test_models_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_models_LDADD = opspec/libdmo-model.la $(CHECK_LIBS)
EXTRA_DIST += docs/models.md tests/fuzz/README.md tests/fuzz/fuzz_opspec.c tests/fuzz/opspec.dict \
	target-harness/models/README.md $(wildcard $(srcdir)/target-harness/models/*.csv)
