# cli_conventions.sh - the conventions every dmo command keeps
# (docs/cli.md), checked over the command list `dmo --help` prints, so a
# new command is checked without touching this file: --help on stdout with
# exit 0, --version, an unknown option or a missing value as one line
# "dmo CMD: ..." plus the --help hint with exit 2, every option the help
# lists known to the parser, and --help to a full disk failing.
. "$top_srcdir/tests/lib.sh"

version=$("$DMO" --version)
echo "$version" | grep -qx "dmo [0-9][0-9.]*" && echo "ok: dmo --version: $version" ||
	fail "dmo --version: $version"

"$DMO" nosuch >"$WORK/out" 2>"$WORK/err"
expect_eq "dmo nosuch: exit status" 2 $?
expect_eq "dmo nosuch: message" "dmo: 'nosuch' is not a dmo command|try 'dmo --help'" \
	"$(tr '\n' '|' <"$WORK/err" | sed 's/|$//')"

commands=$("$DMO" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
expect_eq "dmo --help lists the commands" 16 "$(echo "$commands" | wc -l)"

for cmd in $commands; do
	"$DMO" "$cmd" --help >"$WORK/help" 2>"$WORK/err"
	expect_eq "$cmd --help: exit status" 0 $?
	[ -s "$WORK/err" ] && fail "$cmd --help wrote to stderr: $(cat "$WORK/err")"
	head -1 "$WORK/help" | grep -q "^Usage: dmo $cmd" || fail "$cmd --help: first line $(head -1 "$WORK/help")"
	grep -q "^Exit status:" "$WORK/help" || fail "$cmd --help: no exit status"
	"$DMO" "$cmd" -h | cmp -s - "$WORK/help" || fail "$cmd -h differs from --help"

	expect_eq "$cmd --version" "$version" "$("$DMO" "$cmd" --version)"
	one_line_misuse "$cmd --no-such-option" "$cmd" "unknown option '--no-such-option'$" \
		"$cmd" --no-such-option
	one_line_misuse "$cmd -Z" "$cmd" "unknown option -Z$" "$cmd" -Z
	one_line_misuse "$cmd --help=x" "$cmd" "option '--help=x' takes no value$" "$cmd" --help=x

	# Every option the help lists is one the parser knows.  --version
	# after it ends the run before anything is done; a value the option
	# refuses is a usage error too, never "unknown option".
	awk '/^ +(-[A-Za-z], )?--[a-z]/ { match($0, /--[a-z][a-z-]*/)
		rest = substr($0, RSTART + RLENGTH)
		print substr($0, RSTART + 2, RLENGTH - 2), (rest ~ /^ [^ ]/ ? "VALUE" : "") }' \
		"$WORK/help" >"$WORK/options"
	[ -s "$WORK/options" ] || fail "$cmd --help lists no option"
	while read -r name arg; do
		[ "$name" = help ] || [ "$name" = version ] && continue
		if [ -n "$arg" ]; then set -- "--$name=1"; else set -- "--$name"; fi
		"$DMO" "$cmd" "$@" --version >/dev/null 2>"$WORK/err"
		grep -q "unknown option" "$WORK/err" && fail "$cmd: its help lists $1, its parser does not know it"
		# One needing a value says so when it gets none.
		if [ -n "$arg" ]; then
			"$DMO" "$cmd" "--$name" >/dev/null 2>"$WORK/err"
			grep -q "^dmo $cmd: option '--$name' needs a value$" "$WORK/err" ||
				fail "$cmd --$name without a value: $(cat "$WORK/err")"
		fi
	done <"$WORK/options"
	echo "ok: $cmd: $(wc -l <"$WORK/options") options of its help known to its parser"

	if [ -w /dev/full ]; then
		"$DMO" "$cmd" --help >/dev/full 2>/dev/null
		expect_eq "$cmd --help to a full disk: exit status" 2 $?
	fi
done

# Sizes are dmo's to check: Valgrind never starts with a bad one.
one_line_misuse "profile --max-mem foo" profile "--max-mem takes a size" \
	profile --out "$WORK/p" --max-mem foo -- true
one_line_misuse "profile --max-mem 1M" profile "--max-mem takes a size of at least 2M" \
	profile --out "$WORK/p" --max-mem 1M -- true
one_line_misuse "run --max-mem 99999999999999999999" run "--max-mem takes a size" \
	run --out "$WORK/p" --max-mem 99999999999999999999 relu:in=4
[ -e "$WORK/p" ] && fail "a run directory was made for a refused --max-mem"
one_line_misuse "verify --overlap -1" verify "--overlap '-1' is not a byte count" \
	verify --overlap -1 relu:in=4

# Layers count from 1 everywhere, as the tool numbers a run's layers.csv:
# the first layer of ds_cnn_kws (conv1) is layer 1 in dmo model and dmo plan.
expect_eq "dmo model --csv: conv1's layer number" 1 \
	"$("$DMO" model --csv ds_cnn_kws | csv_rows /dev/stdin | by_name 'v("name") == "conv1" { print v("layer") }')"
expect_eq "dmo plan --csv: conv1's layer number and live range" "1 1-2" \
	"$("$DMO" plan --csv ds_cnn_kws | csv_rows /dev/stdin |
		by_name 'v("name") == "conv1" { print v("layer"), v("live_from") "-" v("live_to") }')"

# The layer-table file counts the same way: conv1 is row 1 of the shipped
# table, and dmo model --table writes the tables that way too.
expect_eq "ds_cnn_kws.csv: conv1's layer number" 1 \
	"$(csv_rows "$top_srcdir/target-harness/models/ds_cnn_kws.csv" | by_name 'v("name") == "conv1" { print v("layer") }')"
"$DMO" model --table "$top_srcdir/tests/models/tflm_hello_world_float.tflite" >"$WORK/table.csv" 2>/dev/null
expect_eq "dmo model --table: layers of hello_world" "1 2 3" \
	"$(csv_rows "$WORK/table.csv" | by_name '{ printf "%s%s", sep, v("layer"); sep = " " } END { print "" }')"

# dmo analyze on a summary-only run (no event files): it names no curves
# it did not write, writes penalty_pct as dmo formula --csv does, and
# counts failed layers, not verdicts.  The layer: the golden dwconv with the
# exact O_s the tool measures for it (docs/definitions.md), so only the analytic bound
# has a penalty; then the same layer with a wrong exact O_s: one failure.
GOLDEN=dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same
golden_run() { # DIR OS_BYTES
	mkdir -p "$1"
	printf '%s\n%s\n' \
		"layer,name,op,in_bytes,out_bytes,in_reads,in_writes,out_reads,out_writes,steps,instructions,os_bytes,status" \
		"1,golden,\"$GOLDEN\",4816896,1204224,1,0,0,1,1,1,$2,ok" >"$1/layers.csv"
	printf 'name,backend,version,isa_cap,isa,implementation,cpu\ngolden,ref,v,,x,y,z\n' \
		>"$1/backend.csv" # the reference kernel: its values must agree
}
golden_run "$WORK/summary" 1204224
"$DMO" analyze "$WORK/summary" >"$WORK/analyze.out" 2>"$WORK/analyze.err"
expect_eq "analyze summary-only run: exit status" 0 $?
grep -q "curves" "$WORK/analyze.out" && ! grep -q "no curves" "$WORK/analyze.out" &&
	fail "analyze names curves it did not write: $(tail -1 "$WORK/analyze.out")"
ls "$WORK/summary" | grep -q curves && fail "analyze wrote curves without an event file"
expect_eq "analysis.csv penalty_pct = dmo formula --csv penalty_pct" \
	"$("$DMO" formula --csv "$GOLDEN" | csv_rows /dev/stdin | by_name '{ print v("penalty_pct") }')" \
	"$(csv_rows "$WORK/summary/analysis.csv" | by_name '{ print v("penalty_pct") }')"
"$DMO" analyze --csv "$WORK/summary" >"$WORK/analyze.csv"
expect_eq "analyze --csv prints analysis.csv" 0 "$(cmp -s "$WORK/analyze.csv" "$WORK/summary/analysis.csv"; echo $?)"
# --json for scripts: the golden layer's numbers of docs/definitions.md.
expect_eq "formula --json: golden exact and analytic O_s" "1204224 1193376 0.9008" \
	"$("$DMO" formula --json "$GOLDEN" | python3 -c 'import json, sys
r = json.load(sys.stdin)[0]; print(r["algorithmic_os"], r["analytic_os"], r["penalty_pct"])')"
golden_run "$WORK/wrong" 1204000
"$DMO" analyze "$WORK/wrong" >/dev/null 2>"$WORK/analyze.err"
expect_eq "analyze, exact O_s off: exit status" 1 $?
expect_eq "analyze, exact O_s off: message" "dmo analyze: 1 of 1 layer failed its verdict" \
	"$(cat "$WORK/analyze.err")"

# --csv where a table is printed, header as docs/cli.md and the code say.
# relu:in=1x1x8 is 8 f32 elements: IB = OB = 32 bytes; an elementwise op reads
# each element before writing it, so the whole buffer is shared: O_s = 32.
VERIFY_HEADER="layer,name,spec,in_bytes,out_bytes,os_bytes,overlap_bytes,max_overlap_bytes,safe,runs,differed,smallest_changing_bytes"
"$DMO" verify --csv relu:in=1x1x8 >"$WORK/verify.csv"
expect_eq "verify --csv: exit status" 0 $?
expect_eq "verify --csv: header" "$VERIFY_HEADER" "$(head -1 "$WORK/verify.csv")"
expect_eq "verify --csv: relu:in=1x1x8" "relu:in=1x1x8 32 32 32 1" \
	"$(csv_rows "$WORK/verify.csv" | by_name '{ print v("spec"), v("in_bytes"), v("os_bytes"), v("overlap_bytes"), v("safe") }')"
# hello_world: three FULLY_CONNECTED layers, numbered 1..3, each safe at its O_s.
"$DMO" verify --csv --model "$top_srcdir/tests/models/tflm_hello_world_float.tflite" >"$WORK/verify_model.csv"
expect_eq "verify --csv --model: exit status" 0 $?
expect_eq "verify --csv --model: header" "$VERIFY_HEADER" "$(head -1 "$WORK/verify_model.csv")"
expect_eq "verify --csv --model: layers and verdicts" "1:1 2:1 3:1 " \
	"$(csv_rows "$WORK/verify_model.csv" | by_name '{ printf "%s:%s ", v("layer"), v("safe") }')"
# sweep: two configurations, each judged, formula OB (relu's O_s, as above)
# tight on both.
"$DMO" sweep --csv -o "$WORK/sweep" --formula OB 'relu:in=1x1x{4,8}' >"$WORK/sweep.csv" 2>/dev/null
expect_eq "sweep --csv: exit status" 0 $?
expect_eq "sweep --csv: header" "metric,value" "$(head -1 "$WORK/sweep.csv")"
expect_eq "sweep --csv: configurations, tight, unsafe" "2 2 0" \
	"$(csv_rows "$WORK/sweep.csv" | by_name '{ x[v("metric")] = v("value") }
		END { print x["configurations"], x["tight"], x["unsafe"] }')"
cmp -s "$WORK/sweep.csv" "$WORK"/sweep/sweep-*/summary.csv ||
	fail "sweep --csv differs from summary.csv"

# --json is the --csv table as JSON, on every command that takes it: the
# same rows, the same names, numbers as numbers and empty fields as null.
# A command whose help lists --json and that has no sample here fails, so a
# new one is checked too.
json_sample() { # CMD FORMAT: arguments for a small table (FORMAT keeps outputs apart)
	case $1 in
	analyze) echo "$WORK/summary" ;;
	annotate) echo "$WORK/run-csv" ;; # dmo run's, above in the order of dmo --help
	compare) echo "--backends ref -o $WORK/cmp-$2 relu:in=1x1x8" ;;
	formula) echo "$GOLDEN" ;;
	infer) echo "$top_srcdir/tests/models/tflm_micro_speech_quantized.tflite" ;;
	model) echo "ds_cnn_kws" ;;
	ops) echo "conv2d" ;;
	plan) echo "ds_cnn_kws" ;;
	run) echo "-o $WORK/run-$2 relu:in=1x1x8" ;;
	sweep) echo "-o $WORK/sweep --formula OB relu:in=1x1x{4,8}" ;;
	verify) echo "--model $top_srcdir/tests/models/tflm_hello_world_float.tflite" ;;
	esac
}
for cmd in $commands; do
	"$DMO" "$cmd" --help | grep -q -- "--csv" ||
		{ [ "$cmd" != demo ] && [ "$cmd" != plot ] && [ "$cmd" != profile ] &&
			fail "$cmd prints a table but has no --csv"; continue; }
	"$DMO" "$cmd" --help | grep -q -- "--json" || continue
	args=$(json_sample "$cmd" csv)
	[ -n "$args" ] || { fail "$cmd --json: no sample in this test"; continue; }
	# shellcheck disable=SC2086 # the sample is words
	"$DMO" "$cmd" --csv $args >"$WORK/t.csv" 2>/dev/null
	# shellcheck disable=SC2086
	"$DMO" "$cmd" --json $(json_sample "$cmd" json) >"$WORK/t.json" 2>/dev/null
	python3 - "$WORK/t.csv" "$WORK/t.json" "$WORK" <<'PY' && echo "ok: $cmd --json = --csv" || fail "$cmd --json differs from --csv"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
objs = json.load(open(sys.argv[2]))
def same(text, value):
    if text == "":
        return value is None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(text) == value
    # the two runs wrote to different directories
    return value == text or value.replace("-json", "-csv") == text
assert rows and len(rows) == len(objs), (len(rows), len(objs))
for r, o in zip(rows, objs):
    assert list(r) == list(o), (list(r), list(o))
    for k in r:
        assert same(r[k], o[k]), (k, r[k], o[k])
PY
done

# Values against independent ones.  dmo infer --csv: every output element,
# its value as the text output prints it (%g) and its rank, counted here
# by sorting the text's values.
SPEECH="$top_srcdir/tests/models/tflm_micro_speech_quantized.tflite"
"$DMO" infer --csv "$SPEECH" >"$WORK/infer.csv"
expect_eq "infer --csv: header" "output,shape,index,value,rank" "$(head -1 "$WORK/infer.csv")"
text=$("$DMO" infer "$SPEECH" | sed -n "s/^output 'labels_softmax' \[1x4\]: //p")
expect_eq "infer --csv: values = the text output's" "$text" \
	"$(csv_rows "$WORK/infer.csv" | by_name '{ printf "%s%g", (NR > 2 ? " " : ""), v("value") } END { print "" }')"
expect_eq "infer --csv: ranks = the text's values sorted" \
	"$(echo "$text" | tr ' ' '\n' | awk '{ print NR - 1, $1 }' | sort -k2,2gr -k1,1n |
		awk '{ rank[$1] = NR } END { for (i = 0; i < NR; i++) printf "%s%d", i ? " " : "", rank[i]; print "" }')" \
	"$(csv_rows "$WORK/infer.csv" | by_name '{ printf "%s%s", (NR > 2 ? " " : ""), v("rank") } END { print "" }')"
# dmo plan --json: conv1's O_s is what dmo formula computes for its spec.
conv1=$(csv_rows "$top_srcdir/target-harness/models/ds_cnn_kws.csv" | by_name 'v("name") == "conv1" { print v("spec") }')
expect_eq "plan --json: conv1's os_bytes = dmo formula's algorithmic O_s" \
	"$("$DMO" formula --csv "$conv1" | csv_rows /dev/stdin | by_name '{ print v("algorithmic_os") }')" \
	"$("$DMO" plan --json ds_cnn_kws | python3 -c 'import json, sys
print([r["os_bytes"] for r in json.load(sys.stdin) if r["name"] == "conv1"][0])')"
# dmo run --csv prints layers.csv: relu:in=1x1x8 reads 8 f32 and writes 8
# (32 bytes each way), and an elementwise op shares all of it: O_s = 32.
"$DMO" run --csv -o "$WORK/run-hand" relu:in=1x1x8 >"$WORK/run.csv"
expect_eq "run --csv: relu:in=1x1x8" "1 32 32 8 8 32" \
	"$(csv_rows "$WORK/run.csv" | by_name '{ print v("layer"), v("in_bytes"), v("out_bytes"), v("in_reads"), v("out_writes"), v("os_bytes") }')"
cmp -s "$WORK/run.csv" "$WORK/run-hand/layers.csv" && echo "ok: run --csv prints layers.csv" ||
	fail "run --csv differs from layers.csv"

# Misuse found after parsing is one line and the hint too.
one_line_misuse "run --zeros on an op spec" run \
	"--input, --random and --zeros are for a .tflite model" run --out "$WORK/z" --zeros relu:in=1x1x4
# The child that runs Valgrind names the command when it cannot.
DMO_VALGRIND="$WORK/no-valgrind" "$DMO" profile --out "$WORK/nv" -- true >/dev/null 2>"$WORK/err"
grep -q "^dmo profile: cannot run $WORK/no-valgrind: " "$WORK/err" &&
	echo "ok: profile without valgrind: prefixed message" ||
	fail "profile without valgrind: $(cat "$WORK/err")"
finish
