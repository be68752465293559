#!/usr/bin/env python3
"""CI guard: utouch's instructions per frame event may not grow.

usage: check-instructions.py BENCH BASELINE [--update]

Runs utouch-bench under callgrind (valgrind --tool=callgrind
--toggle-collect=replay_run_frames BENCH --only S --no-scaling
--iterations N --repeats 1) for the scenarios of BASELINE and counts the
instructions executed in utouch's own code (the bench binary, which links
frame and grail statically: libc and libm are left out, their code
depends on the CPU) per frame event: total / ((N + 1) runs of the frame
loop, the warm-up included, x frames of the scenario and of its x11
variant, which --only also selects).  The counts are exact and do not
depend on load, so the bound is tight: a scenario fails when it costs
more than TOLERANCE above its baseline.

BASELINE lines: "SCENARIO<TAB>INSTRUCTIONS" (per frame event), for the
build this test runs in (gcc, -O2: meson's debugoptimized, no
sanitizers; other builds skip with 77).  --update rewrites BASELINE
with the counts of this build (do that in the commit that makes the code
faster, or that adds work on purpose, and say why).

Exit status 0 when no scenario grew, 1 when one did, 77 when valgrind or
callgrind_annotate is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ITERATIONS = 20
TOLERANCE = 0.01  # 1 %
ROW = re.compile(r"^(\S.*?)\s{2,}(\d+)\s+(\d+)\s+(\d+)\s")


def frames_of(stdout, only):
    """Sum the frames column of the bench rows whose name contains ONLY."""
    total = 0
    for line in stdout.splitlines():
        m = ROW.match(line)
        if m and only in m.group(1):
            total += int(m.group(2))
    return total


def measure(bench, only, tmp):
    out = os.path.join(tmp, "cg.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        "--toggle-collect=replay_run_frames", bench, "--only", only,
                        "--no-scaling", "--iterations", str(ITERATIONS), "--repeats", "1"],
                       capture_output=True, text=True, check=True)
    frames = frames_of(p.stdout, only)
    ann = subprocess.run(["callgrind_annotate", "--threshold=100", out],
                         capture_output=True, text=True, check=True).stdout
    own = 0
    name = os.path.basename(bench)
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?\S.*\[(.*)\]\s*$", line)
        if m and os.path.basename(m.group(2)) == name:
            own += int(m.group(1).replace(",", ""))
    if frames == 0 or own == 0:
        sys.exit("check-instructions: nothing measured for '%s'\n%s" % (only, p.stdout))
    return own / ((ITERATIONS + 1) * frames)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bench, baseline = sys.argv[1], sys.argv[2]
    update = "--update" in sys.argv[3:]
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        print("valgrind/callgrind_annotate not found")
        return 77
    want = []
    with open(baseline) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, value = line.rstrip("\n").split("\t")
                want.append((name, float(value)))
    failed = False
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, base in want:
            got[name] = measure(bench, name, tmp)
            change = got[name] / base - 1
            bad = change > TOLERANCE
            failed |= bad
            print("%-4s %-24s %8.0f instructions per frame event (baseline %.0f, %+.2f %%)"
                  % ("FAIL" if bad else "ok", name, got[name], base, 100 * change))
    if update:
        with open(baseline) as f:
            head = [l for l in f if l.startswith("#")]
        with open(baseline, "w") as f:
            f.writelines(head)
            for name, _ in want:
                f.write("%s\t%.0f\n" % (name, got[name]))
        print("updated " + baseline)
        return 0
    if failed:
        print("instructions per frame event grew by more than %.0f %%: make the change "
              "cheaper, or update the baseline (--update) and say why" % (100 * TOLERANCE))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
