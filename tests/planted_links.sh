# planted_links.sh - issue 28, files: whatever someone left in a folder
# dmo writes to, a symbolic link or a FIFO under the name of a file dmo
# writes is refused with its name and never written through (the file it
# points to keeps its bytes), and a folder that holds other people's files
# is no run folder unless it says so (--force): nothing dmo did not write
# is ever deleted.
. "$top_srcdir/tests/lib.sh"
cd "$WORK" || exit 99

# The victim every link points to, and its bytes to compare with.
printf 'the user'"'"'s own file\n' >victim
cp victim victim.orig

# kept WHAT: the victim is untouched.
kept() {
	cmp -s victim victim.orig && echo "ok: $1: the link's target kept its bytes" ||
		fail "$1: written through the link: $(head -c 200 victim)"
	cp victim.orig victim
}

# refused_link WHAT LINK COMMAND...: COMMAND fails (1 or 2), names LINK as
# a symbolic link, and the victim is kept.
refused_link() {
	what=$1 link=$2; shift 2
	"$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q -F "$link is a symbolic link" "$WORK/err"; then
		echo "ok: $what: refused: $(grep -F "$link" "$WORK/err" | head -1)"
	else
		fail "$what: status $rc, message '$(head -3 "$WORK/err")'"
	fi
	kept "$what"
}

"$DMO" run --out rd --trace=full relu:in=4x4x1 >rd.out 2>&1 ||
	{ echo "FAIL: dmo run: $(cat rd.out)"; exit 1; }
[ -f rd/layer-0001.events ] || { echo "FAIL: no event file"; exit 1; }

# Each command with a link under the name of the file it writes.
fresh() { rm -rf r && cp -a rd r; }
fresh; ln -s ../victim r/analysis.csv
refused_link "analyze: analysis.csv" r/analysis.csv "$DMO" analyze r
fresh; ln -s ../victim r/layer-0001-curves.csv
refused_link "analyze: the curves" r/layer-0001-curves.csv "$DMO" analyze r
fresh; ln -s ../victim r/layer-0001-pattern.png
refused_link "plot: the figure" r/layer-0001-pattern.png "$DMO" plot r
fresh; ln -s ../victim r/layer-0001.csv
refused_link "export: the CSV" r/layer-0001.csv "$DMO" export r
fresh; ln -s victim link.bin
refused_link "infer --output" link.bin \
	"$DMO" infer --output link.bin "$top_srcdir/tests/models/tflm_hello_world_float.tflite"

# A FIFO in the place of analysis.csv would have hung the writer.
fresh; mkfifo r/analysis.csv
timeout 20 "$DMO" analyze r >out 2>err
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "r/analysis.csv is not a regular file" err &&
	echo "ok: analyze: a FIFO as analysis.csv refused" || fail "analyze with a FIFO: $rc $(cat err)"

# The rebuild of a lost layers.csv wrote through a fixed temporary name.
fresh; rm r/layers.csv; ln -s ../victim r/layers.csv.tmp
"$DMO" analyze r >out 2>err
kept "layers.csv rebuilt beside a planted layers.csv.tmp"
[ -f r/layers.csv ] && [ ! -L r/layers.csv ] && echo "ok: layers.csv rebuilt" ||
	fail "layers.csv not rebuilt: $(cat err)"

# A new run into a run folder with a link under one of dmo's names: the
# tool would write through it; refused before Valgrind runs.
fresh; ln -s ../victim r/layer-0002.events
refused_link "profile: a link as an event file" r/layer-0002.events \
	"$DMO" run --out r --trace=full relu:in=4x4x1

# The tool itself, run bare (valgrind --tool=dmo, as tests/bare_valgrind.sh
# does): dmo's check before Valgrind runs is not there, nor its unlink of
# old files, and a folder it never saw may hold links under the names the
# tool creates.  The tool opens them without following (O_NOFOLLOW): each
# file is refused with a message saying a symbolic link is in its place,
# the victim kept.
mkdir bare && for f in tool-layers.bin layer-0001.events layer-0001-where.csv; do
	ln -s ../victim "bare/$f"
done
env -u DMO_FIFO VALGRIND_LIB="$top_builddir/dmo-tool" valgrind -q --tool=dmo --dmo-trace=full \
	--dmo-out="$WORK/bare" "$TARGETS/relu" >bare.out 2>bare.err
for f in tool-layers.bin layer-0001.events layer-0001-where.csv; do
	grep -q -F "cannot create $WORK/bare/$f: a symbolic link is in its place" bare.err &&
		echo "ok: bare tool: $f refused" || fail "bare tool: $f: $(cat bare.err)"
	[ -L "bare/$f" ] || fail "bare tool: the link $f was replaced"
done
kept "bare tool: tool-layers.bin, an event file, a where file"

# compare.csv.
mkdir cmp && ln -s ../victim cmp/compare.csv
refused_link "compare: compare.csv" cmp/compare.csv \
	"$DMO" compare --backends ref -o cmp relu:in=4x4x1

# sweep.png, and a run-* link in the sweep folder: a killed batch's run
# folder is removed, but a link named like one is not followed (its
# target folder's files were deleted).
"$DMO" sweep 'relu:in={4,8,12}x4x1' --formula OB -o sw >sw.out 2>&1 ||
	fail "sweep: $(cat sw.out)"
sweep_dir=$(echo sw/sweep-*)
[ -f "$sweep_dir/sweep.png" ] || fail "sweep drew no sweep.png: $(cat sw.out)"
rm -f "$sweep_dir/sweep.png"
ln -s ../../victim "$sweep_dir/sweep.png"
mkdir theirs && : >theirs/precious && ln -s ../../theirs "$sweep_dir/run-00000000-1"
"$DMO" sweep 'relu:in={4,8,12}x4x1' --formula OB -o sw >sw.out 2>&1
grep -q -F "$sweep_dir/sweep.png is a symbolic link" sw.out &&
	echo "ok: sweep: the link as sweep.png named" || fail "sweep: $(cat sw.out)"
kept "sweep: sweep.png"
[ -f theirs/precious ] && echo "ok: sweep: a run-* link's target folder kept" ||
	fail "sweep: deleted the files of a folder a run-* link points to"

# A folder that was never a run folder: its files are the user's.
mkdir mine && for f in analysis.csv backend.csv layer-0001.csv layer-0001-pattern.png layers.csv notes; do
	echo "mine: $f" >"mine/$f"
done
( cd mine && "$DMO" run --out . relu:in=4x4x1 ) >out 2>err
rc=$?
expect_eq "run --out a folder of the user's: status" 2 $rc
grep -q "holds files but is no dmo run folder" err && echo "ok: the folder refused: $(head -1 err)" ||
	fail "no message: $(cat err)"
for f in analysis.csv backend.csv layer-0001.csv layer-0001-pattern.png layers.csv notes; do
	[ "$(cat "mine/$f")" = "mine: $f" ] || fail "run deleted or replaced the user's $f"
done
echo "ok: every file of the user's kept"
# --force takes it; an empty folder and a run folder need no --force.
( cd mine && "$DMO" run --force --out . relu:in=4x4x1 ) >out 2>&1 &&
	[ "$(cat mine/notes)" = "mine: notes" ] && grep -q "op1_relu" mine/layers.csv &&
	echo "ok: --force adopts the folder, notes kept" || fail "--force: $(cat out)"
mkdir empty && "$DMO" run --out empty relu:in=4x4x1 >out 2>&1 &&
	echo "ok: an empty folder is taken" || fail "empty folder: $(cat out)"
"$DMO" run --out empty relu:in=4x4x1 >out 2>&1 &&
	echo "ok: a run folder is taken again" || fail "run folder again: $(cat out)"

finish
