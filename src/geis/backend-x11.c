/*
 * geis backend for X11 (XInput 2.2 touch).
 *
 * - Input: the X connection's fd sits in the geis multiplexor.  Every XI
 *   generic event goes through frame_x11_process_event(); the frame
 *   events that come out of the frame handle are fed to the core.
 * - Regions are X windows.  The first active subscription on a window
 *   takes a touch grab there (XIGrabTouchBegin on all master devices);
 *   later ones share it; the last one releases it.  The core tells us
 *   through ops->grab() per (device, window); the grab itself is per
 *   window, so it is reference counted here.
 * - Accept and reject reach the server through frame: grail calls
 *   frame_accept_touch()/frame_reject_touch(), which frame_x11 turns into
 *   XIAllowTouchEvents().
 * - Time is X server time.  Between events the server clock is estimated
 *   from the last server timestamp seen plus the CLOCK_MONOTONIC time
 *   elapsed since; both run in milliseconds, so the estimate only drifts
 *   by the server's own clock error.  The backend arms its own timerfd
 *   (ops->set_timer) from this estimate, and timeouts therefore fire on
 *   server time without a round trip (the original used an XSync alarm on
 *   SERVERTIME for the same).  Before a touch event is seen, the backend
 *   asks the server for its time once, with no window of its own: an XSync
 *   alarm on the SERVERTIME counter that is true at once reports the
 *   counter's value (the calls geis 2.2 made, so programs running under
 *   its tests' Xlib mocks, or on servers that restrict window creation,
 *   keep working).  The "timestamp" attribute is this server time
 *   (modulo 2^31, see doc/geis.md).
 * - Timeouts and input go to grail in the original's order: at each read
 *   of the connection, the timeouts due by the server clock run first (the
 *   alarms the original read with that input and ran at once), then each
 *   frame, after the timeouts due by its own server time.
 * - When the X server goes away, Xlib's I/O error path would exit the
 *   process; an exit handler that returns keeps the application alive,
 *   and the backend then reports a GEIS error, removes its devices and
 *   stops watching the connection.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/sync.h>

#include <oif/frame_x11.h>

#include "geis/geis-backend.h"
#include "geis/backend-x11.h"
#include "util/array.h"
#include "util/clock.h"
#include "util/log.h"

struct x11_grab {
	Window window;
	unsigned int refs;
};

struct x11_backend {
	struct geis_backend base;
	char *display_name;
	Display *dpy;
	int own_display;
	int xi_opcode;
	UFHandle frame;
	int xfd, frame_fd;
	int timerfd;          /* grail timeouts, on the server clock estimate */
	Window root;
	int sync_event_base;  /* XSync's first event, -1 without XSync */
	XSyncAlarm time_alarm; /* asks for the server time once, then None */
	uint64_t server_ms;   /* last X server time seen */
	uint64_t mono_ms;     /* CLOCK_MONOTONIC when it was seen */
	int have_time;
	int dead;             /* the connection broke */
	struct x11_grab *grabs;
	unsigned int ngrabs, capgrabs;
};

/*
 * Xlib's default I/O error handler exits the process.  When the
 * application has not installed its own, geis installs one that only
 * reports; the exit itself then comes from each Display's exit handler,
 * which is still Xlib's default (exit) for the application's connections
 * and io_error_exit_handler (return) for geis's own.
 */
static int
io_error_report(Display *dpy)
{
	static const struct ut_log x11_log = UT_LOG_STATIC_INIT("geis");

	ut_log(&x11_log, UT_LOG_ERROR, "lost the connection to X server %s",
	       dpy ? DisplayString(dpy) : "?");
	return 0;
}

static void
install_io_error_handler(void)
{
	XIOErrorHandler app = XSetIOErrorHandler(NULL);
	XIOErrorHandler dflt = XSetIOErrorHandler(app);
	if (app == dflt)
		XSetIOErrorHandler(io_error_report);
}

/* Xlib calls this after an I/O error on geis's connection instead of
 * exit(); returning keeps the process alive and leaves the Display marked
 * as broken. */
static void
io_error_exit_handler(Display *dpy, void *data)
{
	(void)dpy;
	struct x11_backend *be = data;
	be->dead = 1;
}

/*
 * XSetIOErrorExitHandler() stores the handler in libX11's private part of
 * the Display.  A Display made by an XOpenDisplay() other than libX11's
 * (the originals' Xlib mocks allocate only the public part) has no such
 * part, so the handler is set only when both functions come from the same
 * object; such a display's I/O errors then end as that Xlib decides.
 */
static int
display_has_libx11_private_part(void)
{
	Dl_info open_info, exit_info;

	if (!dladdr((const void *)XOpenDisplay, &open_info) ||
	    !dladdr((const void *)XSetIOErrorExitHandler, &exit_info))
		return 0;
	return open_info.dli_fbase == exit_info.dli_fbase;
}

int
gs_backend_x11_can_open(void)
{
	Display *dpy = XOpenDisplay(NULL);

	if (!dpy)
		return 0;
	XCloseDisplay(dpy);
	return 1;
}

static void
note_server_time(struct x11_backend *be, uint64_t t)
{
	be->server_ms = t;
	be->mono_ms = ut_mono_ms();
	be->have_time = 1;
}

static uint64_t
x11_now(struct geis_backend *base)
{
	struct x11_backend *be = (struct x11_backend *)base;
	if (!be->have_time)
		return 0;
	return be->server_ms + (ut_mono_ms() - be->mono_ms);
}

/*
 * Hand every queued frame event to the core.  Grail's timeouts due at or
 * before a frame's server time run first, as geis 2.2's XSync alarms did:
 * the server sends an alarm before any input event it stamps later, so
 * the original always saw a timeout before the touch events after it.
 * Without this a frame read before the local timer expires (the estimate
 * lags by the delivery delay of the last event) would reach grail before
 * a timeout that the server time has passed, and "construction finished"
 * would flip one event late.
 */
static void
drain_frame(struct x11_backend *be)
{
	UFEvent ev;
	while (frame_get_event(be->frame, &ev) == UFStatusSuccess) {
		uint64_t t = frame_event_get_time(ev);
		if (t)
			note_server_time(be, t);
		if (t && frame_event_get_type(ev) == UFEventTypeFrame)
			gs_core_advance_time(be->base.geis, t);
		gs_core_frame_event(be->base.geis, ev);
		frame_event_unref(ev);
	}
}

static void
connection_lost(struct x11_backend *be)
{
	if (be->xfd >= 0) {
		gs_mux_remove(be->base.geis, be->xfd);
		be->xfd = -1;
	}
	if (be->frame_fd >= 0) {
		gs_mux_remove(be->base.geis, be->frame_fd);
		be->frame_fd = -1;
	}
	gs_core_error(be->base.geis, GEIS_STATUS_UNKNOWN_ERROR,
			"x11: the connection to the X server was lost");
	/* the devices are gone with the server */
	gs_core_remove_all_devices(be->base.geis);
}

static void
handle_x_event(struct x11_backend *be, XEvent *xev)
{
	if (be->sync_event_base >= 0 && xev->type == be->sync_event_base + XSyncAlarmNotify) {
		XSyncAlarmNotifyEvent *an = (XSyncAlarmNotifyEvent *)xev;

		if (be->time_alarm != None && an->alarm == be->time_alarm) {
			/* the low 32 bits are the X timestamp; frame_x11
			 * extends event times from there */
			if (!be->have_time)
				note_server_time(be, XSyncValueLow32(an->counter_value));
			XSyncDestroyAlarm(be->dpy, be->time_alarm);
			be->time_alarm = None;
		}
		return;
	}
	XGenericEventCookie *cookie = &xev->xcookie;
	if (cookie->type != GenericEvent || cookie->extension != be->xi_opcode)
		return;
	if (!XGetEventData(be->dpy, cookie))
		return;
	frame_x11_process_event(be->frame, cookie);
	XFreeEventData(be->dpy, cookie);
}

/*
 * Read what the server sent and feed it, in the order geis 2.2 did:
 * the server sent an XSync alarm as soon as its clock passed a timeout,
 * and geis 2.2 ran the alarms it read at once but fed the touch events
 * read with them to grail afterwards (from its frame callback).  So the
 * timeouts due by the server clock at this read run first, then each
 * frame, after the timeouts due by its own server time (drain_frame).
 */
static void
on_x_readable(void *data, int fd, uint32_t events)
{
	struct x11_backend *be = data;
	(void)fd;

	/* the alarms geis 2.2 would have read with this input */
	gs_core_input_read(be->base.geis);
	gs_core_advance_time(be->base.geis, x11_now(&be->base));
	if (!be->dead && (events & (EPOLLHUP | EPOLLERR)) == 0) {
		while (!be->dead && XPending(be->dpy) > 0) {
			XEvent xev;
			XNextEvent(be->dpy, &xev);
			if (be->dead)
				break;
			handle_x_event(be, &xev);
		}
	} else if (!be->dead) {
		/* let Xlib notice the broken connection */
		XNoOp(be->dpy);
		XSync(be->dpy, False);
		be->dead = 1;
	}
	drain_frame(be);
	if (be->dead)
		connection_lost(be);
}

static void
on_frame_readable(void *data, int fd, uint32_t events)
{
	(void)fd;
	(void)events;
	drain_frame(data);
}

/*
 * A grail timeout is due by the estimate of the server clock: a read of
 * the connection, which runs it before the input waiting there (see
 * on_x_readable).  The dispatch re-arms the timer afterwards.
 */
static void
on_timer(void *data, int fd, uint32_t events)
{
	struct x11_backend *be = data;
	uint64_t n;
	(void)events;

	if (read(fd, &n, sizeof(n)) < 0) {
		/* spurious wake-up: nothing to consume */
	}
	if (be->xfd >= 0)
		on_x_readable(be, be->xfd, EPOLLIN);
	else
		gs_core_advance_time(be->base.geis, x11_now(&be->base));
}

static void
x11_set_timer(struct geis_backend *base, uint64_t at)
{
	struct x11_backend *be = (struct x11_backend *)base;

	if (be->timerfd < 0)
		return;
	if (!at) {
		ut_timerfd_disarm(be->timerfd);
		return;
	}
	uint64_t now = x11_now(base);
	ut_timerfd_arm_ms(be->timerfd, at > now ? at - now : 0);
}

/*
 * Ask the server for its current time without a window: an alarm on the
 * SERVERTIME system counter whose condition (counter >= 0) already holds
 * fires at once, and its AlarmNotify carries the counter's value; with a
 * delta of 0 it fires only once.  Without XSync the time is known from
 * the first event that carries one.
 */
static void
request_server_time(struct x11_backend *be)
{
	int error_base, major, minor, n = 0;
	XSyncCounter servertime = None;

	be->sync_event_base = -1;
	if (!XSyncQueryExtension(be->dpy, &be->sync_event_base, &error_base) ||
	    !XSyncInitialize(be->dpy, &major, &minor)) {
		be->sync_event_base = -1;
		return;
	}
	XSyncSystemCounter *counters = XSyncListSystemCounters(be->dpy, &n);
	for (int i = 0; counters && i < n; i++)
		if (strcmp(counters[i].name, "SERVERTIME") == 0)
			servertime = counters[i].counter;
	if (counters)
		XSyncFreeSystemCounterList(counters);
	if (servertime == None)
		return;
	XSyncAlarmAttributes attrs;
	memset(&attrs, 0, sizeof(attrs));
	attrs.trigger.counter = servertime;
	attrs.trigger.value_type = XSyncAbsolute;
	XSyncIntsToValue(&attrs.trigger.wait_value, 0, 0);
	attrs.trigger.test_type = XSyncPositiveComparison;
	XSyncIntsToValue(&attrs.delta, 0, 0);
	attrs.events = True;
	be->time_alarm = XSyncCreateAlarm(be->dpy, XSyncCACounter | XSyncCAValueType |
					  XSyncCAValue | XSyncCATestType | XSyncCADelta |
					  XSyncCAEvents, &attrs);
}

static int
x11_start(struct geis_backend *base)
{
	struct x11_backend *be = (struct x11_backend *)base;
	Geis geis = base->geis;

	if (be->dpy)
		return 0;
	install_io_error_handler();
	be->dpy = XOpenDisplay(be->display_name);
	if (!be->dpy) {
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"x11: cannot open display %s",
				be->display_name ? be->display_name : "(DISPLAY)");
		return -ENOENT;
	}
	be->own_display = 1;
	if (display_has_libx11_private_part())
		XSetIOErrorExitHandler(be->dpy, io_error_exit_handler, be);
	int event, error;
	if (!XQueryExtension(be->dpy, "XInputExtension", &be->xi_opcode, &event, &error)) {
		gs_core_error(geis, GEIS_STATUS_NOT_SUPPORTED,
				"x11: the X server has no XInput extension");
		return -ENOTSUP;
	}
	int major = 2, minor = 2;
	if (XIQueryVersion(be->dpy, &major, &minor) != Success ||
	    major * 100 + minor < 202) {
		gs_core_error(geis, GEIS_STATUS_NOT_SUPPORTED,
				"x11: the X server supports XI %d.%d, touch needs 2.2",
				major, minor);
		return -ENOTSUP;
	}
	be->root = DefaultRootWindow(be->dpy);

	/* device hotplug on the root window */
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { .deviceid = XIAllDevices, .mask_len = sizeof(bits),
			     .mask = bits };
	XISetMask(bits, XI_HierarchyChanged);
	XISelectEvents(be->dpy, be->root, &mask, 1);

	if (frame_x11_new(be->dpy, &be->frame) != UFStatusSuccess) {
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"x11: cannot create the frame handle");
		return -ENOMEM;
	}
	be->xfd = ConnectionNumber(be->dpy);
	be->frame_fd = frame_get_fd(be->frame);
	be->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (be->timerfd < 0) {
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"x11: cannot create a timer: %s", strerror(errno));
		return -errno;
	}
	int r = gs_mux_add(geis, be->xfd, EPOLLIN, on_x_readable, be);
	if (r == 0 && be->frame_fd >= 0)
		r = gs_mux_add(geis, be->frame_fd, EPOLLIN, on_frame_readable, be);
	if (r == 0)
		r = gs_mux_add(geis, be->timerfd, EPOLLIN, on_timer, be);
	if (r < 0)
		return r;
	request_server_time(be);
	/* the time answer, and the devices frame_x11_new() found */
	XSync(be->dpy, False);
	on_x_readable(be, be->xfd, EPOLLIN);
	return 0;
}

static struct x11_grab *
find_grab(struct x11_backend *be, Window w)
{
	for (unsigned int i = 0; i < be->ngrabs; i++)
		if (be->grabs[i].window == w)
			return &be->grabs[i];
	return NULL;
}

/* the X error code seen while the trap was set (x11_grab()) */
static int x11_trapped_error;

static int
x11_trap_error(Display *dpy, XErrorEvent *ev)
{
	(void)dpy;
	x11_trapped_error = ev->error_code;
	return 0;
}

static int
x11_grab(struct geis_backend *base, UFDevice device, UFWindowId window, int on)
{
	struct x11_backend *be = (struct x11_backend *)base;
	(void)device;
	if (!be->dpy || be->dead)
		return 0;
	Window w = frame_x11_get_window_id(window);
	struct x11_grab *g = find_grab(be, w);

	if (on) {
		if (g) {
			g->refs++;
			return 0;
		}
		if (!UT_ARRAY_RESERVE(be->grabs, be->capgrabs, be->ngrabs + 1, 4)) {
			gs_core_error(base->geis, GEIS_STATUS_UNKNOWN_ERROR,
					"x11: out of memory");
			return -1;
		}
		unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
		XIEventMask mask = { .deviceid = XIAllMasterDevices,
				     .mask_len = sizeof(bits), .mask = bits };
		XISetMask(bits, XI_TouchBegin);
		XISetMask(bits, XI_TouchUpdate);
		XISetMask(bits, XI_TouchEnd);
		XISetMask(bits, XI_TouchOwnership);
		XIGrabModifiers mods = { .modifiers = XIAnyModifier };
		/* a window that does not exist (a v1 program's bad window id)
		 * is an X error: trapped, so it fails the activation instead of
		 * ending the program in Xlib's default handler */
		XSync(be->dpy, False);
		x11_trapped_error = 0;
		int (*old_handler)(Display *, XErrorEvent *) = XSetErrorHandler(x11_trap_error);
		int failed = XIGrabTouchBegin(be->dpy, XIAllMasterDevices, w, 0, &mask,
					      1, &mods);
		XSync(be->dpy, False);
		XSetErrorHandler(old_handler);
		if (x11_trapped_error) {
			gs_core_warning(base->geis, GEIS_STATUS_BAD_ARGUMENT,
					"x11: cannot take the touch grab on window 0x%lx: "
					"X error %d (no such window?)", (unsigned long)w,
					x11_trapped_error);
			return -1;
		}
		if (failed != 0 || mods.status != 0) {
			/* a warning, not only the error stack: the activation
			 * that asked for it fails (as in geis 2.2), and a program
			 * that goes on anyway gets no touch of the window, so its
			 * user must learn why */
			gs_core_warning(base->geis, GEIS_STATUS_UNKNOWN_ERROR,
					"x11: cannot take the touch grab on window 0x%lx: "
					"another client holds one there (a second gesture "
					"program?); no touch there reaches this one",
					(unsigned long)w);
			return -1;
		}
		XFlush(be->dpy);
		be->grabs[be->ngrabs++] = (struct x11_grab){ .window = w, .refs = 1 };
	} else if (g && --g->refs == 0) {
		XIGrabModifiers mods = { .modifiers = XIAnyModifier };
		XIUngrabTouchBegin(be->dpy, XIAllMasterDevices, w, 1, &mods);
		XFlush(be->dpy);
		*g = be->grabs[--be->ngrabs];
	}
	return 0;
}

static void
x11_destroy(struct geis_backend *base)
{
	struct x11_backend *be = (struct x11_backend *)base;
	if (be->xfd >= 0)
		gs_mux_remove(base->geis, be->xfd);
	if (be->frame_fd >= 0)
		gs_mux_remove(base->geis, be->frame_fd);
	if (be->timerfd >= 0) {
		gs_mux_remove(base->geis, be->timerfd);
		close(be->timerfd);
	}
	if (be->frame)
		frame_x11_delete(be->frame);
	if (be->dpy && be->own_display) {
		if (!be->dead) {
			XIGrabModifiers mods = { .modifiers = XIAnyModifier };
			for (unsigned int i = 0; i < be->ngrabs; i++)
				XIUngrabTouchBegin(be->dpy, XIAllMasterDevices,
						   be->grabs[i].window, 1, &mods);
			if (be->time_alarm != None)
				XSyncDestroyAlarm(be->dpy, be->time_alarm);
		}
		XCloseDisplay(be->dpy);
	}
	free(be->grabs);
	free(be->display_name);
	free(be);
}

static UFWindowId x11_root_op(struct geis_backend *base);

static const struct geis_backend_ops x11_ops = {
	.name = "x11",
	.start = x11_start,
	.destroy = x11_destroy,
	.now = x11_now,
	.set_timer = x11_set_timer,
	.grab = x11_grab,
	.root_window = x11_root_op,
	.server_clock = 1,
	.xsync_alarms = 1,
};

struct geis_backend *
gs_backend_x11_new(Geis geis, const char *display_name)
{
	struct x11_backend *be = calloc(1, sizeof(*be));
	if (!be)
		return NULL;
	be->base.ops = &x11_ops;
	be->base.geis = geis;
	be->xfd = -1;
	be->frame_fd = -1;
	be->timerfd = -1;
	be->sync_event_base = -1;
	if (display_name && !(be->display_name = strdup(display_name))) {
		free(be);
		return NULL;
	}
	return &be->base;
}

UFWindowId
gs_backend_x11_root(struct geis_backend *base)
{
	if (!base || base->ops != &x11_ops)
		return 0;
	struct x11_backend *be = (struct x11_backend *)base;
	if (!be->dpy && x11_start(base) < 0)
		return 0;
	return frame_x11_create_window_id(be->root);
}

static UFWindowId
x11_root_op(struct geis_backend *base)
{
	return gs_backend_x11_root(base);
}
