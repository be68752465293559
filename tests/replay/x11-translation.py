#!/usr/bin/env python3
"""Pure translations stay translations in X11 framing (issue 26, point 5).

usage: x11-translation.py SYNTH REPLAY

Generates recordings of two and three fingers moving in parallel (a pair
dragging across the line between them, a row moving along itself, a
triangle swiping, with and without jitter) and a real two-finger
rotation with utouch-synth, replays each with utouch-replay in evdev
framing and in X11 framing (--x11: one changed touch per frame, the
frames of one report sharing its time), and checks every slice's
cumulative transform T=[a b tx; c d ty]:

  * translations: rotation atan2(c, a) within 1 degree and scale
    hypot(a, c) within 1 % of 1, and never recognised as pinch or rotate;
  * the rotation: recognised as rotate in both framings, its last slice
    turned by 90 degrees within 3.

Before the fix, X11 framing turned the pair by about 2 degrees at every
other frame (a frame that moved one finger and not yet the other).
"""
import math
import os
import re
import subprocess
import sys
import tempfile

T = re.compile(r"T=\[(\S+) (\S+) (\S+); (\S+) (\S+) (\S+)\]")
REC = re.compile(r" rec=(\S+) ")

TRANSLATIONS = {
    "pair-across": "drag from=100,100 to=160,100 dur=600 touches=2 spacing=25 row=90\n",
    "pair-diagonal": "drag from=100,60 to=170,130 dur=500 touches=2 spacing=30 row=30\n",
    "row-along": "drag from=80,100 to=180,100 dur=700 touches=3 spacing=20\n",
    "triangle-swipe": ("touch pos=100,80 to=180,110 dur=600\n"
                       "touch pos=125,80 to=205,110 dur=600\n"
                       "touch pos=112,100 to=192,130 dur=600\n"),
}
ROTATION = "rotate centre=150,100 radius=20 sweep=90 dur=600\n"


def synth(tool, tmp, name, body, jitter):
    scn = os.path.join(tmp, name + ".scn")
    out = os.path.join(tmp, name + ".evemu")
    with open(scn, "w") as f:
        f.write("device touchscreen\nrate 100\n")
        if jitter:
            f.write("jitter 0.05 seed=7\n")
        f.write(body)
    subprocess.run([tool, "-o", out, scn], check=True)
    return out


def slices(replay, rec, touches, x11):
    args = [replay, "-s", "mask=drag+pinch+rotate,touches=%d" % touches]
    if x11:
        args.append("--x11")
    p = subprocess.run(args + [rec], capture_output=True, text=True, check=True)
    out = []
    for line in p.stdout.splitlines():
        m = T.search(line)
        if not m or line.startswith("#"):
            continue
        a, _, _, c, _, _ = (float(v) for v in m.groups())
        out.append((math.degrees(math.atan2(c, a)), math.hypot(a, c),
                    REC.search(line).group(1), line))
    return out


def main():
    synth_tool, replay = sys.argv[1], sys.argv[2]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, body in TRANSLATIONS.items():
            touches = body.count("touch ") or int(re.search(r"touches=(\d)", body).group(1))
            for jitter in (False, True):
                rec = synth(synth_tool, tmp, name + ("-jitter" if jitter else ""), body, jitter)
                for x11 in (False, True):
                    what = "%s%s %s" % (name, " jitter" if jitter else "",
                                        "x11" if x11 else "evdev")
                    s = slices(replay, rec, touches, x11)
                    if not s:
                        print("FAIL %s: no slices" % what)
                        failures += 1
                        continue
                    rot = max(s, key=lambda v: abs(v[0]))
                    sc = max(s, key=lambda v: abs(v[1] - 1))
                    bad = [v for v in s if "pinch" in v[2] or "rotate" in v[2]]
                    ok = abs(rot[0]) <= 1.0 and abs(sc[1] - 1) <= 0.01 and not bad
                    print("%s %s: %d slices, max rotation %.3f deg, max scale error %.3f %%"
                          % ("ok  " if ok else "FAIL", what, len(s), rot[0],
                             100 * (sc[1] - 1)))
                    if not ok:
                        failures += 1
                        print("     " + (rot[3] if abs(rot[0]) > 1 else
                                         sc[3] if abs(sc[1] - 1) > 0.01 else bad[0][3]))
        rec = synth(synth_tool, tmp, "rotate", ROTATION, False)
        for x11 in (False, True):
            what = "rotation %s" % ("x11" if x11 else "evdev")
            s = slices(replay, rec, 2, x11)
            ok = bool(s) and any("rotate" in v[2] for v in s) and abs(s[-1][0] - 90) <= 3
            print("%s %s: %d slices, last rotation %.2f deg"
                  % ("ok  " if ok else "FAIL", what, len(s), s[-1][0] if s else float("nan")))
            failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
