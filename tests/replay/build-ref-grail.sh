#!/bin/sh
# Build the reference harness (../shared/tools/ref-grail) against the
# original libgrail/libframe, outside the project's own build flags: it is an
# oracle for the differential tests, never part of utouch.
# usage: build-ref-grail.sh [--batch] SOURCE OUTPUT
#   --batch: build ref-grail-batch instead (ref-grail-batch.c: the same
#   source, its main() renamed, run once per line of a batch file)
set -e
batch=no
if [ "$1" = --batch ]; then batch=yes; shift; fi
src=$1 out=$2
if [ ! -f "$src" ] || ! pkg-config --exists grail frame mtdev; then
	# leave a stub that makes every differential test report "skipped"
	printf '#!/bin/sh\necho "ref-grail unavailable (needs %s and libgrail-dev libframe-dev libmtdev-dev)" >&2\nexit 77\n' "$src" > "$out"
	chmod +x "$out"
	exit 0
fi
cc=${CC_REF:-cc}
if [ "$batch" = no ]; then
	$cc -O2 -std=gnu11 -w -o "$out" "$src" \
		$(pkg-config --cflags --libs grail frame mtdev) -lm
	exit 0
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
obj=$out.ref-grail.o
$cc -O2 -std=gnu11 -w -Dmain=ref_grail_main -c -o "$obj" "$src" \
	$(pkg-config --cflags grail frame mtdev)
$cc -O2 -std=gnu11 -D_GNU_SOURCE -I"$top/tools/common" -I"$top/tools/replay" -I"$top/src" \
	$(pkg-config --cflags grail frame) \
	-Wl,--wrap=grail_update_time,--wrap=grail_process_frame_event,--wrap=grail_subscription_activate \
	-o "$out" "$top/tests/replay/ref-grail-batch.c" "$top/tools/replay/batch.c" \
	"$top/tools/common/tool.c" "$obj" $(pkg-config --libs grail frame mtdev) -lm
rm -f "$obj"
