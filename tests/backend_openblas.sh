# backend_openblas.sh - tests/backend_check.sh on the openblas backend.
BACKEND=openblas
# --isa avx: OPENBLAS_CORETYPE=Sandybridge, the core it then names.
AVX_ISA=Sandybridge
. "$top_srcdir/tests/backend_check.sh"
