#!/usr/bin/env python3
"""Tests of utouch-events (suite 'events').

usage: check-events.py CHECK UTOUCH-EVENTS RECORDINGS-DIR

CHECK is one of:
  json-drag      --json on a two-finger drag: event order, attribute values
  json-pinch     --json on a pinch: scale values, class filter
  json-tap       --json on taps: one UPDATE per tap with the touch count
  tap-any-touches  the same without a touch count filter
  text           the text output carries the same events and values as --json
  policy         --accept / --reject with --no-atomic
  filters        device, window and threshold options; the environment backend
  bad-options    usage errors exit 2 with a message; --help exits 0
  signals        SIGINT / SIGTERM during real-time playback exit 0 at once,
                 and end a program blocked opening a FIFO without a writer;
                 a short real-time recording ends the program by itself
  hostile        recordings as real devices and broken files make them: a
                 file cut off with fingers down ends its gestures, stamps
                 that step back a little are accepted, a protocol A report
                 of 40 contacts does not hang, an empty axis range is refused
  extensions     the utouch extension classes (hold, edge) and settings:
                 class names, "tap count", "edge" and "windowed velocity"
"""
import json
import math
import os
import re
import signal
import subprocess
import sys
import time

TOOL = None
RECS = None
failures = []

# The touchscreen presets map 300 x 200 mm onto a 1024 x 768 window.
def mm_x(v):
    return v * 1024.0 / 300.0


def mm_y(v):
    return v * 768.0 / 200.0


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)
    return cond


def run(args, env=None, timeout=30):
    e = dict(os.environ)
    e.pop("UTOUCH_GEIS_BACKEND", None)
    if env:
        e.update(env)
    p = subprocess.run([TOOL] + args, capture_output=True, text=True, timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr


def rec(name):
    return os.path.join(RECS, name)


def run_json(args, env=None):
    rc, out, err = run(args + ["--json"], env)
    check(rc == 0, "%s: exit status %d (stderr: %s)" % (args, rc, err.strip()))
    events = []
    for n, line in enumerate(out.splitlines(), 1):
        try:
            events.append(json.loads(line))
        except ValueError as ex:
            check(False, "%s: line %d is not JSON (%s): %r" % (args, n, ex, line[:200]))
    return events


def gesture_events(events):
    """(type, frame, event) for every frame of every gesture event."""
    out = []
    for ev in events:
        if ev.get("event", "").startswith(("GESTURE_", "TENTATIVE_")):
            check(len(ev["frames"]) >= 1, "gesture event without frames: %r" % ev)
            for fr in ev["frames"]:
                out.append((ev["event"], fr, ev))
    return out


def check_sequences(events, what):
    """Every gesture: BEGIN, UPDATE..., END; or a lone UPDATE for a tap.
    Returns {gesture id: [(type, frame, event), ...]}."""
    per = {}
    order = []
    for t, fr, ev in gesture_events(events):
        g = fr["gesture"]
        if g not in per:
            per[g] = []
            order.append(g)
        per[g].append((t, fr, ev))
    for g in order:
        types = [t for t, _, _ in per[g]]
        if types[0] == "GESTURE_BEGIN":
            check(types[-1] == "GESTURE_END", "%s: gesture %d does not end: %s" % (what, g, types[-3:]))
            check(all(t == "GESTURE_UPDATE" for t in types[1:-1]),
                  "%s: gesture %d: BEGIN/END inside its updates" % (what, g))
        else:
            check(types == ["GESTURE_UPDATE"] and per[g][0][1]["classes"] == ["Tap"],
                  "%s: gesture %d starts with %s (classes %s)" % (what, g, types[0], per[g][0][1]["classes"]))
        for t, fr, ev in per[g]:
            a = fr["attrs"]
            check(a.get("touches") == fr["touches"], "%s: touches field and attribute differ" % what)
            check(len(fr["touch_ids"]) == fr["touches"],
                  "%s: gesture %d has %d touch ids for %d touches" % (what, g, len(fr["touch_ids"]), fr["touches"]))
            ids = {t["id"] for t in ev["touchset"]}
            check(set(fr["touch_ids"]) <= ids, "%s: touch ids %s not in the touch set %s" % (what, fr["touch_ids"], ids))
            for touch in ev["touchset"]:
                check(set(touch["attrs"]) >= {"touch id", "touch x", "touch y"},
                      "%s: touch attributes %s" % (what, list(touch["attrs"])))
        times = [fr["attrs"]["timestamp"] for _, fr, _ in per[g]]
        check(times == sorted(times), "%s: gesture %d timestamps go back" % (what, g))
    return per


def check_preamble(events, what, device="utouch-synth touchscreen"):
    names = [e.get("event") for e in events]
    classes = [e["class"]["name"] for e in events if e.get("event") == "CLASS_AVAILABLE"]
    # always sent (as geis 2.2.17), Flick after INIT_COMPLETE
    check(classes == ["Drag", "Pinch", "Rotate", "Tap", "Touch", "Flick"],
          "%s: class events %s" % (what, classes))
    devs = [e["device"] for e in events if e.get("event") == "DEVICE_AVAILABLE"]
    if check(len(devs) == 1, "%s: %d device events" % (what, len(devs))):
        d = devs[0]
        check(d["name"] == device and d["attrs"]["device name"] == device, "%s: device name %r" % (what, d["name"]))
        check(d["id"] == d["attrs"]["device id"] == 1, "%s: device id %r" % (what, d["id"]))
        for key in ("device touches", "direct touch", "device X maximum", "device Y resolution"):
            check(key in d["attrs"], "%s: device attribute %r missing" % (what, key))
    check("INIT_COMPLETE" in names, "%s: no INIT_COMPLETE" % what)
    if "INIT_COMPLETE" in names:
        first_gesture = next((i for i, n in enumerate(names) if n.startswith("GESTURE_")), len(names))
        check(names.index("INIT_COMPLETE") < first_gesture, "%s: gestures before INIT_COMPLETE" % what)


# ---- checks ----

def json_drag():
    what = "json drag-2"
    events = run_json(["--recording", rec("touchscreen/drag-2.evemu"), "--fast", "--class", "drag", "--touches", "2"])
    check_preamble(events, what)
    per = check_sequences(events, what)
    check(len(per) == 1, "%s: %d gestures, want 1" % (what, len(per)))
    if not per:
        return
    frames = list(per.values())[0]
    check(len(frames) >= 20, "%s: only %d events" % (what, len(frames)))
    last_y = -1.0
    for t, fr, ev in frames:
        a = fr["attrs"]
        check(fr["classes"] == ["Drag"], "%s: classes %s" % (what, fr["classes"]))
        check(fr["touches"] == 2, "%s: touches %d" % (what, fr["touches"]))
        check(abs(a["position x"] - mm_x(120)) < 0.5, "%s: position x %.2f" % (what, a["position x"]))
        check(mm_y(60) - 0.5 <= a["position y"] <= mm_y(130) + 0.5, "%s: position y %.2f" % (what, a["position y"]))
        check(a["position y"] >= last_y, "%s: position y goes back" % what)
        last_y = a["position y"]
        check(a["device id"] == 1 and a["event window id"] == 1, "%s: device/window ids" % what)
        check(abs(a["touch 1 x"] - a["touch 0 x"]) - mm_x(25) < 1.0, "%s: finger spacing" % what)
        xs = sorted(t["attrs"]["touch x"] for t in ev["touchset"])
        check(len(xs) == 2 and abs(xs[0] - mm_x(107.5)) < 1 and abs(xs[1] - mm_x(132.5)) < 1,
              "%s: touch set x %s" % (what, xs))
        check(isinstance(ev["attrs"].get("construction finished"), bool), "%s: construction finished" % what)
    end = frames[-1][1]["attrs"]
    check(abs(end["position y"] - mm_y(130)) < 3, "%s: ends at y %.2f" % (what, end["position y"]))
    total = sum(fr["attrs"]["delta y"] for t, fr, _ in frames[1:])
    check(abs(total - (end["position y"] - frames[0][1]["attrs"]["position y"])) < 0.5,
          "%s: delta y sums to %.2f" % (what, total))


def json_pinch():
    what = "json pinch-2"
    events = run_json(["--recording", rec("touchscreen/pinch-2.evemu"), "--fast", "--class", "pinch", "--touches", "2"])
    check_preamble(events, what)
    per = check_sequences(events, what)
    check(len(per) >= 1, "%s: no gesture" % what)
    radii = [fr["attrs"]["radius"] for g in per.values() for _, fr, _ in g]
    check(radii and abs(min(radii) - 0.4) < 0.1, "%s: smallest scale %s" % (what, min(radii) if radii else None))
    for g in per.values():
        for _, fr, _ in g:
            check(fr["classes"] == ["Pinch"], "%s: classes %s" % (what, fr["classes"]))
            a = fr["attrs"]
            check(abs(a["position x"] - mm_x(150)) < 1 and abs(a["position y"] - mm_y(100)) < 1,
                  "%s: centre (%.1f, %.1f)" % (what, a["position x"], a["position y"]))
    # only drags wanted: a pinch recording has none with a large threshold
    events = run_json(["--recording", rec("touchscreen/pinch-2.evemu"), "--fast", "--class", "rotate"])
    check(not gesture_events(events), "%s: rotate subscription got gestures" % what)


def json_tap():
    for n, name in ((1, "touchscreen/tap-1.evemu"), (2, "touchscreen/tap-2.evemu"),
                    (3, "touchscreen/tap-3.evemu"), (3, "touchpad/tap-3.evemu")):
        what = "json " + name
        events = run_json(["-r", rec(name), "-f", "-c", "tap", "-t", str(n)])
        per = check_sequences(events, what)
        if check(len(per) == 1, "%s: %d gestures" % (what, len(per))):
            frames = list(per.values())[0]
            t, fr, _ = frames[0]
            check(t == "GESTURE_UPDATE" and fr["classes"] == ["Tap"], "%s: %s %s" % (what, t, fr["classes"]))
            check(fr["touches"] == n, "%s: %d touches, want %d" % (what, fr["touches"], n))
            check(0 < fr["attrs"].get("tap time", 0) <= 100, "%s: tap time %s" % (what, fr["attrs"].get("tap time")))


def tap_any_touches():
    """Without a touch count term, a tap of staggered fingers is still one
    gesture with all its touches."""
    for n, name in ((1, "touchscreen/tap-1.evemu"), (2, "touchscreen/tap-2.evemu"),
                    (3, "touchscreen/tap-3.evemu"), (3, "touchpad/tap-3.evemu")):
        what = "json %s without --touches" % name
        per = check_sequences(run_json(["-r", rec(name), "-f", "-c", "tap"]), what)
        touches = sorted(g[0][1]["touches"] for g in per.values())
        check(touches == [n], "%s: taps with touch counts %s, want [%d]" % (what, touches, n))


TEXT_HEADER = re.compile(r"^(GESTURE_\w+) gesture (\d+) group (-?\d+) class (\S+) touches (\d+) time (\d+)$")


def parse_value(s):
    if s in ("true", "false"):
        return s == "true"
    if s.startswith('"'):
        return s[1:-1]
    try:
        return int(s)
    except ValueError:
        return float(s)


def text():
    args = ["--recording", rec("touchscreen/rotate-2.evemu"), "--fast"]
    events = run_json(args)
    rc, out, err = run(args)
    check(rc == 0, "text: exit status %d" % rc)
    blocks = []
    cur = None
    for line in out.splitlines():
        m = TEXT_HEADER.match(line)
        if m:
            cur = {"event": m.group(1), "gesture": int(m.group(2)), "classes": m.group(4).split("+"),
                   "touches": int(m.group(5)), "time": int(m.group(6)), "attrs": {}}
            blocks.append(cur)
        elif line.startswith("  ") and cur is not None and " = " in line:
            k, v = line.strip().split(" = ", 1)
            cur["attrs"][k] = parse_value(v)
        elif not line.startswith("  "):
            cur = None
    frames = gesture_events(events)
    check(len(frames) > 10, "text: only %d gesture frames" % len(frames))
    check(len(blocks) == len(frames), "text: %d gesture blocks, JSON has %d" % (len(blocks), len(frames)))
    for b, (t, fr, ev) in zip(blocks, frames):
        check(b["event"] == t and b["gesture"] == fr["gesture"], "text: event %s %d vs %s %d" % (b["event"], b["gesture"], t, fr["gesture"]))
        check(b["classes"] == fr["classes"], "text: classes %s vs %s" % (b["classes"], fr["classes"]))
        check(b["touches"] == fr["touches"] and b["time"] == fr["attrs"]["timestamp"], "text: touches/time")
        want = dict(fr["attrs"])
        want.update(ev["attrs"])
        check(set(b["attrs"]) == set(want), "text: attribute names differ: %s" % (set(b["attrs"]) ^ set(want)))
        for k, v in want.items():
            got = b["attrs"].get(k)
            if isinstance(v, float) or isinstance(got, float):
                check(got is not None and math.isclose(float(got), float(v), rel_tol=1e-4, abs_tol=1e-3),
                      "text: %s = %s, JSON %s" % (k, got, v))
            else:
                check(got == v, "text: %s = %r, JSON %r" % (k, got, v))
    check(any("Rotate" in fr["classes"] for _, fr, _ in frames), "text: no rotation in rotate-2")
    check("DEVICE_AVAILABLE device 1 \"utouch-synth touchscreen\"" in out, "text: device line")
    check("CLASS_AVAILABLE class 15 \"Tap\"" in out, "text: class line")
    check(re.search(r"^  touch \d+: touch id=\d+ touch x=[\d.]+ touch y=[\d.]+$", out, re.M) is not None,
          "text: touch lines")


def policy():
    what = "accept"
    events = run_json(["-r", rec("touchscreen/drag-2.evemu"), "-f", "-c", "drag", "--no-atomic", "--accept"])
    actions = [e for e in events if "action" in e]
    per = check_sequences([e for e in events if "event" in e], what)
    check(len(per) >= 1, "%s: no gesture" % what)
    check(len(actions) == len(per), "%s: %d actions for %d gestures" % (what, len(actions), len(per)))
    for a in actions:
        check(a["action"] == "accept" and a["status"] == 0, "%s: %r" % (what, a))
    check(set(a["gesture"] for a in actions) == set(per), "%s: accepted ids" % what)

    what = "reject"
    events = run_json(["-r", rec("touchscreen/drag-2.evemu"), "-f", "-c", "drag", "--no-atomic", "--reject"])
    actions = [e for e in events if "action" in e]
    check(len(actions) >= 1, "%s: no action" % what)
    for a in actions:
        check(a["action"] == "reject" and a["status"] == 0, "%s: %r" % (what, a))
        # after the reject line nothing more of that gesture
        idx = events.index(a)
        later = [fr for e in events[idx + 1:] if "frames" in e for fr in e["frames"] if fr["gesture"] == a["gesture"]]
        check(not later, "%s: gesture %d has %d events after its rejection" % (what, a["gesture"], len(later)))


def filters():
    drag = ["-r", rec("touchscreen/drag-2.evemu"), "-f", "-c", "drag"]
    ev = run_json(drag + ["--device", "utouch-synth touchscreen"])
    check(len(gesture_events(ev)) > 10, "device name filter: no gestures")
    ev = run_json(drag + ["--device", "no such device"])
    check(not gesture_events(ev), "device name filter: gestures of another device")
    check(any(e.get("event") == "DEVICE_AVAILABLE" for e in ev), "device name filter: no device event")
    ev = run_json(drag + ["--device-id", "1"])
    check(len(gesture_events(ev)) > 10, "device id filter: no gestures")
    ev = run_json(drag + ["--device-id", "5"])
    check(not gesture_events(ev), "device id filter 5: gestures")
    ev = run_json(drag + ["--window", "0x1234"])
    fr = gesture_events(ev)
    check(fr and all(f["attrs"]["event window id"] == 0x1234 for _, f, _ in fr), "--window 0x1234: window ids")
    ev = run_json(drag + ["--window", "root"])
    check(len(gesture_events(ev)) > 10, "--window root: no gestures")
    # a drag threshold of a metre is never reached
    ev = run_json(drag + ["--drag-threshold", "1.0"])
    check(not gesture_events(ev), "--drag-threshold 1.0: drag recognized")
    ev = run_json(drag + ["--drag-threshold", "0.001", "--drag-timeout", "1000"])
    check(len(gesture_events(ev)) > 10, "small drag threshold: no drag")
    # a screen rectangle: the same drag, shifted into its coordinates; a
    # rectangle the touches do not begin in sees nothing
    drag2 = drag + ["-t", "2"]
    whole = [f for _, f, _ in gesture_events(run_json(drag2))]
    fr = [f for _, f, _ in gesture_events(run_json(drag2 + ["--rect", "100,50,412,718"]))]
    check(len(fr) == len(whole) and len(fr) > 10, "--rect: not the same gestures")
    check(all(abs(a["attrs"]["position x"] - (b["attrs"]["position x"] - 100)) < 0.01 and
              abs(a["attrs"]["position y"] - (b["attrs"]["position y"] - 50)) < 0.01
              for a, b in zip(fr, whole)), "--rect: positions not relative to the rectangle")
    ev = run_json(drag2 + ["--rect", "600,0,424,768"])
    check(not gesture_events(ev), "--rect elsewhere: gestures")
    # three-touch subscriptions on a two-finger drag see nothing
    ev = run_json(drag + ["--touches", "3"])
    check(not gesture_events(ev), "--touches 3 on a 2-finger drag")
    ev = run_json(drag + ["--min-touches", "2", "--max-touches", "2"])
    check(len(gesture_events(ev)) > 10, "--min/--max-touches 2: no gestures")
    # the backend from the environment, and the end of the recording
    ev = run_json(["-c", "drag"], env={"UTOUCH_GEIS_BACKEND": "recording-fast:" + rec("touchscreen/drag-2.evemu")})
    check(len(gesture_events(ev)) > 10, "UTOUCH_GEIS_BACKEND: no gestures")
    # a libinput-record file
    ev = run_json(["-r", rec("libinput/touchscreen-drag-2.yml"), "-f", "-c", "drag", "-t", "2"])
    check(len(gesture_events(ev)) > 10, "libinput recording: no gestures")


BAD = [
    (["--class", "wiggle"], "unknown gesture class 'wiggle'"),
    (["--class", ","], "at least one class"),
    (["--touches", "0"], "--touches takes a number from 1 to 5"),
    (["--touches", "six"], "--touches takes a number"),
    (["--touches", "2", "--min-touches", "1"], "excludes"),
    (["--min-touches", "4", "--max-touches", "2"], "more than"),
    (["--window", "-3"], "--window takes a number"),
    (["--window", "abc"], "--window takes a number"),
    (["--drag-threshold", "-1"], "--drag-threshold takes a number >= 0"),
    (["--tap-timeout", "soon"], "--tap-timeout takes a number"),
    (["--fast"], "--fast needs --recording"),
    (["--evdev", "--x11"], "choose one of"),
    (["--recording", "a", "--evdev"], "choose one of"),
    (["--accept", "--reject"], "exclude each other"),
    (["--bogus"], "unknown option '--bogus'"),
    (["-q"], "unknown option '-q'"),
    (["--class"], "needs a value"),
    (["extra"], "unexpected argument 'extra'"),
    (["--device", ""], "needs a device name"),
    (["--rect", "1,2,3"], "--rect needs X,Y,WIDTH,HEIGHT"),
    (["--rect", "1,2,0,4"], "--rect needs X,Y,WIDTH,HEIGHT"),
    (["--rect", "1,2,3,4", "--window", "5"], "--rect excludes --window"),
    (["--evdev-grab"], "need --evdev"),
    (["--save", "out.evemu"], "need --evdev"),
    (["--evdev", "--save", ""], "--save needs a file name"),
    (["--x11", "--evdev-dir", "/tmp"], "need --evdev"),
    (["--evdev", "--evdev-dir", ""], "needs a directory"),
]


def bad_options():
    for args, msg in BAD:
        rc, out, err = run(args)
        check(rc == 2, "%s: exit status %d, want 2" % (args, rc))
        check(msg in err, "%s: message %r not in %r" % (args, msg, err.strip()))
        check("--help" in err, "%s: no hint at --help" % args)
    rc, out, err = run(["--help"])
    check(rc == 0 and out.startswith("usage: utouch-events"), "--help: status %d" % rc)
    for opt in ("--class", "--touches", "--device", "--window", "--recording", "--fast", "--evdev",
                "--x11", "--accept", "--reject", "--json", "--drag-threshold", "--tap-timeout"):
        check(opt in out, "--help does not mention %s" % opt)
    # runtime failures: exit 1 with the reason
    rc, out, err = run(["--recording", "/nonexistent/rec.evemu", "--fast"])
    check(rc == 1 and "/nonexistent/rec.evemu" in err, "missing recording: status %d, %r" % (rc, err.strip()))
    rc, out, err = run([], env={"UTOUCH_GEIS_BACKEND": "carrier-pigeon"})
    check(rc == 1 and "carrier-pigeon" in err, "bad UTOUCH_GEIS_BACKEND: status %d, %r" % (rc, err.strip()))


def extensions():
    # an edge swipe from the left, named by class and attribute
    events = run_json(["--recording", rec("touchscreen/edge-swipe-left.evemu"), "--fast",
                       "--class", "edge", "--touches", "1"])
    frames = gesture_events(events)
    check(len(frames) > 10, "edge: %d gesture events" % len(frames))
    for t, fr, ev in frames:
        a = fr["attrs"]
        check(a.get("gesture name") == "EdgeSwipe" and a.get("edge") == "left",
              "edge: %s %s %s" % (t, a.get("gesture name"), a.get("edge")))
    if frames:
        end = frames[-1][1]["attrs"]
        check(frames[-1][0] == "GESTURE_END" and
              abs(end.get("windowed velocity x", 0) - mm_x(78.0 / 400.0)) < 0.01,
              "edge: release velocity %s" % end.get("windowed velocity x"))
    # the class list stays geis 2.2's
    classes = [e["class"]["name"] for e in events if e.get("event") == "CLASS_AVAILABLE"]
    # geis 2.2's six classes are announced; the extensions never are
    check(classes == ["Drag", "Pinch", "Rotate", "Tap", "Touch", "Flick"],
          "extensions: classes %s" % classes)
    # no edge swipe from a touch that rests at the edge first
    events = run_json(["--recording", rec("touchscreen/edge-rest-then-drag.evemu"), "--fast",
                       "--class", "edge", "--touches", "1"])
    check(gesture_events(events) == [], "edge-rest-then-drag: no edge swipe")
    # hold: the text header names the class
    code, out, err = run(["--recording", rec("touchscreen/hold-1.evemu"), "--fast",
                          "--class", "hold", "--touches", "1", "--hold-timeout", "300"])
    check(code == 0 and re.search(r"^GESTURE_BEGIN gesture \d+ group \d+ class Hold touches 1 "
                                  r"time 1300$", out, re.M),
          "hold: text output %r" % out[:300])
    # double and slow double taps
    for name, counts in [("double-tap", [1, 2]), ("slow-double-tap", [1, 1])]:
        events = run_json(["--recording", rec("touchscreen/%s.evemu" % name), "--fast",
                           "--class", "tap", "--touches", "1", "--multitap-timeout", "400"])
        got = [fr["attrs"].get("tap count") for _, fr, _ in gesture_events(events)]
        check(got == counts, "%s: tap counts %s" % (name, got))
    # without extension settings there are no extension attributes
    events = run_json(["--recording", rec("touchscreen/double-tap.evemu"), "--fast",
                       "--class", "tap", "--touches", "1"])
    check(all("tap count" not in fr["attrs"] for _, fr, _ in gesture_events(events)),
          "plain tap: no tap count")
    # whole hand: four fingers are no three-finger drag
    for whole, want in (("0", 4), ("1", 0)):
        events = run_json(["--recording", rec("touchscreen/drag-4.evemu"), "--fast",
                           "--no-atomic", "--class", "drag", "--touches", "3",
                           "--whole-hand", whole])
        begun = len({fr["gesture"] for kind, fr, _ in gesture_events(events)
                     if kind == "GESTURE_BEGIN"})
        check(begun == want, "drag-4, --whole-hand %s: %d three-finger drags" % (whole, begun))
    # bad values
    for args in (["--edges", "left,middle"], ["--hold-timeout", "0"], ["--multitap-max", "0"],
                 ["--whole-hand", "2"], ["--class", "flock"]):
        code, out, err = run(["--recording", rec("touchscreen/tap-1.evemu"), "--fast"] + args)
        check(code != 0 and err, "%s: refused (%d) %r" % (args, code, err))


def signals():
    # the slow drag lasts well over a second in real time
    for sig in (signal.SIGINT, signal.SIGTERM):
        e = dict(os.environ)
        e.pop("UTOUCH_GEIS_BACKEND", None)
        p = subprocess.Popen([TOOL, "--json", "-r", rec("touchscreen/drag-2-slow.evemu")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
        first = p.stdout.readline()   # running and printing
        check(first.startswith("{"), "signal: first line %r" % first)
        time.sleep(0.3)
        t0 = time.monotonic()
        p.send_signal(sig)
        try:
            out, err = p.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            check(False, "%s: no exit within 5 s" % sig.name)
            continue
        dt = time.monotonic() - t0
        check(p.returncode == 0, "%s: exit status %d (%s)" % (sig.name, p.returncode, err.strip()))
        check(dt < 1.0, "%s: took %.2f s to exit" % (sig.name, dt))
        lines = [json.loads(l) for l in out.splitlines()]   # complete lines only
        # stopped early: the 1.5 s drag had not ended yet
        check(not any(e.get("event") == "GESTURE_END" for e in lines),
              "%s: the recording played to its end" % sig.name)
    # blocked before the main loop (opening a FIFO nobody writes to): the
    # signals still end the program
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "fifo.evemu")
        os.mkfifo(fifo)
        for sig in (signal.SIGINT, signal.SIGTERM):
            e = dict(os.environ)
            e.pop("UTOUCH_GEIS_BACKEND", None)
            p = subprocess.Popen([TOOL, "--json", "-r", fifo], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=e)
            time.sleep(0.5)
            check(p.poll() is None, "fifo: exited before the signal")
            p.send_signal(sig)
            try:
                p.communicate(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
                check(False, "fifo, %s: no exit within 5 s of the signal" % sig.name)
    # a short real-time recording: exits by itself after its end
    t0 = time.monotonic()
    rc, out, err = run(["--json", "-r", rec("touchscreen/tap-2.evemu"), "-c", "tap"], timeout=10)
    dt = time.monotonic() - t0
    check(rc == 0, "real-time tap-2: exit status %d (%s)" % (rc, err.strip()))
    check(dt < 3.0, "real-time tap-2: took %.2f s" % dt)
    ev = [json.loads(l) for l in out.splitlines()]
    taps = [fr for _, fr, _ in gesture_events(ev) if fr["classes"] == ["Tap"]]
    check(len(taps) == 1 and taps[0]["touches"] == 2, "real-time tap-2: taps %s" % taps)


def hostile():
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        # cut off in the middle of a two-finger drag
        with open(rec("touchscreen/drag-2.evemu")) as f:
            lines = f.read().splitlines(True)
        cut = os.path.join(tmp, "cut.evemu")
        with open(cut, "w") as f:
            f.writelines(lines[:200])
        for extra in ([], ["--no-atomic"]):
            what = "cut-off recording %s" % extra
            events = run_json(["-r", cut, "--fast", "-c", "drag", "-t", "2"] + extra)
            per = check_sequences(events, what)
            check(len(per) == 1, "%s: %d gestures, want 1" % (what, len(per)))
            types = [t for g in per for t, _, _ in per[g]]
            check(types and types[-1] == "GESTURE_END", "%s: last event %s" % (what, types[-1:]))

        # one finger lands and the recording stops (grail 3.1's N-Trig
        # 1_begin.record): the synthetic end is no lift, so no tap
        with open(rec("touchscreen/tap-1.evemu")) as f:
            lines = f.read().splitlines(True)
        first_report = next(i for i, l in enumerate(lines)
                            if l.startswith("E:") and l.split()[2:4] == ["0000", "0000"])
        begin = os.path.join(tmp, "begin.evemu")
        with open(begin, "w") as f:
            f.writelines(lines[:first_report + 1])
        for extra in ([], ["--no-atomic"]):
            events = run_json(["-r", begin, "--fast", "-c", "tap", "-t", "1"] + extra)
            per = check_sequences(events, "one finger cut off %s" % extra)
            check(len(per) == 0, "one finger cut off %s: %d gestures, want none"
                  % (extra, len(per)))

        # real hardware: stamps inside reports step back by a few microseconds
        events = run_json(["-r", rec("touchscreen/drag-2-backstep.evemu"), "--fast", "-c", "drag", "-t", "2"])
        per = check_sequences(events, "backstep recording")
        check(len(per) == 1, "backstep recording: %d gestures, want 1" % len(per))

        # protocol A, 40 contacts in every report: 31 reach mtdev
        a40 = os.path.join(tmp, "a40.evemu")
        with open(rec("touchscreen-a/drag-2.evemu")) as f:
            head = [l for l in f if l[:2] in ("N:", "I:", "P:", "B:", "A:")]
        with open(a40, "w") as f:
            f.writelines(head)
            for r in range(5):
                for c in range(40):
                    f.write("E: 0.0%d0000 0003 0035 %d\n" % (r, 100 + c * 200 + r * 40))
                    f.write("E: 0.0%d0000 0003 0036 %d\n" % (r, 100 + c * 100))
                    f.write("E: 0.0%d0000 0003 0030 9\n" % r)
                    f.write("E: 0.0%d0000 0000 0002 0\n" % r)
                f.write("E: 0.0%d0000 0000 0000 0\n" % r)
            f.write("E: 0.060000 0000 0002 0\nE: 0.060000 0000 0000 0\n")
        rc, out, err = run(["-r", a40, "--fast", "-c", "touch", "--json"], timeout=20)
        check(rc == 0, "40 contacts: exit status %d (%s)" % (rc, err.strip()))
        check("contacts beyond 31 in one report were left out" in out + err,
              "40 contacts: no message about the dropped contacts: %r" % (out + err)[-300:])

        # an axis range no device has
        bad = os.path.join(tmp, "bad.evemu")
        with open(bad, "w") as f:
            f.write("N: x\nA: 35 900 100 0 0\nA: 36 0 100 0 0\nE: 0.000000 0000 0000 0\n")
        rc, out, err = run(["-r", bad, "--fast"])
        check(rc != 0, "empty range: exit status 0")
        check(bad + ":2: ABS_MT_POSITION_X range 900..100 is empty" in err,
              "empty range: message %r" % err.strip())


CHECKS = {
    "json-drag": json_drag, "json-pinch": json_pinch, "json-tap": json_tap, "tap-any-touches": tap_any_touches, "text": text,
    "policy": policy, "filters": filters, "bad-options": bad_options, "signals": signals,
    "hostile": hostile,
    "extensions": extensions,
}


def main():
    global TOOL, RECS
    if len(sys.argv) != 4 or sys.argv[1] not in CHECKS:
        print(__doc__)
        return 2
    TOOL, RECS = sys.argv[2], sys.argv[3]
    CHECKS[sys.argv[1]]()
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
