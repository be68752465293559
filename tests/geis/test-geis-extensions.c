/*
 * geis and grail's utouch extensions (utouch/geis.h): the Hold and
 * EdgeSwipe classes, the UTOUCH_GEIS_CONFIG_* items and the extension
 * attributes, on the bundled recordings in fast mode; and that programs
 * using none of them see what geis 2.2 showed.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "geis-test.h"

#define MAX_EVENTS 512

/* What a test needs of one gesture event. */
struct xev {
	GeisEventType type;
	GeisGestureId id;
	char name[32];      /* "gesture name" */
	int has_wv;         /* "windowed velocity x/y" present */
	float wvx, wvy;
	int tap_count;      /* -1 when absent */
	char edge[16];      /* "" when absent */
	GeisSize nattrs;
};

struct xlog {
	struct xev ev[MAX_EVENTS];
	size_t n;
};

static GeisFrame
frame_of(GeisEvent ev)
{
	GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	assert_non_null(a);
	GeisGroupSet gs = geis_attr_value_to_pointer(a);
	return geis_group_frame(geis_groupset_group(gs, 0), 0);
}

static void
record(void *data, GeisEvent ev)
{
	struct xlog *log = data;
	GeisEventType t = geis_event_type(ev);
	if (t != GEIS_EVENT_GESTURE_BEGIN && t != GEIS_EVENT_GESTURE_UPDATE &&
	    t != GEIS_EVENT_GESTURE_END)
		return;
	assert_true(log->n < MAX_EVENTS);
	struct xev *x = &log->ev[log->n++];
	GeisFrame f = frame_of(ev);
	GeisAttr a;

	memset(x, 0, sizeof(*x));
	x->type = t;
	x->id = geis_frame_id(f);
	x->nattrs = geis_frame_attr_count(f);
	a = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
	if (a)
		snprintf(x->name, sizeof(x->name), "%s", geis_attr_value_to_string(a));
	a = geis_frame_attr_by_name(f, UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_X);
	if (a) {
		x->has_wv = 1;
		x->wvx = geis_attr_value_to_float(a);
		a = geis_frame_attr_by_name(f, UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_Y);
		assert_non_null(a);
		x->wvy = geis_attr_value_to_float(a);
	}
	a = geis_frame_attr_by_name(f, UTOUCH_GEIS_GESTURE_ATTRIBUTE_TAP_COUNT);
	x->tap_count = a ? geis_attr_value_to_integer(a) : -1;
	a = geis_frame_attr_by_name(f, UTOUCH_GEIS_GESTURE_ATTRIBUTE_EDGE);
	if (a)
		snprintf(x->edge, sizeof(x->edge), "%s", geis_attr_value_to_string(a));
}

static void
run(Geis geis, struct xlog *log)
{
	gt_run_fast_each(geis, record, log);
}



/* Activate, printing geis' error messages when that fails. */
static void
activate_in(Geis geis, GeisSubscription sub)
{
	GeisStatus st = geis_subscription_activate(sub);
	for (GeisSize i = 0; st != GEIS_STATUS_SUCCESS && i < geis_error_count(geis); i++)
		print_error("%s\n", geis_error_message(geis, i));
	assert_int_equal(st, GEIS_STATUS_SUCCESS);
}
#define activate(sub) activate_in(geis, sub)

static void
test_hold_class(void **state)
{
	(void)state;
	Geis geis = gt_open_recording("touchscreen/hold-1.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	struct xlog *log = calloc(1, sizeof(*log));
	activate(gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, UTOUCH_GEIS_GESTURE_HOLD, 1));
	run(geis, log);
	assert_true(log->n >= 2);
	assert_int_equal(log->ev[0].type, GEIS_EVENT_GESTURE_BEGIN);
	assert_int_equal(log->ev[log->n - 1].type, GEIS_EVENT_GESTURE_END);
	for (size_t i = 0; i < log->n; i++) {
		assert_string_equal(log->ev[i].name, "Hold");
		assert_true(log->ev[i].has_wv);
		assert_true(log->ev[i].wvx == 0.0f && log->ev[i].wvy == 0.0f);
	}
	free(log);
	geis_delete(geis);

	/* a moving finger is no hold */
	geis = gt_open_recording("touchscreen/drag-1.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	log = calloc(1, sizeof(*log));
	activate(gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, UTOUCH_GEIS_GESTURE_HOLD, 1));
	run(geis, log);
	assert_int_equal(log->n, 0);
	free(log);
	geis_delete(geis);
}

static void
test_hold_timeout_config(void **state)
{
	(void)state;
	Geis geis = gt_open_recording("touchscreen/drag-2-slow.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	struct xlog *log = calloc(1, sizeof(*log));
	GeisSubscription sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, UTOUCH_GEIS_GESTURE_HOLD, 2);
	GeisInteger v = 0;
	GeisFloat f;

	assert_int_equal(geis_subscription_get_configuration(sub, UTOUCH_GEIS_CONFIG_HOLD_TIMEOUT, &v),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(v, 500);
	/* 30 mm in 1.5 s moves 2.6 mm within 130 ms: a hold of 100 ms fits */
	v = 100;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_HOLD_TIMEOUT, &v),
			 GEIS_STATUS_SUCCESS);
	v = 0;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_HOLD_TIMEOUT, &v),
			 GEIS_STATUS_BAD_ARGUMENT);
	f = -1.0f;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_HOLD_THRESHOLD,
							     &f),
			 GEIS_STATUS_BAD_ARGUMENT);
	f = INFINITY;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_EDGE_SWIPE_MARGIN,
							     &f),
			 GEIS_STATUS_BAD_ARGUMENT);
	v = 101;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_MULTITAP_MAXIMUM,
							     &v),
			 GEIS_STATUS_BAD_ARGUMENT);
	v = 16;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_EDGE_SWIPE_EDGES,
							     &v),
			 GEIS_STATUS_BAD_ARGUMENT);
	v = 0;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_VELOCITY_WINDOW,
							     &v),
			 GEIS_STATUS_BAD_ARGUMENT);
	v = 0;
	assert_int_equal(geis_subscription_get_configuration(sub, UTOUCH_GEIS_CONFIG_HOLD_TIMEOUT, &v),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(v, 100);
	activate(sub);
	run(geis, log);
	assert_true(log->n >= 2);
	assert_string_equal(log->ev[0].name, "Hold");
	free(log);
	geis_delete(geis);
}

static void
test_edge_swipe_class(void **state)
{
	(void)state;
	Geis geis = gt_open_recording("touchscreen/edge-swipe-left.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	struct xlog *log = calloc(1, sizeof(*log));
	activate(gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, UTOUCH_GEIS_GESTURE_EDGE_SWIPE, 1));
	run(geis, log);
	assert_true(log->n > 10);
	for (size_t i = 0; i < log->n; i++) {
		assert_string_equal(log->ev[i].name, "EdgeSwipe");
		assert_string_equal(log->ev[i].edge, "left");
	}
	/* the release velocity: 78 mm in 0.4 s on a 1024 px, 300 mm screen */
	const struct xev *end = &log->ev[log->n - 1];
	assert_int_equal(end->type, GEIS_EVENT_GESTURE_END);
	assert_true(fabsf(end->wvx - 78.0f / 400.0f * 1024.0f / 300.0f) < 0.01f);
	free(log);
	geis_delete(geis);

	/* an edge touch that rests first: no edge swipe */
	geis = gt_open_recording("touchscreen/edge-rest-then-drag.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	log = calloc(1, sizeof(*log));
	activate(gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, UTOUCH_GEIS_GESTURE_EDGE_SWIPE, 1));
	run(geis, log);
	assert_int_equal(log->n, 0);
	free(log);
	geis_delete(geis);

	/* the left edge disabled */
	geis = gt_open_recording("touchscreen/edge-swipe-left.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	log = calloc(1, sizeof(*log));
	GeisSubscription sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, UTOUCH_GEIS_GESTURE_EDGE_SWIPE, 1);
	GeisInteger edges = UTOUCH_GEIS_EDGE_RIGHT | UTOUCH_GEIS_EDGE_BOTTOM;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_EDGE_SWIPE_EDGES,
							     &edges),
			 GEIS_STATUS_SUCCESS);
	activate(sub);
	run(geis, log);
	assert_int_equal(log->n, 0);
	free(log);
	geis_delete(geis);
}

/* Tap counts of the tap gestures, in order (geis delivers a tap as one
 * GESTURE_UPDATE unless it sends tentative events). */
static size_t
tap_counts(const char *rec, GeisInteger timeout, int *counts, size_t max)
{
	Geis geis = gt_open_recording(rec, GEIS_INIT_NO_ATOMIC_GESTURES);
	struct xlog *log = calloc(1, sizeof(*log));
	GeisSubscription sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, GEIS_GESTURE_TAP, 1);
	size_t n = 0;

	if (timeout >= 0)
		assert_int_equal(geis_subscription_set_configuration(
					 sub, UTOUCH_GEIS_CONFIG_MULTITAP_TIMEOUT, &timeout),
				 GEIS_STATUS_SUCCESS);
	activate(sub);
	run(geis, log);
	for (size_t i = 0; i < log->n && n < max; i++)
		if (strcmp(log->ev[i].name, GEIS_GESTURE_TAP) == 0 &&
		    (i == 0 || log->ev[i - 1].id != log->ev[i].id))
			counts[n++] = log->ev[i].tap_count;
	free(log);
	geis_delete(geis);
	return n;
}

static void
test_tap_count(void **state)
{
	(void)state;
	int c[4];
	/* setting any extension item turns the attributes on */
	assert_int_equal(tap_counts("touchscreen/double-tap.evemu", 400, c, 4), 2);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 2);
	assert_int_equal(tap_counts("touchscreen/slow-double-tap.evemu", 400, c, 4), 2);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 1);
	assert_int_equal(tap_counts("touchscreen/slow-double-tap.evemu", 700, c, 4), 2);
	assert_int_equal(c[1], 2);
	/* without extensions: geis 2.2's attributes only */
	assert_int_equal(tap_counts("touchscreen/double-tap.evemu", -1, c, 4), 2);
	assert_int_equal(c[0], -1);
	assert_int_equal(c[1], -1);
}

static void
test_plain_programs_see_geis_22(void **state)
{
	(void)state;
	/* no class term: geis 2.2's five classes, no extension attributes */
	Geis geis = gt_open_recording("touchscreen/hold-1.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	struct xlog *log = calloc(1, sizeof(*log));
	activate(gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, NULL, 1));
	run(geis, log);
	assert_true(log->n > 0);
	for (size_t i = 0; i < log->n; i++) {
		assert_false(log->ev[i].has_wv);
		assert_string_not_equal(log->ev[i].name, "Hold");
	}
	GeisSize plain = log->ev[0].nattrs;
	free(log);
	geis_delete(geis);

	/* the same with an extension item set: two attributes more */
	geis = gt_open_recording("touchscreen/hold-1.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	log = calloc(1, sizeof(*log));
	GeisSubscription sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, NULL, 1);
	GeisInteger w = 100;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_VELOCITY_WINDOW,
							     &w),
			 GEIS_STATUS_SUCCESS);
	activate(sub);
	run(geis, log);
	assert_true(log->n > 0);
	assert_true(log->ev[0].has_wv);
	assert_int_equal(log->ev[0].nattrs, plain + 2);
	free(log);
	geis_delete(geis);

	/* a NE term leaves the extension classes out */
	geis = gt_open_recording("touchscreen/hold-1.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	log = calloc(1, sizeof(*log));
	sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, NULL, 1);
	GeisFilter f = geis_filter_new(geis, "ne");
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
					      GEIS_FILTER_OP_NE, GEIS_GESTURE_DRAG, NULL),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_add_filter(sub, f), GEIS_STATUS_SUCCESS);
	activate(sub);
	run(geis, log);
	for (size_t i = 0; i < log->n; i++)
		assert_string_not_equal(log->ev[i].name, "Hold");
	free(log);
	geis_delete(geis);
}

/* Gestures begun by a Drag subscription for three touches on @rec. */
static size_t
three_finger_drags(const char *rec, GeisInteger whole, GeisSize *nattrs)
{
	Geis geis = gt_open_recording(rec, GEIS_INIT_NO_ATOMIC_GESTURES);
	struct xlog *log = calloc(1, sizeof(*log));
	GeisSubscription sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, GEIS_GESTURE_DRAG, 3);
	GeisInteger v = -1;
	size_t begun = 0;

	assert_non_null(log);
	assert_int_equal(geis_subscription_get_configuration(sub, UTOUCH_GEIS_CONFIG_WHOLE_HAND, &v),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(v, 0);
	if (whole)
		assert_int_equal(geis_subscription_set_configuration(
					 sub, UTOUCH_GEIS_CONFIG_WHOLE_HAND, &whole),
				 GEIS_STATUS_SUCCESS);
	activate(sub);
	run(geis, log);
	for (size_t i = 0; i < log->n; i++) {
		if (log->ev[i].type == GEIS_EVENT_GESTURE_BEGIN)
			begun++;
		*nattrs = log->ev[i].nattrs;
	}
	free(log);
	geis_delete(geis);
	return begun;
}

/* UTOUCH_GEIS_CONFIG_WHOLE_HAND reaches grail: no three-finger drag of four
 * fingers, three fingers still one; the gestures carry geis 2.2's
 * attributes only. */
static void
test_whole_hand_config(void **state)
{
	(void)state;
	GeisSize plain_attrs = 0, whole_attrs = 0;

	assert_int_equal(three_finger_drags("touchscreen/drag-4.evemu", 0, &plain_attrs), 4);
	assert_int_equal(three_finger_drags("touchscreen/drag-4.evemu", 1, &whole_attrs), 0);
	assert_int_equal(three_finger_drags("touchscreen/drag-3.evemu", 1, &whole_attrs), 1);
	assert_int_equal(whole_attrs, plain_attrs);

	Geis geis = gt_open_recording("touchscreen/drag-3.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	GeisSubscription sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, GEIS_GESTURE_DRAG, 3);
	GeisInteger v = 2;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_WHOLE_HAND, &v),
			 GEIS_STATUS_BAD_ARGUMENT);
	v = -1;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_WHOLE_HAND, &v),
			 GEIS_STATUS_BAD_ARGUMENT);
	v = 1;
	assert_int_equal(geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_WHOLE_HAND, &v),
			 GEIS_STATUS_SUCCESS);
	v = 0;
	assert_int_equal(geis_subscription_get_configuration(sub, UTOUCH_GEIS_CONFIG_WHOLE_HAND, &v),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(v, 1);
	geis_delete(geis);
}

/* What accept said for gestures of drag-4 without whole-hand: the first
 * seen is accepted; every other one it overlapped was cancelled by grail,
 * and accepting it, while its events and END still wait, fails. */
struct cancel_probe {
	Geis geis;
	GeisGestureId first;
	int have_first, second_tried;
	GeisStatus second;
	char message[160];
};

static void
probe(void *data, GeisEvent ev)
{
	struct cancel_probe *p = data;

	if (geis_event_type(ev) != GEIS_EVENT_GESTURE_BEGIN || p->second_tried)
		return;
	GeisGestureId id = geis_frame_id(frame_of(ev));
	if (!p->have_first) {
		p->first = id;
		p->have_first = 1;
		return;
	}
	if (id == p->first)
		return;
	/* a second gesture seen: take the first, then try this one */
	assert_int_equal(geis_gesture_accept(p->geis, NULL, p->first), GEIS_STATUS_SUCCESS);
	p->second = geis_gesture_accept(p->geis, NULL, id);
	p->second_tried = 1;
	if (geis_error_count(p->geis))
		snprintf(p->message, sizeof(p->message), "%s", geis_error_message(p->geis, 0));
}

static void
test_accept_cancelled_fails(void **state)
{
	(void)state;
	Geis geis = gt_open_recording("touchscreen/drag-4.evemu", GEIS_INIT_NO_ATOMIC_GESTURES);
	struct cancel_probe p = { .geis = geis };

	activate(gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, GEIS_GESTURE_DRAG, 3));
	gt_run_fast_each(geis, probe, &p);
	assert_true(p.second_tried);
	assert_int_equal(p.second, GEIS_STATUS_BAD_ARGUMENT);
	assert_non_null(strstr(p.message, "was cancelled"));
	geis_delete(geis);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold_class),
		cmocka_unit_test(test_hold_timeout_config),
		cmocka_unit_test(test_edge_swipe_class),
		cmocka_unit_test(test_tap_count),
		cmocka_unit_test(test_plain_programs_see_geis_22),
		cmocka_unit_test(test_whole_hand_config),
		cmocka_unit_test(test_accept_cancelled_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
