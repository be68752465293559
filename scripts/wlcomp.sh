#!/usr/bin/env bash
# Build utouch and start utouch-wlcomp, the wlroots compositor with system
# gestures (doc/wlcomp.md).  wlroots picks the backend: a window inside an
# X11 or Wayland session, or the whole screen on a TTY.
# Usage: scripts/wlcomp.sh [utouch-wlcomp options] [-- COMMAND [ARGS...]]
#   e.g. scripts/wlcomp.sh -- foot          (a terminal inside it)
#        scripts/wlcomp.sh --config my-gestures.yaml
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
[ -f build/build.ninja ] || meson setup build -Dtests=false >/dev/null
meson compile -C build >/dev/null
if [ ! -x build/tools/wlcomp/utouch-wlcomp ]; then
  echo "wlcomp: utouch-wlcomp was not built (wlroots 0.15 missing?); see build/meson-logs" >&2
  exit 1
fi
exec build/tools/wlcomp/utouch-wlcomp "$@"
