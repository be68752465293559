#!/bin/sh
# Build the reference harness (../shared/tools/ref-grail) against the
# original libgrail/libframe, outside the project's own build flags: it is an
# oracle for the differential tests, never part of utouch.
# usage: build-ref-grail.sh SOURCE OUTPUT
set -e
src=$1 out=$2
if [ ! -f "$src" ] || ! pkg-config --exists grail frame mtdev; then
	# leave a stub that makes every differential test report "skipped"
	printf '#!/bin/sh\necho "ref-grail unavailable (needs %s and libgrail-dev libframe-dev libmtdev-dev)" >&2\nexit 77\n' "$src" > "$out"
	chmod +x "$out"
	exit 0
fi
${CC_REF:-cc} -O2 -std=gnu11 -w -o "$out" "$src" \
	$(pkg-config --cflags --libs grail frame mtdev) -lm
