# install.sh - `make install` into a staging folder gives a working dmo:
# the files land where README and docs/install.md say, a program built with
# pkg-config dmo-harness links, and the staged dmo profiles it with its
# own tool, never touching the system's valgrind folders.  Then `make
# install prefix=DIR`: its dmo-harness.pc names DIR, and valgrind --tool=dmo
# finds the tool in the folder it was linked into (docs/install.md).
. "$top_srcdir/tests/lib.sh"
STAGE="$WORK/stage"
make -C "$top_builddir" install DESTDIR="$STAGE" >"$WORK/install.log" 2>&1
expect_eq "make install" 0 $?
makevar() { sed -n "s/^$1 = //p" "$top_builddir/Makefile"; }
prefix=$(makevar prefix)
P="$STAGE$prefix"

for f in bin/dmo bin/dmo-harness include/dmo/harness.h include/dmo/backend.h include/dmokernels.h \
	lib/libdmo-harness.so lib/libdmo-harness.a lib/pkgconfig/dmo-harness.pc \
	libexec/dmo/dmo-amd64-linux libexec/dmo/vgpreload_core-amd64-linux.so \
	share/dmo/models/mobilenet_v2_1.0_224.csv share/dmo/plots/pattern.gp \
	share/doc/dmo/README.md share/doc/dmo/cli.md share/doc/dmo/opspec.md \
	share/man/man1/dmo-ops.1 share/man/man3/dmo_layer_begin.3 share/man/man3/dmo_layer_end.3; do
	[ -e "$P/$f" ] && echo "ok: installed $f" || fail "not installed: $f"
done

# A user program, compiled against the staged library through pkg-config.
cat >"$WORK/user.c" <<'C'
#include <dmo/harness.h>
static float in[512], out[512];
int main(void)
{
	if (dmo_layer_begin("user_copy", NULL, in, sizeof in, out, sizeof out) != 0)
		return 1;
	for (int i = 0; i < 512; i++)
		out[i] = in[i];
	return dmo_layer_end() != 0;
}
C
flags=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$STAGE" \
	pkg-config --cflags --libs dmo-harness)
expect_eq "pkg-config dmo-harness" 0 $?
cc -O1 -o "$WORK/user" "$WORK/user.c" $flags
expect_eq "user program builds with pkg-config flags ($flags)" 0 $?

# The .pc names the configured prefix, not the staging folder.
expect_eq "dmo-harness.pc prefix (DESTDIR)" "prefix=$prefix" "$(grep '^prefix=' "$P/lib/pkgconfig/dmo-harness.pc")"
expect_eq "dmo-harness.pc libdir (DESTDIR)" "$prefix/lib" \
	"$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --variable=libdir dmo-harness)"
# valgrind --tool=dmo: the tool linked into (the staged) valgrind folder.
tooldir=$(makevar valgrindtooldir)
if [ "$tooldir" != no ]; then
	expect_eq "tool linked into valgrind's folder" "$prefix/libexec/dmo/dmo-amd64-linux" \
		"$(readlink "$STAGE$tooldir/dmo-amd64-linux")"
fi

system_valgrind() { ls -l /usr/lib/x86_64-linux-gnu/valgrind /usr/libexec/valgrind 2>/dev/null | md5sum; }
before=$(system_valgrind)
LD_LIBRARY_PATH="$P/lib" "$P/bin/dmo" profile --out "$WORK/user-run" -- "$WORK/user" \
	>"$WORK/user.out" 2>&1
expect_eq "staged dmo profile" 0 $?
# An in-order copy: O_s = OB = 2048 bytes.
expect_eq "staged dmo: user_copy O_s" 2048 "$(field "$WORK/user-run" user_copy os_bytes)"
LD_LIBRARY_PATH="$P/lib" "$P/bin/dmo" run --out "$WORK/run" relu:in=4x4x8 >"$WORK/run.out" 2>&1
expect_eq "staged dmo run (staged harness)" 0 $?
expect_eq "staged dmo run: relu O_s" 512 "$(field "$WORK/run" op1_relu os_bytes)"
# The backend plugins configure built go to $(pkglibdir); a staged or moved
# install finds them through DMO_BACKEND_DIR.
for so in "$top_builddir"/target-harness/backends/.libs/dmo-backend-*.so; do
	[ -e "$so" ] || continue
	name=$(basename "$so")
	[ -e "$P/lib/dmo/$name" ] && echo "ok: installed lib/dmo/$name" || fail "not installed: lib/dmo/$name"
	backend=${name#dmo-backend-}
	dtype=f32
	case $backend in cmsis-nn*) dtype=i8 ;; esac # CMSIS-NN runs int8 only
	DMO_BACKEND_DIR="$P/lib/dmo" LD_LIBRARY_PATH="$P/lib" "$P/bin/dmo" verify \
		--backend "${backend%.so}" --overlap 0 --scan-limit 0 fc:in=4,units=4,dtype=$dtype \
		>"$WORK/plugin.out" 2>&1
	expect_eq "staged dmo verify --backend ${backend%.so}" 0 $?
done

# A throw-away `make install prefix=DIR` (no valgrindtooldir given) runs
# where it lies with no environment at all, and writes nothing outside DIR:
# not even the tool's link into the configured valgrind folder.
T="$WORK/throwaway"
make -C "$top_builddir" install prefix="$T" >"$WORK/install-throwaway.log" 2>&1
expect_eq "make install prefix=DIR (no valgrindtooldir)" 0 $?
expect_eq "env -i DIR/bin/dmo --version" "dmo $(makevar VERSION)" "$(env -i "$T/bin/dmo" --version 2>&1)"
configured_tooldir=$(makevar valgrindtooldir)
if [ "$configured_tooldir" != no ]; then
	case $(readlink "$configured_tooldir/dmo-amd64-linux" 2>/dev/null) in
	"$T"/*) fail "make install prefix=DIR linked the tool into $configured_tooldir" ;;
	*) echo "ok: make install prefix=DIR left $configured_tooldir alone" ;;
	esac
	grep -q "valgrind's folder $configured_tooldir is left alone" "$WORK/install-throwaway.log" &&
		echo "ok: make install says it left valgrind's folder alone" ||
		fail "make install prefix=DIR did not say it left valgrind's folder alone"
fi
make -C "$top_builddir" uninstall prefix="$T" >"$WORK/uninstall-throwaway.log" 2>&1
expect_eq "make uninstall prefix=DIR (no valgrindtooldir)" 0 $?
expect_eq "files left after make uninstall prefix=DIR" "" "$(find "$T" ! -type d | sed "s|^$T/||" | sort | tr '\n' ' ')"

# make install prefix=DIR, with valgrind's folder stood in for by a copy
# (links to every file of the installed one): the .pc names DIR, the
# program builds without any sysroot, and plain valgrind --tool=dmo runs it.
vglib="$WORK/valgrind-lib"
mkdir "$vglib" && ln -s "$(makevar VALGRIND_LIBEXECDIR)"/* "$vglib"/
D="$WORK/prefix"
make -C "$top_builddir" install prefix="$D" valgrindtooldir="$vglib" >"$WORK/install-prefix.log" 2>&1
expect_eq "make install prefix=DIR" 0 $?
expect_eq "dmo-harness.pc prefix (prefix=)" "prefix=$D" "$(grep '^prefix=' "$D/lib/pkgconfig/dmo-harness.pc")"
flags=$(PKG_CONFIG_PATH="$D/lib/pkgconfig" pkg-config --cflags --libs dmo-harness)
expect_eq "pkg-config flags name DIR" "-I$D/include -L$D/lib -ldmo-harness" "$(echo $flags)"
cc -O1 -o "$WORK/user2" "$WORK/user.c" $flags
expect_eq "user program builds against DIR" 0 $?
mkfifo "$WORK/fifo"
DMO_FIFO="$WORK/fifo" VALGRIND_LIB="$vglib" LD_LIBRARY_PATH="$D/lib" \
	valgrind --tool=dmo "$WORK/user2" >"$WORK/vg.out" 2>&1
expect_eq "valgrind --tool=dmo exit status" 0 $?
grep -q "layer 1 'user_copy': ok, O_s = 2048 of 2048 output bytes" "$WORK/vg.out" &&
	echo "ok: valgrind --tool=dmo reports user_copy's O_s" || fail "valgrind --tool=dmo: $(cat "$WORK/vg.out")"
# The installed dmo, moved to DIR, still finds its tool; Valgrind options
# go through --vg-opt.
LD_LIBRARY_PATH="$D/lib" "$D/bin/dmo" profile --vg-opt=--max-stackframe=4000000 \
	--out "$WORK/prefix-run" -- "$WORK/user2" >"$WORK/prefix.out" 2>&1
expect_eq "dmo profile from DIR" 0 $?
expect_eq "dmo profile from DIR: user_copy O_s" 2048 "$(field "$WORK/prefix-run" user_copy os_bytes)"
make -C "$top_builddir" uninstall prefix="$D" valgrindtooldir="$vglib" >"$WORK/uninstall.log" 2>&1
expect_eq "make uninstall prefix=DIR" 0 $?
[ -e "$vglib/dmo-amd64-linux" ] && fail "uninstall left the tool in valgrind's folder" ||
	echo "ok: uninstall took the tool out of valgrind's folder"
left=$(find "$D" ! -type d | sed "s|^$D/||" | sort | tr '\n' ' ')
expect_eq "files left after make uninstall" "" "$left"
expect_eq "system valgrind folders untouched" "$before" "$(system_valgrind)"
finish
