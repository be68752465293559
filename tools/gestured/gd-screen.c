/*
 * utouch-gestured: how the screen is turned (RandR), for "orientation: auto".
 */
#include "gd-screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef GD_HAVE_XRANDR
#include <X11/Xlib.h>
#include <X11/extensions/Xrandr.h>
#endif

/* RandR's rotation bits (randr.h), so that the mapping needs no X headers */
enum { ROT_0 = 1, ROT_90 = 2, ROT_180 = 4, ROT_270 = 8 };

struct gd_screen {
	enum gd_orientation orient;
	double width, height;   /* 0: unknown */
	char output[32];
	gd_screen_query query;
	void *query_data;
#ifdef GD_HAVE_XRANDR
	Display *dpy;
	int rr_event_base;
	int dead;
	struct gd_screen *next;   /* in the list of connected screens */
#endif
};

enum gd_orientation
gd_screen_orientation_of(unsigned rotation)
{
	switch (rotation & (ROT_0 | ROT_90 | ROT_180 | ROT_270)) {
	case ROT_90:
		return GD_ORIENT_LEFT;
	case ROT_180:
		return GD_ORIENT_INVERTED;
	case ROT_270:
		return GD_ORIENT_RIGHT;
	default:
		return GD_ORIENT_NORMAL;
	}
}

/* a laptop's or tablet's own panel, where touchscreens are */
static int
builtin_panel(const char *name)
{
	static const char *const prefixes[] = { "eDP", "LVDS", "DSI" };
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncasecmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

int
gd_screen_pick(const struct gd_screen_output *outs, size_t n)
{
	int primary = -1, first = -1;
	for (size_t i = 0; i < n; i++) {
		if (!outs[i].active)
			continue;
		if (builtin_panel(outs[i].name))
			return (int)i;
		if (outs[i].primary && primary < 0)
			primary = (int)i;
		if (first < 0)
			first = (int)i;
	}
	return primary >= 0 ? primary : first;
}

struct gd_screen *
gd_screen_new(void)
{
	struct gd_screen *s = calloc(1, sizeof(*s));
	if (s)
		s->orient = GD_ORIENT_NORMAL;
	return s;
}

int
gd_screen_update(struct gd_screen *s, const struct gd_screen_output *outs, size_t n,
		 double width, double height)
{
	int i = gd_screen_pick(outs, n);
	enum gd_orientation o = i >= 0 ? gd_screen_orientation_of(outs[i].rotation)
				       : GD_ORIENT_NORMAL;
	int changed = o != s->orient || width != s->width || height != s->height;
	s->orient = o;
	s->width = width;
	s->height = height;
	snprintf(s->output, sizeof(s->output), "%s", i >= 0 ? outs[i].name : "");
	return changed;
}

enum gd_orientation
gd_screen_orientation(const struct gd_screen *s)
{
	return s->orient;
}

const char *
gd_screen_output_name(const struct gd_screen *s)
{
	return s->output;
}

int
gd_screen_size(const struct gd_screen *s, double *width, double *height)
{
	if (s->width <= 0 || s->height <= 0)
		return -1;
	*width = s->width;
	*height = s->height;
	return 0;
}

void
gd_screen_set_query(struct gd_screen *s, gd_screen_query query, void *data)
{
	s->query = query;
	s->query_data = data;
}

#ifdef GD_HAVE_XRANDR

/* the server's outputs and screen size */
static int
server_query(struct gd_screen *s, struct gd_screen_output *outs, size_t max, double *width,
	     double *height)
{
	Window root = DefaultRootWindow(s->dpy);
	XRRScreenResources *res = XRRGetScreenResourcesCurrent(s->dpy, root);
	if (!res)
		return -1;
	RROutput primary = XRRGetOutputPrimary(s->dpy, root);
	size_t n = 0;
	for (int i = 0; i < res->noutput && n < max; i++) {
		XRROutputInfo *oi = XRRGetOutputInfo(s->dpy, res, res->outputs[i]);
		if (!oi)
			continue;
		struct gd_screen_output *o = &outs[n++];
		memset(o, 0, sizeof(*o));
		snprintf(o->name, sizeof(o->name), "%.*s", oi->nameLen, oi->name);
		o->primary = res->outputs[i] == primary;
		if (oi->connection == RR_Connected && oi->crtc) {
			XRRCrtcInfo *ci = XRRGetCrtcInfo(s->dpy, res, oi->crtc);
			if (ci) {
				o->active = ci->mode != None;
				o->rotation = ci->rotation;
				XRRFreeCrtcInfo(ci);
			}
		}
		XRRFreeOutputInfo(oi);
	}
	XRRFreeScreenResources(res);
	int scr = DefaultScreen(s->dpy);
	*width = DisplayWidth(s->dpy, scr);
	*height = DisplayHeight(s->dpy, scr);
	return (int)n;
}

/* the outputs, from the stand-in or the server; 1 when the state changed,
 * 0 when not, -1 when they could not be read */
static int
refresh(struct gd_screen *s)
{
	struct gd_screen_output outs[GD_SCREEN_MAX_OUTPUTS];
	double w = 0, h = 0;
	int n = s->query ? s->query(s->query_data, outs, GD_SCREEN_MAX_OUTPUTS, &w, &h)
			 : server_query(s, outs, GD_SCREEN_MAX_OUTPUTS, &w, &h);
	if (n < 0)
		return -1;
	return gd_screen_update(s, outs, (size_t)n, w, h);
}

/* errors on our requests (an output that went away between two calls)
 * are expected; Xlib's default handler would exit */
static int
ignore_x_error(Display *dpy, XErrorEvent *e)
{
	(void)dpy;
	(void)e;
	return 0;
}

static void
mark_dead(Display *dpy, void *data)
{
	(void)dpy;
	struct gd_screen *s = data;
	s->dead = 1;
}

/* Xlib's I/O error handler is the process's: ours returns (then the
 * connection's exit handler marks it dead) for the connections of this
 * file and hands the others to the handler that was there before */
static struct gd_screen *connected;
static XIOErrorHandler previous_io_handler;

static int
screen_io_error(Display *dpy)
{
	for (struct gd_screen *s = connected; s; s = s->next)
		if (s->dpy == dpy)
			return 0;
	return previous_io_handler ? previous_io_handler(dpy) : 0;
}

static void
unlink_screen(struct gd_screen *s)
{
	for (struct gd_screen **p = &connected; *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
}

int
gd_screen_connect(struct gd_screen *s, const char *display, char *err, size_t errlen)
{
	if (s->dpy) {
		snprintf(err, errlen, "already connected");
		return -1;
	}
	XIOErrorHandler prev = XSetIOErrorHandler(screen_io_error);
	if (prev != screen_io_error)
		previous_io_handler = prev;
	Display *dpy = XOpenDisplay(display);
	if (!dpy) {
		const char *name = display ? display : getenv("DISPLAY");
		snprintf(err, errlen, "cannot open X display %s", name ? name : "(DISPLAY unset)");
		return -1;
	}
	int ev, er, maj = 0, min = 0;
	if (!XRRQueryExtension(dpy, &ev, &er) || !XRRQueryVersion(dpy, &maj, &min) ||
	    maj < 1 || (maj == 1 && min < 2)) {
		snprintf(err, errlen, "the X server %s has no RandR 1.2 (it has %d.%d)",
			 DisplayString(dpy), maj, min);
		XCloseDisplay(dpy);
		return -1;
	}
	XSetIOErrorExitHandler(dpy, mark_dead, s);
	XSetErrorHandler(ignore_x_error);
	s->dpy = dpy;
	s->dead = 0;
	s->rr_event_base = ev;
	s->next = connected;
	connected = s;
	XRRSelectInput(dpy, DefaultRootWindow(dpy),
		       RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask);
	if (refresh(s) < 0) {
		snprintf(err, errlen, "the X server %s did not describe its outputs",
			 DisplayString(dpy));
		unlink_screen(s);
		XCloseDisplay(dpy);
		s->dpy = NULL;
		return -1;
	}
	return 0;
}

int
gd_screen_connected(const struct gd_screen *s)
{
	return s->dpy && !s->dead;
}

int
gd_screen_fd(const struct gd_screen *s)
{
	return gd_screen_connected(s) ? ConnectionNumber(s->dpy) : -1;
}

int
gd_screen_dispatch(struct gd_screen *s)
{
	if (!gd_screen_connected(s))
		return s->dpy ? -1 : 0;
	int changes = 0;
	/* XPending reads the socket: at EOF the I/O error marks us dead */
	while (!s->dead && XPending(s->dpy) > 0) {
		XEvent e;
		XNextEvent(s->dpy, &e);
		if (e.type == s->rr_event_base + RRScreenChangeNotify) {
			/* Xlib's idea of the screen size follows only through this */
			XRRUpdateConfiguration(&e);
			changes++;
		} else if (e.type == s->rr_event_base + RRNotify) {
			changes++;
		}
	}
	if (s->dead)
		return -1;
	/* one read for a burst of events: a rotation sends several */
	return changes ? refresh(s) > 0 : 0;
}

static void
screen_close(struct gd_screen *s)
{
	/* closing a dead connection would only raise the I/O error again */
	if (s->dpy && !s->dead)
		XCloseDisplay(s->dpy);
	if (s->dpy)
		unlink_screen(s);
	s->dpy = NULL;
}

#else /* !GD_HAVE_XRANDR */

int
gd_screen_connect(struct gd_screen *s, const char *display, char *err, size_t errlen)
{
	(void)s, (void)display;
	snprintf(err, errlen, "this utouch-gestured was built without RandR (libxrandr)");
	return -1;
}

int
gd_screen_connected(const struct gd_screen *s)
{
	(void)s;
	return 0;
}

int
gd_screen_fd(const struct gd_screen *s)
{
	(void)s;
	return -1;
}

int
gd_screen_dispatch(struct gd_screen *s)
{
	(void)s;
	return 0;
}

static void
screen_close(struct gd_screen *s)
{
	(void)s;
}

#endif /* GD_HAVE_XRANDR */

void
gd_screen_free(struct gd_screen *s)
{
	if (!s)
		return;
	screen_close(s);
	free(s);
}
