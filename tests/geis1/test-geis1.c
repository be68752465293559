/*
 * Tests of the geis v1 interface (geis_init ... geis_finish) on the
 * recording backend in fast mode.  The recording comes from the
 * UTOUCH_GEIS_BACKEND environment variable set by meson, so the code
 * below uses nothing but <geis/geis.h>.
 *
 * Usage: test-geis1 GROUP [ARG]
 *   api           bad arguments and configuration (any recording)
 *   devices       device callbacks (a touchscreen recording)
 *   drag          "Drag,touch=2" on touchscreen/drag-2.evemu
 *   tap N         "Tap,touch=N" on a recording of one N-finger tap
 *   pinch         a pinch recording: GEIS_ALL_GESTURES, device lists
 *   subscription  unsubscribe, re-subscribe, callbacks that finish
 */
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <geis/geis.h>

#include "test-support.h"

/* The touchscreen recordings map 300 x 200 mm onto a 1024 x 768 window. */
#define MM_X(mm) ((mm) * 1024.0 / 300.0)
#define MM_Y(mm) ((mm) * 768.0 / 200.0)

static int tap_touches;   /* from the command line of the 'tap' group */

/*
 * GEIS_ALL_INPUT_DEVICES and GEIS_ALL_GESTURES are integer zeros passed as
 * pointers; clang warns about that (-Wnon-literal-null-conversion), so the
 * tests pass NULL and check the constants' values once.
 */
#define ALL_DEVICES ((GeisInputDeviceId *)NULL)
#define ALL_TYPES ((const char **)NULL)

/* ---- recorded callbacks ---- */

#define MAX_CALLS 1024
#define MAX_ATTRS 64

struct call {
	char kind[8];             /* "added", "start", "update", ... */
	GeisGestureType type;
	GeisGestureId id;
	GeisSize nattrs;
	GeisGestureAttr attrs[MAX_ATTRS];
	char names[MAX_ATTRS][32];     /* copies of the names */
	char strings[MAX_ATTRS][64];   /* copies of string values */
};

struct log {
	struct call calls[MAX_CALLS];
	int ncalls;
	GeisInstance inst;
	int unsubscribe_at_start;
	int finish_at_start;
	int finished;
};

static void
log_call(struct log *log, const char *kind, GeisGestureType type, GeisGestureId id,
	 GeisSize n, const GeisGestureAttr *attrs)
{
	struct call *c;

	if (log->ncalls >= MAX_CALLS)
		return;
	c = &log->calls[log->ncalls++];
	memset(c, 0, sizeof(*c));
	snprintf(c->kind, sizeof(c->kind), "%s", kind);
	c->type = type;
	c->id = id;
	c->nattrs = n < MAX_ATTRS ? n : MAX_ATTRS;
	for (GeisSize i = 0; i < c->nattrs; i++) {
		c->attrs[i] = attrs[i];
		/* the library's strings live only during the callback */
		snprintf(c->names[i], sizeof(c->names[i]), "%s", attrs[i].name);
		c->attrs[i].name = c->names[i];
		if (attrs[i].type == GEIS_ATTR_TYPE_STRING) {
			snprintf(c->strings[i], sizeof(c->strings[i]), "%s",
				 attrs[i].string_val ? attrs[i].string_val : "");
			c->attrs[i].string_val = c->strings[i];
		}
	}
}

static const GeisGestureAttr *
attr(const struct call *c, const char *name)
{
	for (GeisSize i = 0; i < c->nattrs; i++)
		if (strcmp(c->attrs[i].name, name) == 0)
			return &c->attrs[i];
	return NULL;
}

static float
attr_float(const struct call *c, const char *name)
{
	const GeisGestureAttr *a = attr(c, name);

	assert_non_null(a);
	assert_int_equal(a->type, GEIS_ATTR_TYPE_FLOAT);
	return a->float_val;
}

static int
attr_int(const struct call *c, const char *name)
{
	const GeisGestureAttr *a = attr(c, name);

	assert_non_null(a);
	assert_int_equal(a->type, GEIS_ATTR_TYPE_INTEGER);
	return a->integer_val;
}

static int
count_kind(const struct log *log, const char *kind)
{
	int n = 0;

	for (int i = 0; i < log->ncalls; i++)
		if (strcmp(log->calls[i].kind, kind) == 0)
			n++;
	return n;
}

static const struct call *
nth_kind(const struct log *log, const char *kind, int nth)
{
	for (int i = 0; i < log->ncalls; i++)
		if (strcmp(log->calls[i].kind, kind) == 0 && nth-- == 0)
			return &log->calls[i];
	return NULL;
}

/* gesture callbacks */

static void
on_added(void *cookie, GeisGestureType t, GeisGestureId id, GeisSize n, GeisGestureAttr *a)
{
	log_call(cookie, "added", t, id, n, a);
}

static void
on_removed(void *cookie, GeisGestureType t, GeisGestureId id, GeisSize n, GeisGestureAttr *a)
{
	log_call(cookie, "removed", t, id, n, a);
}

static void
on_start(void *cookie, GeisGestureType t, GeisGestureId id, GeisSize n, GeisGestureAttr *a)
{
	struct log *log = cookie;

	/* the first gesture must not look like "no gesture" */
	assert_int_not_equal(id, GEIS_NO_GESTURE_ID);
	log_call(log, "start", t, id, n, a);
	if (log->unsubscribe_at_start)
		assert_int_equal(geis_unsubscribe(log->inst, NULL), GEIS_STATUS_SUCCESS);
	if (log->finish_at_start && !log->finished) {
		assert_int_equal(geis_finish(log->inst), GEIS_STATUS_SUCCESS);
		log->finished = 1;
	}
}

static void
on_update(void *cookie, GeisGestureType t, GeisGestureId id, GeisSize n, GeisGestureAttr *a)
{
	log_call(cookie, "update", t, id, n, a);
}

static void
on_finish(void *cookie, GeisGestureType t, GeisGestureId id, GeisSize n, GeisGestureAttr *a)
{
	log_call(cookie, "finish", t, id, n, a);
}

static GeisGestureFuncs gesture_funcs = {
	on_added, on_removed, on_start, on_update, on_finish
};

/* device callbacks: the attributes end with a NULL name */

static void
log_device(struct log *log, const char *kind, GeisInputDeviceId id, void *attrs)
{
	const GeisGestureAttr *a = attrs;
	GeisSize n = 0;

	assert_non_null(a);
	while (a[n].name)
		n++;
	log_call(log, kind, 0, id, n, a);
}

static void
on_dev_added(void *cookie, GeisInputDeviceId id, void *attrs)
{
	log_device(cookie, "dev+", id, attrs);
}

static void
on_dev_changed(void *cookie, GeisInputDeviceId id, void *attrs)
{
	log_device(cookie, "dev~", id, attrs);
}

static void
on_dev_removed(void *cookie, GeisInputDeviceId id, void *attrs)
{
	log_device(cookie, "dev-", id, attrs);
}

static GeisInputFuncs input_funcs = { on_dev_added, on_dev_changed, on_dev_removed };

/* ---- helpers ---- */

static GeisInstance
init_window(uint32_t window)
{
	GeisXcbWinInfo xcb = { NULL, NULL, window };
	GeisWinInfo win = { GEIS_XCB_FULL_WINDOW, &xcb };
	GeisInstance inst = NULL;

	assert_int_equal(geis_init(&win, &inst), GEIS_STATUS_SUCCESS);
	assert_non_null(inst);
	return inst;
}

static int
instance_fd(GeisInstance inst)
{
	int fd = -1;

	assert_int_equal(geis_configuration_get_value(inst, GEIS_CONFIG_UNIX_FD, &fd),
			 GEIS_STATUS_SUCCESS);
	assert_true(fd >= 0);
	return fd;
}

/* Dispatch while the descriptor is readable; a fast recording is played
 * completely by then.  Returns the number of dispatches. */
static int
pump(GeisInstance inst)
{
	struct pollfd p = { .fd = instance_fd(inst), .events = POLLIN };
	int n = 0;

	while (poll(&p, 1, 0) > 0) {
		assert_int_equal(geis_event_dispatch(inst), GEIS_STATUS_SUCCESS);
		assert_true(++n < 100);   /* the descriptor must become idle */
	}
	return n;
}

/* ---- group 'api' ---- */

static void
test_init_bad_arguments(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	GeisXcbWinInfo xcb = { NULL, NULL, 1 };
	GeisWinInfo win = { GEIS_XCB_FULL_WINDOW, &xcb };
	GeisWinInfo bad_type = { geis_win_type_str(ABCD), &xcb };
	GeisWinInfo no_info = { GEIS_XCB_FULL_WINDOW, NULL };
	GeisInstance inst = (GeisInstance)(uintptr_t)1;

	(void)state;
	assert_int_equal(geis_init(NULL, &inst), GEIS_BAD_ARGUMENT);
	assert_null(inst);
	assert_int_equal(geis_init(&win, NULL), GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_init(&bad_type, &inst), GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_init(&no_info, &inst), GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_finish(NULL), GEIS_BAD_ARGUMENT);
	assert_int_equal(GEIS_ALL_INPUT_DEVICES, 0);
	assert_int_equal(GEIS_ALL_GESTURES, 0);
	/* 'GXWF' packed little-endian */
	assert_int_equal(GEIS_XCB_FULL_WINDOW, 0x46575847u);
	UT_CLIENT_BUGS_END(1);
}

static void
test_null_instance(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	int fd;

	(void)state;
	assert_int_equal(geis_configuration_supported(NULL, GEIS_CONFIG_UNIX_FD),
			 GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_configuration_get_value(NULL, GEIS_CONFIG_UNIX_FD, &fd),
			 GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_configuration_set_value(NULL, GEIS_CONFIG_UNIX_FD, &fd),
			 GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_event_dispatch(NULL), GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_input_devices(NULL, &input_funcs, NULL), GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_subscribe(NULL, ALL_DEVICES, types,
					&gesture_funcs, NULL), GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_unsubscribe(NULL, NULL), GEIS_BAD_ARGUMENT);
	UT_CLIENT_BUGS_END(4);
}

static void
test_bad_subscriptions(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	static const char *bad[][2] = {
		{ "Drag,touch=0", NULL }, { "Drag,touch=6", NULL }, { "Drag,touch=", NULL },
		{ "Drag,touches=2", NULL }, { "Wiggle,touch=2", NULL }, { "", NULL },
		{ "Drag,touch=2x", NULL }, { ",touch=2", NULL },
	};
	const char *good[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisInputDeviceId no_devices[] = { 0 };
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));

	(void)state;
	assert_non_null(log);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(geis_subscribe(inst, ALL_DEVICES, bad[i],
						&gesture_funcs, log), GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, good, NULL, log),
			 GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_subscribe(inst, no_devices, good, &gesture_funcs, log),
			 GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_input_devices(inst, NULL, log), GEIS_BAD_ARGUMENT);

	/* a refused subscription left nothing behind: no gesture arrives */
	pump(inst);
	assert_int_equal(log->ncalls, 0);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
	UT_CLIENT_BUGS_END(1);
}

/* geis_init() reports a backend that can not start. */
static void
test_init_backend_failure(void **state)
{
	GeisXcbWinInfo xcb = { NULL, NULL, 1 };
	GeisWinInfo win = { GEIS_XCB_FULL_WINDOW, &xcb };
	GeisInstance inst = (GeisInstance)(uintptr_t)1;
	char *saved = strdup(getenv("UTOUCH_GEIS_BACKEND"));

	(void)state;
	assert_non_null(saved);
	setenv("UTOUCH_GEIS_BACKEND", "recording-fast:/nonexistent/file.evemu", 1);
	assert_int_equal(geis_init(&win, &inst), GEIS_UNKNOWN_ERROR);
	assert_null(inst);
	setenv("UTOUCH_GEIS_BACKEND", "no-such-backend", 1);
	assert_int_equal(geis_init(&win, &inst), GEIS_UNKNOWN_ERROR);
	assert_null(inst);
	setenv("UTOUCH_GEIS_BACKEND", saved, 1);
	free(saved);
}

static void
test_configuration(void **state)
{
	GeisInstance inst = init_window(1);
	struct pollfd p = { .events = POLLIN };
	int value = 7;

	(void)state;
	assert_int_equal(geis_configuration_supported(inst, GEIS_CONFIG_UNIX_FD),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_configuration_supported(inst, 4242), GEIS_STATUS_NOT_SUPPORTED);
	/* as geis 2.2.17: an unknown item, and setting anything */
	assert_int_equal(geis_configuration_get_value(inst, 4242, &value),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(value, 7);
	assert_int_equal(geis_configuration_get_value(inst, GEIS_CONFIG_UNIX_FD, NULL),
			 GEIS_BAD_ARGUMENT);
	assert_int_equal(geis_configuration_set_value(inst, GEIS_CONFIG_UNIX_FD, &value),
			 GEIS_STATUS_NOT_SUPPORTED);

	/* the descriptor has work for the first dispatch, and none once the
	 * fast recording is played */
	p.fd = instance_fd(inst);
	assert_int_equal(poll(&p, 1, 0), 1);
	assert_true(pump(inst) >= 1);
	assert_int_equal(poll(&p, 1, 0), 0);
	/* a dispatch with nothing to do still succeeds */
	assert_int_equal(geis_event_dispatch(inst), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
}

/* ---- group 'devices' ---- */

static void
check_touchscreen(const struct call *c)
{
	const GeisGestureAttr *name = attr(c, "device name");
	const GeisGestureAttr *direct = attr(c, "direct touch");

	assert_int_equal(c->id, 1);
	assert_non_null(name);
	assert_int_equal(name->type, GEIS_ATTR_TYPE_STRING);
	assert_string_equal(name->string_val, "utouch-synth touchscreen");
	assert_int_equal(attr_int(c, "device id"), 1);
	assert_int_equal(attr_int(c, "device touches"), 10);
	assert_non_null(direct);
	assert_int_equal(direct->type, GEIS_ATTR_TYPE_BOOLEAN);
	assert_int_equal(direct->boolean_val, GEIS_TRUE);
	assert_float_equal(attr_float(c, "device X maximum"), 4200.0f, 0.01f);
	assert_float_equal(attr_float(c, "device Y maximum"), 2800.0f, 0.01f);
}

static void
test_device_callbacks(void **state)
{
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));

	(void)state;
	assert_non_null(log);
	assert_int_equal(geis_input_devices(inst, &input_funcs, log), GEIS_STATUS_SUCCESS);
	pump(inst);
	assert_int_equal(count_kind(log, "dev+"), 1);
	assert_int_equal(count_kind(log, "dev~"), 0);
	/* a recording's device stays after the end */
	assert_int_equal(count_kind(log, "dev-"), 0);
	check_touchscreen(nth_kind(log, "dev+", 0));

	/* callbacks registered later hear about the known device in the
	 * call (as geis 2.2.17), once */
	memset(log, 0, sizeof(*log));
	assert_int_equal(geis_input_devices(inst, &input_funcs, log), GEIS_STATUS_SUCCESS);
	assert_int_equal(log->ncalls, 1);
	assert_int_equal(geis_event_dispatch(inst), GEIS_STATUS_SUCCESS);
	assert_int_equal(count_kind(log, "dev+"), 1);
	check_touchscreen(nth_kind(log, "dev+", 0));
	assert_int_equal(geis_event_dispatch(inst), GEIS_STATUS_SUCCESS);
	assert_int_equal(count_kind(log, "dev+"), 1);

	/* NULL members are allowed */
	{
		GeisInputFuncs none = { NULL, NULL, NULL };

		assert_int_equal(geis_input_devices(inst, &none, NULL), GEIS_STATUS_SUCCESS);
		assert_int_equal(geis_event_dispatch(inst), GEIS_STATUS_SUCCESS);
	}
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

/* ---- group 'drag' ---- */

static void
test_drag2(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));
	const struct call *start, *finish, *added;
	float last_y;
	int last_time, updates;

	(void)state;
	assert_non_null(log);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	pump(inst);

	/* the type became available */
	assert_int_equal(count_kind(log, "added"), 1);
	added = nth_kind(log, "added", 0);
	assert_int_equal(added->type, GEIS_GESTURE_PRIMITIVE_DRAG);
	assert_int_equal(added->id, GEIS_NO_GESTURE_ID);
	assert_string_equal(attr(added, "gesture name")->string_val, "Drag,touch=2");

	/* one gesture: start, updates, finish, in this order */
	assert_int_equal(count_kind(log, "start"), 1);
	assert_int_equal(count_kind(log, "finish"), 1);
	updates = count_kind(log, "update");
	assert_true(updates >= 20);
	start = nth_kind(log, "start", 0);
	finish = nth_kind(log, "finish", 0);
	assert_true(start < nth_kind(log, "update", 0));
	assert_true(nth_kind(log, "update", updates - 1) < finish);
	assert_true(log->calls[log->ncalls - 1].kind[0] == 'f');

	/* fingers at x = 120 mm -/+ 12.5 mm, moving from y = 60 to 130 mm */
	last_y = 0.0f;
	last_time = 0;
	for (int i = 0; i < log->ncalls; i++) {
		const struct call *c = &log->calls[i];
		float x, y;

		if (strcmp(c->kind, "added") == 0)
			continue;
		assert_int_equal(c->type, GEIS_GESTURE_PRIMITIVE_DRAG);
		assert_int_equal(c->id, start->id);
		assert_int_equal(attr_int(c, "touches"), 2);
		assert_int_equal(attr_int(c, "device id"), 1);
		assert_int_equal(attr_int(c, "event window id"), 1);
		/* the type of the frame's touch count, as geis 2.2.17 */
		assert_string_equal(attr(c, "gesture name")->string_val, "Drag,touch=2");
		x = attr_float(c, "position x");
		y = attr_float(c, "position y");
		assert_float_equal(x, MM_X(120.0), 0.5);
		assert_true(y >= MM_Y(60.0) - 0.5 && y <= MM_Y(130.0) + 0.5);
		assert_true(y >= last_y);
		assert_true(attr_int(c, "timestamp") >= last_time);
		assert_float_equal(attr_float(c, "touch 0 x") + attr_float(c, "touch 1 x"),
				   2.0 * MM_X(120.0), 1.0);
		assert_float_equal(fabsf(attr_float(c, "touch 1 x") - attr_float(c, "touch 0 x")),
				   MM_X(25.0), 1.0);
		assert_float_equal(attr_float(c, "touch 0 y"), y, 0.5);
		assert_float_equal(attr_float(c, "radius"), 1.0, 0.01);
		last_y = y;
		last_time = attr_int(c, "timestamp");
	}
	/* the drag covers most of the 70 mm and ends at the bottom */
	assert_true(attr_float(start, "position y") < MM_Y(75.0));
	assert_float_equal(attr_float(finish, "position y"), MM_Y(130.0), 3.0);
	/* 0.6 s of movement */
	assert_true(attr_int(finish, "timestamp") - attr_int(start, "timestamp") >= 450);
	assert_true(attr_int(finish, "timestamp") - attr_int(start, "timestamp") <= 650);
	{
		/* delta y adds up to the distance moved since the start */
		float sum = 0.0f;

		for (int i = 0; i < log->ncalls; i++)
			if (strcmp(log->calls[i].kind, "update") == 0 ||
			    strcmp(log->calls[i].kind, "finish") == 0)
				sum += attr_float(&log->calls[i], "delta y");
		assert_float_equal(sum, attr_float(finish, "position y") -
				   attr_float(start, "position y"), 0.5);
	}
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

/* The window id of geis_init() is the reported event window. */
static void
test_drag2_window(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisInstance inst = init_window(0x2a00017);
	struct log *log = calloc(1, sizeof(*log));

	(void)state;
	assert_non_null(log);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	pump(inst);
	assert_int_equal(count_kind(log, "start"), 1);
	assert_int_equal(attr_int(nth_kind(log, "start", 0), "event window id"), 0x2a00017);
	assert_int_equal(attr_int(nth_kind(log, "finish", 0), "event window id"), 0x2a00017);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

/* Types that do not match the recording produce nothing. */
static void
test_drag2_other_types(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG1, GEIS_GESTURE_TYPE_DRAG3,
				GEIS_GESTURE_TYPE_PINCH3, GEIS_GESTURE_TYPE_SYSTEM,
				GEIS_GESTURE_TYPE_FLICK2, NULL };
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));

	(void)state;
	assert_non_null(log);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	pump(inst);
	assert_int_equal(count_kind(log, "start"), 0);
	assert_int_equal(count_kind(log, "update"), 0);
	assert_int_equal(count_kind(log, "finish"), 0);
	/* Drag1, Drag3 and Pinch3 were announced; Sysflags and Flick are not
	 * gesture classes */
	assert_int_equal(count_kind(log, "added"), 3);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

/* A class name without a touch count subscribes all five counts. */
static void
test_drag_bare_class_name(void **state)
{
	const char *types[] = { GEIS_GESTURE_DRAG, NULL };
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));

	(void)state;
	assert_non_null(log);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	pump(inst);
	assert_int_equal(count_kind(log, "added"), 5);
	{
		unsigned seen = 0;   /* bit n: touch count n announced */

		for (int i = 0; i < 5; i++) {
			const struct call *c = nth_kind(log, "added", i);
			int n = attr_int(c, "touches");
			char name[32];

			assert_int_equal(c->type, GEIS_GESTURE_PRIMITIVE_DRAG);
			assert_true(n >= 1 && n <= 5);
			seen |= 1u << n;
			snprintf(name, sizeof(name), "Drag,touch=%d", n);
			assert_string_equal(attr(c, "gesture name")->string_val, name);
		}
		assert_int_equal(seen, 0x3e);
	}
	assert_int_equal(count_kind(log, "start"), 1);
	assert_int_equal(count_kind(log, "finish"), 1);
	assert_int_equal(attr_int(nth_kind(log, "start", 0), "touches"), 2);
	assert_int_equal(nth_kind(log, "start", 0)->type, GEIS_GESTURE_PRIMITIVE_DRAG);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

/* ---- group 'tap' ---- */

static void
test_tap_touch_count(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_TAP1, GEIS_GESTURE_TYPE_TAP2,
				GEIS_GESTURE_TYPE_TAP3, GEIS_GESTURE_TYPE_TAP4,
				GEIS_GESTURE_TYPE_TAP5, NULL };
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));
	const struct call *c;

	(void)state;
	assert_non_null(log);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	pump(inst);
	/* a tap is one update, without start or finish */
	assert_int_equal(count_kind(log, "start"), 0);
	assert_int_equal(count_kind(log, "finish"), 0);
	assert_int_equal(count_kind(log, "update"), 1);
	c = nth_kind(log, "update", 0);
	assert_int_equal(c->type, GEIS_GESTURE_PRIMITIVE_TAP);
	assert_int_equal(attr_int(c, "touches"), tap_touches);
	{
		char name[32];

		snprintf(name, sizeof(name), "Tap,touch=%d", tap_touches);
		assert_string_equal(attr(c, "gesture name")->string_val, name);
	}
	assert_true(attr_int(c, "tap time") > 0);
	assert_true(attr_int(c, "tap time") <= 100);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

/* ---- group 'pinch' ---- */

static void
test_pinch_all_gestures(void **state)
{
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));
	int pinch_starts = 0;
	float min_radius = 10.0f;

	(void)state;
	assert_non_null(log);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, ALL_TYPES,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	pump(inst);
	/* 5 classes x 5 touch counts were announced */
	assert_int_equal(count_kind(log, "added"), 25);
	assert_int_equal(count_kind(log, "start"), count_kind(log, "finish"));
	for (int i = 0; i < log->ncalls; i++) {
		const struct call *c = &log->calls[i];

		if (strcmp(c->kind, "start") == 0 && c->type == GEIS_GESTURE_PRIMITIVE_PINCH) {
			pinch_starts++;
			assert_int_equal(attr_int(c, "touches"), 2);
		}
		if (strcmp(c->kind, "added") != 0 && c->type == GEIS_GESTURE_PRIMITIVE_PINCH &&
		    attr_float(c, "radius") < min_radius)
			min_radius = attr_float(c, "radius");
	}
	assert_true(pinch_starts >= 1);
	/* 100 mm to 40 mm: a scale near 0.4 */
	assert_float_equal(min_radius, 0.4f, 0.1f);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

static void
test_pinch_device_list(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_PINCH2, NULL };
	GeisInputDeviceId this_device[] = { 1, 0 };
	GeisInputDeviceId other_device[] = { 99, 0 };
	struct log *log = calloc(1, sizeof(*log));
	GeisInstance inst;

	(void)state;
	assert_non_null(log);
	inst = init_window(1);
	assert_int_equal(geis_subscribe(inst, other_device, types, &gesture_funcs, log),
			 GEIS_STATUS_SUCCESS);
	pump(inst);
	assert_int_equal(count_kind(log, "start"), 0);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);

	memset(log, 0, sizeof(*log));
	inst = init_window(1);
	assert_int_equal(geis_subscribe(inst, this_device, types, &gesture_funcs, log),
			 GEIS_STATUS_SUCCESS);
	pump(inst);
	assert_true(count_kind(log, "start") >= 1);
	assert_int_equal(nth_kind(log, "start", 0)->type, GEIS_GESTURE_PRIMITIVE_PINCH);
	assert_int_equal(attr_int(nth_kind(log, "start", 0), "device id"), 1);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

/* ---- group 'subscription' (a two-finger drag) ---- */

static void
test_unsubscribe_before_dispatch(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));

	(void)state;
	assert_non_null(log);
	assert_int_equal(geis_input_devices(inst, &input_funcs, log), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_unsubscribe(inst, NULL), GEIS_STATUS_SUCCESS);
	/* unsubscribing twice fails, as in geis 2.2.17 (nothing is left) */
	assert_int_equal(geis_unsubscribe(inst, NULL), GEIS_STATUS_UNKNOWN_ERROR);
	pump(inst);
	assert_int_equal(count_kind(log, "dev+"), 1);
	assert_int_equal(count_kind(log, "added"), 0);
	assert_int_equal(count_kind(log, "start"), 0);
	assert_int_equal(count_kind(log, "update"), 0);
	assert_int_equal(count_kind(log, "finish"), 0);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

static void
test_unsubscribe_in_callback(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));

	(void)state;
	assert_non_null(log);
	log->inst = inst;
	log->unsubscribe_at_start = 1;
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	pump(inst);
	assert_int_equal(count_kind(log, "start"), 1);
	assert_int_equal(count_kind(log, "update"), 0);
	assert_int_equal(count_kind(log, "finish"), 0);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(log);
}

static void
test_subscribe_again_replaces(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisInstance inst = init_window(1);
	struct log *first = calloc(1, sizeof(*first));
	struct log *second = calloc(1, sizeof(*second));

	(void)state;
	assert_non_null(first);
	assert_non_null(second);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, first), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, second), GEIS_STATUS_SUCCESS);
	pump(inst);
	/* the gesture is reported once, to the newer callbacks */
	assert_int_equal(count_kind(first, "start"), 0);
	assert_int_equal(count_kind(second, "start"), 1);
	assert_int_equal(count_kind(second, "finish"), 1);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
	free(first);
	free(second);
}

static void
test_finish_in_callback(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisInstance inst = init_window(1);
	struct log *log = calloc(1, sizeof(*log));

	(void)state;
	assert_non_null(log);
	log->inst = inst;
	log->finish_at_start = 1;
	assert_int_equal(geis_subscribe(inst, ALL_DEVICES, types,
					&gesture_funcs, log), GEIS_STATUS_SUCCESS);
	/* the instance goes away inside this dispatch */
	for (int i = 0; i < 100 && !log->finished; i++)
		assert_int_equal(geis_event_dispatch(inst), GEIS_STATUS_SUCCESS);
	assert_int_equal(log->finished, 1);
	assert_int_equal(count_kind(log, "start"), 1);
	assert_int_equal(count_kind(log, "update"), 0);
	free(log);
}

static void
test_two_instances(void **state)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisInstance a = init_window(10), b = init_window(20);
	struct log *la = calloc(1, sizeof(*la)), *lb = calloc(1, sizeof(*lb));

	(void)state;
	assert_non_null(la);
	assert_non_null(lb);
	assert_true(instance_fd(a) != instance_fd(b));
	assert_int_equal(geis_subscribe(a, ALL_DEVICES, types, &gesture_funcs, la),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscribe(b, ALL_DEVICES, types, &gesture_funcs, lb),
			 GEIS_STATUS_SUCCESS);
	pump(a);
	pump(b);
	assert_int_equal(count_kind(la, "start"), 1);
	assert_int_equal(count_kind(lb, "start"), 1);
	assert_int_equal(attr_int(nth_kind(la, "start", 0), "event window id"), 10);
	assert_int_equal(attr_int(nth_kind(lb, "start", 0), "event window id"), 20);
	assert_int_equal(geis_finish(a), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_finish(b), GEIS_STATUS_SUCCESS);
	free(la);
	free(lb);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest api[] = {
		cmocka_unit_test(test_init_bad_arguments),
		cmocka_unit_test(test_null_instance),
		cmocka_unit_test(test_bad_subscriptions),
		cmocka_unit_test(test_init_backend_failure),
		cmocka_unit_test(test_configuration),
	};
	const struct CMUnitTest devices[] = {
		cmocka_unit_test(test_device_callbacks),
	};
	const struct CMUnitTest drag[] = {
		cmocka_unit_test(test_drag2),
		cmocka_unit_test(test_drag2_window),
		cmocka_unit_test(test_drag2_other_types),
		cmocka_unit_test(test_drag_bare_class_name),
	};
	const struct CMUnitTest tap[] = {
		cmocka_unit_test(test_tap_touch_count),
	};
	const struct CMUnitTest pinch[] = {
		cmocka_unit_test(test_pinch_all_gestures),
		cmocka_unit_test(test_pinch_device_list),
	};
	const struct CMUnitTest subscription[] = {
		cmocka_unit_test(test_unsubscribe_before_dispatch),
		cmocka_unit_test(test_unsubscribe_in_callback),
		cmocka_unit_test(test_subscribe_again_replaces),
		cmocka_unit_test(test_finish_in_callback),
		cmocka_unit_test(test_two_instances),
	};
	const char *group = argc > 1 ? argv[1] : "";

	if (!getenv("UTOUCH_GEIS_BACKEND")) {
		fprintf(stderr, "UTOUCH_GEIS_BACKEND is not set; run through meson\n");
		return 77;
	}
	if (strcmp(group, "api") == 0)
		return cmocka_run_group_tests_name("geis1 api", api, NULL, NULL);
	if (strcmp(group, "devices") == 0)
		return cmocka_run_group_tests_name("geis1 devices", devices, NULL, NULL);
	if (strcmp(group, "drag") == 0)
		return cmocka_run_group_tests_name("geis1 drag", drag, NULL, NULL);
	if (strcmp(group, "tap") == 0 && argc > 2) {
		tap_touches = atoi(argv[2]);
		return cmocka_run_group_tests_name("geis1 tap", tap, NULL, NULL);
	}
	if (strcmp(group, "pinch") == 0)
		return cmocka_run_group_tests_name("geis1 pinch", pinch, NULL, NULL);
	if (strcmp(group, "subscription") == 0)
		return cmocka_run_group_tests_name("geis1 subscription", subscription, NULL, NULL);
	fprintf(stderr, "usage: test-geis1 api|devices|drag|tap N|pinch|subscription\n");
	return 2;
}
