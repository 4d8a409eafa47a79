# backend_cmsis_nn_model.sh - a real model (TFLM's person_detect, int8) on
# the three CMSIS-NN backends with its own weights and quantisation:
#  - natively, every layer's output equals the reference kernels' bit for
#    bit (dmo-harness --replay writes each layer's output), and
#    backend.csv says which layers ran on the backend (all but the
#    reshape, which TFLM does not give CMSIS-NN) and which on ref;
#  - under the tool (dmo run --model --backend), on the DSP builds, every layer's measured O_s
#    holds natively for the same geometry on that backend, overlapped on 16
#    inputs, and one byte more changes the output wherever O_s < min(IB, OB)
#    (tests/backend_vs_ref, apart from dmo verify);
#  - dmo infer --backend in an arena planned from that backend's own run
#    directory gives the reference kernels' outputs, and in the arena
#    planned for the reference kernels' O_s the gcc build's 1x1
#    convolutions (O_s 2 bytes where the reference allows 18425) corrupt
#    them: a plan holds only for the kernels it was measured on.
# Skipped (77) when configure was not given --with-cmsis-nn.
. "$top_srcdir/tests/lib.sh"
VS_REF="$top_builddir/tests/backend_vs_ref"
HARNESS="$top_builddir/target-harness/harness/dmo-harness"
MODEL="$top_srcdir/tests/models/tflm_person_detect.tflite"

if ! "$VS_REF" cmsis-nn fc:in=4,units=4,dtype=i8 >/dev/null 2>"$WORK/load.err"; then
	grep -q "is not available" "$WORK/load.err" && { echo "skip: $(cat "$WORK/load.err")"; exit 77; }
	fail "cmsis-nn does not run fc: $(cat "$WORK/load.err")"
fi

mkdir "$WORK/ref"
"$HARNESS" --model "$MODEL" --random 7 --replay "$WORK/ref" >/dev/null 2>&1
expect_eq "the reference run (exit status)" 0 $?
layers=$(ls "$WORK/ref" | wc -l)
for backend in cmsis-nn cmsis-nn-dsp cmsis-nn-dsp-ac6; do
	mkdir "$WORK/$backend"
	"$HARNESS" --backend "$backend" --model "$MODEL" --random 7 --replay "$WORK/$backend" \
		--info "$WORK/$backend.csv" >/dev/null 2>"$WORK/err"
	expect_eq "$backend: the model run (exit status)" 0 $?
	expect_eq "$backend: a layer output per layer" "$layers" "$(ls "$WORK/$backend" | wc -l)"
	diff -r "$WORK/ref" "$WORK/$backend" >/dev/null &&
		echo "ok: $backend: every layer's output equals the reference kernels'" ||
		fail "$backend: a layer's output differs from the reference kernels'"
	csv_rows "$WORK/$backend.csv" | by_name '{ print v("backend") }' | sort | uniq -c |
		awk '{ printf "%s %s;", $2, $1 }' >"$WORK/ran"
	expect_eq "$backend: the layers each backend ran" "$backend $((layers - 1));ref 1;" \
		"$(cat "$WORK/ran")"
done

# Under the tool: the DSP builds (the portable one is checked op by op in
# backend_cmsis_nn.sh).
for backend in cmsis-nn-dsp cmsis-nn-dsp-ac6; do
	"$DMO" run -q -o "$WORK/run-$backend" --backend "$backend" --model "$MODEL" >"$WORK/out" 2>&1
	expect_eq "dmo run --backend $backend --model person_detect (exit status)" 0 $?
	expect_os_native "$backend" "$WORK/run-$backend" reshape
	expect_eq "$backend: layers checked" "$((layers - 1))" "$os_layers"
done

"$DMO" infer -q --arena plain --random 3 --output "$WORK/want.bin" "$MODEL" >/dev/null 2>&1
expect_eq "dmo infer, reference kernels (exit status)" 0 $?
for backend in cmsis-nn-dsp cmsis-nn-dsp-ac6; do
	"$DMO" infer -q --backend "$backend" --os "measured:$WORK/run-$backend" --random 3 \
		--output "$WORK/$backend.bin" "$MODEL" >"$WORK/infer.out" 2>&1
	expect_eq "dmo infer --backend $backend (exit status)" 0 $?
	grep -q "^kernels: $((layers - 1)) layers on $backend" "$WORK/infer.out" ||
		fail "dmo infer --backend $backend: $(cat "$WORK/infer.out")"
	cmp -s "$WORK/want.bin" "$WORK/$backend.bin" &&
		echo "ok: $backend in the arena planned from its own O_s: the reference outputs" ||
		fail "$backend in the arena planned from its own O_s: the outputs differ"
done
# The reference plan on the gcc build: refused (when dmo checks which
# kernels the O_s hold for), or else run and then visibly corrupted.
"$DMO" infer -q --backend cmsis-nn-dsp --os algorithmic --random 3 --output "$WORK/wrong.bin" \
	"$MODEL" >/dev/null 2>"$WORK/wrong.err"
case $? in
2) echo "ok: the reference plan is refused for the gcc build: $(head -1 "$WORK/wrong.err")" ;;
0) cmp -s "$WORK/want.bin" "$WORK/wrong.bin" &&
	fail "the reference plan left the gcc build's outputs intact" ||
	echo "ok: the reference plan corrupts the gcc build's outputs" ;;
*) fail "dmo infer --backend cmsis-nn-dsp --os algorithmic: $(cat "$WORK/wrong.err")" ;;
esac
finish
