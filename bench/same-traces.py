#!/usr/bin/env python3
"""Check that two builds of utouch-replay print the same traces, byte for byte.

usage: same-traces.py [-j N] [--quick] OLD_REPLAY NEW_REPLAY [RECORDING...]

For work on the hot path that must not change what clients see: every
recording (default: every *.evemu, *.record and *.yml under data/recordings)
is replayed by both programs with -v --extended --mark-degenerate (every
slice value the trace format has) under a matrix of framings, subscription
sets and policies, and the outputs are compared exactly.  --quick runs a
third of the matrix.  Exit status 0 when all are equal, 1 on the first
difference (printed as a unified diff), 2 on a usage error.
"""
import difflib
import glob
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

FRAMINGS = [[], ["--x11"], ["--split"], ["--begin-first"], ["--own", "begin"],
            ["--indirect"]]

SUBSETS = [
    ["-s", "mask=drag"],
    ["-s", "mask=pinch"],
    ["-s", "mask=rotate"],
    ["-s", "mask=tap"],
    ["-s", "mask=drag,start=1,min=1"],
    ["-s", "mask=drag+pinch+rotate,touches=2"],
    ["-s", "mask=all,start=1,max=5"],
    ["-s", "mask=drag,touches=1", "-s", "mask=drag,touches=2",
     "-s", "mask=drag,touches=3", "-s", "mask=drag,touches=4",
     "-s", "mask=drag,touches=5"],
    ["-s", "mask=drag+pinch+rotate,touches=1", "-s", "mask=drag+pinch+rotate,touches=2",
     "-s", "mask=drag+pinch+rotate,touches=3", "-s", "mask=drag+pinch+rotate,touches=4"],
    ["-s", "mask=drag,touches=4", "-s", "mask=pinch,touches=4",
     "-s", "mask=rotate,touches=4", "-s", "mask=tap,touches=4"],
    ["-s", "mask=touch,touches=2,atomic=1", "-s", "mask=touch,touches=3,atomic=1"],
    ["-s", "mask=drag+tap,start=1,max=5,atomic=1"],
    ["-s", "mask=hold+tap,touches=1,multitap-max=3", "-s", "mask=edge,touches=1,edges=all"],
    ["-s", "mask=drag,touches=3,whole-hand=1", "-s", "mask=pinch,touches=4,whole-hand=1"],
    ["-s", "mask=flick,touches=1", "-s", "mask=drag,touches=2,velocity-window=50"],
]

POLICIES = [["--policy", "accept"], ["--policy", "accept-cf"],
            ["--policy", "reject"], ["--policy", "none"]]


def run(prog, args):
    p = subprocess.run([prog, "-v", "--extended", "--mark-degenerate"] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return "status %d\n%s" % (p.returncode, p.stdout)


def main(argv):
    jobs = os.cpu_count() or 2
    quick = False
    while argv and argv[0].startswith("-"):
        if argv[0] == "-j" and len(argv) > 1:
            jobs = int(argv[1])
            argv = argv[2:]
        elif argv[0] == "--quick":
            quick = True
            argv = argv[1:]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    old, new = argv[0], argv[1]
    recs = argv[2:]
    if not recs:
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                            "recordings")
        for ext in ("evemu", "record", "yml"):
            recs += sorted(glob.glob(os.path.join(root, "*", "*." + ext)))
    cases = []
    for rec in recs:
        for fi, f in enumerate(FRAMINGS):
            for si, s in enumerate(SUBSETS):
                for pi, p in enumerate(POLICIES):
                    if quick and (fi + si + pi) % 3:
                        continue
                    cases.append(f + s + p + [rec])

    def compare(args):
        a, b = run(old, args), run(new, args)
        return args, a, b

    n = 0
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for args, a, b in ex.map(compare, cases):
            n += 1
            if a != b:
                print("differs: %s" % " ".join(args))
                sys.stdout.writelines(difflib.unified_diff(
                    a.splitlines(True), b.splitlines(True), "old", "new", n=2))
                return 1
    print("%d runs, %d recordings: identical" % (n, len(recs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
