#!/bin/sh
# CPU time and peak memory of utouch-replay and utouch-events --fast on
# long recordings: 1, 10 and 30 minutes of activity, generated with
# utouch-synth in a temporary directory and removed afterwards (they are
# 1.5, 15 and 46 MB of evemu).  doc/performance.md, "Long recordings
# through the tools", shows the results.
#
#   bench/long-recordings.sh [--minutes "1 10 30"] [--ten-fingers] BUILD [BUILD...]
#
# Each BUILD is a build directory with tools/replay/utouch-replay and
# tools/events/utouch-events (e.g. a build of an older revision next to
# the current one); the recordings come from the first one's utouch-synth.
# With --ten-fingers, a burst of ten-finger touches is measured too, through
# utouch-events --no-atomic (the case of point 11 of issue 10).
# Output: one line per tool, build and length: CPU seconds (user+system)
# and peak RSS (from GNU time).
set -eu
minutes="1 10 30"
ten=no
while [ $# -gt 0 ]; do
	case $1 in
	--minutes) minutes=$2; shift 2 ;;
	--ten-fingers) ten=yes; shift ;;
	--) shift; break ;;
	-*) echo "long-recordings.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: long-recordings.sh [--minutes LIST] [--ten-fingers] BUILD..." >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "long-recordings.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
synth=$1/tools/synth/utouch-synth
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for m in $minutes; do
	# 48 repeats of a drag and a tap take about a minute
	cat >"$tmp/long-$m.scn" <<SCN
device touchscreen
rate 100
repeat $((m * 48)) gap=300
  drag from=120,60 to=120,130 dur=600 touches=2 spacing=25
  next gap=300
  tap pos=150,100 dur=50
end
SCN
	"$synth" -o "$tmp/long-$m.evemu" "$tmp/long-$m.scn"
done

measure() { # LABEL COMMAND...
	label=$1; shift
	/usr/bin/time -o "$tmp/time" -f "%U %S %M" "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "$label: failed:"; cat "$tmp/err"; return 0; }
	awk -v l="$label" '{ printf "%-48s cpu %7.2f s  peak RSS %7.1f MB\n", l, $1 + $2, $3 / 1024 }' "$tmp/time"
}

for b in "$@"; do
	for m in $minutes; do
		measure "$b utouch-replay ${m} min" \
			"$b/tools/replay/utouch-replay" --summary "$tmp/long-$m.evemu"
		measure "$b utouch-events --fast ${m} min" \
			"$b/tools/events/utouch-events" -r "$tmp/long-$m.evemu" --fast -c drag,tap -t 2
	done
done

if [ $ten = yes ]; then
	# ten fingers landing one after the other, moving together, lifting
	cat >"$tmp/ten.scn" <<SCN
device touchscreen
rate 100
drag from=40,60 to=40,110 dur=700 touches=10 spacing=12 stagger=20
SCN
	"$synth" -o "$tmp/ten.evemu" "$tmp/ten.scn"
	for b in "$@"; do
		measure "$b utouch-events --no-atomic ten fingers" \
			"$b/tools/events/utouch-events" -r "$tmp/ten.evemu" --fast --no-atomic \
			-c drag,pinch,rotate,tap -t 1,2,3,4,5
	done
fi
