#!/usr/bin/env python3
"""Tests of utouch-plot (suite 'plot').

usage: check-plot.py CHECK UTOUCH-PLOT UTOUCH-REPLAY RECORDINGS-DIR

The structure of the SVG (touch paths and their colours, the labels of
touches, gestures, events and subscription rows) is checked against values
computed here from utouch-replay's trace of the same replay, never against
pixels.  CHECK is one of:
  bug-game      four-touch pinch bug game, accept-cf: four candidate gestures,
                two accepted, two canceled
  x11-drag      three-finger drag in X11 framing with drag and rotate rows
  policies      accept / accept-cf / reject / none on one recording
  recordings    every bundled recording with a drag+pinch+rotate+tap subscription
  png           PNG output: signature, size, same canvas as the SVG
  errors        usage and file errors: exit status, message, no output left
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

PLOT = REPLAY = RECS = None
TMP = tempfile.mkdtemp(prefix="check-plot-")
failures = []
SVG = "{http://www.w3.org/2000/svg}"

# The palettes doc/plot.md documents: touch id n gets TOUCH[(n - 1) % 10],
# the k-th gesture in order of its first slice GESTURE[k % 6].
TOUCH = ["1f77b4", "ff7f0e", "2ca02c", "d62728", "9467bd",
         "8c564b", "e377c2", "7f7f7f", "bcbd22", "17becf"]
GESTURE = ["222222", "6a3d9a", "b15928", "00606b", "8b0a50", "3f5f00"]


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)
    return cond


def rec(name):
    return os.path.join(RECS, name)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


# ---- what the trace says ----

def trace(recording, args):
    """Touch ids, gestures in order of their first slice and the expected
    events, from utouch-replay --frames with the same options."""
    rc, out, err = run([REPLAY, "--frames"] + args + [recording])
    if not check(rc == 0, "utouch-replay %s: %s" % (args, err)):
        return None
    policy = "accept"
    for i, a in enumerate(args):
        if a == "--policy":
            policy = args[i + 1]
        elif a == "--reject":
            policy = "reject"
    atomic = {}
    subs = [a for i, a in enumerate(args) if i > 0 and args[i - 1] == "-s"]
    for i, s in enumerate(subs):
        atomic[i] = "atomic=1" in s.split(",")
    direct = re.search(r"^# file=.* direct=(\d) ", out, re.M)
    touches = []
    gestures = {}
    order = []
    for line in out.splitlines():
        m = re.match(r"# frame t=(\d+) begin id=(\d+) ", line)
        if m:
            touches.append(int(m.group(2)))
            continue
        m = re.match(r"# events=\d+ accept/reject failures=(\d+)", line)
        if m:
            check(m.group(1) == "0", "the replay has no accept/reject failures")
            continue
        if not line.startswith("t="):
            continue
        f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv and not kv.startswith("T="))
        state = line.split()[3]
        t, g, sub = int(f["t"]), int(f["g"]), int(f["sub"])
        canceled = "canceled=1" in line
        if g not in gestures:
            order.append(g)
            gestures[g] = {"sub": sub, "events": {"begin": t}, "touches": f["touches"],
                           "decided": False}
        ge = gestures[g]
        ge["rec"] = f["rec"]
        ev = ge["events"]
        if f["rec"] != "none":
            ev.setdefault("recognized", t)
        if state == "end":
            ev.setdefault("canceled" if canceled else "end", t)
        # the client's policy, as utouch-replay applies it
        if not atomic.get(sub) and not ge["decided"] and policy != "none" and not canceled:
            if policy == "accept-cf" and f["cf"] != "1":
                continue
            ge["decided"] = True
            ev["rejected" if policy == "reject" else "accepted"] = t
    return {"touches": touches, "gestures": gestures, "order": order, "subs": subs,
            "direct": direct and direct.group(1) == "1"}


# ---- what the picture says ----

def plot(recording, args, out):
    rc, _, err = run([PLOT] + args + [recording, "-o", out])
    check(rc == 0, "utouch-plot %s %s exits 0 (%s)" % (args, os.path.basename(recording), err))
    return rc == 0


def style(el):
    return dict(kv.split(":", 1) for kv in el.get("style", "").split(";") if ":" in kv)


def rgb_hex(v):
    m = re.match(r"rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", v)
    return "".join("%02x" % int(round(float(x) * 255 / 100)) for x in m.groups())


def read_svg(path):
    root = ET.parse(path).getroot()
    paths = [style(p) for p in root.iter(SVG + "path")]
    texts = [t for t in root.iter(SVG + "text")]
    return root, paths, texts


def by_class(texts, cls):
    return [t for t in texts if t.get("class") == cls]


def check_structure(recording, args, name, width=960):
    """Compare the SVG of one replay with its trace."""
    tr = trace(recording, args)
    out = os.path.join(TMP, name + ".svg")
    if tr is None or not plot(recording, args + ["--width", str(width)], out):
        return None
    try:
        root, paths, texts = read_svg(out)
    except ET.ParseError as e:
        check(False, "%s: the SVG is well-formed XML (%s)" % (name, e))
        return None
    check(root.get("width") == str(width), "%s: width %s px" % (name, root.get("width")))
    # touches: one round-capped path of width 2 per touch, in its colour
    tpaths = [p for p in paths if p.get("stroke-width") == "2" and p.get("stroke-linecap") == "round"]
    want = sorted(TOUCH[(i - 1) % 10] for i in tr["touches"])
    check(len(tpaths) == len(tr["touches"]),
          "%s: %d touch paths for %d touches" % (name, len(tpaths), len(tr["touches"])))
    check(sorted(rgb_hex(p["stroke"]) for p in tpaths) == want, "%s: touch path colours" % name)
    tl = by_class(texts, "touch")
    check(sorted(int(t.text) for t in tl) == sorted(tr["touches"]),
          "%s: a label per touch: %s" % (name, [t.text for t in tl]))
    check(all(t.get("fill") == "#" + TOUCH[(int(t.text) - 1) % 10] for t in tl),
          "%s: touch labels in their touch's colour" % name)
    # gestures: one dashed centroid path each, labels in the timeline
    gpaths = [p for p in paths if "stroke-dasharray" in p]
    check(len(gpaths) == len(tr["order"]),
          "%s: %d centroid paths for %d gestures" % (name, len(gpaths), len(tr["order"])))
    check(sorted(rgb_hex(p["stroke"]) for p in gpaths) ==
          sorted(GESTURE[k % 6] for k in range(len(tr["order"]))), "%s: gesture colours" % name)
    gl = by_class(texts, "gesture")
    # rows in subscription order, each in order of appearance
    want_rows = [g for s in range(max(len(tr["subs"]), 1)) for g in tr["order"]
                 if tr["gestures"][g]["sub"] == s]
    check([int(t.get("data-gesture")) for t in gl] == want_rows,
          "%s: gesture labels by row and order of appearance: %s, want %s"
          % (name, [t.get("data-gesture") for t in gl], want_rows))
    for t in gl:
        k = tr["order"].index(int(t.get("data-gesture"))) if int(t.get("data-gesture")) in tr["order"] else -1
        g = tr["gestures"].get(int(t.get("data-gesture")))
        if g is None:
            continue
        label = "g%s %s [%s]" % (t.get("data-gesture"),
                                 g["rec"] if g["rec"] != "none" else "unrecognized", g["touches"])
        check(t.text == label, "%s: gesture label %r, want %r" % (name, t.text, label))
        check(t.get("data-sub") == str(g["sub"]), "%s: g%s in row %s" % (name, t.get("data-gesture"), g["sub"]))
        check(t.get("fill") == "#" + GESTURE[k % 6], "%s: g%s label colour" % (name, t.get("data-gesture")))
    tags = by_class(texts, "gesture-tag")
    check(sorted(int(t.get("data-gesture")) for t in tags) == sorted(tr["order"]),
          "%s: a tag per gesture in the plot" % name)
    # events: one label per event of each gesture, at its time
    letters = {"begin": "B", "recognized": "R", "accepted": "A", "rejected": "X",
               "end": "E", "canceled": "C"}
    got = sorted((int(t.get("data-gesture")), t.get("data-event"), int(t.get("data-t")), t.text)
                 for t in by_class(texts, "event"))
    want = sorted((g, e, tm, letters[e]) for g, ge in tr["gestures"].items()
                  for e, tm in ge["events"].items())
    check(got == want, "%s: event labels\n  got  %s\n  want %s" % (name, got, want))
    # one timeline row per subscription
    rows = by_class(texts, "sub")
    subs = tr["subs"] or ["mask=drag (default)"]
    check([t.text for t in rows] == ["subscription %d: %s" % (i, s) for i, s in enumerate(subs)],
          "%s: subscription rows %s" % (name, [t.text for t in rows]))
    empty = sum(1 for i in range(len(subs)) if not any(g["sub"] == i for g in tr["gestures"].values()))
    check(len([t for t in by_class(texts, "note") if t.text == "no gestures"]) == empty,
          "%s: %d rows without gestures say so" % (name, empty))
    # the plane grail computes in: window coordinates on touchscreens,
    # device coordinates on touchpads
    axis = [t.text for t in by_class(texts, "axis-title") if "coordinates" in t.text]
    check(axis == ["window coordinates (px)" if tr["direct"] else "device coordinates (units)"],
          "%s: coordinates %s for direct=%s" % (name, axis, tr["direct"]))
    title = by_class(texts, "title")
    nt, ng = len(tr["touches"]), len(tr["order"])
    check(len(title) == 1 and title[0].text.endswith(
        ", %d touch%s, %d gesture%s" % (nt, "" if nt == 1 else "es", ng, "" if ng == 1 else "s")),
          "%s: title %s" % (name, [t.text for t in title]))
    return tr, texts


def t_bug_game():
    r = check_structure(rec("touchscreen/bug-game-4.evemu"),
                        ["--policy", "accept-cf", "-s", "mask=pinch,touches=2"], "bug-game")
    if not r:
        return
    tr, texts = r
    # the bug game's candidates are AB, CD, AD, BC; AB and CD win
    pairs = {tuple(g["touches"].split(",")): g["events"] for g in tr["gestures"].values()}
    check(sorted(pairs) == [("1", "2"), ("1", "4"), ("2", "3"), ("3", "4")],
          "bug game: pairs %s" % sorted(pairs))
    for p in [("1", "2"), ("3", "4")]:
        check("accepted" in pairs.get(p, {}) and "end" in pairs.get(p, {}), "bug game: %s accepted and ended" % (p,))
    for p in [("1", "4"), ("2", "3")]:
        check("canceled" in pairs.get(p, {}) and "accepted" not in pairs.get(p, {}),
              "bug game: %s canceled" % (p,))
    check([t.text for t in by_class(texts, "event")].count("C") == 2, "bug game: two C labels")


def t_x11_drag():
    r = check_structure(rec("touchscreen/drag-3.evemu"),
                        ["--x11", "-s", "mask=drag,touches=3", "-s", "mask=rotate,touches=3"],
                        "x11-drag")
    if not r:
        return
    tr, texts = r
    sub = by_class(texts, "subtitle")
    check(len(sub) == 1 and "split reverse" in sub[0].text and "(--x11)" in sub[0].text,
          "x11 drag: the subtitle names the framing: %s" % [t.text for t in sub])
    check(len(tr["touches"]) == 3, "x11 drag: three touches")


def t_policies():
    for i, pol in enumerate(["accept", "accept-cf", "reject", "none"]):
        r = check_structure(rec("touchscreen/drag-2-to-1.evemu"),
                            ["--policy", pol, "-s", "mask=drag,touches=2", "-s", "mask=drag,touches=1"],
                            "policy-" + pol)
        if not r:
            continue
        tr, texts = r
        ev = [t.text for t in by_class(texts, "event")]
        n = len(tr["order"])
        if pol in ("accept", "accept-cf"):
            check(0 < ev.count("A") <= n and ev.count("X") == 0, "policy %s: A labels %s" % (pol, ev))
        elif pol == "reject":
            check(ev.count("X") == n and ev.count("A") == 0, "policy reject: an X per gesture %s" % ev)
        else:
            check(ev.count("A") == 0 and ev.count("X") == 0, "policy none: no decisions %s" % ev)
        check(("policy %s;" % pol) in by_class(texts, "subtitle")[0].text, "policy %s in the subtitle" % pol)
    # an atomic subscription is never decided by the client
    r = check_structure(rec("touchscreen/drag-2.evemu"), ["-s", "mask=drag,touches=2,atomic=1"], "atomic")
    if r:
        check(not any(t.text in ("A", "X") for t in by_class(r[1], "event")), "atomic: no decisions")


def t_recordings():
    n = 0
    for root, _, files in sorted(os.walk(RECS)):
        for f in sorted(files):
            if not (f.endswith(".evemu") or f.endswith(".yml") or f.endswith(".record")):
                continue
            path = os.path.join(root, f)
            name = "all-" + os.path.relpath(path, RECS).replace("/", "-")
            args = ["-s", "mask=drag+pinch+rotate+tap,touches=2", "--policy", "accept-cf"]
            if check_structure(path, args, name):
                n += 1
    check(n >= 25, "plotted %d recordings" % n)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(33)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def t_png():
    recording = rec("touchscreen/pinch-2.evemu")
    for width in (960, 1400):
        args = ["-s", "mask=pinch,touches=2", "--width", str(width)]
        png = os.path.join(TMP, "p%d.PNG" % width)   # the extension is case-blind
        svg = os.path.join(TMP, "p%d.svg" % width)
        if not (plot(recording, args, png) and plot(recording, args, svg)):
            continue
        size = png_size(png)
        root = ET.parse(svg).getroot()
        check(size is not None, "png: PNG signature and IHDR")
        check(size == (width, int(root.get("height"))),
              "png: %s px, the SVG's canvas is %s x %s" % (size, root.get("width"), root.get("height")))
        with open(png, "rb") as f:
            data = f.read()
        check(data.endswith(b"IEND\xaeB`\x82"), "png: ends with IEND")
        check(len(data) > 5000, "png: %d bytes has a picture in it" % len(data))


def t_errors():
    good = rec("touchscreen/drag-2.evemu")
    out = os.path.join(TMP, "out.svg")

    def expect(desc, args, status, pattern, created=False):
        if os.path.exists(out):
            os.unlink(out)
        rc, stdout, err = run([PLOT] + args)
        check(rc == status, "%s: status %d, want %d (%s)" % (desc, rc, status, err.strip()))
        check(re.search(pattern, err or stdout) is not None,
              "%s: message %r matches %r" % (desc, (err or stdout).strip(), pattern))
        if not created:
            check(not os.path.exists(out), "%s: no output file" % desc)

    rc, stdout, _ = run([PLOT, "--help"])
    check(rc == 0 and stdout.startswith("usage: utouch-plot") and "--x11" in stdout and "--policy" in stdout,
          "help lists the replay options")
    expect("no recording", ["-o", out], 2, r"no recording given")
    expect("no output", [good], 2, r"no output file given")
    expect("unknown option", ["--bogus", good, "-o", out], 2, r"unknown option")
    expect("unknown extension", [good, "-o", os.path.join(TMP, "x.jpg")], 2,
           r"x\.jpg: unknown picture format; the name must end in \.svg or \.png")
    expect("no extension", [good, "-o", os.path.join(TMP, "svg")], 2, r"unknown picture format")
    expect("bad policy", ["--policy", "maybe", good, "-o", out], 2, r"unknown policy 'maybe'")
    expect("bad subscription", ["-s", "mask=wiggle", good, "-o", out], 2,
           r"-s mask=wiggle: bad value 'wiggle' for subscription key 'mask'")
    expect("bad width", ["--width", "20", good, "-o", out], 2, r"--width takes a number of pixels")
    expect("bad screen", ["--screen", "0x5", good, "-o", out], 2, r"--screen takes WxH")
    expect("subscription grail refuses", ["-s", "touches=9", good, "-o", out], 1, r"subscription 0 is invalid")
    expect("missing recording", [os.path.join(TMP, "nope.evemu"), "-o", out], 1,
           re.escape(os.path.join(TMP, "nope.evemu")))
    bad = os.path.join(TMP, "bad.evemu")
    with open(bad, "w") as f:
        f.write("# EVEMU 1.3\nN: x\nA: 35 0 100 0 0 0\nA: 36 0 100 0 0 0\n"
                "E: 0.000000 0003 0035 10\nE: zero 0003 0036 10\n")
    expect("malformed recording names FILE:LINE", [bad, "-o", out], 1, re.escape(bad) + r":6: ")
    kbd = os.path.join(TMP, "kbd.evemu")
    with open(kbd, "w") as f:
        f.write("# EVEMU 1.3\nN: keyboard\nB: 01 00 00 00 00 00 00 00 01\n"
                "E: 0.000000 0001 0001 1\nE: 0.000000 0000 0000 0\n")
    expect("device without touch axes", [kbd, "-o", out], 1, r"no ABS_MT_POSITION_X/Y")
    expect("unwritable output", [good, "-o", os.path.join(TMP, "no-dir", "x.svg")], 1,
           re.escape(os.path.join(TMP, "no-dir", "x.svg")) + r": No such file or directory")
    os.mkdir(os.path.join(TMP, "dir.png"))
    expect("output is a directory", [good, "-o", os.path.join(TMP, "dir.png")], 1,
           r"dir\.png: Is a directory", created=True)
    if os.path.exists("/dev/full"):
        for ext in ("svg", "png"):
            link = os.path.join(TMP, "full." + ext)
            os.symlink("/dev/full", link)
            expect("full disk (%s)" % ext, [good, "-o", link], 1, r"No space left on device", created=True)
    # more gestures than a PNG has rows for: a clear error, no file
    many = ["--policy", "none"] + ["-s", "mask=all,start=1,min=1,max=5"] * 4
    expect("PNG too tall", many + [rec("touchscreen/storm-10.evemu"), "-o", os.path.join(TMP, "out.png")],
           1, r"out\.png: \d+ gestures make the picture taller than the 32767 px a PNG can have")
    check(not os.path.exists(os.path.join(TMP, "out.png")), "PNG too tall: no file")
    # names that are not text: the SVG stays well-formed, the PNG is written
    with open(good, "rb") as f:
        data = f.read()
    weird = os.path.join(TMP, "weird.evemu")
    with open(weird, "wb") as f:
        f.write(data.replace(b"N: utouch-synth touchscreen", b"N: caf\xc3\xa9 \xff\x01 <a&b>", 1))
    expect("odd device name", [weird, "-s", "mask=drag,touches=2", "-o", out], 0, r"^$", created=True)
    try:
        title = [t.text for t in read_svg(out)[2] if t.get("class") == "title"]
        check(title and title[0].startswith("weird.evemu: caf\u00e9 ?? <a&b>, direct"),
              "odd device name: title %s" % title)
    except ET.ParseError as e:
        check(False, "odd device name: the SVG is well-formed (%s)" % e)
    png = os.path.join(TMP, "weird.png")
    rc, _, err = run([PLOT, weird, "-o", png])
    check(rc == 0 and png_size(png) is not None, "odd device name: PNG written (%s)" % err)
    # a good run after all that
    expect("good run", [good, "-o", out], 0, r"^$", created=True)
    check(os.path.exists(out), "good run writes its output")


def main():
    global PLOT, REPLAY, RECS
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    check_name, PLOT, REPLAY, RECS = sys.argv[1:]
    checks = {"bug-game": t_bug_game, "x11-drag": t_x11_drag, "policies": t_policies,
              "recordings": t_recordings, "png": t_png, "errors": t_errors}
    if check_name not in checks:
        print("unknown check " + check_name)
        return 2
    checks[check_name]()
    subprocess.run(["rm", "-rf", TMP])
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
