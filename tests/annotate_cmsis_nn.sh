# annotate_cmsis_nn.sh - dmo annotate on a third-party library: CMSIS-NN's
# C kernels as the cmsis-nn backend builds them (the portable path, -g
# -O2), each binding line predicted from the kernel's loop order and found
# in CMSIS-NN's own source by pattern (tests/cmsis_lines.awk: inside the
# kernel's function, on the portable build's side of each #if), never by
# number.  The loop orders (docs/backends.md, "CMSIS-NN"; docs/kernels.md
# for the reference order depthwise keeps):
#  - depthwise, generic (multiplier 2) and 3x3: each output (channel
#    group) is written once after its window is read; the next output's
#    first read, its lowest input byte, binds against the last store:
#    the generic kernel's "acc_0 += (input[" after "output[i_out++] =
#    acc_0"; the 3x3 kernel's first tap "in_val = arm_nn_read_s8x4(input_ptr);"
#    (CMSIS-NN's inline reader, in arm_nnsupportfunctions.h, inlined at
#    that line) after the channel group's four "output[out_idx++] =
#    (int8_t)out_buffK" (gcc merges them into one 4-byte store, given the
#    line of one of them);
#  - 1x1 fast (arm_nn_mat_mult_nt_t_s8): passes over pairs of output
#    channels; a pass ends with the last pixel's "dst_ptr[1] =
#    (int8_t)res11;" (the furthest byte, OB - 3 for the pass before the
#    last), and the next pass reads the input from byte 0, "int8_t
#    lhs_value = lhs_ptr[0];", a load gcc gives its first use's line
#    ("res00 += lhs_value * rhs_value0;") when it folds it in: bound 2;
#  - im2col conv (arm_convolve_s8): two pixels copied into the scratch
#    buffer, then arm_nn_mat_mult_kernel_s8_s16 writes them, the second
#    pixel's second channel last ("*out_1++ = (int8_t)ch_1_out_1;"); the
#    next copy reads the input through arm_memcpy_s8, libc's memcpy: the
#    read has no source here and is named by its caller, the
#    arm_memcpy_s8 call of the unpadded branch in arm_convolve_s8.c.
# Skipped (77) when configure was not given --with-cmsis-nn.
. "$top_srcdir/tests/lib.sh"

if ! "$top_builddir/tests/backend_vs_ref" cmsis-nn fc:in=4,units=4,dtype=i8 >/dev/null 2>"$WORK/load.err"; then
	grep -q "is not available" "$WORK/load.err" && { echo "skip: $(cat "$WORK/load.err")"; exit 77; }
	fail "cmsis-nn does not run fc: $(cat "$WORK/load.err")"
	finish
fi
CMSIS=$(sed -n 's/^CMSIS_NN_DIR = //p' "$top_builddir/Makefile")
[ -d "$CMSIS/Source" ] || { echo "skip: no CMSIS-NN source tree ($CMSIS)"; exit 77; }
CONV="$CMSIS/Source/ConvolutionFunctions" SUPPORT="$CMSIS/Source/NNSupportFunctions"

# lines FILE FUNCTION TEXT: the portable build's lines of FUNCTION in FILE
# holding TEXT, as "BASE:LINE", one a line.
lines() {
	awk -v fn="$2" -v pat="$3" -f "$top_srcdir/tests/cmsis_lines.awk" "$1" |
		sed "s|^|${1##*/}:|"
}
# one_of WHAT ACTUAL EXPECTED-LINES: ACTUAL is one of the lines (and some
# line was expected at all).
one_of() {
	if [ -n "$3" ] && [ -n "$2" ] && echo "$3" | grep -q -x -F "$2"; then
		echo "ok: $1: $2"
	else
		fail "$1: $2 is none of: $(echo $3)"
	fi
}

"$DMO" run -q -o "$WORK/c" --backend cmsis-nn 'dwconv2d:in=6x6x4,k=3x3,mult=2,dtype=i8' \
	'dwconv2d:in=8x8x8,k=3x3,pad=same,dtype=i8' 'conv2d:in=8x8x16,k=1x1,out_c=8,dtype=i8' \
	'conv2d:in=8x8x6,k=3x3,out_c=8,pad=same,dtype=i8' >"$WORK/run.out" 2>&1
expect_eq "dmo run --backend cmsis-nn" 0 $?
"$DMO" annotate "$WORK/c" --csv >"$WORK/c.csv"
expect_eq "dmo annotate --csv" 0 $?
csv_rows "$WORK/c/backend.csv" | by_name '{ print v("implementation") }' >"$WORK/impl"
expect_eq "the kernels CMSIS-NN dispatched to" \
	"arm_depthwise_conv_s8 arm_depthwise_conv_3x3_s8 arm_convolve_1x1_s8_fast arm_convolve_s8" \
	"$(tr '\n' ' ' <"$WORK/impl" | sed 's/ $//')"
name() { layer_rows "$WORK/c" | by_name 'v("layer") == n { print v("name") }' -v n="$1"; }
# pair LAYER ROLE: the line `dmo annotate` marks ROLE in LAYER.
pair() { marked "$WORK/c.csv" "$(name "$1")" "$2"; }

f="$CONV/arm_depthwise_conv_s8.c"
one_of "generic depthwise: the binding write" "$(pair 1 first)" \
	"$(lines "$f" depthwise_conv_s8_generic 'output[i_out++] = acc_0')"
one_of "generic depthwise: the binding read" "$(pair 1 second)" \
	"$(lines "$f" depthwise_conv_s8_generic 'acc_0 += (input[')"

f="$CONV/arm_depthwise_conv_3x3_s8.c"
group=$(lines "$f" arm_depthwise_conv_3x3_s8 'output[out_idx++] = (int8_t)out_buff' |
	awk -F: 'NR == 1 { first = $2 } $2 < first + 4 { print }')
one_of "3x3 depthwise: the binding write, a store of the channel group" "$(pair 2 first)" "$group"
expect_eq "3x3 depthwise: the binding read is CMSIS-NN's reader" "arm_nnsupportfunctions.h" \
	"$(pair 2 second | cut -d: -f1)"
csv_rows "$(where_file "$WORK/c" "$(name 2)")" |
	by_name 'v("role") == "second" { print v("inlined_into") }' >"$WORK/inl"
one_of "3x3 depthwise: the reader inlined at the first tap" \
	"$(sed 's/.*(\(.*\))$/\1/' "$WORK/inl")" \
	"$(lines "$f" arm_depthwise_conv_3x3_s8 'in_val = arm_nn_read_s8x4(input_ptr);')"

f="$SUPPORT/arm_nn_mat_mult_nt_t_s8.c"
expect_eq "1x1 fast: O_s (the pass before the last ends at OB - 2)" 2 "$(field "$WORK/c" "$(name 3)" os_bytes)"
one_of "1x1 fast: the binding write, the last pixel's res11" "$(pair 3 first)" \
	"$(lines "$f" arm_nn_mat_mult_nt_t_s8 'dst_ptr[1] = (int8_t)res11;' | head -1)"
one_of "1x1 fast: the binding read, lhs_ptr[0] or its first use" "$(pair 3 second)" \
	"$(lines "$f" arm_nn_mat_mult_nt_t_s8 'int8_t lhs_value = lhs_ptr[0];' | head -1)
$(lines "$f" arm_nn_mat_mult_nt_t_s8 'res00 += lhs_value * rhs_value0;' | head -1)"

one_of "im2col conv: the binding write, the second pixel's second channel" "$(pair 4 first)" \
	"$(lines "$CONV/arm_nn_mat_mult_kernel_s8_s16.c" arm_nn_mat_mult_kernel_s8_s16 '*out_1++ = (int8_t)ch_1_out_1;')"
# The unpadded branch's copy: the arm_memcpy_s8 call whose source
# argument is the input at (k_y, k_x), its first line.
call=$(lines "$CONV/arm_convolve_s8.c" arm_convolve_s8 'input_data + (k_y * input_x + k_x) * input_ch' |
	awk -F: '{ print $1 ":" $2 - 1 }')
sed -n "${call#*:}p" "$CONV/arm_convolve_s8.c" | grep -q 'arm_memcpy_s8(im2col_buf,' ||
	fail "arm_convolve_s8.c: no arm_memcpy_s8 call above the copy's source argument"
csv_rows "$WORK/c.csv" | by_name 'v("name") == n && v("binds") ~ /second/ { print v("called_from") }' \
	-v n="$(name 4)" >"$WORK/from"
one_of "im2col conv: the binding read, libc's memcpy called at the im2col copy" \
	"$(sed 's/.*; arm_convolve_s8 (\(.*\))$/\1/' "$WORK/from")" "$call"

# Every access is on some line.
for n in 1 2 3 4; do
	expect_line_counts "$WORK/c" "$WORK/c.csv" "$(name "$n")"
done
finish
