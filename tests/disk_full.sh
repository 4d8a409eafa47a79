# disk_full.sh - issue 14, group 3: a full disk.  The tool names the file
# and the layer it could not write, dmo keeps every whole record and says
# what it could not write, the status is non-zero but never hides a failing
# program's own, and once there is space a reader rebuilds layers.csv from
# the whole records.  Needs root to mount a small tmpfs; skipped without.
. "$top_srcdir/tests/lib.sh"

disk="$WORK/disk"
mkdir -p "$disk"
if ! mount -t tmpfs -o size=16k tmpfs "$disk" 2>/dev/null; then
	echo "SKIP: cannot mount a tmpfs (needs root)"
	exit 77
fi
trap 'umount "$disk" 2>/dev/null; rm -rf "$WORK"' EXIT

# 16 KiB: the filler, the lock file (it holds the pid) and kernels.csv take
# a page each; one 4 KiB page is left: room for 2 of relu's 3 records (1440 bytes each);
# the third is cut short.
mkdir "$disk/run"
head -c 4096 /dev/zero >"$disk/filler"
"$DMO" profile --out "$disk/run" -- "$TARGETS/relu" >"$WORK/relu.out" 2>"$WORK/relu.err"
expect_eq "partial record: status (the program exited 0)" 2 $?
grep -q "dmo: cannot write $disk/run/tool-layers.bin at layer 3 (disk full?)" "$WORK/relu.err" \
	&& echo "ok: the tool names the file and the layer" || fail "tool message: $(cat "$WORK/relu.err")"
grep -q "layers.csv: No space left on device; no layers.csv written; .*tool-layers.bin: ends in a partial record ([0-9]* bytes), dropped" \
	"$WORK/relu.err" && echo "ok: dmo says what it could not write" || fail "dmo message: $(cat "$WORK/relu.err")"
expect_eq "the whole layers are in the table" "relu_forward relu_backward" \
	"$(awk '$NF == "ok" { printf "%s%s", sep, $2; sep = " " }' "$WORK/relu.err")"
# Space again: the next reader rebuilds layers.csv from the whole records.
rm "$disk/filler"
"$DMO" analyze "$disk/run" >/dev/null 2>"$WORK/rebuild.err"
grep -q "rebuilt from tool-layers.bin: 2 layers; .*partial record" "$WORK/rebuild.err" \
	&& echo "ok: layers.csv rebuilt" || fail "not rebuilt: $(cat "$WORK/rebuild.err")"
expect_eq "rebuilt: layer 1" ok "$(field "$disk/run" relu_forward status)"
expect_eq "rebuilt: layer 2" ok "$(field "$disk/run" relu_backward status)"

# A full disk does not hide the program's own status (7 here, the issue's
# case had 3 replaced by 2).
rm -rf "$disk/run"
mkdir "$disk/run2"
head -c 12288 /dev/zero >"$disk/filler" 2>/dev/null
"$DMO" profile --out "$disk/run2" -- "$TARGETS/misuse" exit-mid-layer >/dev/null 2>"$WORK/exit.err"
expect_eq "full disk, program exits 7: status" 7 $?
grep -q "No space left on device" "$WORK/exit.err" && echo "ok: full disk said" \
	|| fail "no message: $(cat "$WORK/exit.err")"

# --trace=full on a disk that fills during layer 1's event file (issue 28):
# the tool says so for that layer and once that later layers get none; it
# printed an error for every later layer and left an empty event file each.
# 24 KiB: the lock and tool-layers.bin take a page each, layer 1's 32 KiB
# of events (event-file version 1, 16 bytes an event; version 2 codes
# them in 2 KiB, and trace_spill.sh fills a disk with it) do not fit in
# the rest.
rm -rf "$disk/run2" "$disk/filler"
umount "$disk" && mount -t tmpfs -o size=24k tmpfs "$disk" || fail "remount"
mkdir "$disk/full"
"$DMO" profile --trace=full --trace-version 1 --out "$disk/full" -- "$TARGETS/relu" >/dev/null \
	2>"$WORK/full.err"
expect_eq "full trace on a full disk: status (the program exited 0)" 2 $?
# The event file took the disk: tool-layers.bin loses layer 3 and there is
# no layers.csv (both said); the table on stderr has the layers recorded.
expect_eq "full trace: layer 1, whose events did not fit; layer 2 kept" \
	"relu_forward error:trace-write-failed relu_backward ok" \
	"$(awk '$1 ~ /^[0-9]+$/ { printf "%s%s %s", sep, $2, $NF; sep = " " }' "$WORK/full.err")"
expect_eq "full trace: messages naming an event file" 2 \
	"$(grep -c "event file" "$WORK/full.err")"
grep -q "dmo: no event files after layer 1's failed (disk full?)" "$WORK/full.err" &&
	echo "ok: said once that later layers get no event file" || fail "$(cat "$WORK/full.err")"
expect_eq "full trace: no event file for layers 2 and 3" "" \
	"$(ls "$disk/full" | grep 'layer-000[23]')"
finish
