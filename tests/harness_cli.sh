# harness_cli.sh - dmo-harness's command line, run natively (no Valgrind):
# every misuse exits 2 with its message (a failed write of a result file
# exits 1), --help prints the usage on stdout and exits 0.
. "$top_srcdir/tests/lib.sh"
HARNESS=$top_builddir/target-harness/harness/dmo-harness
TFLITE=$top_srcdir/tests/models/tflm_hello_world_int8.tflite
ONNX=$top_srcdir/tests/models/onnx_add_bcast.onnx

expect_harness() { # what expected-status expected-text arguments...
	what=$1 status=$2 text=$3; shift 3
	expect_refusal "$what" "$status" "$text" "$HARNESS" "$@"
}
expect_harness "--threads 0" 2 "--threads must be 1..256, not '0'" --threads 0 relu:in=4x4x1
expect_harness "--rounding half" 2 "--rounding 'half': expected double or single" \
	--rounding half relu:in=4x4x1
expect_harness "unknown option" 2 "unrecognized option '--nosuch'" --nosuch relu:in=4x4x1
expect_harness "--backend without a pool, --threads 2" 2 \
	"backend ref runs one thread (it has no pool of its own); --threads 2" \
	--backend ref --threads 2 relu:in=4x4x1
expect_harness "unknown backend" 2 "unknown backend 'nosuch'" --backend nosuch relu:in=4x4x1
expect_harness "--info in a missing folder" 2 "$WORK/none/info.csv: cannot write" \
	--info "$WORK/none/info.csv" relu:in=4x4x1
expect_harness "no op spec" 2 "no op spec given" --threads 2
expect_harness "bad op spec" 2 "'badop:in=1': unknown op 'badop'" badop:in=1
expect_harness "--model and op specs" 2 "give either --model or op specs, not both" \
	--model "$TFLITE" relu:in=4x4x1
expect_harness "missing model" 2 "$WORK/none.tflite: No such file or directory" \
	--model "$WORK/none.tflite"
expect_harness "real weights with --threads" 2 "runs with its real weights one thread at a time" \
	--model "$TFLITE" --threads 2
expect_harness "--output in a missing folder" 1 "$WORK/none/out.bin: cannot write" \
	--model "$TFLITE" --output "$WORK/none/out.bin"
# hello_world's first layer (0) writes 16 bytes: 1x16 int8.
expect_harness "--replay into a missing folder" 1 "$WORK/none/dmo-0000.bin: writing 16 bytes failed" \
	--model "$TFLITE" --replay "$WORK/none"
expect_harness "--zeros on an ONNX model: a warning, and it runs" 0 \
	"--input, --random and --zeros need a .tflite model (its real weights); ignored" \
	--model "$ONNX" --zeros
expect_harness "--random x" 2 "--random 'x': expected a number" --random x relu:in=4x4x1
# hello_world int8 takes one 1x1 int8 input: 1 byte, so 3 are too many.
printf abc >"$WORK/three.bin"
expect_harness "--input longer than the model's input" 2 "$WORK/three.bin: longer than the model's inputs" \
	--model "$TFLITE" --input "$WORK/three.bin"
# Each --info row is flushed as its layer starts: /dev/full refuses the first.
expect_harness "--info on a full disk" 1 "/dev/full: cannot write" --info /dev/full relu:in=4x4x1
# keyword_scrambled's second layer is an SVDF, which dmo's kernels lack.
expect_harness "a .tflite with an op dmo cannot run: a note, and it runs" 0 \
	"not with real weights (layer 2 '2_svdf': operator SVDF has no dmo kernel)" \
	--model "$top_srcdir/tests/models/tflm_keyword_scrambled_8bit.tflite"
# The wire carries names of up to 255 bytes; a layer table allows longer.
long=$(printf '%0300d' 0)
printf 'layer,name,spec,inputs\n1,%s,"relu:in=4x4x1",\n' "$long" >"$WORK/long.csv"
expect_harness "a layer name over 255 bytes" 1 "$long: dmo_layer_begin failed: the name is over 255 bytes" \
	--model "$WORK/long.csv"
# The test plugin (tests/targets/copying_relu.c) takes f32 relu only.
DMO_BACKEND_DIR="$top_builddir/tests/targets/copybackend/.libs" expect_harness \
	"a backend declining an op" 1 "op1_relu6: relu f32 only" --backend onednn relu6:in=4x4x1
DMO_BACKEND_DIR="$top_builddir/tests/targets/copybackend/.libs" expect_harness \
	"a backend whose init fails" 2 "the copying test backend has no sse4 build" \
	--backend onednn --isa sse4 relu:in=4x4x1
"$HARNESS" --help >"$WORK/help" 2>&1
expect_eq "--help: exit status" 0 $?
expect_eq "--help: usage first" "usage: dmo-harness [--threads N] [--interleave] SPEC..." \
	"$(head -1 "$WORK/help")"
finish
