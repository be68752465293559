#!/usr/bin/env python3
"""CI guard: utouch's lead over the original grail may not shrink.

usage: check-ratio.py BENCH REFGRAIL BASELINE [--update]

Runs BENCH --instructions --ref REFGRAIL --no-scaling --iterations N
--only S for the scenarios of BASELINE (utouch-bench counts, under
callgrind, the instructions per frame event of N iterations of utouch and
of the original stack through ref-grail, everything each process runs
included; doc/performance.md).  A scenario fails when utouch needs more
than TOLERANCE more instructions per frame event than its baseline, or
when the ratio ref-grail / utouch falls more than TOLERANCE below its
baseline.  The counts are exact and do not depend on load; what they do
depend on is the C library's choice of code for the CPU (libm's atan2f,
sincosf, memcpy), which is why the tolerance is a few per cent and why
the baseline belongs to a machine type: --update rewrites it with the
counts of this machine (do that in the commit that makes utouch faster,
or that adds work on purpose, and say why).

BASELINE lines: "SCENARIO<TAB>UTOUCH<TAB>RATIO" (scenario names as
utouch-bench prints them; --only SCENARIO also selects its x11 variant,
which then needs a line of its own or is ignored).

Exit status 0 when nothing regressed, 1 when something did, 77 when
valgrind or the original libraries (ref-grail) are not available.
"""
import re
import subprocess
import sys

ITERATIONS = 5
TOLERANCE = 0.03  # 3 %
# NAME (may contain blanks)  FRAMES EVENTS UTOUCH REF RATIO
ROW = re.compile(r"^(\S.*?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)$")


def measure(bench, ref, only):
    """utouch-bench --instructions rows: name -> (utouch, ratio or None)."""
    p = subprocess.run([bench, "--instructions", "--ref", ref, "--no-scaling",
                        "--iterations", str(ITERATIONS), "--only", only],
                       capture_output=True, text=True)
    if p.returncode == 77:
        print("valgrind not available: " + p.stderr.strip())
        sys.exit(77)
    if p.returncode != 0:
        sys.exit("check-ratio: utouch-bench --instructions failed:\n" + p.stdout + p.stderr)
    rows = {}
    for line in p.stdout.splitlines():
        m = ROW.match(line)
        if m:
            ratio = m.group(6).rstrip("!")
            rows[m.group(1)] = (float(m.group(4)),
                                float(ratio[:-1]) if ratio.endswith("x") else None)
    if "unavailable" in p.stderr or "failed" in p.stderr:
        print(p.stderr.strip())
    return rows


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    bench, ref, baseline = sys.argv[1:4]
    update = "--update" in sys.argv[4:]
    want = []
    with open(baseline) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, ut, ratio = line.rstrip("\n").split("\t")
                want.append((name, float(ut), float(ratio)))
    got = {}
    for name, _, _ in want:
        if name not in got:
            got.update(measure(bench, ref, name))
    failed = False
    for name, ut, ratio in want:
        if name not in got:
            sys.exit("check-ratio: utouch-bench printed no row '%s'" % name)
        gut, gratio = got[name]
        if gratio is None:
            print("ref-grail gave no count for '%s' (original libraries missing?)" % name)
            return 77
        bad = gut > ut * (1 + TOLERANCE) or gratio < ratio * (1 - TOLERANCE)
        failed |= bad
        print("%-4s %-26s utouch %7.0f (baseline %7.0f, %+6.2f %%)  ratio %6.2fx "
              "(baseline %6.2fx, %+6.2f %%)" % ("FAIL" if bad else "ok", name, gut, ut,
                                                100 * (gut / ut - 1), gratio, ratio,
                                                100 * (gratio / ratio - 1)))
    if update:
        with open(baseline) as f:
            head = [l for l in f if l.startswith("#")]
        with open(baseline, "w") as f:
            f.writelines(head)
            for name, _, _ in want:
                f.write("%s\t%.0f\t%.2f\n" % (name, got[name][0], got[name][1]))
        print("updated " + baseline)
        return 0
    if failed:
        print("utouch needs more instructions per frame event, or its lead over the "
              "original shrank, by more than %.0f %%: make the change cheaper, or update "
              "the baseline (--update) and say why" % (100 * TOLERANCE))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
