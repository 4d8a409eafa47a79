# backend_armnn.sh - tests/backend_check.sh on the armnn backend.
BACKEND=armnn
. "$top_srcdir/tests/backend_check.sh"
