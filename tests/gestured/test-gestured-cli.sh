#!/bin/sh
# utouch-gestured's command line: --help, --version, --check on good and
# broken files, bad options.
# Usage: test-gestured-cli.sh EXE SRCDIR x11|nox11 xrandr|noxrandr
exe=$1
src=$2
x11=${3:-x11}
xrandr=${4:-xrandr}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect STATUS DESCRIPTION -- command...
	want=$1; what=$2; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: status $got, expected $want"; cat "$tmp/out" "$tmp/err"; fail=1
	fi
}
expect 0 "--help" -- "$exe" --help
grep -q -- "--dry-run" "$tmp/out" || { echo "FAIL: --help does not list --dry-run"; fail=1; }
expect 0 "--version" -- "$exe" --version
grep -q "^utouch-gestured [0-9]" "$tmp/out" || { echo "FAIL: --version: $(cat "$tmp/out")"; fail=1; }
expect 2 "unknown option" -- "$exe" --frobnicate
expect 2 "an empty configuration path" -- "$exe" --config ""
grep -q "the configuration path is empty" "$tmp/err" || { echo "FAIL: --config \"\": $(cat "$tmp/err")"; fail=1; }
expect 2 "bad backend" -- "$exe" --backend wayland
grep -q 'unknown backend "wayland"' "$tmp/err" || { echo "FAIL: bad backend message"; fail=1; }
# the example sends keys: XTest on X11, the uinput keyboard without it
expect 0 "--check of the example" -- "$exe" --check --config "$src/../../tools/gestured/gestures.yaml"
grep -q "OK, 7 rules" "$tmp/out" || { echo "FAIL: example: $(cat "$tmp/out")"; fail=1; }
printf 'gestures:\n  - gesture: swipe\n    fingers: 3\n    direction: sideways\n    command: x\n' >"$tmp/bad.yaml"
expect 1 "--check of a broken file" -- "$exe" --check --config "$tmp/bad.yaml"
grep -q "^$tmp/bad.yaml:4:16: \"direction\": unknown value \"sideways\"" "$tmp/err" ||
	{ echo "FAIL: broken file message: $(cat "$tmp/err")"; fail=1; }
# a missing file is what the daemon runs with no gestures from: --check agrees
expect 0 "--check of a missing file" -- "$exe" --check --config "$tmp/none.yaml"
grep -q "none.yaml: no such file: utouch-gestured runs with no gestures until it is created" "$tmp/out" &&
	grep -q 'XDG_CONFIG_HOME/utouch/gestures.yaml' "$tmp/out" ||
	{ echo "FAIL: missing file message: $(cat "$tmp/out" "$tmp/err")"; fail=1; }
HOME=$tmp/home XDG_CONFIG_HOME= expect 0 "--check without any file" -- "$exe" --check
grep -q "^$tmp/home/.config/utouch/gestures.yaml: no such file" "$tmp/out" ||
	{ echo "FAIL: default missing file: $(cat "$tmp/out" "$tmp/err")"; fail=1; }
# the file as an operand
expect 1 "--check FILE of a broken file" -- "$exe" --check "$tmp/bad.yaml"
grep -q "^$tmp/bad.yaml:4:16: \"direction\": unknown value \"sideways\"" "$tmp/err" ||
	{ echo "FAIL: --check FILE: $(cat "$tmp/err")"; fail=1; }
expect 2 "two operands" -- "$exe" --check "$tmp/bad.yaml" "$tmp/bad.yaml"
# orientation: auto follows RandR, where the daemon was built with it
printf 'settings:\n  orientation: auto\n' >"$tmp/auto.yaml"
if [ "$xrandr" = xrandr ]; then
	expect 0 "orientation: auto" -- "$exe" --check "$tmp/auto.yaml"
else
	expect 1 "orientation: auto without libXrandr" -- "$exe" --check "$tmp/auto.yaml"
	grep -q "^$tmp/auto.yaml:2:16: \"orientation\": \"auto\" follows the X server's RandR rotation, and this utouch-gestured was built without libXrandr; set normal, left, inverted or right" "$tmp/err" ||
		{ echo "FAIL: auto without libXrandr: $(cat "$tmp/err")"; fail=1; }
fi
# every error of the file, then the rules that can never run
printf 'gestures:\n  - {gesture: tap, fingers: 7, command: x}\n  - {gesture: swipe, fingers: 2, direction: sideways, command: x}\n  - {gesture: pinch, fingers: 2, colour: red, command: x}\n' >"$tmp/three.yaml"
expect 1 "--check lists every error" -- "$exe" --check "$tmp/three.yaml"
[ "$(grep -c "^$tmp/three.yaml:[234]:" "$tmp/err")" = 3 ] ||
	{ echo "FAIL: every error: $(cat "$tmp/err")"; fail=1; }
# a repeated key does not hide the errors after it
printf 'gestures:\n  - {gesture: tap, fingers: 2, command: a, command: b}\n  - {gesture: swipe, fingers: 9, command: x}\n' >"$tmp/twice.yaml"
expect 1 "--check goes on after a repeated key" -- "$exe" --check "$tmp/twice.yaml"
grep -q "^$tmp/twice.yaml:2:44: \"command\" appears twice (first on line 2)" "$tmp/err" &&
	grep -q "^$tmp/twice.yaml:3:31: \"fingers\": 9 is out of range (1 to 5)" "$tmp/err" ||
	{ echo "FAIL: errors after a repeated key: $(cat "$tmp/err")"; fail=1; }
printf 'gestures:\n  - {gesture: tap, fingers: 2, command: a}\n  - {gesture: tap, fingers: 2, command: b}\n' >"$tmp/dup.yaml"
expect 0 "--check warns about duplicates" -- "$exe" --check "$tmp/dup.yaml"
grep -q "^$tmp/dup.yaml:3:5: warning: this rule can never run: the rule on line 2 takes the same gestures first (a duplicate)" "$tmp/err" &&
	grep -q "OK, 2 rules, 1 that can never run" "$tmp/out" ||
	{ echo "FAIL: duplicates: $(cat "$tmp/out" "$tmp/err")"; fail=1; }
# the daemon logs the rules that can never run when it loads the file
expect 1 "the daemon warns about duplicates" -- "$exe" --backend evdev --evdev-dir "$tmp/nodir" "$tmp/dup.yaml"
grep -q "dup.yaml:3:5: warning: this rule can never run" "$tmp/err" ||
	{ echo "FAIL: the daemon does not warn: $(cat "$tmp/err")"; fail=1; }
# a configuration others may write is refused (it runs commands)
chmod 0666 "$tmp/dup.yaml"
expect 1 "--check of a file everyone may write" -- "$exe" --check "$tmp/dup.yaml"
grep -q "refused: the file is writable by everyone" "$tmp/err" ||
	{ echo "FAIL: world-writable: $(cat "$tmp/err")"; fail=1; }
# the default path follows XDG_CONFIG_HOME
mkdir -p "$tmp/xdg/utouch"
printf 'gestures:\n  - {gesture: tap, fingers: 2, command: x}\n' >"$tmp/xdg/utouch/gestures.yaml"
XDG_CONFIG_HOME=$tmp/xdg expect 0 "--check of the default path" -- "$exe" --check
grep -q "$tmp/xdg/utouch/gestures.yaml: OK, 1 rules" "$tmp/out" ||
	{ echo "FAIL: default path: $(cat "$tmp/out")"; fail=1; }
# a daemon that cannot start says why (evdev on a directory that does not exist)
expect 1 "a missing evdev directory" -- "$exe" --backend evdev --evdev-dir "$tmp/nodir" --config "$tmp/xdg/utouch/gestures.yaml"
[ -s "$tmp/err" ] || { echo "FAIL: no message for a missing evdev directory"; fail=1; }
# one daemon per user: a second one says so and exits 0, the first goes on;
# once the first is gone (even killed) a new one starts
mkdir -p "$tmp/run" "$tmp/dev"
cfg=$tmp/xdg/utouch/gestures.yaml
XDG_RUNTIME_DIR=$tmp/run "$exe" --backend evdev --evdev-dir "$tmp/dev" --config "$cfg" 2>"$tmp/first.err" &
first=$!
i=0
while ! grep -q "ready:" "$tmp/first.err" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
XDG_RUNTIME_DIR=$tmp/run expect 0 "a second daemon" -- timeout 5 "$exe" --backend evdev --evdev-dir "$tmp/dev" --config "$cfg"
grep -q "already running (pid $first); not starting a second daemon" "$tmp/err" ||
	{ echo "FAIL: second daemon: $(cat "$tmp/err")"; fail=1; }
kill -0 $first 2>/dev/null || { echo "FAIL: the first daemon is gone"; fail=1; }
kill -KILL $first; wait $first 2>/dev/null
# (a killed daemon leaves its lock file, unlocked; the next one uses it and,
# ended by SIGTERM, removes it: no file is left behind)
[ -e "$tmp/run/utouch-gestured.lock" ] || { echo "FAIL: no lock file after SIGKILL"; fail=1; }
XDG_RUNTIME_DIR=$tmp/run timeout 1 "$exe" --backend evdev --evdev-dir "$tmp/dev" --config "$cfg" 2>"$tmp/third.err"
[ $? = 124 ] || { echo "FAIL: no daemon starts after the first was killed: $(cat "$tmp/third.err")"; fail=1; }
[ -e "$tmp/run/utouch-gestured.lock" ] && { echo "FAIL: the lock file is left after SIGTERM"; fail=1; }
# a recording is a trial run: it may play beside a daemon (checked above
# with the lock free; here with it held)
XDG_RUNTIME_DIR=$tmp/run "$exe" --backend evdev --evdev-dir "$tmp/dev" --config "$cfg" 2>"$tmp/first.err" &
first=$!
i=0
while ! grep -q "ready:" "$tmp/first.err" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
XDG_RUNTIME_DIR=$tmp/run expect 0 "a recording beside a daemon" -- timeout 10 "$exe" --config "$cfg" --recording "$src/../../data/recordings/touchscreen/tap-1.evemu" --fast
kill -INT $first; wait $first
[ $? = 0 ] || { echo "FAIL: SIGINT: exit status not 0"; fail=1; }
[ -e "$tmp/run/utouch-gestured.lock" ] && { echo "FAIL: the lock file is left after SIGINT"; fail=1; }
# the autostart entry steps aside in systemd-managed sessions
grep -qx "X-systemd-skip=true" "$src/../../tools/gestured/utouch-gestured.desktop.in" ||
	{ echo "FAIL: the autostart entry lacks X-systemd-skip=true"; fail=1; }
# --fast without a recording, --proxy with the X11 backend
expect 2 "--fast without --recording" -- "$exe" --fast --config "$cfg"
expect 2 "--proxy with --backend x11" -- "$exe" --proxy --backend x11 --config "$cfg"
# without X, per-application rules are explained, not silently dead
printf 'gestures:\n  - {gesture: tap, fingers: 2, app: firefox, command: x}\n' >"$tmp/app.yaml"
DISPLAY= expect 0 "an app rule without X" -- "$exe" --config "$tmp/app.yaml" --recording "$src/../../data/recordings/touchscreen/tap-1.evemu" --fast
grep -q "app.yaml:2: \"app: firefox\" needs X11" "$tmp/err" || { echo "FAIL: app rule without X: $(cat "$tmp/err")"; fail=1; }
# settings: proxy is --proxy; a uinput node that cannot be opened says so
printf 'settings:\n  proxy: true\ngestures: []\n' >"$tmp/proxy.yaml"
expect 1 "proxy without uinput" -- "$exe" --config "$tmp/proxy.yaml" --uinput "$tmp/nonode" --recording "$src/../../data/recordings/touchscreen/tap-1.evemu" --fast
grep -q "cannot open $tmp/nonode: No such file or directory (is the uinput module loaded?)" "$tmp/err" ||
	{ echo "FAIL: proxy without uinput: $(cat "$tmp/err")"; fail=1; }
# the running daemon follows its file: created as a symlink or a hard link
# (no IN_CLOSE_WRITE comes for either), replaced by a directory
mkdir -p "$tmp/ev" "$tmp/run2"
XDG_RUNTIME_DIR=$tmp/run2 "$exe" --backend evdev --evdev-dir "$tmp/ev" --config "$tmp/live.yaml" 2>"$tmp/daemon" &
daemon=$!
wait_log() {  # wait_log COUNT TEXT: until TEXT is in the daemon's log COUNT times (3 s)
	i=0
	while [ "$(grep -c -- "$2" "$tmp/daemon")" -lt "$1" ] && [ $i -lt 60 ]; do
		sleep 0.05; i=$((i + 1))
	done
	[ "$(grep -c -- "$2" "$tmp/daemon")" -ge "$1" ] ||
		{ echo "FAIL: $3: no '$2' in the daemon's log: $(cat "$tmp/daemon")"; fail=1; }
}
wait_log 1 "ready: $tmp/live.yaml" "start"
ln -s "$tmp/xdg/utouch/gestures.yaml" "$tmp/live.yaml"
wait_log 1 "configuration reloaded: 1 rules" "a symlink created"
rm "$tmp/live.yaml"
wait_log 1 "live.yaml is gone" "the symlink removed"
ln "$tmp/xdg/utouch/gestures.yaml" "$tmp/live.yaml"
wait_log 2 "configuration reloaded: 1 rules" "a hard link created"
rm "$tmp/live.yaml"
wait_log 2 "live.yaml is gone" "the hard link removed"
mkdir "$tmp/live.yaml"
wait_log 1 "live.yaml: not a regular file; keeping the previous configuration" "a directory"
kill "$daemon"
wait "$daemon"

# the configuration's directory removed and made again: the daemon says
# that its changes no longer reload, SIGHUP watches the new one
mkdir -p "$tmp/livedir"
printf 'gestures:\n  - {gesture: tap, fingers: 2, command: "true"}\n' >"$tmp/livedir/g.yaml"
XDG_RUNTIME_DIR=$tmp/run2 "$exe" --backend evdev --evdev-dir "$tmp/ev" --config "$tmp/livedir/g.yaml" 2>"$tmp/daemon" &
daemon=$!
wait_log 1 "ready: $tmp/livedir/g.yaml" "start in a directory"
rm -r "$tmp/livedir"
wait_log 1 "$tmp/livedir was removed or moved: its changes no longer reload" "the directory removed"
mkdir "$tmp/livedir"
printf 'gestures:\n  - {gesture: tap, fingers: 3, command: "true"}\n' >"$tmp/livedir/g.yaml"
kill -HUP "$daemon"
wait_log 1 "watching $tmp/livedir again" "SIGHUP after the directory came back"
wait_log 1 "configuration reloaded: 1 rules" "SIGHUP reloads"
printf 'gestures:\n  - {gesture: tap, fingers: 4, command: "true"}\n  - {gesture: tap, fingers: 3, command: "true"}\n' >"$tmp/livedir/g.yaml"
wait_log 1 "configuration reloaded: 2 rules" "an edit in the new directory"
kill "$daemon"
wait "$daemon"

# SIGTERM stops a start that waits (here for a writer of the FIFO given
# as the recording): the signals reach the signalfd only once it runs
mkfifo "$tmp/fifo.evemu"
"$exe" --config "$cfg" --recording "$tmp/fifo.evemu" --fast >"$tmp/fifo.out" 2>&1 &
daemon=$!
sleep 0.3
kill -TERM "$daemon"
i=0
while kill -0 "$daemon" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$daemon" 2>/dev/null; then
	echo "FAIL: SIGTERM did not stop a start waiting for its recording"; fail=1
	kill -KILL "$daemon"
fi
wait "$daemon" 2>/dev/null
# an endless input is refused when it is read, not when the disk is full
expect 1 "/dev/zero as the recording" -- timeout 10 "$exe" --config "$cfg" --recording /dev/zero --fast
grep -q "/dev/zero:1: NUL byte in the file" "$tmp/err" ||
	{ echo "FAIL: /dev/zero: $(cat "$tmp/out" "$tmp/err")"; fail=1; }
# --fast plays the recording in virtual time, and holds and timeouts are
# measured in it: a finger held still is a hold, a swipe slower than its
# rule's timeout is not that rule's (the same decisions as in real time)
printf 'gestures:\n  - {gesture: hold, fingers: 1, time: 300, command: "echo HOLD"}\n  - {gesture: swipe, fingers: 3, timeout: 100, threshold: 30, command: "echo SWIPE"}\n' >"$tmp/virtual.yaml"
expect 0 "a hold in virtual time" -- timeout 20 "$exe" -v --dry-run --config "$tmp/virtual.yaml" \
	--recording "$src/../../data/recordings/touchscreen/hold-1.evemu" --fast
grep -q "command hold fingers=1 .*: echo HOLD" "$tmp/out" ||
	{ echo "FAIL: --fast: no hold: $(cat "$tmp/out" "$tmp/err")"; fail=1; }
expect 0 "a swipe past its timeout in virtual time" -- timeout 20 "$exe" -v --dry-run \
	--config "$tmp/virtual.yaml" --recording "$src/../../data/recordings/touchscreen/drag-3.evemu" --fast
grep -q "reject 3-finger swipe .*: no rule matches" "$tmp/err" && ! grep -q "echo SWIPE" "$tmp/out" ||
	{ echo "FAIL: --fast: the slow swipe: $(cat "$tmp/out" "$tmp/err")"; fail=1; }

# more rules for one gesture than a gesture is weighed against: said
{
	printf 'gestures:\n'
	i=0
	while [ $i -lt 64 ]; do
		printf '  - {gesture: swipe, fingers: 3, direction: up, threshold: %s, command: "true"}\n' $((64 - i))
		i=$((i + 1))
	done
	printf '  - {gesture: swipe, fingers: 3, direction: right, command: "true"}\n'
} >"$tmp/cand65.yaml"
expect 0 "65 rules for one gesture" -- "$exe" --check --config "$tmp/cand65.yaml"
grep -q "cand65.yaml:66:5: warning: this rule may never run: 64 rules before it are for 3-finger swipes" "$tmp/err" &&
	grep -q "OK, 65 rules, 1 that can never run" "$tmp/out" ||
	{ echo "FAIL: 65 rules: $(cat "$tmp/out" "$tmp/err")"; fail=1; }

# a proxy output that cannot be written is said and fails the trial run
expect 1 "--proxy-output to a full disk" -- timeout 20 "$exe" --config "$tmp/virtual.yaml" \
	--recording "$src/../../data/recordings/touchscreen/drag-1.evemu" --fast --proxy-output /dev/full
grep -q "recording: proxy: writing to the clone of .* failed: No space left on device" "$tmp/err" ||
	{ echo "FAIL: /dev/full: $(cat "$tmp/err")"; fail=1; }

# ten fingers, every subset a candidate (whole-hand off), rules that keep
# them all undecided: more gestures at once than the daemon followed (64);
# each still begins once and is decided once
{
	printf 'settings:\n  whole-hand: false\ngestures:\n'
	for g in swipe pinch rotate; do
		for n in 1 2 3 4 5; do
			[ $g != swipe ] && [ $n = 1 ] && continue
			printf '  - {gesture: %s, fingers: %s, threshold: 900, command: "true"}\n' $g $n
		done
	done
	printf '  - {gesture: hold, fingers: 1, time: 60000, threshold: 900, command: "true"}\n'
} >"$tmp/crowd.yaml"
expect 0 "a crowd of undecided gestures" -- timeout 60 "$exe" -v --dry-run --config "$tmp/crowd.yaml" \
	--recording "$src/../../data/recordings/touchscreen/storm-10.evemu" --fast
begins=$(grep -c " begins at " "$tmp/err")
distinct=$(grep -oE "[a-z]+ [0-9]+ begins at " "$tmp/err" | sort -u | wc -l)
if [ "$begins" -lt 200 ] || [ "$begins" != "$distinct" ]; then
	echo "FAIL: crowd: $begins begins for $distinct gestures"; fail=1
fi
[ $fail = 0 ] && echo "gestured-cli: ok"
exit $fail
