# target-harness/backends/local.mk - the third-party backends, one plugin
# (dmo-backend-NAME.so, <dmo/backend.h>) per kernel library, each built
# only when configure found its library.  They see dmo's public header
# only: a backend is written like any outside one would be.
BACKEND_CPPFLAGS = $(PUBLIC_CPPFLAGS)
BACKEND_LDFLAGS = -module -avoid-version -shared \
	-export-symbols-regex '^dmo_backend_(v[12]|threads_v1)$$'
EXTRA_DIST += target-harness/backends/plugin.h

if HAVE_XNNPACK
pkglib_LTLIBRARIES += target-harness/backends/dmo-backend-xnnpack.la
target_harness_backends_dmo_backend_xnnpack_la_SOURCES = target-harness/backends/xnnpack.c
target_harness_backends_dmo_backend_xnnpack_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
target_harness_backends_dmo_backend_xnnpack_la_LDFLAGS = $(BACKEND_LDFLAGS)
target_harness_backends_dmo_backend_xnnpack_la_LIBADD = -lXNNPACK -lcpuinfo -lpthreadpool
endif

if HAVE_ONEDNN
pkglib_LTLIBRARIES += target-harness/backends/dmo-backend-onednn.la
target_harness_backends_dmo_backend_onednn_la_SOURCES = target-harness/backends/onednn.c
target_harness_backends_dmo_backend_onednn_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
target_harness_backends_dmo_backend_onednn_la_LDFLAGS = $(BACKEND_LDFLAGS)
target_harness_backends_dmo_backend_onednn_la_LIBADD = -ldnnl -lgomp
endif

if HAVE_OPENBLAS
pkglib_LTLIBRARIES += target-harness/backends/dmo-backend-openblas.la
target_harness_backends_dmo_backend_openblas_la_SOURCES = target-harness/backends/openblas.c
target_harness_backends_dmo_backend_openblas_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
target_harness_backends_dmo_backend_openblas_la_LDFLAGS = $(BACKEND_LDFLAGS)
target_harness_backends_dmo_backend_openblas_la_LIBADD = -ldl
endif

if HAVE_ARMNN
pkglib_LTLIBRARIES += target-harness/backends/dmo-backend-armnn.la
target_harness_backends_dmo_backend_armnn_la_SOURCES = target-harness/backends/armnn.cpp
target_harness_backends_dmo_backend_armnn_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
target_harness_backends_dmo_backend_armnn_la_CXXFLAGS = -std=c++14 -Wall -Wextra
target_harness_backends_dmo_backend_armnn_la_LDFLAGS = $(BACKEND_LDFLAGS)
target_harness_backends_dmo_backend_armnn_la_LIBADD = -larmnn
endif

# CMSIS-NN, three times from the user's tree (--with-cmsis-nn=DIR): the
# integer sources of the ops TFLM routes to it, each variant compiled with
# the same flags as the plugin source into an archive the plugin links
# statically (libtool warns that this is not portable: it is what lets the
# CMSIS-NN sources be named at build time, from the user's tree), so no CMSIS-NN symbol leaves the plugin (the export list) and
# the three variants can live in one process.  The wrapper's kernels are
# wrapped (cmsis_nn.c: implementation() names the one dispatched).
if HAVE_CMSIS_NN
CMSIS_NN_FILES = $(filter-out %_f32.c %_f16.c %_s4.c %svdf_s8.c %lstm_s8.c \
	%transpose_s8.c %batch_matmul_s8.c %_u8.c %maximum_s8.c %minimum_s8.c %flt.c, \
	$(wildcard $(addprefix $(CMSIS_NN_DIR)/Source/,$(addsuffix /*.c,ConvolutionFunctions \
	FullyConnectedFunctions PoolingFunctions BasicMathFunctions SoftmaxFunctions \
	NNSupportFunctions))))
# The release CMSIS-NN's function header names ($Revision, $Date).
CMSIS_NN_VERSION = CMSIS-NN $(shell sed -n 's/^ \* \$$Revision: *\([^ ]*\).*/\1/p' \
	$(CMSIS_NN_DIR)/Include/arm_nnfunctions.h) of $(shell sed -n \
	's/^ \* \$$Date: *\(.*[^ ]\) *$$/\1/p' $(CMSIS_NN_DIR)/Include/arm_nnfunctions.h)
CMSIS_NN_CPPFLAGS = -I$(CMSIS_NN_DIR)/Include
CMSIS_NN_DSP_CPPFLAGS = $(CMSIS_NN_CPPFLAGS) -DARM_MATH_DSP=1 -include $(ARMDSP_HEADER)
CMSIS_NN_AC6_CPPFLAGS = -D__ARMCC_VERSION=6190004 $(CMSIS_NN_DSP_CPPFLAGS)
CMSIS_NN_WRAPPED = arm_convolve_1x1_s8_fast arm_convolve_1x1_s8 arm_convolve_1_x_n_s8 \
	arm_convolve_s8 arm_depthwise_conv_3x3_s8 arm_depthwise_conv_s8_opt arm_depthwise_conv_s8 \
	arm_fully_connected_s8 arm_fully_connected_per_channel_s8
CMSIS_NN_LDFLAGS = $(BACKEND_LDFLAGS) -Wl,--no-undefined $(addprefix -Wl$(comma)--wrap=,$(CMSIS_NN_WRAPPED))
comma = ,
# cmsis_nn_objects VARIANT: the object of each CMSIS-NN source for VARIANT.
cmsis_nn_objects = $(patsubst $(CMSIS_NN_DIR)/%.c,target-harness/backends/cmsis-nn/$(1)/%.o,$(CMSIS_NN_FILES))
CMSIS_NN_BUILD = $(AM_V_CC)mkdir -p $(@D) && $(CC) $(CFLAGS) -fPIC -w -c -o $@ $<
target-harness/backends/cmsis-nn/portable/%.o: $(CMSIS_NN_DIR)/%.c
	$(CMSIS_NN_BUILD) $(CMSIS_NN_CPPFLAGS)
target-harness/backends/cmsis-nn/dsp/%.o: $(CMSIS_NN_DIR)/%.c $(ARMDSP_HEADER)
	$(CMSIS_NN_BUILD) $(CMSIS_NN_DSP_CPPFLAGS)
target-harness/backends/cmsis-nn/dsp-ac6/%.o: $(CMSIS_NN_DIR)/%.c $(ARMDSP_HEADER)
	$(CMSIS_NN_BUILD) $(CMSIS_NN_AC6_CPPFLAGS)
target-harness/backends/cmsis-nn/libcmsis-nn-%.a:
	$(AM_V_AR)rm -f $@ && $(AR) rcs $@ $^
target-harness/backends/cmsis-nn/libcmsis-nn-portable.a: $(call cmsis_nn_objects,portable)
target-harness/backends/cmsis-nn/libcmsis-nn-dsp.a: $(call cmsis_nn_objects,dsp)
target-harness/backends/cmsis-nn/libcmsis-nn-dsp-ac6.a: $(call cmsis_nn_objects,dsp-ac6)

pkglib_LTLIBRARIES += target-harness/backends/dmo-backend-cmsis-nn.la \
	target-harness/backends/dmo-backend-cmsis-nn-dsp.la \
	target-harness/backends/dmo-backend-cmsis-nn-dsp-ac6.la
target_harness_backends_dmo_backend_cmsis_nn_la_SOURCES = target-harness/backends/cmsis_nn.c
target_harness_backends_dmo_backend_cmsis_nn_la_CPPFLAGS = $(BACKEND_CPPFLAGS) $(CMSIS_NN_CPPFLAGS) \
	-DDMO_CMSIS_NN_NAME='"cmsis-nn"' -DDMO_CMSIS_NN_ISA='"portable"' \
	-DDMO_CMSIS_NN_VERSION='"$(CMSIS_NN_VERSION)"'
target_harness_backends_dmo_backend_cmsis_nn_la_LDFLAGS = $(CMSIS_NN_LDFLAGS)
target_harness_backends_dmo_backend_cmsis_nn_la_LIBADD = target-harness/backends/cmsis-nn/libcmsis-nn-portable.a
target_harness_backends_dmo_backend_cmsis_nn_la_DEPENDENCIES = target-harness/backends/cmsis-nn/libcmsis-nn-portable.a
target_harness_backends_dmo_backend_cmsis_nn_dsp_la_SOURCES = target-harness/backends/cmsis_nn.c
target_harness_backends_dmo_backend_cmsis_nn_dsp_la_CPPFLAGS = $(BACKEND_CPPFLAGS) $(CMSIS_NN_DSP_CPPFLAGS) \
	-DDMO_CMSIS_NN_NAME='"cmsis-nn-dsp"' \
	-DDMO_CMSIS_NN_ISA='"DSP in C"' \
	-DDMO_CMSIS_NN_VERSION='"$(CMSIS_NN_VERSION)"'
target_harness_backends_dmo_backend_cmsis_nn_dsp_la_LDFLAGS = $(CMSIS_NN_LDFLAGS)
target_harness_backends_dmo_backend_cmsis_nn_dsp_la_LIBADD = target-harness/backends/cmsis-nn/libcmsis-nn-dsp.a
target_harness_backends_dmo_backend_cmsis_nn_dsp_la_DEPENDENCIES = target-harness/backends/cmsis-nn/libcmsis-nn-dsp.a
target_harness_backends_dmo_backend_cmsis_nn_dsp_ac6_la_SOURCES = target-harness/backends/cmsis_nn.c
target_harness_backends_dmo_backend_cmsis_nn_dsp_ac6_la_CPPFLAGS = $(BACKEND_CPPFLAGS) $(CMSIS_NN_AC6_CPPFLAGS) \
	-DDMO_CMSIS_NN_NAME='"cmsis-nn-dsp-ac6"' \
	-DDMO_CMSIS_NN_ISA='"DSP in C"' \
	-DDMO_CMSIS_NN_VERSION='"$(CMSIS_NN_VERSION)"'
target_harness_backends_dmo_backend_cmsis_nn_dsp_ac6_la_CFLAGS = $(AM_CFLAGS) -Wno-unknown-pragmas
target_harness_backends_dmo_backend_cmsis_nn_dsp_ac6_la_LDFLAGS = $(CMSIS_NN_LDFLAGS)
target_harness_backends_dmo_backend_cmsis_nn_dsp_ac6_la_LIBADD = target-harness/backends/cmsis-nn/libcmsis-nn-dsp-ac6.a
target_harness_backends_dmo_backend_cmsis_nn_dsp_ac6_la_DEPENDENCIES = target-harness/backends/cmsis-nn/libcmsis-nn-dsp-ac6.a
endif

# The CMSIS-NN objects (their folder exists only when configured with it).
clean-local: clean-cmsis-nn
clean-cmsis-nn:
	rm -rf target-harness/backends/cmsis-nn
.PHONY: clean-cmsis-nn
