/*
 * utouch-gestured: the daemon's own X connection.
 */
#include "gd-x11.h"
#include "gd-keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>

struct gd_x11 {
	Display *dpy;
	int dead;
	int have_xtest;
};

/* Errors on our requests (a window that went away between two calls)
 * are expected; the default handler would exit. */
static int
ignore_x_error(Display *dpy, XErrorEvent *e)
{
	(void)dpy;
	(void)e;
	return 0;
}

/* The process-wide I/O error handler: report, then Xlib calls the
 * connection's exit handler, which returns. */
static int
report_io_error(Display *dpy)
{
	fprintf(stderr, "utouch-gestured: lost the connection to X server %s\n",
		dpy ? DisplayString(dpy) : "?");
	return 0;
}

static void
mark_dead(Display *dpy, void *data)
{
	(void)dpy;
	struct gd_x11 *x = data;
	x->dead = 1;
}

struct gd_x11 *
gd_x11_open(const char *display, char *err, size_t errlen)
{
	struct gd_x11 *x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	XSetIOErrorHandler(report_io_error);
	x->dpy = XOpenDisplay(display);
	if (!x->dpy) {
		const char *name = display ? display : getenv("DISPLAY");
		snprintf(err, errlen, "cannot open X display %s", name ? name : "(DISPLAY unset)");
		free(x);
		return NULL;
	}
	XSetIOErrorExitHandler(x->dpy, mark_dead, x);
	XSetErrorHandler(ignore_x_error);
	int ev, er, maj, min;
	x->have_xtest = XTestQueryExtension(x->dpy, &ev, &er, &maj, &min);
	return x;
}

void
gd_x11_close(struct gd_x11 *x)
{
	if (!x)
		return;
	/* closing a dead connection would only raise the I/O error again */
	if (!x->dead)
		XCloseDisplay(x->dpy);
	free(x);
}

int
gd_x11_fd(const struct gd_x11 *x)
{
	return x->dead ? -1 : ConnectionNumber(x->dpy);
}

int
gd_x11_dispatch(struct gd_x11 *x)
{
	if (x->dead)
		return -1;
	/* XPending reads the socket: at EOF the I/O error marks us dead */
	while (!x->dead && XPending(x->dpy) > 0) {
		XEvent e;
		XNextEvent(x->dpy, &e);
	}
	return x->dead ? -1 : 0;
}

int
gd_x11_dead(const struct gd_x11 *x)
{
	return x->dead;
}

void
gd_x11_mm_per_px(const struct gd_x11 *x, double *mm_x, double *mm_y)
{
	int scr = DefaultScreen(x->dpy);
	int w = DisplayWidth(x->dpy, scr), wmm = DisplayWidthMM(x->dpy, scr);
	int h = DisplayHeight(x->dpy, scr), hmm = DisplayHeightMM(x->dpy, scr);
	/* a screen without a size: 96 dpi */
	*mm_x = w > 0 && wmm > 0 ? (double)wmm / w : 25.4 / 96.0;
	*mm_y = h > 0 && hmm > 0 ? (double)hmm / h : 25.4 / 96.0;
}

void
gd_x11_screen_size(const struct gd_x11 *x, double *w, double *h)
{
	int scr = DefaultScreen(x->dpy);
	*w = DisplayWidth(x->dpy, scr);
	*h = DisplayHeight(x->dpy, scr);
}

static void
copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int
gd_x11_class_at(struct gd_x11 *x, double rx, double ry, char *inst, char *cls, size_t len)
{
	inst[0] = cls[0] = '\0';
	if (x->dead)
		return -1;
	Window root = DefaultRootWindow(x->dpy);
	Window w = root, child = None;
	int cx, cy;
	/* walk down from the root, each step the child at the point */
	for (int depth = 0; depth < 32; depth++) {
		if (!XTranslateCoordinates(x->dpy, root, w, (int)rx, (int)ry, &cx, &cy, &child) ||
		    child == None)
			break;
		w = child;
		XClassHint hint = { NULL, NULL };
		if (XGetClassHint(x->dpy, w, &hint)) {
			copy_str(inst, len, hint.res_name);
			copy_str(cls, len, hint.res_class);
			XFree(hint.res_name);
			XFree(hint.res_class);
			return 0;
		}
	}
	return -1;
}

int
gd_x11_pointer(struct gd_x11 *x, double *rx, double *ry)
{
	Window root, child;
	int px, py, wx, wy;
	unsigned int mask;
	if (x->dead || !XQueryPointer(x->dpy, DefaultRootWindow(x->dpy), &root, &child, &px, &py,
				      &wx, &wy, &mask))
		return -1;
	*rx = px;
	*ry = py;
	return 0;
}

/* 1 with a reason when XTest cannot be used */
static int
xtest_unusable(const struct gd_x11 *x, char *err, size_t errlen)
{
	if (x->dead)
		snprintf(err, errlen, "the X server is gone");
	else if (!x->have_xtest)
		snprintf(err, errlen, "the X server has no XTEST extension");
	else
		return 0;
	return 1;
}

int
gd_x11_send_keys(struct gd_x11 *x, const char *keys, char *err, size_t errlen)
{
	unsigned long syms[GD_KEYS_MAX];
	KeyCode codes[GD_KEYS_MAX];
	if (xtest_unusable(x, err, errlen))
		return -1;
	int n = gd_keys_parse(keys, syms, err, errlen);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		codes[i] = XKeysymToKeycode(x->dpy, (KeySym)syms[i]);
		if (!codes[i]) {
			snprintf(err, errlen, "no key of the keyboard map gives \"%s\"",
				 XKeysymToString((KeySym)syms[i]));
			return -1;
		}
	}
	for (int i = 0; i < n; i++)
		XTestFakeKeyEvent(x->dpy, codes[i], True, CurrentTime);
	for (int i = n - 1; i >= 0; i--)
		XTestFakeKeyEvent(x->dpy, codes[i], False, CurrentTime);
	XFlush(x->dpy);
	return 0;
}

int
gd_x11_click(struct gd_x11 *x, int button, double rx, double ry, char *err, size_t errlen)
{
	if (xtest_unusable(x, err, errlen))
		return -1;
	if (rx >= 0)
		XTestFakeMotionEvent(x->dpy, -1, (int)(rx + 0.5), (int)(ry + 0.5), CurrentTime);
	XTestFakeButtonEvent(x->dpy, (unsigned int)button, True, CurrentTime);
	XTestFakeButtonEvent(x->dpy, (unsigned int)button, False, CurrentTime);
	XFlush(x->dpy);
	return 0;
}
