#!/usr/bin/env python3
"""Latency added by the gesture layer in utouch-wlcomp (a benchmark, not a test).

From the virtual device's event (the moment the driver writes the input
batch to the control socket) to the client's wl_touch event (the moment
touch-client's listener runs, CLOCK_MONOTONIC in both), for:

  none      no system gesture subscriptions: the gesture layer delivers at once
  forward   the default gestures, all forward-then-cancel
  hold      the default gestures, all hold

and, with hold, the time from the input batch that ends a rejected
three-finger tap to the client's first replayed event.  The difference of
`forward`/`hold` to `none` in the same run is what the gesture layer adds;
the rest is the socket round trips that every compositor has.

usage: bench/wlcomp-latency.py [--build BUILD] [--iterations N] [--markdown]
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "wlcomp"))
import scenarios  # noqa: E402


def now_us():
    return time.monotonic_ns() // 1000


def stamp(line):
    return int(line.split()[0])


def measure(comp, client, dev, n, what):
    """Latencies in microseconds of `what` ('down' or 'motion') events."""
    out = []
    if what == "motion":
        comp.cmds([f"down {dev} 0 200 300", f"frame {dev}"])
        client.wait_for(r"\d+ frame", timeout=5)
    for i in range(n):
        if what == "down":
            t0 = now_us()
            comp.cmds([f"down {dev} 0 200 300", f"frame {dev}"])
            got = client.wait_for(r"\d+ down .*", timeout=5)
            out.append(stamp(got[-1]) - t0)
            comp.cmds([f"up {dev} 0", f"frame {dev}"])
            client.wait_for(r"\d+ up 0", timeout=5)
            client.wait_for(r"\d+ frame", timeout=5)
        else:
            t0 = now_us()
            comp.cmds([f"motion {dev} 0 {200 + (i % 2)} 300", f"frame {dev}"])
            got = client.wait_for(r"\d+ motion .*", timeout=5)
            out.append(stamp(got[-1]) - t0)
            client.wait_for(r"\d+ frame", timeout=5)
    if what == "motion":
        comp.cmds([f"up {dev} 0", f"frame {dev}"])
        client.wait_for(r"\d+ frame", timeout=5)
    return out


def measure_replay(comp, client, dev, n):
    out = []
    for _ in range(n):
        comp.cmds([f"down {dev} {i} {100 + 40 * i} 300" for i in range(3)] + [f"frame {dev}"])
        t0 = now_us()
        comp.cmds([f"up {dev} {i}" for i in range(3)] + [f"frame {dev}"])
        got = client.wait_for(r"\d+ down .*", timeout=5)
        out.append(stamp(got[-1]) - t0)
        client.wait_for(r"\d+ up 2", timeout=5)
        client.wait_for(r"\d+ frame", timeout=5)
    return out


def summary(v):
    v = sorted(v)
    return statistics.median(v), v[int(0.9 * (len(v) - 1))], v[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    comp_exe = os.path.join(args.build, "tools", "wlcomp", "utouch-wlcomp")
    client_exe = os.path.join(args.build, "tests", "wlcomp", "touch-client")
    default_cfg = os.path.join(src, "tools", "wlcomp", "gestures.yaml")
    for exe in (comp_exe, client_exe):
        if not os.access(exe, os.X_OK):
            print(f"wlcomp-latency: {exe} is missing (build with -Dtests=true and wlroots 0.15)")
            return 1
    tmp = tempfile.mkdtemp(prefix="utouch-wlcomp-bench-")
    rows = []
    try:
        configs = {
            "none": "subscriptions:\n",
            "forward": open(default_cfg).read().replace("policy: hold", "policy: forward-then-cancel"),
            "hold": open(default_cfg).read(),
        }
        for name, text in configs.items():
            d = os.path.join(tmp, name)
            os.mkdir(d)
            cfg = os.path.join(d, "gestures.yaml")
            open(cfg, "w").write(text)
            comp = scenarios.Compositor(comp_exe, client_exe, cfg, d, real_clock=True)
            try:
                client = comp.client("A", 400, 600, env={"TOUCH_CLIENT_TIMES": "1"})
                dev = comp.cmd("add-touch")
                n = args.iterations
                # warm up
                measure(comp, client, dev, 10, "motion")
                rows.append((name, "down of a touch no gesture takes", summary(measure(comp, client, dev, n // 4 if name == "hold" else n, "down"))))
                rows.append((name, "motion of a delivered touch", summary(measure(comp, client, dev, n, "motion"))))
                if name == "hold":
                    rows.append((name, "3-finger tap: last up batch to the client",
                                 summary(measure_replay(comp, client, dev, n // 2))))
                elif name == "none":
                    rows.append((name, "3-finger tap: last up batch to the client",
                                 summary(measure_replay_none(comp, client, dev, n // 2))))
            finally:
                comp.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = {r[1]: r[2][0] for r in rows if r[0] == "none"}
    if args.markdown:
        print("| gestures | event | median µs | p90 µs | max µs | median − none |")
        print("|---|---|---:|---:|---:|---:|")
    for name, what, (med, p90, mx) in rows:
        diff = ""
        if name != "none" and what in base:
            diff = f"{med - base[what]:+.0f}"
        if args.markdown:
            print(f"| {name} | {what} | {med:.0f} | {p90:.0f} | {mx:.0f} | {diff} |")
        else:
            print(f"{name:8} {what:42} median {med:8.0f} us  p90 {p90:8.0f} us  max {mx:8.0f} us  {diff}")
    return 0


def measure_replay_none(comp, client, dev, n):
    """The same tap without gestures: the time to the client's `up`."""
    out = []
    for _ in range(n):
        comp.cmds([f"down {dev} {i} {100 + 40 * i} 300" for i in range(3)] + [f"frame {dev}"])
        client.wait_for(r"\d+ frame", timeout=5)
        t0 = now_us()
        comp.cmds([f"up {dev} {i}" for i in range(3)] + [f"frame {dev}"])
        got = client.wait_for(r"\d+ up .*", timeout=5)
        out.append(stamp(got[-1]) - t0)
        client.wait_for(r"\d+ frame", timeout=5)
    return out


if __name__ == "__main__":
    sys.exit(main())
