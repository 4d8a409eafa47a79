# trace_layers.sh - `--layers LIST` (issue 31): a full trace keeps event
# files for the listed layers only (numbers, ranges, names, globs), in
# dmo run, dmo run --model and dmo profile; every other layer's row is
# complete, the same as in a run that traced every layer (with --untraced
# skip, absent); the kept event files are the same events as there.  dmo plot --layer all and lists draw
# each traced layer asked for in one call.  Bad lists are refused (exit 2).
. "$top_srcdir/tests/lib.sh"
SPECS="relu:in=8x8x4 dwconv2d:in=12x12x8,k=3x3,stride=2,pad=same add:in=6x6x3 relu:in=4x4x4 \
dwconv2d:in=6x6x4,k=3x3,stride=1,pad=same"

# event_files DIR: the layer numbers of DIR's event files, one line.
event_files() {
	for f in "$1"/layer-*.events; do
		[ -f "$f" ] || continue
		n=${f##*/layer-}
		echo "${n%.events}" | sed 's/^0*//'
	done | tr '\n' ' ' | sed 's/ $//'
}
# rows DIR: every row of layers.csv but trace_events (0 where no file).
rows() {
	layer_rows "$1" | by_name '{ print v("layer"), v("name"), v("status"), v("os_bytes"),
		v("in_reads"), v("in_writes"), v("out_reads"), v("out_writes"), v("instructions"),
		v("os_any_bytes") }'
}
# same_rows_as_all NAME DIR ALL: DIR's rows are ALL's (every layer traced).
same_rows_as_all() {
	if [ "$(rows "$2")" = "$(rows "$3")" ]; then
		echo "ok: $1: every row as in the run tracing all layers ($(rows "$2" | wc -l) rows)"
	else
		fail "$1: rows differ from the full run: $(rows "$2" | diff - "$(rows "$3" >"$WORK/all.rows"; echo "$WORK/all.rows")" | head -4)"
	fi
}
# same_events NAME DIR ALL: each event file of DIR exports as ALL's does.
same_events() {
	"$DMO" export "$2" >/dev/null 2>&1 && "$DMO" export "$3" >/dev/null 2>&1 ||
		fail "$1: export failed"
	for f in "$2"/layer-*.csv; do
		cmp -s "$f" "$3/${f##*/}" && echo "ok: $1: ${f##*/} as in the full run" ||
			fail "$1: ${f##*/} differs from the full run's"
	done
}

"$DMO" run -q --out "$WORK/all" --trace=full $SPECS
expect_eq "dmo run, every layer: event files" "1 2 3 4 5" "$(event_files "$WORK/all")"
# LIST, expected layers (by hand from the names op1_relu op2_dwconv2d
# op3_add op4_relu op5_dwconv2d).
for case in "2:2" "1,4:1 4" "2-4:2 3 4" "op3_add:3" "*dwconv*:2 5" "op?_relu,5:1 4 5" \
	"1,2-3,*relu:1 2 3 4"; do
	list=${case%%:*} want=${case#*:}
	rm -rf "$WORK/some"
	"$DMO" run -q --out "$WORK/some" --trace=full --layers "$list" $SPECS
	expect_eq "--layers '$list': status" 0 $?
	expect_eq "--layers '$list': event files" "$want" "$(event_files "$WORK/some")"
	same_rows_as_all "--layers '$list'" "$WORK/some" "$WORK/all"
done
same_events "--layers '$list'" "$WORK/some" "$WORK/all"
# --untraced skip: the other layers get no row at all; the listed ones'
# rows and events are still those of the run tracing every layer.
"$DMO" run -q --out "$WORK/skip" --trace=full --layers '*dwconv*' --untraced skip $SPECS
expect_eq "--untraced skip: status" 0 $?
expect_eq "--untraced skip: event files" "2 5" "$(event_files "$WORK/skip")"
expect_eq "--untraced skip: only the listed layers' rows, as in the full run" \
	"$(rows "$WORK/all" | awk '$1 == 2 || $1 == 5')" "$(rows "$WORK/skip")"
same_events "--untraced skip" "$WORK/skip" "$WORK/all"
# Layers without events are analysed from their rows, like a summary run.
"$DMO" analyze "$WORK/some" >"$WORK/analyze.out" 2>&1
expect_eq "analyze of a partly traced run: status" 0 $?

# dmo plot --layer all and lists: one figure per traced layer asked for.
"$DMO" plot --layer all --format svg "$WORK/some" >"$WORK/plot.out" 2>"$WORK/plot.err"
expect_eq "plot --layer all: status" 0 $?
expect_eq "plot --layer all: figures" "$(for n in 1 2 3 4; do printf '%s/layer-%04d-pattern.svg\n' "$WORK/some" $n; done)" \
	"$(cat "$WORK/plot.out")"
for n in 1 2 3 4; do
	grep -q "layer $n" "$(printf '%s/layer-%04d-pattern.svg' "$WORK/some" $n)" &&
		echo "ok: plot --layer all: layer $n's figure names it" || fail "plot --layer all: layer $n's figure"
done
"$DMO" plot --layer '4-5' --kind bounds --format svg "$WORK/some" >"$WORK/plot.out" 2>"$WORK/plot.err"
expect_eq "plot --layer 4-5 (5 untraced): status 1" 1 $?
expect_eq "plot --layer 4-5: the traced one drawn" "$(printf '%s/layer-0004-bounds.svg' "$WORK/some")" \
	"$(cat "$WORK/plot.out")"
grep -q "layer 5 'op5_dwconv2d' has no event file" "$WORK/plot.err" &&
	echo "ok: plot names the untraced layer" || fail "plot: $(cat "$WORK/plot.err")"
refuse "plot: a list and --out" "--out names one figure" "$DMO" plot --layer all --out "$WORK/x.png" "$WORK/some"

# dmo run --model and dmo profile take it too.
MODEL=$top_srcdir/tests/models/tflm_hello_world_int8.tflite
"$DMO" run -q --out "$WORK/model-all" --trace=full --model "$MODEL"
"$DMO" run -q --out "$WORK/model" --trace=full --layers 2 --model "$MODEL"
expect_eq "run --model --layers 2: event files" 2 "$(event_files "$WORK/model")"
same_rows_as_all "run --model --layers 2" "$WORK/model" "$WORK/model-all"
same_events "run --model --layers 2" "$WORK/model" "$WORK/model-all"
profile "$WORK/relu" --trace=full --layers 'relu_b?ckward' -- "$TARGETS/relu"
expect_eq "profile --layers relu_b?ckward: event files" 2 "$(event_files "$WORK/relu")"
expect_eq "profile --layers: rows" 3 "$(rows "$WORK/relu" | wc -l)"

# Misuse.
for bad in 0 3-1 "1,,2" "" "2,"; do
	refuse "--layers '$bad'" "dmo run: --layers: '$bad'.* is not a layer number" \
		"$DMO" run -q --out "$WORK/bad" --trace=full --layers "$bad" relu:in=4x4x4
done
refuse "--layers without --trace=full" "--layers chooses the layers a full trace keeps" \
	"$DMO" run -q --out "$WORK/bad" --layers 1 relu:in=4x4x4
refuse "--untraced without --layers" "--untraced says what the layers --layers leaves out" \
	"$DMO" run -q --out "$WORK/bad" --trace=full --untraced skip relu:in=4x4x4
refuse "--untraced bogus" "--untraced must be summary or skip, not 'bogus'" \
	"$DMO" run -q --out "$WORK/bad" --trace=full --layers 1 --untraced bogus relu:in=4x4x4
finish
