#!/bin/sh
# utouch-wlcomp refuses bad subscription options with the file, line and
# column of the option, and exits with a status that is not 0.
# Usage: test-wlcomp-config.sh EXE
exe=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR=$tmp
fail=0
# refused OPTIONS-LINES EXPECTED-MESSAGE: the options go to a subscription
# whose "options:" mapping starts on line 6
refused() {
	{
		printf 'subscriptions:\n  - name: three\n    gestures: drag\n    touches: 3\n'
		printf '    options:\n'
		printf '%s\n' "$1"
	} >"$tmp/g.yaml"
	timeout 20 "$exe" --headless --config "$tmp/g.yaml" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "$status" = 0 ]; then
		echo "FAIL: accepted: $1"; fail=1
	fi
	grep -qF -- "$tmp/g.yaml:$2" "$tmp/err" ||
		{ echo "FAIL: $1: expected $tmp/g.yaml:$2, got: $(cat "$tmp/err")"; fail=1; }
}
refused '      action: move-window
      swipe-distance: inf' '7:23: "swipe-distance": "inf" is not a number'
refused '      action: move-window
      swipe-time: "1e300"' '7:19: "swipe-time": 1e300 is out of range (0 to 60000)'
refused '      action: move-window
      swipe-time: 2.5' '7:19: "swipe-time": 2.5 is not a whole number'
refused '      action: move-window
      swipe-tme: 300' '7:18: unknown option "swipe-tme" (did you mean "swipe-time"?)'
refused '      action: teleport' '6:15: "action": unknown action "teleport"'
refused '      action: spawn' '2:5: the action spawn needs a "command" option'
refused '      action: focus-next
      command: xterm' '7:16: "command" is for the action spawn'
# a subscription without a name
printf 'subscriptions:\n  - gestures: drag\n    touches: 3\n    options:\n      action: focus-next\n' >"$tmp/n.yaml"
timeout 20 "$exe" --headless --config "$tmp/n.yaml" >"$tmp/out" 2>"$tmp/err"
[ $? != 0 ] || { echo "FAIL: a subscription without a name was accepted"; fail=1; }
grep -qF "$tmp/n.yaml:2:5: the subscription needs a \"name\"" "$tmp/err" ||
	{ echo "FAIL: no name: $(cat "$tmp/err")"; fail=1; }
[ $fail = 0 ] && echo "wlcomp-config: ok"
exit $fail
