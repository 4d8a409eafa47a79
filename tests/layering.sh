# layering.sh - docs/layering.md's layering, checked on what the build really did:
# every header each compiled object of dmo reached (its dependency file,
# written by the compiler) must lie in its own folder or in a folder its
# layer may use, and the freestanding core and the tool must reach no header
# of the C library.  A relative path ("../opspec/opspec.h") cannot slip by:
# the compiler has already resolved it.  tests/ and bench/ sit above every
# layer and are not checked.  docs/layering.md has the table in prose.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 99

# FOLDER: the dmo folders its sources may include from (besides their own).
# Bottom up, as docs/layering.md numbers the layers.
uses() {
	case $1 in
	common) echo "" ;;                                          # 1 core
	opspec) echo "" ;;                                          # 2 model language
	target-harness/kernels) echo "" ;;                          # 2 the black box
	target-harness/oracle) echo "" ;;                           # independent of dmo
	# the TFLM runner: layer names, markers, and the user's TFLM tree, which
	# tests/vendor_unpack.sh lays out in third_party/ of the build tree
	target-harness/tflm) echo "opspec target-harness/include third_party" ;;
	runner) echo "opspec target-harness/kernels target-harness/include" ;;   # 2b
	target-harness/armdsp) echo "" ;;                           # Arm DSP instructions in C
	target-harness/backends) echo "target-harness/include target-harness/armdsp" ;; # plugins: the ABI
	target-harness/lib) echo "common opspec target-harness/include" ;; # 3 client library
	dmo-tool) echo "common" ;;                                  # 3 the tool
	analysis/lib) echo "common opspec runner target-harness/kernels target-harness/include" ;;
	analysis/cmd | target-harness/harness)                      # 4 front ends
		echo "analysis/lib common opspec runner target-harness/kernels target-harness/include" ;;
	*) return 1 ;;
	esac
}
# FOLDER: where its system headers may come from ("" = anywhere).
system_headers() {
	case $1 in
	common) echo "$freestanding" ;;
	dmo-tool) echo "$freestanding $valgrind_include" ;;
	*) echo "" ;;
	esac
}

makevar() {
	printf 'print-var:\n\t@echo $(%s)\n' "$1" |
		env -u MAKEFLAGS -u MFLAGS make -s -f Makefile -f - print-var
}
freestanding=$(realpath -m "$(makevar FREESTANDING_INCLUDEDIR)")
# The third-party source trees the user named to configure (CMSIS-NN,
# TFLM): outside dmo wherever they lie, even inside the checkout
# (third_party/), so their headers count as system headers.
vendor_trees=""
for tree in $(makevar CMSIS_NN_DIR) $(makevar TFLM_DIR); do
	vendor_trees="$vendor_trees $(realpath -m "$tree")"
done
valgrind_include=$(makevar VALGRIND_CFLAGS | sed 's/^ *-I//; s/ .*//')
depfiles=$(makevar am__depfiles_remade)
src=$(realpath "$top_srcdir")
build=$(realpath "$top_builddir")
[ -n "$depfiles" ] && [ -d "$freestanding" ] && [ -n "$valgrind_include" ] ||
	{ echo "SKIP: this automake or configure gives no dependency files to read"; exit 77; }

checked=0
for depfile in $depfiles; do
	# One rule: "object: source header...", continued with backslashes.
	prereqs=$(awk 'NR == 1 && /^#/ { exit } { more = sub(/\\$/, ""); print } !more { exit }' \
		"$depfile" 2>/dev/null | sed '1s/^[^:]*://')
	set -- $prereqs
	[ $# -gt 0 ] || continue # "# dummy": not built (an EXTRA_PROGRAM)
	source=$(realpath -m "$1")
	folder=${source#"$src"/}
	folder=${folder#"$build"/}
	folder=${folder%/*}
	case $folder in tests | tests/* | bench | bench/*) continue ;; esac
	allowed=$(uses "$folder") || {
		fail "$source: its folder $folder has no layer (add it to tests/layering.sh and docs/layering.md)"
		continue
	}
	sys_allowed=$(system_headers "$folder")
	checked=$((checked + 1))
	shift
	for header in $(realpath -m "$@"); do
		for tree in $vendor_trees; do
			case $header in "$tree"/*) header=vendor:$header ;; esac
		done
		case $header in
		"$src"/* | "$build"/*)
			hfolder=${header#"$src"/}
			hfolder=${hfolder#"$build"/}
			ok=no
			for f in "$folder" $allowed; do
				case $hfolder in "$f"/*) ok=yes ;; esac
			done
			[ $ok = yes ] || fail "${source#"$src"/} ($folder) includes ${hfolder}: not its layer's to use"
			;;
		*)
			[ -n "$sys_allowed" ] || continue
			ok=no
			for d in $sys_allowed; do
				case $header in "$d"/*) ok=yes ;; esac
			done
			[ $ok = yes ] || fail "${source#"$src"/} ($folder) reaches the system header $header: it must stay freestanding"
			;;
		esac
	done
done
# A floor, so that a broken reading of the dependency files cannot pass
# silently: the core alone has five objects, the tool seven.
[ "$checked" -ge 40 ] && echo "ok: $checked objects of dmo checked against their layers" ||
	fail "only $checked objects checked"
finish
