# backend_openblas.sh - tests/backend_check.sh on the openblas backend.
BACKEND=openblas
. "$top_srcdir/tests/backend_check.sh"
