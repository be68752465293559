#!/usr/bin/env python3
"""Tests for utouch-synth.

    check_synth.py recordings SYNTH DATA_DIR   bundled data == generator output
    check_synth.py errors     SYNTH            bad scenarios fail with FILE:LINE:
    check_synth.py protocols  SYNTH DATA_DIR   protocol A and B agree per report
    check_synth.py language   SYNTH            scenario statements do what they say
"""
import os
import re
import subprocess
import sys
import tempfile

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what}")
    return cond


def run(synth, *args):
    return subprocess.run([synth, *args], capture_output=True, text=True, timeout=30)


def manifest(data):
    path = os.path.join(data, "recordings", "manifest.txt")
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) < 2:
                raise SystemExit(f"{path}:{number}: expected OUTPUT SCENARIO [OPTIONS]")
            yield line[0], line[1], line[2:]


# ---------------------------------------------------------------------------
def test_recordings(synth, data):
    recordings = os.path.join(data, "recordings")
    expected_files = {"manifest.txt", "README.md"}
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for output, scenario, options in manifest(data):
            out = os.path.join(tmp, output)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            r = run(synth, *options, "-o", out, os.path.join(data, "scenarios", scenario))
            if not check(r.returncode == 0, f"{output}: utouch-synth failed: {r.stderr}"):
                continue
            produced = [output]
            if "--split-device" in options:
                produced.append(os.path.join(os.path.dirname(output), "device.prop"))
            for name in produced:
                expected_files.add(name)
                committed = os.path.join(recordings, name)
                if not check(os.path.exists(committed), f"{name} is not committed"):
                    continue
                with open(committed, "rb") as a, open(os.path.join(tmp, name), "rb") as b:
                    data_a, data_b = a.read(), b.read()
                check(data_a == data_b,
                      f"{name} differs from the output of utouch-synth for {scenario} "
                      f"(run data/regenerate.sh)")
                check(len(data_a) < 200 * 1024, f"{name} is {len(data_a)} bytes (limit 200 KiB)")
                total += len(data_a)
    check(total < 2 * 1024 * 1024, f"bundled recordings total {total} bytes (limit 2 MiB)")
    for root, _, files in os.walk(recordings):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), recordings)
            check(rel in expected_files, f"{rel} is not listed in manifest.txt")
    check("touchscreen/drag-2.evemu" in expected_files, "touchscreen/drag-2.evemu is missing")


# ---------------------------------------------------------------------------
ERROR_CASES = [
    # (scenario text, line of the error, part of the message)
    ("device touchscreen\nwiggle pos=1,1\n", 2, "unknown statement 'wiggle'"),
    ("touch pos=10,10 colour=red\n", 1, "unknown key 'colour'"),
    ("touch pos=10,x\n", 1, "expected two numbers"),
    ("drag from=10,10 to=20,10\n", 1, "'drag' needs dur="),
    ("tap pos=10,10 dur=abc\n", 1, "dur=abc is not a number"),
    ("tap pos=10,10 dur=-5\n", 1, "out of range"),
    ("tap pos=10,10 pos=20,20\n", 1, "given twice"),
    ("tap pos=10,10 dur=\n", 1, "has no value"),
    ("tap pos=10,10 loose\n", 1, "expected key=value, found 'loose'"),
    ("tap pos=10,10\nnext 5\n", 2, "'next' takes key=value arguments only"),
    ("rate 100\nthen move by=1,1 dur=10\n", 2, "without a touch statement"),
    ("tap pos=10,10\nnext\nthen hold dur=10\n", 3, "without a touch statement"),
    ("tap pos=10,10\nthen wobble dur=10\n", 2, "unknown motion 'then wobble'"),
    ("drag from=10,10 to=20,10 dur=100 touches=3\nthen pinch to=5 dur=100\n", 2,
     "exactly two touches"),
    ("tap pos=10,10\nthen lift\nthen hold dur=10\n", 3, "has been lifted"),
    ("tap pos=10,10\nend\n", 2, "'end' without 'repeat'"),
    ("# a comment\nrepeat 2\ntap pos=10,10\n", 2, "without a matching 'end'"),
    ("repeat 0\ntap pos=10,10\nend\n", 1, "'repeat' needs a count"),
    ("device trackball\ntap pos=1,1\n", 1, "unknown device preset 'trackball'"),
    ("device touchscreen\ndevice touchpad\ntap pos=1,1\n", 2, "second 'device' line"),
    ("device touchscreen fuzz=10\ntap pos=1,1\n", 1, "fuzz= is only supported for protocol A"),
    ("rate 5000\ntap pos=1,1\n", 1, "out of range"),
    ("tap pos=1,1\nrate 50\n", 2, "must come before the first touch"),
    ("jitter -1\ntap pos=1,1\n", 1, "'jitter' needs an amplitude"),
    ("# nothing\n\n", 2, "has no touches"),
    ("device touchscreen\n\n\ntouch pos=310,20\n", 4, "outside the 300 x 200 mm surface"),
    ("device touchscreen\ndrag from=10,10 to=10,250 dur=100\n", 2, "outside"),
    ("device touchpad\ntap pos=50,30 touches=6 spacing=10\n", 2,
     "6 touches down at once"),
    # every slot is released in the report where the next touch lands
    ("device touchpad\ntap pos=50,30 touches=5 spacing=10 dur=50\ntouch pos=20,20 at=60\n", 3,
     "no free slot at 60 ms"),
    ("tap pos=50,30 touches=2 dur=50 stagger=60\n", 1, "land after the end"),
    ("tap pos=50,30 touches=2.5\n", 1, "whole number"),
    ("then\n", 1, "'then' needs a motion"),
    ("tap pos=1,1\nthen move to=2,2 by=1,1 dur=5\n", 2, "either to=X,Y or by=DX,DY"),
    ("tap pos=nan,1\n", 1, "expected two numbers"),
]


def test_errors(synth):
    with tempfile.TemporaryDirectory() as tmp:
        for i, (text, line, message) in enumerate(ERROR_CASES):
            path = os.path.join(tmp, f"case{i}.scn")
            with open(path, "w") as f:
                f.write(text)
            r = run(synth, path)
            what = f"case {i} ({text.strip()!r})"
            check(r.returncode == 1, f"{what}: exit status {r.returncode}, expected 1")
            check(r.stdout == "", f"{what}: wrote to stdout")
            prefix = f"{path}:{line}: "
            check(r.stderr.startswith(prefix) and message in r.stderr,
                  f"{what}: expected '{prefix}...{message}...', got {r.stderr!r}")
            check(r.stderr.count("\n") == 1, f"{what}: expected one line, got {r.stderr!r}")

        # a failed run leaves no output file behind
        out = os.path.join(tmp, "out.evemu")
        r = run(synth, "-o", out, os.path.join(tmp, "case0.scn"))
        check(r.returncode == 1 and not os.listdir(tmp).count("out.evemu"),
              "failed run created its output file")

        good = os.path.join(tmp, "good.scn")
        with open(good, "w") as f:
            f.write("tap pos=10,10\n")
        # command-line errors
        r = run(synth, os.path.join(tmp, "missing.scn"))
        check(r.returncode == 1 and "missing.scn: cannot open" in r.stderr,
              f"missing file: {r.stderr!r}")
        r = run(synth, "-f", "csv", good)
        check(r.returncode == 2 and "unknown format 'csv'" in r.stderr, f"bad format: {r.stderr!r}")
        r = run(synth, "-d", "trackball", good)
        check(r.returncode == 2 and "unknown device preset" in r.stderr,
              f"bad preset: {r.stderr!r}")
        r = run(synth, "--split-device", good)
        check(r.returncode == 2, "--split-device without -o/evemu1 accepted")
        r = run(synth)
        check(r.returncode == 2 and "Usage:" in r.stderr, "no arguments accepted")
        r = run(synth, "--help")
        check(r.returncode == 0 and "Usage:" in r.stdout, "--help")
        r = run(synth, "--list-devices")
        for preset in ("touchscreen", "touchpad", "touchpad-apple", "touchscreen-a",
                       "touchpad-a-tracking"):
            check(re.search(rf"^{re.escape(preset)} ", r.stdout, re.M), f"--list-devices: {preset}")
        # NUL bytes are refused with a line number
        with open(good, "wb") as f:
            f.write(b"tap pos=1,1\ntap\0 pos=1,1\n")
        r = run(synth, good)
        check(r.returncode == 1 and f"{good}:2: NUL byte" in r.stderr, f"NUL: {r.stderr!r}")


# ---------------------------------------------------------------------------
def parse_evemu(text):
    """Reports as lists of (time, type, code, value)."""
    reports, current = [], []
    for line in text.splitlines():
        if not line.startswith("E: "):
            continue
        fields = line[3:].split("\t")[0].split()
        ev = (fields[0], int(fields[1], 16), int(fields[2], 16), int(fields[3]))
        current.append(ev)
        if ev[1] == 0 and ev[2] == 0:
            reports.append(current)
            current = []
    assert not current, "events after the last SYN_REPORT"
    return reports


def contacts_b(reports):
    """Number of touches down after each protocol B report."""
    slots, slot, counts = {}, 0, []
    for rep in reports:
        for _, typ, code, value in rep:
            if typ == 3 and code == 0x2F:
                slot = value
            elif typ == 3 and code == 0x39:
                slots[slot] = value
        counts.append(sum(1 for v in slots.values() if v >= 0))
    return counts


def contacts_a(reports):
    counts = []
    for rep in reports:
        n = sum(1 for _, t, c, _ in rep if t == 0 and c == 2)
        has_data = any(t == 3 and c == 0x35 for _, t, c, _ in rep)
        counts.append(n if has_data else 0)
    return counts


def test_protocols(synth, data):
    scenarios = sorted(s for _, s, _ in manifest(data) if s.startswith("touchscreen/"))
    for scenario in dict.fromkeys(scenarios):
        path = os.path.join(data, "scenarios", scenario)
        b = run(synth, "-d", "touchscreen", path)
        a = run(synth, "-d", "touchscreen-a", path)
        if not check(a.returncode == 0 and b.returncode == 0, f"{scenario}: {a.stderr}{b.stderr}"):
            continue
        rb, ra = parse_evemu(b.stdout), parse_evemu(a.stdout)
        check(len(rb) > 0, f"{scenario}: no reports")
        check(len(ra) == len(rb), f"{scenario}: protocol A has {len(ra)} reports, B {len(rb)}")
        check([r[-1][0] for r in ra] == [r[-1][0] for r in rb],
              f"{scenario}: report times differ between protocol A and B")
        check(contacts_a(ra) == contacts_b(rb),
              f"{scenario}: touch counts per report differ between protocol A and B")
        check(contacts_b(rb)[-1] == 0, f"{scenario}: touches still down at the end")
        # the protocol A touchpad with tracking ids agrees too (touchpad scenarios)
    for scenario in ("touchpad/drag-3.scn", "touchpad/tap-3.scn"):
        path = os.path.join(data, "scenarios", scenario)
        b = parse_evemu(run(synth, "-d", "touchpad-apple", path).stdout)
        a = parse_evemu(run(synth, "-d", "touchpad-a-tracking", path).stdout)
        check(len(a) == len(b) and contacts_a(a) == contacts_b(b),
              f"{scenario}: touchpad-apple and touchpad-a-tracking disagree")


# ---------------------------------------------------------------------------
def synth_text(synth, text, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".scn", delete=False) as f:
        f.write(text)
    try:
        r = run(synth, *args, f.name)
    finally:
        os.unlink(f.name)
    assert r.returncode == 0, r.stderr
    return r.stdout


def touch_starts(reports):
    """(time, tracking id) of every new protocol B touch."""
    return [(rep[-1][0], v) for rep in reports for _, t, c, v in rep
            if t == 3 and c == 0x39 and v >= 0]


def positions(reports, code):
    return [v for rep in reports for _, t, c, v in rep if t == 3 and c == code]


def test_language(synth):
    # a 1 mm drag at 14 units/mm: x from 1400 to 1414 in 10 steps of 1.4
    rep = parse_evemu(synth_text(synth, "rate 100\ndrag from=100,50 to=101,50 dur=100\n"))
    check(len(rep) == 12, f"drag of 100 ms: {len(rep)} reports, expected 12")
    xs = positions(rep, 0x35)
    check(xs[0] == 1400 and xs[-1] == 1414, f"drag x positions {xs}")
    check([r[-1][0] for r in rep][:3] == ["0.000000", "0.010000", "0.020000"], "report times")

    # repeat: three taps, each group starting after the previous release + gap
    rep = parse_evemu(synth_text(synth, "repeat 3 gap=200\ntap pos=10,10 dur=30\nend\n"))
    starts = [t for t, _ in touch_starts(rep)]
    check(starts == ["0.000000", "0.240000", "0.480000"], f"repeat start times {starts}")
    check([v for _, v in touch_starts(rep)] == [0, 1, 2], "tracking ids increase")

    # next gap and at=
    rep = parse_evemu(synth_text(synth, "tap pos=10,10 dur=0\nnext gap=100\ntouch at=50 pos=20,10\n"))
    check([t for t, _ in touch_starts(rep)] == ["0.000000", "0.160000"], "next gap=100 at=50")

    # stagger: touches land 20 ms apart
    rep = parse_evemu(synth_text(synth, "hold pos=50,50 dur=100 touches=3 stagger=20\n"))
    check([t for t, _ in touch_starts(rep)] == ["0.000000", "0.020000", "0.040000"], "stagger")

    # rate 50: reports every 20 ms
    rep = parse_evemu(synth_text(synth, "rate 50\nhold pos=50,50 dur=100\n"))
    check([r[-1][0] for r in rep][:2] == ["0.000000", "0.020000"] and len(rep) == 7, "rate 50")

    # rotate by 180 degrees swaps the two touches
    rep = parse_evemu(synth_text(synth, "rotate centre=100,100 radius=10 sweep=180 dur=100\n"))
    xs = positions(rep, 0x35)
    check(xs[:2] == [1540, 1260] and xs[-2:] == [1260, 1540], f"rotate x positions {xs}")

    # pinch: distance 40 mm -> 20 mm
    rep = parse_evemu(synth_text(synth, "pinch centre=100,100 from=40 to=20 dur=100\n"))
    xs = positions(rep, 0x35)
    check(xs[:2] == [1120, 1680] and xs[-2:] == [1260, 1540], f"pinch x positions {xs}")

    # then lift count=1 releases exactly one touch, the other continues
    rep = parse_evemu(synth_text(
        synth, "drag from=50,50 to=60,50 dur=100 touches=2\nthen lift count=1\n"
        "then move by=10,0 dur=100\n"))
    check(contacts_b(rep)[9:13] == [2, 2, 1, 1] and contacts_b(rep)[-1] == 0,
          f"lift count=1: {contacts_b(rep)}")

    # jitter is deterministic per seed and the same in every format/device
    text = "jitter 0.5 seed=7\ndrag from=50,50 to=60,50 dur=200 touches=2\n"
    def events(out):
        return [line for line in out.splitlines() if line.startswith("E:")]
    one, two = events(synth_text(synth, text)), events(synth_text(synth, text))
    other = events(synth_text(synth, text.replace("seed=7", "seed=8")))
    check(len(one) > 20, "jitter: no events")
    check(one == two, "jitter with one seed is not deterministic")
    check(one != other, "jitter ignores the seed")

    # evemu 1.0: absolute times from 1000 s, no resolution, no comments
    out = synth_text(synth, "tap pos=10,10\n", "-f", "evemu1")
    check(out.startswith("N: ") and "#" not in out, "evemu1 has comments")
    check(re.search(r"^A: 35 0 4200 0 0$", out, re.M), "evemu1 A: line")
    check(re.search(r"^E: 1000\.000000 0003 0039 0$", out, re.M), "evemu1 E: line")
    # evemu 2: header and resolution
    out = synth_text(synth, "tap pos=10,10\n")
    check(out.startswith("# EVEMU 1.3\n") and re.search(r"^A: 35 0 4200 0 0 14$", out, re.M),
          "evemu2 header/A: line")
    # fuzz override on protocol A
    out = synth_text(synth, "device touchscreen-a fuzz=75\ntap pos=10,10\n")
    check(re.search(r"^A: 35 0 9600 75 0 0$", out, re.M), "fuzz=75")
    # --device overrides the scenario's preset
    out = synth_text(synth, "device touchpad\ntap pos=10,10\n", "-d", "touchscreen-a")
    check("SYN_MT_REPORT" in out and "0039" not in out, "--device override")
    # libinput record: one evdev list per report
    out = synth_text(synth, "tap pos=10,10 dur=20\n", "-f", "libinput")
    check(out.count("  - evdev:\n") == 4 and "version: 1\n" in out, "libinput frames")
    # touchpad finger-count keys
    out = synth_text(synth, "device touchpad\ntap pos=50,30 touches=3 spacing=10\n")
    check("BTN_TOOL_TRIPLETAP   1" in out and "BTN_TOOL_TRIPLETAP   0" in out, "tripletap keys")


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    mode, synth = sys.argv[1], sys.argv[2]
    if mode == "recordings":
        test_recordings(synth, sys.argv[3])
    elif mode == "errors":
        test_errors(synth)
    elif mode == "protocols":
        test_protocols(synth, sys.argv[3])
    elif mode == "language":
        test_language(synth)
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(f"{mode}: {failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
