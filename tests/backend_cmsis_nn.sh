# backend_cmsis_nn.sh - the three CMSIS-NN backends (cmsis-nn, cmsis-nn-dsp,
# cmsis-nn-dsp-ac6) end to end, on int8 specs of every op TFLM routes to
# CMSIS-NN, with geometries that reach each branch of CMSIS-NN's conv and
# depthwise dispatch:
#  - natively, every output equals dmo's reference kernels' bit for bit
#    with the same weights and quantisation (tests/backend_vs_ref);
#  - the kernel each wrapper dispatched to is the one CMSIS-NN's dispatch
#    conditions name for that geometry (read from arm_convolve_wrapper_s8.c
#    and arm_depthwise_conv_wrapper_s8.c, below);
#  - the O_s measured under the tool (dmo run --backend) holds natively,
#    with input and output really overlapped by it, on 16 inputs, and one
#    element more changes the output wherever O_s < min(IB, OB): the
#    overlapped runs are backend_vs_ref's, not dmo verify's;
#  - dmo compare finds the outputs equal to ref's (diff 0) and exits 0.
# Skipped (77) when configure was not given --with-cmsis-nn.
. "$top_srcdir/tests/lib.sh"
VS_REF="$top_builddir/tests/backend_vs_ref"

if ! "$VS_REF" cmsis-nn fc:in=4,units=4,dtype=i8 >/dev/null 2>"$WORK/load.err"; then
	if grep -q "is not available" "$WORK/load.err"; then
		echo "skip: $(cat "$WORK/load.err")"
		exit 77
	fi
	fail "cmsis-nn does not run fc: $(cat "$WORK/load.err")"
fi

# SPEC, then the kernels expected for the portable path and the DSP path.
# The wrappers' conditions: 1x1 with stride 1 and no padding -> 1x1 fast;
# 1x1 otherwise -> arm_convolve_1x1_s8; height 1, filter height 1, C a
# multiple of 4 -> 1 x n, which without MVE falls back on arm_convolve_s8
# (im2col); else im2col.  Depthwise with multiplier 1, one batch and no
# dilation: 3x3 with padding <= 1 -> 3x3, else _opt, which without DSP
# falls back on the generic kernel; any other multiplier -> generic.
cat >"$WORK/specs" <<'SPECS'
conv2d:in=8x8x16,k=1x1,out_c=8,dtype=i8	arm_convolve_1x1_s8_fast	arm_convolve_1x1_s8_fast
conv2d:in=9x9x16,k=1x1,out_c=8,stride=2,dtype=i8	arm_convolve_1x1_s8	arm_convolve_1x1_s8
conv2d:in=1x9x16,k=1x3,out_c=8,dtype=i8	arm_convolve_1_x_n_s8 > arm_convolve_s8	arm_convolve_1_x_n_s8 > arm_convolve_s8
conv2d:in=8x8x6,k=3x3,out_c=8,pad=same,dtype=i8	arm_convolve_s8	arm_convolve_s8
conv2d:in=2x7x7x5,k=3x3,out_c=4,stride=2,dtype=i8	arm_convolve_s8	arm_convolve_s8
dwconv2d:in=8x8x8,k=3x3,pad=same,dtype=i8	arm_depthwise_conv_3x3_s8	arm_depthwise_conv_3x3_s8
dwconv2d:in=9x9x8,k=5x5,stride=2,pad=same,dtype=i8	arm_depthwise_conv_s8_opt > arm_depthwise_conv_s8	arm_depthwise_conv_s8_opt
dwconv2d:in=6x6x4,k=3x3,mult=2,dtype=i8	arm_depthwise_conv_s8	arm_depthwise_conv_s8
dwconv2d:in=6x6x3,k=3x3,mult=4,pad=same,dtype=i8	arm_depthwise_conv_s8	arm_depthwise_conv_s8
fc:in=3x20,units=7,dtype=i8	arm_fully_connected_s8	arm_fully_connected_s8
avgpool:in=8x8x8,k=2x2,stride=2,dtype=i8	arm_avgpool_s8	arm_avgpool_s8
avgpool:in=7x7x5,k=3x3,pad=same,dtype=i8	arm_avgpool_s8	arm_avgpool_s8
maxpool:in=8x8x8,k=3x3,stride=2,pad=same,dtype=i8	arm_max_pool_s8	arm_max_pool_s8
add:in=4x4x8,dtype=i8	arm_elementwise_add_s8	arm_elementwise_add_s8
mul:in=4x4x8,dtype=i8	arm_elementwise_mul_s8	arm_elementwise_mul_s8
softmax:in=2x3x17,dtype=i8	arm_softmax_s8	arm_softmax_s8
SPECS
specs=$(cut -f1 "$WORK/specs")

for backend in cmsis-nn cmsis-nn-dsp cmsis-nn-dsp-ac6; do
	column=2
	[ "$backend" = cmsis-nn ] || column=3
	# shellcheck disable=SC2086 # one argument per spec
	"$VS_REF" "$backend" $specs >"$WORK/$backend.eq" 2>&1
	expect_eq "$backend: every output equals ref's (exit status)" 0 $?
	grep -v "	equal$" "$WORK/$backend.eq" && fail "$backend: an output differs from ref's"
	cut -f1,$column "$WORK/specs" >"$WORK/want"
	cut -f1,2 "$WORK/$backend.eq" >"$WORK/got"
	diff "$WORK/want" "$WORK/got" >"$WORK/dispatch.diff" &&
		echo "ok: $backend dispatches each geometry to the kernel its conditions name" ||
		fail "$backend dispatch: $(cat "$WORK/dispatch.diff")"

	# shellcheck disable=SC2086
	"$DMO" run -q -o "$WORK/run-$backend" --backend "$backend" $specs >"$WORK/run.out" 2>&1
	expect_eq "dmo run --backend $backend (exit status)" 0 $?
	csv_rows "$WORK/run-$backend/backend.csv" |
		by_name '{ print v("implementation") "\t" v("scratch_bytes") }' >"$WORK/impl"
	expect_eq "$backend: backend.csv names the dispatched kernels and their scratch" \
		"$(cut -f2,3 "$WORK/$backend.eq")" "$(cat "$WORK/impl")"
	csv_rows "$WORK/run-$backend/backend.csv" | by_name '{ print v("version") }' | sort -u |
		grep -q '^CMSIS-NN V\.' || fail "$backend: backend.csv gives no CMSIS-NN version"
	expect_os_native "$backend" "$WORK/run-$backend"
	expect_eq "$backend: layers measured" "$(echo "$specs" | wc -l)" "$os_layers"
done

# dmo compare: int8 outputs equal to ref's, verified overlapped, exit 0.
"$DMO" compare -q --backends cmsis-nn,cmsis-nn-dsp-ac6 -o "$WORK/cmp" \
	conv2d:in=8x8x16,k=1x1,out_c=8,dtype=i8 >"$WORK/cmp.out" 2>&1
expect_eq "dmo compare (exit status)" 0 $?
csv_rows "$WORK/cmp/compare.csv" |
	by_name '{ print v("backend"), v("status"), v("safe"), v("diff_vs_ref") }' >"$WORK/cmp.rows"
expect_eq "dmo compare rows" "cmsis-nn ok 1 0
cmsis-nn-dsp-ac6 ok 1 0" "$(cat "$WORK/cmp.rows")"

# What the backends refuse, with the reason, before valgrind starts.
refuse "f32 on cmsis-nn" "the CMSIS-NN backends run int8 ops only" \
	"$DMO" run -o "$WORK/f32" --backend cmsis-nn fc:in=4,units=4
refuse "relu on cmsis-nn" "TFLM routes only conv2d" \
	"$DMO" run -o "$WORK/relu" --backend cmsis-nn-dsp relu:in=4x4x4,dtype=i8
finish
