#!/bin/sh
# plot_render.sh - dmo plot end to end: profile the ReLU target (forwards and
# backwards) with --trace=full, render every figure kind as PNG and SVG, check
# the PNG size from its IHDR bytes, that data were drawn (tests/png_ink), that
# the SVG is a 1200x800 drawing with paths, and that misuse exits 2.
. "$top_srcdir/tests/lib.sh"
INK="$top_builddir/tests/png_ink"

# png_size FILE: "WIDTH HEIGHT" from IHDR (bytes 16-23, big-endian).
png_size() {
	od -A n -t u1 -j 16 -N 8 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }'
}

run="$WORK/relu"
profile "$run" --trace=full -- "$TARGETS/relu" || fail "profile relu: $(cat "$run.err")"

for layer in relu_forward 2; do
	for kind in pattern bounds threads; do
		png=$("$DMO" plot "$run" --layer "$layer" --kind "$kind" 2>"$WORK/err") ||
			fail "plot $layer $kind png: $(cat "$WORK/err")"
		[ -f "$png" ] || { fail "plot $layer $kind printed no PNG path ($png)"; continue; }
		expect_eq "$layer $kind PNG size" "1200 800" "$(png_size "$png")"
		set -- $("$INK" "$png")
		if [ "${3:-0}" -ge 3 ]; then echo "ok: $layer $kind ink $3/1000"
		else fail "$layer $kind: no data drawn (ink ${3:-?}/1000)"; fi

		svg="$WORK/$layer-$kind.svg"
		out=$("$DMO" plot "$run" --layer "$layer" --kind "$kind" --format svg --out "$svg" \
			2>"$WORK/err") || fail "plot $layer $kind svg: $(cat "$WORK/err")"
		expect_eq "$layer $kind SVG path printed" "$svg" "$out"
		grep -q '<svg' "$svg" && grep -q 'width="1200"' "$svg" && grep -q 'height="800"' "$svg" &&
			grep -q '</svg>' "$svg" || fail "$svg is not a 1200x800 SVG document"
		expect_eq "$layer $kind SVG has paths" yes "$(grep -q '<path' "$svg" && echo yes)"
	done
done
expect_eq "default PNG name" "$run/layer-0001-pattern.png" "$("$DMO" plot "$run")"

# Two threads (tests/targets/kernels.c handoff; values derived in
# profile_kernels.sh): the threads figure names both values, shades the
# one for any interleaving and draws one series per thread.
hand="$WORK/handoff"
profile "$hand" --trace=full -- "$TARGETS/kernels" handoff || fail "profile handoff: $(cat "$hand.err")"
"$DMO" plot "$hand" --kind threads --format svg --out "$WORK/hand.svg" >/dev/null 2>"$WORK/err" ||
	fail "plot handoff threads: $(cat "$WORK/err")"
for text in "2 threads: O_s = 32 B for any interleaving (96 B as run)" \
	"for any interleaving: O_s = 32 bytes" "OB - 96: O_s of the interleaving that ran only" \
	"thread 1" "thread 2"; do
	grep -qF "$text" "$WORK/hand.svg" && echo "ok: handoff threads SVG says '$text'" ||
		fail "handoff threads SVG lacks '$text'"
done

# A model's arena, both plans side by side (dmo plot --plan).
plan_png="$WORK/kws-plan.png"
expect_eq "plot --plan path printed" "$plan_png" \
	"$("$DMO" plot --plan ds_cnn_kws --out "$plan_png" 2>"$WORK/err")"
expect_eq "plan PNG size" "1200 800" "$(png_size "$plan_png")"
set -- $("$INK" "$plan_png")
if [ "${3:-0}" -ge 50 ]; then echo "ok: plan ink $3/1000"
else fail "plan: too little drawn (ink ${3:-?}/1000)"; fi
"$DMO" plot --plan ds_cnn_kws --os analytic --format svg --out "$WORK/kws.svg" >/dev/null &&
	grep -q '<path' "$WORK/kws.svg" && echo "ok: plan SVG with analytic O_s" ||
	fail "plan SVG with analytic O_s"

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
bad "missing directory" "not a run directory" "$WORK/nowhere"
bad "unknown layer" "no layer" "$run" --layer nosuch
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
	done
done
grep -q "INCOMPLETE layer (the program ended inside it): no O_s" "$WORK/tiny-2-pattern.svg" \
	&& echo "ok: the incomplete layer is marked" || fail "incomplete layer not marked"
grep -q "safe overlap\|O_s = [0-9]" "$WORK/tiny-2-pattern.svg" "$WORK/tiny-2-bounds.svg" \
	&& fail "the incomplete layer claims an O_s" || echo "ok: no O_s claimed for it"
grep -q "O_s = 1024 B" "$WORK/tiny-1-pattern.svg" && echo "ok: the complete layer shows its O_s" \
	|| fail "the complete layer shows no O_s"
finish
