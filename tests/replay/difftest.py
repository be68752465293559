#!/usr/bin/env python3
"""Differential tests: utouch-replay against ref-grail (the original stack).

usage: difftest.py MODE REPLAY REF-GRAIL-BATCH RECORDING [RECORDING...]

REF-GRAIL-BATCH is ref-grail-batch (ref-grail-batch.c): ref-grail's
replays, like utouch-replay's, run from one process with --batch.

MODE frames : the header and '# frame' lines must be identical for every
              framing option set.
MODE trace  : the gesture traces must match within float noise for a matrix
              of subscription sets, policies and framings; lines that utouch
              marks canceled=1 (a documented fix) are left out of utouch's trace,
              and so are both traces' slices of a gesture from the time utouch
              reports its angle estimate degenerate on (see without_degenerate);
              in X11 framing, of a gesture's slices at a time with frames
              utouch marks partial only the last is compared (see
              without_partial).
MODE trace-crowd : as trace, and slices of different gestures
              at the same time may come in any order (see by_time_and_gesture),
              and subscription sets that expand gestures (max=) are left out,
              and so are X11-framed runs of pinch or rotate subscriptions;
              for recordings with many simultaneous candidate gestures.
MODE proto  : the recordings come in pairs (protocol A, protocol B of the
              same motion); their frame operations must agree in time, kind
              and id, and in window coordinates within 0.5 px.
MODE same   : all recordings must give identical frames (e.g. the same motion
              stored as evemu and as libinput record).

Exit status 0 on success, 1 on a difference (printed as a unified diff),
77 when ref-grail is unavailable.
"""
import bisect
import difflib
import os
import re
import shlex
import subprocess
import sys

FRAMINGS = [[], ["--x11"], ["--split"], ["--reverse"], ["--begin-first"],
            ["--own", "begin"], ["--split", "--begin-first", "--own", "begin"],
            ["--indirect"], ["--screen", "1920x1080"]]

SUBSETS = [
    ["-s", "mask=drag"],
    ["-s", "mask=pinch"],
    ["-s", "mask=rotate"],
    ["-s", "mask=tap"],
    ["-s", "mask=touch"],
    ["-s", "mask=drag,start=1,min=1"],
    ["-s", "mask=tap,start=1,min=1"],
    ["-s", "mask=drag+pinch+rotate,touches=2"],
    ["-s", "mask=all,start=1,max=5"],
    ["-s", "mask=drag,touches=3", "-s", "mask=drag,touches=4"],
    ["-s", "mask=drag,touches=1", "-s", "mask=drag,touches=2"],
    ["-s", "mask=drag,start=3,min=3,max=5,drag-threshold=0"],
    ["-s", "mask=drag,touches=2,drag-threshold=0.0265,drag-timeout=500"],
    ["-s", "mask=pinch,touches=2", "-s", "mask=rotate,touches=2"],
    ["-s", "mask=touch,touches=2,atomic=1", "-s", "mask=touch,touches=3,atomic=1",
     "-s", "mask=touch,touches=4,atomic=1"],
    ["-s", "mask=drag,touches=3,atomic=1", "-s", "mask=touch,touches=3,atomic=1",
     "-s", "mask=pinch,touches=3,atomic=1"],
    ["-s", "mask=tap,touches=2,atomic=1"],
    ["-s", "mask=drag+tap,start=1,max=5,atomic=1"],
]
# One subscription per class with the same touches: their candidates share
# one geometry per frame (grail-slice.c, frame_geometry).  Not for crowds:
# with ten touches the original's four candidates per touch set come and
# go in heap-address order, so which of them survive is an accident of its
# allocator.
SHARED_SUBSET = ["-s", "mask=drag,touches=4", "-s", "mask=pinch,touches=4",
                 "-s", "mask=rotate,touches=4", "-s", "mask=tap,touches=4"]
SUBSETS.append(SHARED_SUBSET)

POLICIES = [["--policy", "accept"], ["--policy", "accept-cf"],
            ["--policy", "reject"], ["--policy", "none"]]

NUM = re.compile(r"-?\d+\.\d+|-?\d+")


DEGENERATE = re.compile(r"# degenerate g=(\d+) t=(\d+) touches=([\d,]+)$")
PARTIAL = re.compile(r"# partial g=(\d+) t=(\d+)$")
TOUCHES = re.compile(r" touches=([\d,]+) ")
FRAME_OP = re.compile(r"# frame t=(\d+) (\w+) id=(\d+) win=(-?[\d.]+),(-?[\d.]+) ")


def ill_conditioned(points):
    """Three or more points, one closer to their centroid than a quarter of
    their mean distance from it (grail's gr_angle_ill_conditioned, an
    independent copy so that utouch's claims are checked)."""
    n = len(points)
    if n < 3:
        return False
    cx = sum(p[0] for p in points) / n
    cy = sum(p[1] for p in points) / n
    d = [((p[0] - cx) ** 2 + (p[1] - cy) ** 2) ** 0.5 for p in points]
    # a little slack for the float rounding of the printed positions
    return min(d) < 0.25 * sum(d) / n + 0.01


def check_degenerate_claims(lines):
    """Every "# degenerate" line must be true of the frame operations:
    at its time, among the states just before and after each operation of
    that millisecond, one where the gesture's touches are ill-conditioned.
    Returns the claims that are not."""
    pos = {}
    states = {}   # t -> list of snapshots (dicts id -> (x, y))
    for l in lines:
        m = FRAME_OP.match(l)
        if not m:
            continue
        t, kind, tid = int(m.group(1)), m.group(2), int(m.group(3))
        snaps = states.setdefault(t, [])
        if not snaps:
            snaps.append(dict(pos))
        if kind == "end":
            pos.pop(tid, None)
        elif kind != "owned":
            pos[tid] = (float(m.group(4)), float(m.group(5)))
        snaps.append(dict(pos))
    wrong = []
    for l in lines:
        m = DEGENERATE.match(l)
        if not m:
            continue
        t, ids = int(m.group(2)), [int(x) for x in m.group(3).split(",")]
        if not any(all(i in s for i in ids) and ill_conditioned([s[i] for i in ids])
                   for s in states.get(t, [])):
            wrong.append(l)
    return wrong


def without_degenerate(ref, ours):
    """Leave out the slices where utouch's geometry differs from grail 3.1's.

    Where three or more touches have one touch close to their centroid
    (closer than a quarter of their mean distance from it), grail 3.1's
    angle estimate, the mean change of each touch's angle, is dominated by
    that touch's noise; utouch then uses the least-squares similarity for
    the rest of the gesture's segment and reports it with
    "# degenerate g=ID t=MS touches=..." (utouch-replay --mark-degenerate),
    a claim check_degenerate_claims() verifies against the frames.  From that
    time on, the gesture's slices of both implementations are left out:
    rotation, scale, radius and what is recognised may differ there, and
    nowhere else.  Returns (ref, ours, number of gestures concerned).
    """
    since = {}
    rest = []
    for l in ours:
        m = DEGENERATE.match(l)
        if m:
            since.setdefault(int(m.group(1)), int(m.group(2)))
        elif not l.startswith("# frame "):
            rest.append(l)

    def keep(line):
        t, g = slice_key(line)
        return g not in since or t < since[g]
    return [l for l in ref if keep(l)], [l for l in rest if keep(l)], len(since)


def without_partial(ref, ours):
    """Compare only the ends of the moments that had split frames.

    In X11 framing (one changed touch per frame, the frames of one moment
    sharing their time) a frame in the middle of a moment is no rotation
    or scaling of the hand; utouch then measures rotation and scale on the
    touches' positions before the moment and says so with "# partial
    g=ID t=MS" (--mark-degenerate).  grail 3.1 took those frames for the
    hand's shape: its rotation, scale and even a pinch or rotate it
    recognises there differ from utouch's until the moment's last frame,
    where both see every touch moved.  So for each gesture and time with
    such a mark, both traces keep only their last slice of that gesture at
    that time (they must have as many); where one of its touches changed
    at the previous time and not at this one (a finger that stopped), the
    whole moment is measured on the positions before it, and rotation and
    scale (r=, the 2x2 of T) of that slice are not compared either.  Each
    claim is checked against the frame operations (--frames): one of the
    slice's touches changed at the previous time at which any touch
    changed.  Returns (ref, ours without the marks, number of
    groups, wrong claims).
    """
    marked = set()
    ops = {}      # t -> touch ids with an operation at t
    for l in ours:
        m = PARTIAL.match(l)
        if m:
            marked.add((int(m.group(2)), int(m.group(1))))
            continue
        m = FRAME_OP.match(l)
        if m and m.group(2) != "owned":
            ops.setdefault(int(m.group(1)), []).append(int(m.group(3)))
    times = sorted(ops)
    ours = [l for l in ours if not PARTIAL.match(l)]
    # each trace's first line of every (time, gesture), found in one pass
    # (a crowd has thousands of marks and hundreds of thousands of lines)
    first_ours, first_ref = first_lines(ours), first_lines(ref)
    wrong = []
    stopped = set()
    for key in sorted(marked):
        t = key[0]
        line = first_ours.get(key)
        before = bisect.bisect_left(times, t)
        if before == 0:
            wrong.append("# partial g=%d t=%d" % (key[1], t))
            continue
        if line is None:
            continue  # the gesture's slices never reached the client
        prev = ops[times[before - 1]]
        touches = [int(x) for x in TOUCHES.search(line).group(1).split(",")]
        if not any(x in prev for x in touches):
            wrong.append(line)
        elif any(x in prev and x not in ops.get(t, []) for x in touches):
            # a touch that changed before and not at t (it stopped): the
            # whole moment is measured on the positions before it
            stopped.add(key)

    def last_only(lines):
        count = {}
        for l in lines:
            k = slice_key(l)
            if k in marked:
                count[k] = count.get(k, 0) + 1
        out, seen = [], {}
        for l in lines:
            k = slice_key(l)
            if k in marked:
                seen[k] = seen.get(k, 0) + 1
                if seen[k] < count[k]:
                    continue
            out.append(l)
        return out, count
    # Where grail 3.1 recognised a pinch or rotation in the middle of a
    # moment that utouch does not (the partial frame's shape, e.g. a
    # four-finger drag taken for a rotation), or the other way round, that
    # gesture's slices are left out of both traces from that time on.
    rec_of = re.compile(r" rec=(\S+) ")

    def first_rec(first, key):
        l = first.get(key)
        return set(rec_of.search(l).group(1).split("+")) if l is not None else set()
    shown_ids = {g for (t, g) in first_ours}
    since = {}
    for key in sorted(marked):
        if key[1] in since:
            continue
        a, b = first_rec(first_ref, key), first_rec(first_ours, key)
        if (a ^ b) & {"pinch", "rotate"}:
            # all of it when utouch never showed the gesture (its slices
            # before the recognition were flushed with it)
            shown = key[1] in shown_ids
            since[key[1]] = key[0] if shown else -1

    def keep(line):
        t, g = slice_key(line)
        return g not in since or t < since[g]
    ref = [l for l in ref if keep(l)]
    ours = [l for l in ours if keep(l)]
    ref2, cref = last_only(ref)
    ours2, cours = last_only(ours)
    if cref != cours:
        # not the same slices: compare everything, the diff shows where
        return ref, ours, len(marked), wrong
    geometry = re.compile(r" r=\S+ T=\[\S+ \S+ (\S+); \S+ \S+ (\S+)\]")

    def mask(lines):
        return [geometry.sub(lambda m: " r=* T=[* * %s; * * %s]" % m.groups(), l)
                if slice_key(l) in stopped else l for l in lines]
    return mask(ref2), mask(ours2), len(marked), wrong


# The original grail copies gestures on expansion without initialising
# their keep_slices flag (original-utouch.md section 4, item 2), so its
# output depends on what the heap held.  meson sets MALLOC_PERTURB_ for
# tests, which fills fresh memory with garbage; the oracle runs without it.
ORACLE_ENV = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, env=ORACLE_ENV)
    if p.returncode == 77:
        print(p.stderr.strip())
        sys.exit(77)
    if p.returncode != 0:
        print("command failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
        sys.exit(1)
    return p.stdout.splitlines()


BATCH_END = re.compile(r"# batch line=(\d+) status=(\d+)$")


def run_batch(replay, arglists):
    """The lines of each argument list's replay, from one `--batch -` run of
    utouch-replay or ref-grail-batch: each replay forks from one process
    instead of starting anew, which is most of the time of a short replay."""
    text = "".join(" ".join(shlex.quote(a) for a in args) + "\n" for args in arglists)
    p = subprocess.run([replay, "--batch", "-"], input=text, capture_output=True,
                       text=True, env=ORACLE_ENV)
    if p.returncode == 77 and not p.stdout:
        print(p.stderr.strip())  # the oracle is not there
        sys.exit(77)
    outs, cur = [], []
    for l in p.stdout.splitlines():
        m = BATCH_END.match(l)
        if not m:
            cur.append(l)
            continue
        if m.group(2) != "0":
            print("command failed (%s): %s\n%s" % (m.group(2), " ".join(arglists[len(outs)]),
                                                   p.stderr))
            sys.exit(1)
        outs.append(cur)
        cur = []
    if len(outs) != len(arglists) or cur:
        print("utouch-replay --batch gave %d outputs for %d replays (status %d)\n%s"
              % (len(outs), len(arglists), p.returncode, p.stderr))
        sys.exit(1)
    return outs


def frame_lines(lines):
    # the header names the file and may differ in nothing else
    return [l for l in lines if l.startswith("# frame ") or l.startswith("# file=")]


def close(a, b):
    """Lines equal except for numbers that differ by float noise."""
    if a == b:
        return True
    ta, tb = NUM.split(a), NUM.split(b)
    if ta != tb:
        return False
    for x, y in zip(NUM.findall(a), NUM.findall(b)):
        if x == y:
            continue
        fx, fy = float(x), float(y)
        if abs(fx - fy) > 2e-3 + 1e-5 * max(abs(fx), abs(fy)):
            return False
    return True


def show_diff(what, ref, ours):
    print("DIFFERENCE: " + what)
    for l in list(difflib.unified_diff(ref, ours, "ref-grail", "utouch-replay",
                                       lineterm="", n=2))[:60]:
        print(l)


def compare(what, ref, ours, tolerant):
    ok = len(ref) == len(ours) and all(
        (close(a, b) if tolerant else a == b) for a, b in zip(ref, ours))
    if not ok:
        show_diff(what, ref, ours)
    return ok


def mode_frames(replay, ref, recs):
    ok = n = 0
    for rec in recs:
        cases = [fr + ["--frames", rec] for fr in FRAMINGS]
        for args, ours, theirs in zip(cases, run_batch(replay, cases), run_batch(ref, cases)):
            n += 1
            ok += compare(" ".join(args), frame_lines(theirs), frame_lines(ours), False)
    return ok, n


def first_lines(lines):
    """{(time, gesture): the first line of that slice key} (slice_key)."""
    first = {}
    for l in lines:
        first.setdefault(slice_key(l), l)
    return first


SLICE_KEY = re.compile(r"t=(\d+) g=(\d+) ")


def slice_key(line):
    m = SLICE_KEY.match(line)
    return (int(m.group(1)), int(m.group(2))) if m else (-1, -1)


def by_time_and_gesture(lines):
    """Order slices by time, then gesture id, keeping each gesture's own order.

    The original keeps its gestures in sets ordered by heap address, so when
    many gestures emit slices in the same frame their interleaving is an
    accident of the allocator.  Each gesture's own sequence is kept intact.
    """
    return sorted(lines, key=slice_key)


def trace_cases(rec, any_order):
    """The argument lists mode_trace compares for one recording."""
    cases = []
    for subs in SUBSETS:
        if any_order and subs is SHARED_SUBSET:
            continue
        if any_order and any("max=" in x for x in subs):
            # expansion walks the original's gestures in heap-address
            # order and numbers the copies in that order, so with many
            # gestures their ids are an accident of the allocator
            continue
        # every policy with report framing, and the X11 framing with the
        # default policy
        for fr, pol in [([], p) for p in POLICIES] + [(["--x11"], POLICIES[0])]:
            if (any_order and fr and
                    any("pinch" in x or "rotate" in x for x in subs)):
                # a crowd in X11 framing: grail 3.1 recognises pinches
                # and rotations at partial frames (without_partial),
                # which changes which of many candidates is accepted
                # first and so the rest of the trace
                continue
            cases.append(fr + pol + subs + [rec])
    return cases


def mode_trace(replay, ref, recs, any_order=False):
    ok = n = degenerate = 0
    for rec in recs:
        cases = trace_cases(rec, any_order)
        ours = run_batch(replay, [["--mark-degenerate", "--frames"] + args for args in cases])
        theirs = run_batch(ref, cases)
        for args, a, b in zip(cases, theirs, ours):
            n += 1
            b = [l for l in b if "canceled=1" not in l]
            wrong = check_degenerate_claims(b)
            if wrong:
                print("DIFFERENCE: %s: degenerate where the frames say otherwise:\n%s"
                      % (" ".join(args), "\n".join(wrong[:5])))
                continue
            # the events= count includes canceled slices; compare the
            # slices themselves and the failure count separately
            fa = a[-1].split("failures=")[-1]
            fb = b[-1].split("failures=")[-1]
            a, b = a[:-1], b[:-1]
            a, b, npartial, wrong = without_partial(a, b)
            if wrong:
                print("DIFFERENCE: %s: partial where the frames say otherwise:\n%s"
                      % (" ".join(args), "\n".join(wrong[:5])))
                continue
            a, b, ndeg = without_degenerate(a, b)
            degenerate += ndeg > 0
            if any_order:
                a, b = by_time_and_gesture(a), by_time_and_gesture(b)
            ok += compare(" ".join(args), a + [fa], b + [fb], True)
    print("%d of %d runs had gestures with a degenerate angle estimate" % (degenerate, n))
    return ok, n


def op_tuples(lines):
    out = []
    for l in frame_lines(lines):
        if l.startswith("# frame "):
            f = l.split()
            win = [float(v) for v in f[5][4:].split(",")]
            out.append((f[2], f[3], f[4], win))
    return out


def mode_proto(replay, recs):
    ok = n = 0
    for a_rec, b_rec in zip(recs[0::2], recs[1::2]):
        for fr in FRAMINGS[:5]:
            n += 1
            a = op_tuples(run([replay, "--frames"] + fr + [a_rec]))
            b = op_tuples(run([replay, "--frames"] + fr + [b_rec]))
            same = len(a) > 0 and len(a) == len(b) and all(
                x[:3] == y[:3] and all(abs(p - q) <= 0.5 for p, q in zip(x[3], y[3]))
                for x, y in zip(a, b))
            if not same:
                show_diff("protocol A %s vs B %s %s" % (a_rec, b_rec, fr),
                          ["%s %s %s %s" % t for t in a], ["%s %s %s %s" % t for t in b])
            ok += same
    return ok, n


def mode_same(replay, recs):
    ok = n = 0
    for fr in FRAMINGS[:3]:
        ref = [l for l in frame_lines(run([replay, "--frames"] + fr + [recs[0]]))
               if l.startswith("# frame ")]
        for other in recs[1:]:
            n += 1
            got = [l for l in frame_lines(run([replay, "--frames"] + fr + [other]))
                   if l.startswith("# frame ")]
            ok += compare("%s vs %s %s" % (recs[0], other, fr), ref, got, False) and len(ref) > 0
    return ok, n


def main():
    mode, replay, ref, recs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    if mode == "frames":
        ok, n = mode_frames(replay, ref, recs)
    elif mode == "trace":
        ok, n = mode_trace(replay, ref, recs)
    elif mode == "trace-crowd":
        ok, n = mode_trace(replay, ref, recs, any_order=True)
    elif mode == "proto":
        ok, n = mode_proto(replay, recs)
    elif mode == "same":
        ok, n = mode_same(replay, recs)
    else:
        print("unknown mode " + mode)
        return 2
    print("%s: %d of %d comparisons equal" % (mode, ok, n))
    return 0 if ok == n and n > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
