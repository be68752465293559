#!/usr/bin/env bash
# Build utouch and replay a bundled recording, printing the gestures the
# recognizer finds (one line per gesture slice, then a summary), and then
# what a geis application receives for the same recording (utouch-events,
# one JSON line per event).
# Usage: scripts/demo.sh [RECORDING] [utouch-replay options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
[ -f build/build.ninja ] || meson setup build -Dtests=false >/dev/null
meson compile -C build >/dev/null
rec=${1:-data/recordings/touchscreen/drag-2.evemu}
shift || true
replay=build/tools/replay/utouch-replay
"$replay" "$@" "$rec"
"$replay" --summary "$@" "$rec"
echo "# what a geis application sees (utouch-events --fast --json; man doc/utouch-events.1)"
build/tools/events/utouch-events --recording "$rec" --fast --json -c drag,pinch,rotate -t 2
