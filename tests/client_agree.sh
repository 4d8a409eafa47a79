# client_agree.sh - issue 14, group 5: libdmo-harness and the tool agree on
# every limit and rejection, the protocol's orphan and duplicate rules hold
# end to end, and natively the library writes only into a FIFO.
. "$top_srcdir/tests/lib.sh"

statuses() { layer_rows "$1" | by_name '{ print v("layer"), v("name"), v("status") }' | tr '\n' ' ' | sed 's/ $//'; }

# A name over 255 bytes, a spec over 1023, a control character: refused by
# dmo_layer_begin, never opened by the tool, and the next layer intact.
for c in long-name long-spec control-char; do
	profile "$WORK/$c" -- "$TARGETS/misuse" "$c"
	expect_eq "$c: program status (the call returned an error)" 0 $?
	expect_eq "$c: exactly the layers around it" "1 before ok 3 after ok" "$(statuses "$WORK/$c")"
done

# UTF-8 names are names.
name=$(printf '\303\274n\303\257c\303\270d\303\251_\345\261\202')
profile "$WORK/utf8" -- "$TARGETS/misuse" utf8
expect_eq "utf8: status" 0 $?
expect_eq "utf8: layer recorded under its name" ok "$(field "$WORK/utf8" "$name" status)"

# fork: the child's layers are not recorded, and it is said once.
profile "$WORK/fork" -- "$TARGETS/misuse" fork
expect_eq "fork: status" 0 $?
expect_eq "fork: the parent's layers only" "1 before ok 2 after ok" "$(statuses "$WORK/fork")"
expect_eq "fork: said once" 1 "$(grep -c "child pid [0-9]* is not profiled" "$WORK/fork.err")"

# Duplicate numbers, an end without begin, two records in one write, from
# a program speaking the wire protocol itself.
profile "$WORK/dup" --trace=full -- "$TARGETS/raw_protocol" duplicate
expect_eq "duplicate: rows" "1 first ok 0 again error:duplicate-seq 2 next ok" "$(statuses "$WORK/dup")"
grep -q "layer 1 'again' reuses the number.*\[error:duplicate-seq\]" "$WORK/dup.err" \
	&& echo "ok: duplicate: message" || fail "duplicate: no message: $(cat "$WORK/dup.err")"
# The first layer's event file is its own: forwards copy, O_s = OB.
expect_eq "duplicate: layer 1's event file is the first layer's" 512 \
	"$("$DMO" analyze "$WORK/dup" | awk '$2 == "first" { print $4 }')"
profile "$WORK/orphan" -- "$TARGETS/raw_protocol" end-without-begin
expect_eq "end without begin: layer 0" "1 before ok 0 - error:end-without-begin 2 after ok" \
	"$(statuses "$WORK/orphan")"
profile "$WORK/two" -- "$TARGETS/raw_protocol" two-in-one-write
expect_eq "two records in one write: both layers" "1 one ok 2 two ok" "$(statuses "$WORK/two")"
grep -q "protocol error" "$WORK/two.err" && fail "two in one write: $(cat "$WORK/two.err")" \
	|| echo "ok: two records in one write: no error"

# Natively, DMO_FIFO naming a regular file: the file is left alone.
printf 'precious data\n' >"$WORK/regular"
cp "$WORK/regular" "$WORK/regular.orig"
DMO_FIFO="$WORK/regular" "$TARGETS/relu"
expect_eq "native, DMO_FIFO a regular file: status" 0 $?
cmp -s "$WORK/regular" "$WORK/regular.orig" && echo "ok: the regular file is unchanged" \
	|| fail "the regular file was written"
finish
