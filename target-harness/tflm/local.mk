# target-harness/tflm/local.mk - dmo-tflm-run-KERNELS, dmo's runner of a
# .tflite inside TensorFlow Lite Micro's MicroInterpreter (docs/deploy.md),
# built from the user's TFLM tree (--with-tflm=DIR) and, for the CMSIS-NN
# kernel builds, the user's CMSIS-NN tree (--with-cmsis-nn=DIR).  dmo ships
# none of their code: the rules below compile the files the runner needs
# straight from those trees, once per build tree, with the flags of TFLM's
# own Makefile (tools/make/Makefile: -Os for the framework, -O2 for kernels
# and CMSIS-NN, TF_LITE_STATIC_MEMORY).  TFLM's Makefile itself is not run:
# it builds the whole library (9 minutes on 2 cores) and runs Python
# generators to parse.
EXTRA_DIST += target-harness/tflm/tflm_run.cc

if HAVE_TFLM
TFLM_DOWNLOADS = $(TFLM_DIR)/tensorflow/lite/micro/tools/make/downloads
# -isystem: the runner is built with warnings on, and TFLM's headers are
# not dmo's to mend.
TFLM_INCLUDES = -isystem $(TFLM_DIR) -isystem $(TFLM_DOWNLOADS)/flatbuffers/include \
	-isystem $(TFLM_DOWNLOADS)/gemmlowp -isystem $(TFLM_DOWNLOADS)/ruy
TFLM_DEFINES = -DTF_LITE_STATIC_MEMORY -DTF_LITE_DISABLE_X86_NEON -DTF_LITE_USE_CTIME
TFLM_CXX = $(CXX) -std=c++17 -fno-rtti -fno-exceptions -fno-threadsafe-statics \
	-fno-unwind-tables -fno-asynchronous-unwind-tables -w $(TFLM_DEFINES) $(TFLM_INCLUDES)
# The commit of a git checkout, or the one git-archive recorded for an
# unpacked tarball (tests/vendor_unpack.sh keeps it in .git-archive-commit).
tflm_source_commit = $(shell { test "`git -C '$(1)' rev-parse --show-toplevel 2>/dev/null`" = '$(1)' && \
	git -C '$(1)' rev-parse --short=12 HEAD; } || cut -c1-12 '$(1)/.git-archive-commit' 2>/dev/null || \
	echo unknown)

# The framework: interpreter, allocator, planners, schema glue, and the
# kernels every kernel build shares (the *_common.cc halves, and the ops
# CMSIS-NN has no kernel for).  Relative to TFLM_DIR.
TFLM_FRAMEWORK_SRCS = \
	tensorflow/compiler/mlir/lite/core/api/error_reporter.cc \
	tensorflow/compiler/mlir/lite/schema/schema_utils.cc \
	tensorflow/lite/core/api/flatbuffer_conversions.cc \
	tensorflow/lite/core/api/tensor_utils.cc \
	tensorflow/lite/core/c/common.cc \
	tensorflow/lite/kernels/internal/common.cc \
	tensorflow/lite/kernels/internal/quantization_util.cc \
	tensorflow/lite/kernels/internal/runtime_shape.cc \
	tensorflow/lite/kernels/internal/tensor_ctypes.cc \
	tensorflow/lite/kernels/internal/portable_tensor_utils.cc \
	tensorflow/lite/kernels/internal/reference/portable_tensor_utils.cc \
	tensorflow/lite/kernels/internal/tensor_utils.cc \
	tensorflow/lite/kernels/kernel_util.cc \
	tensorflow/lite/micro/arena_allocator/non_persistent_arena_buffer_allocator.cc \
	tensorflow/lite/micro/arena_allocator/persistent_arena_buffer_allocator.cc \
	tensorflow/lite/micro/arena_allocator/single_arena_buffer_allocator.cc \
	tensorflow/lite/micro/memory_planner/greedy_memory_planner.cc \
	tensorflow/lite/micro/memory_planner/linear_memory_planner.cc \
	tensorflow/lite/micro/tflite_bridge/flatbuffer_conversions_bridge.cc \
	tensorflow/lite/micro/tflite_bridge/micro_error_reporter.cc \
	tensorflow/lite/micro/debug_log.cc \
	tensorflow/lite/micro/flatbuffer_utils.cc \
	tensorflow/lite/micro/memory_helpers.cc \
	tensorflow/lite/micro/micro_allocation_info.cc \
	tensorflow/lite/micro/micro_allocator.cc \
	tensorflow/lite/micro/micro_context.cc \
	tensorflow/lite/micro/micro_interpreter.cc \
	tensorflow/lite/micro/micro_interpreter_context.cc \
	tensorflow/lite/micro/micro_interpreter_graph.cc \
	tensorflow/lite/micro/micro_log.cc \
	tensorflow/lite/micro/micro_op_resolver.cc \
	tensorflow/lite/micro/micro_profiler.cc \
	tensorflow/lite/micro/micro_resource_variable.cc \
	tensorflow/lite/micro/micro_time.cc \
	tensorflow/lite/micro/micro_utils.cc \
	tensorflow/lite/micro/system_setup.cc
TFLM_SHARED_KERNEL_SRCS = \
	tensorflow/lite/micro/kernels/kernel_util.cc \
	tensorflow/lite/micro/kernels/micro_tensor_utils.cc \
	tensorflow/lite/micro/kernels/add_common.cc \
	tensorflow/lite/micro/kernels/conv_common.cc \
	tensorflow/lite/micro/kernels/depthwise_conv_common.cc \
	tensorflow/lite/micro/kernels/dequantize.cc \
	tensorflow/lite/micro/kernels/dequantize_common.cc \
	tensorflow/lite/micro/kernels/fully_connected_common.cc \
	tensorflow/lite/micro/kernels/mul_common.cc \
	tensorflow/lite/micro/kernels/pad_common.cc \
	tensorflow/lite/micro/kernels/pooling_common.cc \
	tensorflow/lite/micro/kernels/quantize.cc \
	tensorflow/lite/micro/kernels/quantize_common.cc \
	tensorflow/lite/micro/kernels/reduce.cc \
	tensorflow/lite/micro/kernels/reduce_common.cc \
	tensorflow/lite/micro/kernels/reshape.cc \
	tensorflow/lite/micro/kernels/reshape_common.cc \
	tensorflow/lite/micro/kernels/softmax_common.cc \
	tensorflow/lite/micro/kernels/svdf_common.cc \
	tensorflow/lite/micro/kernels/transpose_common.cc
# The ops that have a CMSIS-NN kernel in TFLM (kernels/cmsis_nn/NAME.cc
# replaces kernels/NAME.cc, as TFLM's specialize_files.py does).
TFLM_SWAPPED_KERNELS = add conv depthwise_conv fully_connected mul pad pooling softmax \
	svdf transpose

tflm_dir = target-harness/tflm
tflm_framework_objs = $(TFLM_FRAMEWORK_SRCS:%.cc=$(tflm_dir)/framework/%.o) \
	$(TFLM_SHARED_KERNEL_SRCS:%.cc=$(tflm_dir)/framework/%.o)
$(tflm_dir)/framework/%.o: $(TFLM_DIR)/%.cc
	@$(MKDIR_P) $(@D)
	$(AM_V_CXX)$(TFLM_CXX) -Os -c -o $@ $<
$(tflm_dir)/libtflm-framework.a: $(tflm_framework_objs)
	$(AM_V_AR)rm -f $@ && $(AR) cr $@ $(tflm_framework_objs) && $(RANLIB) $@

# Kernel build `tflm': TFLM's reference kernels.
tflm_ref_objs = $(TFLM_SWAPPED_KERNELS:%=$(tflm_dir)/ref/tensorflow/lite/micro/kernels/%.o)
$(tflm_dir)/ref/%.o: $(TFLM_DIR)/%.cc
	@$(MKDIR_P) $(@D)
	$(AM_V_CXX)$(TFLM_CXX) -O2 -c -o $@ $<
$(tflm_dir)/libtflm-ref.a: $(tflm_ref_objs)
	$(AM_V_AR)rm -f $@ && $(AR) cr $@ $(tflm_ref_objs) && $(RANLIB) $@

# The runner, once per kernel build: the kernel build's name and the
# source versions go in as macros, everything else is the same program.
TFLM_RUN_CPP = $(TFLM_DEFINES) $(TFLM_INCLUDES) $(MODEL_CPPFLAGS) $(PUBLIC_CPPFLAGS) \
	-DDMO_TFLM_COMMIT='"$(call tflm_source_commit,$(TFLM_DIR))"'
TFLM_RUN_CXX = -std=c++17 -O2 -Wall -Wextra -fno-rtti -fno-exceptions
TFLM_RUN_LIBS = target-harness/lib/libdmo-harness.la opspec/libdmo-model.la
# Static, as dmo-harness: valgrind profiles the program, not libtool's
# wrapper script.
TFLM_RUN_STATIC = -static

pkglibexec_PROGRAMS += target-harness/tflm/dmo-tflm-run-tflm
target_harness_tflm_dmo_tflm_run_tflm_SOURCES = target-harness/tflm/tflm_run.cc
target_harness_tflm_dmo_tflm_run_tflm_CPPFLAGS = $(TFLM_RUN_CPP) \
	-DDMO_TFLM_KERNELS='"tflm"' -DDMO_TFLM_ISA='"x86-64, TFLM reference kernels (C++)"'
target_harness_tflm_dmo_tflm_run_tflm_CXXFLAGS = $(TFLM_RUN_CXX)
target_harness_tflm_dmo_tflm_run_tflm_LDADD = $(tflm_dir)/libtflm-ref.a \
	$(tflm_dir)/libtflm-framework.a $(TFLM_RUN_LIBS)
target_harness_tflm_dmo_tflm_run_tflm_LDFLAGS = $(TFLM_RUN_STATIC)
endif
# The third-party objects, in folders automake does not know of.
clean-local: clean-tflm
clean-tflm:
	rm -rf target-harness/tflm/framework target-harness/tflm/ref target-harness/tflm/cmsis-nn* \
		target-harness/tflm/libtflm-*.a
.PHONY: clean-tflm
