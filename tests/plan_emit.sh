#!/bin/sh
# plan_emit.sh - a plan bound to its kernels and written where TFLite Micro
# reads it (issue 26, items 4 and 5):
# - dmo plan's header names the kernels its O_s hold for, and says which
#   arena its numbers are (activations only, or TFLM's whole arena);
# - --emit-tflite: the model read back by dmo (dmo model lists the plan and
#   the kernels) and by an independent FlatBuffers walk
#   (tflite_plan_walk.py: every original field unchanged, N, -1 for
#   constants, offsets aligned, no forbidden overlap for lifetimes computed
#   there, TFLM's rounded arena = dmo's number); --emit-header compiled
#   and its offsets the same;
# - the emitted plan run by dmo infer --arena model gives the plain run's
#   outputs bit for bit (person_detect, tiny_kws; vww_96 with
#   SHARED_MODELS); a plan of other kernels, or an unsafe one, refused;
# - run directories say their kernels (kernels.csv); O_s measured on other
#   kernels than --verify, dmo infer or --kernels run are refused, naming
#   both;
# - nothing written through a symbolic link; a failed write leaves nothing.
. "$top_srcdir/tests/lib.sh"
MODELS="$top_srcdir/tests/models"
PY=/usr/bin/python3
WALK="$top_srcdir/tests/tflite_plan_walk.py"

# emit NAME MODEL: emit, walk, infer with the embedded plan vs plain
# (MODEL carries no plan, except for NAME replanned).
emit() {
	name=$1 m=$2
	"$DMO" plan -q --emit-tflite "$WORK/$name.tflite" --emit-header "$WORK/$name.h" "$m" \
		>"$WORK/$name.txt" 2>&1
	expect_eq "$name: dmo plan --emit-tflite exit status" 0 $?
	grep -q "^kernels: *ref: dmo's reference kernels (TFLM reference loop order)" "$WORK/$name.txt" ||
		fail "$name: the plan header does not name the kernels: $(head -3 "$WORK/$name.txt")"
	grep -q "^peak with overlaps: *[0-9]* bytes, whole non-persistent arena" "$WORK/$name.txt" ||
		fail "$name: the arena is not said to be TFLM's whole arena"
	arena=$(awk '/^peak with overlaps/ { print $4 }' "$WORK/$name.txt")
	"$DMO" plan -q --csv --emit-tflite "$WORK/$name.again.tflite" "$m" >"$WORK/$name.csv" 2>/dev/null
	cmp -s "$WORK/$name.tflite" "$WORK/$name.again.tflite" ||
		fail "$name: two runs of dmo plan --emit-tflite wrote different files"
	# The header compiled: its offsets, one a line, beside the .tflite's.
	cat >"$WORK/$name.c" <<EOF
#include <stdio.h>
#include "$name.h"
int main(void)
{
	for (int i = 0; i < DMO_PLAN_TENSORS; i++)
		printf("%ld\n", dmo_plan_offsets[i]);
	fprintf(stderr, "%s %u\n", DMO_PLAN_KERNELS, DMO_PLAN_ARENA_BYTES);
	return 0;
}
EOF
	if ${CC:-cc} -Wall -Wextra -Werror -o "$WORK/$name.bin" "$WORK/$name.c" &&
	   "$WORK/$name.bin" >"$WORK/$name.offsets" 2>"$WORK/$name.defs"; then
		expect_eq "$name: header's kernels and arena" "ref $arena" "$(cat "$WORK/$name.defs")"
		$PY "$WALK" "$m" "$WORK/$name.tflite" "$WORK/$name.csv" "$arena" ref "$WORK/$name.offsets" ||
			fail "$name: the independent walk of the emitted model"
	else
		fail "$name: the emitted header does not compile"
	fi
	"$DMO" model "$WORK/$name.tflite" >"$WORK/$name.model"
	grep -q "^offline memory plan (OfflineMemoryAllocation, version 1, subgraph 0)" "$WORK/$name.model" &&
	grep -q "^kernels entry (dmo_kernels): kernels=ref " "$WORK/$name.model" &&
		echo "ok: $name: dmo model lists the embedded plan and its kernels" ||
		fail "$name: dmo model does not show the plan: $(tail -5 "$WORK/$name.model")"
	[ "$name" = replanned ] || ! "$DMO" model "$m" | grep -q "offline memory plan" ||
		fail "$name: dmo model lists a plan the original does not carry"
	"$DMO" infer -q --arena model --output "$WORK/$name.model.out" "$WORK/$name.tflite" \
		>"$WORK/$name.infer"
	expect_eq "$name: dmo infer --arena model exit status" 0 $?
	grep -q " ${arena}-byte arena (the model's offline plan;.*; activations only)" "$WORK/$name.infer" ||
		fail "$name: infer did not run in the embedded plan's arena: $(cat "$WORK/$name.infer")"
	"$DMO" infer -q --arena plain --output "$WORK/$name.plain.out" "$m" >/dev/null
	cmp "$WORK/$name.model.out" "$WORK/$name.plain.out" &&
		echo "ok: $name: outputs with the embedded plan = outputs without overlaps" ||
		fail "$name: outputs with the embedded plan differ"
}

emit person_detect "$MODELS/tflm_person_detect.tflite"
emit tiny_kws "$MODELS/tiny_kws_ref_model.tflite"
emit hello_world "$MODELS/tflm_hello_world_int8.tflite"
# A model that carries a plan gets it replaced, not a second one.
emit replanned "$WORK/person_detect.tflite"
if [ -n "$SHARED_MODELS" ] && [ -f "$SHARED_MODELS/tiny_vww_96_int8.tflite" ]; then
	emit vww_96 "$SHARED_MODELS/tiny_vww_96_int8.tflite"
fi
# person_detect: TFLM's rounding and alignment cost 9 bytes over the byte
# plan (36871), and the saving is 55296 - 36880 = 18416 bytes.
expect_eq "person_detect: TFLM arena with overlaps" 36880 \
	"$(awk '/^peak with overlaps/ { print $4 }' "$WORK/person_detect.txt")"
grep -q "^saving: *33.3 % (18416 bytes) = placement 0 (dmo's plan without overlaps: 55296) + overlap 18416" \
	"$WORK/person_detect.txt" || fail "person_detect saving split: $(grep saving "$WORK/person_detect.txt")"

# A plan for other kernels, or an unsafe one, is refused by dmo infer.
$PY - "$WORK/person_detect.tflite" "$WORK/other.tflite" "$WORK/unsafe.tflite" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d.count(b"kernels=ref\n") == 1
open(sys.argv[2], "wb").write(d.replace(b"kernels=ref\n", b"kernels=xyz\n"))
at = d.find(struct.pack("<iii", 1, 0, 89)) + 12
offs = list(struct.unpack_from("<89i", d, at))
offs[38] = offs[35]      # two tensors live at layer 12 on the same bytes
u = bytearray(d)
struct.pack_into("<89i", u, at, *offs)
open(sys.argv[3], "wb").write(bytes(u))
PY
# A plan whose N is not the words that follow: dmo model says so, exit 2.
$PY - "$WORK/person_detect.tflite" "$WORK/damaged.tflite" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
at = d.find(struct.pack("<iii", 1, 0, 89))
struct.pack_into("<i", d, at + 8, 90)
open(sys.argv[2], "wb").write(bytes(d))
PY
"$DMO" model "$WORK/damaged.tflite" >/dev/null 2>"$WORK/damaged.err"
expect_eq "dmo model of a damaged plan: exit status" 2 $?
grep -q "the OfflineMemoryAllocation metadata is 368 bytes, not int32 \[version, subgraph, N, N offsets\]" \
	"$WORK/damaged.err" || fail "damaged plan: $(cat "$WORK/damaged.err")"
"$DMO" infer -q --arena model "$WORK/damaged.tflite" >/dev/null 2>&1
expect_eq "dmo infer --arena model of a damaged plan: exit status" 2 $?
"$DMO" infer -q --arena model "$WORK/other.tflite" >/dev/null 2>"$WORK/other.err"
expect_eq "infer --arena model, plan of other kernels: exit status" 2 $?
grep -q "holds for xyz kernels, but dmo infer runs ref kernels" "$WORK/other.err" ||
	fail "the refusal does not name both kernels: $(cat "$WORK/other.err")"
"$DMO" infer -q --arena model "$WORK/unsafe.tflite" >/dev/null 2>"$WORK/unsafe.err"
expect_eq "infer --arena model, unsafe plan: exit status" 2 $?
grep -q "not safe for its ref kernels: tensors .* overlap beyond O_s" "$WORK/unsafe.err" ||
	fail "unsafe plan: $(cat "$WORK/unsafe.err")"
$PY "$WALK" "$MODELS/tflm_person_detect.tflite" "$WORK/unsafe.tflite" "$WORK/person_detect.csv" \
	36880 ref >/dev/null && fail "the walk does not catch the unsafe plan"

# Never through a link, never half a file.
echo original >"$WORK/target"
ln -s "$WORK/target" "$WORK/link.tflite"
"$DMO" plan -q --emit-tflite "$WORK/link.tflite" "$MODELS/tflm_person_detect.tflite" \
	>/dev/null 2>"$WORK/link.err"
expect_eq "--emit-tflite to a symbolic link: exit status" 2 $?
expect_eq "the link's target untouched" original "$(cat "$WORK/target")"
grep -q "link.tflite is a symbolic link, not a file dmo wrote" "$WORK/link.err" ||
	fail "symlink message: $(cat "$WORK/link.err")"
"$DMO" plan -q --emit-header "$WORK/link.tflite" "$MODELS/tflm_person_detect.tflite" >/dev/null 2>&1
expect_eq "--emit-header to a symbolic link: exit status" 2 $?
"$DMO" plan -q --emit-tflite "$WORK/nowhere/x.tflite" "$MODELS/tflm_person_detect.tflite" \
	>/dev/null 2>&1
expect_eq "--emit-tflite into a missing folder: exit status" 2 $?
ls -a "$WORK" | grep -q '^\.dmo-write' && fail "a temporary file was left behind"
"$DMO" plan -q --emit-tflite "$WORK/t.tflite" ds_cnn_kws >/dev/null 2>"$WORK/table.err"
expect_eq "--emit-tflite of a layer table: exit status" 2 $?
"$DMO" plan -q --emit-tflite "$WORK/t.tflite" --align 8 "$MODELS/tflm_person_detect.tflite" \
	>/dev/null 2>&1
expect_eq "--emit-tflite --align 8 (TFLM needs 16): exit status" 2 $?
"$DMO" plan -q --align 3 ds_cnn_kws >/dev/null 2>&1
expect_eq "--align 3: exit status" 2 $?
# --align 16 without emitting: the same aligned arena.
"$DMO" plan -q --align 16 "$MODELS/tflm_person_detect.tflite" >"$WORK/aligned.txt"
expect_eq "--align 16 peak" 36880 "$(awk '/^peak with overlaps/ { print $4 }' "$WORK/aligned.txt")"

# The summary with --csv and --json (--summary FILE), and the model's own
# tensor index in the table.
"$DMO" plan -q --json --summary "$WORK/summary.json" "$MODELS/tflm_person_detect.tflite" \
	>"$WORK/plan.json"
expect_eq "--json --summary exit status" 0 $?
$PY - "$WORK/summary.json" "$WORK/plan.json" "$MODELS/tflm_person_detect.tflite" <<'PY' ||
import json, sys
s = json.load(open(sys.argv[1]))[0]
want = {"kernels": "ref", "arena": "activations only", "peak_plain": 55296, "peak_no_overlap": 55296,
        "peak_dmo": 36871, "bound": 36871, "status": "optimal (= bound)", "saving_bytes": 18425,
        "saving_placement": 0, "saving_overlap": 18425}
for k, v in want.items():
    assert s[k] == v, (k, s[k], v)
rows = json.load(open(sys.argv[2]))
assert rows[0]["name"] == "input" and rows[0]["tensor"] == 88, rows[0]
print("ok: summary", s["peak_dmo"], "status", s["status"], "; table tensor index of the input 88")
PY
	fail "the --summary JSON or the table's tensor column"

# Kernels of run directories, and O_s of other kernels refused.
"$DMO" profile -q --out "$WORK/prog" -- /bin/true
expect_eq "dmo profile's kernels.csv" '"program:true","program","","",""' \
	"$(sed -n 2p "$WORK/prog/kernels.csv")"
"$DMO" profile -q --kernels cmsis-nn-dsp --out "$WORK/cmsis" -- /bin/true
expect_eq "dmo profile --kernels" '"cmsis-nn-dsp","backend","","",""' \
	"$(sed -n 2p "$WORK/cmsis/kernels.csv")"
"$DMO" profile -q --kernels nonsense --out "$WORK/bad" -- /bin/true 2>/dev/null
expect_eq "dmo profile --kernels nonsense: exit status" 2 $?
"$DMO" run -q --out "$WORK/ref" relu:in=4x4x2 >/dev/null
grep -q '^"ref","ref","","libdmokernels ' "$WORK/ref/kernels.csv" &&
	echo "ok: dmo run's kernels.csv says ref" || fail "dmo run's kernels.csv: $(cat "$WORK/ref/kernels.csv")"
m="$MODELS/tflm_person_detect.tflite"
"$DMO" plan --os "measured:$WORK/cmsis" --verify "$m" >/dev/null 2>"$WORK/mismatch.err"
expect_eq "--os measured:DIR of cmsis-nn-dsp with --verify: exit status" 2 $?
grep -q "runs ref (libdmokernels .*) kernels, but the O_s were measured on cmsis-nn-dsp" \
	"$WORK/mismatch.err" || fail "mismatch message: $(cat "$WORK/mismatch.err")"
"$DMO" infer --os "measured:$WORK/cmsis" "$m" >/dev/null 2>"$WORK/infer.err"
expect_eq "dmo infer --os measured:DIR of cmsis-nn-dsp: exit status" 2 $?
grep -q "dmo infer runs ref .* but the O_s were measured on cmsis-nn-dsp" "$WORK/infer.err" ||
	fail "infer mismatch message: $(cat "$WORK/infer.err")"
"$DMO" plan --os "measured:$WORK/cmsis" --kernels ref "$m" >/dev/null 2>"$WORK/k.err"
expect_eq "--kernels ref with O_s of cmsis-nn-dsp: exit status" 2 $?
grep -q "measured on cmsis-nn-dsp" "$WORK/k.err" || fail "--kernels mismatch: $(cat "$WORK/k.err")"
"$DMO" plan --kernels cmsis-nn --os algorithmic "$m" >/dev/null 2>"$WORK/algo.err"
expect_eq "--kernels cmsis-nn --os algorithmic: exit status" 2 $?
grep -q "measured on ref" "$WORK/algo.err" || fail "algorithmic for cmsis-nn: $(cat "$WORK/algo.err")"
"$DMO" plan --os "measured:$WORK/prog" --verify "$m" >/dev/null 2>"$WORK/prog.err"
expect_eq "--verify with O_s of a user's program: exit status" 2 $?
"$DMO" plan --kernels program:true "$m" >/dev/null 2>"$WORK/progk.err"
expect_eq "--kernels program:true (dmo cannot run it): exit status" 2 $?
grep -q "dmo cannot run program:true itself" "$WORK/progk.err" || fail "$(cat "$WORK/progk.err")"
# A run directory that does not say (from before kernels.csv, or by hand).
mkdir "$WORK/old" && cp "$WORK/ref/layers.csv" "$WORK/old/"
"$DMO" infer --os "measured:$WORK/old" "$m" >/dev/null 2>"$WORK/old.err"
expect_eq "dmo infer --os measured:DIR without kernels.csv: exit status" 2 $?
grep -q "does not say which kernels it measured" "$WORK/old.err" || fail "$(cat "$WORK/old.err")"
# --kernels of a backend: measured on it by dmo run (a temporary run
# directory), the same plan as from a run directory of the same kernels;
# --verify refused before anything runs (dmo runs only ref or TFLM).
if [ -f "$top_builddir/target-harness/backends/.libs/dmo-backend-xnnpack.so" ]; then
	"$DMO" plan -q --kernels xnnpack ds_cnn_kws >"$WORK/xnn.txt" 2>"$WORK/xnn.err"
	expect_eq "--kernels xnnpack: exit status" 0 $?
	grep -q "^kernels: *xnnpack: " "$WORK/xnn.txt" || fail "header: $(head -3 "$WORK/xnn.txt")"
	"$DMO" run -q --model ds_cnn_kws --backend xnnpack --out "$WORK/xnnrun" >/dev/null
	"$DMO" plan -q --kernels xnnpack --os "measured:$WORK/xnnrun" ds_cnn_kws >"$WORK/xnn2.txt"
	expect_eq "--kernels xnnpack: peak = from dmo run --backend xnnpack's directory" \
		"$(awk '/^peak with overlaps/ { print $4 }' "$WORK/xnn2.txt")" \
		"$(awk '/^peak with overlaps/ { print $4 }' "$WORK/xnn.txt")"
	"$DMO" plan -q --kernels xnnpack --verify ds_cnn_kws >/dev/null 2>"$WORK/xnnv.err"
	expect_eq "--kernels xnnpack --verify: exit status" 2 $?
	grep -q "measuring" "$WORK/xnnv.err" && fail "--verify refused only after measuring"
else
	echo "note: the xnnpack backend is not built: --kernels of a backend not run"
fi
# The reference kernels' own run, and no --kernels: accepted (the header says so).
"$DMO" plan --kernels ref "$m" | grep -q "^kernels: *ref: " &&
	echo "ok: --kernels ref plans with the algorithmic O_s" || fail "--kernels ref"

[ "$failures" -eq 0 ]
