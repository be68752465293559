#!/usr/bin/env python3
"""End-to-end scenarios of utouch-wlcomp on the headless backend.

A compositor runs headless (no GPU, no uinput) with a private
XDG_RUNTIME_DIR; a virtual touchscreen is driven over its control socket;
Wayland test clients (touch-client) print every wl_touch event.  Ordering
needs no sleeps: `barrier N` asks every window to become N x N, and a
client that printed `configure N N` has printed everything delivered to it
before.

usage: scenarios.py --comp EXE --client EXE --config YAML SCENARIO
       scenarios.py --skip MESSAGE
"""
import argparse
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

# how long to wait for a line: only a failing run waits this long, and a
# compositor under valgrind (WLCOMP_WRAPPER) on a loaded machine can take
# more than 30 s to start
TIMEOUT = 90.0 if os.environ.get("WLCOMP_WRAPPER") else 30.0
# WLCOMP_CMD_DELAY: seconds to wait before each control command, a slow
# compositor (valgrind, a loaded machine) made reproducible
CMD_DELAY = float(os.environ.get("WLCOMP_CMD_DELAY", "0"))
FRAME_MS = 10    # between the frames of a gesture on the manual clock
PAUSE_MS = 100   # between two gestures: more than grail's 60 ms grouping window


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


class Reader:
    """Collects the lines a process prints, in a thread."""

    def __init__(self, stream, name):
        self.lines = []
        self.q = queue.Queue()
        self.name = name
        t = threading.Thread(target=self._run, args=(stream,), daemon=True)
        t.start()

    def _run(self, stream):
        for line in stream:
            line = line.rstrip("\n")
            self.lines.append(line)
            self.q.put(line)
        self.q.put(None)

    def wait_for(self, pattern, timeout=TIMEOUT):
        """Lines up to and including the first matching `pattern`."""
        got = []
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise Failure(f"{self.name}: no line matching {pattern!r} in {timeout}s; got {got}")
            try:
                line = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise Failure(f"{self.name}: ended before {pattern!r}; got {got}")
            got.append(line)
            if re.fullmatch(pattern, line):
                return got


class Compositor:
    """A compositor on the manual touch clock (`tick`) unless real_clock:
    then touch events carry the time the compositor handled them and the
    gesture timers run in real time."""

    def __init__(self, exe, client_exe, config, tmp, real_clock=False):
        self.tmp = tmp
        self.client_exe = client_exe
        self.runtime = os.path.join(tmp, "run")
        os.mkdir(self.runtime, 0o700)
        self.ctl_path = os.path.join(self.runtime, "control")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, WAYLAND_DISPLAY="wl-utouch-test")
        self.env.pop("DISPLAY", None)
        # WLCOMP_WRAPPER: a command line the compositor runs under (valgrind)
        wrapper = os.environ.get("WLCOMP_WRAPPER", "").split()
        self.proc = subprocess.Popen(
            wrapper + [exe, "--headless", "--size", "800x600", "--config", config,
             "--control", self.ctl_path, "--socket", "wl-utouch-test"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=self.env)
        self.out = Reader(self.proc.stdout, "compositor")
        self.out.wait_for(r"wlcomp: running on .*")
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(self.ctl_path)
        self.f = self.sock.makefile("rw")
        self.clients = []
        self.barrier_n = 100
        self.t = None
        if not real_clock:
            # recognition must not depend on how fast the compositor runs
            # (valgrind, a loaded machine): the script says when events happen
            self.t = 0
            self.cmd("clock 0")

    def tick(self, ms=FRAME_MS):
        """The manual clock moves on by `ms`; the timers due until then run."""
        check(self.t is not None, "tick() on the real clock")
        self.t += ms
        self.cmd(f"clock {self.t}")

    def cmd(self, line):
        if CMD_DELAY:
            time.sleep(CMD_DELAY)
        self.f.write(line + "\n")
        self.f.flush()
        reply = self.f.readline().strip()
        check(reply.startswith("ok"), f"control: {line!r} -> {reply!r}")
        return reply[2:].strip()

    def cmds(self, lines):
        """Several commands in one write (one input batch), then their replies."""
        self.f.write("".join(l + "\n" for l in lines))
        self.f.flush()
        for l in lines:
            reply = self.f.readline().strip()
            check(reply.startswith("ok"), f"control: {l!r} -> {reply!r}")

    def cmd_error(self, line):
        """A command that must be refused: its error text."""
        self.f.write(line + "\n")
        self.f.flush()
        reply = self.f.readline().strip()
        check(reply.startswith("error "), f"control: {line!r} -> {reply!r}, want an error")
        return reply[6:]

    def stats(self):
        return dict(kv.split("=") for kv in self.cmd("stats").split())

    def client(self, title, w, h, env=None):
        p = subprocess.Popen([self.client_exe, title, str(w), str(h)], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, stdin=subprocess.PIPE, text=True,
                             env=dict(self.env, **(env or {})))
        c = Reader(p.stdout, title)
        c.proc = p
        c.wait_for(r"(\d+ )?ready")
        self.out.wait_for(f"wlcomp: map '{re.escape(title)}' at .*")
        self.clients.append(c)
        return c

    def barrier(self, *clients):
        """Everything delivered so far, per client: lines before `configure N N`."""
        self.barrier_n += 1
        n = self.barrier_n
        self.cmd(f"barrier {n}")
        return [c.wait_for(f"configure {n} {n}")[:-1] for c in clients]

    def close(self):
        try:
            self.cmd("quit")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for c in self.clients:
            if c.proc.poll() is None:
                c.proc.kill()
            c.proc.wait()
        time.sleep(0.05)
        check(self.proc.returncode == 0, f"compositor exit status {self.proc.returncode}: "
              + "\n".join(self.out.lines[-40:]))


def tell(client, command):
    """A command to a touch-client on its stdin: its lines up to `did COMMAND`."""
    client.proc.stdin.write(command + "\n")
    client.proc.stdin.flush()
    return client.wait_for(f"did {re.escape(command)}( .*)?")


def ended_once(lines, what):
    """Every touch in `lines` that went down ended exactly once (its up, or a
    cancel of them all) and had no event before its down or after its end."""
    down = set()
    for l in touch_lines(lines):
        w = l.split()
        if w[0] == "down":
            check(w[1] not in down, f"{what}: a second down of {w[1]}: {lines}")
            down.add(w[1])
        elif w[0] in ("motion", "up"):
            check(w[1] in down, f"{what}: {l} of a touch that is not down: {lines}")
            if w[0] == "up":
                down.remove(w[1])
        elif w[0] == "cancel":
            down.clear()
    check(not down, f"{what}: touches {sorted(down)} never ended: {lines}")


def touch_lines(lines):
    return [l for l in lines if l.split()[0] in ("down", "motion", "up", "frame", "cancel")]


def kinds(lines):
    return [l.split()[0] for l in touch_lines(lines)]


def swipe(comp, dev, xs, y0, dx=200, steps=5, ids=None):
    """After a pause, touches at xs (one row at y0 + 40 i) move right by dx
    together, one frame every FRAME_MS."""
    ids = ids if ids is not None else list(range(len(xs)))
    comp.tick(PAUSE_MS)
    for i, x in zip(ids, xs):
        comp.cmd(f"down {dev} {i} {x} {y0 + 40 * i}")
    comp.cmd(f"frame {dev}")
    for s in range(1, steps + 1):
        comp.tick()
        for i, x in zip(ids, xs):
            comp.cmd(f"motion {dev} {i} {x + dx * s / steps} {y0 + 40 * i}")
        comp.cmd(f"frame {dev}")
    comp.tick()
    for i in ids:
        comp.cmd(f"up {dev} {i}")
    comp.cmd(f"frame {dev}")


def slow_tap(comp, dev, tid, x, y, pause=True):
    """A touch that stays PAUSE_MS (past grail's window: it is delivered)."""
    if pause:
        comp.tick(PAUSE_MS)
    comp.cmd(f"down {dev} {tid} {x} {y}")
    comp.cmd(f"frame {dev}")
    comp.tick(PAUSE_MS)
    comp.cmd(f"up {dev} {tid}")
    comp.cmd(f"frame {dev}")


def clean(comp):
    st = comp.stats()
    check(st["points"] == "0", f"touch points left in the seat: {st}")
    check(st["touches"] == "0", f"touches left in the gesture context: {st}")
    check(st["held"] == "0", f"held events left: {st}")
    return st


def policy_config(src, policy, tmp):
    """The default configuration with every subscription in one policy."""
    text = open(src).read().replace("policy: hold", f"policy: {policy}")
    path = os.path.join(tmp, f"gestures-{policy}.yaml")
    open(path, "w").write(text)
    return path


# ---- the scenarios ----

def scenario_swipe(args, tmp):
    """1. a system three-touch swipe: hold -> nothing; forward-then-cancel ->
    the downs, then cancel, nothing after."""
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp), tmp)
    try:
        a = comp.client("A", 400, 600)
        dev = comp.cmd("add-touch")
        swipe(comp, dev, [100, 150, 200], 200)
        (seen,) = comp.barrier(a)
        check(touch_lines(seen) == [], f"hold: the client saw {touch_lines(seen)}")
        comp.out.wait_for(r"wlcomp: action focus-next gesture \d+ window 'A'")
        clean(comp)
        # the manual clock never goes back and takes whole milliseconds only
        t = comp.t
        check(comp.cmd_error(f"clock {t - 1}") == f"clock {t - 1} is before the current time {t}",
              "clock going back")
        for bad in ("clock", "clock -1", "clock 1.5", "clock 12x", "clock 99999999999999999999"):
            check(comp.cmd_error(bad).startswith("usage: clock MS"), f"{bad!r} was taken")
        comp.cmd(f"clock {t}")
    finally:
        comp.close()

    os.mkdir(os.path.join(tmp, "ftc"))
    comp = Compositor(args.comp, args.client,
                      policy_config(args.config, "forward-then-cancel", tmp), os.path.join(tmp, "ftc"))
    try:
        a = comp.client("A", 400, 600)
        dev = comp.cmd("add-touch")
        swipe(comp, dev, [100, 150, 200], 200)
        (seen,) = comp.barrier(a)
        k = kinds(seen)
        check(k == ["down", "down", "down", "frame", "cancel"],
              f"forward-then-cancel: the client saw {touch_lines(seen)}")
        clean(comp)
    finally:
        comp.close()


def scenario_tap(args, tmp):
    """2. a three-touch tap matching no system gesture is replayed in order
    with surface-local coordinates, then live events pass through."""
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp), tmp)
    try:
        a = comp.client("A", 400, 600)
        b = comp.client("B", 400, 600)
        dev = comp.cmd("add-touch")
        for i, x in enumerate([500, 560, 620]):
            comp.cmd(f"down {dev} {i} {x} {300 + 10 * i}")
        comp.cmd(f"frame {dev}")
        comp.tick()
        comp.cmd(f"motion {dev} 1 561 311")
        comp.cmd(f"frame {dev}")
        comp.tick()
        for i in range(3):
            comp.cmd(f"up {dev} {i}")
        comp.cmd(f"frame {dev}")
        seen_a, seen_b = comp.barrier(a, b)
        check(touch_lines(seen_a) == [], f"A saw {touch_lines(seen_a)}")
        want = ["down 0 100.00 300.00", "down 1 160.00 310.00", "down 2 220.00 320.00", "frame",
                "motion 1 161.00 311.00", "frame", "up 0", "up 1", "up 2", "frame"]
        check(touch_lines(seen_b) == want, f"B saw {touch_lines(seen_b)}, want {want}")
        # still touches: the drag timeout rejects them, then they are live
        comp.tick(PAUSE_MS)
        for i, x in enumerate([500, 560, 620]):
            comp.cmd(f"down {dev} {i} {x} 400")
        comp.cmd(f"frame {dev}")
        comp.tick(290)
        (seen_b,) = comp.barrier(b)
        check(touch_lines(seen_b) == [], f"B before the 300 ms timeout: {seen_b}")
        comp.tick(20)
        got = b.wait_for("frame")
        check(kinds(got) == ["down", "down", "down", "frame"], f"B after the timeout: {got}")
        comp.tick()
        comp.cmd(f"motion {dev} 2 630 400")
        comp.cmd(f"frame {dev}")
        comp.tick()
        for i in range(3):
            comp.cmd(f"up {dev} {i}")
        comp.cmd(f"frame {dev}")
        (seen_b,) = comp.barrier(b)
        want = ["motion 2 230.00 400.00", "frame", "up 0", "up 1", "up 2", "frame"]
        check(touch_lines(seen_b) == want, f"B live: {touch_lines(seen_b)}, want {want}")
        check(comp.stats()["actions"] == "0", "an action ran for a tap")
        clean(comp)
    finally:
        comp.close()


def subsets_config(src, tmp):
    """The default configuration with whole-hand off in every subscription
    (grail 3.1's subsets of the touches down)."""
    text = re.sub(r"(\n( +)policy: hold\n)", r"\1\2whole-hand: false\n", open(src).read())
    check(text.count("whole-hand: false") >= 3, "subsets_config: no policy lines")
    path = os.path.join(tmp, "gestures-subsets.yaml")
    open(path, "w").write(text)
    return path


def raw_beside_pinch(comp):
    """A raw touch (9) resting on A, then four fingers pinching in on B
    while it keeps moving; returns the clients A and B."""
    a = comp.client("A", 400, 600)
    b = comp.client("B", 400, 600)
    dev = comp.cmd("add-touch")
    comp.cmd(f"down {dev} 9 100 300")
    comp.cmd(f"frame {dev}")
    comp.tick(PAUSE_MS)
    a.wait_for("frame")   # released after grail's 60 ms window
    pts = [(500, 200), (700, 200), (500, 400), (700, 400)]
    for i, (x, y) in enumerate(pts):
        comp.cmd(f"down {dev} {i} {x} {y}")
    comp.cmd(f"frame {dev}")
    for s in range(1, 9):
        comp.tick()
        for i, (x, y) in enumerate(pts):
            comp.cmd(f"motion {dev} {i} {x + (600 - x) * s / 10} {y + (300 - y) * s / 10}")
        comp.cmd(f"motion {dev} 9 {100 + 5 * s} 300")
        comp.cmd(f"frame {dev}")
    comp.tick()
    for i in range(4):
        comp.cmd(f"up {dev} {i}")
    comp.cmd(f"up {dev} 9")
    comp.cmd(f"frame {dev}")
    return a, b


def scenario_raw_beside_pinch(args, tmp):
    """3. raw touches on one client while a system pinch happens on the
    other side of the screen (whole-hand off); with whole-hand (the
    default) the raw finger is part of the hand: no pinch, B gets its four
    touches whole."""
    comp = Compositor(args.comp, args.client, subsets_config(args.config, tmp), tmp)
    try:
        a, b = raw_beside_pinch(comp)
        comp.out.wait_for(r"wlcomp: action close-window gesture \d+ window 'B'")
        b.wait_for("close")
        (seen_a,) = comp.barrier(a)
        want = [f"motion 9 {100 + 5 * s:.2f} 300.00" for s in range(1, 9)]
        check([l for l in seen_a if l.startswith("motion")] == want, f"A saw {seen_a}")
        check(kinds(seen_a).count("up") == 1 and "cancel" not in kinds(seen_a), f"A saw {seen_a}")
        check(touch_lines(b.lines) == [], f"B saw {touch_lines(b.lines)}")
        clean(comp)
    finally:
        comp.close()

    os.mkdir(os.path.join(tmp, "whole"))
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp),
                      os.path.join(tmp, "whole"))
    try:
        a, b = raw_beside_pinch(comp)
        comp.tick(PAUSE_MS)
        seen_a, seen_b = comp.barrier(a, b)
        k = kinds(seen_b)
        check(k.count("down") == 4 and k.count("up") == 4 and k.count("motion") == 4 * 8 and
              "cancel" not in k, f"whole hand: B saw {touch_lines(seen_b)}")
        check(kinds(seen_a).count("up") == 1, f"whole hand: A saw {seen_a}")
        check(comp.stats()["actions"] == "0", "whole hand: an action ran for 5 fingers")
        clean(comp)
    finally:
        comp.close()


def scenario_palm(args, tmp):
    """Issue 23: four fingers and a ten-finger palm swiping sideways fire no
    three-finger focus-next; the client gets every touch whole."""
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp), tmp)
    try:
        a = comp.client("A", 400, 600)
        dev = comp.cmd("add-touch")
        for n in (4, 10):
            swipe(comp, dev, [20 + 36 * i for i in range(n)], 150, dx=180, steps=5)
            comp.tick(PAUSE_MS)
            (seen,) = comp.barrier(a)
            k = kinds(seen)
            ids = sorted({int(l.split()[1]) for l in touch_lines(seen) if l.startswith("down")})
            check(ids == list(range(n)) and k.count("up") == n and
                  k.count("motion") == 5 * n and "cancel" not in k,
                  f"{n} fingers: the client saw {touch_lines(seen)}")
            check(comp.stats()["actions"] == "0", f"{n} fingers: an action ran")
        check(not any("focus-next" in l for l in comp.out.lines),
              f"focus-next ran: {comp.out.lines}")
        # three fingers still are the swipe
        swipe(comp, dev, [100, 150, 200], 200)
        comp.out.wait_for(r"wlcomp: action focus-next gesture \d+ window 'A'")
        clean(comp)
    finally:
        comp.close()


def scenario_timeout(args, tmp):
    """4. a held touch that never moves is released to the client by the
    gesture timeout with no further input."""
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp), tmp,
                      real_clock=True)
    try:
        a = comp.client("A", 400, 600)
        dev = comp.cmd("add-touch")
        # at the left edge: a candidate for the edge swipe (drag timeout 300 ms)
        t0 = time.monotonic()
        comp.cmd(f"down {dev} 0 8 300")
        comp.cmd(f"frame {dev}")
        got = a.wait_for("frame")
        waited = time.monotonic() - t0
        check(touch_lines(got) == ["down 0 8.00 300.00", "frame"], f"A saw {got}")
        check(waited >= 0.29, f"released after {waited:.3f} s, before the 300 ms timeout")
        comp.cmd(f"up {dev} 0")
        comp.cmd(f"frame {dev}")
        (seen,) = comp.barrier(a)
        check(touch_lines(seen) == ["up 0", "frame"], f"A saw {seen}")
        clean(comp)
    finally:
        comp.close()


def scenario_going_away(args, tmp):
    """5. touches on two clients; a client that disconnects mid-gesture; a
    device removed mid-gesture: nothing stuck, nothing leaked."""
    comp = Compositor(args.comp, args.client,
                      policy_config(args.config, "forward-then-cancel", tmp), tmp)
    try:
        a = comp.client("A", 400, 600)
        b = comp.client("B", 400, 600)
        dev = comp.cmd("add-touch")
        # (a) a three-finger swipe that begins on both clients: both cancelled
        swipe(comp, dev, [300, 350, 450], 200, dx=120, steps=3)
        seen_a, seen_b = comp.barrier(a, b)
        check(kinds(seen_a) == ["down", "down", "frame", "cancel"], f"A saw {seen_a}")
        check(kinds(seen_b) == ["down", "frame", "cancel"], f"B saw {seen_b}")
        clean(comp)
        # (b) B disconnects while its touches are down and undecided
        comp.tick(PAUSE_MS)
        for i, x in enumerate([500, 550, 600]):
            comp.cmd(f"down {dev} {i} {x} 300")
        comp.cmd(f"frame {dev}")
        b.wait_for("frame")
        b.proc.kill()
        b.proc.wait()
        comp.out.wait_for(r"wlcomp: .*")  # any line: the compositor is alive
        for s in range(1, 4):
            comp.tick()
            for i, x in enumerate([500, 550, 600]):
                comp.cmd(f"motion {dev} {i} {x + 40 * s} 300")
            comp.cmd(f"frame {dev}")
        comp.tick()
        for i in range(3):
            comp.cmd(f"up {dev} {i}")
        comp.cmd(f"frame {dev}")
        comp.barrier(a)
        clean(comp)
        # (c) the device goes away while A has touches down
        comp.tick(PAUSE_MS)
        comp.cmd(f"down {dev} 0 300 100")
        comp.cmd(f"down {dev} 1 350 100")
        comp.cmd(f"frame {dev}")
        a.wait_for("frame")
        comp.cmd(f"remove-touch {dev}")
        comp.out.wait_for(rf"wlcomp: touch device {dev} removed")
        (seen_a,) = comp.barrier(a)
        check(kinds(seen_a) == ["cancel"], f"A after the device left: {seen_a}")
        st = clean(comp)
        check(st["windows"] == "1", f"windows: {st}")
        # and a new device works (A moved right by the swipe of (a))
        dev = comp.cmd("add-touch")
        comp.tick(PAUSE_MS)
        comp.cmd(f"down {dev} 0 300 100")
        comp.cmd(f"frame {dev}")
        comp.tick()
        comp.cmd(f"up {dev} 0")
        comp.cmd(f"frame {dev}")
        got = a.wait_for("frame")
        check(touch_lines(got) == ["down 0 180.00 100.00", "frame"],
              f"A with the new device: {got}")
        (seen_a,) = comp.barrier(a)
        check(touch_lines(seen_a) == ["up 0", "frame"], f"A with the new device: {seen_a}")
        clean(comp)
    finally:
        comp.close()


def scenario_devices_away(args, tmp):
    """5b. two touchscreens, each with a three-finger gesture in flight and a
    motion not framed yet, are removed one after the other, in both
    policies: nothing stuck, the compositor exits cleanly."""
    for policy in ("forward-then-cancel", "hold"):
        os.mkdir(os.path.join(tmp, policy))
        comp = Compositor(args.comp, args.client,
                          policy_config(args.config, policy, tmp),
                          os.path.join(tmp, policy))
        try:
            a = comp.client("A", 400, 600)
            b = comp.client("B", 400, 600)
            devs = [comp.cmd("add-touch"), comp.cmd("add-touch")]
            for d, dev in enumerate(devs):
                xs = [300 + 250 * d + 50 * i for i in range(3)]
                for i, x in enumerate(xs):
                    comp.cmd(f"down {dev} {i} {x} 200")
                comp.cmd(f"frame {dev}")
                for s in range(1, 4):
                    comp.tick()
                    for i, x in enumerate(xs):
                        comp.cmd(f"motion {dev} {i} {x + 40 * s} 200")
                    comp.cmd(f"frame {dev}")
                comp.tick()
                comp.cmd(f"motion {dev} 0 {xs[0] + 150} 200")
            for dev in devs:
                comp.cmd(f"remove-touch {dev}")
                comp.out.wait_for(rf"wlcomp: touch device {dev} removed")
            comp.barrier(a, b)
            clean(comp)
        finally:
            comp.close()


def scenario_actions_once(args, tmp):
    """6. the compositor's actions run exactly once per accepted gesture."""
    cfg = os.path.join(tmp, "gestures.yaml")
    marker = os.path.join(tmp, "spawned")
    text = open(args.config).read().replace("command: x-terminal-emulator",
                                            f"command: \"echo x >> {marker}\"")
    open(cfg, "w").write(text)
    comp = Compositor(args.comp, args.client, cfg, tmp)
    try:
        a = comp.client("A", 400, 600)
        b = comp.client("B", 400, 600)
        dev = comp.cmd("add-touch")
        for _ in range(3):
            swipe(comp, dev, [100, 150, 200], 200)        # quick: focus-next
        swipe(comp, dev, [100, 150, 200], 200, dx=80, steps=8)  # short: move-window
        swipe(comp, dev, [8], 300, dx=120, steps=6)       # from the left edge: spawn
        comp.barrier(a, b)
        st = clean(comp)
        actions = [l for l in comp.out.lines if l.startswith("wlcomp: action ")]
        names = [l.split()[2] for l in actions]
        check(names == ["focus-next"] * 3 + ["move-window", "spawn"], f"actions: {actions}")
        check(st["actions"] == "5", f"stats: {st}")
        ids = [l.split()[4] for l in actions]
        check(len(set(ids)) == len(ids), f"a gesture ran twice: {actions}")
        begins = [l for l in comp.out.lines if re.match(r"wlcomp: gesture \d+ begins", l)]
        check(len(begins) == 5, f"gestures: {begins}")
        # the shell creates the file before it writes the line: wait for
        # the line, then a little more for a second one that must not come
        end = time.monotonic() + 5
        while time.monotonic() < end and not (
                os.path.exists(marker) and open(marker).read().endswith("\n")):
            time.sleep(0.02)
        time.sleep(0.2)
        spawned = open(marker).read() if os.path.exists(marker) else ""
        check(spawned == "x\n",
              f"the spawn command did not run exactly once: {spawned!r}")
        check(touch_lines(a.lines) == [] and touch_lines(b.lines) == [],
              "a client saw touches of system gestures")
    finally:
        comp.close()


def scenario_frame_time(args, tmp):
    """7. touches of one device frame stay together although the compositor
    handles them 2 ms apart: events carry the device's time, so grail sees
    one frame and releases both touches in one step, replayed interleaved.
    Once with the time given (TIME), once as a device stamps a frame (the
    time of its first event)."""
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp), tmp)
    try:
        a = comp.client("A", 800, 600)
        dev = comp.cmd("add-touch")
        for explicit in (True, False):
            comp.tick(PAUSE_MS)
            t0 = comp.t
            comp.cmd(f"down {dev} 0 300 300")
            comp.tick(2)                     # the compositor is 2 ms late...
            # ...with an event of the same frame
            comp.cmd(f"down {dev} 1 400 300" + (f" {t0}" if explicit else ""))
            comp.cmd(f"frame {dev}")
            for s in range(1, 12):
                comp.tick(8 if s == 1 else FRAME_MS)
                comp.cmd(f"motion {dev} 0 {300 + 5 * s} 300")
                comp.cmd(f"motion {dev} 1 {400 + 5 * s} 300")
                comp.cmd(f"frame {dev}")
            comp.tick()
            comp.cmd(f"up {dev} 0")
            comp.cmd(f"up {dev} 1")
            comp.cmd(f"frame {dev}")
            (seen,) = comp.barrier(a)
            want = ["down 0 300.00 300.00", "down 1 400.00 300.00", "frame"]
            for s in range(1, 12):
                want += [f"motion 0 {300 + 5 * s:.2f} 300.00",
                         f"motion 1 {400 + 5 * s:.2f} 300.00", "frame"]
            want += ["up 0", "up 1", "frame"]
            check(touch_lines(seen) == want,
                  f"A saw ({'TIME' if explicit else 'frame time'}) {touch_lines(seen)}, want {want}")
        # the device time is the manual clock's and never in its future
        check(comp.cmd_error(f"down {dev} 5 10 10 {comp.t + 1}")
              == f"time {comp.t + 1} is after the current time {comp.t}", "a future time")
        clean(comp)
    finally:
        comp.close()
    # without the manual clock a device time means nothing
    os.mkdir(os.path.join(tmp, "real"))
    comp = Compositor(args.comp, args.client, args.config, os.path.join(tmp, "real"),
                      real_clock=True)
    try:
        dev = comp.cmd("add-touch")
        check(comp.cmd_error(f"down {dev} 0 10 10 5").startswith("an event TIME needs"),
              "a TIME on the real clock")
    finally:
        comp.close()


def run_failing(args, tmp, argv, env=None, headless=True):
    """Run the compositor to a start-up failure: its exit status and output."""
    e = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(tmp, "run"))
    e.pop("WAYLAND_DISPLAY", None)
    e.update(env or {})
    e = {k: v for k, v in e.items() if v is not None}
    os.makedirs(e.get("XDG_RUNTIME_DIR", os.path.join(tmp, "run")), mode=0o700, exist_ok=True)
    wrapper = os.environ.get("WLCOMP_WRAPPER", "").split()
    p = subprocess.run(wrapper + [args.comp] + (["--headless"] if headless else []) + argv,
                       capture_output=True, text=True, env=e, timeout=TIMEOUT)
    return p.returncode, p.stdout + p.stderr


def scenario_startup_errors(args, tmp):
    """8. configuration errors and a missing file end with status 1 and the
    message (no crash); without XDG_RUNTIME_DIR the message says what to set."""
    ctl = os.path.join(tmp, "ctl")
    bad = os.path.join(tmp, "bad.yaml")
    open(bad, "w").write("subscriptions:\n  - name: x\n    gestures: drag\n    touches: 3\n"
                         "    options:\n      action: teleport\n")
    syntax = os.path.join(tmp, "syntax.yaml")
    open(syntax, "w").write("subscriptions: [\n")
    missing = os.path.join(tmp, "missing.yaml")
    for cfg, want in ((bad, 'unknown action "teleport"'), (syntax, "syntax.yaml:"),
                      (missing, "missing.yaml: No such file or directory")):
        for extra in ([], ["--control", ctl]):
            rc, out = run_failing(args, tmp, ["--config", cfg] + extra)
            check(rc == 1, f"{cfg} {extra}: exit status {rc}, want 1: {out}")
            check(want in out, f"{cfg} {extra}: no {want!r} in {out!r}")
            check(not os.path.exists(ctl), "the control socket was left behind")
    rc, out = run_failing(args, tmp, ["--config", args.config], env={"XDG_RUNTIME_DIR": None})
    check(rc == 1, f"without XDG_RUNTIME_DIR: exit status {rc}: {out}")
    check("XDG_RUNTIME_DIR is not set" in out and "export XDG_RUNTIME_DIR=" in out,
          f"without XDG_RUNTIME_DIR: {out!r}")
    # a display that is not there: the message names it and suggests --headless
    rc, out = run_failing(args, tmp, ["--config", args.config], headless=False,
                          env={"WAYLAND_DISPLAY": "no-such-display", "DISPLAY": None})
    check(rc == 1 and "WAYLAND_DISPLAY=no-such-display" in out and "--headless" in out,
          f"on a missing display: {rc} {out!r}")
    # scripts/wlcomp.sh with no display suggests --headless (before building)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                          "wlcomp.sh")
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    p = subprocess.run(["bash", script], capture_output=True, text=True, env=e,
                       stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    check(p.returncode == 1 and "scripts/wlcomp.sh --headless" in p.stderr,
          f"wlcomp.sh without a display: {p.returncode} {p.stderr!r}")


def scenario_control_input(args, tmp):
    """9. the control socket refuses coordinates that are no position and
    keeps touch ids apart: any device id, two devices, ids past 63."""
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp), tmp)
    try:
        a = comp.client("A", 400, 600)
        b = comp.client("B", 400, 600)
        dev = comp.cmd("add-touch")
        dev2 = comp.cmd("add-touch")
        for x, y in (("nan", "10"), ("10", "inf"), ("-inf", "5"), ("1e300", "10"),
                     ("10", "1e400"), ("801", "10"), ("10", "-1"), ("0x", "1")):
            for verb in ("down", "motion"):
                err = comp.cmd_error(f"{verb} {dev} 0 {x} {y}")
                check("finite" in err or "outside the layout" in err, f"{verb} {x} {y}: {err}")
        for bad in (f"down {dev} 2147483648 1 1", f"down {dev} 0 1", f"down {dev} 0 1 1 1 1",
                    "down -1 0 1 1", "frame", f"up {dev} x", "barrier 0", "barrier 99999",
                    "nosuch", f"frame {dev} 7"):
            comp.cmd_error(bad)
        check(comp.cmd_error(f"frame 99") == "no touch device 99", "an unknown device")
        st = comp.stats()
        check(st["touches"] == "0" and st["points"] == "0", f"a refused event went on: {st}")
        # a touch id on one device equal to another's: distinct seat ids;
        # the largest 32-bit id; an id past 63 on a window not at 0,0
        # a blank line is a command that does nothing: it gets its reply too
        for blank in ("", "   ", "\t\r"):
            check(comp.cmd(blank) == "", f"blank line {blank!r}")
        comp.tick(PAUSE_MS)
        comp.cmd(f"down {dev} 1000 100 100")
        comp.cmd(f"down {dev} 100 500 300")
        comp.cmd(f"frame {dev}")
        # a second down of a touch that is down (over A this time) is
        # refused and changes nothing: B's coordinates below stay B's
        err = comp.cmd_error(f"down {dev} 100 100 100")
        check(err == f"touch 100 is down already on touch device {dev}", f"second down: {err}")
        comp.cmd(f"down {dev2} 0 150 100")   # once device 1 x 1000 + 0: 1000 as well
        comp.cmd(f"down {dev2} 2147483647 200 100")
        comp.cmd(f"frame {dev2}")
        comp.tick(PAUSE_MS)   # past grail's 60 ms: two touches are no gesture here
        comp.cmd(f"motion {dev} 100 510 320")
        comp.cmd(f"frame {dev}")
        comp.tick()
        for d, i in ((dev, 1000), (dev2, 0), (dev2, 2147483647), (dev, 100)):
            comp.cmd(f"up {d} {i}")
        comp.cmd(f"frame {dev}")
        comp.cmd(f"frame {dev2}")
        seen_a, seen_b = comp.barrier(a, b)
        downs = [l for l in touch_lines(seen_a) if l.startswith("down")]
        ids = [l.split()[1] for l in downs]
        check(len(downs) == 3 and len(set(ids)) == 3, f"A: seat ids collide: {touch_lines(seen_a)}")
        check(ids == ["1000", "0", "2147483647"], f"A: seat ids {ids}")
        check(sorted(l.split()[1] for l in touch_lines(seen_a) if l.startswith("up"))
              == sorted(ids), f"A: ups {touch_lines(seen_a)}")
        kb = touch_lines(seen_b)
        check(kb[:2] == ["down 100 100.00 300.00", "frame"] and
              "motion 100 110.00 320.00" in kb and "up 100" in kb, f"B saw {kb}")
        clean(comp)
    finally:
        comp.close()


def recv_line(s):
    """A reply line; a refusal closes the connection with our line unread,
    which may reach us as a reset instead of the error line."""
    try:
        return s.recv(512).decode()
    except ConnectionResetError:
        return "error the compositor cannot take a client (reset)"


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scenario_control_socket(args, tmp):
    """10. the control socket is 0600, refuses other users, and does not
    spin when no descriptor is left for a connection."""
    import resource
    comp = Compositor(args.comp, args.client, args.config, tmp, real_clock=True)
    extra = []
    try:
        mode = os.stat(comp.ctl_path).st_mode & 0o777
        check(mode == 0o600, f"control socket mode {mode:o}, want 600")
        if os.geteuid() == 0:
            # let another user reach it, as a careless mode would
            os.chmod(comp.ctl_path, 0o666)
            os.chmod(comp.runtime, 0o755)
            os.chmod(tmp, 0o755)
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                try:
                    os.setgid(65534)
                    os.setuid(65534)
                    s = socket.socket(socket.AF_UNIX)
                    s.connect(comp.ctl_path)
                    # a refused client is told at once; else it asks
                    s.settimeout(2.0)
                    try:
                        got = s.recv(512)
                    except socket.timeout:
                        s.settimeout(TIMEOUT)
                        s.sendall(b"stats\n")
                        got = s.recv(512)
                    os.write(w, got if got else b"EOF")
                except Exception as e:
                    os.write(w, repr(e).encode())
                finally:
                    os._exit(0)
            os.close(w)
            got = os.read(r, 512).decode()
            os.waitpid(pid, 0)
            check(not got.startswith("ok"), f"another user was answered {got!r}")
            check(got.startswith("error permission denied"), f"another user got {got!r}")
            os.chmod(comp.runtime, 0o700)
            os.chmod(tmp, 0o700)
        # no descriptor left: the pending connection waits, the loop sleeps
        pid = comp.proc.pid
        fds = [int(f) for f in os.listdir(f"/proc/{pid}/fd")]
        hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)[1]
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (max(fds) + 1, hard))
        for _ in range(4):
            # served, refused with an error (a descriptor for the event
            # loop was missing), or left waiting in the backlog
            s = socket.socket(socket.AF_UNIX)
            s.connect(comp.ctl_path)
            s.settimeout(0.5)
            s.sendall(b"stats\n")
            extra.append(s)
            try:
                got = recv_line(s)
                check(got.startswith("ok ") or got.startswith("error the compositor cannot"),
                      f"a client at the descriptor limit got {got!r}")
            except socket.timeout:
                break
        else:
            raise Failure("every connection was answered: the descriptor limit did not bite")
        c0 = cpu_seconds(pid)
        time.sleep(1.0)
        used = cpu_seconds(pid) - c0
        check(used < 0.1, f"the compositor used {used:.2f} s of CPU in 1 s while a client waited")
        check(any("cannot accept a client" in l for l in comp.out.lines),
              f"no message about the refused connection: {comp.out.lines[-5:]}")
        # descriptors come free: the waiting client is answered (served, or
        # refused by a retry that ran before), a new one is served
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (1024, hard))
        extra[-1].settimeout(TIMEOUT)
        got = recv_line(extra[-1])
        check(got.startswith("ok points=") or got.startswith("error the compositor cannot"),
              f"the waiting client got {got!r}")
        s = socket.socket(socket.AF_UNIX)
        extra.append(s)
        s.connect(comp.ctl_path)
        s.settimeout(TIMEOUT)
        s.sendall(b"stats\n")
        got = s.recv(512).decode()
        check(got.startswith("ok points="), f"a client after the shortage got {got!r}")
    finally:
        for s in extra:
            s.close()
        comp.close()


def read_lines(s, n, timeout=TIMEOUT):
    """Exactly n reply lines (fails on fewer within timeout)."""
    got = b""
    end = time.monotonic() + timeout
    while got.count(b"\n") < n:
        have = got.count(b"\n")
        left = end - time.monotonic()
        check(left > 0, f"{have} replies of {n} in {timeout} s")
        s.settimeout(left)
        try:
            d = s.recv(1 << 20)
        except socket.timeout:
            continue
        check(d, f"the compositor closed the connection after {have} replies of {n}")
        got += d
    return got.decode().splitlines()


def scenario_control_flood(args, tmp):
    """11. hostile control input: a line too long is one refusal and none of
    its bytes is carried out, however long (1 MB); thousands of lines sent
    before a reply is read get every reply in order; many clients at once
    are all served; the compositor stays clean."""
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp), tmp)
    extra = []
    try:
        dev = comp.cmd("add-touch")
        s = socket.socket(socket.AF_UNIX)
        extra.append(s)
        s.connect(comp.ctl_path)
        # the tail of an over-long line that looks like a command is no command
        s.sendall(("x" * 512 + f"down {dev} 5 10 10\n" + "stats\n").encode())
        got = read_lines(s, 2)
        check(got[0].startswith("error line too long") and got[1].startswith("ok points="),
              f"an over-long line: {got}")
        check("touches=0" in got[1], f"the tail of an over-long line was carried out: {got}")
        # 1 MB in one line: one refusal, then the next line is served
        t0 = time.monotonic()
        s.sendall(b"y" * (1 << 20) + b"\nstats\n")
        got = read_lines(s, 2)
        check(got[0].startswith("error line too long") and got[1].startswith("ok points="),
              f"a 1 MB line: {got[:3]} ({len(got)} lines)")
        check(time.monotonic() - t0 < 5, f"a 1 MB line took {time.monotonic() - t0:.1f} s")
        # 5000 commands before the first reply is read: 5000 replies, in order
        n = 5000
        lines = [f"barrier {1 + i % 7}" if i % 2 else "stats" for i in range(n)]
        s.sendall("".join(l + "\n" for l in lines).encode())
        got = read_lines(s, n)
        check(len(got) == n and all(g.startswith("ok points=") if i % 2 == 0 else g == "ok"
                                    for i, g in enumerate(got)),
              f"replies out of order or lost: {[g for g in got if not g.startswith('ok')][:3]}")
        # a client that sends and never reads does not stop the others
        hog = socket.socket(socket.AF_UNIX)
        extra.append(hog)
        hog.connect(comp.ctl_path)
        hog.setblocking(False)
        try:
            for _ in range(200):
                hog.send(b"stats\n" * 1000)
        except BlockingIOError:
            pass
        # 100 clients at once
        socks = []
        for _ in range(100):
            c = socket.socket(socket.AF_UNIX)
            c.connect(comp.ctl_path)
            socks.append(c)
        extra.extend(socks)
        for c in socks:
            c.sendall(b"stats\n")
        for c in socks:
            got = read_lines(c, 1)
            check(got[0].startswith("ok points="), f"one of many clients got {got}")
        for c in socks + [hog]:
            c.close()
        clean(comp)
    finally:
        for c in extra:
            c.close()
        comp.close()


def scenario_sigterm(args, tmp):
    """12. SIGTERM while a system gesture and a client's touches are held:
    the compositor exits 0 (no crash in the cleanup) and removes its socket."""
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp), tmp)
    a = comp.client("A", 400, 600)
    dev = comp.cmd("add-touch")
    comp.tick(PAUSE_MS)
    for i, x in enumerate([100, 150, 200]):
        comp.cmd(f"down {dev} {i} {x} 200")
    comp.cmd(f"down {dev} 9 600 300")
    comp.cmd(f"frame {dev}")
    comp.tick()
    for i, x in enumerate([100, 150, 200]):
        comp.cmd(f"motion {dev} {i} {x + 30} 200")
    comp.cmd(f"frame {dev}")
    st = comp.stats()
    check(st["touches"] == "4", f"the gesture is not in flight: {st}")
    comp.proc.send_signal(signal.SIGTERM)
    try:
        rc = comp.proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        comp.proc.kill()
        raise Failure("SIGTERM did not end the compositor")
    finally:
        a.proc.kill()
        a.proc.wait()
    time.sleep(0.05)
    check(rc == 0, f"exit status {rc} after SIGTERM: " + "\n".join(comp.out.lines[-20:]))
    check(not os.path.exists(comp.ctl_path), "the control socket was left behind")


def start_plain(args, tmp, name, extra, config=None):
    """A compositor started by hand (not the Compositor class): its process
    once it runs, or (None, output) when it stopped first."""
    env = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(tmp, "run"))
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("DISPLAY", None)
    os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
    wrapper = os.environ.get("WLCOMP_WRAPPER", "").split()
    p = subprocess.Popen(wrapper + [args.comp, "--headless", "--size", "800x600", "--config",
                                    config or args.config, "--socket", "wl-utouch-" + name]
                         + extra, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env)
    r = Reader(p.stdout, name)
    r.proc = p
    return r


def send_and_close(path, text):
    """A control client that writes and goes without reading."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.sendall(text.encode())
    s.close()


def scenario_control_lifecycle(args, tmp):
    """15. the control socket's path and clients' ends, programs the
    compositor starts, a swipe after a long idle, a swipe that spawns."""
    # a file at the control path is the user's: refused, not removed
    notes = os.path.join(tmp, "notes.txt")
    open(notes, "w").write("mine\n")
    for cfg in (args.config, os.path.join(tmp, "missing.yaml")):
        rc, out = run_failing(args, tmp, ["--config", cfg, "--control", notes])
        check(rc == 1, f"--control on a file: exit status {rc}: {out}")
        check(open(notes).read() == "mine\n", "--control removed the file at its path")
    check("exists and is not a socket" in out or "missing.yaml" in out, out)
    rc, out = run_failing(args, tmp, ["--config", args.config, "--control", notes])
    check("notes.txt: the file exists and is not a socket; not replacing it" in out, out)

    os.mkdir(os.path.join(tmp, "c1"))
    comp = Compositor(args.comp, args.client, policy_config(args.config, "hold", tmp),
                      os.path.join(tmp, "c1"))
    try:
        # a live control socket belongs to the compositor that listens on it
        rc, out = run_failing(args, tmp, ["--config", args.config, "--control", comp.ctl_path])
        check(rc == 1 and "another program listens on it" in out, f"second compositor: {out}")
        check(comp.cmd("stats").startswith("points="), "the first compositor lost its socket")
        # lines from a client that writes and goes at once are carried out
        # (the manual clock tells: its time is in the refusal of a clock 0)
        send_and_close(comp.ctl_path, "clock 5000\n\nclock 7000\n")
        deadline = time.time() + TIMEOUT
        while True:
            comp.f.write("clock 0\n")   # ok until the client's lines ran
            comp.f.flush()
            reply = comp.f.readline().strip()
            if reply.endswith(" 7000") or time.time() > deadline:
                break
            time.sleep(0.05)
        check(reply == "error clock 0 is before the current time 7000", f"a client's clock: {reply}")
        comp.t = 7000
        n = comp.cmd("add-touch")
        # a swipe after the touchscreen was left alone for 25 days (more
        # than half the 32-bit millisecond wrap) is still a swipe
        a = comp.client("A", 400, 600)
        comp.tick(25 * 86400 * 1000)
        swipe(comp, n, [100, 150, 200], 200)
        comp.barrier(a)
        comp.out.wait_for(r"wlcomp: action focus-next gesture \d+ window 'A'")
        clean(comp)
    finally:
        comp.close()

    # a socket nobody listens on (a compositor that died) is replaced;
    # `quit` from a client that goes at once still ends the compositor,
    # and lines after it are answered, not carried out
    stale = os.path.join(tmp, "stale")
    s = socket.socket(socket.AF_UNIX)
    s.bind(stale)
    s.close()
    c = start_plain(args, tmp, "stale", ["--control", stale])
    c.wait_for(r"wlcomp: running on .*")
    q = socket.socket(socket.AF_UNIX)
    q.connect(stale)
    q.sendall(b"quit\nadd-touch\nstats\n")
    replies = read_lines(q, 3)
    q.close()
    check(replies == ["ok", "error the compositor is quitting",
                      "error the compositor is quitting"], f"after quit: {replies}")
    check(c.proc.wait(timeout=TIMEOUT) == 0, "quit: exit status")
    check(not os.path.exists(stale), "the control socket was left behind")
    c = start_plain(args, tmp, "goes", ["--control", stale])
    c.wait_for(r"wlcomp: running on .*")
    send_and_close(stale, "quit\n")
    try:
        rc = c.proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        c.proc.kill()
        raise Failure("quit from a client that closed at once was lost")
    check(rc == 0, f"exit status {rc}")

    # a program started with -- COMMAND gets a new process's signal state
    status = os.path.join(tmp, "status")
    c = start_plain(args, tmp, "cmd", ["--", "sh", "-c",
                                       f"grep -E '^Sig(Blk|Ign)' /proc/self/status > {status}.t"
                                       f" && mv {status}.t {status}; sleep 30"])
    c.wait_for(r"wlcomp: running on .*")
    deadline = time.time() + TIMEOUT
    while not os.path.exists(status) and time.time() < deadline:
        time.sleep(0.05)
    c.proc.terminate()
    c.proc.wait(timeout=TIMEOUT)
    fields = dict(l.split(":") for l in open(status).read().split("\n") if l)
    blocked, ignored = int(fields["SigBlk"], 16), int(fields["SigIgn"], 16)
    check(blocked == 0, f"the command runs with signals blocked: {blocked:x}")
    for sig in (signal.SIGPIPE, signal.SIGCHLD, signal.SIGTERM, signal.SIGINT):
        check(not ignored & (1 << (sig - 1)), f"the command runs with {sig.name} ignored")

    # swipe-action: spawn takes the command; without one it is refused
    text = open(args.config).read().replace("swipe-action: focus-next",
                                            "swipe-action: spawn\n      command: touch "
                                            + os.path.join(tmp, "spawned"))
    cfg = os.path.join(tmp, "swipe-spawn.yaml")
    open(cfg, "w").write(text)
    os.mkdir(os.path.join(tmp, "sp"))
    comp = Compositor(args.comp, args.client, cfg, os.path.join(tmp, "sp"))
    try:
        a = comp.client("A", 400, 600)
        dev = comp.cmd("add-touch")
        swipe(comp, dev, [100, 150, 200], 200)
        comp.barrier(a)
        comp.out.wait_for(r"wlcomp: action spawn gesture \d+ window 'A'")
        deadline = time.time() + TIMEOUT
        while not os.path.exists(os.path.join(tmp, "spawned")) and time.time() < deadline:
            time.sleep(0.05)
        check(os.path.exists(os.path.join(tmp, "spawned")), "the swipe's command did not run")
    finally:
        comp.close()
    cfg2 = os.path.join(tmp, "swipe-spawn-bare.yaml")
    open(cfg2, "w").write(open(args.config).read().replace("swipe-action: focus-next",
                                                           "swipe-action: spawn"))
    rc, out = run_failing(args, tmp, ["--config", cfg2])
    check(rc == 1 and 'the action spawn needs a "command" option' in out, f"bare spawn: {out}")


def scenario_hostile_clients(args, tmp):
    """Wayland clients that misbehave while touches are down on them: one
    destroys its surface, one is killed while a system gesture is being
    decided, one makes a protocol error, one stops reading its socket while
    touches flood it, 200 connect and go at once, one binds wl_seat at
    version 1 and one at the highest and releases its wl_touch.  The
    compositor serves the others, every touch a client saw ends exactly
    once, and nothing is left in the seat or the gesture context.  Both
    policies."""
    for policy in ("hold", "forward-then-cancel"):
        os.mkdir(os.path.join(tmp, policy))
        hostile_clients(args, os.path.join(tmp, policy), policy_config(args.config, policy, tmp))


def hostile_clients(args, tmp, config):
    comp = Compositor(args.comp, args.client, config, tmp)
    try:
        a = comp.client("A", 200, 600, env={"TOUCH_CLIENT_SEAT": "1"})
        b = comp.client("B", 200, 600, env={"TOUCH_CLIENT_SEAT": "max"})
        c = comp.client("C", 200, 600)
        d = comp.client("D", 200, 600)
        check("seat 1" in a.lines, f"A bound wl_seat at: {a.lines}")
        seat_b = [int(l.split()[1]) for l in b.lines if l.startswith("seat ")]
        check(seat_b and seat_b[0] >= 5, f"B bound wl_seat at: {b.lines}")
        dev = comp.cmd("add-touch")

        # (a) A destroys its surface while its touch is down, beside one on B:
        # A's touch ends there (up, frame), B's goes on; the seat keeps no point
        comp.tick(PAUSE_MS)
        comp.cmd(f"down {dev} 0 100 200")
        comp.cmd(f"down {dev} 1 300 200")
        comp.cmd(f"frame {dev}")
        comp.tick(PAUSE_MS)   # past grail's 60 ms window: both delivered
        got = tell(a, "destroy-surface")
        check(touch_lines(got) == ["down 0 100.00 200.00", "frame", "up 0", "frame"],
              f"A destroying its surface: {got}")
        for s in range(1, 4):
            comp.tick()
            comp.cmd(f"motion {dev} 0 {100 + 5 * s} 200")
            comp.cmd(f"motion {dev} 1 {300 + 5 * s} 200")
            comp.cmd(f"frame {dev}")
        comp.tick()
        comp.cmd(f"up {dev} 0")
        comp.cmd(f"up {dev} 1")
        comp.cmd(f"frame {dev}")
        (seen_b,) = comp.barrier(b)
        check(touch_lines(seen_b) == ["down 1 100.00 200.00", "frame"] +
              [l for s in range(1, 4) for l in (f"motion 1 {100 + 5 * s:.2f} 200.00", "frame")] +
              ["up 1", "frame"], f"B beside A's surface going: {seen_b}")
        check(touch_lines(tell(a, "sync")) == [], f"A after its surface: {a.lines}")
        clean(comp)

        # (b) C is killed while a three-finger gesture over B and C is
        # undecided: B gets its two touches whole when the tap ends
        comp.tick(PAUSE_MS)
        for i, x in enumerate([250, 320, 450]):
            comp.cmd(f"down {dev} {i} {x} 300")
        comp.cmd(f"frame {dev}")
        comp.tick(20)
        c.proc.kill()
        c.proc.wait()
        comp.tick()
        for i in range(3):
            comp.cmd(f"up {dev} {i}")
        comp.cmd(f"frame {dev}")
        (seen_b,) = comp.barrier(b)
        check(kinds(seen_b) == ["down", "down", "frame", "up", "up", "frame"],
              f"B beside C killed mid-gesture: {seen_b}")
        ended_once(seen_b, "B beside C killed")
        clean(comp)

        # (c) D makes a protocol error with a touch down; B's touch goes on
        comp.tick(PAUSE_MS)
        comp.cmd(f"down {dev} 0 700 200")
        comp.cmd(f"down {dev} 1 300 200")
        comp.cmd(f"frame {dev}")
        comp.tick(PAUSE_MS)
        got = tell(d, "sync")
        check(touch_lines(got) == ["down 0 100.00 200.00", "frame"], f"D: {got}")
        # (libwayland-client reads wl_display.error before the events that
        # came with it: what D prints after its error is not checked)
        got = tell(d, "error")
        check(re.fullmatch(r"did error (71|32)", got[-1]), f"D's protocol error: {got}")
        comp.tick()
        comp.cmd(f"motion {dev} 1 310 200")
        comp.cmd(f"frame {dev}")
        comp.cmd(f"up {dev} 0")
        comp.cmd(f"up {dev} 1")
        comp.cmd(f"frame {dev}")
        (seen_b,) = comp.barrier(b)
        check(touch_lines(seen_b) == ["down 1 100.00 200.00", "frame", "motion 1 110.00 200.00",
                                      "frame", "up 1", "frame"], f"B beside D's error: {seen_b}")
        clean(comp)

        # (d) E stops reading with a touch down and is flooded: the
        # compositor neither blocks nor stops serving B
        e = comp.client("E", 200, 600)
        comp.tick(PAUSE_MS)
        comp.cmd(f"down {dev} 0 500 200")
        comp.cmd(f"frame {dev}")
        comp.tick(PAUSE_MS)
        e.wait_for("frame")
        tell(e, "stall")
        t0 = time.monotonic()
        for k in range(20):
            comp.cmds([l for s in range(150)
                       for l in (f"motion {dev} 0 {500 + s % 90} {200 + k}", f"frame {dev}")])
        flood = time.monotonic() - t0
        slow_tap(comp, dev, 1, 300, 300, pause=False)
        (seen_b,) = comp.barrier(b)
        check(touch_lines(seen_b) == ["down 1 100.00 300.00", "frame", "up 1", "frame"],
              f"B beside a stalled E ({flood:.2f} s of flood): {seen_b}")
        comp.cmd(f"up {dev} 0")
        comp.cmd(f"frame {dev}")
        e.proc.kill()
        e.proc.wait()
        clean(comp)

        # (e) 200 connections that go at once, 20 clients killed as they map
        sock_path = os.path.join(comp.runtime, "wl-utouch-test")
        for _ in range(200):
            s = socket.socket(socket.AF_UNIX)
            s.connect(sock_path)
            s.close()
        quick = [subprocess.Popen([args.client, f"Q{k}", "50", "50"], env=comp.env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL) for k in range(20)]
        time.sleep(0.1)
        for p in quick:
            p.kill()
            p.wait()
        end = time.monotonic() + TIMEOUT
        while comp.stats()["windows"] != "1":
            check(time.monotonic() < end, f"windows of killed clients stay: {comp.stats()}")
            time.sleep(0.05)

        # (f) B (wl_seat at the highest version) releases its wl_touch: it
        # gets nothing; a new wl_touch gets touches again
        tell(b, "release-touch")
        slow_tap(comp, dev, 0, 300, 200)
        check(touch_lines(tell(b, "get-touch")) == [], f"B without wl_touch: {b.lines}")
        # a client without wl_touch is no error of the compositor's
        check(not any("could not create touch point" in l for l in comp.out.lines),
              f"errors for a client without wl_touch: {comp.out.lines}")
        slow_tap(comp, dev, 0, 300, 200)
        (seen_b,) = comp.barrier(b)
        check(touch_lines(seen_b) == ["down 0 100.00 200.00", "frame", "up 0", "frame"],
              f"B with a new wl_touch: {seen_b}")
        tell(a, "release-seat")
        tell(b, "release-seat")
        ended_once(b.lines, "B")
        ended_once(a.lines, "A")
        clean(comp)
    finally:
        comp.close()


def gtk_python():
    """A Python that has GTK 3 through python3-gi (the one running the tests
    may be another, e.g. a pyenv one), or None."""
    for exe in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if exe and subprocess.run([exe, "-c", "import gi; gi.require_version('Gtk', '3.0'); "
                                   "from gi.repository import Gtk"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            return exe
    return None


def qml_runtime():
    """Qt 6's `qml` tool when Qt's Wayland platform plugin is there, or None."""
    import glob
    qml = shutil.which("qml6") or ("/usr/lib/qt6/bin/qml" if os.path.exists("/usr/lib/qt6/bin/qml")
                                   else None)
    plugin = glob.glob("/usr/lib/*/qt6/plugins/platforms/libqwayland-generic.so")
    return qml if qml and plugin else None


class Skip(Exception):
    pass


def start_toolkits(args, tmp, policy):
    """A compositor with `policy` and the toolkit windows that are installed:
    a GTK 3 window (python3-gi) at 0,0 and a Qt 6 QML window with a
    MultiPointTouchArea beside it, undecorated so that their coordinates are
    surface-local.  Returns (comp, apps, gtk, qt, x0, dev); stop with
    stop_toolkits().  Skips (77) when neither toolkit is installed."""
    here = os.path.dirname(os.path.abspath(__file__))
    py, qml = gtk_python(), qml_runtime()
    if not py and not qml:
        raise Skip("neither GTK 3 for Python (python3-gi, gir1.2-gtk-3.0) nor Qt 6's qml "
                   "and Wayland plugin (qml-qt6, qt6-wayland) is installed")
    comp = Compositor(args.comp, args.client, policy_config(args.config, policy, tmp), tmp)
    apps = []

    def start(argv, title, ready, env):
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, text=True, env=dict(comp.env, **env))
        r = Reader(p.stdout, title)
        r.proc = p
        apps.append(r)
        r.wait_for(ready)   # fails at once if the program ends
        comp.out.wait_for(f"wlcomp: map '{title}' at .*")
        return r
    try:
        # GTK first (at 0,0), Qt beside it (at 400,0)
        gtk = qt = None
        if py:
            gtk = start([py, os.path.join(here, "gtk-touch.py"), "G", "400", "600"], "G",
                        "mapped", {"GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"})
        if qml:
            qt = start([qml, os.path.join(here, "qt-touch.qml")], "Q", "qml: ready",
                       {"QT_QPA_PLATFORM": "wayland", "QT_QUICK_BACKEND": "software",
                        "QT_WAYLAND_DISABLE_WINDOWDECORATION": "1",
                        "QML_NO_TOUCH_COMPRESSION": "1"})
        x0 = {"G": 0, "Q": 400 if gtk else 0}
        return comp, apps, gtk, qt, x0, comp.cmd("add-touch")
    except BaseException:
        stop_toolkits(comp, apps)
        raise


def stop_toolkits(comp, apps):
    for r in apps:
        if r.proc.poll() is None:
            r.proc.kill()
        r.proc.wait()
    comp.close()


def want_touches(reader, lines, what, kinds="begin|update|end|cancel|pressed|updated|"
                                           "released|canceled"):
    """The touch lines (of `kinds`) of a toolkit window up to the last of
    `lines` are exactly `lines`."""
    got = reader.wait_for(re.escape(lines[-1]))
    got = [l for l in got if re.match(r"(qml: )?(" + kinds + ") ", l)]
    check(got == lines, f"{what}: {got}, want {lines}")


def scenario_toolkits(args, tmp):
    """Real toolkit clients as a user runs them (start_toolkits()), with
    forward-then-cancel: a drag on each arrives at the right place, a
    three-finger swipe on the GTK window cancels its touches there (and
    reaches Qt not at all), and both keep working after it.  Skips (77)
    when neither toolkit is installed."""
    comp, apps, gtk, qt, x0, dev = start_toolkits(args, tmp, "forward-then-cancel")
    want = want_touches
    try:
        def drag(title, x, y, tid=0):
            lx = x0[title] + x
            comp.tick(PAUSE_MS)
            comp.cmd(f"down {dev} {tid} {lx} {y}")
            comp.cmd(f"frame {dev}")
            for s in (1, 2):
                comp.tick()
                comp.cmd(f"motion {dev} {tid} {lx + 10 * s} {y + 5 * s}")
                comp.cmd(f"frame {dev}")
            comp.tick()
            comp.cmd(f"up {dev} {tid}")
            comp.cmd(f"frame {dev}")

        def want(reader, lines, what):
            """The touch lines up to the last of `lines` are exactly `lines`."""
            got = reader.wait_for(re.escape(lines[-1]))
            got = [l for l in got if re.match(r"(qml: )?(begin|update|end|cancel|pressed|"
                                              r"updated|released|canceled) ", l)]
            check(got == lines, f"{what}: {got}, want {lines}")

        if gtk:
            drag("G", 100, 200)
            want(gtk, ["begin 0 100.00 200.00", "update 0 110.00 205.00",
                       "update 0 120.00 210.00", "end 0 120.00 210.00"], "GTK drag")
        if qt:
            drag("Q", 150, 250, tid=3)
            want(qt, ["qml: pressed 3 150.00 250.00", "qml: updated 3 160.00 255.00",
                      "qml: updated 3 170.00 260.00", "qml: released 3 170.00 260.00"],
                 "Qt drag")
        # a system gesture takes three touches from the first window
        first, other = (gtk, qt) if gtk else (qt, None)
        swipe(comp, dev, [100, 150, 200], 200)
        comp.out.wait_for(r"wlcomp: action focus-next gesture \d+ window '[GQ]'")
        if gtk:
            want(gtk, [f"begin {n} {x}.00 {200 + 40 * i}.00" for i, (n, x) in
                       enumerate([(1, 100), (2, 150), (3, 200)])] +
                 [f"cancel {n} {x}.00 {200 + 40 * i}.00" for i, (n, x) in
                  enumerate([(1, 100), (2, 150), (3, 200)])], "GTK under a swipe")
        else:
            want(qt, ["qml: pressed 0 100.00 200.00", "qml: pressed 1 150.00 240.00",
                      "qml: pressed 2 200.00 280.00", "qml: canceled 3"], "Qt under a swipe")
        # and both work after it
        if gtk:
            drag("G", 50, 60)
            want(gtk, ["begin 4 50.00 60.00", "update 4 60.00 65.00", "update 4 70.00 70.00",
                       "end 4 70.00 70.00"], "GTK after the swipe")
        if qt:
            drag("Q", 30, 40, tid=5)
            want(qt, ["qml: pressed 5 30.00 40.00", "qml: updated 5 40.00 45.00",
                      "qml: updated 5 50.00 50.00", "qml: released 5 50.00 50.00"],
                 "Qt after the swipe")
        if other:
            check(not any("canceled" in l or "pressed 0" in l for l in qt.lines),
                  f"Qt saw the swipe on the GTK window: {qt.lines}")
        clean(comp)
    finally:
        stop_toolkits(comp, apps)


def scenario_toolkits_hold(args, tmp):
    """The toolkits with the hold policy (the default): a two-finger tap
    whose fingers land 20 ms apart (A at 0 ms, B at 20, A lifts at 40, B at
    60) is a two-finger tap for GTK and Qt, in the order it came.  A is
    rejected when it ends, B only later: the windows got A's down and up
    before B's down, two single taps.  Skips (77) when neither toolkit is
    installed."""
    comp, apps, gtk, qt, x0, dev = start_toolkits(args, tmp, "hold")
    try:
        for title, reader in (("G", gtk), ("Q", qt)):
            if not reader:
                continue
            a, b = x0[title] + 100, x0[title] + 200
            comp.tick(PAUSE_MS)
            comp.cmds([f"down {dev} 0 {a} 300", f"frame {dev}"])
            comp.tick(20)
            comp.cmds([f"down {dev} 1 {b} 300", f"frame {dev}"])
            comp.tick(20)
            comp.cmds([f"up {dev} 0", f"frame {dev}"])
            comp.tick(20)
            comp.cmds([f"up {dev} 1", f"frame {dev}"])
            comp.tick(PAUSE_MS)
            if title == "G":
                want_touches(gtk, ["begin 0 100.00 300.00", "begin 1 200.00 300.00",
                                   "end 0 100.00 300.00", "end 1 200.00 300.00"],
                             "GTK two-finger tap")
            else:
                want_touches(qt, ["qml: pressed 0 100.00 300.00", "qml: pressed 1 200.00 300.00",
                                  "qml: released 0 100.00 300.00",
                                  "qml: released 1 200.00 300.00"], "Qt two-finger tap",
                             # Qt reports the still finger as updated too
                             kinds="pressed|released|canceled")
        clean(comp)
    finally:
        stop_toolkits(comp, apps)


SCENARIOS = {
    "swipe": scenario_swipe,
    "tap": scenario_tap,
    "raw-beside-pinch": scenario_raw_beside_pinch,
    "palm": scenario_palm,
    "timeout": scenario_timeout,
    "going-away": scenario_going_away,
    "devices-away": scenario_devices_away,
    "actions-once": scenario_actions_once,
    "frame-time": scenario_frame_time,
    "startup-errors": scenario_startup_errors,
    "control-input": scenario_control_input,
    "control-socket": scenario_control_socket,
    "control-flood": scenario_control_flood,
    "sigterm": scenario_sigterm,
    "control-lifecycle": scenario_control_lifecycle,
    "hostile-clients": scenario_hostile_clients,
    "toolkits": scenario_toolkits,
    "toolkits-hold": scenario_toolkits_hold,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--comp")
    ap.add_argument("--client")
    ap.add_argument("--config")
    ap.add_argument("--skip")
    ap.add_argument("scenario", nargs="?")
    args = ap.parse_args()
    if args.skip:
        print(f"SKIP: {args.skip}")
        return 77
    tmp = tempfile.mkdtemp(prefix="utouch-wlcomp-")
    try:
        SCENARIOS[args.scenario](args, tmp)
    except Skip as e:
        print(f"SKIP: {args.scenario}: {e}")
        return 77
    except Failure as e:
        print(f"FAIL: {args.scenario}: {e}")
        if os.environ.get("WLCOMP_TEST_DEBUG"):
            import traceback
            traceback.print_exc()
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"PASS: {args.scenario}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
