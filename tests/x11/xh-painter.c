/*
 * A painting client for the X11 end-to-end tests.  See xh-painter.h.
 */
#include "xh-painter.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <X11/Xutil.h>
#include <X11/extensions/XInput2.h>

static double
mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
painter_open_at(struct painter *p, const char *display, int x, int y, int w, int h,
		const char *wm_class, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->dpy = XOpenDisplay(display);
	if (!p->dpy) {
		snprintf(err, errlen, "painter: cannot open %s", display);
		return -1;
	}
	int ev, er;
	if (!XQueryExtension(p->dpy, "XInputExtension", &p->xi_opcode, &ev, &er)) {
		snprintf(err, errlen, "painter: no XInputExtension");
		painter_close(p);
		return -1;
	}
	int major = 2, minor = 2;
	XIQueryVersion(p->dpy, &major, &minor);
	p->win = XCreateSimpleWindow(p->dpy, DefaultRootWindow(p->dpy), x, y, (unsigned)w,
				     (unsigned)h, 0, 0, 0);
	/* no window manager: ask for no decoration by being override-redirect */
	XSetWindowAttributes attrs = { .override_redirect = True };
	XChangeWindowAttributes(p->dpy, p->win, CWOverrideRedirect, &attrs);
	if (wm_class) {
		XClassHint hint = { .res_name = (char *)wm_class, .res_class = (char *)wm_class };
		XSetClassHint(p->dpy, p->win, &hint);
	}
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { .deviceid = XIAllMasterDevices, .mask_len = sizeof(bits),
			     .mask = bits };
	XISetMask(bits, XI_TouchBegin);
	XISetMask(bits, XI_TouchUpdate);
	XISetMask(bits, XI_TouchEnd);
	XISelectEvents(p->dpy, p->win, &mask, 1);
	XMapRaised(p->dpy, p->win);
	XSync(p->dpy, False);
	return 0;
}

void
painter_pump(struct painter *p)
{
	XSync(p->dpy, False);
	while (XPending(p->dpy)) {
		XEvent xev;
		XNextEvent(p->dpy, &xev);
		XGenericEventCookie *c = &xev.xcookie;
		if (c->type != GenericEvent || c->extension != p->xi_opcode ||
		    !XGetEventData(p->dpy, c))
			continue;
		if (c->evtype == XI_TouchBegin || c->evtype == XI_TouchUpdate ||
		    c->evtype == XI_TouchEnd) {
			const XIDeviceEvent *d = c->data;
			if (p->n < (int)(sizeof(p->ev) / sizeof(p->ev[0])))
				p->ev[p->n++] = (struct raw_touch){
					.type = c->evtype, .id = (unsigned int)d->detail,
					.x = d->event_x, .y = d->event_y, .t = mono_ms() };
		}
		XFreeEventData(p->dpy, c);
	}
}

int
painter_count(const struct painter *p, int type)
{
	int n = 0;
	for (int i = 0; i < p->n; i++)
		n += p->ev[i].type == type;
	return n;
}

void
painter_close(struct painter *p)
{
	if (p->dpy)
		XCloseDisplay(p->dpy);
	p->dpy = NULL;
}
