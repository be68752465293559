#!/usr/bin/env python3
"""Run the geis examples on recordings (suite 'examples').

usage: check-examples.py geis2|geis1 EXAMPLE RECORDINGS-DIR

The examples use nothing but <geis/geis.h>; the recording is chosen with
UTOUCH_GEIS_BACKEND, and the optional idle timeout argument ends them once
the fast playback is over.
"""
import os
import re
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)
    return cond


def run(example, rec, args):
    env = dict(os.environ)
    env["UTOUCH_GEIS_BACKEND"] = "recording-fast:" + rec
    p = subprocess.run([example] + args, capture_output=True, text=True, timeout=30, env=env)
    check(p.returncode == 0, "%s on %s: exit status %d (%s)" % (example, rec, p.returncode, p.stderr.strip()))
    return p.stdout


def geis2(example, recs):
    line = re.compile(r"^(begin|update|end) gesture (\d+) \((\w+)\) touches=(\d+) "
                      r"position=\(([-\d.]+), ([-\d.]+)\) radius=([-\d.]+) angle=([-\d.]+)$")
    for name, cls in (("pinch-2", "Pinch"), ("drag-2", "Drag"), ("rotate-2", "Rotate")):
        out = run(example, os.path.join(recs, "touchscreen", name + ".evemu"), ["300"])
        check("device available: utouch-synth touchscreen" in out, "geis2 %s: no device line" % name)
        events = [line.match(l) for l in out.splitlines() if line.match(l)]
        kinds = {}
        for m in events:
            check(m.group(4) == "2", "geis2 %s: touches=%s" % (name, m.group(4)))
            kinds.setdefault(int(m.group(2)), []).append(m.group(1))
        ours = [m for m in events if m.group(3) == cls]
        check(len(ours) >= 5, "geis2 %s: only %d %s events" % (name, len(ours), cls))
        for g, k in kinds.items():
            check(k[0] == "begin" and k[-1] == "end" and set(k[1:-1]) <= {"update"},
                  "geis2 %s: gesture %d sequence %s..." % (name, g, k[:3]))
        if cls == "Pinch":
            check(min(float(m.group(7)) for m in ours) < 0.5, "geis2 pinch: radius never below 0.5")
        if cls == "Drag":
            ys = [float(m.group(6)) for m in ours]
            check(ys == sorted(ys) and ys[-1] - ys[0] > 200, "geis2 drag: y %s .. %s" % (ys[0], ys[-1]))
        if cls == "Rotate":
            check(max(abs(float(m.group(8))) for m in ours) > 0.5, "geis2 rotate: small angles")


def geis1(example, recs):
    out = run(example, os.path.join(recs, "touchscreen", "pinch-2.evemu"), ["7", "300"])
    check(re.search(r'^device 1 added:.*device name="utouch-synth touchscreen"', out, re.M) is not None,
          "geis1 pinch: no device line")
    starts = re.findall(r"^start type=1 id=(\d+):.* event window id=7 .* touches=2 ", out, re.M)
    finishes = re.findall(r"^finish type=1 id=(\d+):", out, re.M)
    check(len(starts) >= 1 and starts == finishes, "geis1 pinch: starts %s finishes %s" % (starts, finishes))
    check(len(re.findall(r"^update type=1 ", out, re.M)) >= 10, "geis1 pinch: few updates")
    out = run(example, os.path.join(recs, "touchscreen", "tap-2.evemu"), ["1", "300"])
    taps = re.findall(r"^update type=15 id=\d+:.* touches=(\d+) ", out, re.M)
    check(taps == ["2"], "geis1 tap-2: taps %s" % taps)
    out = run(example, os.path.join(recs, "touchscreen", "drag-2.evemu"), ["1", "300"])
    check(len(re.findall(r"^start type=0 ", out, re.M)) == 1 and
          len(re.findall(r"^finish type=0 ", out, re.M)) == 1, "geis1 drag-2: one drag")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("geis1", "geis2"):
        print(__doc__)
        return 2
    (geis1 if sys.argv[1] == "geis1" else geis2)(sys.argv[2], sys.argv[3])
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
