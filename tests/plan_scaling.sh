# plan_scaling.sh - reading, printing and planning a chain of ReLU ops
# grows linearly with its length, as .tflite, ONNX and layer table
# (issue 28: a chain of 10^5 ops took 30 s to plan as .tflite, over 300 s
# as ONNX, and `dmo model` minutes, from name lookups and consumer scans
# that went over every tensor or layer for each one).
#
# Measured by instructions (Valgrind's cachegrind counts them, the same on
# every run and machine), never by time: 4 times the ops must cost under 6
# times the instructions.  Linear work gives 4 (plus a fixed start-up
# share, which only lowers it), n log n about 4.8, quadratic 16.
. "$top_srcdir/tests/lib.sh"
cd "$WORK" || exit 99
PYTHON=${PYTHON:-python3}

instructions() {
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*I *refs: *//p' | tr -d ,
}

small=1000
large=4000
for n in $small $large; do
	"$PYTHON" "$top_srcdir/tests/chain_model.py" tflite $n chain$n.tflite &&
	"$PYTHON" "$top_srcdir/tests/chain_model.py" onnx $n chain$n.onnx || exit 99
	awk -v n=$n 'BEGIN { print "layer,name,spec,inputs"; for (i = 1; i <= n; i++) print i ",r" i ",relu:in=4x4x4," }' >chain$n.csv
done
# The generated files are what they say: N layers, one row per tensor.
for kind in tflite onnx csv; do
	expect_eq "$kind chain of $small: layers" $((small + 1)) "$("$DMO" model --csv chain$small.$kind | wc -l)"
done

for kind in tflite onnx csv; do
	for command in "plan --csv" "model" "model --csv --tensors"; do
		# shellcheck disable=SC2086 # COMMAND is words
		a=$(instructions "$DMO" $command chain$small.$kind)
		# shellcheck disable=SC2086
		b=$(instructions "$DMO" $command chain$large.$kind)
		if [ -z "$a" ] || [ -z "$b" ]; then
			fail "$kind: dmo $command: no instruction count"
		elif awk -v a="$a" -v b="$b" 'BEGIN { exit !(b < 6 * a) }'; then
			echo "ok: $kind: dmo $command: $a -> $b instructions for 4x the ops"
		else
			fail "$kind: dmo $command: $a -> $b instructions for 4x the ops (not linear)"
		fi
	done
done

finish
