# backend_xnnpack.sh - tests/backend_check.sh on the xnnpack backend.
BACKEND=xnnpack
# --isa avx: cpuinfo with AVX2 and FMA3 cleared.
AVX_ISA=avx
# XNNPACK refuses 1x1 pooling (xnn_status_invalid_parameter, 2).
DECLINED_SPEC=maxpool:in=4x4x1,k=1x1,stride=1,pad=valid
DECLINED_TEXT="xnnpack refused maxpool:in=1x4x4x1,k=1x1,stride=1x1,pad=valid,dtype=f32 (status 2)"
. "$top_srcdir/tests/backend_check.sh"
