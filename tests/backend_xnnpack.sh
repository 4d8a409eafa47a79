# backend_xnnpack.sh - tests/backend_check.sh on the xnnpack backend.
BACKEND=xnnpack
. "$top_srcdir/tests/backend_check.sh"
