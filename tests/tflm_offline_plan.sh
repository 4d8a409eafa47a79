# tflm_offline_plan.sh - TFLM takes an offline memory plan from the model
# file, in every kernel build: the test's own writer (tflm_offline_plan.py,
# independent of dmo) adds OfflineMemoryAllocation metadata that places
# every tensor where TFLM's own planner put it; the runner then says
# offline_plan yes, TFLM places every tensor exactly there, the arena is as
# large and the outputs are unchanged.  The same plan moved up by 4096 bytes
# proves the runtime follows the file: every tensor moves by 4096, outputs
# still unchanged, and the arena grows, by at most 4096 (TFLM fits its own
# scratch buffers around the offline tensors, so a scratch buffer may take
# the 4096 bytes left free below them: the Arm Compiler 6 branch's 1x1
# convolution scratch does).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tflm_lib.sh"

head -c 9216 /dev/zero | tr '\0' '\031' >"$WORK/in.bin"
arena() { sed -n 's/^arena_used_bytes //p' "$1"; }
for k in $KERNELS; do
	run=$(tflm_runner "$k")
	"$run" --input "$WORK/in.bin" --output "$WORK/$k.out" --tensor-offsets "$WORK/$k.csv" \
		"$PERSON_DETECT" >"$WORK/$k.lines" || { fail "$k: run failed"; continue; }
	for shift in 0 4096; do
		model="$WORK/$k-$shift.tflite"
		/usr/bin/python3 "$top_srcdir/tests/tflm_offline_plan.py" "$PERSON_DETECT" \
			"$WORK/$k.csv" "$shift" "$model" || { fail "$k: the writer failed"; continue; }
		"$run" --input "$WORK/in.bin" --output "$WORK/$k-$shift.out" \
			--tensor-offsets "$WORK/$k-$shift.csv" "$model" >"$WORK/$k-$shift.lines" ||
			{ fail "$k: run with the plan +$shift failed"; continue; }
		expect_eq "$k plan +$shift: offline_plan" "offline_plan yes" \
			"$(grep '^offline_plan' "$WORK/$k-$shift.lines")"
		cmp -s "$WORK/$k.out" "$WORK/$k-$shift.out" &&
			echo "ok: $k plan +$shift: outputs unchanged" ||
			fail "$k plan +$shift: outputs changed"
		expect_eq "$k plan +$shift: tensors placed" \
			"$(awk -F, -v s="$shift" 'NR > 1 { print $1, $2 + s, $3 }' "$WORK/$k.csv")" \
			"$(awk -F, 'NR > 1 { print $1, $2, $3 }' "$WORK/$k-$shift.csv")"
		grown=$(($(arena "$WORK/$k-$shift.lines") - $(arena "$WORK/$k.lines")))
		if [ "$shift" = 0 ]; then
			expect_eq "$k plan +0: arena_used_bytes grows by" 0 "$grown"
		elif [ "$grown" -gt 0 ] && [ "$grown" -le "$shift" ]; then
			echo "ok: $k plan +$shift: arena_used_bytes grows by $grown"
		else
			fail "$k plan +$shift: arena_used_bytes grows by $grown"
		fi
	done
	# dmo's own reader takes the file with the plan as the same model.
	"$DMO" model --csv "$PERSON_DETECT" >"$WORK/model.csv"
	"$DMO" model --csv "$WORK/$k-0.tflite" >"$WORK/model-plan.csv" ||
		fail "dmo model rejects the file with the plan"
	cmp -s "$WORK/model.csv" "$WORK/model-plan.csv" && echo "ok: dmo model reads the same layers" ||
		fail "dmo model reads other layers from the file with the plan"
done
exit $((failures > 0))
