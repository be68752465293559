/*
 * End-to-end tests of the X11 backend against a real, headless Xorg with
 * inputtest touch screens (see xorg-harness.h).  Each test starts its own
 * server; the program exits 77 (skip) when Xorg cannot run here.
 *
 * Clients:
 * - "fx" (fixture.dpy): the frame_x11 user.  Depending on the test it
 *   takes a touch grab on the root window (a window manager) or selects
 *   touch events on a child window (an application).
 * - "other" (fixture.other): a plain XI2 client on the same server, used
 *   to see where the server sends touches after accept / reject.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>

#include <oif/frame_x11.h>
#include <utouch/frame_handle.h>

#include "xorg-harness.h"

/* The application window: position and size on the screen. */
#define WIN_X 100
#define WIN_Y 50
#define WIN_W 400
#define WIN_H 300

#define MAX_EVENTS 64
#define COORD_EPS 0.01

struct fixture {
	struct xh_server xs;
	Display *dpy;   /* the frame_x11 client */
	Display *other; /* a second client */
	int opcode;
	Window root;
	Window win;     /* child window of the root, created by "other" */
	UFHandle handle;
	UFEvent events[MAX_EVENTS];
	int num_events;
	/* raw touch events "other" received */
	int other_types[MAX_EVENTS];
	double other_x[MAX_EVENTS];
	int num_other;
	/* feed cookies built by hand, with only extension, evtype and data
	 * set (type 0), as test fixtures written for frame 2.5 do */
	int hand_built;
};

static int x_errors;
static int last_x_error;

static int
count_x_error(Display *dpy, XErrorEvent *ev)
{
	x_errors++;
	last_x_error = ev->error_code;
	return 0;
}

static int io_errors;

static int
count_io_error(Display *dpy)
{
	io_errors++;
	return 0;
}

static void
io_error_exit(Display *dpy, void *data)
{
	/* return instead of exit(): the test goes on without the server */
}

/*
 * Fixture
 */

static Display *
open_client(struct fixture *fx)
{
	Display *dpy = xh_open_client(&fx->xs);

	assert_non_null(dpy);
	return dpy;
}

static int
setup_n(void **state, int ndevices)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	int ev, err;
	int rc;

	assert_non_null(fx);
	rc = xh_start(&fx->xs, ndevices);
	if (rc != 0) {
		fprintf(stderr, "xh_start: %s\n", fx->xs.error);
		free(fx);
		return -1;
	}
	XSetErrorHandler(count_x_error);
	x_errors = 0;
	io_errors = 0;
	fx->dpy = open_client(fx);
	fx->other = open_client(fx);
	assert_true(XQueryExtension(fx->dpy, "XInputExtension", &fx->opcode, &ev, &err));
	fx->root = DefaultRootWindow(fx->dpy);
	fx->win = XCreateSimpleWindow(fx->other, DefaultRootWindow(fx->other), WIN_X, WIN_Y,
				      WIN_W, WIN_H, 0, 0, 0);
	XMapWindow(fx->other, fx->win);
	XSync(fx->other, False);
	*state = fx;
	return 0;
}

static int
setup(void **state)
{
	return setup_n(state, 1);
}

static int
setup2(void **state)
{
	return setup_n(state, 2);
}

static void
drop_events(struct fixture *fx)
{
	for (int i = 0; i < fx->num_events; i++)
		frame_event_unref(fx->events[i]);
	fx->num_events = 0;
}

static int
teardown(void **state)
{
	struct fixture *fx = *state;

	drop_events(fx);
	frame_x11_delete(fx->handle);
	if (fx->xs.pid > 0) {
		XCloseDisplay(fx->other);
		XCloseDisplay(fx->dpy);
	}
	xh_stop(&fx->xs);
	free(fx);
	return 0;
}

static void
select_touch(Display *dpy, Window win, bool ownership)
{
	assert_int_equal(xh_select_touch(dpy, win, ownership), 0);
}

static void
select_hierarchy(Display *dpy)
{
	assert_int_equal(xh_select_hierarchy(dpy), 0);
}

/* A window manager style touch grab on the root window. */
static void
grab_root(Display *dpy)
{
	assert_int_equal(xh_grab_touch(dpy, DefaultRootWindow(dpy)), 0);
}

static void
new_frame_x11(struct fixture *fx)
{
	assert_int_equal(frame_x11_new(fx->dpy, &fx->handle), UFStatusSuccess);
	assert_non_null(fx->handle);
	assert_true(frame_get_fd(fx->handle) >= 0);
}

/* Collect the frame library's queued events. */
static void
take_events(struct fixture *fx)
{
	UFEvent ev;

	while (frame_get_event(fx->handle, &ev) == UFStatusSuccess) {
		assert_true(fx->num_events < MAX_EVENTS);
		fx->events[fx->num_events++] = ev;
	}
}

/* Feed everything the frame_x11 client received into frame_x11. */
static void
pump(struct fixture *fx)
{
	XSync(fx->dpy, False);
	while (XPending(fx->dpy) > 0) {
		XEvent xev;

		XNextEvent(fx->dpy, &xev);
		if (xev.type != GenericEvent || xev.xcookie.extension != fx->opcode)
			continue;
		assert_true(XGetEventData(fx->dpy, &xev.xcookie));
		if (fx->hand_built) {
			XGenericEventCookie cookie;

			memset(&cookie, 0, sizeof(cookie));
			cookie.extension = xev.xcookie.extension;
			cookie.evtype = xev.xcookie.evtype;
			cookie.data = xev.xcookie.data;
			assert_int_equal(frame_x11_process_event(fx->handle, &cookie),
					 UFStatusSuccess);
		} else {
			assert_int_equal(frame_x11_process_event(fx->handle, &xev.xcookie),
					 UFStatusSuccess);
		}
		XFreeEventData(fx->dpy, &xev.xcookie);
	}
	take_events(fx);
}

/* Record the touch events the second client received. */
static void
pump_other(struct fixture *fx)
{
	XSync(fx->other, False);
	while (XPending(fx->other) > 0) {
		XEvent xev;

		XNextEvent(fx->other, &xev);
		if (xev.type != GenericEvent || !XGetEventData(fx->other, &xev.xcookie))
			continue;
		if (xev.xcookie.evtype >= XI_TouchBegin && xev.xcookie.evtype <= XI_TouchEnd) {
			XIDeviceEvent *de = xev.xcookie.data;

			assert_true(fx->num_other < MAX_EVENTS);
			fx->other_types[fx->num_other] = de->evtype;
			fx->other_x[fx->num_other] = de->event_x;
			fx->num_other++;
		}
		XFreeEventData(fx->other, &xev.xcookie);
	}
}

static void
sync_all(struct fixture *fx)
{
	assert_int_equal(xh_sync(&fx->xs.devices[0]), 0);
	pump(fx);
	pump_other(fx);
}

static UFFrame
frame_of(UFEvent ev)
{
	UFFrame frame = NULL;

	assert_int_equal(frame_event_get_type(ev), UFEventTypeFrame);
	assert_int_equal((frame_event_get_property)(ev, UFEventPropertyFrame, &frame),
			 UFStatusSuccess);
	assert_non_null(frame);
	return frame;
}

static UFTouch
only_touch(UFFrame frame)
{
	UFTouch touch = NULL;

	assert_int_equal(frame_frame_get_num_touches(frame), 1);
	assert_int_equal(frame_frame_get_touch_by_index(frame, 0, &touch), UFStatusSuccess);
	return touch;
}

static int
touch_int(UFTouch touch, UFTouchProperty prop)
{
	int value = -1;

	assert_int_equal((frame_touch_get_property)(touch, prop, &value), UFStatusSuccess);
	return value;
}

static void
assert_close(double actual, double expected)
{
	if (fabs(actual - expected) > COORD_EPS)
		fail_msg("%f != %f", actual, expected);
}

static UFDevice
device_of(UFEvent ev)
{
	UFDevice dev = NULL;

	assert_int_equal((frame_event_get_property)(ev, UFEventPropertyDevice, &dev),
			 UFStatusSuccess);
	assert_non_null(dev);
	return dev;
}

static const char *
device_name(UFDevice dev)
{
	const char *name = NULL;

	assert_int_equal((frame_device_get_property)(dev, UFDevicePropertyName, &name),
			 UFStatusSuccess);
	return name;
}

/* Checks common to every frame of the one-touch scenarios. */
static UFTouch
check_frame(struct fixture *fx, int index, Window window, UFTouchState state,
	    int owned, int pending_end)
{
	UFEvent ev = fx->events[index];
	UFFrame frame = frame_of(ev);
	UFTouch touch = only_touch(frame);
	unsigned int active = 0;

	assert_int_equal(frame_frame_get_window_id(frame), frame_x11_create_window_id(window));
	assert_string_equal(device_name(frame_frame_get_device(frame)), "xh-touch-0");
	assert_int_equal((frame_frame_get_property)(frame, UFFramePropertyActiveTouches, &active),
			 UFStatusSuccess);
	assert_int_equal(active, 1);
	assert_int_equal(frame_touch_get_state(touch), state);
	assert_int_equal(touch_int(touch, UFTouchPropertyOwned), owned);
	assert_int_equal(touch_int(touch, UFTouchPropertyPendingEnd), pending_end);
	/* the changed touch carries the event time (X server ms) */
	assert_true(frame_event_get_time(ev) > 0);
	assert_int_equal(frame_touch_get_time(touch), frame_event_get_time(ev));
	return touch;
}

/*
 * Tests
 */

static void
test_device_added(void **state)
{
	struct fixture *fx = *state;
	UFDevice dev;
	UFAxis axis;
	int direct = -1, semi_mt = -1, independent = -1;
	unsigned int max_touches = 0;

	new_frame_x11(fx);
	take_events(fx);
	assert_int_equal(fx->num_events, 1);
	assert_int_equal(frame_event_get_type(fx->events[0]), UFEventTypeDeviceAdded);
	assert_int_equal(frame_event_get_time(fx->events[0]), 0);
	dev = device_of(fx->events[0]);
	assert_string_equal(device_name(dev), "xh-touch-0");
	assert_int_equal((frame_device_get_property)(dev, UFDevicePropertyDirect, &direct),
			 UFStatusSuccess);
	assert_int_equal(direct, 1);
	assert_int_equal((frame_device_get_property)(dev, UFDevicePropertySemiMT, &semi_mt),
			 UFStatusSuccess);
	assert_int_equal(semi_mt, 0);
	assert_int_equal((frame_device_get_property)(dev, UFDevicePropertyIndependent,
						     &independent), UFStatusSuccess);
	assert_int_equal(independent, 0);
	assert_int_equal((frame_device_get_property)(dev, UFDevicePropertyMaxTouches,
						     &max_touches), UFStatusSuccess);
	assert_int_equal(max_touches, XH_TOUCH_COUNT);
	assert_true(frame_device_get_window_resolution_x(dev) == 0.0f);
	assert_true(frame_device_get_window_resolution_y(dev) == 0.0f);

	/* valuators 0 and 1 are X and Y, 4 is "Abs MT Pressure"; the scroll
	 * valuators 2 and 3 have no frame axis */
	assert_int_equal(frame_device_get_num_axes(dev), 3);
	assert_int_equal(frame_device_get_axis_by_type(dev, UFAxisTypeX, &axis), UFStatusSuccess);
	assert_true(frame_axis_get_minimum(axis) == 0.0f);
	assert_true(frame_axis_get_maximum(axis) == (float)XH_AXIS_MAX);
	assert_true(frame_axis_get_resolution(axis) == 0.0f);
	assert_int_equal(frame_device_get_axis_by_type(dev, UFAxisTypeY, &axis), UFStatusSuccess);
	assert_true(frame_axis_get_maximum(axis) == (float)XH_AXIS_MAX);
	assert_int_equal(frame_device_get_axis_by_type(dev, UFAxisTypePressure, &axis),
			 UFStatusSuccess);
	assert_true(frame_axis_get_maximum(axis) == (float)XH_PRESSURE_MAX);
	assert_int_equal(frame_device_get_axis_by_type(dev, UFAxisTypeTouchMajor, &axis),
			 UFStatusErrorInvalidAxis);
}

static void
test_window_frames(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	UFTouch t;
	float value = 0, prev_x = 0;
	UFTouchId id;
	uint64_t start;

	/* the frame_x11 client selects touches on the application window */
	select_touch(fx->dpy, fx->win, false);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx); /* DeviceAdded */

	assert_int_equal(xh_touch_raw(d, XI_TouchBegin, 1, xh_valuator_x(200),
				      xh_valuator_y(100), 1000), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 1);
	t = check_frame(fx, 0, fx->win, UFTouchStateBegin, 0, 0);
	id = frame_touch_get_id(t);
	start = frame_touch_get_start_time(t);
	assert_int_equal(start, frame_event_get_time(fx->events[0]));
	/* window coordinates: screen position minus the window origin */
	assert_close(frame_touch_get_window_x(t), 200 - WIN_X);
	assert_close(frame_touch_get_window_y(t), 100 - WIN_Y);
	/* device coordinates: the valuator values */
	assert_close(frame_touch_get_device_x(t), 200 * 64.0);
	assert_close(frame_touch_get_device_y(t), xh_valuator_y(100));
	assert_int_equal(frame_touch_get_value(t, UFAxisTypePressure, &value), UFStatusSuccess);
	assert_true(value == 1000.0f);

	assert_int_equal(xh_touch_update(d, 1, 250, 120), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 2);
	t = check_frame(fx, 1, fx->win, UFTouchStateUpdate, 0, 0);
	assert_int_equal(frame_touch_get_id(t), id);
	assert_int_equal(frame_touch_get_start_time(t), start);
	assert_close(frame_touch_get_window_x(t), 150);
	assert_close(frame_touch_get_window_y(t), 70);
	assert_close(frame_touch_get_device_x(t), 250 * 64.0);
	assert_int_equal(frame_frame_get_previous_touch_property(frame_of(fx->events[1]), t,
								 UFTouchPropertyWindowX,
								 &prev_x),
			 UFStatusSuccess);
	assert_close(prev_x, 100);

	assert_int_equal(xh_touch_end(d, 1, 260, 130), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 3);
	t = check_frame(fx, 2, fx->win, UFTouchStateEnd, 0, 0);
	assert_close(frame_touch_get_window_x(t), 160);
	assert_close(frame_touch_get_window_y(t), 80);

	/* a second touch starts a frame of its own: the ended one is gone */
	assert_int_equal(xh_touch_begin(d, 2, 300, 200), 0);
	assert_int_equal(xh_touch_begin(d, 3, 350, 250), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 5);
	t = check_frame(fx, 3, fx->win, UFTouchStateBegin, 0, 0);
	assert_true(frame_touch_get_id(t) != id);
	assert_int_equal(frame_frame_get_num_touches(frame_of(fx->events[4])), 2);
	assert_int_equal(xh_touch_end(d, 2, 300, 200), 0);
	assert_int_equal(xh_touch_end(d, 3, 350, 250), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 7);
	assert_int_equal(x_errors, 0);

	/* outside the window: nothing for this client */
	assert_int_equal(xh_touch_begin(d, 4, 10, 10), 0);
	assert_int_equal(xh_touch_end(d, 4, 10, 10), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 7);
	/* without a touch grab the client owns the touches; accepting one
	 * it never owned explicitly and that ended is an invalid touch */
	assert_int_equal(frame_accept_touch(frame_frame_get_device(frame_of(fx->events[2])),
					    fx->win, id), UFStatusErrorInvalidTouch);
}

/* Frames are kept per (device, window): two windows, two frame streams. */
static void
test_two_windows(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	Window win2 = XCreateSimpleWindow(fx->other, DefaultRootWindow(fx->other), 600, 400,
					  200, 200, 0, 0, 0);
	UFTouch t;

	XMapWindow(fx->other, win2);
	XSync(fx->other, False);
	select_touch(fx->dpy, fx->win, false);
	select_touch(fx->dpy, win2, false);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx);

	assert_int_equal(xh_touch_begin(d, 1, 200, 100), 0);
	assert_int_equal(xh_touch_begin(d, 2, 650, 450), 0);
	assert_int_equal(xh_touch_update(d, 1, 201, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 3);
	t = check_frame(fx, 0, fx->win, UFTouchStateBegin, 0, 0);
	t = check_frame(fx, 1, win2, UFTouchStateBegin, 0, 0);
	assert_close(frame_touch_get_window_x(t), 50);
	assert_close(frame_touch_get_window_y(t), 50);
	/* the update of the first touch does not carry the second one */
	t = check_frame(fx, 2, fx->win, UFTouchStateUpdate, 0, 0);
	assert_close(frame_touch_get_window_x(t), 101);

	assert_int_equal(xh_touch_end(d, 2, 650, 450), 0);
	assert_int_equal(xh_touch_end(d, 1, 201, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 5);
	check_frame(fx, 3, win2, UFTouchStateEnd, 0, 0);
	check_frame(fx, 4, fx->win, UFTouchStateEnd, 0, 0);
	assert_int_equal(x_errors, 0);
}

/* Touches that began before frame_x11_new() are not reported. */
static void
test_touch_before_instance(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	XEvent xev;

	select_touch(fx->dpy, fx->win, false);
	assert_int_equal(xh_touch_begin(d, 1, 200, 100), 0);
	assert_int_equal(xh_sync(d), 0);
	XSync(fx->dpy, False);
	/* the begin is read before the instance exists */
	assert_true(XPending(fx->dpy) > 0);
	while (XPending(fx->dpy) > 0)
		XNextEvent(fx->dpy, &xev);

	new_frame_x11(fx);
	take_events(fx);
	assert_int_equal(fx->num_events, 1); /* DeviceAdded */
	drop_events(fx);
	assert_int_equal(xh_touch_update(d, 1, 210, 100), 0);
	assert_int_equal(xh_touch_end(d, 1, 210, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 0);

	/* a new touch is reported */
	assert_int_equal(xh_touch_begin(d, 2, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 1);
	check_frame(fx, 0, fx->win, UFTouchStateBegin, 0, 0);
}

/* Window manager: grab on root, then reject: the application gets the touch. */
static void
test_grab_reject_replays(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	UFTouch t;
	UFTouchId id;
	UFDevice dev;

	select_touch(fx->other, fx->win, false);
	grab_root(fx->dpy);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx);

	assert_int_equal(xh_touch_begin(d, 1, 200, 100), 0);
	assert_int_equal(xh_touch_update(d, 1, 220, 110), 0);
	sync_all(fx);
	/* begin (not owned yet), ownership, update */
	assert_int_equal(fx->num_events, 3);
	t = check_frame(fx, 0, fx->root, UFTouchStateBegin, 0, 0);
	assert_close(frame_touch_get_window_x(t), 200); /* root coordinates */
	assert_close(frame_touch_get_window_y(t), 100);
	id = frame_touch_get_id(t);
	t = check_frame(fx, 1, fx->root, UFTouchStateUpdate, 1, 0);
	assert_int_equal(frame_touch_get_id(t), id);
	assert_close(frame_touch_get_window_x(t), 200); /* unchanged by ownership */
	t = check_frame(fx, 2, fx->root, UFTouchStateUpdate, 1, 0);
	assert_close(frame_touch_get_window_x(t), 220);
	/* the application has not seen anything while the grab decides */
	assert_int_equal(fx->num_other, 0);

	dev = frame_frame_get_device(frame_of(fx->events[0]));
	assert_int_equal(frame_reject_touch(dev, fx->root, id), UFStatusSuccess);
	sync_all(fx);
	/* the rejecting client gets the end of its copy of the touch */
	assert_int_equal(fx->num_events, 4);
	check_frame(fx, 3, fx->root, UFTouchStateEnd, 1, 0);
	/* the server replays begin and update to the application window */
	assert_int_equal(fx->num_other, 2);
	assert_int_equal(fx->other_types[0], XI_TouchBegin);
	assert_int_equal(fx->other_types[1], XI_TouchUpdate);
	assert_close(fx->other_x[1], 220 - WIN_X);

	assert_int_equal(xh_touch_end(d, 1, 230, 110), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 4);
	assert_int_equal(fx->num_other, 3);
	assert_int_equal(fx->other_types[2], XI_TouchEnd);
	/* decided already */
	assert_int_equal(frame_accept_touch(dev, fx->root, id), UFStatusErrorInvalidTouch);
	assert_int_equal(frame_reject_touch(dev, fx->root, id), UFStatusErrorInvalidTouch);
	/* wrong window */
	assert_int_equal(frame_accept_touch(dev, fx->win, id), UFStatusErrorInvalidTouch);
	XSync(fx->dpy, False);
	assert_int_equal(x_errors, 0);
}

/* Window manager: grab on root, then accept: the application gets nothing. */
static void
test_grab_accept(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	UFTouchId id;
	UFDevice dev;

	select_touch(fx->other, fx->win, false);
	grab_root(fx->dpy);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx);

	assert_int_equal(xh_touch_begin(d, 1, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 2);
	id = frame_touch_get_id(check_frame(fx, 1, fx->root, UFTouchStateUpdate, 1, 0));
	dev = frame_frame_get_device(frame_of(fx->events[1]));
	assert_int_equal(frame_x11_accept_touch(dev, fx->root, id), UFStatusSuccess);

	assert_int_equal(xh_touch_update(d, 1, 210, 100), 0);
	assert_int_equal(xh_touch_end(d, 1, 210, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 4);
	check_frame(fx, 2, fx->root, UFTouchStateUpdate, 1, 0);
	check_frame(fx, 3, fx->root, UFTouchStateEnd, 1, 0);
	assert_int_equal(fx->num_other, 0);
	assert_int_equal(frame_accept_touch(dev, fx->root, id), UFStatusErrorInvalidTouch);
	XSync(fx->dpy, False);
	assert_int_equal(x_errors, 0);
}

/*
 * frame 2.5 looked only at a cookie's extension and evtype: a cookie built
 * by hand without its type (0, not GenericEvent) is still a touch event,
 * so its touch exists and can be accepted.
 */
static void
test_hand_built_cookie(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	UFTouchId id;
	UFDevice dev;

	fx->hand_built = 1;
	grab_root(fx->dpy);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx);

	assert_int_equal(xh_touch_begin(d, 1, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 2);   /* begin, ownership */
	check_frame(fx, 0, fx->root, UFTouchStateBegin, 0, 0);
	id = frame_touch_get_id(check_frame(fx, 1, fx->root, UFTouchStateUpdate, 1, 0));
	dev = frame_frame_get_device(frame_of(fx->events[1]));
	assert_int_equal(frame_accept_touch(dev, fx->root, id), UFStatusSuccess);
	assert_int_equal(xh_touch_end(d, 1, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 3);
	check_frame(fx, 2, fx->root, UFTouchStateEnd, 1, 0);
	XSync(fx->dpy, False);
	assert_int_equal(x_errors, 0);
}

/* Accept and reject after the touch ended, while the grab still decides. */
static void
test_decide_after_end(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	UFTouchId id1, id2;
	UFDevice dev;

	select_touch(fx->other, fx->win, false);
	grab_root(fx->dpy);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx);

	assert_int_equal(xh_touch_begin(d, 1, 200, 100), 0);
	assert_int_equal(xh_touch_end(d, 1, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 3);
	id1 = frame_touch_get_id(check_frame(fx, 2, fx->root, UFTouchStateEnd, 1, 0));
	dev = frame_frame_get_device(frame_of(fx->events[2]));
	assert_int_equal(fx->num_other, 0);
	/* the touch is over, but the server waits for the decision */
	assert_int_equal(frame_accept_touch(dev, fx->root, id1), UFStatusSuccess);
	sync_all(fx);
	assert_int_equal(fx->num_other, 0);
	assert_int_equal(fx->num_events, 3);

	assert_int_equal(xh_touch_begin(d, 2, 300, 150), 0);
	assert_int_equal(xh_touch_end(d, 2, 310, 150), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 6);
	id2 = frame_touch_get_id(check_frame(fx, 5, fx->root, UFTouchStateEnd, 1, 0));
	assert_true(id2 != id1);
	assert_int_equal(frame_reject_touch(dev, fx->root, id2), UFStatusSuccess);
	sync_all(fx);
	/* the whole touch is replayed to the application */
	assert_int_equal(fx->num_other, 2);
	assert_int_equal(fx->other_types[0], XI_TouchBegin);
	assert_int_equal(fx->other_types[1], XI_TouchEnd);
	assert_close(fx->other_x[0], 300 - WIN_X);
	assert_close(fx->other_x[1], 310 - WIN_X);
	assert_int_equal(frame_reject_touch(dev, fx->root, id2), UFStatusErrorInvalidTouch);
	XSync(fx->dpy, False);
	assert_int_equal(x_errors, 0);
}

/*
 * The frame_x11 client is the application (touch selection with
 * ownership on its window) below a plain client's root grab: it sees the
 * touch early, then PendingEnd, then ownership when the grab rejects.
 */
static void
test_pending_end_and_ownership(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	UFTouch t;
	UFTouchId id;
	uint64_t begin_time;
	unsigned int xi_touch;

	grab_root(fx->other);
	select_touch(fx->dpy, fx->win, true);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx);

	assert_int_equal(xh_touch_begin(d, 1, 150, 80), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 1);
	t = check_frame(fx, 0, fx->win, UFTouchStateBegin, 0, 0);
	id = frame_touch_get_id(t);
	begin_time = frame_touch_get_start_time(t);
	assert_close(frame_touch_get_window_x(t), 50);

	assert_int_equal(xh_touch_end(d, 1, 160, 90), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 2);
	t = check_frame(fx, 1, fx->win, UFTouchStateUpdate, 0, 1);
	assert_close(frame_touch_get_window_x(t), 60);

	/* the grabbing client (plain Xlib) saw the same touch id; it rejects */
	xi_touch = frame_x11_get_touch_id(id);
	assert_true(xi_touch > 0);
	XIAllowTouchEvents(fx->other, 2 /* the master pointer */, xi_touch, fx->root,
			   XIRejectTouch);
	XSync(fx->other, False);
	sync_all(fx);
	/* ownership frame, then the end */
	assert_int_equal(fx->num_events, 4);
	t = check_frame(fx, 2, fx->win, UFTouchStateUpdate, 1, 1);
	assert_true(frame_touch_get_time(t) >= begin_time);
	assert_int_equal(frame_touch_get_start_time(t), begin_time);
	check_frame(fx, 3, fx->win, UFTouchStateEnd, 1, 0);
	assert_int_equal(x_errors, 0);
}

/*
 * The only listener, a touch selection with ownership: the server gives
 * ownership right after the begin.  Accepting while the touch is down is
 * fine.  After the end the server has finished the touch; the backend
 * cannot tell this from a grab (which must still decide), so it sends the
 * request and the server's BadValue reaches the application's error
 * handler (documented limit, same as the original).
 */
static void
test_selection_owner(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	UFTouchId id;
	UFDevice dev;

	select_touch(fx->dpy, fx->win, true);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx);

	assert_int_equal(xh_touch_begin(d, 1, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 2);
	check_frame(fx, 0, fx->win, UFTouchStateBegin, 0, 0);
	id = frame_touch_get_id(check_frame(fx, 1, fx->win, UFTouchStateUpdate, 1, 0));
	dev = frame_frame_get_device(frame_of(fx->events[1]));
	assert_int_equal(frame_accept_touch(dev, fx->win, id), UFStatusSuccess);
	/* let the server handle the accept before the touch ends: a live
	 * touch, no error (the input socket and the client connection are
	 * separate, so without this the end could be processed first) */
	XSync(fx->dpy, False);
	assert_int_equal(x_errors, 0);
	assert_int_equal(xh_touch_end(d, 1, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 3);
	check_frame(fx, 2, fx->win, UFTouchStateEnd, 1, 0);
	assert_int_equal(x_errors, 0);

	assert_int_equal(xh_touch_begin(d, 2, 200, 100), 0);
	assert_int_equal(xh_touch_end(d, 2, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 6);
	id = frame_touch_get_id(check_frame(fx, 5, fx->win, UFTouchStateEnd, 1, 0));
	assert_int_equal(frame_accept_touch(dev, fx->win, id), UFStatusSuccess);
	XSync(fx->dpy, False);
	assert_int_equal(x_errors, 1);
	assert_int_equal(last_x_error, BadValue);
	/* decided now: the window state is gone */
	assert_int_equal(frame_accept_touch(dev, fx->win, id), UFStatusErrorInvalidTouch);
}

/* Devices coming and going during a session. */
static void
test_hotplug(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d1 = &fx->xs.devices[1];
	UFDevice removed;

	select_hierarchy(fx->dpy);
	select_touch(fx->dpy, fx->win, false);
	new_frame_x11(fx);
	take_events(fx);
	assert_int_equal(fx->num_events, 2);
	assert_int_equal(frame_event_get_type(fx->events[0]), UFEventTypeDeviceAdded);
	assert_int_equal(frame_event_get_type(fx->events[1]), UFEventTypeDeviceAdded);
	drop_events(fx);

	assert_int_equal(xh_device_disable(d1), 0);
	pump(fx);
	assert_int_equal(fx->num_events, 1);
	assert_int_equal(frame_event_get_type(fx->events[0]), UFEventTypeDeviceRemoved);
	assert_true(frame_event_get_time(fx->events[0]) > 0);
	removed = device_of(fx->events[0]);
	assert_string_equal(device_name(removed), "xh-touch-1");
	/* the removed device's touches can no longer be decided */
	assert_int_equal(frame_accept_touch(removed, fx->win, 1), UFStatusErrorInvalidTouch);
	drop_events(fx);

	assert_int_equal(xh_device_enable(d1), 0);
	pump(fx);
	assert_int_equal(fx->num_events, 1);
	assert_int_equal(frame_event_get_type(fx->events[0]), UFEventTypeDeviceAdded);
	assert_string_equal(device_name(device_of(fx->events[0])), "xh-touch-1");
	drop_events(fx);

	/* the re-added device delivers touches */
	assert_int_equal(xh_touch_begin(d1, 7, 200, 100), 0);
	assert_int_equal(xh_sync(d1), 0);
	pump(fx);
	assert_int_equal(fx->num_events, 1);
	assert_string_equal(device_name(frame_frame_get_device(frame_of(fx->events[0]))),
			    "xh-touch-1");
	assert_int_equal(xh_touch_end(d1, 7, 200, 100), 0);
	assert_int_equal(xh_sync(d1), 0);
	pump(fx);
	assert_int_equal(fx->num_events, 2);
	assert_int_equal(x_errors, 0);
}

/* The server goes away under a frame_x11 user. */
static void
test_server_dies(void **state)
{
	struct fixture *fx = *state;
	struct xh_device *d = &fx->xs.devices[0];
	UFDevice dev;
	UFTouchId id;
	XGenericEventCookie cookie;
	XIHierarchyEvent hier;

	grab_root(fx->dpy);
	new_frame_x11(fx);
	take_events(fx);
	drop_events(fx);
	assert_int_equal(xh_touch_begin(d, 1, 200, 100), 0);
	sync_all(fx);
	assert_int_equal(fx->num_events, 2);
	id = frame_touch_get_id(check_frame(fx, 1, fx->root, UFTouchStateUpdate, 1, 0));
	dev = frame_frame_get_device(frame_of(fx->events[1]));

	XSetIOErrorHandler(count_io_error);
	XSetIOErrorExitHandler(fx->dpy, io_error_exit, NULL);
	XSetIOErrorExitHandler(fx->other, io_error_exit, NULL);
	assert_int_equal(xh_kill(&fx->xs), 0);

	/* the broken connection is an error, not a crash or a hang */
	assert_int_equal(frame_accept_touch(dev, fx->root, id), UFStatusErrorGeneric);
	memset(&hier, 0, sizeof(hier));
	hier.type = GenericEvent;
	hier.extension = fx->opcode;
	hier.evtype = XI_HierarchyChanged;
	memset(&cookie, 0, sizeof(cookie));
	cookie.type = GenericEvent;
	cookie.extension = fx->opcode;
	cookie.evtype = XI_HierarchyChanged;
	cookie.data = &hier;
	assert_int_equal(frame_x11_process_event(fx->handle, &cookie), UFStatusErrorGeneric);
	/* Xlib notices too, and reports through the IO error handler */
	XPending(fx->dpy);
	assert_true(io_errors >= 1);
	/* events taken before stay readable; deleting the instance is fine */
	assert_int_equal(frame_touch_get_id(only_touch(frame_of(fx->events[1]))), id);
	frame_x11_delete(fx->handle);
	fx->handle = NULL;
	assert_int_equal(frame_accept_touch(dev, fx->root, id), UFStatusErrorInvalidTouch);
	drop_events(fx);
	XCloseDisplay(fx->dpy);
	XCloseDisplay(fx->other);
	XSetIOErrorHandler(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_device_added, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_windows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_touch_before_instance, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grab_reject_replays, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grab_accept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hand_built_cookie, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decide_after_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_end_and_ownership, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selection_owner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hotplug, setup2, teardown),
		cmocka_unit_test_setup_teardown(test_server_dies, setup, teardown),
	};
	struct xh_server probe;
	int rc = xh_start(&probe, 1);

	if (rc == XH_SKIP) {
		fprintf(stderr, "SKIP: cannot run Xorg here: %s\n", probe.error);
		return XH_EXIT_SKIP;
	}
	if (rc != 0) {
		fprintf(stderr, "xh_start failed: %s\n", probe.error);
		return 1;
	}
	xh_stop(&probe);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
