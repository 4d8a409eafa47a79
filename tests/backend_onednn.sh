# backend_onednn.sh - tests/backend_check.sh on the onednn backend.
BACKEND=onednn
. "$top_srcdir/tests/backend_check.sh"
