#!/usr/bin/env python3
"""Fingers that go round more than once (doc/grail.md, difference 21).

usage: turns.py REPLAY RECORDINGS-DIR

turn-N-times.evemu turns N fingers about their centre at a constant rate
(utouch-synth's rotate: SWEEP degrees in DUR ms from the first report).
The cumulative matrix of every slice must give the angle the fingers have
turned by then, within 6 degrees (the screen's x and y scales differ a little, which bends the angle), all the way: grail 3.1 loses a whole turn
of one finger once it has gone round one and a half times, and the
rotation flips.
"""
import math
import re
import subprocess
import sys

CASES = [  # recording, subscription, sweep in degrees, duration in ms
    ("touchscreen/turn-2-times.evemu", "mask=rotate,touches=2", 900.0, 2000.0),
    ("touchscreen/turn-3-times.evemu", "mask=rotate,touches=3", 1000.0, 2000.0),
]
SLICE = re.compile(r"^t=(\d+) .* T=\[(\S+) (\S+) \S+; (\S+) (\S+) \S+\]")


def main():
    replay, rec_dir = sys.argv[1], sys.argv[2]
    failures = []
    for rec, sub, sweep, dur in CASES:
        p = subprocess.run([replay, "-s", sub, rec_dir + "/" + rec],
                           capture_output=True, text=True)
        if p.returncode != 0:
            failures.append("%s: exit %d\n%s" % (rec, p.returncode, p.stderr))
            continue
        checked = 0
        for line in p.stdout.splitlines():
            m = SLICE.match(line)
            if not m:
                continue
            t = int(m.group(1))
            if t > dur:
                continue
            c00, c10 = float(m.group(2)), float(m.group(4))
            got = math.degrees(math.atan2(c10, c00))
            want = sweep * t / dur
            err = (got - want + 180.0) % 360.0 - 180.0
            if abs(err) > 6.0:
                failures.append("%s t=%d: turned %.1f degrees (mod 360), the fingers %.1f"
                                % (rec, t, got, want % 360.0))
            checked += 1
        if checked < dur / 10 - 5:
            failures.append("%s: only %d slices" % (rec, checked))
        print("%s: %d slices checked" % (rec, checked))
    for f in failures[:20]:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
