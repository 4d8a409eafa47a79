#!/bin/sh
# plot_render.sh - dmo plot end to end: profile the ReLU target (forwards and
# backwards) with --trace=full, render every figure kind as PNG and SVG, check
# the PNG size from its IHDR bytes, that data were drawn inside the plot
# frame in each series' colour and nothing is cut off at the image's edges
# (tests/png_ink), that the SVG is a 1200x800
# drawing with paths whose O_s labels kept their underscore and whose texts
# neither overlap nor leave the canvas (tests/svg_text.awk), and that misuse
# exits 2.  The arena plan and a sweep's figure get the same checks.
. "$top_srcdir/tests/lib.sh"
INK="$top_builddir/tests/png_ink"

run="$WORK/relu"
profile "$run" --trace=full -- "$TARGETS/relu" || fail "profile relu: $(cat "$run.err")"

# expect_colour WHAT PNG RRGGBB MIN: at least MIN data pixels of that hue.
expect_colour() {
	set -- "$1" "$("$INK" "$2" "$3" | cut -d' ' -f5)" "$3" "$4"
	if [ "${2:-0}" -ge "$4" ]; then echo "ok: $1: $2 pixels of #$3"
	else fail "$1: ${2:-no} pixels of #$3, expected at least $4"; fi
}

# layout_ok WHAT SVG: no text reaches outside the canvas, no two overlap.
layout_ok() {
	bad=$(awk -f "$top_srcdir/tests/svg_text.awk" "$2")
	if [ -z "$bad" ]; then echo "ok: $1: no text clipped or overlapping"
	else fail "$1: $bad"; fi
}

# The colours of plots/: reads R(I) and minR; writes W(O) and maxW; thread 1
# (threads.gp's palette, by thread id), thread 2.
READS=1f5fd0 WRITES=d62728 THREAD1=ff7f0e THREAD2=2ca02c
for layer in relu_forward 2; do
	for kind in pattern bounds threads; do
		png=$("$DMO" plot "$run" --layer "$layer" --kind "$kind" 2>"$WORK/err") ||
			fail "plot $layer $kind png: $(cat "$WORK/err")"
		[ -f "$png" ] || { fail "plot $layer $kind printed no PNG path ($png)"; continue; }
		expect_eq "$layer $kind PNG size" "1200 800" "$(png_size "$png")"
		set -- $("$INK" "$png")
		if [ "${3:-0}" -ge 3 ]; then echo "ok: $layer $kind ink $3/1000"
		else fail "$layer $kind: no data drawn (ink ${3:-?}/1000)"; fi
		expect_eq "$layer $kind PNG: pixels cut off at its edges" 0 "${4:-?}"
		# Forwards, ReLU writes each output byte right after reading the
		# input byte drawn at the same place: the reads must still show
		# (about 5000 pixels of them; hidden under the writes, about 0).
		case $kind in
		pattern | bounds)
			expect_colour "$layer $kind reads/minR visible" "$png" $READS 1000
			expect_colour "$layer $kind writes/maxW visible" "$png" $WRITES 300 ;;
		threads) expect_colour "$layer threads: thread 1" "$png" $THREAD1 1000 ;;
		esac

		svg="$WORK/$layer-$kind.svg"
		out=$("$DMO" plot "$run" --layer "$layer" --kind "$kind" --format svg --out "$svg" \
			2>"$WORK/err") || fail "plot $layer $kind svg: $(cat "$WORK/err")"
		expect_eq "$layer $kind SVG path printed" "$svg" "$out"
		grep -q '<svg' "$svg" && grep -q 'width="1200"' "$svg" && grep -q 'height="800"' "$svg" &&
			grep -q '</svg>' "$svg" || fail "$svg is not a 1200x800 SVG document"
		expect_eq "$layer $kind SVG has paths" yes "$(grep -q '<path' "$svg" && echo yes)"
		# Enhanced text would have made the s of O_s a subscript.
		expect_eq "$layer $kind SVG says O_s" yes "$(grep -q 'O_s = [0-9]' "$svg" && echo yes)"
		layout_ok "$layer $kind SVG" "$svg"
	done
done
expect_eq "default PNG name" "$run/layer-0001-pattern.png" "$("$DMO" plot "$run")"

# Two threads (tests/targets/kernels.c handoff; values derived in
# profile_kernels.sh): the threads figure names both values, shades the
# safe one (any split; here it equals the any-interleaving value, 32) and
# draws one series per thread.
hand="$WORK/handoff"
profile "$hand" --trace=full -- "$TARGETS/kernels" handoff || fail "profile handoff: $(cat "$hand.err")"
"$DMO" plot "$hand" --kind threads --format svg --out "$WORK/hand.svg" >/dev/null 2>"$WORK/err" ||
	fail "plot handoff threads: $(cat "$WORK/err")"
"$DMO" plot "$hand" --kind threads --out "$WORK/hand.png" >/dev/null 2>"$WORK/err" ||
	fail "plot handoff threads png: $(cat "$WORK/err")"
layout_ok "handoff threads SVG" "$WORK/hand.svg"
expect_eq "handoff PNG: pixels cut off at its edges" 0 "$("$INK" "$WORK/hand.png" | cut -d' ' -f4)"
expect_colour "handoff: thread 1 drawn" "$WORK/hand.png" $THREAD1 300
expect_colour "handoff: thread 2 drawn" "$WORK/hand.png" $THREAD2 300
for text in "2 threads, 2 alive: O_s = 32 B (any-split; 96 B as run)" \
	"safe (any-split): [OB - O_s, OB], O_s = 32 B" \
	"OB - 96: O_s of the interleaving that ran only" "thread 1" "thread 2"; do
	grep -qF "$text" "$WORK/hand.svg" && echo "ok: handoff threads SVG says '$text'" ||
		fail "handoff threads SVG lacks '$text'"
done

# The golden layer on two threads (3 M events, decimated): envelopes per
# thread and per access kind, both threads' and both kinds' bands drawn, and
# a subtitle that ran off both edges of the PNG on one line (now three).
golden="$WORK/golden"
"$DMO" run --out "$golden" --trace=full --threads 2 --interleave \
	'dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same' >/dev/null 2>"$WORK/err" ||
	fail "run threaded golden layer: $(cat "$WORK/err")"
for kind in threads pattern; do
	"$DMO" plot "$golden" --kind $kind --out "$WORK/golden-$kind.png" >/dev/null 2>"$WORK/err" ||
		fail "plot golden $kind: $(cat "$WORK/err")"
	set -- $("$INK" "$WORK/golden-$kind.png" $THREAD1 $THREAD2 $READS $WRITES)
	expect_eq "golden $kind PNG: pixels cut off at its edges" 0 "${4:-?}"
	if [ $kind = threads ]; then
		[ "${5:-0}" -ge 1000 ] && [ "${6:-0}" -ge 1000 ] &&
			echo "ok: golden threads: $5 and $6 pixels of threads 1 and 2" ||
			fail "golden threads: ${5:-?} and ${6:-?} pixels of threads 1 and 2"
	else
		[ "${7:-0}" -ge 1000 ] && [ "${8:-0}" -ge 300 ] &&
			echo "ok: golden pattern: $7 pixels of reads, $8 of writes" ||
			fail "golden pattern: ${7:-?} pixels of reads, ${8:-?} of writes"
	fi
done

# A model's plan: live bytes per layer and both arena maps (dmo plot --plan).
plan_png="$WORK/kws-plan.png"
expect_eq "plot --plan path printed" "$plan_png" \
	"$("$DMO" plot --plan ds_cnn_kws --out "$plan_png" 2>"$WORK/err")"
expect_eq "plan PNG size" "1200 1000" "$(png_size "$plan_png")"
set -- $("$INK" "$plan_png")
if [ "${3:-0}" -ge 20 ]; then echo "ok: plan ink $3/1000"
else fail "plan: too little drawn (ink ${3:-?}/1000)"; fi
expect_eq "plan PNG: pixels cut off at its edges" 0 "${4:-?}"
"$DMO" plot --plan ds_cnn_kws --os analytic --format svg --out "$WORK/kws.svg" >/dev/null &&
	grep -q '<path' "$WORK/kws.svg" && echo "ok: plan SVG with analytic O_s" ||
	fail "plan SVG with analytic O_s"
layout_ok "plan SVG" "$WORK/kws.svg"

# A sweep's residual figure (dmo sweep): the formula OB is tight for 1x1
# kernels (O_s = OB, residual 0, drawn green) and unsafe for 3x3 ones
# (red), both drawn; the formula is in its title.
"$DMO" sweep 'dwconv2d:in={4,7}x5x1,k={1,3}x{1,3},pad=same' --formula OB --out "$WORK/sweep" \
	>"$WORK/sweep.out" 2>&1
expect_eq "sweep with unsafe configurations exits" 1 $?
sweep_png=$(echo "$WORK"/sweep/sweep-*/sweep.png)
expect_eq "sweep PNG size" "1200 800" "$(png_size "$sweep_png")"
expect_eq "sweep PNG: pixels cut off at its edges" 0 "$("$INK" "$sweep_png" | cut -d' ' -f4)"
expect_colour "sweep: tight points" "$sweep_png" 2ca02c 20
expect_colour "sweep: unsafe points" "$sweep_png" $WRITES 50
"$DMO" plot --sweep "${sweep_png%/sweep.png}" --format svg --out "$WORK/sweep.svg" >/dev/null \
	2>"$WORK/err" || fail "plot --sweep: $(cat "$WORK/err")"
grep -q "residual of the formula OB against the exact O_s" "$WORK/sweep.svg" &&
	echo "ok: the sweep figure names its formula" || fail "the sweep figure lacks its formula"
layout_ok "sweep SVG" "$WORK/sweep.svg"

# Misuse: exit 2 with a message.
bad() { # what expected-message-part args...
	what=$1 msg=$2; shift 2
	"$DMO" plot "$@" >/dev/null 2>"$WORK/err"
	rc=$?
	expect_eq "$what exits" 2 "$rc"
	grep -q -- "$msg" "$WORK/err" || fail "$what: message lacks '$msg': $(head -1 "$WORK/err")"
}
bad "unknown option" "unknown option '--bogus'" "$run" --bogus
bad "bad kind" "--kind" "$run" --kind pie
bad "bad format" "--format" "$run" --format jpg
bad "no directory" "no run directory"
bad "missing directory" "nowhere does not exist (a run directory is" "$WORK/nowhere"
bad "unknown layer" "has no layer 'nosuch': it has layers 1 to 3" "$run" --layer nosuch
bad "layer 0" "there is no layer 0: layers count from 1; .* has layers 1 to 3" "$run" --layer 0
bad "layer past the last" "has no layer '7': it has layers 1 to 3" "$run" --layer 7
bad "misspelt layer name" "has no layer 'relu_forwrd'; did you mean 'relu_forward'?" "$run" --layer relu_forwrd
bad "--plan with a directory" "--plan takes a model" --plan ds_cnn_kws "$run"
bad "--plan of an unknown model" "no model named" --plan nosuchmodel
bad "--os without --plan" "--os goes with --plan" "$run" --os analytic
summary="$WORK/summary"
profile "$summary" -- "$TARGETS/relu" || fail "profile relu (summary)"
bad "no event file" "profile with --trace=full" "$summary"
# Layers of one or two events (a degenerate time or offset range) are drawn;
# an incomplete layer is marked as such and claims no O_s.
profile "$WORK/tiny" --trace=full -- "$TARGETS/misuse" exit-mid-layer
for l in 1 2; do
	for kind in pattern bounds threads; do
		"$DMO" plot --layer $l --kind $kind --format svg --out "$WORK/tiny-$l-$kind.svg" \
			"$WORK/tiny" >/dev/null 2>"$WORK/tiny.err"
		expect_eq "layer $l ($(field "$WORK/tiny" "$([ $l = 1 ] && echo before || echo dying)" in_reads) read) $kind: status" \
			0 $?
		layout_ok "layer $l $kind SVG" "$WORK/tiny-$l-$kind.svg"
	done
done
grep -q "INCOMPLETE layer (the program ended inside it): no O_s" "$WORK/tiny-2-pattern.svg" \
	&& echo "ok: the incomplete layer is marked" || fail "incomplete layer not marked"
grep -q "safe overlap\|O_s = [0-9]" "$WORK/tiny-2-pattern.svg" "$WORK/tiny-2-bounds.svg" \
	&& fail "the incomplete layer claims an O_s" || echo "ok: no O_s claimed for it"
grep -q "O_s = 1024 B" "$WORK/tiny-1-pattern.svg" && echo "ok: the complete layer shows its O_s" \
	|| fail "the complete layer shows no O_s"
finish
