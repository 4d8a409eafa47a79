# tests/local.mk - end-to-end tests: small target programs profiled under
# the real tool, checked against hand derivations and a brute-force oracle.
TARGET_LIBS = target-harness/lib/libdmo-harness.la
check_PROGRAMS += tests/targets/relu tests/targets/kernels tests/targets/misuse \
	tests/targets/raw_protocol tests/bruteforce_os tests/layers_tsv tests/csv_tsv tests/backend_vs_ref \
	tests/targets/steal_pool tests/targets/annotate_kernels tests/targets/annotate_opt \
	tests/targets/annotate_hidden tests/targets/annotate_hidden_cpp tests/targets/streams \
	tests/targets/hulls tests/targets/chains \
	tests/targets/relay tests/targets/fault
# Targets are built like user code: -O2, nothing from dmo but the header.
# -no-install: a real executable on the shared libdmo-harness, not a libtool
# wrapper script (valgrind would profile the shell).
NO_WRAPPER_FLAGS = -no-install
tests_targets_relu_SOURCES = tests/targets/relu.c
tests_targets_relu_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_relu_CFLAGS = -O2
tests_targets_relu_LDADD = $(TARGET_LIBS)
tests_targets_kernels_SOURCES = tests/targets/kernels.c
tests_targets_kernels_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_kernels_CFLAGS = -O2 -pthread
tests_targets_kernels_LDADD = tests/targets/kernels_avx.o $(TARGET_LIBS) -lpthread
# Its own rule, so that no -O2 from CFLAGS comes after -O3.
tests/targets/kernels_avx.o: tests/targets/kernels_avx.c
	$(AM_V_CC)$(CC) -O3 -mavx2 -c -o $@ $(srcdir)/tests/targets/kernels_avx.c
CLEANFILES += tests/targets/kernels_avx.o
EXTRA_DIST += tests/targets/kernels_avx.c
tests_targets_streams_SOURCES = tests/targets/streams.c
tests_targets_streams_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_streams_CFLAGS = -pthread
tests_targets_streams_LDADD = $(TARGET_LIBS) -lpthread
tests_targets_chains_SOURCES = tests/targets/chains.c
tests_targets_chains_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_chains_LDADD = $(TARGET_LIBS)
tests_targets_hulls_SOURCES = tests/targets/hulls.c
tests_targets_hulls_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_hulls_LDADD = $(TARGET_LIBS)
tests_targets_relay_SOURCES = tests/targets/relay.c
tests_targets_relay_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_relay_CFLAGS = -O2 -pthread
tests_targets_relay_LDADD = $(TARGET_LIBS) -lpthread
tests_targets_fault_SOURCES = tests/targets/fault.c
tests_targets_fault_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_fault_CFLAGS = -O2
tests_targets_fault_LDADD = $(TARGET_LIBS)
tests_targets_annotate_kernels_SOURCES = tests/targets/annotate_kernels.c tests/targets/annotate_layer.h
tests_targets_annotate_kernels_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_annotate_kernels_CFLAGS = -g
tests_targets_annotate_kernels_LDADD = $(TARGET_LIBS)
# Optimised as users build: -O2 here, the vectorised half -O3 -mavx2 (its
# own rule, as kernels_avx.o), both with -g.
tests_targets_annotate_opt_SOURCES = tests/targets/annotate_opt.c tests/targets/annotate_opt.h \
	tests/targets/annotate_layer.h
tests_targets_annotate_opt_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_annotate_opt_CFLAGS = -O2 -g
tests_targets_annotate_opt_LDADD = tests/targets/annotate_opt_vec.o $(TARGET_LIBS)
tests/targets/annotate_opt_vec.o: tests/targets/annotate_opt_vec.c tests/targets/annotate_opt.h
	$(AM_V_CC)$(CC) -O3 -mavx2 -funroll-loops -g -c -o $@ $(srcdir)/tests/targets/annotate_opt_vec.c
CLEANFILES += tests/targets/annotate_opt_vec.o
EXTRA_DIST += tests/targets/annotate_opt_vec.c
# Kernels no annotate test was written around: -O2 here, the other file's
# half -O0 (its own rule, so that no -O2 from CFLAGS comes after), and a
# C++ template (-O0 by its pragma).
tests_targets_annotate_hidden_SOURCES = tests/targets/annotate_hidden.c \
	tests/targets/annotate_hidden.h tests/targets/annotate_layer.h
tests_targets_annotate_hidden_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_annotate_hidden_CFLAGS = -O2 -g
# Fortified as distributions build: memmove is then an inline wrapper of a
# system header around the call, which called_from must look through.
tests_targets_annotate_hidden_CPPFLAGS = $(AM_CPPFLAGS) -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2
tests_targets_annotate_hidden_LDADD = tests/targets/annotate_hidden_b.o $(TARGET_LIBS)
tests/targets/annotate_hidden_b.o: tests/targets/annotate_hidden_b.c tests/targets/annotate_hidden.h
	$(AM_V_CC)$(CC) -O0 -g -c -o $@ $(srcdir)/tests/targets/annotate_hidden_b.c
CLEANFILES += tests/targets/annotate_hidden_b.o
EXTRA_DIST += tests/targets/annotate_hidden_b.c
tests_targets_annotate_hidden_cpp_SOURCES = tests/targets/annotate_hidden_cpp.cpp
tests_targets_annotate_hidden_cpp_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_annotate_hidden_cpp_CXXFLAGS = -g
tests_targets_annotate_hidden_cpp_LDADD = $(TARGET_LIBS)
tests_targets_misuse_SOURCES = tests/targets/misuse.c
tests_targets_misuse_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_misuse_CFLAGS = -O2 -pthread
tests_targets_misuse_LDADD = $(TARGET_LIBS) -lpthread
tests_targets_raw_protocol_SOURCES = tests/targets/raw_protocol.c
tests_targets_raw_protocol_CPPFLAGS =
tests_targets_raw_protocol_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_raw_protocol_CFLAGS = -O2
tests_targets_steal_pool_SOURCES = tests/targets/steal_pool.c
tests_targets_steal_pool_LDFLAGS = $(NO_WRAPPER_FLAGS)
tests_targets_steal_pool_CFLAGS = -O2 -pthread
tests_targets_steal_pool_LDADD = $(TARGET_LIBS) -lpthread
tests_bruteforce_os_SOURCES = tests/bruteforce_os.c
tests_bruteforce_os_LDADD = $(ANALYSIS_LIBS)
tests_layers_tsv_SOURCES = tests/layers_tsv.c
tests_layers_tsv_LDADD = $(ANALYSIS_LIBS)
tests_backend_vs_ref_SOURCES = tests/backend_vs_ref.c
tests_backend_vs_ref_LDADD = $(ANALYSIS_LIBS)

TESTS += tests/profile_kernels.sh tests/profile_misuse.sh tests/protocol_raw.sh \
	tests/trace_spill.sh tests/install.sh tests/sweep_tool.sh tests/annotate.sh \
	tests/annotate_opt.sh tests/annotate_cmsis_nn.sh tests/annotate_hidden.sh
EXTRA_DIST += tests/lib.sh tests/profile_kernels.sh tests/profile_misuse.sh \
	tests/protocol_raw.sh tests/trace_spill.sh tests/install.sh tests/sweep_tool.sh \
	tests/annotate.sh tests/annotate_opt.sh tests/annotate_cmsis_nn.sh tests/cmsis_lines.awk \
	tests/annotate_hidden.sh
TESTS += tests/verify_ops.sh tests/trace_beyond_ram.sh tests/threads_native.sh \
	tests/threads_split.sh tests/threads_reuse.sh tests/backend_threads.sh tests/isa_native.sh
EXTRA_DIST += tests/verify_ops.sh tests/check_main.h tests/trace_beyond_ram.sh \
	tests/threads_native.sh tests/threads_split.sh tests/threads_reuse.sh \
	tests/backend_threads.sh tests/isa_native.sh

tests_csv_tsv_SOURCES = tests/csv_tsv.c
tests_csv_tsv_LDADD = $(CSV_LIBS)

# Backends: each one end to end (skipped when configure did not find its
# library), and the command-line misuse of --backend/--isa/compare.
BACKEND_TESTS = tests/backend_misuse.sh tests/backend_ref.sh tests/backend_xnnpack.sh tests/backend_onednn.sh \
	tests/backend_cmsis_nn.sh tests/backend_cmsis_nn_model.sh \
	tests/backend_openblas.sh tests/backend_armnn.sh
TESTS += $(BACKEND_TESTS)
EXTRA_DIST += $(BACKEND_TESTS) tests/backend_check.sh

# Test plugins.  One claims ABI version 99, under a known backend's file name in
# a folder of its own (DMO_BACKEND_DIR in backend_misuse.sh).
check_LTLIBRARIES += tests/targets/badbackend/dmo-backend-xnnpack.la
tests_targets_badbackend_dmo_backend_xnnpack_la_SOURCES = tests/targets/future_abi.c
tests_targets_badbackend_dmo_backend_xnnpack_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
# A plugin that copies its buffers and says so (DMO_BACKEND_COPIES).
check_LTLIBRARIES += tests/targets/copybackend/dmo-backend-onednn.la
tests_targets_copybackend_dmo_backend_onednn_la_SOURCES = tests/targets/copying_relu.c
tests_targets_copybackend_dmo_backend_onednn_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
# Two plugins that fail in their run (issue 28): xnnpack crashes, onednn
# writes past its output (tests/plugin_faults.sh).
check_LTLIBRARIES += tests/targets/faultybackend/dmo-backend-xnnpack.la \
	tests/targets/faultybackend/dmo-backend-onednn.la
tests_targets_faultybackend_dmo_backend_xnnpack_la_SOURCES = tests/targets/faulty_relu.c
tests_targets_faultybackend_dmo_backend_xnnpack_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAULTY_CRASH
tests_targets_faultybackend_dmo_backend_xnnpack_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
tests_targets_faultybackend_dmo_backend_onednn_la_SOURCES = tests/targets/faulty_relu.c
tests_targets_faultybackend_dmo_backend_onednn_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
TESTS += tests/plugin_faults.sh
EXTRA_DIST += tests/plugin_faults.sh

# Issue 14's acceptance cases, one script per group.
TESTS += tests/rundir_integrity.sh tests/guest_streams.sh tests/client_agree.sh tests/disk_full.sh \
	tests/readers_trust.sh
EXTRA_DIST += tests/rundir_integrity.sh tests/guest_streams.sh tests/client_agree.sh tests/disk_full.sh \
	tests/readers_trust.sh
check_PROGRAMS += tests/test_rundir
TESTS += tests/test_rundir
tests_test_rundir_SOURCES = tests/test_rundir.c tests/check_main.h
tests_test_rundir_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_rundir_LDADD = $(ANALYSIS_LIBS) $(CHECK_LIBS)

# The model readers on real files (tests/models/, NOTICE there).
TESTS += tests/model_files.sh
EXTRA_DIST += tests/model_files.sh tests/tflite_facts.py tests/tflite_walk.py tests/models/NOTICE \
	$(wildcard $(srcdir)/tests/models/*.tflite) $(wildcard $(srcdir)/tests/models/*.onnx)
check_PROGRAMS += tests/model_damage
TESTS += tests/model_damage.sh
EXTRA_DIST += tests/model_damage.sh
tests_model_damage_SOURCES = tests/model_damage.c tests/fuzz/model_check.h
tests_model_damage_LDADD = opspec/libdmo-model.la

# ONNX's own single-op cases through dmo's reader and reference kernels.
check_PROGRAMS += tests/onnx_conformance
TESTS += tests/onnx_conformance.sh tests/ort_oracle.sh
EXTRA_DIST += tests/onnx_conformance.sh tests/ort_oracle.sh \
	tests/ort/run.js tests/ort/tensor_bytes.js tests/ort/package.json tests/ort/package-lock.json
tests_onnx_conformance_SOURCES = tests/onnx_conformance.c
tests_onnx_conformance_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/opspec -I$(top_srcdir)/runner $(PROTOBUF_C_CFLAGS)
tests_onnx_conformance_LDADD = runner/libdmo-infer.la runner/libdmo-runner.la opspec/libdmo-model.la target-harness/kernels/libdmokernels.la -lm
# A small NCHW CNN written as ONNX, with ONNX Runtime as the oracle.
check_PROGRAMS += tests/onnx_net
TESTS += tests/onnx_ort.sh
EXTRA_DIST += tests/onnx_ort.sh
TESTS += tests/onnx_ort_ops.sh tests/onnx_ort_qlinear.sh
EXTRA_DIST += tests/onnx_ort_ops.sh tests/onnx_ort_qlinear.sh
# ONNX Runtime's QDQ form: uint8 and int8 activations, per-channel weights.
TESTS += tests/onnx_ort_qdq.sh
EXTRA_DIST += tests/onnx_ort_qdq.sh
tests_onnx_net_SOURCES = tests/onnx_net.c
tests_onnx_net_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/opspec $(PROTOBUF_C_CFLAGS)
tests_onnx_net_LDADD = opspec/libdmo-model.la
# Reshape, softmax, logistic, mean, quantize, dequantize, pad, concat and
# transpose in the three-way cross-check, with native overlapped runs.
TESTS += tests/layout_ops_tool.sh tests/nchw_ops_tool.sh tests/onnx_ew_tool.sh tests/onnx_ort_ew.sh tests/resize_tool.sh tests/onnx_ort_resize.sh tests/onnx_ort_unary.sh tests/onnx_ort_variadic.sh
EXTRA_DIST += tests/layout_ops_tool.sh tests/nchw_ops_tool.sh tests/onnx_ew_tool.sh tests/onnx_ort_ew.sh tests/resize_tool.sh tests/onnx_ort_resize.sh tests/onnx_ort_unary.sh tests/onnx_ort_variadic.sh
TESTS += tests/convt_tool.sh tests/onnx_ort_convt.sh tests/slice_tool.sh tests/onnx_ort_slice.sh
EXTRA_DIST += tests/convt_tool.sh tests/onnx_ort_convt.sh tests/slice_tool.sh tests/onnx_ort_slice.sh
TESTS += tests/matmul_tool.sh tests/onnx_ort_matmul.sh
EXTRA_DIST += tests/matmul_tool.sh tests/onnx_ort_matmul.sh
TESTS += tests/qoperator_tool.sh tests/onnx_ort_qoperator.sh
EXTRA_DIST += tests/qoperator_tool.sh tests/onnx_ort_qoperator.sh
# Grouped Conv, asymmetric padding and ceil_mode (formulas.md 3.9, 3.10).
TESTS += tests/onnx_ort_conv_forms.sh
EXTRA_DIST += tests/onnx_ort_conv_forms.sh
TESTS += tests/cli_conventions.sh
# valgrind --tool=dmo with nothing set up (dmo.out.PID, the tool's FIFO).
TESTS += tests/bare_valgrind.sh
EXTRA_DIST += tests/bare_valgrind.sh
# <dmo/harness.h> clean under -Wall -Wextra -Werror, GCC and Clang.
TESTS += tests/header_clean.sh
EXTRA_DIST += tests/header_clean.sh tests/header_clean.c
# docs/opspec.md against the parser's own tables (dmo ops).
TESTS += tests/opspec_docs.sh
EXTRA_DIST += tests/opspec_docs.sh
TESTS += tests/progress.sh
EXTRA_DIST += tests/progress.sh
EXTRA_DIST += tests/cli_conventions.sh
TESTS += tests/man_pages.sh
EXTRA_DIST += tests/man_pages.sh
TESTS += tests/run_model.sh
EXTRA_DIST += tests/run_model.sh
TESTS += tests/demo.sh
EXTRA_DIST += tests/demo.sh

# Issue 17, item 6: op specs checked by dmo_layer_begin, natively and under the tool.
TESTS += tests/layer_spec.sh
EXTRA_DIST += tests/layer_spec.sh

# docs/layering.md's layering, on the headers every compiled object reached.
TESTS += tests/layering.sh
EXTRA_DIST += tests/layering.sh
TESTS += tests/sweep_errors.sh tests/emit_hostile.sh
EXTRA_DIST += tests/sweep_errors.sh tests/emit_hostile.sh
TESTS += tests/harness_cli.sh
EXTRA_DIST += tests/harness_cli.sh
TESTS += tests/layers_csv.sh
EXTRA_DIST += tests/layers_csv.sh

TESTS += tests/cmd_edges.sh tests/planted_links.sh tests/hostile_inputs.sh tests/small_cases.sh \
	tests/children.sh tests/plan_scaling.sh tests/time_limit.sh
EXTRA_DIST += tests/cmd_edges.sh tests/planted_links.sh tests/hostile_inputs.sh tests/small_cases.sh \
	tests/children.sh tests/plan_scaling.sh tests/chain_model.py tests/time_limit.sh \
	tests/damage_corpus.py
# Failing the libc calls dmo checks (an LD_PRELOAD shim) under dmo commands;
# no coverage counters of its own, as it is preloaded into gnuplot too.
check_LTLIBRARIES += tests/fail_nth.la
tests_fail_nth_la_SOURCES = tests/fail_nth.c
tests_fail_nth_la_CFLAGS = -O2
tests_fail_nth_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
tests_fail_nth_la_LIBADD = -ldl
TESTS += tests/out_of_resources.sh
EXTRA_DIST += tests/out_of_resources.sh

# Issue 18: instructions counted only for a full trace or when asked.
TESTS += tests/tool_count.sh
EXTRA_DIST += tests/tool_count.sh
TESTS += tests/event_file_damage.sh
EXTRA_DIST += tests/event_file_damage.sh
# Issue 31: event-file version 2 against version 1, written by the tool.
TESTS += tests/trace_versions.sh
EXTRA_DIST += tests/trace_versions.sh
# Issue 31: the tool's streams change no byte of a run directory.
TESTS += tests/tool_streams.sh
EXTRA_DIST += tests/tool_streams.sh
# The tool's hulls change no byte of a run directory either.
TESTS += tests/tool_hulls.sh
EXTRA_DIST += tests/tool_hulls.sh
# ... nor do its chains (dmo-tool/dmo_chain.h).
TESTS += tests/tool_chains.sh
EXTRA_DIST += tests/tool_chains.sh
# Issue 31: --layers LIST, only the layers asked for are traced.
TESTS += tests/trace_layers.sh
EXTRA_DIST += tests/trace_layers.sh
TESTS += tests/fault_injection.sh
EXTRA_DIST += tests/fault_injection.sh
# The TFLite reader on models written by the test, then damaged field by field.
check_PROGRAMS += tests/test_model_tflite
TESTS += tests/test_model_tflite
tests_test_model_tflite_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_model_tflite_LDADD = opspec/libdmo-model.la $(CHECK_LIBS)
# The ONNX reader on ModelProtos built by the test, then made wrong one part at a time.
check_PROGRAMS += tests/test_model_onnx
TESTS += tests/test_model_onnx
tests_test_model_onnx_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/opspec $(PROTOBUF_C_CFLAGS)
tests_test_model_onnx_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_model_onnx_LDADD = opspec/libdmo-model.la $(CHECK_LIBS)
# The readers when each of their allocations fails in turn (--wrap: dmo's own calls only).
check_PROGRAMS += tests/test_model_oom
TESTS += tests/test_model_oom
tests_test_model_oom_CPPFLAGS = $(AM_CPPFLAGS) -DDMO_TOP_SRCDIR='"$(abs_top_srcdir)"'
tests_test_model_oom_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_model_oom_LDFLAGS = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=free
tests_test_model_oom_LDADD = opspec/libdmo-model.la $(CHECK_LIBS)

# ONNX shape inference: models stripped of value_info plan as the originals.
check_PROGRAMS += tests/onnx_strip
TESTS += tests/onnx_shapes.sh
EXTRA_DIST += tests/onnx_shapes.sh
tests_onnx_strip_SOURCES = tests/onnx_strip.c
tests_onnx_strip_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/opspec $(PROTOBUF_C_CFLAGS)
tests_onnx_strip_LDADD = opspec/libdmo-model.la
# Two real ONNX CNNs (tests/models/NOTICE) planned, verified, and their
# shapes checked against ONNX Runtime.
TESTS += tests/onnx_real_models.sh
EXTRA_DIST += tests/onnx_real_models.sh
# Random small ONNX CNNs: dmo infer against ONNX Runtime, plan --verify, the
# plan's O_s against a brute force on the tool's trace, stripped value_info.
check_PROGRAMS += tests/onnx_random_net
TESTS += tests/onnx_random_models.sh
EXTRA_DIST += tests/onnx_random_models.sh
tests_onnx_random_net_SOURCES = tests/onnx_random_net.c
tests_onnx_random_net_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/opspec $(PROTOBUF_C_CFLAGS)
tests_onnx_random_net_LDADD = opspec/libdmo-model.la -lm
TESTS += tests/onnx_ort_split.sh
EXTRA_DIST += tests/onnx_ort_split.sh
TESTS += tests/onnx_ort_forms.sh
EXTRA_DIST += tests/onnx_ort_forms.sh

# Issue 31: a layer's kernel that faults and goes on; event times still
# never go backwards (dmo_main.c, raises_signal).
TESTS += tests/tool_fault.sh
EXTRA_DIST += tests/tool_fault.sh
