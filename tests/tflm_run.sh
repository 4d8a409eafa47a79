# tflm_run.sh - dmo-tflm-run-KERNELS runs person_detect inside TensorFlow
# Lite Micro, in every kernel build configured: on TFLM's own test images
# it gives the scores TFLM's person_detection_test prints on this machine
# (person 113 / -113, no person 57 / -57: golden numbers of TFLM's own
# build), on other inputs the bytes of dmo's independent reference run
# (dmo infer); and misuse exits 2, a TFLM failure 1.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tflm_lib.sh"

# TFLM's images as its generate_cc_arrays.py hands them to the test: PIL's
# bytes of the 96x96 8-bit BMP, rows top first (the file stores them bottom
# first), the palette index of each pixel (the palette is grey, index i =
# level i, checked here), used as int8.
images="$TFLM_DIR/tensorflow/lite/micro/examples/person_detection/testdata"
for image in person no_person; do
	/usr/bin/python3 - "$images/$image.bmp" "$WORK/$image.bin" <<'PY' || fail "$image.bmp: not TFLM's 96x96 grey BMP"
import struct, sys
b = open(sys.argv[1], "rb").read()
start, = struct.unpack_from("<I", b, 10)
w, h = struct.unpack_from("<ii", b, 18)
assert (w, h, b[28]) == (96, 96, 8)
assert all(b[54 + 4 * i:57 + 4 * i] == bytes([i] * 3) for i in range(256))
rows = [b[start + 96 * r:start + 96 * (r + 1)] for r in range(96)]
open(sys.argv[2], "wb").write(b"".join(reversed(rows)))
PY
done
# Two more inputs: every pixel at the int8 maximum, and pseudo-random bytes.
head -c 9216 /dev/zero | tr '\0' '\177' >"$WORK/max.bin"
LC_ALL=C awk 'BEGIN { srand(26); for (i = 0; i < 9216; i++) printf "%c", int(rand() * 256) }' \
	>"$WORK/rand.bin"
scores() { od -An -td1 "$1" | tr -s ' ' | sed 's/^ //; s/ $//'; }

for k in $KERNELS; do
	run=$(tflm_runner "$k")
	"$run" --input "$WORK/person.bin" --output "$WORK/$k-person.out" "$PERSON_DETECT" \
		>"$WORK/$k.lines" || fail "$k: person run failed"
	expect_eq "$k person image: no person, person scores" "-113 113" \
		"$(scores "$WORK/$k-person.out")"
	"$run" --input "$WORK/no_person.bin" --output "$WORK/$k-no.out" "$PERSON_DETECT" \
		>/dev/null || fail "$k: no-person run failed"
	expect_eq "$k no-person image: scores" "57 -57" "$(scores "$WORK/$k-no.out")"
	expect_eq "$k: kernels line" "kernels $k" "$(grep '^kernels ' "$WORK/$k.lines")"
	expect_eq "$k: offline_plan line" "offline_plan no" "$(grep '^offline_plan ' "$WORK/$k.lines")"
	grep -q '^arena_used_bytes [1-9][0-9]*$' "$WORK/$k.lines" || fail "$k: no arena_used_bytes"
	grep -q '^tflm [0-9a-f]' "$WORK/$k.lines" || fail "$k: no tflm commit"
	case $k in tflm-cmsis-nn*)
		grep -q '^cmsis_nn [0-9a-f]' "$WORK/$k.lines" || fail "$k: no cmsis_nn commit" ;;
	esac
	for input in max rand; do
		"$DMO" infer -q --input "$WORK/$input.bin" --output "$WORK/ref-$input.bin" \
			"$PERSON_DETECT" >/dev/null || fail "dmo infer --input $input.bin"
		"$run" --input "$WORK/$input.bin" --output "$WORK/$k-$input.bin" "$PERSON_DETECT" \
			>/dev/null || fail "$k: $input run failed"
		cmp -s "$WORK/ref-$input.bin" "$WORK/$k-$input.bin" &&
			echo "ok: $k = dmo infer on $input.bin" ||
			fail "$k: outputs differ from dmo infer on $input.bin"
	done
	# Without --input the runner's inputs are zeros: dmo infer --zeros.
	"$DMO" infer -q --zeros --output "$WORK/ref-zeros.bin" "$PERSON_DETECT" >/dev/null
	"$run" --output "$WORK/$k-zeros.bin" "$PERSON_DETECT" >/dev/null
	cmp -s "$WORK/ref-zeros.bin" "$WORK/$k-zeros.bin" && echo "ok: $k default input = zeros" ||
		fail "$k: default input is not dmo infer --zeros"
	"$run" --info --summary "$WORK/$k.info" "$PERSON_DETECT" >"$WORK/stdout" ||
		fail "$k --info failed"
	expect_eq "$k --info --summary: stdout" "" "$(cat "$WORK/stdout")"
	cmp -s "$WORK/$k.lines" "$WORK/$k.info" && echo "ok: $k --info = the run's lines" ||
		fail "$k: --info lines differ from a run's"
done

set -- $KERNELS
run=$(tflm_runner "$1")
expect_status() { # what status command...
	what=$1 want=$2; shift 2
	"$@" >/dev/null 2>"$WORK/err"; got=$?
	if [ "$got" = "$want" ]; then echo "ok: $what exits $got: $(head -n 1 "$WORK/err")"
	else fail "$what: exit $got, expected $want"; fi
}
head -c 100 /dev/zero >"$WORK/short.bin"
expect_status "no model" 2 "$run"
expect_status "two models" 2 "$run" "$PERSON_DETECT" "$PERSON_DETECT"
expect_status "missing model" 2 "$run" "$WORK/none.tflite"
expect_status "not a model" 2 "$run" "$WORK/short.bin"
expect_status "short --input" 2 "$run" --input "$WORK/short.bin" "$PERSON_DETECT"
expect_status "bad --arena-size" 2 "$run" --arena-size 12x "$PERSON_DETECT"
expect_status "unknown option" 2 "$run" --bogus "$PERSON_DETECT"
ln -s "$WORK/target" "$WORK/link"
expect_status "--output through a link" 2 "$run" --output "$WORK/link" "$PERSON_DETECT"
[ ! -e "$WORK/target" ] && echo "ok: nothing written through the link" || fail "wrote through a link"
expect_status "arena too small for TFLM" 1 "$run" --arena-size 65536 "$PERSON_DETECT"
exit $((failures > 0))
