#!/usr/bin/env python3
"""The compositor library's files call in one direction (comp-private.h):
a file may call functions of its own layer's entry points or of lower
layers, never of a higher one.  Fails with the calls that go up.

usage: check-layers.py SRCDIR
"""
import os
import re
import sys

# lowest first; entry points share a layer and may call each other
LAYERS = [
    ["comp-log.c"],
    ["comp-queue.c"],
    ["comp-hold.c"],
    ["comp-touch.c"],
    ["comp-gesture.c"],
    ["comp-step.c"],
    ["comp-context.c", "comp-input.c", "comp-device.c", "comp-subscription.c"],
    ["comp-config.c"],
]
DEF = re.compile(r"^(?:UTOUCH_COMP_PUBLIC\s+)?(?:static\s+)?[A-Za-z_][\w \*]*\n(\w+)\(", re.M)


def main():
    src = sys.argv[1]
    level = {f: i for i, fs in enumerate(LAYERS) for f in fs}
    text = {f: open(os.path.join(src, f)).read() for f in level}
    defined = {}
    for f, s in text.items():
        for name in DEF.findall(s):
            if not re.search(r"^static\s[^\n]*\n" + name + r"\(", s, re.M):
                defined[name] = f
    # inline helpers of the private header count as the layer that owns them
    bad = []
    for f, s in text.items():
        for name, home in defined.items():
            if home != f and level[home] > level[f] and re.search(r"\b" + name + r"\(", s):
                bad.append(f"{f} calls {name}() of {home}, a higher layer")
    unknown = sorted(set(n for n in os.listdir(src) if n.endswith(".c")) - set(level))
    if unknown:
        print(f"files with no layer in check-layers.py: {unknown}")
        return 1
    for b in bad:
        print(b)
    print(f"{len(defined)} functions in {len(level)} files, {len(bad)} calls up")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
