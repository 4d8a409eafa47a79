#!/bin/sh
# tests/vendor_unpack.sh - lay out the third-party source trees that the
# CMSIS-NN backends and the TFLM runner are built from, for tests and CI.
#
#   tests/vendor_unpack.sh [TARBALL_DIR] [DEST]
#
# TARBALL_DIR (default ../shared/vendor beside the checkout) holds the
# tarballs listed in its README; DEST (default third_party/ in the current
# folder, which .gitignore keeps out of commits) receives
#   DEST/cmsis-nn      CMSIS-NN, for ./configure --with-cmsis-nn=DEST/cmsis-nn
#   DEST/tflite-micro  TFLM, for ./configure --with-tflm=DEST/tflite-micro,
#                      with flatbuffers, gemmlowp, ruy and kissfft where TFLM's
#                      own Makefile would have downloaded them, patched as its
#                      download scripts patch them.
# Each tree's .git-archive-commit holds the commit its tarball was made from.
# dmo ships none of this code: a user names their own trees instead.
# Exits 0 with nothing done when TARBALL_DIR is absent, 1 on a damaged one.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$here/../shared/vendor}
dest=${2:-third_party}
[ -d "$src" ] || { echo "vendor_unpack: no $src, nothing to unpack"; exit 0; }
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)

# unpack TARBALL NAME: the tarball's single top folder becomes DEST/NAME.
unpack() {
	[ -f "$src/$1" ] || { echo "vendor_unpack: $src/$1 missing" >&2; exit 1; }
	[ -d "$dest/$2" ] && return 0
	tmp=$(mktemp -d "$dest/.unpack.XXXXXX")
	tar xzf "$src/$1" -C "$tmp"
	mv "$tmp"/* "$dest/$2"
	rmdir "$tmp"
	# The commit git-archive recorded in the tarball: the version dmo's
	# TFLM runner reports for a tree that is not a git checkout.
	gzip -dc "$src/$1" | git get-tar-commit-id >"$dest/$2/.git-archive-commit" 2>/dev/null ||
		rm -f "$dest/$2/.git-archive-commit"
}
unpack "$(cd "$src" && ls cmsis-nn-*.tar.gz | head -n 1)" cmsis-nn
unpack "$(cd "$src" && ls tflite-micro-*.tar.gz | head -n 1)" tflite-micro
downloads=tflite-micro/tensorflow/lite/micro/tools/make/downloads
mkdir -p "$dest/$downloads"
for dep in flatbuffers gemmlowp ruy kissfft; do
	unpack "$(cd "$src" && ls $dep-*.tar.gz | head -n 1)" "$downloads/$dep"
done
# TFLM's download scripts patch flatbuffers (no heap, locale-independent
# off) and kissfft right after unpacking; do the same, once (a stamp file
# records it, as their git commit does).
patch_once() {
	[ -f "$dest/$1/.tflm-patched" ] && return 0
	patch -s -p1 -l -d "$dest/$1" < "$dest/$2"
	touch "$dest/$1/.tflm-patched"
}
patch_once "$downloads/flatbuffers" "$downloads/../flatbuffers.patch"
patch_once "$downloads/kissfft" tflite-micro/third_party/kissfft/kissfft.patch
echo "vendor_unpack: $dest/cmsis-nn $dest/tflite-micro"
