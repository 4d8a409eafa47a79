# backend_ref.sh - tests/backend_check.sh on the ref backend.
BACKEND=ref
. "$top_srcdir/tests/backend_check.sh"
