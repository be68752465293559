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
              without_partial).  Where the whole traces differ they are
              compared again up to where a known difference of grail 3.1
              begins that changes everything after it (cut_where_known:
              a late timer, an atomic lift and land, subscriptions out of
              heap order, a recognition that differs by design at a
              degenerate or partial frame); ref-grail-batch runs with
              --mark-known for that (ref-grail-batch.c).
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
import io
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
    # atomic gestures that grow: an accepted one takes a new touch, and
    # then no other gesture gets it (atomic-4-staggered)
    ["-s", "mask=touch,start=2,max=5,atomic=1"],
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
FRAME_OP = re.compile(r"# frame t=(\d+) (\w+) id=(\d+) win=(-?[\d.]+),(-?[\d.]+) "
                      r"dev=(-?[\d.]+),(-?[\d.]+)")


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
    that millisecond, one where the gesture's touches are ill-conditioned
    (in the coordinates grail uses: window coordinates for direct
    devices, device coordinates for indirect ones; a touch that ends
    stays where it ended until the millisecond is over, as it does in the
    slice of its frame; and in split framing the positions before the
    moment, with the touches that began in it where they began).  The
    touches may also be those of another slice of the gesture at that time
    or of its slice before: a segment turns least squares where its
    slice's or the previous slice's touches are ill-conditioned.
    Returns the claims that are not."""
    pos = {}
    states = {}   # t -> list of snapshots (dicts id -> (x, y))
    ended, now = [], None
    indirect = any(l.startswith("# file=") and " direct=0 " in l for l in lines[:3])
    xy = (6, 7) if indirect else (4, 5)
    for l in lines:
        m = FRAME_OP.match(l)
        if not m:
            continue
        t, kind, tid = int(m.group(1)), m.group(2), int(m.group(3))
        if t != now:
            for i in ended:
                pos.pop(i, None)
            ended, now = [], t
        snaps = states.setdefault(t, [])
        if not snaps:
            snaps.append(dict(pos))
            # split framing measures a moment's partial frames where the
            # touches were before it (new ones where they began)
            snaps.append(dict(pos))
        if kind == "end":
            ended.append(tid)
        elif kind != "owned":
            pos[tid] = (float(m.group(xy[0])), float(m.group(xy[1])))
            if kind == "begin":
                snaps[1][tid] = pos[tid]
        snaps.append(dict(pos))
    # the touch sets of each gesture's slices: a segment turns least
    # squares where its slice's touches or those of the slice before are
    # ill-conditioned (the mark names the slice's own)
    sets = {}     # gesture -> [(time, touch ids)]
    for l in lines:
        k = slice_key(l)
        if k[1] >= 0:
            sets.setdefault(k[1], []).append(
                (k[0], [int(x) for x in TOUCHES.search(l).group(1).split(",")]))

    def holds(t, ids):
        return any(all(i in s for i in ids) and ill_conditioned([s[i] for i in ids])
                   for s in states.get(t, []))
    wrong = []
    for l in lines:
        m = DEGENERATE.match(l)
        if not m:
            continue
        g, t = int(m.group(1)), int(m.group(2))
        ids = [int(x) for x in m.group(3).split(",")]
        if holds(t, ids):
            continue
        mine = sets.get(g, [])
        before = [e for e in mine if e[0] < t][-1:]
        if not any(holds(t0, s0) for t0, s0 in [e for e in mine if e[0] == t] + before):
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
    scale (r=, the 2x2 of T) of that slice are not compared either; nor
    where a frame of that time that changed one of the gesture's touches
    came after the gesture's last slice (cut_short: the gesture was
    cancelled or ended in the middle of the moment).  Each
    claim is checked against the frame operations (--frames): one of the
    slice's touches changed at the previous time at which any touch
    changed (leaving out times at which only touches changed that none of
    the gestures with a slice at that time holds: grail does not read
    touches nobody holds, so they make no moment).  Returns (ref, ours
    without the marks, number of groups, wrong claims).
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

    def touches_of(key):
        line = first_ours.get(key)
        return set() if line is None else {
            int(x) for x in TOUCHES.search(line).group(1).split(",")}
    short = cut_short(ours, marked, touches_of)
    held = {}     # t -> the touches of the gestures with a slice at t
    for l in ours:
        m = TOUCHES.search(l) if SLICE_KEY.match(l) else None
        if m:
            held.setdefault(slice_key(l)[0], set()).update(
                int(x) for x in m.group(1).split(","))
    for key in sorted(marked):
        t = key[0]
        line = first_ours.get(key)
        before = bisect.bisect_left(times, t)
        if before == 0:
            wrong.append("# partial g=%d t=%d" % (key[1], t))
            continue
        if line is None:
            continue  # the gesture's slices never reached the client
        touches = [int(x) for x in TOUCHES.search(line).group(1).split(",")]
        # the previous moment the recognizer saw: times at which only
        # touches changed that no gesture holds (they are not even read)
        # are no moments to it
        j = before - 1
        while j > 0 and not any(x in touches or x in held.get(times[j], ())
                                for x in ops[times[j]]):
            j -= 1
        prev = ops[times[j]]
        if not any(x in prev for x in touches):
            wrong.append(line)
        elif any(x in prev and x not in ops.get(t, []) for x in touches):
            # a touch that changed before and not at t (it stopped): the
            # whole moment is measured on the positions before it
            stopped.add(key)
        elif key in short:
            # the gesture's last slice of the moment came before the
            # moment's last frame (it was cancelled or ended in the middle
            # of the moment): measured on the positions before it
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

    def recs(lines):
        """{key: what its slices recognised} for the marked keys"""
        out = {}
        for l in lines:
            k = slice_key(l)
            if k in marked:
                out.setdefault(k, set()).update(rec_of.search(l).group(1).split("+"))
        return out
    rec_ref, rec_ours = recs(ref), recs(ours)
    shown_ids = {g for (t, g) in first_ours}
    since = {}
    for key in sorted(marked):
        if key[1] in since:
            continue
        a, b = rec_ref.get(key, set()), rec_ours.get(key, set())
        if (a ^ b) & {"pinch", "rotate"}:
            # all of it when utouch never showed the gesture (its slices
            # before the recognition were flushed with it)
            shown = key[1] in shown_ids
            since[key[1]] = key[0] if shown else -1
    # A gesture with marks that utouch never showed and grail 3.1 showed
    # without a recognised drag, tap or touch in what is left of it: what
    # made it active (a pinch or rotation at a partial frame) came with
    # slices the client's decision withdrew (e.g. --policy reject shows
    # only the backlog before them, rec=none).
    ref_recs = {}
    for l in ref:
        k = slice_key(l)
        if k[1] >= 0:
            ref_recs.setdefault(k[1], set()).update(rec_of.search(l).group(1).split("+"))
    for g in {k[1] for k in marked} - shown_ids - set(since):
        if g in ref_recs and not ref_recs[g] & {"drag", "tap", "touch"}:
            since[g] = -1
    expansions_of(since, ours)
    expansions_of(since, ref)
    drop = recognised_apart(ref, ours, marked)

    def keep(line):
        t, g = slice_key(line)
        return (g not in since or t < since[g]) and (t, g) not in drop
    ref = [l for l in ref if keep(l)]
    ours = [l for l in ours if keep(l)]
    ref2, cref = last_only(ref)
    ours2, cours = last_only(ours)
    if cref != cours:
        # not the same slices: compare everything, the diff shows where
        return ref, ours, len(marked), wrong
    geometry = re.compile(r" r=\S+ T=\[\S+ \S+ (\S+); \S+ \S+ (\S+)\]")

    segments = partial_segments(ours, marked)
    radius = re.compile(r" r0=\S+ r=\S+ T=\[\S+ \S+ (\S+); \S+ \S+ (\S+)\]")

    def mask(lines):
        out = []
        for l in lines:
            if in_segment(l, segments):
                l = radius.sub(lambda m: " r0=* r=* T=[* * %s; * * %s]" % m.groups(), l)
            elif slice_key(l) in stopped:
                l = geometry.sub(lambda m: " r=* T=[* * %s; * * %s]" % m.groups(), l)
            out.append(l)
        return out
    return mask(ref2), mask(ours2), len(marked), wrong


NTOUCHES = re.compile(r" n=(\d+) ")
SUB = re.compile(r" sub=(\d+) ")


def recognised_apart(ref, ours, marked):
    """The slices (time, gesture) to leave out where both traces recognise
    a pinch or rotation at a marked time (a moment with partial frames)
    but at different frames of it: grail 3.1 at a partial frame, utouch at
    the moment's last (difference 18).  A client deciding on that slice
    then decides at another frame of the moment, so the gestures sharing a
    touch with it at that time get more or fewer slices there (e.g. one
    the decision cancels).  Leaves out all slices at that time of the
    gesture and of those sharing a touch with it."""
    def by_key(lines):
        out = {}
        for l in lines:
            k = slice_key(l)
            if k[1] >= 0:
                out.setdefault(k, []).append(l)
        return out
    a, b = by_key(ref), by_key(ours)

    def first(lines, p):
        return next((i for i, l in enumerate(lines or [])
                     if p in REC.search(l).group(1).split("+")), None)
    drop = set()
    for key in marked:
        for p in ("pinch", "rotate"):
            ia, ib = first(a.get(key), p), first(b.get(key), p)
            if ia is None or ib is None or ia == ib:
                continue
            touches = set(TOUCHES.search((a.get(key) or b.get(key))[0]).group(1).split(","))
            for k, lines in list(a.items()) + list(b.items()):
                if k[0] == key[0] and any(
                        touches & set(TOUCHES.search(l).group(1).split(",")) for l in lines):
                    drop.add(k)
    return drop


def expansions_of(since, lines):
    """Add to since ({gesture: time from which it is left out}) the
    expansions of those gestures made after that time, found in lines: a
    gesture whose Begin (at time t, same subscription) holds the touches
    the left-out gesture had at t and one more.  grail copies a gesture's
    recognised mask into its expansions, so one recognised differently at
    a partial frame passes that on to them.  Repeated for expansions of
    expansions."""
    history = {}  # gesture -> [(time, sub, touches)]
    begins = []
    for l in lines:
        t, g = slice_key(l)
        if g < 0:
            continue
        entry = (t, SUB.search(l).group(1), frozenset(TOUCHES.search(l).group(1).split(",")))
        history.setdefault(g, []).append(entry)
        if " begin " in l:
            begins.append((g, entry))
    changed = True
    while changed:
        changed = False
        for g, (t, sub, touches) in begins:
            if g in since and since[g] <= t:
                continue
            for p, t0 in list(since.items()):
                if t < t0 or p not in history:
                    continue
                held = [e for e in history[p] if e[0] <= t]
                if held and held[-1][1] == sub and held[-1][2] < touches and \
                        len(touches - held[-1][2]) == 1:
                    since[g] = t
                    changed = True
                    break


def partial_segments(ours, marked):
    """The segments (slices of a gesture from its Begin or a change of its
    touch count up to the next change) that start at a partial frame
    (marked): utouch takes their original radius and angle from the
    positions before the moment (doc/grail.md, difference 18), so r0, r
    and rotation and scale differ from grail 3.1's for the whole segment.
    Returns {gesture: [(touch count, first time, last time)]}."""
    segs, last_n, current = {}, {}, {}
    for l in ours:
        t, g = slice_key(l)
        if g < 0:
            continue
        n = int(NTOUCHES.search(l).group(1))
        if " begin " in l or last_n.get(g) != n:
            current.pop(g, None)
            if (t, g) in marked:
                current[g] = [n, t, t]
                segs.setdefault(g, []).append(current[g])
        elif g in current:
            current[g][2] = t
        last_n[g] = n
    return segs


def in_segment(line, segments):
    t, g = slice_key(line)
    if g not in segments:
        return False
    n = int(NTOUCHES.search(line).group(1))
    return any(n == sn and t0 <= t <= t1 for sn, t0, t1 in segments[g])


GEOMETRY = re.compile(r" r=(\S+) T=\[(\S+) (\S+) \S+; (\S+) (\S+) \S+\]")


def cut_short(lines, keys, touches_of):
    """The keys (time, gesture) whose last slice in lines (a trace with its
    frame operations) was built before the moment's last frame that
    changed one of the gesture's touches (touches_of(key)): the gesture was
    cancelled or ended in the middle of the moment.  Seen two ways:
    - the slice is followed by an operation at the same time on one of
      the touches (slices reach the trace when built, unless the gesture
      is held back);
    - its rotation and scale (r=, the 2x2 of T) are those of the
      gesture's last slice at its previous time: measured on the
      positions before the moment (a held-back gesture, e.g. atomic)."""
    last = {}
    prev = {}      # key -> the gesture's last slice line before key's time
    latest = {}    # gesture -> (time, its last line at that time)
    for i, l in enumerate(lines):
        k = slice_key(l)
        if k[1] < 0:
            continue
        t0, l0 = latest.get(k[1], (None, None))
        if t0 is not None and t0 != k[0]:
            prev.setdefault(k, l0)
        latest[k[1]] = (k[0], l)
        if k in keys:
            last[k] = i
    # for each time, the index of each frame operation and its touch
    ops = {}
    for i, l in enumerate(lines):
        m = FRAME_OP.match(l)
        if m and m.group(2) != "owned":
            ops.setdefault(int(m.group(1)), []).append((i, int(m.group(3))))

    def geometry(line):
        m = GEOMETRY.search(line) if line else None
        return [float(x) for x in m.groups()] if m else None
    out = set()
    for k, i in last.items():
        touches = touches_of(k)
        if any(j > i and x in touches for j, x in ops.get(k[0], [])):
            out.add(k)
            continue
        now, before = geometry(lines[i]), geometry(prev.get(k))
        if now and before and all(abs(x - y) <= 1e-5 + 1e-5 * abs(y) for x, y in zip(now, before)):
            out.add(k)
    return out


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


def run_batch(replay, arglists, opts=()):
    """The lines of each argument list's replay, from one `--batch -` run of
    utouch-replay or ref-grail-batch (with opts before --batch): each
    replay forks from one process instead of starting anew, which is most
    of the time of a short replay."""
    text = "".join(" ".join(shlex.quote(a) for a in args) + "\n" for args in arglists)
    p = subprocess.run([replay] + list(opts) + ["--batch", "-"], input=text, capture_output=True,
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
    # a line of ours equal to one of ref's of the same slice key up to
    # float noise is shown as ref's, so that the diff shows what differs
    by_key = {}
    for l in ref:
        by_key.setdefault(slice_key(l), []).append(l)
    ours = [next((a for a in by_key.get(slice_key(l), []) if close(a, l)), l) for l in ours]
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


# ref-grail-batch marks where grail 3.1's output is known to part from
# utouch's (late_timer, subscription_order)
REF_OPTS = ["--mark-known"]
LATE_TIMER = re.compile(r"# late timer t=\d+ begin=\d+$")
SUB_ORDER = re.compile(r"# subscription order \d+,\d+$")


def known_mark(line):
    return LATE_TIMER.match(line) or SUB_ORDER.match(line)


def subscription_order(ref):
    """0 when ref-grail's subscriptions lie in the heap in another order
    than they were activated (two with the same number of starting
    touches), else None.  grail 3.1 kept them in sets ordered by address,
    so the later one made its candidates first and took the lower gesture
    ids; utouch goes by activation order, which is grail 3.1's on a fresh
    heap (doc/grail.md, order of events).  Such a run is not compared."""
    return 0 if any(SUB_ORDER.match(l) for l in ref[:3]) else None


def late_timer(ref):
    """Where ref-grail ran a late timer: the number of slices before it in
    ref, or None.

    A replay runs the timeouts grail asks for before each frame; one that
    lies before the start of the latest touch (a timeout that fell due
    before the last frame, e.g. of a touch freed again) is misread by
    grail 3.1, which subtracts in unsigned arithmetic: the newer touch
    counts as long past, so it leaves the free touches and its undecided
    gestures time out or finish construction at once.  utouch reads such a
    time as "not yet" (doc/grail.md, difference 16).  ref-grail-batch
    --mark-late-timers prints "# late timer t=T begin=B" there."""
    n = 0
    for l in ref:
        if LATE_TIMER.match(l):
            return n
        if SLICE_KEY.match(l):
            n += 1
    return None


def atomic_lift_and_land(args, ours):
    """In atomic mode, where a touch lifts in the frame in which another
    lands: the number of slices before that frame in ours, or None.

    grail 3.1's atomic recognizer gives the new touch to the gestures
    before their update has removed the lifted touch: it still counts it
    among a gesture's touches, and when the new touch makes a gesture end
    or cancel, it frees the lifted touch again, so the touch counts of the
    next match (and which subscription matches) can differ from utouch's,
    which frees only touches still down (doc/grail.md, known remaining
    differences).  Only one frame per report can have both (no split
    framing)."""
    if not any("atomic=1" in a for a in args) or "--split" in args or "--x11" in args:
        return None
    ops = {}
    for l in ours:
        m = FRAME_OP.match(l)
        if m:
            ops.setdefault(int(m.group(1)), set()).add(m.group(2))
    both = {t for t, kinds in ops.items() if {"begin", "end"} <= kinds}
    if not both:
        return None
    first = min(both)
    n = 0
    for l in ours:
        m = FRAME_OP.match(l)
        if m and int(m.group(1)) == first:
            return n
        if SLICE_KEY.match(l):
            n += 1
    return n


CUTS = {}  # how often a cut (cut_where_known) made traces equal, by reason


REC = re.compile(r" rec=(\S+) ")


def degenerate_recognition(ref, ours):
    """Where utouch switched a gesture to the least-squares geometry
    ("# degenerate g=G t=T", difference 17) and that gesture recognises a
    pinch or rotation from T on in one trace only, or at another time: the
    number of slices
    before that mark in ours, or None.  Whether a gesture is recognised
    decides whether it is active, which decides when the gestures sharing
    its touches finish construction, which the client's decisions and so
    the rest of the trace follow."""
    def recs(lines, g, t):
        """when G's slices from t on first recognise a pinch, a rotation"""
        first = {}
        for l in lines:
            k = slice_key(l)
            if k[1] == g and k[0] >= t:
                for p in {"pinch", "rotate"} & set(REC.search(l).group(1).split("+")):
                    first.setdefault(p, k[0])
        return first
    n = 0
    for l in ours:
        m = DEGENERATE.match(l)
        if m:
            g, t = int(m.group(1)), int(m.group(2))
            if recs(ref, g, t) != recs(ours, g, t):
                return n
        elif SLICE_KEY.match(l):
            n += 1
    return None


def partial_recognition(ref, ours):
    """Where a gesture recognises a pinch or rotation at a marked moment
    ("# partial g=G t=T", difference 18) in one trace and not in the other,
    or at another frame of the moment: the number of slices before that
    mark in ours, or None.  without_partial() leaves out that gesture;
    this is for what follows from it: an active gesture lets the gestures
    sharing its touches finish construction, so they get their
    construction_finished slices (and the client's decisions) at other
    times."""
    def recs(lines):
        out = {}
        for l in lines:
            k = slice_key(l)
            if k[1] >= 0:
                out.setdefault(k, []).append(
                    {"pinch", "rotate"} & set(REC.search(l).group(1).split("+")))
        return out
    a, b = recs(ref), recs(ours)

    def first(seq, p):
        return next((i for i, r in enumerate(seq) if p in r), None)
    # shown by grail 3.1 without a drag, tap or touch: made active by a
    # pinch or rotation whose slices the client's decision withdrew (at
    # another frame, or never, in utouch)
    other = {}
    for l in ref:
        k = slice_key(l)
        if k[1] >= 0:
            other[k[1]] = other.get(k[1], False) or bool(
                {"drag", "tap", "touch"} & set(REC.search(l).group(1).split("+")))
    n = 0
    for l in ours:
        m = PARTIAL.match(l)
        if m:
            key = (int(m.group(2)), int(m.group(1)))
            ra, rb = a.get(key, []), b.get(key, [])
            if any(first(ra, p) != first(rb, p) for p in ("pinch", "rotate")):
                return n
            if key[1] in other and not other[key[1]]:
                return n
        elif SLICE_KEY.match(l):
            n += 1
    return None


def cut_where_known(args, ref, ours):
    """Cut both traces at the first place where a known difference of
    grail 3.1 begins that changes everything after it (late_timer,
    atomic_lift_and_land): up to as many slices in each, without the
    summary lines.  Returns (ref, ours, what was cut or None)."""
    cuts = [(n, why) for n, why in ((late_timer(ref), "late timer"),
                                    (atomic_lift_and_land(args, ours), "atomic lift and land"),
                                    (subscription_order(ref), "subscription order"),
                                    (degenerate_recognition(ref, ours),
                                     "degenerate recognition"),
                                    (partial_recognition(ref, ours), "partial recognition"))
            if n is not None]
    if not cuts:
        return ref, ours, None
    n, why = min(cuts)

    def first(lines, n):
        out, seen = [], 0
        for l in lines:
            if SLICE_KEY.match(l):
                if seen == n:
                    break
                seen += 1
            if not l.startswith("# events=") and not known_mark(l):
                out.append(l)
        # the summary lines stand for themselves: the same on both sides
        return out + ["# events=* failures=*"]
    return first(ref, n), first(ours, n), why


def compare_trace(args, a, b, any_order=False):
    """Compare ref-grail's trace a with utouch-replay's b (run with
    --mark-degenerate --frames) of one argument list; print the difference.
    Where the whole traces differ, they are compared again up to where a
    known difference of grail 3.1 begins that changes everything after it
    (cut_where_known).
    Returns (equal, number of gestures with a degenerate angle estimate)."""
    b = [l for l in b if "canceled=1" not in l]
    whole = ([l for l in a if not known_mark(l)], b, None)
    cut = cut_where_known(args, a, b)
    for a, b, why in ([whole, cut] if cut[2] else [whole]):
        quiet = why is None and cut[2] is not None
        same, ndeg = compare_slices(args, a, b, any_order, quiet)
        if same:
            if why:
                CUTS[why] = CUTS.get(why, 0) + 1
            return same, ndeg
    return same, ndeg


def compare_slices(args, a, b, any_order, quiet):
    out = sys.stdout
    if quiet:
        sys.stdout = io.StringIO()
    try:
        wrong = check_degenerate_claims(b)
        if wrong:
            print("DIFFERENCE: %s: degenerate where the frames say otherwise:\n%s"
                  % (" ".join(args), "\n".join(wrong[:5])))
            return False, 0
        # the events= count includes canceled slices; compare the
        # slices themselves and the failure count separately
        fa = a[-1].split("failures=")[-1]
        fb = b[-1].split("failures=")[-1]
        a, b = a[:-1], b[:-1]
        a, b, npartial, wrong = without_partial(a, b)
        if wrong:
            print("DIFFERENCE: %s: partial where the frames say otherwise:\n%s"
                  % (" ".join(args), "\n".join(wrong[:5])))
            return False, 0
        a, b, ndeg = without_degenerate(a, b)
        if any_order:
            a, b = by_time_and_gesture(a), by_time_and_gesture(b)
        return compare(" ".join(args), a + [fa], b + [fb], True), ndeg
    finally:
        sys.stdout = out


def mode_trace(replay, ref, recs, any_order=False):
    ok = n = degenerate = 0
    for rec in recs:
        cases = trace_cases(rec, any_order)
        ours = run_batch(replay, [["--mark-degenerate", "--frames"] + args for args in cases])
        theirs = run_batch(ref, cases, REF_OPTS)
        for args, a, b in zip(cases, theirs, ours):
            n += 1
            same, ndeg = compare_trace(args, a, b, any_order)
            ok += same
            degenerate += ndeg > 0
    print("%d of %d runs had gestures with a degenerate angle estimate" % (degenerate, n))
    if CUTS:
        print("runs compared up to a known difference of grail 3.1 (cut_where_known): %s"
              % ", ".join("%d %s" % (v, k) for k, v in sorted(CUTS.items())))
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
