# lib.sh - shared helpers for the shell tests: where things are, and
# assertions that print what differed.  Sourced, not run.
: "${top_builddir:?run through make check}"
DMO="$top_builddir/analysis/dmo"
TARGETS="$top_builddir/tests/targets"
WORK=$(mktemp -d /tmp/dmo-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

expect_eq() { # what expected actual
	if [ "$2" = "$3" ]; then echo "ok: $1 = $3"; else fail "$1: expected $2, got $3"; fi
}

expect_at_least() { # what least actual (a whole number)
	if [ "${3:-x}" -ge "$2" ] 2>/dev/null; then echo "ok: $1 = $3 (>= $2)"; else
		fail "$1: expected at least $2, got ${3:-nothing}"; fi
}

# by_name PROGRAM [AWK-OPTION...]: awk over tab-separated rows on stdin
# whose first line names the columns (csv_rows, layer_rows); PROGRAM reads
# a field by its column's name, v("status"), and never sees the header.  A
# name the header lacks is an error, never an empty value.
by_name() {
	prog=$1; shift
	awk -F'\t' "$@" 'function v(name) {
		if (!(name in col)) { print "by_name: no column " name >"/dev/stderr"; exit 2 }
		return $col[name] }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	'"$prog"
}

# csv_rows FILE: a CSV file as by_name reads it (csv_tsv: quoted fields
# holding commas stay whole).
csv_rows() { "$top_builddir/tests/csv_tsv" "$1"; }

# layer_rows RUN_DIR: its layers.csv as dmo's reader reads it (layers_tsv).
layer_rows() { "$top_builddir/tests/layers_tsv" "$1/layers.csv"; }

# field RUN_DIR LAYER_NAME COLUMN: one value of layers.csv, COLUMN a name
# (layer, status, os_bytes, in_reads, out_writes, threads, os_any_bytes...).
field() {
	layer_rows "$1" | by_name 'v("name") == n { print v(c) }' -v n="$2" -v c="$3"
}

# tag_line SOURCE TAG: the line of SOURCE holding the comment
# "ANNOTATE:TAG " (tests/targets/annotate_*.c), not the header comment's
# mention of it (lines starting " *").
tag_line() { grep -n "ANNOTATE:$2 " "$1" | grep -v '^[0-9]*: \*' | cut -d: -f1; }

# marked CSV LAYER_NAME ROLE: the lines `dmo annotate --csv` (in CSV)
# marks as the binding pair's ROLE (first or second) in the layer, as
# "FILE:LINE" with FILE's base name, sorted, space-separated.
marked() {
	csv_rows "$1" | by_name 'v("name") == n && v("binds") ~ r { f = v("file"); sub(/.*\//, "", f)
		print f ":" v("line") }' -v n="$2" -v r="$3" | sort -t: -k2n | tr '\n' ' ' | sed 's/ $//'
}

# expect_line_counts RUN_DIR CSV LAYER_NAME: every access of the layer is
# counted on some line: the per-line counts of `dmo annotate --csv` (in
# CSV) add up to layers.csv's counts of the layer.
expect_line_counts() {
	expect_eq "$3: lines' counts = layer's counts" \
		"$(field "$1" "$3" in_reads),$(field "$1" "$3" in_writes),$(field "$1" "$3" out_reads),$(field "$1" "$3" out_writes)" \
		"$(csv_rows "$2" | by_name 'v("name") == n { a += v("in_reads"); b += v("in_writes")
			c += v("out_reads"); d += v("out_writes") } END { print a + 0 "," b + 0 "," c + 0 "," d + 0 }' \
			-v n="$3")"
}

# where_file RUN_DIR LAYER_NAME: the layer's code locations file.
where_file() { printf '%s/layer-%04d-where.csv' "$1" "$(field "$1" "$2" layer)"; }

# expect_pairs RUN_DIR CSV: for each line "NAME O_S FIRST SECOND" on stdin
# (the hand-derived O_s, and the lines of the binding pair as marked
# prints them): layer NAME's O_s in layers.csv, the lines `dmo annotate
# --csv` (in CSV) marks first and second, its per-line counts, and the
# pair's own bound, OB + i - o_end from its two accesses in the where
# file, which must be the O_s the tool's reducer found.
expect_pairs() {
	while read -r name os first second; do
		expect_eq "$name O_s" "$os" "$(field "$1" "$name" os_bytes)"
		expect_eq "$name: the binding write's line" "$first" "$(marked "$2" "$name" first)"
		expect_eq "$name: the binding read's line" "$second" "$(marked "$2" "$name" second)"
		expect_line_counts "$1" "$2" "$name"
		expect_eq "$name: the pair's bound = O_s" "$os" "$(csv_rows "$(where_file "$1" "$name")" |
			by_name 'v("role") == "first" { end = v("offset") + v("size") }
				 v("role") == "second" { i = v("offset") }
				 END { b = ob + i - end; print b < 0 ? 0 : b }' -v ob="$(field "$1" "$name" out_bytes)")"
	done
}

# header_u64 FILE OFFSET: the little-endian 64-bit field at OFFSET of an
# event file's header (docs/trace-format.md: 40 event_count, 48 data_bytes).
header_u64() { od -An -tu8 -j"$2" -N8 "$1" | tr -d ' '; }

# expect_full_trace DIR LAYER_NAME: the layer's event file holds every
# event it counted (the kernels only read the input and write the output):
# its header says so, and its coded events fill the rest of the file
# (72-byte header).  Leaves the count in $events.
expect_full_trace() {
	events=$(( $(field "$1" "$2" in_reads) + $(field "$1" "$2" out_writes) ))
	trace_file=$(printf '%s/layer-%04d.events' "$1" "$(field "$1" "$2" layer)")
	expect_eq "event file's header holds every event" "$events" "$(header_u64 "$trace_file" 40)"
	expect_eq "its coded events fill the file" $((72 + $(header_u64 "$trace_file" 48))) \
		"$(stat -c %s "$trace_file")"
}

# expect_analyze_ok FILE: dmo analyze's output in FILE gives its layer the
# verdict ok, so the trace's O_s, the tool's and the algorithmic agree.
expect_analyze_ok() {
	grep -q " ok$" "$1" && echo "ok: trace O_s = tool O_s = algorithmic" ||
		fail "analyze verdict: $(cat "$1")"
}

# need_armnn_oracle: sets ORACLE to the Arm NN oracle program, or skips
# the test (77) when configure did not find Arm NN.
need_armnn_oracle() {
	ORACLE="$top_builddir/target-harness/oracle/dmo-armnn-run"
	[ -x "$ORACLE" ] || { echo "SKIP: dmo-armnn-run not built (no Arm NN)"; exit 77; }
}

# need_ort: sets ORT to the ONNX Runtime oracle (tests/ort/run.js under
# node) and TENSOR_BYTES to its TensorProto reader, or skips the test (77)
# when node or onnxruntime-node (cd tests/ort && npm ci --ignore-scripts)
# is absent.
need_ort() {
	command -v node >/dev/null 2>&1 || { echo "SKIP: node not installed"; exit 77; }
	[ -d "$top_srcdir/tests/ort/node_modules/onnxruntime-node" ] ||
		{ echo "SKIP: onnxruntime-node not installed in tests/ort"; exit 77; }
	ORT="node $top_srcdir/tests/ort/run.js"
	TENSOR_BYTES="node $top_srcdir/tests/ort/tensor_bytes.js"
}

# ort_and_dmo NAME MODEL: MODEL run on the input bytes $WORK/NAME.in by
# ONNX Runtime into $WORK/NAME.ort and by `dmo infer` into $WORK/NAME.dmo,
# each exit status checked (after need_ort).
ort_and_dmo() {
	$ORT "$2" "$WORK/$1.in" "$WORK/$1.ort" 2>/dev/null
	expect_eq "$1: ONNX Runtime exit status" 0 $?
	"$DMO" infer -q --input "$WORK/$1.in" --output "$WORK/$1.dmo" "$2" >/dev/null 2>"$WORK/$1.err"
	expect_eq "$1: dmo infer exit status" 0 $? || cat "$WORK/$1.err"
}

# stripped_same NAME: $WORK/NAME.onnx stripped of its value_info
# (tests/onnx_strip) runs in dmo infer on NAME.in to ONNX Runtime's bytes,
# NAME.ort: the shapes dmo infers give the same output.
stripped_same() {
	"$top_builddir/tests/onnx_strip" "$WORK/$1.onnx" "$WORK/$1-stripped.onnx"
	"$DMO" infer -q --input "$WORK/$1.in" --output "$WORK/$1-stripped.dmo" "$WORK/$1-stripped.onnx" \
		>/dev/null 2>&1
	expect_eq "stripped --$1: dmo infer exit status" 0 $?
	cmp -s "$WORK/$1.ort" "$WORK/$1-stripped.dmo" && echo "ok: --$1 stripped of value_info, the same output" ||
		fail "stripped --$1: the output differs"
}

# onnx_net_runs MODE: tests/onnx_net --MODE writes $WORK/MODE.onnx and its
# input MODE.in, run as ort_and_dmo does.
onnx_net_runs() {
	"$top_builddir/tests/onnx_net" --$1 "$WORK/$1.onnx" "$WORK/$1.in"
	expect_eq "onnx_net --$1 writes the model" 0 $?
	ort_and_dmo "$1" "$WORK/$1.onnx"
}

# plain_arena_same NAME MODEL INPUT OVERLAPPED: `dmo infer --arena plain`
# of MODEL on INPUT exits 0 and gives the bytes of OVERLAPPED, the output
# of dmo infer's default overlap plan.
plain_arena_same() {
	"$DMO" infer -q --arena plain --input "$3" --output "$WORK/$1.plain" "$2" >/dev/null 2>&1
	expect_eq "$1: dmo infer --arena plain exit status" 0 $?
	cmp -s "$WORK/$1.plain" "$4" && echo "ok: $1: the overlapped arena gives the plain one's bytes" ||
		fail "$1: the overlapped arena's output differs from the plain one's"
}

# ort_node_case DIR NAME: the stored inputs of ONNX's test case DIR
# (libonnx-testdata: DIR/model.onnx, DIR/test_data_set_0/input_*.pb) run
# as ort_and_dmo does.
ort_node_case() {
	# shellcheck disable=SC2086
	$TENSOR_BYTES $(ls "$1"/test_data_set_0/input_*.pb | sort) >"$WORK/$2.in"
	ort_and_dmo "$2" "$1/model.onnx"
}

# with_constants DIR NAME: ONNX's test case DIR with every graph input but
# the first made an initializer (tests/onnx_strip --constants: the
# weights, scales, exponents and axes its cases feed as inputs), into
# $WORK/NAME.onnx and its stored first input $WORK/NAME.in (after
# need_ort).
with_constants() {
	"$top_builddir/tests/onnx_strip" --constants "$1" "$1/model.onnx" "$WORK/$2.onnx"
	expect_eq "$2: onnx_strip --constants" 0 $?
	$TENSOR_BYTES "$1/test_data_set_0/input_0.pb" >"$WORK/$2.in"
}

# ort_bytes_equal NAME WHAT DISTINCT: after ort_and_dmo, $WORK/NAME.dmo
# equals ONNX Runtime's $WORK/NAME.ort byte for byte (WHAT names the bytes)
# and holds at least DISTINCT byte values (an output all saturated would
# compare equal too easily).
ort_bytes_equal() {
	cmp -s "$WORK/$1.ort" "$WORK/$1.dmo" && echo "ok: --$1: $2 equal ONNX Runtime's" ||
		fail "--$1: $(cmp -l "$WORK/$1.ort" "$WORK/$1.dmo" | wc -l) bytes differ from ONNX Runtime's"
	expect_eq "--$1: distinct output bytes >= $3" 1 \
		"$(od -An -v -tu1 "$WORK/$1.dmo" | tr -s ' ' '\n' | sort -u | awk -v n="$3" 'NF { k++ } END { print (k >= n) }')"
}

# ort_constants_case DIR NAME: with_constants DIR NAME run as ort_and_dmo
# does; prints ok and returns 0 when dmo infer gives the case's expected
# output and ONNX Runtime's, byte for byte, else fails.
ort_constants_case() {
	with_constants "$1" "$2"
	$TENSOR_BYTES "$1/test_data_set_0/output_0.pb" >"$WORK/$2.want"
	ort_and_dmo "$2" "$WORK/$2.onnx"
	if cmp -s "$WORK/$2.want" "$WORK/$2.dmo" && cmp -s "$WORK/$2.ort" "$WORK/$2.dmo"; then
		echo "ok: $2: dmo infer = ONNX's expected output = ONNX Runtime, byte for byte"
		return 0
	fi
	fail "$2: dmo $(od -An -tx1 "$WORK/$2.dmo" | head -2), expected $(od -An -tx1 "$WORK/$2.want" | head -2)"
	return 1
}

# plan_verify_bits WHAT MODEL: `dmo plan --verify MODEL` (its output in
# $WORK/plan.out) exits 0 and says the overlapped arena ran bit for bit.
plan_verify_bits() {
	"$DMO" plan --verify "$2" >"$WORK/plan.out" 2>&1
	expect_eq "$1: plan --verify exit status" 0 $?
	grep -q "^verify: .*bit for bit" "$WORK/plan.out" && echo "ok: $1: the overlapped arena runs bit for bit" ||
		fail "$1: $(tail -3 "$WORK/plan.out")"
}

# model_maps WHAT MODEL SPEC...: `dmo model MODEL` has a layer of each op
# SPEC, as its whole op spec column.
model_maps() {
	what=$1 model=$2; shift 2
	"$DMO" model "$model" >"$WORK/maps.model" 2>&1
	for spec; do
		grep -q " $spec$" "$WORK/maps.model" && echo "ok: $what maps $spec" ||
			fail "$what: no layer $spec: $(cat "$WORK/maps.model")"
	done
}

# plan_verify_weights WHAT MODEL: plan_verify_bits, and with the model's
# real weights.
plan_verify_weights() {
	plan_verify_bits "$1" "$2"
	grep -q "with the model's real weights" "$WORK/plan.out" && echo "ok: $1: verified with its real weights" ||
		fail "$1: plan --verify did not use the real weights: $(grep '^verify' "$WORK/plan.out")"
}

# run_model_analyzed WHAT MODEL LAYERS: `dmo run --model MODEL` profiles
# every layer under the tool (into $WORK/run) and `dmo analyze` finds
# LAYERS layers ok: exact = algorithmic, analytic <= exact.
run_model_analyzed() {
	"$DMO" run -q --out "$WORK/run" --model "$2" >/dev/null 2>&1
	expect_eq "$1: dmo run --model exit status" 0 $?
	"$DMO" analyze "$WORK/run" >"$WORK/analyze.out" 2>&1
	expect_eq "$1: dmo analyze exit status" 0 $?
	expect_eq "$1: layers with verdict ok" "$3" "$(grep -c " ok$" "$WORK/analyze.out")"
}

# f32_close WHAT WANT GOT [FLOOR]: the two files of little-endian float32
# values have the same count and agree within the float tolerance of the
# ONNX tests: |got - want| <= 1e-5 * max(|want|, FLOOR) (summation order and
# exp() differ between dmo's kernels and another runtime's; 1e-5 of the
# value, never tighter than 1e-5 * FLOOR absolute; FLOOR 0.1 unless given,
# larger where sums of many terms of about 1 cancel).  Prints ok or FAIL
# with the worst element; returns 1 on a mismatch.
f32_close() {
	od -An -v -tf4 "$2" | tr -s ' ' '\n' | sed '/^$/d' >"$WORK/f32_want"
	od -An -v -tf4 "$3" | tr -s ' ' '\n' | sed '/^$/d' >"$WORK/f32_got"
	if [ "$(wc -l <"$WORK/f32_want")" != "$(wc -l <"$WORK/f32_got")" ] || [ ! -s "$WORK/f32_want" ]; then
		fail "$1: $(wc -l <"$WORK/f32_want") values expected, $(wc -l <"$WORK/f32_got") given"
		return 1
	fi
	paste "$WORK/f32_want" "$WORK/f32_got" | awk -v what="$1" -v floor="${4:-0.1}" '
		{ d = $1 - $2; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1; if (m < floor) m = floor
		  r = d / m; if (r > worst) { worst = r; at = NR } }
		END { if (worst > 1e-5) { printf "FAIL: %s: value %d of %d differs by %.3g of its size\n", what, at, NR, worst; exit 1 }
		      printf "ok: %s: %d values agree (worst %.2g of the size)\n", what, NR, worst }' ||
		{ failures=$((failures + 1)); return 1; }
}

# formula_os SPEC: "algorithmic,analytic" O_s of SPEC in bytes (dmo formula).
formula_os() {
	"$DMO" formula --csv "$1" >"$WORK/formula.csv"
	csv_rows "$WORK/formula.csv" | by_name '{ print v("algorithmic_os") "," v("analytic_os") }'
}

# three_ways SPECFILE COUNT: the COUNT op specs of SPECFILE (one a line)
# run under the real tool with a full trace; checks that the tool's exact
# O_s equals tests/bruteforce_os on the recorded events (a simulated
# overlapped arena, independent of the reducer and of the algorithmic and
# analytic code), that `dmo analyze` finds exact = algorithmic and analytic
# <= exact on every layer, and that `dmo verify` runs each natively with
# its input really placed at that O_s and gets the separate-buffer output
# bit for bit.  Leaves in $saved the number of layers with O_s > 0.
three_ways() {
	"$DMO" run --out "$WORK/run" --trace=full $(cat "$1") >"$WORK/run.out" 2>&1
	expect_eq "dmo run of the sample" 0 $?
	"$DMO" analyze "$WORK/run" >"$WORK/analyze.out" 2>&1
	expect_eq "dmo analyze: exact = algorithmic and analytic <= exact on every layer" 0 $?
	expect_eq "layers with verdict ok" "$2" "$(grep -c " ok$" "$WORK/analyze.out")"
	grep -E "MISMATCH|UNSAFE" "$WORK/analyze.out" | head -5

	n=0 brute_ok=0 verify_ok=0 saved=0
	while read -r spec; do
		n=$((n + 1))
		name=$(printf 'op%d_%s' "$n" "${spec%%:*}")
		os=$(field "$WORK/run" "$name" os_bytes)
		brute=$("$top_builddir/tests/bruteforce_os" "$(printf '%s/layer-%04d.events' "$WORK/run" "$n")")
		if [ "$os" = "$brute" ]; then brute_ok=$((brute_ok + 1)); else fail "$spec: tool O_s $os, brute force $brute"; fi
		if "$DMO" verify --scan-limit 0 "$spec" >"$WORK/verify.out" 2>&1 &&
			grep -q "$os bytes (= O_s)" "$WORK/verify.out"; then
			verify_ok=$((verify_ok + 1))
		else
			fail "$spec: dmo verify at O_s $os: $(cat "$WORK/verify.out")"
		fi
		[ "$os" -gt 0 ] && saved=$((saved + 1))
	done <"$1"
	expect_eq "tool O_s = brute force on the trace" "$2" "$brute_ok"
	expect_eq "native overlapped runs at O_s identical" "$2" "$verify_ok"
}

# bytes N SEED: N pseudo-random bytes, the same for the same seed.
bytes() {
	LC_ALL=C awk -v n="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < n; i++) printf "%c", int(rand() * 256) }'
}

# profile DIR [--trace=full] -- PROGRAM...: runs dmo profile, keeps output.
profile() {
	dir=$1; shift
	"$DMO" profile --out "$dir" "$@" >"$dir.out" 2>"$dir.err"
}

# expect_refusal WHAT STATUS TEXT COMMAND...: COMMAND exits STATUS and its
# stderr holds TEXT, a fixed string (stdout and stderr are kept in
# $WORK/out, $WORK/err).  refuse NAME PATTERN COMMAND...: exit 2 and a
# line matching the basic regular expression PATTERN.  Both are
# check_refusal, which takes grep's -F or -G first.
check_refusal() {
	grep_mode=$1 what=$2 status=$3 text=$4; shift 4
	"$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	if [ $rc -eq "$status" ] && grep -q "$grep_mode" -e "$text" "$WORK/err"; then
		echo "ok: $what: $(head -1 "$WORK/err")"
	else
		fail "$what: status $rc, message '$(head -3 "$WORK/err")'"
	fi
}
expect_refusal() { check_refusal -F "$@"; }
refuse() {
	name=$1 pattern=$2; shift 2
	check_refusal -G "$name" 2 "$pattern" "$@"
}

# expect_sweep_error WHAT STATUS TEXT DMO-SWEEP-ARGUMENTS...
expect_sweep_error() {
	what=$1 status=$2 text=$3; shift 3
	expect_refusal "$what" "$status" "$text" "$DMO" sweep "$@"
}

# one_line_misuse NAME CMD PATTERN ARGS...: exit 2, nothing on stdout, on
# stderr "dmo CMD: " + a line matching PATTERN, then the hint, nothing more.
one_line_misuse() {
	name=$1 cmd=$2 pattern=$3; shift 3
	"$DMO" "$@" >"$WORK/out" 2>"$WORK/err"
	expect_eq "$name: exit status" 2 $?
	[ -s "$WORK/out" ] && fail "$name: wrote to stdout: $(cat "$WORK/out")"
	if [ "$(wc -l <"$WORK/err")" -eq 2 ] &&
		head -1 "$WORK/err" | grep -q -e "^dmo $cmd: $pattern" &&
		[ "$(tail -1 "$WORK/err")" = "try 'dmo $cmd --help'" ]; then
		echo "ok: $name: one line and the hint"
	else
		fail "$name: stderr is not 'dmo $cmd: $pattern' + hint: $(cat "$WORK/err")"
	fi
}

# is_png FILE: FILE starts with PNG's signature.
is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# png_size FILE: "WIDTH HEIGHT" from IHDR (bytes 16-23, big-endian).
png_size() {
	od -A n -t u1 -j 16 -N 8 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }'
}

# expect_os_native BACKEND RUN_DIR [OP_TO_SKIP]: each layer's O_s measured
# in RUN_DIR (layers.csv) holds natively on BACKEND for the layer's op spec,
# input and output really overlapped by it on 16 inputs, and one byte more
# changes the output wherever O_s < min(IB, OB) (tests/backend_vs_ref
# --overlap, written apart from dmo verify).  Sets $os_layers and $os_tight.
expect_os_native() {
	csv_rows "$2/layers.csv" |
		by_name '{ m = v("in_bytes") + 0 < v("out_bytes") + 0 ? v("in_bytes") : v("out_bytes")
			   if (v("op") !~ "^" skip ":") print v("op"), v("os_bytes"), m }' -v skip="${3:-}" |
		awk '{ print $1, $2, "at"; if ($2 < $3) print $1, $2 + 1, "over" }' >"$WORK/os.todo"
	"$top_builddir/tests/backend_vs_ref" --overlap "$1" <"$WORK/os.todo" >"$WORK/os.done"
	[ $? -eq 0 ] || fail "$1: backend_vs_ref --overlap failed"
	# Fields: spec, X, at|over (asked), then spec, X, same|differs (found).
	paste -d' ' "$WORK/os.todo" "$WORK/os.done" | awk '
		$3 == "at" { os++; if ($6 != "same") print "overlapped by the measured O_s " $2 ", " $1 " changes" }
		$3 == "over" { tight++; if ($6 != "differs") print "one byte over the measured O_s, " $1 " is unchanged" }
		END { print os + 0, tight + 0 >"/dev/stderr" }' >"$WORK/os.bad" 2>"$WORK/os.count"
	read -r os_layers os_tight <"$WORK/os.count"
	if [ -s "$WORK/os.bad" ]; then
		fail "$1: $(cat "$WORK/os.bad")"
	else
		echo "ok: $1: $os_layers measured O_s safe natively, $os_tight below min(IB, OB) and tight"
	fi
}

# tool_run DIR TOOL_OPTION... PROGRAM ARG...: the program under the tool
# (from VALGRIND_LIB) with --stats=yes, its run directory DIR, the tool's
# messages in DIR.err; then dmo analyze.
tool_run() {
	dir=$1; shift
	valgrind -q --stats=yes --tool=dmo --dmo-out="$dir" "$@" >/dev/null 2>"$dir.err" &&
		"$DMO" analyze "$dir" >/dev/null 2>>"$dir.err"
}

# each_counting_mode FUNCTION: FUNCTION once for each way a run counts
# instructions (a full trace in either event-file version, a summary with
# --dmo-count=yes), with $opts the tool's options for it and $tag the
# same as a name (letters and digits): the modes in which the tool tests
# compare a fast path with its --dmo-...=no run.
each_counting_mode() {
	for opts in "--dmo-trace=full" "--dmo-trace=full --dmo-trace-version=1" \
		"--dmo-trace=summary --dmo-count=yes"; do
		tag=$(echo "$opts" | tr -dc 'a-z0-9')
		"$1"
	done
}

# same_tool_runs NAME OTHER_WAY OPTIONS PROGRAM ARG...: tool_run with
# OPTIONS into $WORK/NAME-on, and with OPTIONS OTHER_WAY (a debugging
# option that turns a fast path of the tool off) into $WORK/NAME-off: the
# two run directories must hold the same files, byte for byte.
same_tool_runs() {
	name=$1 other=$2 opts=$3; shift 3
	tool_run "$WORK/$name-on" $opts "$@"
	expect_eq "$name: status" 0 $?
	tool_run "$WORK/$name-off" $opts $other "$@"
	expect_eq "$name: status with $other" 0 $?
	if diff -r -x .dmo-lock "$WORK/$name-on" "$WORK/$name-off" >"$WORK/$name.diff"; then
		echo "ok: $name: the same $(ls "$WORK/$name-on" | wc -l) files with and without $other"
	else
		fail "$name: the run directories differ: $(head -3 "$WORK/$name.diff")"
	fi
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}
