#!/bin/sh
# Install utouch into a temporary prefix and build an example program the
# way a user would: with pkg-config and the installed headers and shared
# libraries only.  Proves that `meson install`, the .pc files and the
# public headers are complete and that a program for the original APIs
# compiles unchanged.
# usage: check-install.sh BUILD_DIR SOURCE_DIR [SANITIZERS]
set -eu
build=$1 src=$2 sanitize=${3:-none}
extra=
# a sanitizer build installs instrumented libraries; the program must carry
# the same runtime
[ "$sanitize" = none ] || extra="-fsanitize=$sanitize"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --no-rebuild --destdir "$tmp/root" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; exit 1; }
prefix=$(sed -n "s/^prefix=//p" "$(find "$tmp/root" -name utouch-grail.pc)")
libdir=$(dirname "$(find "$tmp/root" -name utouch-grail.pc)")/..
pcdir=$(dirname "$(find "$tmp/root" -name utouch-grail.pc)")
# point pkg-config at the staged tree
export PKG_CONFIG_SYSROOT_DIR="$tmp/root"
export PKG_CONFIG_PATH="$pcdir"
for f in include/oif/frame.h include/oif/frame_backend.h include/oif/frame_internal.h \
	 include/oif/grail.h include/utouch/frame_handle.h; do
	test -f "$tmp/root$prefix/$f" || { echo "not installed: $prefix/$f"; exit 1; }
done
for m in utouch-replay.1 utouch-synth.1; do
	find "$tmp/root" -name "$m*" | grep -q . || { echo "man page not installed: $m"; exit 1; }
done
cc -std=c11 -Wall -Werror $extra -o "$tmp/example" "$src/examples/two-finger-drag.c" \
	$(pkg-config --cflags --libs utouch-grail utouch-frame)
# the program must use the staged shared libraries, not the build tree's
LD_LIBRARY_PATH=$(dirname "$(find "$tmp/root" -name 'libutouch-grail.so' | head -n 1)") \
	"$tmp/example" >"$tmp/out"
ldd "$tmp/example" | grep -q "libutouch-grail" || { echo "example not linked to libutouch-grail"; exit 1; }
ldd "$tmp/example" | grep -Eq "libgrail\.so|libframe\.so" && { echo "linked to the original libraries"; exit 1; }
grep -q "drag recognized" "$tmp/out" || { cat "$tmp/out"; exit 1; }
echo "installed into $prefix and built the example with pkg-config: ok"
