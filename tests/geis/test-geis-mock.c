/*
 * The test backend (UTOUCH_GEIS_INIT_MOCK, geis 2.2's
 * "com.canonical.oif.backend.mock"): everything a program sees of it.
 */
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#include "test-support.h"

static Geis
open_mock(void)
{
	Geis geis = geis_new(GEIS_INIT_MOCK_BACKEND, NULL);

	assert_non_null(geis);
	return geis;
}

/* Take every queued event; keep the last gesture event (caller deletes). */
static int
drain(Geis geis, GeisEvent *gesture)
{
	GeisEvent ev;
	int n = 0;

	if (gesture)
		*gesture = NULL;
	while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
		n++;
		if (gesture && geis_event_type(ev) == GEIS_EVENT_GESTURE_BEGIN) {
			geis_event_delete(*gesture);
			*gesture = ev;
		} else {
			geis_event_delete(ev);
		}
	}
	return n;
}

static void
test_startup(void **state)
{
	Geis geis = open_mock();
	GeisEvent ev;
	GeisDevice dev;
	GeisGestureClass poke;

	assert_string_equal(GEIS_INIT_MOCK_BACKEND, "com.canonical.oif.backend.mock");
	assert_int_equal(geis_dispatch_events(geis), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_CONTINUE);
	assert_int_equal(geis_event_type(ev), GEIS_EVENT_INIT_COMPLETE);
	geis_event_delete(ev);

	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_CONTINUE);
	assert_int_equal(geis_event_type(ev), GEIS_EVENT_CLASS_AVAILABLE);
	poke = geis_attr_value_to_pointer(geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));
	assert_string_equal(geis_gesture_class_name(poke), "poke");
	assert_int_equal(geis_gesture_class_id(poke), 2100);
	geis_event_delete(ev);

	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_event_type(ev), GEIS_EVENT_DEVICE_AVAILABLE);
	dev = geis_attr_value_to_pointer(geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_DEVICE));
	assert_string_equal(geis_device_name(dev), "abs-test-device");
	assert_int_equal(geis_device_id(dev), 0);
	geis_event_delete(ev);
	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_EMPTY);

	dev = geis_get_device(geis, 0);
	assert_non_null(dev);
	assert_string_equal(geis_device_name(dev), "abs-test-device");
	assert_int_equal(geis_attr_value_to_integer(geis_device_attr_by_name(dev,
			 GEIS_DEVICE_ATTRIBUTE_ID)), 0);
	assert_true(geis_attr_value_to_boolean(geis_device_attr_by_name(dev,
			 GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH)));
	assert_null(geis_get_device(geis, 1));
	geis_delete(geis);
}

static GeisSubscription
subscribe(Geis geis, GeisFilter f)
{
	GeisSubscription sub = geis_subscription_new(geis, "mock", GEIS_SUBSCRIPTION_NONE);

	assert_non_null(sub);
	if (f)
		assert_int_equal(geis_subscription_add_filter(sub, f), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_SUCCESS);
	return sub;
}

/* The one GESTURE_BEGIN of an activation, with @p touches touches. */
static void
check_begin(Geis geis, GeisEvent ev, int touches)
{
	GeisGroupSet gs;
	GeisTouchSet ts;
	GeisGroup group;
	GeisFrame frame;
	GeisGestureClass poke = NULL;

	assert_non_null(ev);
	assert_int_equal(geis_event_type(ev), GEIS_EVENT_GESTURE_BEGIN);
	gs = geis_attr_value_to_pointer(geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));
	ts = geis_attr_value_to_pointer(geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_TOUCHSET));
	assert_int_equal(geis_groupset_group_count(gs), 1);
	group = geis_groupset_group(gs, 0);
	assert_int_equal(geis_group_id(group), 1);
	assert_int_equal(geis_group_frame_count(group), 1);
	frame = geis_group_frame(group, 0);
	assert_int_equal(geis_frame_id(frame), 1);
#define IATTR(name) geis_attr_value_to_integer(geis_frame_attr_by_name(frame, name))
#define FATTR(name) geis_attr_value_to_float(geis_frame_attr_by_name(frame, name))
	assert_int_equal(IATTR(GEIS_GESTURE_ATTRIBUTE_DEVICE_ID), 13);
	assert_int_equal(IATTR(GEIS_GESTURE_ATTRIBUTE_TIMESTAMP), 1);
	assert_int_equal(IATTR(GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID), 2);
	assert_int_equal(IATTR(GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID), 3);
	assert_int_equal(IATTR(GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID), 4);
	assert_float_equal(FATTR(GEIS_GESTURE_ATTRIBUTE_FOCUS_X), 123.456, 1e-4);
	assert_float_equal(FATTR(GEIS_GESTURE_ATTRIBUTE_FOCUS_Y), 987.654, 1e-3);
	assert_string_equal(geis_attr_value_to_string(geis_frame_attr_by_name(frame,
			    GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME)), "mock gesture");
	assert_int_equal(IATTR(GEIS_GESTURE_ATTRIBUTE_TOUCHES), touches);
#undef IATTR
#undef FATTR
	assert_int_equal(geis_touchset_touch_count(ts), touches);
	assert_int_equal(geis_frame_touchid_count(frame), touches);
	for (int i = 0; i < touches; i++) {
		GeisTouch t = geis_touchset_touch(ts, (GeisSize)i);

		assert_non_null(t);
		assert_int_equal(geis_frame_touchid(frame, (GeisSize)i), geis_touch_id(t));
		assert_ptr_equal(geis_touchset_touch_by_id(ts, geis_touch_id(t)), t);
	}
	/* of class "poke", and of no grail class: find the class through a
	 * fresh instance's CLASS_AVAILABLE */
	Geis other = open_mock();
	GeisEvent cev;

	geis_dispatch_events(other);
	while (geis_next_event(other, &cev) != GEIS_STATUS_EMPTY) {
		if (geis_event_type(cev) == GEIS_EVENT_CLASS_AVAILABLE) {
			poke = geis_attr_value_to_pointer(
				geis_event_attr_by_name(cev, GEIS_EVENT_ATTRIBUTE_CLASS));
			geis_gesture_class_ref(poke);
		}
		geis_event_delete(cev);
	}
	assert_non_null(poke);
	assert_true(geis_frame_is_class(frame, poke));
	geis_gesture_class_unref(poke);
	geis_delete(other);
	/* accept and reject succeed */
	assert_int_equal(geis_gesture_accept(geis, group, geis_frame_id(frame)),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_gesture_reject(geis, group, geis_frame_id(frame)),
			 GEIS_STATUS_SUCCESS);
}

static void
test_activation_begin(void **state)
{
	static const struct {
		GeisFilterOperation op;
		int n;
		int want;
	} cases[] = {
		{ GEIS_FILTER_OP_EQ, 3, 3 }, { GEIS_FILTER_OP_GE, 2, 2 },
		{ GEIS_FILTER_OP_GT, 3, 4 }, { GEIS_FILTER_OP_LE, 5, 1 },
		{ GEIS_FILTER_OP_LT, 2, 1 }, { GEIS_FILTER_OP_EQ, 5, 5 },
	};
	Geis geis = open_mock();
	GeisEvent ev;
	GeisSubscription sub;

	geis_dispatch_events(geis);
	drain(geis, NULL);

	/* no filter: one touch */
	sub = subscribe(geis, NULL);
	assert_int_equal(drain(geis, &ev), 1);
	check_begin(geis, ev, 1);
	geis_event_delete(ev);
	/* every activation posts one */
	assert_int_equal(geis_subscription_deactivate(sub), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_SUCCESS);
	assert_int_equal(drain(geis, &ev), 1);
	check_begin(geis, ev, 1);
	geis_event_delete(ev);
	geis_subscription_delete(sub);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		GeisFilter f = geis_filter_new(geis, "touches");

		assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
			GEIS_GESTURE_ATTRIBUTE_TOUCHES, cases[i].op, cases[i].n, NULL), 0);
		sub = subscribe(geis, f);
		assert_int_equal(drain(geis, &ev), 1);
		check_begin(geis, ev, cases[i].want);
		geis_event_delete(ev);
		geis_subscription_delete(sub);
	}

	/* two filters: the lowest count either allows */
	sub = geis_subscription_new(geis, "two", GEIS_SUBSCRIPTION_NONE);
	for (int n = 4; n >= 2; n -= 2) {
		GeisFilter f = geis_filter_new(geis, n == 4 ? "four" : "two");

		assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
			GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, n, NULL), 0);
		assert_int_equal(geis_subscription_add_filter(sub, f), 0);
	}
	assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_SUCCESS);
	assert_int_equal(drain(geis, &ev), 1);
	check_begin(geis, ev, 2);
	geis_event_delete(ev);
	geis_subscription_delete(sub);

	/* no count from 1 to 5 */
	GeisFilter f = geis_filter_new(geis, "six");
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_GT, 5, NULL), 0);
	sub = geis_subscription_new(geis, "none", GEIS_SUBSCRIPTION_NONE);
	assert_int_equal(geis_subscription_add_filter(sub, f), 0);
	assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(drain(geis, NULL), 0);
	geis_subscription_delete(sub);
	geis_delete(geis);
}

/* Filters may name the device and the class by their attributes. */
static void
test_filters(void **state)
{
	Geis geis = open_mock();
	GeisFilter f = geis_filter_new(geis, "everything");
	GeisEvent ev;

	geis_dispatch_events(geis);
	drain(geis, NULL);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_DEVICE,
		GEIS_DEVICE_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, "abs-test-device",
		GEIS_DEVICE_ATTRIBUTE_ID, GEIS_FILTER_OP_EQ, 0,
		GEIS_DEVICE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_GE, 2,
		GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH, GEIS_FILTER_OP_EQ, GEIS_TRUE, NULL), 0);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, "poke",
		GEIS_CLASS_ATTRIBUTE_ID, GEIS_FILTER_OP_EQ, 2100,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL), 0);
	subscribe(geis, f);
	assert_int_equal(drain(geis, &ev), 1);
	check_begin(geis, ev, 2);
	geis_event_delete(ev);
	geis_delete(geis);
}

/* The recognizer's configuration items are not there. */
static void
test_configuration(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	Geis geis = open_mock();
	GeisSubscription sub = geis_subscription_new(geis, "s", GEIS_SUBSCRIPTION_NONE);
	GeisBoolean b = GEIS_TRUE;
	GeisFloat f = 1.0f;
	GeisInteger i = 10;
	int fd = -1;

	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIGURATION_FD, &fd), 0);
	assert_true(fd >= 0);
	assert_int_equal(geis_set_configuration(geis, GEIS_CONFIG_MAX_EVENTS, &i), 0);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_ATOMIC_GESTURES, &b),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_set_configuration(geis, GEIS_CONFIG_SEND_TENTATIVE_EVENTS, &b),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &i),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_subscription_set_configuration(sub, GEIS_CONFIG_DRAG_THRESHOLD, &f),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_subscription_get_configuration(sub, GEIS_CONFIG_TAP_TIMEOUT, &i),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_true(geis_error_count(geis) >= 1);
	geis_delete(geis);
	UT_CLIENT_BUGS_END(1);
}

/*
 * A program that subscribes before its first dispatch (the originals' own
 * gesture frame test): the class "poke" arrives before the gesture, and
 * the gesture's frame is of that class.  A subscription deactivated before
 * the start gets no gesture.
 */
static void
test_subscribed_before_start(void **state)
{
	Geis geis = geis_new(GEIS_INIT_MOCK_BACKEND, GEIS_INIT_TRACK_GESTURE_CLASSES, NULL);
	GeisSubscription sub = geis_subscription_new(geis, "test", GEIS_SUBSCRIPTION_NONE);
	GeisSubscription gone = geis_subscription_new(geis, "gone", GEIS_SUBSCRIPTION_NONE);
	GeisGestureClass poke = NULL;
	GeisEventType order[8];
	int n = 0, begins = 0;
	GeisEvent ev;

	assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_activate(gone), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_deactivate(gone), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_EMPTY);
	assert_int_equal(geis_dispatch_events(geis), GEIS_STATUS_SUCCESS);
	while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
		GeisEventType t = geis_event_type(ev);

		assert_true(n < 8);
		order[n++] = t;
		if (t == GEIS_EVENT_CLASS_AVAILABLE)
			poke = geis_attr_value_to_pointer(
				geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));
		if (t == GEIS_EVENT_GESTURE_BEGIN) {
			GeisGroupSet gs = geis_attr_value_to_pointer(
				geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));
			GeisFrame frame = geis_group_frame(geis_groupset_group(gs, 0), 0);

			assert_non_null(poke);
			assert_string_equal(geis_gesture_class_name(poke), "poke");
			assert_true(geis_frame_is_class(frame, poke));
			begins++;
		}
		geis_event_delete(ev);
	}
	assert_int_equal(n, 4);
	assert_int_equal(order[0], GEIS_EVENT_INIT_COMPLETE);
	assert_int_equal(order[1], GEIS_EVENT_CLASS_AVAILABLE);
	assert_int_equal(order[2], GEIS_EVENT_DEVICE_AVAILABLE);
	assert_int_equal(order[3], GEIS_EVENT_GESTURE_BEGIN);
	assert_int_equal(begins, 1);
	geis_subscription_delete(gone);
	geis_subscription_delete(sub);
	geis_delete(geis);
}

/* v1: the "Test" window type takes no window info and uses this backend. */
static void
test_v1_test_window(void **state)
{
	GeisWinInfo info = { geis_win_type_str(Test), NULL };
	GeisInstance inst = NULL;
	int fd = -1;

	assert_int_equal(geis_init(&info, &inst), GEIS_STATUS_SUCCESS);
	assert_non_null(inst);
	assert_int_equal(geis_configuration_get_value(inst, GEIS_CONFIG_UNIX_FD, &fd),
			 GEIS_STATUS_SUCCESS);
	assert_true(fd >= 0);
	assert_int_equal(geis_event_dispatch(inst), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);

	/* other types still need their window info */
	info.win_type = GEIS_XCB_FULL_WINDOW;
	assert_int_equal(geis_init(&info, &inst), GEIS_BAD_ARGUMENT);
}

struct v1_starts {
	int calls, matched, first_type;
};

static void
v1_start(void *cookie, GeisGestureType type, GeisGestureId id, GeisSize count,
	 GeisGestureAttr *attrs)
{
	struct v1_starts *st = cookie;

	(void)id;
	if (st->calls++ == 0)
		st->first_type = (int)type;
	for (GeisSize i = 0; i < count; i++) {
		if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_FOCUS_X) == 0 &&
		    fabsf(attrs[i].float_val - 123.456f) < 1e-4f)
			st->matched++;
		if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_FOCUS_Y) == 0 &&
		    fabsf(attrs[i].float_val - 987.654f) < 1e-3f)
			st->matched++;
	}
}

/*
 * v1 on the "Test" window (the originals' own v1 subscription test,
 * LP #728606): the test backend's gesture, of none of the v1 classes,
 * reaches gesture_start with its focus x and y, once per subscribed type,
 * as the type of its touch count that comes first in class order.
 */
static void
test_v1_test_gesture(void **state)
{
	static const char *types[] = {
		GEIS_GESTURE_TYPE_DRAG2, GEIS_GESTURE_TYPE_DRAG3, GEIS_GESTURE_TYPE_PINCH2,
		GEIS_GESTURE_TYPE_ROTATE2, GEIS_GESTURE_TYPE_TAP2, NULL
	};
	GeisWinInfo info = { geis_win_type_str(Test), NULL };
	GeisGestureFuncs funcs = { .start = v1_start };
	struct v1_starts st = { 0 };
	GeisInstance inst = NULL;

	assert_int_equal(geis_init(&info, &inst), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscribe(inst, GEIS_ALL_INPUT_DEVICES, types, &funcs, &st),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_event_dispatch(inst), GEIS_STATUS_SUCCESS);
	assert_int_equal(st.calls, 5);
	assert_int_equal(st.matched, 2 * st.calls);
	assert_int_equal(st.first_type, GEIS_GESTURE_PRIMITIVE_DRAG);
	assert_int_equal(geis_finish(inst), GEIS_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_startup),
		cmocka_unit_test(test_activation_begin),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_configuration),
		cmocka_unit_test(test_subscribed_before_start),
		cmocka_unit_test(test_v1_test_window),
		cmocka_unit_test(test_v1_test_gesture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
