# backend_onednn.sh - tests/backend_check.sh on the onednn backend.
BACKEND=onednn
# --isa avx: dnnl_get_effective_cpu_isa() after dnnl_set_max_cpu_isa(avx).
AVX_ISA=avx
. "$top_srcdir/tests/backend_check.sh"
