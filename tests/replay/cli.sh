#!/bin/sh
# Command-line behaviour of utouch-replay: help, usage errors, unreadable and
# malformed recordings (the message names the file and line), and the
# summary and bench outputs.
replay=$1 recs=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # DESCRIPTION EXPECTED-STATUS PATTERN -- COMMAND...
	desc=$1 want=$2 pat=$3; shift 4
	"$@" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" != "$want" ] || ! grep -q -- "$pat" "$tmp/out"; then
		echo "FAIL: $desc (status $got, want $want; pattern '$pat')"
		sed 's/^/    /' "$tmp/out" | head -n 10
		fail=1
	else
		echo "ok: $desc"
	fi
}
check "help" 0 "usage: utouch-replay" -- "$replay" --help
check "no recording" 2 "no recording given" -- "$replay"
check "unknown option" 2 "unknown option" -- "$replay" --bogus "$recs/touchscreen/drag-2.evemu"
check "bad policy" 2 "unknown policy 'maybe'" -- "$replay" --policy maybe "$recs/touchscreen/drag-2.evemu"
check "bad subscription key" 2 "unknown subscription key 'colour'" -- "$replay" -s colour=red "$recs/touchscreen/drag-2.evemu"
check "bad subscription value" 2 "bad value 'wiggle' for subscription key 'mask'" -- "$replay" -s mask=wiggle "$recs/touchscreen/drag-2.evemu"
check "bad screen" 2 "--screen takes WxH" -- "$replay" --screen 0x5 "$recs/touchscreen/drag-2.evemu"
check "invalid subscription for grail" 2 "subscription 0 is invalid" -- "$replay" -s touches=9 "$recs/touchscreen/drag-2.evemu"
check "missing file" 1 "$tmp/nope.evemu" -- "$replay" "$tmp/nope.evemu"
printf '# EVEMU 1.3\nN: x\nA: 35 0 100 0 0 0\nA: 36 0 100 0 0 0\nE: 0.000000 0003 0035 10\nE: zero 0003 0036 10\n' >"$tmp/bad.evemu"
check "malformed line names file:line" 1 "$tmp/bad.evemu:6:" -- "$replay" "$tmp/bad.evemu"
printf '# EVEMU 1.3\nN: keyboard\nB: 01 00 00 00 00 00 00 00 01\nE: 0.000000 0001 0001 1\nE: 0.000000 0000 0000 0\n' >"$tmp/kbd.evemu"
check "device without touch axes" 1 "no ABS_MT_POSITION_X/Y" -- "$replay" "$tmp/kbd.evemu"
check "summary" 0 "^summary file=drag-2.evemu frames=63 events=[1-9][0-9]* gestures=1 ended=1 drag/2=1$" -- "$replay" --summary "$recs/touchscreen/drag-2.evemu"
check "bench" 0 "^bench file=drag-2.evemu iterations=3 frames=63 events_per_iter=[1-9]" -- "$replay" --bench 3 "$recs/touchscreen/drag-2.evemu"
check "frames header" 0 "^# file=.* protocol=B direct=1 frames=63 touchops=126 split=0 own=event$" -- "$replay" --frames "$recs/touchscreen/drag-2.evemu"
check "x11 header" 0 "split=1 own=event$" -- "$replay" --x11 "$recs/touchscreen/drag-2.evemu"
# a recording cut off with two fingers down: both end at its last event
head -n 200 "$recs/touchscreen/drag-2.evemu" >"$tmp/cut.evemu"
check "cut-off recording ends its touches" 0 "ends with 2 touches down; they end at its last event" -- "$replay" --summary "$tmp/cut.evemu"
check "cut-off recording ends its gesture" 0 "^summary file=cut.evemu .* gestures=1 ended=1 drag/2=1$" -- "$replay" --summary "$tmp/cut.evemu"
# protocol A with 40 contacts in a report: the first 31 go through mtdev
{
	grep -e '^[NIPBA]:' "$recs/touchscreen-a/drag-2.evemu"
	for r in 0 1; do
		c=0
		while [ $c -lt 40 ]; do
			echo "E: 0.0${r}0000 0003 0035 $((100 + c * 200 + r * 30))"
			echo "E: 0.0${r}0000 0003 0036 $((100 + c * 100))"
			echo "E: 0.0${r}0000 0003 0030 9"
			echo "E: 0.0${r}0000 0000 0002 0"
			c=$((c + 1))
		done
		echo "E: 0.0${r}0000 0000 0000 0"
	done
	echo "E: 0.020000 0000 0002 0"
	echo "E: 0.020000 0000 0000 0"
} >"$tmp/a40.evemu"
check "protocol A report of 40 contacts does not hang" 0 "18 protocol A contacts beyond 31 in one report were left out" -- timeout 20 "$replay" --frames "$tmp/a40.evemu"
check "protocol A report of 40 contacts keeps 31" 0 "frames=4 touchops=124 " -- timeout 20 "$replay" --frames "$tmp/a40.evemu"
# --story: one sentence per gesture, distances in millimetres
check "story header" 0 '^drag-2.evemu: touchscreen "utouch-synth touchscreen", 2 touches in 0.61 s$' -- "$replay" --story "$recs/touchscreen/drag-2.evemu"
check "story drag" 0 "^gesture 0: two-finger drag, 70 mm down in 0.61 s; accepted$" -- "$replay" --story "$recs/touchscreen/drag-2.evemu"
check "story end" 0 "^1 gesture, every one ended$" -- "$replay" --story "$recs/touchscreen/drag-2.evemu"
check "story pinch" 0 "^gesture 0: two-finger pinch, in place, closed to 40 %, ending at 100 % in 1.11 s; accepted$" -- "$replay" --story -s mask=drag+pinch+rotate,touches=2 "$recs/touchscreen/pinch-2.evemu"
check "story rotation" 0 "turned 90° clockwise in 0.81 s; accepted$" -- "$replay" --story -s mask=drag+pinch+rotate,touches=2 "$recs/touchscreen/rotate-2.evemu"
check "story double tap" 0 "^gesture 1: one-finger double tap, 0.07 s; accepted$" -- "$replay" --story -s mask=tap,touches=1,multitap-max=2 "$recs/touchscreen/double-tap.evemu"
check "story rejected" 0 "^gesture 0: two-finger gesture, in place in 0.00 s; rejected$" -- "$replay" --story --reject "$recs/touchpad/drag-2.evemu"
check "story and summary exclude each other" 2 "exclude each other" -- "$replay" --story --summary "$recs/touchscreen/drag-2.evemu"
# nothing found with the default subscription: a hint about -s
check "no gesture hint" 0 "no gesture matched the default subscription .* choose others with -s" -- "$replay" --summary "$recs/touchscreen/drag-1.evemu"
check "story without gestures" 0 "^no gestures$" -- "$replay" --story "$recs/touchscreen/drag-1.evemu"
# a text file that is no recording says so, with its file and line
printf 'hello world\n' >"$tmp/notes.txt"
check "text file is no recording" 1 "$tmp/notes.txt:1: not an evemu or libinput-record recording" -- "$replay" "$tmp/notes.txt"
printf 'gestures:\n  - fingers: 3\n' >"$tmp/config.yaml"
check "YAML without devices is no recording" 1 "$tmp/config.yaml: not an evemu or libinput-record recording .*no 'devices' list" -- "$replay" "$tmp/config.yaml"
# --batch: one replay per line, each output as alone and then its status
ts=$recs/touchscreen
cp "$ts/pinch-2.evemu" "$tmp/with space.evemu"
{
	"$replay" -s mask=drag "$ts/drag-2.evemu"
	echo "# batch line=2 status=0"
	"$replay" --policy reject --x11 -s mask=drag+pinch+rotate,touches=2 -s mask=tap "$tmp/with space.evemu"
	echo "# batch line=4 status=0"
	"$replay" --summary "$ts/drag-2.evemu"
	echo "# batch line=5 status=0"
} >"$tmp/want" 2>/dev/null
{
	printf '# a comment; its quote is none: don'"'"'t\n'
	printf -- '-s mask=drag %s\n\n' "$ts/drag-2.evemu"
	printf -- '  --policy reject --x11 -s "mask=drag+pinch+rotate,touches=2"\t-s mask=tap '"'%s'"'\r\n' "$tmp/with space.evemu"
	printf -- '--summary %s' "$ts/drag-2.evemu"
} >"$tmp/batch"
check "batch runs each line" 0 "^# batch line=5 status=0$" -- "$replay" --batch "$tmp/batch"
if ! "$replay" --batch "$tmp/batch" 2>/dev/null | diff -u "$tmp/want" - >"$tmp/diff"; then
	echo "FAIL: batch output is not each replay's output and status"; head -n 20 "$tmp/diff"; fail=1
else
	echo "ok: batch output is each replay's output and status"
fi
printf -- '--summary -s mask=drag+pinch+rotate,touches=2 %s\n' "$(printf '%s' "$tmp/with space.evemu" | sed 's/ /\\ /')" >"$tmp/escaped"
check "batch backslash takes the next character" 0 "^summary file=with space.evemu frames=" -- "$replay" --batch "$tmp/escaped"
check "batch from standard input" 0 "^summary file=drag-2.evemu frames=63 " -- sh -c "echo '--summary $ts/drag-2.evemu' | \"\$0\" --batch -" "$replay"
printf -- '-s mask=bogus %s\n--batch x\n-s "mask=drag %s\n--summary %s\n' "$ts/drag-2.evemu" "$ts/drag-2.evemu" "$ts/drag-2.evemu" >"$tmp/bad-batch"
check "batch line fails alone" 1 "$tmp/bad-batch:1: the replay ended with status 2" -- "$replay" --batch "$tmp/bad-batch"
check "batch line's own error" 1 "bad value 'bogus' for subscription key 'mask'" -- "$replay" --batch "$tmp/bad-batch"
check "batch inside batch" 1 "--batch FILE comes alone" -- "$replay" --batch "$tmp/bad-batch"
check "batch unclosed quote names file:line" 1 "$tmp/bad-batch:3: a \" quote is not closed" -- "$replay" --batch "$tmp/bad-batch"
check "batch statuses" 1 "^# batch line=1 status=2$" -- "$replay" --batch "$tmp/bad-batch"
check "batch goes on after failures" 1 "^# batch line=4 status=0$" -- "$replay" --batch "$tmp/bad-batch"
check "batch missing file" 1 "$tmp/none.txt: No such file or directory" -- "$replay" --batch "$tmp/none.txt"
check "batch with other options" 2 "--batch FILE comes alone" -- "$replay" --summary --batch "$tmp/batch"
exit $fail
