#!/usr/bin/env bash
# Build utouch and start utouch-wlcomp, the wlroots compositor with system
# gestures (doc/wlcomp.md).  wlroots picks the backend: a window inside an
# X11 or Wayland session, or the whole screen on a TTY.
# Usage: scripts/wlcomp.sh [utouch-wlcomp options] [-- COMMAND [ARGS...]]
#   e.g. scripts/wlcomp.sh -- foot          (a terminal inside it)
#        scripts/wlcomp.sh --config my-gestures.yaml
set -euo pipefail
cd "$(dirname "$0")/.."
# wlroots needs somewhere to show the compositor: a window in a desktop
# session, or the whole screen from a text console.  Without either it
# fails after a long wait for a seat; say what to do instead.
headless=no
for a in "$@"; do
  [ "$a" = "--" ] && break
  case "$a" in --headless|-h|--help) headless=yes ;; esac
done
if [ "$headless" = no ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${DISPLAY:-}" ] &&
   ! tty 2>/dev/null | grep -q '^/dev/tty[0-9]'; then
  echo "wlcomp: no display here (WAYLAND_DISPLAY and DISPLAY are unset, and this is no text console)." >&2
  echo "wlcomp: start it inside a desktop session, on a text console, or without a display:" >&2
  echo "wlcomp:   scripts/wlcomp.sh --headless" >&2
  exit 1
fi
scripts/deps.sh build
[ -f build/build.ninja ] || meson setup build -Dtests=false >/dev/null
meson compile -C build >/dev/null
if [ ! -x build/tools/wlcomp/utouch-wlcomp ]; then
  echo "wlcomp: utouch-wlcomp was not built (wlroots 0.15 missing?); see build/meson-logs" >&2
  exit 1
fi
exec build/tools/wlcomp/utouch-wlcomp "$@"
