#!/bin/sh
# Rebuild every bundled recording in data/recordings from its scenario in
# data/scenarios, as listed in data/recordings/manifest.txt.
#
#   data/regenerate.sh [PATH-TO-utouch-synth]
#
# Without an argument the tool is built in /tmp/build-synth first.
set -eu
data=$(cd "$(dirname "$0")" && pwd)
if [ $# -ge 1 ]; then
	synth=$1
else
	[ -f /tmp/build-synth/build.ninja ] || meson setup /tmp/build-synth "$data/.." >/dev/null
	meson compile -C /tmp/build-synth tools/synth/utouch-synth >/dev/null
	synth=/tmp/build-synth/tools/synth/utouch-synth
fi
grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$data/recordings/manifest.txt" |
while read -r output scenario options; do
	mkdir -p "$(dirname "$data/recordings/$output")"
	# shellcheck disable=SC2086 # options are meant to be split
	"$synth" $options -o "$data/recordings/$output" "$data/scenarios/$scenario"
	echo "$output"
done
