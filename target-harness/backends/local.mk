# target-harness/backends/local.mk - the third-party backends, one plugin
# (dmo-backend-NAME.so, <dmo/backend.h>) per kernel library, each built
# only when configure found its library.  They see dmo's public header
# only: a backend is written like any outside one would be.
BACKEND_CPPFLAGS = $(PUBLIC_CPPFLAGS)
BACKEND_LDFLAGS = -module -avoid-version -shared \
	-export-symbols-regex '^dmo_backend_(v1|threads_v1)$$'
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
