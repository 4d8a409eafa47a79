#!/bin/sh
# convt_tool.sh - ONNX's ConvTranspose (convt, layout=nchw, f32;
# kernels_convt.c) joins the three-way cross-check: over a fixed-seed
# sample of small shapes, windows apart (k = stride, PaddleOCR's 2x2 stride
# 2) and overlapping (k > stride), one image or several, and every other
# spec a PyTorch decoder's form (pads, output_padding, dilation, groups),
# run under the real tool with a full trace, the tool's O_s equals the
# brute force on the recorded events, the algorithmic replay of the
# group-at-a-time order gives it too and the analytic bound stays below
# (dmo analyze), and a native run with the buffers overlapped by O_s gives
# the separate-buffer output bit for bit (three_ways, lib.sh).  Then the
# hand derivations of docs/formulas.md section 3.8, and the refusals.
. "$top_srcdir/tests/lib.sh"
COUNT=${CONVT_COUNT:-12}

awk -v count="$COUNT" 'BEGIN {
	srand(20261203)
	for (made = 0; made < count; made++) {
		n = 1 + int(rand() * 2); h = 1 + int(rand() * 4); w = 1 + int(rand() * 4)
		c = 1 + int(rand() * 4); m = 1 + int(rand() * 4)
		s = 1 + int(rand() * 2); k = s + (made % 2 ? int(rand() * 2) : 0)
		if (made % 4 < 2) {
			print "convt:in=" n "x" h "x" w "x" c ",k=" k ",stride=" s ",out_c=" m ",layout=nchw"
			continue
		}
		# pads at most half the dilated kernel each (never an empty
		# output), output_padding below the stride, 1 to 3 groups
		g = 1 + int(rand() * 3); d = 1 + int(rand() * 2); ext = (k - 1) * d
		pt = int(rand() * (ext / 2 + 1)); pb = int(rand() * (ext / 2 + 1))
		pl = int(rand() * (ext / 2 + 1)); pr = int(rand() * (ext / 2 + 1))
		print "convt:in=" n "x" h "x" w "x" c * g ",k=" k ",stride=" s ",dil=" d \
		      ",pad=" pt "x" pl "x" pb "x" pr ",out_pad=" int(rand() * s) "x" int(rand() * s) \
		      ",group=" g ",out_c=" m * g ",layout=nchw"
	}
}' >"$WORK/specs"
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"
# PyTorch's decoder layers: ConvTranspose2d(k=4, stride=2, padding=1),
# (k=3, stride=2, padding=1, output_padding=1), and a dilated one in two
# groups.
cat >>"$WORK/specs" <<'EOF'
convt:in=1x4x5x3,k=4,stride=2,pad=1x1,out_c=2,layout=nchw
convt:in=2x3x3x4,k=3,stride=2,pad=1x1,out_pad=1x1,out_c=3,layout=nchw
convt:in=1x3x4x4,k=3,stride=1,dil=2,pad=2x1,group=2,out_c=4,layout=nchw
EOF
three_ways "$WORK/specs" $((COUNT + 3))
expect_eq "layers with O_s > 0" $((COUNT + 3)) "$saved"

# Image at a time: image b's input is all read before its output is
# written, and image b+1's input lies past image b's (section 3.8).  The
# spec's in=2x3x4x5 is N=2, H=3, W=4, C=5: IB = 4 * 120 = 480 bytes; k=2
# stride 2 doubles H and W, so with out_c 3 OB = 4 * 2*6*8*3 = 1152 bytes;
# O_s = min(IB, OB) = 480.
expect_eq "convt O_s (algorithmic,analytic)" "480,480" \
	"$(formula_os "convt:in=2x3x4x5,k=2,stride=2,out_c=3,layout=nchw")"
# Groups: N G units of C/G input and M/G output channels, a unit at a
# time (section 3.8).  in=2x3x4x10 with group=2 and out_c=2: IB = 4 * 2*3*4*10
# = 960 bytes; k=3 stride 2 dil 1 pads 1 out_pad 1 give OH = 2*2 + 3 + 1 - 2
# = 6 and OW = 3*2 + 3 + 1 - 2 = 8, OB = 4 * 2*6*8*2 = 768 bytes: the output
# is the smaller, O_s = min(IB, OB) = 768.
expect_eq "grouped convt O_s (algorithmic,analytic)" "768,768" \
	"$(formula_os "convt:in=2x3x4x10,k=3,stride=2,pad=1x1,out_pad=1x1,group=2,out_c=2,layout=nchw")"
# Only the NCHW float kernel exists; SAME and an output_padding at the
# stride are refused at the spec.
"$DMO" verify convt:in=4x4x2,k=2,stride=2,out_c=2 >/dev/null 2>"$WORK/nhwc.err"
expect_eq "NHWC convt: verify exit status" 2 $?
grep -q "f32 in NCHW" "$WORK/nhwc.err" && echo "ok: the refusal names NCHW" ||
	fail "NHWC convt refusal: $(cat "$WORK/nhwc.err")"
"$DMO" verify convt:in=4x4x2,k=2,stride=2,out_c=2,pad=same,layout=nchw >/dev/null 2>"$WORK/pad.err"
expect_eq "padded convt: verify exit status" 2 $?
grep -q "convt takes valid, PHxPW or PTxPLxPBxPR" "$WORK/pad.err" && echo "ok: the refusal names the padding" ||
	fail "padded convt refusal: $(cat "$WORK/pad.err")"
"$DMO" verify convt:in=4x4x2,k=3,stride=2,out_pad=2,out_c=2,layout=nchw >/dev/null 2>"$WORK/outpad.err"
expect_eq "out_pad at the stride: verify exit status" 2 $?
grep -q "'out_pad': 2x2 must be below the stride 2x2" "$WORK/outpad.err" &&
	echo "ok: the refusal names out_pad" || fail "out_pad refusal: $(cat "$WORK/outpad.err")"
# Overlapping windows whose column buffer (4 x 64 x 60 x 60 x 100 x 100 =
# 9.2e9 bytes) would exceed 4 GiB though input (2.6 MB) and output
# (159 x 159 x 64 x 4 = 6.5 MB) are small: refused at the spec, before
# any allocation.
"$DMO" verify convt:in=100x100x64,k=60,stride=1,out_c=64,layout=nchw >/dev/null 2>"$WORK/col.err"
expect_eq "huge column buffer: verify exit status" 2 $?
grep -q "column buffer .* exceeds 4 GiB" "$WORK/col.err" && echo "ok: the refusal names the column buffer" ||
	fail "huge column buffer: $(cat "$WORK/col.err")"
finish
