#!/bin/sh
# Install utouch into a temporary prefix and build an example program the
# way a user would: with pkg-config and the installed headers and shared
# libraries only.  Proves that `meson install`, the .pc files and the
# public headers are complete and that a program for the original APIs
# compiles unchanged.
# usage: check-install.sh BUILD_DIR SOURCE_DIR [SANITIZERS [x11|nox11 [plot|noplot [qml|noqml]]]]
set -eu
build=$1 src=$2 sanitize=${3:-none} x11=${4:-nox11} plot=${5:-noplot} qml=${6:-noqml}
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
headers="include/oif/frame.h include/oif/frame_backend.h include/oif/frame_internal.h
	 include/oif/grail.h include/utouch/frame_handle.h include/geis/geis.h
	 include/utouch/geis.h"
[ "$x11" = x11 ] && headers="$headers include/oif/frame_x11.h"
for f in $headers; do
	test -f "$tmp/root$prefix/$f" || { echo "not installed: $prefix/$f"; exit 1; }
done
# the installed <oif/frame.h> says whether the X11 backend is there
if [ "$x11" = x11 ]; then
	grep -q '^#define FRAME_X11_BACKEND' "$tmp/root$prefix/include/oif/frame.h" ||
		{ echo "installed frame.h does not define FRAME_X11_BACKEND"; exit 1; }
else
	grep -q '^#define FRAME_NO_X11_BACKEND' "$tmp/root$prefix/include/oif/frame.h" ||
		{ echo "installed frame.h does not define FRAME_NO_X11_BACKEND"; exit 1; }
fi
tools="utouch-replay utouch-synth utouch-events utouch-gestured"
[ "$plot" = plot ] && tools="$tools utouch-plot"
for t in $tools; do
	find "$tmp/root" -type f -name "$t" | grep -q . || { echo "tool not installed: $t"; exit 1; }
done
for t in $tools; do
	m=$t.1
	find "$tmp/root" -name "$m*" | grep -q . || { echo "man page not installed: $m"; exit 1; }
done
# utouch-gestured's systemd user unit and autostart entry start the installed daemon
unit=$(find "$tmp/root" -path '*/systemd/user/utouch-gestured.service')
desktop=$(find "$tmp/root" -path '*/xdg/autostart/utouch-gestured.desktop')
[ -n "$unit" ] && [ -n "$desktop" ] || { echo "utouch-gestured unit or autostart entry not installed"; exit 1; }
grep -qx "ExecStart=$prefix/bin/utouch-gestured" "$unit" || { echo "unit: $(grep ExecStart "$unit")"; exit 1; }
grep -qx "Exec=$prefix/bin/utouch-gestured" "$desktop" || { echo "autostart: $(grep Exec "$desktop")"; exit 1; }
# the QML module: qmldir, plugin and UTouch.qmltypes in LIBDIR/qt6/qml/UTouch,
# the plugin linked to the shared libraries (doc/qml.md)
if [ "$qml" = qml ]; then
	qmldir=$(find "$tmp/root" -path '*/qt6/qml/UTouch/qmldir')
	[ -n "$qmldir" ] || { echo "QML module not installed"; exit 1; }
	grep -qx "plugin utouchqmlplugin" "$qmldir" || { echo "qmldir names no plugin"; exit 1; }
	plugin=$(dirname "$qmldir")/libutouchqmlplugin.so
	test -f "$plugin" || { echo "not installed: $plugin"; exit 1; }
	readelf -d "$plugin" | grep -q 'NEEDED.*libutouch-grail' || { echo "QML plugin does not link libutouch-grail"; exit 1; }
	# the generated type description, for qmllint and Qt Creator
	grep -qx "typeinfo UTouch.qmltypes" "$qmldir" || { echo "qmldir names no typeinfo"; exit 1; }
	grep -q 'exports: \["UTouch/GestureArea 1.0"\]' "$(dirname "$qmldir")/UTouch.qmltypes" ||
		{ echo "UTouch.qmltypes missing or without GestureArea"; exit 1; }
fi
cc -std=c11 -Wall -Werror $extra -o "$tmp/example" "$src/examples/two-finger-drag.c" \
	$(pkg-config --cflags --libs utouch-grail utouch-frame)
# the program must use the staged shared libraries, not the build tree's
LD_LIBRARY_PATH=$(dirname "$(find "$tmp/root" -name 'libutouch-grail.so' | head -n 1)") \
	"$tmp/example" >"$tmp/out"
ldd "$tmp/example" | grep -q "libutouch-grail" || { echo "example not linked to libutouch-grail"; exit 1; }
ldd "$tmp/example" | grep -Eq "libgrail\.so|libframe\.so" && { echo "linked to the original libraries"; exit 1; }
grep -q "drag recognized" "$tmp/out" || { cat "$tmp/out"; exit 1; }
# the originals' pkg-config names and API versions (doc/packaging.md): a
# build that asks for frame 2.5, grail 3.1 or geis 2.2 gets utouch, also
# where the originals' own .pc files are installed (the staged ones come
# first in PKG_CONFIG_PATH)
for m in frame=2.5.0 grail=3.1.1 libgeis=2.2.17; do
	v=$(pkg-config --modversion "${m%%=*}") || exit 1
	[ "$v" = "${m#*=}" ] || { echo "${m%%=*}.pc: version $v, want ${m#*=}"; exit 1; }
done
pkg-config --exists 'frame >= 2.2' 'grail >= 3.0.8' 'libgeis >= 2.2' ||
	{ echo "the originals' version checks fail"; exit 1; }
if [ "$x11" = x11 ]; then
	pkg-config --exists 'frame-x11 = 2.5.0' || { echo "no frame-x11.pc"; exit 1; }
fi
cc -std=c11 -Wall -Werror $extra -o "$tmp/example-orig-pc" "$src/examples/two-finger-drag.c" \
	$(pkg-config --cflags --libs grail frame)
ldd "$tmp/example-orig-pc" | grep -q "libutouch-grail" ||
	{ echo "built with grail.pc: not linked to libutouch-grail"; exit 1; }
ldd "$tmp/example-orig-pc" | grep -Eq "libgrail\.so|libframe\.so" &&
	{ echo "built with grail.pc: linked to the original libraries"; exit 1; }
# a geis program, built against the installed geis the same way and run on
# a recording through the environment
# libutouch-geis links libutouch-grail and libutouch-frame; the linker
# finds them in the system's library directory after a real install, in
# the staged tree only through -rpath-link
staged_lib=$(dirname "$(find "$tmp/root" -name 'libutouch-geis.so' | head -n 1)")
cc -std=c11 -Wall -Werror $extra -o "$tmp/geis2" "$src/examples/geis2-gestures.c" \
	$(pkg-config --cflags --libs utouch-geis) -Wl,-rpath-link,"$staged_lib"
cc -std=c11 -Wall -Werror $extra -o "$tmp/geis2-orig-pc" "$src/examples/geis2-gestures.c" \
	$(pkg-config --cflags --libs libgeis) -Wl,-rpath-link,"$staged_lib"
ldd "$tmp/geis2-orig-pc" | grep -q "libutouch-geis" ||
	{ echo "built with libgeis.pc: not linked to libutouch-geis"; exit 1; }
ldd "$tmp/geis2" | grep -q "libutouch-geis" || { echo "geis example not linked to libutouch-geis"; exit 1; }
LD_LIBRARY_PATH=$(dirname "$(find "$tmp/root" -name 'libutouch-geis.so' | head -n 1)") \
UTOUCH_GEIS_BACKEND=recording-fast:$src/data/recordings/touchscreen/pinch-2.evemu \
	"$tmp/geis2" 300 >"$tmp/geis-out"
grep -qi "pinch" "$tmp/geis-out" || { echo "geis example saw no pinch:"; cat "$tmp/geis-out"; exit 1; }
echo "installed into $prefix and built the example with pkg-config: ok"
