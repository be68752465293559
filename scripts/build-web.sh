#!/usr/bin/env bash
# Build utouch for the web: the util helpers, the frame core and grail, compiled from the same
# sources as the native libraries (the lists are read from their
# meson.build files), plus web/utouch-web.c, into an ES module and its
# WebAssembly binary.
# Usage: scripts/build-web.sh [OUTDIR]   (default: web/build)
# Needs Debian's emscripten (emcc).  Exits 77 when emcc is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/web/build}
if ! command -v emcc >/dev/null 2>&1; then
  echo "build-web: emcc not found (install the Debian package emscripten)" >&2
  exit 77
fi
# Debian's emcc needs its node modules (acorn) from /usr/share/nodejs.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs

# the quoted .c names of a meson.build, as paths
sources_of() {
  grep -o "'[^']*\.c'" "$root/$1/meson.build" | tr -d "'" | sed "s|^|$root/$1/|"
}
# (not the YAML configuration reader: the web has no configuration files
# and no libyaml)
mapfile -t srcs < <(sources_of src/util | grep -v '/yaml-config\.c$'; sources_of src/frame;
                    sources_of src/grail)
if [ ${#srcs[@]} -lt 8 ]; then
  echo "build-web: could not read the source lists from src/frame and src/grail" >&2
  exit 1
fi
mkdir -p "$out/include/oif"
# <oif/frame.h> is configured like meson does for a build without X11
sed -e 's|^#mesondefine FRAME_X11_BACKEND$|/* #undef FRAME_X11_BACKEND */|' \
    -e 's|^#mesondefine FRAME_NO_X11_BACKEND$|#define FRAME_NO_X11_BACKEND 1|' \
    "$root/include/oif/frame.h.in" > "$out/include/oif/frame.h"
emcc -std=c11 -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
  -D_GNU_SOURCE -DBUILDING_GRAIL -fvisibility=hidden \
  -I"$out/include" -I"$root/include" -I"$root/src" \
  "${srcs[@]}" "$root/web/utouch-web.c" \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createUtouchModule \
  -sENVIRONMENT=web,worker -sALLOW_MEMORY_GROWTH=1 \
  -sEXPORTED_RUNTIME_METHODS='["HEAPF64"]' \
  -o "$out/utouch-wasm.mjs"
echo "build-web: wrote $out/utouch-wasm.mjs and $out/utouch-wasm.wasm" >&2
