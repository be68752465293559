#!/usr/bin/env python3
"""Random differential campaign: utouch-replay against ref-grail on
random touch scenarios.

usage: random-diff.py SYNTH REPLAY REF-GRAIL-BATCH COUNT [FIRST-SEED]
                      [--cases N] [--keep DIR] [--quiet] [--classify]

For COUNT seeds from FIRST-SEED (default 1) a random but realistic touch
scenario (scenario() below: one to six fingers landing together or
staggered around grail's 60 ms composition window, lifting within or
after it, taps, holds, drags, pinches, rotations, drags from the screen
edges, a finger lifting in the report where another lands, slots reused,
event stamps stepping back inside reports, touchscreens and touchpads of
both protocols) is rendered with utouch-synth and replayed through
utouch-replay and ref-grail:

- frames: every framing of difftest.FRAMINGS, frame operations identical;
- traces: N argument lists (default 24) drawn from difftest's matrix of
  subscription sets, policies and framings plus random subscriptions,
  compared as difftest.py's trace mode does (compare_trace).

The same seed gives the same scenario and the same argument lists.
--keep DIR writes the scenario and recording of each seed that differs
there.  --classify prints a line per run that differs, "CLASS seed=N
KIND: ARGS", KIND being any-order (equal but for the order of different
gestures' slices at one time), ids (equal but for that and the gesture
ids, renumbered by what each gesture is) or other, and a line per run
compared only up to a known difference ("CUT seed=N REASON: ARGS",
difftest.cut_where_known); the heap-order kinds need no chasing
(doc/grail.md, order of events).  The last line counts scenarios, runs,
cuts and the seeds that differ.  Exit status 0 when everything was equal, 1 otherwise, 77 when
ref-grail is unavailable.
"""
import contextlib
import io
import math
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import difftest  # noqa: E402

# preset: width, height in mm, most touches down at once
PRESETS = {"touchscreen": (300, 200, 10), "touchpad": (100, 70, 5),
           "touchpad-apple": (135, 113, 16), "touchscreen-a": (300, 200, 10),
           "touchpad-a-tracking": (130, 110, 16)}
PRESET_WEIGHTS = [("touchscreen", 5), ("touchpad", 3), ("touchpad-apple", 1),
                  ("touchscreen-a", 2), ("touchpad-a-tracking", 1)]
# staggers around the 60 ms composition window
STAGGERS = [0, 0, 0, 5, 10, 20, 30, 40, 50, 55, 58, 59, 60, 61, 62, 65, 70, 80,
            100, 120, 150, 200]


def weighted(r, pairs):
    total = sum(w for _, w in pairs)
    x = r.uniform(0, total)
    for v, w in pairs:
        x -= w
        if x <= 0:
            return v
    return pairs[-1][0]


class Scene:
    def __init__(self, r, preset):
        self.r = r
        self.w, self.h, self.slots = PRESETS[preset]
        self.lines = []

    def clamp(self, x, y, margin=0.2):
        return (min(max(x, margin), self.w - margin), min(max(y, margin), self.h - margin))

    def pt(self, x, y):
        x, y = self.clamp(x, y)
        return "%.1f,%.1f" % (x, y)

    def centre(self, edge=False, margin=0.3):
        r = self.r
        if edge:
            side = r.choice("lrtb")
            d = r.choice([0.3, 1, 2, 3, 4.5, 6, 9])
            if side == "l":
                return d, r.uniform(0.2, 0.8) * self.h, side
            if side == "r":
                return self.w - d, r.uniform(0.2, 0.8) * self.h, side
            if side == "t":
                return r.uniform(0.2, 0.8) * self.w, d, side
            return r.uniform(0.2, 0.8) * self.w, self.h - d, side
        return (r.uniform(self.w * margin, self.w * (1 - margin)),
                r.uniform(self.h * margin, self.h * (1 - margin)), None)

    def fingers(self, n):
        """Positions of n fingers of a hand around the origin (mm)."""
        r = self.r
        spread = min(self.w, self.h) * r.uniform(0.05, 0.3)
        shape = r.choice(["row", "arc", "random", "cluster"])
        out = []
        for k in range(n):
            if shape == "row":
                t = (k - (n - 1) / 2) * spread / max(1, n - 1) * 1.5
                a = r.uniform(-0.3, 0.3)
                out.append((t, a * t))
            elif shape == "arc":
                ang = math.pi * (0.15 + 0.7 * k / max(1, n - 1))
                out.append((spread * math.cos(ang), -spread * math.sin(ang)))
            elif shape == "cluster":
                out.append((r.uniform(-12, 12), r.uniform(-12, 12)))
            else:
                out.append((r.uniform(-spread, spread), r.uniform(-spread, spread)))
        return out

    def hand(self, base_at=0):
        """n fingers of one hand: individual touch statements, each with
        its own landing and lift time and the hand's motion."""
        r = self.r
        n = weighted(r, [(1, 3), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2)])
        n = min(n, self.slots)
        edge = r.random() < 0.2
        cx, cy, side = self.centre(edge)
        offs = self.fingers(n)
        if edge:
            # the hand starts at the edge: fingers spread along it
            offs = [(0.0, o[1]) if side in "lr" else (o[0], 0.0) for o in offs]
        kind = weighted(r, [("tap", 3), ("hold", 2), ("drag", 5), ("pinch", 2),
                            ("rotate", 2), ("still-then-drag", 1)])
        if edge and kind in ("tap", "hold"):
            kind = "drag"
        # landings
        mode = r.choice(["together", "uniform", "random", "two-waves"])
        if mode == "together":
            lands = [0] * n
        elif mode == "uniform":
            s = r.choice(STAGGERS)
            lands = [k * s for k in range(n)]
        elif mode == "two-waves":
            s = r.choice(STAGGERS)
            cut = r.randint(1, max(1, n - 1))
            lands = [0 if k < cut else s for k in range(n)]
        else:
            lands = sorted(r.choice(STAGGERS) + r.randint(0, 3) * 5 for _ in range(n))
            lands = [l - lands[0] for l in lands]
        r.shuffle(offs)
        # duration of the motion after the last landing
        if kind == "tap":
            dur = r.choice([5, 10, 20, 30, 45, 55, 60, 70, 90, 120, 200, 290, 310, 400])
        elif kind == "hold":
            dur = r.choice([100, 300, 600, 1200])
        else:
            dur = r.choice([60, 100, 150, 250, 400, 700, 1000])
        last = max(lands)
        end = last + dur
        # lifts: together, or some fingers early (within or after 60 ms)
        lifts = [end] * n
        lmode = r.choice(["together", "together", "staggered", "early-one", "early-some"])
        if lmode == "staggered":
            s = r.choice([5, 10, 20, 40, 60, 80])
            order = list(range(n))
            r.shuffle(order)
            for i, k in enumerate(order):
                lifts[k] = end + i * s
        elif lmode in ("early-one", "early-some") and n > 1:
            ks = [r.randrange(n)] if lmode == "early-one" else r.sample(range(n), r.randint(1, n - 1))
            for k in ks:
                lifts[k] = lands[k] + r.choice([10, 20, 40, 55, 60, 65, 80, 150])
        # motion of the hand: a function of time since base_at+0
        if kind in ("drag", "still-then-drag"):
            dist = r.choice([1, 2, 3, 5, 10, 30, 60, 120])
            if edge:
                ang = {"l": 0, "r": math.pi, "t": math.pi / 2, "b": -math.pi / 2}[side]
                ang += r.uniform(-0.4, 0.4)
            else:
                ang = r.uniform(-math.pi, math.pi)
            dx, dy = dist * math.cos(ang), dist * math.sin(ang)
            t0 = r.choice([0, 20, 80, 150]) if kind == "still-then-drag" else 0

            def at(k, t):
                f = min(1.0, max(0.0, (t - t0) / max(1, end - t0)))
                return cx + offs[k][0] + dx * f, cy + offs[k][1] + dy * f
        elif kind == "pinch":
            fac = r.choice([0.3, 0.6, 0.85, 0.95, 1.05, 1.2, 1.6, 2.5])

            def at(k, t):
                f = min(1.0, t / max(1, end))
                s = 1 + (fac - 1) * f
                return cx + offs[k][0] * s, cy + offs[k][1] * s
        elif kind == "rotate":
            sweep = math.radians(r.choice([-200, -90, -30, -8, 5, 15, 45, 120, 270]))

            def at(k, t):
                f = min(1.0, t / max(1, end))
                c, s = math.cos(sweep * f), math.sin(sweep * f)
                x, y = offs[k]
                return cx + c * x - s * y, cy + s * x + c * y
        else:
            def at(k, t):
                return cx + offs[k][0], cy + offs[k][1]
        # one touch statement per finger: straight pieces through the
        # hand's motion from landing to lift
        for k in range(n):
            a, b = lands[k], max(lands[k], lifts[k])
            pieces = 1 if kind in ("tap", "hold") else r.choice([1, 2, 3])
            times = [a + (b - a) * i // pieces for i in range(pieces + 1)]
            x, y = at(k, a)
            if kind in ("tap", "hold"):
                self.lines.append("touch pos=%s dur=%d at=%d" % (self.pt(x, y), b - a, base_at + a))
                continue
            x2, y2 = at(k, times[1])
            self.lines.append("touch from=%s to=%s dur=%d at=%d" % (
                self.pt(x, y), self.pt(x2, y2), max(0, times[1] - times[0]), base_at + a))
            for i in range(1, pieces):
                x3, y3 = at(k, times[i + 1])
                self.lines.append("then move to=%s dur=%d" % (self.pt(x3, y3), times[i + 1] - times[i]))
        return max(lifts) + base_at

    def swap(self, rate):
        """A finger lifts in the report where another lands (and other
        fingers may stay down); then maybe a third reuses the slot."""
        r = self.r
        period = 1000 // rate
        cx, cy, _ = self.centre()
        stay = r.randint(0, min(2, self.slots - 2))
        for k in range(stay):
            self.lines.append("touch pos=%s dur=%d at=0" % (self.pt(cx + 15 * (k + 1), cy + 10), 600))
        d = period * r.randint(1, 12)          # lifts after its report at d
        if r.random() < 0.5:
            self.lines.append("touch pos=%s dur=%d at=0" % (self.pt(cx, cy), d))
        else:
            self.lines.append("touch from=%s to=%s dur=%d at=0" % (
                self.pt(cx, cy), self.pt(cx + r.uniform(-10, 10), cy + r.uniform(-10, 10)), d))
        land = d + period                       # its release report
        x2, y2 = cx + r.uniform(-20, 20), cy + r.uniform(-20, 20)
        dur2 = r.choice([0, 30, 100, 300])
        self.lines.append("touch from=%s to=%s dur=%d at=%d" % (
            self.pt(x2, y2), self.pt(x2 + r.uniform(-15, 15), y2 + r.uniform(-15, 15)),
            dur2, land + r.choice([0, 0, 0, period, 2 * period])))
        if r.random() < 0.5:
            self.lines.append("touch pos=%s dur=%d at=%d" % (
                self.pt(cx - 20, cy - 10), r.choice([20, 80, 200]), land + r.choice([period, 60, 100])))
        return 800

    def builtin(self):
        """One of utouch-synth's own statements (coherent staggered
        motion along the path)."""
        r = self.r
        cx, cy, _ = self.centre(margin=0.35)
        kind = r.choice(["drag", "pinch", "rotate", "tap", "hold"])
        n = r.randint(1, min(5, self.slots))
        spacing = r.uniform(5, min(25, min(self.w, self.h) * 0.3 / max(1, n - 1)))
        stagger = r.choice(STAGGERS[:16])
        if kind == "drag":
            dur = r.choice([150, 300, 600])
            st = min(stagger, dur // max(1, n))
            self.lines.append("drag from=%s to=%s dur=%d touches=%d spacing=%.1f row=%d stagger=%d" % (
                self.pt(cx, cy), self.pt(cx + r.uniform(-40, 40), cy + r.uniform(-40, 40)), dur, n,
                spacing, r.choice([0, 30, 90, 150]), st))
        elif kind == "pinch":
            dur = r.choice([150, 300, 600])
            self.lines.append("pinch centre=%s from=%.1f to=%.1f dur=%d angle=%d stagger=%d" % (
                self.pt(cx, cy), r.uniform(10, 40), r.uniform(10, 40), dur, r.choice([0, 45, 90, 170]),
                min(stagger, dur - 10)))
        elif kind == "rotate":
            dur = r.choice([200, 400, 800])
            n = max(2, n)
            self.lines.append("rotate centre=%s radius=%.1f sweep=%d dur=%d touches=%d stagger=%d" % (
                self.pt(cx, cy), r.uniform(8, min(self.w, self.h) * 0.2),
                r.choice([-120, -45, -10, 10, 20, 90, 180]), dur, n, min(stagger, dur // n)))
        else:
            dur = r.choice([20, 50, 120, 250, 400]) if kind == "tap" else r.choice([300, 700])
            self.lines.append("%s pos=%s dur=%d touches=%d spacing=%.1f stagger=%d" % (
                kind, self.pt(cx, cy), dur, n, spacing, min(stagger, dur // max(1, n))))
        if r.random() < 0.4:
            self.lines.append(r.choice([
                "then move by=%.1f,%.1f dur=%d" % (r.uniform(-15, 15), r.uniform(-15, 15),
                                                   r.choice([60, 100, 300])),
                "then hold dur=%d" % r.choice([30, 60, 200, 600]),
                "then arc sweep=%d dur=%d" % (r.choice([-60, 30, 90]), r.choice([150, 400])),
                "then scale factor=%s dur=%d" % (r.choice([0.7, 1.3, 1.6]), r.choice([150, 400])),
                "then lift count=%d" % r.randint(1, 2)]))
        return 0


def scenario(seed):
    """(scenario text, utouch-synth options) of one seed."""
    r = random.Random(seed)
    preset = weighted(r, PRESET_WEIGHTS)
    sc = Scene(r, preset)
    rate = r.choice([60, 100, 100, 100, 125, 200, 200, 250, 500])
    sc.lines = ["device " + preset, "rate %d" % rate]
    if r.random() < 0.3:
        sc.lines.append("jitter %s seed=%d" % (r.choice([0.05, 0.1, 0.3, 0.8]), r.randint(1, 999)))
    for group in range(weighted(r, [(1, 5), (2, 3), (3, 1)])):
        if group:
            sc.lines.append("next gap=%d" % r.choice([0, 10, 30, 60, 100, 300, 500]))
        kind = weighted(r, [("hand", 6), ("two-hands", 1), ("swap", 2), ("builtin", 2)])
        if kind == "hand":
            sc.hand()
        elif kind == "two-hands":
            end = sc.hand()
            sc.hand(r.choice([0, 20, 50, 70, 100, end // 2, end]))
        elif kind == "swap":
            sc.swap(rate)
        else:
            sc.builtin()
    opts = []
    if r.random() < 0.2:
        opts += ["--backstep", str(r.choice([1, 3, 10, 200, 999]))]
    return "\n".join(sc.lines) + "\n", opts


def random_subs(r):
    """A random subscription set (grail 3.1's primitives only)."""
    atomic = r.random() < 0.25
    subs = []
    for _ in range(weighted(r, [(1, 4), (2, 3), (3, 1)])):
        mask = "+".join(sorted(r.sample(["drag", "pinch", "rotate", "tap", "touch"],
                                        r.randint(1, 3))))
        start = r.randint(1, 5)
        spec = ["mask=" + mask, "start=%d" % start]
        if r.random() < 0.5:
            spec.append("min=%d" % r.randint(1, start))
        if r.random() < 0.5:
            spec.append("max=%d" % r.randint(start, 5))
        if atomic:
            spec.append("atomic=1")
        if r.random() < 0.3:
            spec.append(r.choice(["drag-threshold=0", "drag-threshold=0.01", "drag-timeout=0",
                                  "drag-timeout=1000", "tap-timeout=100", "tap-timeout=600",
                                  "tap-threshold=0.01", "pinch-threshold=1.02",
                                  "rotate-threshold=0.05", "pinch-timeout=0", "rotate-timeout=60"]))
        subs += ["-s", ",".join(spec)]
    return subs


def trace_cases(r, rec, count):
    """count argument lists from difftest's matrix and random subscriptions."""
    cases = []
    for _ in range(count):
        subs = r.choice(difftest.SUBSETS) if r.random() < 0.6 else random_subs(r)
        pol = r.choice(difftest.POLICIES)
        fr = weighted(r, [([], 6), (["--x11"], 3), (["--split"], 1), (["--reverse"], 1),
                          (["--begin-first"], 1), (["--own", "begin"], 1), (["--indirect"], 1),
                          (["--direct"], 1), (["--screen", "1920x1080"], 1)])
        cases.append(fr + pol + subs + [rec])
    return cases


GID = re.compile(r"(?<= g=)(\d+)(?= )|(?<=^# degenerate g=)(\d+)|(?<=^# partial g=)(\d+)")


def relabel(lines):
    """--classify: the trace with gesture ids numbered by what each
    gesture is (subscription, time and touches of its first slice)
    instead of in creation order, which in grail 3.1 follows heap
    addresses where many candidates expand at once."""
    key = {}
    for l in lines:
        m = re.match(r"t=(\d+) g=(\d+) sub=(\d+) \w+ n=\d+ touches=(\S+) ", l)
        if m and int(m.group(2)) not in key:
            key[int(m.group(2))] = (int(m.group(3)), int(m.group(1)), m.group(4), int(m.group(2)))
    order = {g: i for i, g in enumerate(sorted(key, key=lambda g: key[g][:3]))}
    return [GID.sub(lambda m: str(order.get(int(m.group(0)), 100000 + int(m.group(0)))), l)
            for l in lines]


def main():
    args = sys.argv[1:]
    ncases, keep, quiet = 24, None, False
    for opt in ("--cases", "--keep"):
        if opt in args:
            i = args.index(opt)
            val = args[i + 1]
            del args[i:i + 2]
            if opt == "--cases":
                ncases = int(val)
            else:
                keep = val
    classify = "--classify" in args
    if classify:
        args.remove("--classify")
    if "--quiet" in args:
        args.remove("--quiet")
        quiet = True
    if len(args) not in (4, 5):
        print(__doc__)
        return 2
    synth, replay, ref = args[:3]
    count = int(args[3])
    first = int(args[4]) if len(args) == 5 else 1
    scenarios = runs = refused = 0
    bad = {}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, first + count):
            text, opts = scenario(seed)
            scn = os.path.join(tmp, "s%d.scn" % seed)
            rec = os.path.join(tmp, "s%d.evemu" % seed)
            with open(scn, "w") as f:
                f.write(text)
            p = subprocess.run([synth] + opts + ["-o", rec, scn], capture_output=True, text=True)
            if p.returncode != 0:
                refused += 1
                if not quiet:
                    print("seed %d: refused: %s" % (seed, p.stderr.strip()))
                continue
            scenarios += 1
            r = random.Random(seed * 7919 + 1)
            fcases = [fr + ["--frames", rec] for fr in difftest.FRAMINGS]
            tcases = trace_cases(r, rec, ncases)
            ours = difftest.run_batch(replay, fcases + [["--mark-degenerate", "--frames"] + c
                                                        for c in tcases])
            theirs = difftest.run_batch(ref, fcases + tcases, difftest.REF_OPTS)
            diffs = []
            for i, c in enumerate(fcases):
                runs += 1
                if not difftest.compare(" ".join(c), difftest.frame_lines(theirs[i]),
                                        difftest.frame_lines(ours[i]), False):
                    diffs.append(c)
            for i, c in enumerate(tcases):
                runs += 1
                j = len(fcases) + i
                before = dict(difftest.CUTS)
                same = difftest.compare_trace(c, theirs[j], ours[j])[0]
                if classify and difftest.CUTS != before:
                    why = [k for k in difftest.CUTS if difftest.CUTS[k] != before.get(k)]
                    print("CUT seed=%d %s: %s" % (seed, why[0], " ".join(c)))
                if not same:
                    diffs.append(c)
                    if classify:
                        with contextlib.redirect_stdout(io.StringIO()):
                            anyo = difftest.compare_trace(c, theirs[j], ours[j], True)[0]
                            ids = anyo or difftest.compare_trace(
                                c, relabel(theirs[j]), relabel(ours[j]), True)[0]
                        print("CLASS seed=%d %s: %s" % (
                            seed, "any-order" if anyo else "ids" if ids else "other", " ".join(c)))
            if diffs:
                bad[seed] = diffs
                print("seed %d: %d of %d runs differ (%s)" % (seed, len(diffs),
                                                            len(fcases) + len(tcases), " ".join(opts)))
                print(text)
                if keep:
                    os.makedirs(keep, exist_ok=True)
                    for src, ext in ((scn, "scn"), (rec, "evemu")):
                        with open(src) as f, open(os.path.join(keep, "s%d.%s" % (seed, ext)), "w") as g:
                            g.write(f.read())
                    with open(os.path.join(keep, "s%d.opts" % seed), "w") as g:
                        g.write(" ".join(opts) + "\n")
    print("%d scenarios (%d refused by utouch-synth), %d runs (traces cut at a known "
          "difference: %s), %d scenarios with differences: %s"
          % (scenarios, refused, runs,
             ", ".join("%d %s" % (v, k) for k, v in sorted(difftest.CUTS.items())) or "none",
             len(bad), " ".join(map(str, sorted(bad)))))
    return 0 if not bad and scenarios > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
