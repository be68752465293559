#!/bin/sh
# A client that never decides its non-atomic gestures: grail keeps finding
# new ones after 4096 (the cap counts live gestures only; ended, undecided
# ones are released).  4200 one-finger taps, generated in a temporary
# directory, each give one touch gesture.
synth=$1 replay=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'device touchscreen\nrate 100\nrepeat 4200 gap=20\n  tap pos=150,100 dur=30\nend\n' >"$tmp/taps.scn"
"$synth" -o "$tmp/taps.evemu" "$tmp/taps.scn" || exit 1
out=$("$replay" --summary --policy none -s mask=touch,touches=1 "$tmp/taps.evemu") || exit 1
echo "$out"
case $out in
*" gestures=4200 ended=4200 touch/1=4200") exit 0 ;;
esac
echo "FAIL: want 4200 gestures"
exit 1
