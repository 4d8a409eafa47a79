# readers_trust.sh - issue 14, group 6: readers never hang and never
# over-trust.  A FIFO where a file should be is refused, not waited on; an
# event file of another layer is refused; a layers.csv row out of range is
# skipped with its line and column, the other layers analysed; the exit
# status follows one rule (0 all read, 1 some layers skipped, 2 nothing).
. "$top_srcdir/tests/lib.sh"

run="$WORK/run"
profile "$run" --trace=full -- "$TARGETS/relu" || fail "profile relu: $(cat "$run.err")"
expect_eq "analyze of the good run" 0 "$("$DMO" analyze "$run" >/dev/null 2>&1; echo $?)"

# copy NAME: a fresh copy of the run directory.
copy() { rm -rf "$WORK/$1"; cp -r "$run" "$WORK/$1"; }

# An event file that is a FIFO: refused at once (timeout: a hang fails).
copy fifo
rm "$WORK/fifo/layer-0002.events"
mkfifo "$WORK/fifo/layer-0002.events"
timeout 20 "$DMO" analyze "$WORK/fifo" >"$WORK/fifo.out" 2>"$WORK/fifo.err"
expect_eq "event file a FIFO: analyze status (one layer skipped)" 1 $?
grep -q "layer-0002.events: not a regular file; skipped" "$WORK/fifo.err" \
	&& echo "ok: FIFO event file named" || fail "FIFO event file: $(cat "$WORK/fifo.err")"
grep -q "relu_forward" "$WORK/fifo.out" && echo "ok: the other layers analysed" \
	|| fail "other layers not analysed: $(cat "$WORK/fifo.out")"
timeout 20 "$DMO" plot --layer 2 "$WORK/fifo" >/dev/null 2>"$WORK/fifo-plot.err"
expect_eq "event file a FIFO: plot status" 2 $?
timeout 20 "$DMO" export --csv "$WORK/fifo" >/dev/null 2>"$WORK/fifo-export.err"
expect_eq "event file a FIFO: export status (the others exported)" 1 $?

# layers.csv a FIFO.
copy csvfifo
rm "$WORK/csvfifo/layers.csv"
mkfifo "$WORK/csvfifo/layers.csv"
timeout 20 "$DMO" analyze "$WORK/csvfifo" >/dev/null 2>"$WORK/csvfifo.err"
expect_eq "layers.csv a FIFO: analyze status" 2 $?
grep -q "layers.csv: not a regular file" "$WORK/csvfifo.err" && echo "ok: layers.csv FIFO named" \
	|| fail "layers.csv FIFO: $(cat "$WORK/csvfifo.err")"

# Layer 1's event file under layer 2's name: its header says layer 1.
copy foreign
cp "$WORK/foreign/layer-0001.events" "$WORK/foreign/layer-0002.events"
"$DMO" analyze "$WORK/foreign" >"$WORK/foreign.out" 2>"$WORK/foreign.err"
expect_eq "foreign event file: analyze status" 1 $?
grep -q "layer-0002.events: header is layer 1.*layers.csv says layer 2" "$WORK/foreign.err" \
	&& echo "ok: foreign event file named" || fail "foreign event file: $(cat "$WORK/foreign.err")"

# os_bytes > min(in_bytes, out_bytes) in row 2 (line 3): skipped, named.
copy range
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "os_bytes") c = i }
	NR == 3 { $c = 999999999 } { print }' "$run/layers.csv" \
	>"$WORK/range/layers.csv"
"$DMO" analyze "$WORK/range" >"$WORK/range.out" 2>"$WORK/range.err"
expect_eq "os_bytes out of range: analyze status" 1 $?
grep -q "line 3, column 12 (os_bytes): os_bytes is larger than min(in_bytes, out_bytes); 1 bad row skipped" \
	"$WORK/range.err" && echo "ok: out-of-range value named with line and column" \
	|| fail "out of range: $(cat "$WORK/range.err")"
grep -q relu_backward "$WORK/range.out" && fail "the bad row was analysed" \
	|| echo "ok: the bad row was not analysed"
grep -q relu_forward "$WORK/range.out" && echo "ok: the good rows were" \
	|| fail "good rows not analysed"

finish
