#!/usr/bin/env bash
# Build utouch and replay a bundled recording: say in a few lines which
# gestures the recognizer finds, draw them (utouch-plot), and count what a
# geis application receives for the same recording.  The full outputs stay
# one option away: the trace is `utouch-replay RECORDING`, every geis event
# `utouch-events --recording RECORDING --fast [--json]`.
# Usage: scripts/demo.sh [RECORDING] [utouch-replay options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
[ -f build/build.ninja ] || meson setup build -Dtests=false >/dev/null
meson compile -C build >/dev/null
rec=${1:-data/recordings/touchscreen/drag-2.evemu}
shift || true
replay=build/tools/replay/utouch-replay
events=build/tools/events/utouch-events
plot=build/tools/plot/utouch-plot
name=$(basename "${rec%.*}")

echo "== what utouch recognizes (utouch-replay --story)"
"$replay" --story "$@" "$rec"

if [ -x "$plot" ]; then
  mkdir -p build/demo
  picture=build/demo/$name.png
  "$plot" "$@" "$rec" -o "$picture"
  echo
  echo "== the picture: $picture (touches, gestures and a timeline; utouch-plot)"
fi

echo
echo "== what a geis application receives (utouch-events, two-finger drag, pinch, rotate)"
"$events" --recording "$rec" --fast -c drag,pinch,rotate -t 2 |
  awk '$1 ~ /^GESTURE_/ { n[$1]++; if ($1 == "GESTURE_BEGIN") g[$3] = $7 }
       END {
         for (id in g) list = list sprintf(" %s (%s)", id, g[id])
         printf "%d begin, %d update and %d end events; gestures:%s\n",
                n["GESTURE_BEGIN"], n["GESTURE_UPDATE"], n["GESTURE_END"],
                list == "" ? " none" : list
       }'

echo
echo "more: $replay $rec          (the trace, one line per slice)"
echo "      $events --recording $rec --fast --json   (every geis event)"
