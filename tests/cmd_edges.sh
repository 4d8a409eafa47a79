#!/bin/sh
# cmd_edges.sh - the paths of the dmo commands that no other test takes
# (found by `make coverage`; docs/coverage.md lists what is still left):
# every usage error below as one line plus the hint with exit 2; every bad
# input or unwritable output as a message naming it with exit 2; and the
# working paths only reached here, each checked against a value derived in
# a comment next to it (never taken from dmo's own output alone).
. "$top_srcdir/tests/lib.sh"
MODELS="$top_srcdir/tests/models"
cd "$WORK" || exit 1

"$DMO" >"$WORK/out" 2>"$WORK/err"
expect_eq "dmo with no command: exit status" 2 $?
expect_eq "dmo with no command: message" "dmo: no command given|try 'dmo --help'" \
	"$(tr '\n' '|' <"$WORK/err" | sed 's/|$//')"

# Usage errors.
shapes=$(for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do printf -- '--shape t%d=1 ' $i; done)
int8=$MODELS/tflm_hello_world_int8.tflite   # input 1x1 int8: 1 byte
float=$MODELS/tflm_hello_world_float.tflite # input 1x1 float32: 4 bytes
one_line_misuse "infer without a model" infer "give exactly one MODEL$" infer
one_line_misuse "infer --random x" infer "--random 'x': expected a number$" infer --random x "$int8"
one_line_misuse "model without a model" model "give exactly one MODEL$" model
one_line_misuse "model --table --csv" model "--table is a format of its own" model --table --csv "$int8"
one_line_misuse "model --tensors without --csv" model "--tensors selects the CSV table" model --tensors "$int8"
# shellcheck disable=SC2086 # one word an option
one_line_misuse "model with 17 --shape" model "at most 16 --shape options$" model $shapes "$int8"
one_line_misuse "plan without a model" plan "give exactly one MODEL$" plan
# shellcheck disable=SC2086
one_line_misuse "plan with 17 --shape" plan "at most 16 --shape options$" plan $shapes "$int8"
one_line_misuse "run --threads 0" run "--threads must be 1\.\.[0-9]*, not '0'$" run --threads 0 relu:in=4
one_line_misuse "run with nothing to run" run "give op specs or --model, none given$" run
one_line_misuse "sweep --jobs 0" sweep "--jobs must be 1..4096, not '0'$" sweep --jobs 0 g
one_line_misuse "sweep --sample 0" sweep "--sample must be a positive count, not '0'$" sweep --sample 0 g
one_line_misuse "sweep --seed x" sweep "--seed must be a number, not 'x'$" sweep --seed x g
one_line_misuse "sweep --collect alone" sweep "--collect takes result directories" sweep --collect
one_line_misuse "sweep without a grid" sweep "give one GRID$" sweep
one_line_misuse "sweep without a formula" sweep "give one of --formula and --formula-lib$" sweep g
one_line_misuse "sweep --seed without --sample" sweep "--seed goes with --sample$" sweep --formula f --seed 3 g
one_line_misuse "verify --model with a spec" verify "--model takes no SPEC" verify --model "$int8" relu:in=4
one_line_misuse "formula --csv --json" formula "give one of --csv and --json$" formula --csv --json relu:in=4
one_line_misuse "formula with nothing" formula "give op specs or --model, none given$" formula
one_line_misuse "export without a directory" export "no run directory given$" export
one_line_misuse "analyze without a directory" analyze "no run directory given$" analyze
one_line_misuse "demo with an operand" demo "takes no operand, not 'extra'$" demo extra

# Bad input and unwritable output: a message naming it, exit 2.
printf 'abc' >short.bin
printf 'ab' >long.bin
mkdir empty
: >empty.tflite
# A program dmo profile cannot run is dmo's to say, before any run
# directory is made (not Valgrind's "command not found" after it).
: >"$WORK/not-executable"
refuse "profile: no such program" "^dmo profile: cannot run ./no-such-program: No such file or directory$" \
	"$DMO" profile --out "$WORK/np" -- ./no-such-program
refuse "profile: not in PATH" "^dmo profile: cannot run no-such-program: no such program in \\\$PATH" \
	"$DMO" profile --out "$WORK/np" -- no-such-program
refuse "profile: not executable" "^dmo profile: cannot run $WORK/not-executable: Permission denied (not an executable file" \
	"$DMO" profile --out "$WORK/np" -- "$WORK/not-executable"
[ -e "$WORK/np" ] && fail "profile made a run directory for a program it cannot run" ||
	echo "ok: no run directory for a program that cannot run"
refuse "infer: no such model" "^dmo infer: cannot read model file /nonexistent.tflite: No such file or directory$" \
	"$DMO" infer /nonexistent.tflite
# Slips get the nearest right word: a command, an option of the command.
refuse "a misspelt command" "^dmo: 'plna' is not a dmo command; did you mean 'plan'?$" "$DMO" plna x
refuse "a misspelt option" "^dmo plan: unknown option '--verfiy'; did you mean '--verify'?$" \
	"$DMO" plan --verfiy ds_cnn_kws
refuse "a misspelt op" "did you mean 'dwconv2d'?" "$DMO" formula dwconv:in=8x8x3,k=3
refuse "another tool's dtype" "did you mean 'f32'?" "$DMO" formula relu:in=2x2x2,dtype=float32
refuse "infer: a layer table" "^dmo infer: .*dmo infer runs .tflite and .onnx models (a layer table has no weights)" \
	"$DMO" infer ds_cnn_kws
refuse "infer --input: no such file" "^dmo infer: /nonexistent.bin: No such file" \
	"$DMO" infer --input /nonexistent.bin "$int8"
refuse "infer --input: 3 of 4 bytes" "^dmo infer: short.bin: too short for input '.*' (4 bytes)" \
	"$DMO" infer --input short.bin "$float"
refuse "infer --input: 2 bytes for 1" "^dmo infer: long.bin: longer than the model's inputs" \
	"$DMO" infer --input long.bin "$int8"
# full_disk COMMAND...: COMMAND where no file may grow (RLIMIT_FSIZE 0,
# SIGXFSZ ignored): every write fails (EFBIG), as on a full disk.  An
# output is a regular file (a device such as /dev/full is refused).  Its
# stderr goes through a pipe, which the limit does not cut.
full_disk() {
	{ (trap '' XFSZ; ulimit -f 0; exec "$@") 2>&1 >/dev/null; echo $? >"$WORK/full_disk.rc"; } |
		cat >&2
	return "$(cat "$WORK/full_disk.rc")"
}
refuse "infer --output in no directory" "^dmo infer: cannot write /nonexistent/x: No such file" \
	"$DMO" infer --output /nonexistent/x "$int8"
refuse "infer --output to a full disk" "^dmo infer: cannot write full.bin: File too large" \
	full_disk "$DMO" infer --output full.bin "$int8"
refuse "infer --output a device" "^dmo infer: /dev/full is not a regular file" \
	"$DMO" infer --output /dev/full "$int8"
# simple_add's output, 1x128x128x1 int8 (16 KiB), is more than stdio buffers:
# its fwrite fails, before any fclose.
refuse "infer --output of 16 KiB to a full disk" "^dmo infer: full.bin: write failed" \
	full_disk "$DMO" infer --output full.bin "$MODELS/tflm_simple_add_model.tflite"
[ -e full.bin ] && fail "infer left a partial full.bin"
refuse "infer --json --output in no directory" "^dmo infer: cannot write /nonexistent/x: No such file" \
	"$DMO" infer --json --output /nonexistent/x "$int8"
refuse "run: no such model" "^dmo run: cannot read model file" "$DMO" run --model /nonexistent.tflite
refuse "run: an empty model file" "^dmo run: empty.tflite" "$DMO" run --model empty.tflite
refuse "run --input: 3 of 4 bytes" "^dmo run: --input short.bin: not a file of the model's 4 input bytes" \
	"$DMO" run --input short.bin --model "$float"
DMO_HARNESS=/nonexistent/dmo-harness refuse "run: no harness program" \
	"^dmo run: cannot run the harness program /nonexistent/dmo-harness; build it or set DMO_HARNESS" \
	"$DMO" run relu:in=4x4x4
refuse "sweep --collect: no such directory" "^dmo sweep: /nonexistent" "$DMO" sweep --collect /nonexistent
refuse "verify: no such model" "^dmo verify: cannot read model file" "$DMO" verify --model /nonexistent.tflite
refuse "formula: no such model" "^dmo formula: cannot read model file" "$DMO" formula --model /nonexistent.tflite
refuse "export: no such directory" "^dmo export: /nonexistent does not exist (a run directory is" "$DMO" export /nonexistent
refuse "analyze: no such directory" "^dmo analyze: runf does not exist (a run directory is what dmo profile --out" \
	"$DMO" analyze runf
: >plainfile
refuse "analyze: a file" "^dmo analyze: plainfile is not a folder" "$DMO" analyze plainfile
refuse "export: no event files" "^dmo export: empty holds no layer-NNNN.events files" "$DMO" export empty
# --csv has no one-letter form in any command (docs/cli.md), export's included.
refuse "export -c" "^dmo export: unknown option -c$" "$DMO" export -c empty
refuse "demo: no such parent directory" "^dmo demo: /nonexistent/x: No such file" \
	"$DMO" demo --out /nonexistent/x
refuse "plot: no layers.csv" "^dmo plot: empty/layers.csv" "$DMO" plot empty
refuse "plot --plan: unwritable figure" "^dmo plot: " \
	"$DMO" plot --plan "$int8" --out /nonexistent/x.png
TMPDIR=/nonexistent refuse "plot with TMPDIR missing" \
	"^dmo plot: cannot create a temporary folder in /nonexistent: No such file or directory$" \
	"$DMO" plot --plan "$int8" --out x.png
DMO_PLOTS_DIR=/nonexistent refuse "plot with DMO_PLOTS_DIR missing" \
	"^dmo plot: gnuplot template /nonexistent/plan.gp not found (set DMO_PLOTS_DIR)$" \
	"$DMO" plot --plan "$int8" --out x.png
refuse "compare: an empty backend list" "^dmo compare: no backend to compare" \
	"$DMO" compare --backends , relu:in=4
refuse "model --table: two model inputs" \
	"^dmo model: --table: two model inputs ('serving_default_input_1:0', 'serving_default_input_2:0'); a layer table has one$" \
	"$DMO" model --table "$MODELS/tflm_simple_add_model.tflite"
# shellcheck disable=SC2046 # 33 options, one past the limit
one_line_misuse "profile with 33 --vg-opt" profile "at most 32 --vg-opt options$" \
	profile $(seq -f '--vg-opt=--x%g' 33) -- true
DMO_HARNESS=/nonexistent refuse "compare: no harness program" \
	"^dmo compare: cannot run the harness program /nonexistent; build it or set DMO_HARNESS" \
	"$DMO" compare --backends ref -o cmp-noharness relu:in=4x4x4
mkdir cmp-file && : >cmp-file/ref
refuse "compare: a backend's run directory is a file" \
	"^dmo compare: cannot write to output directory cmp-file/ref: Not a directory" \
	"$DMO" compare --backends ref -o cmp-file relu:in=4x4x4
: >plain
refuse "compare: an --out below a file" "^dmo compare: cannot create plain/x: Not a directory" \
	"$DMO" compare --backends ref -o plain/x relu:in=4x4x4
refuse "sweep --emit-commands: an --out below a file" "^dmo sweep: plain/x: Not a directory" \
	"$DMO" sweep 'relu:in={4,8}x4x1' --formula OB --emit-commands -o plain/x
refuse "sweep: an --out below a file" "^dmo sweep: cannot create plain/x/sweep-.*: Not a directory" \
	"$DMO" sweep 'relu:in={4,8}x4x1' --formula OB -o plain/x
# The run directory is refused before Valgrind runs: its lock a dangling
# symbolic link (never followed), its write probe a folder; a lost
# layers.csv cannot be rebuilt from a tool-layers.bin that is no file.
mkdir lockdir probedir recover && ln -s /nonexistent lockdir/.dmo-lock &&
	mkdir probedir/.dmo-write-test recover/tool-layers.bin && : >probedir/.dmo-lock
refuse "profile: the lock a dangling symlink" \
	"^dmo profile: cannot create .*/lockdir/\.dmo-lock: Too many levels of symbolic links$" \
	"$DMO" profile --out lockdir -- true
refuse "profile: the write probe a folder" \
	"^dmo profile: probedir/.dmo-write-test is a folder, not a file dmo wrote; refusing to write or remove it$" \
	"$DMO" profile --out probedir -- true
# profile's FIFO lives in a fresh folder under $TMPDIR, made before Valgrind
# starts: the message names the parent, not mkdtemp's random name.
TMPDIR=/nonexistent refuse "profile with TMPDIR missing" \
	"^dmo profile: cannot create a temporary folder in /nonexistent: No such file or directory$" \
	"$DMO" profile --out tmpdir_missing -- true
refuse "analyze: tool-layers.bin a folder" "^dmo analyze: recover/tool-layers.bin: not a regular file$" \
	"$DMO" analyze recover
# A plugin file that is no shared object.
mkdir junk && printf 'not an ELF file' >junk/dmo-backend-xnnpack.so
DMO_BACKEND_DIR="$WORK/junk" refuse "a plugin dlopen refuses" "^dmo verify: backend xnnpack: .*junk/dmo-backend-xnnpack.so" \
	"$DMO" verify --backend xnnpack relu:in=4
# dmo compare asked for that backend alone: its row says why it is
# unavailable (not a failure of dmo: exit 0, as for a backend not built).
DMO_BACKEND_DIR="$WORK/junk" "$DMO" compare -q --backends xnnpack -o cmp-junk relu:in=4x4x4 >/dev/null 2>&1
expect_eq "compare with its backend's plugin damaged: exit status" 0 $?
expect_eq "compare with its backend's plugin damaged: the row" \
	"unavailable|backend xnnpack: $WORK/junk/dmo-backend-xnnpack.so: file too short" \
	"$(csv_rows cmp-junk/compare.csv | by_name '{ print v("status") "|" v("reason") }')"
# A run directory whose layer kept no trace.
mkdir notrace
printf '%s\n%s\n' \
	"layer,name,op,in_bytes,out_bytes,in_reads,in_writes,out_reads,out_writes,steps,instructions,os_bytes,status" \
	"1,op1_relu,relu:in=4x4x4,256,256,64,0,0,64,64,1000,256,ok" >notrace/layers.csv
echo "2,op2_bad,relu:in=4x4x4,256,256" >>notrace/layers.csv
refuse "plot: a layer without its event file" "^dmo plot: layer 1 has no event file" \
	"$DMO" plot --layer op1_relu notrace
grep -q "^dmo plot: .*layers.csv.*1 bad row skipped" "$WORK/err" && echo "ok: plot names the bad row" ||
	fail "plot: the bad row is not named: $(cat "$WORK/err")"

# dmo analyze of a hand-written summary run: relu on 4 floats (16 bytes in
# and out).  An op spec it cannot use is named, and the layer keeps its
# exact O_s; a damaged backend.csv is refused with its line and field.
mkdir an
an_row() { # OP-SPEC: layers.csv of the one layer, with that op spec
	printf '%s\n%s\n' \
		"layer,name,op,in_bytes,out_bytes,in_reads,in_writes,out_reads,out_writes,steps,instructions,os_bytes,status,threads,os_any_bytes" \
		"1,op1_relu,\"$1\",16,16,4,0,0,4,4,,16,ok,1,16" >an/layers.csv
}
an_row "relu:in=bogus"
"$DMO" analyze an >an.out 2>&1
expect_eq "analyze, an op spec that does not parse: exit status" 0 $?
# (a note longer than a row's share goes under the row, indented)
grep -A1 "exact-only$" an.out | grep -q "^ *op spec ignored: bad value for 'in': 'bogus'" &&
	echo "ok: the spec's error is named" || fail "analyze: $(cat an.out)"
an_row "relu:in=1x1x8" # 32 bytes each
"$DMO" analyze an >an.out 2>&1
grep -q "op spec ignored: its buffers (32/32 bytes) differ from the layer's" an.out &&
	echo "ok: the spec's other buffers are named" || fail "analyze: $(cat an.out)"
an_row "relu:in=1x1x4"
B='name,backend,version,isa_cap,isa,implementation,cpu'
B1='op1_relu,ref,1,,compiled,loops,avx2'
backend_csv() { # WHAT TEXT FILE-CONTENT
	printf '%s' "$3" >an/backend.csv
	expect_refusal "analyze, backend.csv $1" 2 "an/backend.csv: $2" "$DMO" analyze an
}
backend_csv "empty" "line 1, field 1: empty file, no header" ""
backend_csv "with a row of 8 fields" "line 2, field 8: more fields than the header" "$B
$B1,x
"
backend_csv "with a row of 6 fields" "line 2, field 7: fewer fields than the header" "$B
op1_relu,ref,1,,compiled,loops
"
backend_csv "with a header of 65 fields" "line 1, field 65: too many fields" \
	"$B$(printf ',x%.0s' $(seq 58))
"
backend_csv "with a version of 300 characters" "line 2, field 3: too long or holds a NUL byte" "$B
op1_relu,ref,$(printf 'v%.0s' $(seq 300)),,compiled,loops,avx2
"
backend_csv "with a quote inside a field" "line 2, field 2: error parsing data" "$B
op1_relu,r\"ef,1,,compiled,loops,avx2
"
backend_csv "without its cpu column" "line 1, field 7: the header lacks a column of backend.csv" \
	"${B%,cpu}
"
backend_csv "with a quote never closed" "line 2, field 7: error parsing data" "$B
op1_relu,ref,1,,compiled,loops,\"avx2
"
rm -r an

# dmo model's tensor table names per-channel quantisation by axis and
# count: micro_speech's convolution has 8 output channels, so its int32
# bias holds 8 values (32 bytes), one scale each along axis 0.
"$DMO" model "$MODELS/tflm_micro_speech_quantized.tflite" >model.out
expect_eq "model: the conv bias's quantisation" "int32 8 32 per-channel(axis 0, 8)" \
	"$(awk '$2 == "Conv2D_bias" { print $3, $4, $5, $(NF - 2), $(NF - 1), $NF }' model.out)"

# dmo infer --arena PLAN.csv, damaged: hello_world's plan has four rows
# after its header (the input, then layers 1-3); each damage is named with
# its line (run_model.sh has the plan that runs, and other damages).
"$DMO" plan --csv "$float" >plan.csv
arena_refused() { # WHAT TEXT AWK-PROGRAM-ON-plan.csv
	awk -F, -v OFS=, "$3" plan.csv >bad-plan.csv
	expect_refusal "infer --arena, $1" 2 "dmo infer: --arena bad-plan.csv: $2" \
		"$DMO" infer --arena bad-plan.csv "$float"
}
arena_refused "another layer number" "line 3: layer '7' where this model's plan has another tensor" \
	'NR == 3 { $1 = 7 } { print }'
arena_refused "another layer name" "line 3: layer name 'x' is not this model's" \
	'NR == 3 { $2 = "x" } { print }'
arena_refused "an offset that is no number" "line 3: offset_dmo 'abc' is not a byte offset" \
	'NR == 3 { $9 = "abc" } { print }'
arena_refused "a row of 3 fields" "line 3: fewer fields than the header" \
	'NR == 3 { print $1, $2, $3; next } { print }'
arena_refused "a fifth row" "line 6: more rows than the model has activation tensors" \
	'{ print } END { print }'
arena_refused "a header of 33 fields" "line 1: too many fields" \
	'NR == 1 { for (i = 0; i < 19; i++) $0 = $0 ",x" } { print }'
arena_refused "a name of 300 characters" "line 3: a field too long or holding a NUL byte" \
	'NR == 3 { $2 = ""; for (i = 0; i < 300; i++) $2 = $2 "n" } { print }'
arena_refused "a quote inside a field" "line 3: error parsing data while strict checking enabled" \
	'NR == 3 { $2 = "a\"b" } { print }'
arena_refused "a quote never closed" "line 5: error parsing data while strict checking enabled" \
	'NR == 5 { $2 = "\"x" } { print }'

# dmo plot --plan without --out: MODEL-plan-SOURCE.png in the current directory.
"$DMO" plot --plan "$int8" --format png >"$WORK/out" 2>"$WORK/err"
expect_eq "plot --plan: exit status" 0 $?
expect_eq "plot --plan: the figure's name" tflm_hello_world_int8-plan-algorithmic.png "$(cat "$WORK/out")"
is_png tflm_hello_world_int8-plan-algorithmic.png && echo "ok: the plan figure is a PNG" || fail "no PNG plan figure"

# dmo plan stopped by --time-limit 0 before the search proves anything:
# the gap it prints is the planned peak less the lower bound, as a share
# of the bound.
"$DMO" plan --time-limit 0 "$MODELS/tiny_kws_ref_model.tflite" >plan.out
expect_eq "plan --time-limit 0: exit status" 0 $?
expect_eq "plan --time-limit 0: gap = peak - bound, in % of the bound" "ok" \
	"$(awk '/^peak with overlaps:/ { peak = $4 } /^lower bound:/ { bound = $3 }
		/^status: *best found/ { gap = $(NF - 3); pct = $(NF - 1); sub(/\(/, "", pct) }
		END { print (gap != "" && gap == peak - bound &&
			     sprintf("%.2f", 100 * gap / bound) == pct) ? "ok" : "peak " peak " bound " bound " gap " gap " " pct }' plan.out)"

# A table where 14 tensors stay live together: r1..r14 (1x1 convolutions
# over 4x4 with 1..6 channels) each read again at the end by f1..f14, so at
# layer 14 all of them and r14's input are live: more than the 12 + 1 the
# exact search tries every choice of.  No greedy plan is at the bound, so
# the search runs, and it can only say "best found", never prove optimal.
awk 'BEGIN { print "layer,name,spec,inputs"; c = 1
	for (i = 1; i <= 14; i++) { d = 1 + (i * 5) % 6; ch[i] = d
		printf "%d,r%d,\"conv2d:in=4x4x%d,k=1x1,out_c=%d\",\n", i, i, c, d; c = d }
	for (i = 1; i <= 14; i++)
		printf "%d,f%d,\"conv2d:in=4x4x%d,k=1x1,out_c=1\",r%d\n", 14 + i, i, ch[i], i }' >wide.csv
"$DMO" plan --time-limit 0 wide.csv >wide.out 2>&1
expect_eq "plan, 15 tensors live at once: exit status" 0 $?
grep -q "^status: *best found in .*, gap [1-9]" wide.out && echo "ok: best found, above the bound" ||
	fail "plan of the wide table: $(cat wide.out)"

# dmo verify --csv's scan: conv2d 3x3 SAME on 4x4x1 float32 runs safely at
# its O_s; the smallest overlap the scan finds changing the output must be
# above O_s, and is one element (4 bytes) above it if O_s is exact.
"$DMO" verify --csv --scan-limit 64 conv2d:in=4x4x1,k=3x3,stride=1,pad=same,out_c=1 >verify.csv
expect_eq "verify --scan: exit status" 0 $?
expect_eq "verify --scan: safe at O_s, changes at O_s + 4" "1 0 ok" \
	"$(csv_rows verify.csv | by_name '{ print v("safe"), v("differed"),
		(v("smallest_changing_bytes") == v("os_bytes") + 4 ? "ok" : v("os_bytes") " " v("smallest_changing_bytes")) }')"

# A backend that cannot run a layer of the model stops dmo verify --model.
if [ -f "$top_builddir/target-harness/backends/.libs/dmo-backend-openblas.so" ]; then
	refuse "verify --model: a layer the backend refuses" \
		"^dmo verify: layer 1_depthwise_conv_2d 'dwconv2d:.*': openblas backend runs f32 only" \
		"$DMO" verify --backend openblas --model "$MODELS/tflm_person_detect.tflite"
fi

# dmo verify --model on a layer without an op spec (ONNX's Sin, which dmo
# does not map): named, nothing run, exit 0.
sin_model=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}/node/test_sin/model.onnx
if [ -f "$sin_model" ]; then
	"$DMO" verify --model "$sin_model" >verify.out 2>&1
	expect_eq "verify --model with no layer to run: exit status" 0 $?
	grep -q "^no overlap: op Sin has no dmo model" verify.out && echo "ok: the unsupported layer is named" ||
		fail "verify --model: $(cat verify.out)"
fi

# Under the tool.  --isa without --backend means the reference backend with
# that cap: backend.csv says ref and avx2.
"$DMO" run -q --isa avx2 --trace=full -o isa relu:in=4x4x4 >/dev/null 2>isa.err
expect_eq "run --isa avx2: exit status" 0 $?
expect_eq "run --isa avx2: backend.csv" "ref avx2" \
	"$(csv_rows isa/backend.csv | by_name '{ print v("backend"), v("isa_cap") }')"
# Its trace, drawn or exported where nothing can be written; dmo plot first
# rebuilds a lost layers.csv from the tool's summary, and says so.
rm isa/layers.csv
refuse "plot: unwritable figure" "^dmo plot: " "$DMO" plot --out /nonexistent/x.png isa
grep -q "^dmo plot: isa/layers.csv was missing .*rebuilt from" "$WORK/err" &&
	echo "ok: plot rebuilt layers.csv" || fail "plot did not rebuild layers.csv: $(cat "$WORK/err")"
mkdir isa/layer-0001.csv
refuse "export: the CSV path is a directory" "^dmo export: isa/layer-0001.csv is a folder" \
	"$DMO" export isa
rmdir isa/layer-0001.csv
refuse "export: the CSV on a full disk" "^dmo export: .*isa/layer-0001.csv.*: File too large$" \
	full_disk "$DMO" export isa
[ -e isa/layer-0001.csv ] && fail "export left a partial isa/layer-0001.csv"
# A .tflite model with its input from a file or a seed: every layer ok.
printf '\000\000\000\077' >half.bin # 0.5f, little-endian
for source in "--input half.bin" "--random 3"; do
	# shellcheck disable=SC2086 # an option and its value
	"$DMO" run -q $source -o model --model "$float" >/dev/null 2>model.err
	expect_eq "run $source --model: exit status" 0 $?
	expect_eq "run $source --model: 3 layers, all ok" "3 3" \
		"$(layer_rows model | by_name '{ n++; ok += v("status") == "ok" } END { print n, ok }')"
done

# dmo compare over every backend whose plugin loads, here the reference and
# a plugin that copies its buffers: the others are skipped with a message,
# the copying one gets a row that says why it was not profiled.
DMO_BACKEND_DIR="$top_builddir/tests/targets/copybackend/.libs" \
	"$DMO" compare -q -o cmp relu:in=4x4x4 >cmp.out 2>cmp.err
expect_eq "compare over the loadable backends: exit status" 0 $?
# Every known backend but ref and the copying one (the names dmo lists).
known=$("$DMO" compare --backends nosuch relu:in=4 2>&1 | sed -n 's/.*(known: \(.*\))$/\1/p' | wc -w)
expect_eq "compare: backends skipped" $((known - 2)) \
	"$(grep -c "^dmo compare: skipping backend .* is not available" cmp.err)"
grep -q "^  ref .* = reference order$" cmp.out && echo "ok: ref in the reference order" ||
	fail "no ref row: $(cat cmp.out)"
grep -q "^  onednn *[a-z]*: .*cop" cmp.out && echo "ok: the copying backend's row says why" ||
	fail "no row for the copying backend: $(cat cmp.out)"
# --csv prints the compare.csv it writes.  relu:in=4x4x4 in float32 has
# IB = OB = 256 bytes, and the reference kernel reads each element right
# before it writes it: the whole input may lie under the output, O_s = 256.
"$DMO" compare -q --csv --backends ref -o cmp-csv relu:in=4x4x4 >cmp.csv 2>/dev/null
expect_eq "compare --csv: exit status" 0 $?
cmp -s cmp.csv cmp-csv/compare.csv && echo "ok: --csv prints compare.csv" ||
	fail "compare --csv: stdout differs from compare.csv"
expect_eq "compare --csv: ref's row" "ok 256 256" \
	"$(csv_rows cmp.csv | by_name '{ print v("status"), v("os_bytes"), v("algorithmic_os") }')"
# A compare where no backend gets to profile (OpenBLAS runs fc only, so it
# refuses a ReLU) still writes its table: the folder is made for compare.csv
# itself, not only by the profiler.
"$DMO" compare -q --backends openblas -o cmp-none/deep relu:in=4x4x4 >cmp-none.out 2>cmp-none.err
expect_eq "compare with nothing profiled: exit status" 0 $?
# (unavailable, where configure did not find OpenBLAS, is the same case)
expect_eq "compare with nothing profiled: openblas's row" "not profiled" \
	"$(csv_rows cmp-none/deep/compare.csv |
		by_name '{ s = v("status"); print (s == "unsupported" || s == "unavailable") ? "not profiled" : s }')"
# The same where compare.csv cannot be made (a directory) or written (a full
# disk, seen at fclose): exit 2, the file named.
mkdir -p cmp-dir/compare.csv cmp-fulldisk
ln -s /dev/full cmp-fulldisk/compare.csv
refuse "compare: compare.csv is a directory" "^dmo compare: cmp-dir/compare.csv is a folder" \
	"$DMO" compare -q --backends openblas -o cmp-dir relu:in=4x4x4
refuse "compare: compare.csv a link (to a device)" "^dmo compare: cmp-fulldisk/compare.csv is a symbolic link" \
	"$DMO" compare -q --backends openblas -o cmp-fulldisk relu:in=4x4x4
# A harness that runs and records nothing (/bin/true): the row says that
# profiling failed, and since dmo could not do its work the exit is 2.
DMO_HARNESS=/bin/true "$DMO" compare -q --backends ref -o cmp-true relu:in=4x4x4 >cmp-true.out 2>&1
expect_eq "compare with a harness that records nothing: exit status" 2 $?
expect_eq "compare with a harness that records nothing: ref's row" \
	"failed|profiling under the tool failed (no layer, exit 0; see cmp-true/ref)" \
	"$(csv_rows cmp-true/compare.csv | by_name '{ print v("status") "|" v("reason") }')"
# Output that never reached its file is a failure, as coreutils' close_stdout
# has it: with stdout on /dev/full (every write fails with ENOSPC) each
# command that prints exits 2 and says so, instead of exit 0 with the
# table lost.
for args in "--help" "--version" "formula relu:in=4x4x4" "model $int8" "compare -q --csv --backends ref -o cmp-full relu:in=4x4x4"; do
	# shellcheck disable=SC2086 # one word an argument
	"$DMO" $args >/dev/full 2>"$WORK/err"
	expect_eq "dmo $args >/dev/full: exit status" 2 $?
	grep -q "write error on standard output" "$WORK/err" && echo "ok: dmo $args >/dev/full: said so" ||
		fail "dmo $args >/dev/full: no write error in: $(cat "$WORK/err")"
done
finish
