#!/usr/bin/env python3
"""utouch-replay and grail's utouch extensions (hold, multi-tap, edge swipe,
velocity) on the bundled recordings, and the trace format's superset rule.

usage: extensions.py REPLAY RECORDINGS-DIR
"""
import re
import subprocess
import sys

FAILURES = []
EXT_FIELDS = re.compile(r" v=-?\d+\.\d+,-?\d+\.\d+( taps=\d+)?( edge=[a-z]+)?")


def run(replay, *args, status=0):
    p = subprocess.run([replay] + list(args), capture_output=True, text=True)
    if p.returncode != status:
        FAILURES.append("%s: exit %d, expected %d\n%s" % (" ".join(args), p.returncode,
                                                          status, p.stderr))
    return p.stdout.splitlines(), p.stderr


def slices(lines):
    return [l for l in lines if l.startswith("t=")]


def check(cond, what):
    if not cond:
        FAILURES.append(what)


def field(line, name):
    m = re.search(r" %s=(\S+)" % name, line)
    return m.group(1) if m else None


def main():
    replay, d = sys.argv[1], sys.argv[2] + "/touchscreen/"

    # edge swipe, and an edge touch without initial velocity
    out = slices(run(replay, "-s", "mask=edge,touches=1", d + "edge-swipe-left.evemu")[0])
    rec = [l for l in out if "edge" in field(l, "rec")]
    check(rec and all(field(l, "edge") == "left" for l in rec) and
          all(field(l, "edge") is None for l in out if l not in rec),
          "edge-swipe-left: the slices from the recognition on name the left edge")
    check(rec and rec[0].startswith("t=20 "), "edge-swipe-left: recognized at 20 ms (3.9 mm)")
    out = slices(run(replay, "-s", "mask=edge,touches=1,edges=right+top",
                     d + "edge-swipe-left.evemu")[0])
    check(out == [], "edge-swipe-left with the left edge disabled: nothing")
    out = slices(run(replay, "-s", "mask=edge,touches=1", d + "edge-rest-then-drag.evemu")[0])
    check(out == [], "edge-rest-then-drag: no edge swipe")
    out = slices(run(replay, "-s", "mask=edge+drag,touches=1,drag-timeout=0",
                     d + "edge-rest-then-drag.evemu")[0])
    check(out and field(out[-1], "rec") == "drag" and
          all(field(l, "edge") is None for l in out), "edge-rest-then-drag: a drag, no edge")

    # multi-tap
    def tap_counts(*args):
        out = slices(run(replay, "-s", ",".join(("mask=tap", "touches=1") + args),
                         "--extended", d + args_file[0])[0])
        return [field(l, "taps") for l in out if " end " in l]
    args_file = ["double-tap.evemu"]
    check(tap_counts() == ["1", "2"], "double-tap: counts 1, 2, got %s" % tap_counts())
    check(tap_counts("multitap-timeout=100") == ["1", "1"], "double-tap, timeout 100: 1, 1")
    check(tap_counts("multitap-max=1") == ["1", "1"], "double-tap, maximum 1: 1, 1")
    check(tap_counts("multitap-threshold=0.0001") == ["1", "1"],
          "double-tap 1 mm apart, threshold 0.1 mm: 1, 1")
    args_file[0] = "slow-double-tap.evemu"
    check(tap_counts() == ["1", "1"], "slow-double-tap: counts 1, 1, got %s" % tap_counts())
    check(tap_counts("multitap-timeout=700") == ["1", "2"], "slow-double-tap, timeout 700: 1, 2")

    # hold
    out = slices(run(replay, "-s", "mask=hold,touches=1", d + "hold-1.evemu")[0])
    held = [l for l in out if field(l, "rec") == "hold"]
    check(held and held[0].startswith("t=500 "), "hold-1: hold recognized at 500 ms")
    out = slices(run(replay, "-s", "mask=hold,touches=1,hold-timeout=800", d + "hold-1.evemu")[0])
    held = [l for l in out if field(l, "rec") == "hold"]
    check(held and held[0].startswith("t=800 "), "hold-1: hold-timeout=800")
    out = slices(run(replay, "-s", "mask=hold+drag,touches=1,drag-timeout=0",
                     d + "hold-then-drag.evemu")[0])
    recs = [field(l, "rec") for l in out]
    check("hold" in recs and recs[-1] == "drag+hold",
          "hold-then-drag: held, then a drag too (%s)" % sorted(set(recs)))
    out = slices(run(replay, "-s", "mask=hold+drag,touches=1", d + "fling-1.evemu")[0])
    check(out and all("hold" not in field(l, "rec") for l in out), "fling-1: no hold")

    # velocity: the release velocity of a fling of 0.6 mm/ms on a 1024 px wide,
    # 300 mm screen is 2.048 px/ms
    out = slices(run(replay, "-s", "mask=drag,touches=1", "--extended", d + "fling-1.evemu")[0])
    end = [l for l in out if " end " in l]
    check(end and field(end[-1], "v") == "2.0480,0.0000", "fling-1: release velocity")
    out = slices(run(replay, "-s", "mask=drag,touches=1,velocity-window=30", d + "drag-1.evemu")[0])
    check(out and field(out[-1], "v") is not None, "velocity-window implies --extended")

    # the trace format is a superset: without extensions nothing changes, and
    # the extended trace minus its new fields is the plain one
    for rec, sub in [("drag-2.evemu", "mask=drag"), ("tap-2.evemu", "mask=tap,start=1"),
                     ("bug-game-4.evemu", "mask=pinch")]:
        plain = run(replay, "-s", sub, d + rec)[0]
        ext = run(replay, "-s", sub, "--extended", d + rec)[0]
        check(not any(" v=" in l for l in plain), "%s: no extension fields by default" % rec)
        check(any(" v=" in l for l in ext), "%s: --extended prints v=" % rec)
        check([EXT_FIELDS.sub("", l) for l in ext] == plain,
              "%s: extended trace minus the new fields is the plain trace" % rec)

    # whole hand: a three-finger subscription gets every three-finger subset
    # of four or ten fingers from grail 3.1, and nothing whole-hand; three
    # fingers are one gesture either way; in both framings
    def begun(rec, whole, *opts):
        out = slices(run(replay, "--policy", "none", "-s",
                         "mask=drag,start=3,whole-hand=%d" % whole, *opts, d + rec)[0])
        return len([l for l in out if " begin " in l])
    for opts in [(), ("--x11",)]:
        for rec, plain, whole in [("drag-4.evemu", 4, 0), ("drag-3.evemu", 1, 1),
                                  ("storm-10.evemu", 59, 0)]:
            got = (begun(rec, 0, *opts), begun(rec, 1, *opts))
            check(got == (plain, whole), "%s %s: 3-finger gestures without/with whole-hand "
                  "%r, expected %r" % (rec, " ".join(opts), got, (plain, whole)))
    plain = run(replay, "-s", "mask=drag,start=3", d + "drag-3.evemu")[0]
    check(run(replay, "-s", "mask=drag,start=3,whole-hand=0", d + "drag-3.evemu")[0] == plain,
          "whole-hand=0 is the default trace")

    # bad values are usage errors naming the key
    for spec in ["edges=none", "hold-timeout=0", "multitap-max=0", "velocity-window=0",
                 "edge-margin=-1", "mask=hold+bogus", "whole-hand=2"]:
        _, err = run(replay, "-s", spec, d + "drag-1.evemu", status=2)
        check(spec.split("=")[0] in err, "-s %s: message names the key: %r" % (spec, err))

    for f in FAILURES:
        print("FAIL: " + f)
    print("%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
