#!/bin/sh
# Build utouch in release mode (plus ref-grail, the original grail/frame
# harness, when its libraries are installed) and run utouch-bench.
#
#   bench/run.sh [utouch-bench options]      e.g.  bench/run.sh --markdown
#
# BUILD (default /tmp/build-utouch-bench) is the build directory; MESON_ARGS
# adds setup options.  The tests are left out of this build: ref-grail is
# built by bench/meson.build itself.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-/tmp/build-utouch-bench}
if [ ! -f "$build/build.ninja" ]; then
	# shellcheck disable=SC2086 # MESON_ARGS is meant to be split
	meson setup "$build" "$src" -Dbuildtype=release -Dtests=false ${MESON_ARGS:-} >/dev/null
fi
if [ "$(meson introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="buildtype"][0])')" != release ]; then
	echo "run.sh: $build is not a release build" >&2
	exit 1
fi
ninja -C "$build" >/dev/null
for n in 1 2 3 4 5 6 7 8 9 10; do
	ninja -C "$build" "bench/drag-$n.evemu" >/dev/null
done
ref=
for r in "$build/bench/ref-grail" "$build/tests/replay/ref-grail"; do
	if ninja -C "$build" "${r#"$build"/}" >/dev/null 2>&1 && [ -x "$r" ]; then
		ref=$r
		break
	fi
done
echo "# $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "# utouch $(git -C "$src" describe --always --dirty 2>/dev/null || echo '?')"
if [ -n "$ref" ]; then
	exec "$build/bench/utouch-bench" --ref "$ref" "$@"
else
	echo "# ref-grail not available: utouch numbers only" >&2
	exec "$build/bench/utouch-bench" "$@"
fi
