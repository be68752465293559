#!/usr/bin/env python3
"""The X calls of libutouch-geis: those geis 2.2.17 made, and the few
doc/geis.md lists as ours ("The X11 backend").  Programs run geis under
Xlib mocks written for geis 2.2 (the originals' own X11 tests) or on
servers that restrict what a client may do, so a new X call is a change a
program can see: add it here only with its reason in doc/geis.md.

usage: check-x-calls.py LIBUTOUCH_GEIS_SO
"""
import subprocess
import sys

# what geis 2.2.17's libgeis.so.1 imports from libX11, libXi and libXext
GEIS_22 = {
    'XCloseDisplay', 'XFlush', 'XFreeEventData', 'XGetErrorText', 'XGetEventData',
    'XIGrabTouchBegin', 'XIQueryVersion', 'XISelectEvents', 'XIUngrabTouchBegin',
    'XNextEvent', 'XOpenDisplay', 'XPending', 'XQueryExtension', 'XSetErrorHandler',
    'XSync', 'XSyncCreateAlarm', 'XSyncDestroyAlarm', 'XSyncFreeSystemCounterList',
    'XSyncInitialize', 'XSyncIntsToValue', 'XSyncListSystemCounters',
    'XSyncQueryExtension', 'XSyncValueHigh32', 'XSyncValueLow32',
}
# ours, each with its reason in doc/geis.md: keeping the process alive when
# the server goes away, and letting Xlib notice a broken connection
OURS = {'XSetIOErrorHandler', 'XSetIOErrorExitHandler', 'XNoOp'}

out = subprocess.run(['nm', '-D', '--undefined-only', sys.argv[1]], check=True,
                     capture_output=True, text=True).stdout
calls = {line.split()[-1].split('@')[0] for line in out.splitlines() if line.strip()}
x_calls = {c for c in calls if c.startswith('X')}
extra = sorted(x_calls - GEIS_22 - OURS)
if extra:
    print('libutouch-geis calls X functions geis 2.2 did not and doc/geis.md does not '
          'list: ' + ', '.join(extra))
    sys.exit(1)
print('X calls: %d of geis 2.2, %d of ours' % (len(x_calls & GEIS_22), len(x_calls & OURS)))
