"""A GTK 3 window (python3-gi) that prints the touch events GTK hands it,
as a user's GTK program would get them, for wlcomp-toolkits:

  mapped                  the window is on screen
  begin N X Y             GDK_TOUCH_BEGIN of sequence N (0, 1, 2... in order)
  update N X Y            GDK_TOUCH_UPDATE
  end N X Y               GDK_TOUCH_END
  cancel N X Y            GDK_TOUCH_CANCEL

X, Y are window coordinates; the window has no decorations, so they are
surface-local.  usage: gtk-touch.py TITLE WIDTH HEIGHT
"""
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402


def main():
    title, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    win = Gtk.Window(title=title)
    win.set_decorated(False)
    win.set_default_size(w, h)
    area = Gtk.DrawingArea()
    area.add_events(Gdk.EventMask.TOUCH_MASK)
    seqs = {}    # sequences down -> their numbers (GDK reuses sequence values)
    count = [0]
    names = {Gdk.EventType.TOUCH_BEGIN: "begin", Gdk.EventType.TOUCH_UPDATE: "update",
             Gdk.EventType.TOUCH_END: "end", Gdk.EventType.TOUCH_CANCEL: "cancel"}

    def on_touch(widget, ev):
        if ev.type == Gdk.EventType.TOUCH_BEGIN:
            seqs[ev.sequence] = count[0]
            count[0] += 1
        n = seqs.get(ev.sequence, -1)
        if ev.type in (Gdk.EventType.TOUCH_END, Gdk.EventType.TOUCH_CANCEL):
            seqs.pop(ev.sequence, None)
        print(f"{names[ev.type]} {n} {ev.x:.2f} {ev.y:.2f}", flush=True)
        return True

    area.connect("touch-event", on_touch)
    win.add(area)
    win.connect("destroy", Gtk.main_quit)
    win.connect("map-event", lambda *a: print("mapped", flush=True) and False)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
