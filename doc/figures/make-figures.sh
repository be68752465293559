#!/bin/sh
# Regenerate the figures in doc/figures/ with utouch-plot from the bundled
# recordings.  Run it after a change to the recognizer or to utouch-plot and
# commit the result.  drag-3-x11-grail31.svg is not redrawn: it shows the
# same replay through grail 3.1's angle estimate, before issue 15.
# usage: doc/figures/make-figures.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
plot=$build/tools/plot/utouch-plot
[ -x "$plot" ] || { echo "make-figures: $plot not built (meson compile -C $build)" >&2; exit 1; }
cd "$src"   # the figures name recordings relative to the source tree
# the pinch bug game: four candidate pairs, the client accepts a gesture
# once its construction is finished, grail cancels the losing pairs
"$plot" --policy accept-cf -s mask=pinch,touches=2 \
	data/recordings/touchscreen/bug-game-4.evemu -o "$here/bug-game.svg"
# a three-finger drag with the fingers in a row, framed as an X server
# delivers it, for a client subscribed to drag and to rotate
"$plot" --x11 -s mask=drag,touches=3 -s mask=rotate,touches=3 \
	data/recordings/touchscreen/drag-3.evemu -o "$here/drag-3-x11.svg"
echo "make-figures: wrote $(ls "$here"/*.svg | wc -l) figures in $here"
