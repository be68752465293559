#!/usr/bin/env python3
"""Recordings cut off with fingers down (issue 26 point 8).

usage: cutoff.py REPLAY REF-GRAIL-BATCH RECORDING [RECORDING...]

Each recording is cut after its first report (one or more fingers land and
the recording stops, like grail 3.1's N-Trig 1_begin.record) and at a
quarter, half and three quarters of its events (in the middle of a report
too), keeping only the cuts that leave a touch down.  utouch ends those
touches at the last event in a frame marked cut off; grail must recognize
nothing from that end.  For each cut recording:

- the frames are grail 3.1's plus the synthetic ends at the end;
- for every subscription set of the differential tests (difftest.py) with
  one of the accept, accept-cf and never-decide policies (in turn over the
  sets and the cuts) and in the X11 framing with accept, utouch's trace up to the cut equals ref-grail's: every slice of
  the real frames, and of the timers utouch runs between the last real
  frame and the cut as many as ref-grail's first (ref-grail runs every
  timer for 10 s after its last frame);
  after the cut, utouch's only slices are cancelled Ends, and every
  gesture it showed has ended;
- ref-grail never sees the cut, so nothing later is compared (it goes on
  as if the fingers stayed down).

Explicit cases: one finger landing with a one-finger tap subscription
gives no slice at all (a tap there would be invented), and a one-finger
drag cut off in its middle ends with a cancelled End.

Exit status 0 on success, 1 on a difference, 77 without ref-grail.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import difftest  # noqa: E402

POLICIES = [["--policy", "accept"], ["--policy", "accept-cf"], ["--policy", "none"]]
STILL_DOWN = re.compile(r"ends with (\d+) touch(?:es)? down")
SLICE = re.compile(r"t=(\d+) g=(\d+) sub=\d+ (begin|update|end) ")


def events(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = [l for l in lines if not l.startswith("E:")]
    evs = [l for l in lines if l.startswith("E:")]
    return head, evs


def is_syn_report(line):
    f = line.split()
    return f[2] == "0000" and f[3] == "0000"


def cut_points(evs):
    """Numbers of events to keep: the first report (the fingers land), and
    the reports ending nearest after a quarter, half and three quarters of
    the events.  Cuts fall after a SYN_REPORT: the rest of a report in
    progress is news to utouch (ut_evstream_end_all() applies it) and never
    reaches ref-grail, so it is checked on its own (explicit_cases())."""
    reports = [i + 1 for i, l in enumerate(evs) if is_syn_report(l)]
    if not reports:
        return []
    n = len(evs)
    points = {reports[0]}
    for q in (n // 4, n // 2, 3 * n // 4):
        after = [r for r in reports if r >= q]
        if after:
            points.add(after[0])
    return sorted(p for p in points if p < n)


def run_ours(replay, args):
    """utouch-replay's lines and the number of touches it cut off."""
    p = difftest.subprocess.run([replay] + args, capture_output=True, text=True,
                                env=difftest.ORACLE_ENV)
    if p.returncode != 0:
        print("command failed (%d): %s\n%s" % (p.returncode, " ".join(args), p.stderr))
        sys.exit(1)
    m = STILL_DOWN.search(p.stderr)
    return p.stdout.splitlines(), int(m.group(1)) if m else 0


def split_at_cut(lines, ncut):
    """Our lines before the cut frame(s) and from there on: the cut ends are
    the last ncut frame operations (--frames)."""
    frame_idx = [i for i, l in enumerate(lines) if l.startswith("# frame ")]
    assert len(frame_idx) >= ncut > 0
    at = frame_idx[-ncut]
    return lines[:at], lines[at:], int(lines[at].split()[2][2:])


def slices(lines):
    return [l for l in lines if SLICE.match(l)]


def check_run(theirs, args, ours, ncut):
    """One comparison of utouch-replay's lines (--mark-degenerate --frames)
    with ref-grail's (--frames), ncut touches cut off; returns a list of
    problems."""
    before, after, tcut = split_at_cut(ours, ncut)
    problems = []
    # frames: grail 3.1's, then the cut ends
    fo = [l for l in before if l.startswith("# frame ")]
    ft = [l for l in theirs if l.startswith("# frame ")]
    if fo != ft:
        difftest.show_diff("frames " + " ".join(args), ft, fo)
        problems.append("frames differ")
    if any(" end id=" not in l for l in after if l.startswith("# frame ")):
        problems.append("the cut has operations other than ends")
    # the trace up to the cut, with difftest's allowances for the
    # documented geometry differences (degenerate angle, partial frames)
    # Slice times are frame times, so the timers are told apart by where
    # their lines come: after the last real frame, ref-grail runs every
    # timer for 10 s, utouch only those due before the cut frame, so
    # utouch's lines there must be the start of ref-grail's.
    b = [l for l in before if "canceled=1" not in l and not l.startswith("# file=")
         and not l.startswith("# events=")]
    last_ours = max(i for i, l in enumerate(b) if l.startswith("# frame "))
    last_theirs = max((i for i, l in enumerate(theirs) if l.startswith("# frame ")),
                      default=0)
    ntimer = len(slices(b[last_ours:]))
    a = slices(theirs[:last_theirs]) + slices(theirs[last_theirs:])[:ntimer]
    wrong = difftest.check_degenerate_claims(b)
    a, b, _, wrong2 = difftest.without_partial(a, b)
    a, b, _ = difftest.without_degenerate(a, b)
    if wrong or wrong2:
        problems.append("marks the frames contradict: %s" % (wrong + wrong2)[:3])
    if not difftest.compare(" ".join(args), a, b, True):
        problems.append("traces differ up to the cut at t=%d" % tcut)
    # after the cut: cancelled Ends only, and everything shown ended
    for l in slices(after):
        if " end " not in l or "canceled=1" not in l:
            problems.append("after the cut: " + l)
    shown = {SLICE.match(l).group(2) for l in slices(ours)}
    ended = {SLICE.match(l).group(2) for l in slices(ours) if SLICE.match(l).group(3) == "end"}
    if shown - ended:
        problems.append("gestures never ended: " + ",".join(sorted(shown - ended)))
    return problems


def explicit_cases(replay, ref, tmp, recdir):
    """The two cases of the issue; returns the number of failures."""
    fail = 0
    head, evs = events(os.path.join(recdir, "touchscreen", "tap-1.evemu"))
    begin = os.path.join(tmp, "begin-1.evemu")
    with open(begin, "w") as f:
        f.write("\n".join(head + evs[:cut_points(evs)[0]]) + "\n")
    args = ["-s", "mask=tap,start=1,min=1", begin]
    ours, ncut = run_ours(replay, args)
    theirs = difftest.run_batch(ref, [args])[0]
    if ncut != 1 or slices(ours) or slices(theirs):
        print("DIFFERENCE: one finger lands, the recording stops: want no slice "
              "(grail 3.1: %d), got %d:\n%s"
              % (len(slices(theirs)), len(slices(ours)), "\n".join(slices(ours))))
        fail += 1
    # cut in the middle of the first report: the finger lands in it
    mid = os.path.join(tmp, "begin-1-mid.evemu")
    with open(mid, "w") as f:
        f.write("\n".join(head + evs[:cut_points(evs)[0] // 2]) + "\n")
    ours, ncut = run_ours(replay, ["-s", "mask=tap,start=1,min=1", mid])
    if ncut != 1 or slices(ours):
        print("DIFFERENCE: a finger lands in a report cut in its middle: want no "
              "slice, got:\n%s" % "\n".join(slices(ours)))
        fail += 1
    head, evs = events(os.path.join(recdir, "touchscreen", "drag-1.evemu"))
    drag = os.path.join(tmp, "drag-1-cut.evemu")
    with open(drag, "w") as f:
        f.write("\n".join(head + evs[:len(evs) // 2]) + "\n")
    for pol in POLICIES:
        ours, ncut = run_ours(replay, pol + ["-s", "mask=drag+tap,start=1,min=1", drag])
        s = slices(ours)
        if (ncut != 1 or len(s) < 3 or not s[-1].startswith("t=") or
                " end " not in s[-1] or "canceled=1" not in s[-1] or
                " rec=drag " not in s[-1] or
                any(" end " in l for l in s[:-1]) or any("tap" in l for l in s)):
            print("DIFFERENCE: a drag cut off in its middle (%s) must end with a "
                  "cancelled End and nothing else new:\n%s" % (pol[1], "\n".join(s[-3:])))
            fail += 1
    return fail


def main():
    replay, ref, recs = sys.argv[1], sys.argv[2], sys.argv[3:]
    recdir = os.path.dirname(os.path.dirname(os.path.abspath(recs[0])))
    ok = n = 0
    with tempfile.TemporaryDirectory() as tmp:
        fail = explicit_cases(replay, ref, tmp, recdir)
        for rec in recs:
            head, evs = events(rec)
            extra = [] if any(l.startswith("A:") for l in head) else \
                ["-d", os.path.join(os.path.dirname(rec), "device.prop")]
            for ci, k in enumerate(cut_points(evs)):
                path = os.path.join(tmp, "%s-%d.evemu" % (os.path.basename(rec), k))
                with open(path, "w") as f:
                    f.write("\n".join(head + evs[:k]) + "\n")
                _, ncut = run_ours(replay, extra + [path])
                if ncut == 0:
                    continue  # nothing down at that point
                # each subscription set with one policy in the default
                # framing, in turn over the sets and the cuts (so every
                # pair meets at some cut of a recording), and in the X11
                # framing with accept
                cases = [extra + fr + pol + subs + [path]
                         for si, subs in enumerate(difftest.SUBSETS)
                         for fr, pol in [([], POLICIES[(si + ci) % len(POLICIES)]),
                                         (["--x11"], POLICIES[0])]]
                ours = difftest.run_batch(replay, [["--mark-degenerate", "--frames"] + args
                                                   for args in cases])
                theirs = difftest.run_batch(ref, [["--frames"] + args for args in cases])
                for args, lines, ref_lines in zip(cases, ours, theirs):
                    n += 1
                    problems = check_run(ref_lines, args, lines, ncut)
                    if problems:
                        print("DIFFERENCE: %s (cut after %d of %d events of %s):\n  %s"
                              % (" ".join(args), k, len(evs), rec,
                                 "\n  ".join(problems[:5])))
                    else:
                        ok += 1
    print("cutoff: %d of %d comparisons equal, %d explicit cases failed" % (ok, n, fail))
    return 0 if ok == n and n > 0 and fail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
