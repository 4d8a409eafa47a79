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
EXTRA_DIST += target-harness/tflm/tflm_run.cc target-harness/armdsp/arm_dsp_intrinsics.h
TESTS += tests/tflm_run.sh tests/tflm_profile.sh tests/tflm_offline_plan.sh tests/tflm_dmo_plan.sh tests/compare_model.sh
EXTRA_DIST += tests/tflm_run.sh tests/tflm_profile.sh tests/tflm_offline_plan.sh tests/tflm_dmo_plan.sh tests/compare_model.sh \
	tests/tflm_offline_plan.py tests/tflm_lib.sh

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
# CMSIS-NN has no kernel for); only files the linker takes from them.
# Relative to TFLM_DIR.
TFLM_FRAMEWORK_SRCS = \
	tensorflow/compiler/mlir/lite/core/api/error_reporter.cc \
	tensorflow/compiler/mlir/lite/schema/schema_utils.cc \
	tensorflow/lite/core/api/flatbuffer_conversions.cc \
	tensorflow/lite/core/api/tensor_utils.cc \
	tensorflow/lite/core/c/common.cc \
	tensorflow/lite/kernels/internal/common.cc \
	tensorflow/lite/kernels/internal/quantization_util.cc \
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
	tensorflow/lite/micro/micro_resource_variable.cc \
	tensorflow/lite/micro/micro_utils.cc
TFLM_SHARED_KERNEL_SRCS = \
	tensorflow/lite/micro/kernels/kernel_util.cc \
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
	$(AM_V_GEN)rm -f $@ && $(AR) cr $@ $(tflm_framework_objs) && $(RANLIB) $@

# Kernel build `tflm': TFLM's reference kernels.
tflm_ref_objs = $(TFLM_SWAPPED_KERNELS:%=$(tflm_dir)/ref/tensorflow/lite/micro/kernels/%.o)
$(tflm_dir)/ref/%.o: $(TFLM_DIR)/%.cc
	@$(MKDIR_P) $(@D)
	$(AM_V_CXX)$(TFLM_CXX) -O2 -c -o $@ $<
$(tflm_dir)/libtflm-ref.a: $(tflm_ref_objs)
	$(AM_V_GEN)rm -f $@ && $(AR) cr $@ $(tflm_ref_objs) && $(RANLIB) $@

# Kernel builds `tflm-cmsis-nn...': TFLM's kernels/cmsis_nn/ over the
# CMSIS-NN functions they call, all from the user's trees; one folder of
# objects per variant.
if HAVE_CMSIS_NN
# The CMSIS-NN sources those kernels reach in any of the three variants
# (the archive members the linker takes from all of Source/, found with
# -Wl,-Map at the commit TFLM pins: 65 of its 114 integer files).
# Relative to CMSIS_NN_DIR.
CMSIS_NN_SRCS = \
	Source/BasicMathFunctions/arm_elementwise_add_s16.c \
	Source/BasicMathFunctions/arm_elementwise_add_s8.c \
	Source/BasicMathFunctions/arm_elementwise_mul_s16.c \
	Source/BasicMathFunctions/arm_elementwise_mul_s8.c \
	Source/ConvolutionFunctions/arm_convolve_1_x_n_s4.c \
	Source/ConvolutionFunctions/arm_convolve_1_x_n_s8.c \
	Source/ConvolutionFunctions/arm_convolve_1x1_s4.c \
	Source/ConvolutionFunctions/arm_convolve_1x1_s4_fast.c \
	Source/ConvolutionFunctions/arm_convolve_1x1_s8.c \
	Source/ConvolutionFunctions/arm_convolve_1x1_s8_fast.c \
	Source/ConvolutionFunctions/arm_convolve_get_buffer_sizes_s16.c \
	Source/ConvolutionFunctions/arm_convolve_get_buffer_sizes_s4.c \
	Source/ConvolutionFunctions/arm_convolve_get_buffer_sizes_s8.c \
	Source/ConvolutionFunctions/arm_convolve_s16.c \
	Source/ConvolutionFunctions/arm_convolve_s4.c \
	Source/ConvolutionFunctions/arm_convolve_s8.c \
	Source/ConvolutionFunctions/arm_convolve_wrapper_s16.c \
	Source/ConvolutionFunctions/arm_convolve_wrapper_s4.c \
	Source/ConvolutionFunctions/arm_convolve_wrapper_s8.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_3x3_s8.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_get_buffer_sizes_s4.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_get_buffer_sizes_s8.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_s16.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_s4.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_s4_opt.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_s8.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_s8_opt.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_wrapper_s4.c \
	Source/ConvolutionFunctions/arm_depthwise_conv_wrapper_s8.c \
	Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_row_offset_s8_s16.c \
	Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_s16.c \
	Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_s4_s16.c \
	Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_s8_s16.c \
	Source/FullyConnectedFunctions/arm_fully_connected_get_buffer_sizes_s16.c \
	Source/FullyConnectedFunctions/arm_fully_connected_get_buffer_sizes_s8.c \
	Source/FullyConnectedFunctions/arm_fully_connected_per_channel_s8.c \
	Source/FullyConnectedFunctions/arm_fully_connected_s16.c \
	Source/FullyConnectedFunctions/arm_fully_connected_s4.c \
	Source/FullyConnectedFunctions/arm_fully_connected_s8.c \
	Source/FullyConnectedFunctions/arm_fully_connected_wrapper_s8.c \
	Source/FullyConnectedFunctions/arm_vector_sum_s8.c \
	Source/NNSupportFunctions/arm_nn_mat_mult_nt_t_s4.c \
	Source/NNSupportFunctions/arm_nn_mat_mult_nt_t_s8.c \
	Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_per_ch_s8.c \
	Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s16.c \
	Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s4.c \
	Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s8.c \
	Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_svdf_s8.c \
	Source/NNSupportFunctions/arm_q7_to_q15_with_offset.c \
	Source/NNSupportFunctions/arm_s8_to_s16_unordered_with_offset.c \
	Source/PadFunctions/arm_pad_s8.c \
	Source/PoolingFunctions/arm_avgpool_get_buffer_sizes_s16.c \
	Source/PoolingFunctions/arm_avgpool_get_buffer_sizes_s8.c \
	Source/PoolingFunctions/arm_avgpool_s16.c \
	Source/PoolingFunctions/arm_avgpool_s8.c \
	Source/PoolingFunctions/arm_max_pool_s16.c \
	Source/PoolingFunctions/arm_max_pool_s8.c \
	Source/SVDFunctions/arm_svdf_get_buffer_sizes_s8.c \
	Source/SVDFunctions/arm_svdf_s8.c \
	Source/SVDFunctions/arm_svdf_state_s16_s8.c \
	Source/SoftmaxFunctions/arm_nn_softmax_common_s8.c \
	Source/SoftmaxFunctions/arm_softmax_s16.c \
	Source/SoftmaxFunctions/arm_softmax_s8.c \
	Source/SoftmaxFunctions/arm_softmax_s8_s16.c \
	Source/TransposeFunctions/arm_transpose_s8.c
TFLM_CMSIS_NN_CXX = $(TFLM_CXX) -DCMSIS_NN -isystem $(CMSIS_NN_DIR) -isystem $(CMSIS_NN_DIR)/Include
TFLM_CMSIS_NN_CC = $(CC) -w -isystem $(CMSIS_NN_DIR) -isystem $(CMSIS_NN_DIR)/Include
# The Cortex-M4/M7/M33 path: ARM_MATH_DSP with dmo's C definitions of the
# DSP instructions forced in (target-harness/armdsp/), on every file as
# TFLM's ADDITIONAL_DEFINES would be; then the same with the branches
# CMSIS-NN takes under Arm Compiler 6 (its __ARMCC_VERSION tests; 6.19).
TFLM_ARMDSP_HEADER = $(top_srcdir)/target-harness/armdsp/arm_dsp_intrinsics.h
TFLM_DSP_FLAGS = -DARM_MATH_DSP=1 -include $(TFLM_ARMDSP_HEADER)
TFLM_AC6_FLAGS = -D__ARMCC_VERSION=6190004 $(TFLM_DSP_FLAGS)
# tflm_cmsis_nn_objs VARIANT: the objects of kernel build tflm-VARIANT.
tflm_cmsis_nn_objs = \
	$(TFLM_SWAPPED_KERNELS:%=$(tflm_dir)/$(1)/tensorflow/lite/micro/kernels/cmsis_nn/%.o) \
	$(CMSIS_NN_SRCS:%.c=$(tflm_dir)/$(1)/cmsis-nn/%.o)
TFLM_CMSIS_NN_KERNEL = $(AM_V_CXX)$(MKDIR_P) $(@D) && $(TFLM_CMSIS_NN_CXX) -O2 -c -o $@ $<
TFLM_CMSIS_NN_SOURCE = $(AM_V_CC)$(MKDIR_P) $(@D) && $(TFLM_CMSIS_NN_CC) -O2 -c -o $@ $<
TFLM_ARCHIVE = $(AM_V_GEN)rm -f $@ && $(AR) cr $@ $^ && $(RANLIB) $@
$(tflm_dir)/cmsis-nn/%.o: $(TFLM_DIR)/%.cc
	$(TFLM_CMSIS_NN_KERNEL)
$(tflm_dir)/cmsis-nn/cmsis-nn/%.o: $(CMSIS_NN_DIR)/%.c
	$(TFLM_CMSIS_NN_SOURCE)
$(tflm_dir)/cmsis-nn-dsp/%.o: $(TFLM_DIR)/%.cc $(TFLM_ARMDSP_HEADER)
	$(TFLM_CMSIS_NN_KERNEL) $(TFLM_DSP_FLAGS)
$(tflm_dir)/cmsis-nn-dsp/cmsis-nn/%.o: $(CMSIS_NN_DIR)/%.c $(TFLM_ARMDSP_HEADER)
	$(TFLM_CMSIS_NN_SOURCE) $(TFLM_DSP_FLAGS)
$(tflm_dir)/cmsis-nn-dsp-ac6/%.o: $(TFLM_DIR)/%.cc $(TFLM_ARMDSP_HEADER)
	$(TFLM_CMSIS_NN_KERNEL) $(TFLM_AC6_FLAGS)
$(tflm_dir)/cmsis-nn-dsp-ac6/cmsis-nn/%.o: $(CMSIS_NN_DIR)/%.c $(TFLM_ARMDSP_HEADER)
	$(TFLM_CMSIS_NN_SOURCE) $(TFLM_AC6_FLAGS)
$(tflm_dir)/libtflm-cmsis-nn.a: $(call tflm_cmsis_nn_objs,cmsis-nn)
	$(TFLM_ARCHIVE)
$(tflm_dir)/libtflm-cmsis-nn-dsp.a: $(call tflm_cmsis_nn_objs,cmsis-nn-dsp)
	$(TFLM_ARCHIVE)
$(tflm_dir)/libtflm-cmsis-nn-dsp-ac6.a: $(call tflm_cmsis_nn_objs,cmsis-nn-dsp-ac6)
	$(TFLM_ARCHIVE)
endif

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
	-DDMO_TFLM_KERNELS='"tflm"' -DDMO_TFLM_ISA='"x86-64; TFLM reference kernels"'
target_harness_tflm_dmo_tflm_run_tflm_CXXFLAGS = $(TFLM_RUN_CXX)
target_harness_tflm_dmo_tflm_run_tflm_LDADD = $(tflm_dir)/libtflm-ref.a \
	$(tflm_dir)/libtflm-framework.a $(TFLM_RUN_LIBS)
target_harness_tflm_dmo_tflm_run_tflm_LDFLAGS = $(TFLM_RUN_STATIC)

if HAVE_CMSIS_NN
TFLM_CMSIS_NN_COMMIT = -DDMO_CMSIS_NN_COMMIT='"$(call tflm_source_commit,$(CMSIS_NN_DIR))"'
pkglibexec_PROGRAMS += target-harness/tflm/dmo-tflm-run-tflm-cmsis-nn
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_SOURCES = target-harness/tflm/tflm_run.cc
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_CPPFLAGS = $(TFLM_RUN_CPP) $(TFLM_CMSIS_NN_COMMIT) \
	-DDMO_TFLM_KERNELS='"tflm-cmsis-nn"' -DDMO_TFLM_ISA='"x86-64; CMSIS-NN portable C"'
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_CXXFLAGS = $(TFLM_RUN_CXX)
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_LDADD = $(tflm_dir)/libtflm-cmsis-nn.a \
	$(tflm_dir)/libtflm-framework.a $(TFLM_RUN_LIBS)
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_LDFLAGS = $(TFLM_RUN_STATIC)
pkglibexec_PROGRAMS += target-harness/tflm/dmo-tflm-run-tflm-cmsis-nn-dsp
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_SOURCES = target-harness/tflm/tflm_run.cc
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_CPPFLAGS = $(TFLM_RUN_CPP) $(TFLM_CMSIS_NN_COMMIT) \
	-DDMO_TFLM_KERNELS='"tflm-cmsis-nn-dsp"' -DDMO_TFLM_ISA='"x86-64; CMSIS-NN ARM_MATH_DSP, gcc branches"'
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_CXXFLAGS = $(TFLM_RUN_CXX)
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_LDADD = $(tflm_dir)/libtflm-cmsis-nn-dsp.a \
	$(tflm_dir)/libtflm-framework.a $(TFLM_RUN_LIBS)
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_LDFLAGS = $(TFLM_RUN_STATIC)
pkglibexec_PROGRAMS += target-harness/tflm/dmo-tflm-run-tflm-cmsis-nn-dsp-ac6
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_ac6_SOURCES = target-harness/tflm/tflm_run.cc
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_ac6_CPPFLAGS = $(TFLM_RUN_CPP) $(TFLM_CMSIS_NN_COMMIT) \
	-DDMO_TFLM_KERNELS='"tflm-cmsis-nn-dsp-ac6"' -DDMO_TFLM_ISA='"x86-64; CMSIS-NN ARM_MATH_DSP, Arm Compiler 6 branches"'
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_ac6_CXXFLAGS = $(TFLM_RUN_CXX)
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_ac6_LDADD = $(tflm_dir)/libtflm-cmsis-nn-dsp-ac6.a \
	$(tflm_dir)/libtflm-framework.a $(TFLM_RUN_LIBS)
target_harness_tflm_dmo_tflm_run_tflm_cmsis_nn_dsp_ac6_LDFLAGS = $(TFLM_RUN_STATIC)
endif
endif
# The third-party objects, in folders automake does not know of.  They
# carry no header dependencies: after changing a tree, `make clean-tflm`.
clean-local: clean-tflm
clean-tflm:
	rm -rf target-harness/tflm/framework target-harness/tflm/ref target-harness/tflm/cmsis-nn* \
		target-harness/tflm/libtflm-*.a
.PHONY: clean-tflm
