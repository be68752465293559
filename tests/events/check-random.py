#!/usr/bin/env python3
"""Random scenarios through the whole stack: a property test.

usage: check-random.py SYNTH REPLAY EVENTS GESTURED CONFIG COUNT [FIRST-SEED]

For COUNT seeds a small random scenario (one to three groups of taps,
holds, drags, pinches and rotations on a random device preset, with
staggered landings, follow-on motions and jitter) is rendered with
utouch-synth in a random output format and played through utouch-replay,
utouch-events (geis) and utouch-gestured (dry run, and proxy mode into a
file).  The scenarios are reproducible: the same seed gives the same file.

Checked for every run (in the ASan build the sanitizers check the rest):
- utouch-synth either writes a recording or refuses the scenario with one
  line "FILE:LINE: message", never crashes;
- every program exits with status 0;
- grail traces (utouch-replay): each gesture begins once, before its other
  slices, and ends once, last;
- geis events (utouch-events --json): each gesture gets GESTURE_BEGIN
  first and GESTURE_END last, nothing after its END and nothing after the
  application rejected it, timestamps never go back; the documented
  exceptions are a gesture the application rejected (no further events)
  and a gesture recognized as a Tap only at its end without tentative
  events (one GESTURE_UPDATE, as geis 2.2 did; doc/geis.md).

Exit status 0 when every check holds, 1 otherwise.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

PRESETS = {"touchscreen": (300, 200), "touchpad": (100, 70), "touchscreen-a": (300, 200),
           "touchpad-apple": (135, 113), "touchpad-a-tracking": (130, 110)}


def scenario(seed):
    r = random.Random(seed)
    dev = r.choice(sorted(PRESETS) + ["touchscreen"])
    w, h = PRESETS[dev]
    out = ["device " + dev, "rate %d" % r.choice([60, 80, 100, 125, 200])]
    if r.random() < 0.4:
        out.append("jitter %s seed=%d" % (r.choice([0.05, 0.1, 0.3, 0.8]), r.randint(1, 999)))

    def pos(m=0.3):
        return "%.1f,%.1f" % (r.uniform(w * m, w * (1 - m)), r.uniform(h * m, h * (1 - m)))

    for group in range(r.randint(1, 3)):
        if group:
            out.append("next gap=%d" % r.choice([0, 30, 60, 100, 300]))
        for _ in range(r.randint(1, 2)):
            kind = r.choice(["tap", "hold", "drag", "drag", "pinch", "rotate", "touch"])
            at = r.choice([0, 0, 0, 10, 40, 80, 200])
            n = r.randint(1, 5)
            spacing = r.uniform(6, min(18, min(w, h) * 0.35 / max(1, n - 1)))
            row = "touches=%d spacing=%.1f row=%d" % (n, spacing, r.choice([0, 30, 90, 135]))
            stagger = r.choice([0, 0, 0, 5, 15, 30])
            if stagger and kind in ("tap", "hold", "drag"):
                row += " stagger=%d" % stagger
            if kind == "tap":
                out.append("tap pos=%s dur=%d %s at=%d" % (pos(), r.choice([20, 50, 120, 250, 400]),
                                                           row, at))
            elif kind == "hold":
                out.append("hold pos=%s dur=%d %s at=%d" % (pos(), r.choice([100, 300, 700]), row, at))
            elif kind == "touch":
                out.append("touch pos=%s at=%d" % (pos(), at))
            elif kind == "drag":
                out.append("drag from=%s to=%s dur=%d %s at=%d" % (
                    pos(), pos(), r.choice([80, 200, 400, 800]), row, at))
            elif kind == "pinch":
                out.append("pinch centre=%s from=%.1f to=%.1f dur=%d angle=%d at=%d" % (
                    pos(0.4), r.uniform(8, min(w, h) * 0.3), r.uniform(8, min(w, h) * 0.3),
                    r.choice([150, 300, 600]), r.choice([0, 45, 90, 170]), at))
            else:
                out.append("rotate centre=%s radius=%.1f sweep=%d dur=%d touches=%d at=%d" % (
                    pos(0.4), r.uniform(8, min(w, h) * 0.25), r.choice([-120, -45, 20, 90, 180]),
                    r.choice([200, 400, 800]), r.randint(2, 4), at))
            if kind != "touch" and r.random() < 0.4:
                then = r.choice(["move", "hold", "arc", "scale", "lift"])
                out.append({
                    "move": "then move by=%.1f,%.1f dur=%d" % (r.uniform(-15, 15), r.uniform(-15, 15),
                                                              r.choice([100, 300])),
                    "hold": "then hold dur=%d" % r.choice([50, 200, 600]),
                    "arc": "then arc sweep=%d dur=%d" % (r.choice([-60, 30, 90]), r.choice([150, 400])),
                    "scale": "then scale factor=%s dur=%d" % (r.choice([0.7, 1.3, 1.6]),
                                                              r.choice([150, 400])),
                    "lift": "then lift count=%d" % r.randint(1, 2),
                }[then])
    return "\n".join(out) + "\n"


def trace_problems(lines):
    """Each grail gesture: one begin first, one end last."""
    state = {}
    for line in lines:
        m = re.match(r"t=\d+ g=(\d+) sub=\d+ (begin|update|end) ", line)
        if not m:
            continue
        g, kind = int(m.group(1)), m.group(2)
        st = state.get(g)
        if kind == "begin":
            if st is not None:
                return "gesture %d: a second begin" % g
            state[g] = "open"
        elif st != "open":
            return "gesture %d: %s %s" % (g, kind, "before its begin" if st is None else "after its end")
        elif kind == "end":
            state[g] = "ended"
    open_ = [g for g, s in state.items() if s == "open"]
    return "gestures %s never end" % open_[:5] if open_ else None


def geis_problems(lines):
    """geis events of each gesture in order (see the module doc)."""
    state, last = {}, {}
    for n, line in enumerate(lines, 1):
        e = json.loads(line)
        if e.get("action") == "reject" and e.get("status") == 0:
            state[e["gesture"]] = "rejected"
            continue
        ev = e.get("event", "")
        if not ev.startswith("GESTURE_"):
            continue
        for f in e.get("frames", []):
            g, ts = f["gesture"], f["attrs"].get("timestamp", 0)
            st = state.get(g)
            if ev == "GESTURE_BEGIN" and st is None:
                state[g] = "open"
            elif ev == "GESTURE_UPDATE" and st is None and f.get("classes") == ["Tap"]:
                state[g] = "tap"
            elif st != "open":
                return "line %d: %s of gesture %d %s" % (n, ev, g, {
                    None: "before its BEGIN", "open": "again", "ended": "after its END",
                    "tap": "after its Tap", "rejected": "after the reject"}[st])
            elif ev == "GESTURE_END":
                state[g] = "ended"
            elif ev == "GESTURE_BEGIN":
                return "line %d: a second GESTURE_BEGIN of gesture %d" % (n, g)
            if ts < last.get(g, 0):
                return "line %d: gesture %d goes back in time" % (n, g)
            last[g] = ts
    open_ = [g for g, s in state.items() if s == "open"]
    return "gestures %s never get GESTURE_END" % open_[:5] if open_ else None


def main():
    if len(sys.argv) not in (7, 8):
        print(__doc__)
        return 2
    synth, replay, events, gestured, config = sys.argv[1:6]
    count = int(sys.argv[6])
    first = int(sys.argv[7]) if len(sys.argv) == 8 else 1
    env = dict(os.environ, UTOUCH_DEBUG="none")
    failures = played = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, first + count):
            scn = os.path.join(tmp, "s%d.scn" % seed)
            with open(scn, "w") as f:
                f.write(scenario(seed))
            fmt = ["evemu2", "evemu1", "libinput"][seed % 3]
            rec = os.path.join(tmp, "s%d.%s" % (seed, "yml" if fmt == "libinput" else "evemu"))
            p = subprocess.run([synth, "-f", fmt, "-o", rec, scn], capture_output=True, text=True)
            if p.returncode == 1 and re.fullmatch(re.escape(scn) + r":\d+: [^\n]+\n", p.stderr):
                continue  # refused with its one-line message
            if p.returncode != 0:
                print("seed %d: utouch-synth exit status %d: %s" % (seed, p.returncode, p.stderr[-500:]))
                failures += 1
                continue
            played += 1
            runs = [
                ("trace", [replay, "-s", "mask=all,start=1,max=5", rec]),
                ("trace", [replay, "--x11", "-s", "mask=drag,touches=2", "-s", "mask=pinch,touches=3",
                           rec]),
                ("trace", [replay, "--policy", "none", "-s", "mask=touch,touches=2,atomic=1",
                           "-s", "mask=drag,touches=3,atomic=1", rec]),
                ("geis", [events, "-r", rec, "-f", "--json"]),
                ("geis", [events, "-r", rec, "-f", "--json", "--no-atomic", "--accept",
                          "-c", "drag,pinch,rotate,tap,touch,hold,edge", "--multitap-max", "3"]),
                ("geis", [events, "-r", rec, "-f", "--json", "--no-atomic", "--reject",
                          "--min-touches", "2", "--max-touches", "4"]),
                ("geis", [events, "-r", rec, "-f", "--json", "--no-atomic", "--accept",
                          "--whole-hand", "1", "-c", "drag,tap"]),
                ("geis", [events, "-r", rec, "-f", "--json", "--no-atomic", "--tentative",
                          "--synchronous", "-c", "drag,touch"]),
                ("run", [gestured, "--recording", rec, "--fast", "--dry-run", "-c", config]),
                ("run", [gestured, "--recording", rec, "--fast", "--dry-run", "-c", config,
                         "-p", "--proxy-output", os.path.join(tmp, "proxy.evemu")]),
            ]
            for kind, cmd in runs:
                try:
                    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
                except subprocess.TimeoutExpired:
                    print("seed %d: timed out: %s" % (seed, " ".join(cmd)))
                    failures += 1
                    continue
                problem = None
                if p.returncode != 0:
                    problem = "exit status %d: %s" % (p.returncode, p.stderr[-800:])
                elif kind == "trace":
                    problem = trace_problems(p.stdout.splitlines())
                elif kind == "geis":
                    problem = geis_problems(p.stdout.splitlines())
                if problem:
                    print("seed %d: %s\n  %s\n  scenario:\n%s" % (
                        seed, " ".join(os.path.basename(c) for c in cmd), problem,
                        "".join("    " + l + "\n" for l in scenario(seed).splitlines())))
                    failures += 1
    print("random: %d seeds, %d played, %d problems" % (count, played, failures))
    if played < count // 2:
        print("random: fewer than half the scenarios were playable")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
