/*
 * geis API objects: instance, errors, configuration, attributes, devices,
 * classes, regions, filters, subscriptions, callbacks, backend selection.
 */
#include <poll.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "geis-test.h"
#include "test-support.h"
#include "geis/geis-private.h"

#define DRAG2 "touchscreen/drag-2.evemu"

static Geis
open_sync(const char *name)
{
	Geis geis = geis_new(GEIS_INIT_TRACK_DEVICES, GEIS_INIT_SYNCHRONOUS_START,
			     UTOUCH_GEIS_INIT_RECORDING, gt_recording(name),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);

	assert_non_null(geis);
	return geis;
}

static void
test_null_handles(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	GeisEvent ev = NULL;
	int fd;

	assert_int_equal(geis_delete(NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_true(geis_error_count(NULL) >= 1);
	assert_int_equal(geis_error_code(NULL, 0), GEIS_STATUS_BAD_ARGUMENT);
	assert_non_null(strstr(geis_error_message(NULL, 0), "NULL"));
	assert_int_equal(geis_error_code(NULL, 1000), GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_error_message(NULL, 1000));
	assert_int_equal(geis_dispatch_events(NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_next_event(NULL, &ev), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_get_configuration(NULL, GEIS_CONFIGURATION_FD, &fd),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_set_configuration(NULL, GEIS_CONFIG_MAX_EVENTS, &fd),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_attr_name(NULL));
	assert_int_equal(geis_attr_type(NULL), GEIS_ATTR_TYPE_UNKNOWN);
	assert_int_equal(geis_attr_value_to_boolean(NULL), GEIS_FALSE);
	assert_int_equal(geis_attr_value_to_integer(NULL), 0);
	assert_float_equal(geis_attr_value_to_float(NULL), 0.0, 0.0);
	assert_null(geis_attr_value_to_pointer(NULL));
	assert_null(geis_attr_value_to_string(NULL));
	geis_event_delete(NULL);
	assert_int_equal(geis_event_type(NULL), 0);
	assert_int_equal(geis_event_attr_count(NULL), 0);
	assert_null(geis_event_attr(NULL, 0));
	assert_null(geis_event_attr_by_name(NULL, "x"));
	assert_null(geis_get_device(NULL, 1));
	assert_null(geis_device_ref(NULL));
	geis_device_unref(NULL);
	assert_null(geis_device_name(NULL));
	assert_int_equal(geis_device_id(NULL), 0);
	assert_int_equal(geis_device_attr_count(NULL), 0);
	assert_null(geis_device_attr(NULL, 0));
	assert_null(geis_device_attr_by_name(NULL, "x"));
	geis_gesture_class_ref(NULL);
	geis_gesture_class_unref(NULL);
	assert_null(geis_gesture_class_name(NULL));
	assert_int_equal(geis_gesture_class_id(NULL), -1);
	assert_int_equal(geis_gesture_class_attr_count(NULL), 0);
	assert_null(geis_gesture_class_attr(NULL, 0));
	assert_null(geis_region_new(NULL, "r", GEIS_REGION_X11_ROOT, NULL));
	assert_int_equal(geis_region_delete(NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_region_name(NULL));
	assert_null(geis_filter_new(NULL, "f"));
	assert_null(geis_filter_clone(NULL, "f"));
	assert_int_equal(geis_filter_delete(NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_filter_name(NULL));
	assert_int_equal(geis_filter_add_term(NULL, GEIS_FILTER_CLASS, NULL),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_subscription_new(NULL, "s", 0));
	assert_int_equal(geis_subscription_delete(NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_activate(NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_deactivate(NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_subscription_name(NULL));
	assert_int_equal(geis_subscription_id(NULL), -1);
	assert_int_equal(geis_subscription_add_filter(NULL, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_subscription_filter_by_name(NULL, "f"));
	assert_int_equal(geis_subscription_remove_filter(NULL, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_get_configuration(NULL, GEIS_CONFIG_DRAG_TIMEOUT, &fd),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_set_configuration(NULL, GEIS_CONFIG_DRAG_TIMEOUT, &fd),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_groupset_group_count(NULL), 0);
	assert_null(geis_groupset_group(NULL, 0));
	assert_int_equal(geis_group_id(NULL), -1);
	assert_int_equal(geis_group_frame_count(NULL), 0);
	assert_null(geis_group_frame(NULL, 0));
	geis_group_reject(NULL);
	assert_int_equal(geis_touchset_touch_count(NULL), 0);
	assert_null(geis_touchset_touch(NULL, 0));
	assert_null(geis_touchset_touch_by_id(NULL, 0));
	assert_int_equal(geis_touch_id(NULL), 0);
	assert_int_equal(geis_touch_attr_count(NULL), 0);
	assert_null(geis_touch_attr(NULL, 0));
	assert_null(geis_touch_attr_by_name(NULL, "x"));
	assert_int_equal(geis_frame_id(NULL), 0);
	assert_int_equal(geis_frame_is_class(NULL, NULL), GEIS_FALSE);
	assert_int_equal(geis_frame_attr_count(NULL), 0);
	assert_null(geis_frame_attr(NULL, 0));
	assert_null(geis_frame_attr_by_name(NULL, "x"));
	assert_null(geis_frame_matrix(NULL));
	assert_int_equal(geis_frame_touchid_count(NULL), 0);
	assert_int_equal(geis_frame_touchid(NULL, 0), 0);
	assert_int_equal(geis_gesture_accept(NULL, NULL, 1), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_gesture_reject(NULL, NULL, 1), GEIS_STATUS_BAD_ARGUMENT);
	geis_register_event_callback(NULL, NULL, NULL);
	geis_register_device_callback(NULL, NULL, NULL);
	geis_register_class_callback(NULL, NULL, NULL);
	assert_int_equal(utouch_geis_playback_finished(NULL), GEIS_FALSE);
	assert_int_equal(utouch_geis_now(NULL), 0);
	UT_CLIENT_BUGS_END(42);
}

static void
test_new_errors(void **state)
{
	Geis geis;

	/* unknown init arguments are skipped and reported */
	geis = geis_new("org.example.bogus", UTOUCH_GEIS_INIT_RECORDING,
			gt_recording(DRAG2), UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
	assert_non_null(geis);
	assert_int_equal(geis_error_count(NULL), 1);
	assert_int_equal(geis_error_code(NULL, 0), GEIS_STATUS_NOT_SUPPORTED);
	assert_non_null(strstr(geis_error_message(NULL, 0), "org.example.bogus"));
	geis_delete(geis);

	/* a missing recording */
	geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, "/nonexistent/file.evemu", NULL);
	assert_null(geis);
	assert_true(geis_error_count(NULL) >= 1);
	assert_non_null(strstr(geis_error_message(NULL, 0), "nonexistent"));

	/* a recording argument without a path */
	geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, NULL, NULL);
	assert_null(geis);
	assert_true(geis_error_count(NULL) >= 1);
}

static void
test_backend_env(void **state)
{
	char buf[1200];
	Geis geis;
	GeisEvent ev;
	int devices = 0;

	snprintf(buf, sizeof(buf), "recording-fast:%s", gt_recording(DRAG2));
	setenv(UTOUCH_GEIS_BACKEND_ENV, buf, 1);
	geis = geis_new(GEIS_INIT_TRACK_DEVICES, NULL);
	assert_non_null(geis);
	geis_dispatch_events(geis);
	while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
		devices += geis_event_type(ev) == GEIS_EVENT_DEVICE_AVAILABLE;
		geis_event_delete(ev);
	}
	assert_int_equal(devices, 1);
	assert_true(utouch_geis_playback_finished(geis));
	geis_delete(geis);

	setenv(UTOUCH_GEIS_BACKEND_ENV, "nonsense", 1);
	assert_null(geis_new(NULL));
	assert_int_equal(geis_error_code(NULL, 0), GEIS_STATUS_BAD_ARGUMENT);
	assert_non_null(strstr(geis_error_message(NULL, 0), "nonsense"));

	/* an init argument wins over the environment */
	geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, gt_recording(DRAG2), NULL);
	assert_non_null(geis);
	assert_false(utouch_geis_playback_finished(geis));
	geis_delete(geis);
	unsetenv(UTOUCH_GEIS_BACKEND_ENV);
}

/* Plays @p geis's input (virtual time finishes it in one dispatch). */
static int
finishes_at_once(Geis geis)
{
	GeisEvent ev;
	int finished;

	geis_dispatch_events(geis);
	while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY)
		geis_event_delete(ev);
	finished = utouch_geis_playback_finished(geis) == GEIS_TRUE;
	geis_delete(geis);
	return finished;
}

static int
open_refuse(const char *path, int flags, void *user_data)
{
	return -1;
}

/* The backend table (src/geis/geis-backend.c): which row the init
 * arguments and the environment choose, the options, and the messages. */
static void
test_backend_table(void **state)
{
	const struct utouch_geis_open_interface half = { open_refuse, NULL };
	char buf[1200];
	Geis geis;

	unsetenv(UTOUCH_GEIS_BACKEND_ENV);
	/* the last backend named wins: the mock backend never finishes */
	geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, gt_recording(DRAG2),
			UTOUCH_GEIS_INIT_RECORDING_FAST, UTOUCH_GEIS_INIT_MOCK, NULL);
	assert_non_null(geis);
	assert_false(finishes_at_once(geis));
	geis = geis_new(UTOUCH_GEIS_INIT_MOCK, UTOUCH_GEIS_INIT_RECORDING, gt_recording(DRAG2),
			UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
	assert_non_null(geis);
	assert_true(finishes_at_once(geis));

	/* the virtual-time option applies to a recording the environment chose */
	snprintf(buf, sizeof(buf), "recording:%s", gt_recording(DRAG2));
	setenv(UTOUCH_GEIS_BACKEND_ENV, buf, 1);
	geis = geis_new(UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
	assert_non_null(geis);
	assert_true(finishes_at_once(geis));
	geis = geis_new(NULL);
	assert_non_null(geis);
	assert_false(finishes_at_once(geis));

	/* a token that needs a path without one is no token; the message
	 * lists the accepted ones in table order */
	setenv(UTOUCH_GEIS_BACKEND_ENV, "recording:", 1);
	assert_null(geis_new(NULL));
	assert_int_equal(geis_error_count(NULL), 1);
	assert_int_equal(geis_error_code(NULL, 0), GEIS_STATUS_BAD_ARGUMENT);
	assert_string_equal(geis_error_message(NULL, 0),
			    UTOUCH_GEIS_BACKEND_ENV "=\"recording:\" is not recording:PATH, "
			    "recording-fast:PATH, x11 or evdev");
	setenv(UTOUCH_GEIS_BACKEND_ENV, "mock", 1);   /* the mock backend has no token */
	assert_null(geis_new(NULL));
	assert_non_null(strstr(geis_error_message(NULL, 0), "\"mock\" is not"));
	unsetenv(UTOUCH_GEIS_BACKEND_ENV);

	/* the recording init argument without its path */
	assert_null(geis_new(UTOUCH_GEIS_INIT_RECORDING, NULL, NULL));
	assert_int_equal(geis_error_count(NULL), 1);
	assert_int_equal(geis_error_code(NULL, 0), GEIS_STATUS_BAD_ARGUMENT);
	assert_string_equal(geis_error_message(NULL, 0),
			    "geis_new: the recording backend needs a path");

	/* an open interface without both functions is refused, the instance
	 * is made all the same */
	geis = geis_new(UTOUCH_GEIS_INIT_EVDEV_OPEN_INTERFACE, &half, (void *)NULL,
			UTOUCH_GEIS_INIT_RECORDING, gt_recording(DRAG2), NULL);
	assert_non_null(geis);
	assert_int_equal(geis_error_count(NULL), 1);
	assert_int_equal(geis_error_code(NULL, 0), GEIS_STATUS_BAD_ARGUMENT);
	assert_non_null(strstr(geis_error_message(NULL, 0), "needs both functions"));
	geis_delete(geis);

#ifdef FRAME_NO_X11_BACKEND
	/* a row this build lacks */
	assert_null(geis_new(UTOUCH_GEIS_INIT_X11, NULL));
	assert_int_equal(geis_error_count(NULL), 1);
	assert_int_equal(geis_error_code(NULL, 0), GEIS_STATUS_NOT_SUPPORTED);
	assert_string_equal(geis_error_message(NULL, 0),
			    "geis_new: this build has no X11 backend");
#endif
}

static void
test_init_events(void **state)
{
	Geis geis = geis_new(GEIS_INIT_TRACK_DEVICES, GEIS_INIT_TRACK_GESTURE_CLASSES,
			     UTOUCH_GEIS_INIT_RECORDING, gt_recording(DRAG2),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
	GeisEventType types[16];
	GeisEvent ev;
	int n = 0, fd = -1;
	/* geis 2.2.17's order: five classes, INIT_COMPLETE, Flick, devices */
	static const char *const names[7] = { "Drag", "Pinch", "Rotate", "Tap", "Touch",
					      NULL, "Flick" };
	static const int ids[7] = { 0, 1, 2, 15, 32, -1, 128 };

	assert_non_null(geis);
	/* asynchronous start: nothing before the first dispatch, but the fd
	 * asks for one */
	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_EMPTY);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIGURATION_FD, &fd), 0);
	assert_true(fd >= 0);
	geis_dispatch_events(geis);
	while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY && n < 16) {
		types[n] = geis_event_type(ev);
		if (types[n] == GEIS_EVENT_CLASS_AVAILABLE) {
			GeisGestureClass c = geis_attr_value_to_pointer(
				geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));

			assert_string_equal(geis_gesture_class_name(c), names[n]);
			assert_int_equal(geis_gesture_class_id(c), ids[n]);
			assert_int_equal(geis_gesture_class_attr_count(c), 2);
			assert_string_equal(geis_attr_value_to_string(geis_gesture_class_attr(c, 0)),
					    names[n]);
			assert_null(geis_gesture_class_attr(c, 2));
			assert_null(geis_gesture_class_attr(c, -1));
		}
		n++;
		geis_event_delete(ev);
	}
	assert_int_equal(n, 8);
	for (int i = 0; i < 5; i++)
		assert_int_equal(types[i], GEIS_EVENT_CLASS_AVAILABLE);
	assert_int_equal(types[5], GEIS_EVENT_INIT_COMPLETE);
	assert_int_equal(types[6], GEIS_EVENT_CLASS_AVAILABLE);
	assert_int_equal(types[7], GEIS_EVENT_DEVICE_AVAILABLE);
	geis_delete(geis);

	/* synchronous start, no TRACK arguments: the same events (geis 2.2.17
	 * ignored both arguments), queued by geis_new, the device before the
	 * late Flick class (geis 2.2.17 found its devices in geis_new and
	 * posted Flick at the first dispatch) */
	geis = geis_new(GEIS_INIT_SYNCHRONOUS_START, UTOUCH_GEIS_INIT_RECORDING,
			gt_recording(DRAG2), UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
	assert_non_null(geis);
	for (int i = 0; i < 8; i++) {
		static const GeisEventType want[8] = {
			GEIS_EVENT_CLASS_AVAILABLE, GEIS_EVENT_CLASS_AVAILABLE,
			GEIS_EVENT_CLASS_AVAILABLE, GEIS_EVENT_CLASS_AVAILABLE,
			GEIS_EVENT_CLASS_AVAILABLE, GEIS_EVENT_INIT_COMPLETE,
			GEIS_EVENT_DEVICE_AVAILABLE, GEIS_EVENT_CLASS_AVAILABLE,
		};

		assert_int_equal(geis_next_event(geis, &ev),
				 i < 7 ? GEIS_STATUS_CONTINUE : GEIS_STATUS_SUCCESS);
		assert_int_equal(geis_event_type(ev), want[i]);
		if (want[i] == GEIS_EVENT_INIT_COMPLETE)
			assert_int_equal(geis_event_attr_count(ev), 0);
		if (want[i] == GEIS_EVENT_CLASS_AVAILABLE) {
			GeisGestureClass c = geis_attr_value_to_pointer(
				geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));

			int k = i < 6 ? i : 6;   /* the eighth event is Flick */

			assert_string_equal(geis_gesture_class_name(c), names[k]);
			assert_int_equal(geis_gesture_class_id(c), ids[k]);
		}
		geis_event_delete(ev);
	}
	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_EMPTY);
	geis_delete(geis);
}

static void
test_device(void **state)
{
	Geis geis = open_sync(DRAG2);
	GeisEvent ev;
	GeisDevice d;
	GeisAttr a;
	int seen = 0;

	while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
		if (geis_event_type(ev) == GEIS_EVENT_DEVICE_AVAILABLE) {
			a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_DEVICE);
			assert_non_null(a);
			assert_int_equal(geis_attr_type(a), GEIS_ATTR_TYPE_POINTER);
			d = geis_attr_value_to_pointer(a);
			assert_ptr_equal(geis_device_ref(d), d);
			seen++;
			geis_event_delete(ev);
			/* our reference outlives the event */
			assert_string_equal(geis_device_name(d), "utouch-synth touchscreen");
			geis_device_unref(d);
			continue;
		}
		geis_event_delete(ev);
	}
	assert_int_equal(seen, 1);
	d = geis_get_device(geis, 1);
	assert_non_null(d);
	assert_null(geis_get_device(geis, 2));
	assert_int_equal(geis_device_id(d), 1);
	assert_int_equal(geis_device_attr_count(d), 11);
	assert_null(geis_device_attr(d, 11));
	a = geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH);
	assert_int_equal(geis_attr_type(a), GEIS_ATTR_TYPE_BOOLEAN);
	assert_int_equal(geis_attr_value_to_boolean(a), GEIS_TRUE);
	assert_int_equal(geis_attr_value_to_integer(a), 1);   /* converted */
	assert_null(geis_attr_value_to_string(a));            /* wrong type */
	assert_null(geis_attr_value_to_pointer(a));
	a = geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_ID);
	assert_int_equal(geis_attr_type(a), GEIS_ATTR_TYPE_INTEGER);
	assert_int_equal(geis_attr_value_to_integer(a), 1);
	assert_float_equal(geis_attr_value_to_float(a), 1.0, 0.0);
	a = geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_NAME);
	assert_string_equal(geis_attr_name(a), "device name");
	assert_int_equal(geis_attr_value_to_integer(a), 0);  /* wrong type */
	assert_int_equal(geis_attr_value_to_boolean(
		geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_INDEPENDENT_TOUCH)), 0);
	assert_int_equal(geis_attr_value_to_integer(
		geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_TOUCHES)), 10);
	assert_float_equal(geis_attr_value_to_float(
		geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_MIN_X)), 0.0, 0.0);
	assert_float_equal(geis_attr_value_to_float(
		geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_MAX_X)), 4200.0, 0.0);
	assert_float_equal(geis_attr_value_to_float(
		geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_MAX_Y)), 2800.0, 0.0);
	/* 14 units/mm in the recording = 14000 units/m */
	assert_float_equal(geis_attr_value_to_float(
		geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_RES_X)), 14000.0, 0.5);
	assert_float_equal(geis_attr_value_to_float(
		geis_device_attr_by_name(d, GEIS_DEVICE_ATTRIBUTE_RES_Y)), 14000.0, 0.5);
	assert_null(geis_device_attr_by_name(d, "no such attribute"));
	geis_delete(geis);
}

struct counts {
	int device, klass, other;
};

static void
count_device(Geis geis, GeisEvent ev, void *ctx)
{
	((struct counts *)ctx)->device++;
	geis_event_delete(ev);
}

static void
count_class(Geis geis, GeisEvent ev, void *ctx)
{
	((struct counts *)ctx)->klass++;
	geis_event_delete(ev);
}

static void
count_other(Geis geis, GeisEvent ev, void *ctx)
{
	((struct counts *)ctx)->other++;
	geis_event_delete(ev);
}

static void
test_callbacks(void **state)
{
	Geis geis = geis_new(GEIS_INIT_TRACK_DEVICES, GEIS_INIT_TRACK_GESTURE_CLASSES,
			     UTOUCH_GEIS_INIT_RECORDING, gt_recording(DRAG2),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
	struct counts c = { 0 };
	GeisEvent ev;
	GeisSubscription sub = geis_subscription_new(geis, "all", 0);

	assert_int_equal(geis_subscription_activate(sub), 0);
	geis_register_device_callback(geis, count_device, &c);
	geis_register_class_callback(geis, count_class, &c);
	geis_dispatch_events(geis);
	assert_int_equal(c.device, 1);
	assert_int_equal(c.klass, 6);   /* with Flick */
	/* no event callback: gesture events and INIT_COMPLETE stay queued */
	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_CONTINUE);
	assert_int_equal(geis_event_type(ev), GEIS_EVENT_INIT_COMPLETE);
	geis_event_delete(ev);
	geis_register_event_callback(geis, count_other, &c);
	geis_dispatch_events(geis);
	assert_true(c.other > 20);
	assert_int_equal(geis_next_event(geis, &ev), GEIS_STATUS_EMPTY);
	/* nothing left: SUCCESS, never EMPTY (geis 2.2 returned only SUCCESS,
	 * CONTINUE or UNKNOWN_ERROR from a dispatch) */
	for (int i = 0; i < 3; i++)
		assert_int_equal(geis_dispatch_events(geis), GEIS_STATUS_SUCCESS);
	geis_register_event_callback(geis, GEIS_DEFAULT_EVENT_CALLBACK, NULL);
	geis_delete(geis);
}

static void
test_configuration(void **state)
{
	Geis geis = open_sync(DRAG2);
	GeisBoolean b = 7;
	GeisInteger i = -5;
	int fd = -1;

	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIGURATION_FD, &fd), 0);
	assert_true(fd > 2);
	assert_int_equal(geis_set_configuration(geis, GEIS_CONFIGURATION_FD, &fd),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_ATOMIC_GESTURES, &b), 0);
	assert_int_equal(b, GEIS_TRUE);   /* the geis default */
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_SEND_TENTATIVE_EVENTS, &b), 0);
	assert_int_equal(b, GEIS_FALSE);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS, &b), 0);
	assert_int_equal(b, GEIS_FALSE);
	b = GEIS_TRUE;
	assert_int_equal(geis_set_configuration(geis, GEIS_CONFIG_SEND_TENTATIVE_EVENTS, &b), 0);
	b = GEIS_FALSE;
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_SEND_TENTATIVE_EVENTS, &b), 0);
	assert_int_equal(b, GEIS_TRUE);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_MAX_EVENTS, &i), 0);
	assert_int_equal(i, 16);          /* geis 2.2.17's */
	i = 100;
	assert_int_equal(geis_set_configuration(geis, GEIS_CONFIG_MAX_EVENTS, &i), 0);
	i = 0;
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_MAX_EVENTS, &i), 0);
	assert_int_equal(i, 100);
	i = -1;                           /* taken as geis 2.2.17 takes it */
	assert_int_equal(geis_set_configuration(geis, GEIS_CONFIG_MAX_EVENTS, &i), 0);
	i = 0;
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_MAX_EVENTS, &i), 0);
	assert_int_equal(i, -1);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &i), 0);
	assert_int_equal(i, 0);
	assert_int_equal(geis_get_configuration(geis, "org.example.nothing", &i),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_error_count(geis), 1);
	assert_non_null(strstr(geis_error_message(geis, 0), "org.example.nothing"));
	assert_int_equal(geis_set_configuration(geis, "org.example.nothing", &i),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIGURATION_FD, NULL),
			 GEIS_STATUS_BAD_ARGUMENT);
	geis_delete(geis);

	geis = geis_new(GEIS_INIT_NO_ATOMIC_GESTURES, GEIS_INIT_SEND_SYNCHRONOS_EVENTS,
			UTOUCH_GEIS_INIT_RECORDING, gt_recording(DRAG2), NULL);
	assert_non_null(geis);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_ATOMIC_GESTURES, &b), 0);
	assert_int_equal(b, GEIS_FALSE);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS, &b), 0);
	assert_int_equal(b, GEIS_TRUE);
	geis_delete(geis);
}

static void
test_regions(void **state)
{
	Geis geis = open_sync(DRAG2);
	GeisRegion r;

	r = geis_region_new(geis, "root", GEIS_REGION_X11_ROOT, NULL);
	assert_non_null(r);
	assert_string_equal(geis_region_name(r), "root");
	assert_int_equal(gs_region_windowid(r), 1);
	assert_int_equal(geis_region_delete(r), GEIS_STATUS_SUCCESS);
	r = geis_region_new(geis, "window", GEIS_REGION_X11_WINDOWID, 0x1234, NULL);
	assert_non_null(r);
	assert_int_equal(gs_region_windowid(r), 0x1234);
	geis_region_delete(r);
	assert_null(geis_region_new(geis, "bad", "org.example.region", NULL));
	assert_int_equal(geis_error_code(geis, 0), GEIS_STATUS_BAD_ARGUMENT);
	assert_non_null(strstr(geis_error_message(geis, 0), "org.example.region"));
	assert_null(geis_region_new(geis, "none", NULL, NULL));
	/* what the application does not delete, geis_delete() does (the
	 * leak checkers of the ASan and valgrind runs watch this) */
	assert_non_null(geis_region_new(geis, "kept", GEIS_REGION_X11_ROOT, NULL));
	assert_non_null(geis_filter_new(geis, "kept"));
	geis_delete(geis);
}

static void
test_filters(void **state)
{
	Geis geis = open_sync(DRAG2);
	GeisFilter f = geis_filter_new(geis, "drag2"), g;
	GeisDevice d = geis_get_device(geis, 1);
	struct geis_gesture_params p;

	assert_non_null(f);
	assert_string_equal(geis_filter_name(f), "drag2");
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL), GEIS_STATUS_SUCCESS);
	assert_int_equal(f->nterms, 2);
	assert_int_equal(gs_filter_gesture_params(f, 0, 0, &p), 0);
	assert_int_equal(p.mask, UGGestureTypeDrag);
	assert_int_equal(p.start, 2);
	assert_int_equal(p.min, 2);
	assert_int_equal(p.max, 2);

	/* bad terms */
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS, "no such attr",
		GEIS_FILTER_OP_EQ, 1, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_non_null(strstr(geis_error_message(geis, 0), "no such attr"));
	assert_int_equal(geis_filter_add_term(f, (GeisFilterFacility)42, NULL),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, 99, "Drag", NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_GT, "Drag", NULL),
		GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_DEVICE,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, "Drag", NULL),
		GEIS_STATUS_BAD_ARGUMENT);   /* wrong facility */
	assert_int_equal(f->nterms, 2);

	/* the touches table of the grail mapping */
	g = geis_filter_new(geis, "ge");
	geis_filter_add_term(g, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
			     GEIS_FILTER_OP_GE, 3, NULL);
	assert_int_equal(gs_filter_gesture_params(g, 0, 0, &p), 0);
	assert_int_equal(p.start, 3);
	assert_int_equal(p.min, 3);
	assert_int_equal(p.max, 5);
	assert_int_equal(p.mask, 0x1f);
	/* the CONT rule (min 1, max start) needs a mask without Tap */
	assert_int_equal(gs_filter_gesture_params(g, GEIS_SUBSCRIPTION_CONT, 0, &p), 0);
	assert_int_equal(p.min, 3);
	assert_int_equal(p.max, 5);
	geis_filter_delete(g);
	g = geis_filter_new(geis, "lt");
	geis_filter_add_term(g, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
			     GEIS_FILTER_OP_LT, 4, GEIS_CLASS_ATTRIBUTE_ID, GEIS_FILTER_OP_EQ,
			     GEIS_GESTURE_PRIMITIVE_PINCH, NULL);
	assert_int_equal(gs_filter_gesture_params(g, GEIS_SUBSCRIPTION_CONT, 0, &p), 0);
	assert_int_equal(p.mask, UGGestureTypePinch);
	assert_int_equal(p.start, 3);
	assert_int_equal(p.min, 1);
	assert_int_equal(p.max, 3);
	geis_filter_delete(g);
	/* touch counts no gesture has: refused like NE */
	{
		static const struct { GeisFilterOperation op; GeisInteger n; } bad[] = {
			{ GEIS_FILTER_OP_EQ, 0 }, { GEIS_FILTER_OP_EQ, -3 },
			{ GEIS_FILTER_OP_EQ, 6 }, { GEIS_FILTER_OP_GE, 6 },
			{ GEIS_FILTER_OP_GT, 5 }, { GEIS_FILTER_OP_LE, 0 },
			{ GEIS_FILTER_OP_LT, 1 },
		};

		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			g = geis_filter_new(geis, "impossible");
			geis_filter_add_term(g, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
					     bad[k].op, bad[k].n, NULL);
			assert_int_equal(gs_filter_gesture_params(g, 0, 0, &p), -1);
			geis_filter_delete(g);
		}
		/* the edges that are possible */
		g = geis_filter_new(geis, "edges");
		geis_filter_add_term(g, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
				     GEIS_FILTER_OP_GE, 0, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
				     GEIS_FILTER_OP_LE, 5, NULL);
		assert_int_equal(gs_filter_gesture_params(g, 0, 0, &p), 0);
		geis_filter_delete(g);
	}
	g = geis_filter_new(geis, "ne");
	geis_filter_add_term(g, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
			     GEIS_FILTER_OP_NE, 2, NULL);
	assert_int_equal(gs_filter_gesture_params(g, 0, 0, &p), -1);
	geis_filter_delete(g);

	/* device terms */
	g = geis_filter_new(geis, "dev");
	assert_int_equal(geis_filter_add_term(g, GEIS_FILTER_DEVICE,
		GEIS_DEVICE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_GE, 2,
		GEIS_DEVICE_ATTRIBUTE_MAX_X, GEIS_FILTER_OP_GT, 4000.0,
		GEIS_DEVICE_ATTRIBUTE_NAME, GEIS_FILTER_OP_NE, "other", NULL), 0);
	assert_true(gs_filter_match_device(g, d));
	assert_int_equal(geis_filter_add_term(g, GEIS_FILTER_DEVICE,
		GEIS_DEVICE_ATTRIBUTE_MAX_Y, GEIS_FILTER_OP_LT, 2000.0, NULL), 0);
	assert_false(gs_filter_match_device(g, d));

	/* a clone has the same terms and a new name; the original stays */
	{
		GeisFilter c = geis_filter_clone(g, "copy");

		assert_non_null(c);
		assert_string_equal(geis_filter_name(c), "copy");
		assert_string_equal(geis_filter_name(g), "dev");
		assert_int_equal(c->nterms, g->nterms);
		assert_false(gs_filter_match_device(c, d));
		assert_string_equal(c->terms[2].v.s, "other");
		assert_ptr_not_equal(c->terms[2].v.s, g->terms[2].v.s);
		geis_filter_delete(c);
	}
	geis_filter_delete(g);
	geis_filter_delete(f);
	geis_delete(geis);
}

static void
test_subscriptions(void **state)
{
	Geis geis = open_sync(DRAG2);
	GeisSubscription s = geis_subscription_new(geis, "one", GEIS_SUBSCRIPTION_CONT);
	GeisSubscription t = geis_subscription_new(geis, "two", GEIS_SUBSCRIPTION_GRAB);
	GeisFilter f = geis_filter_new(geis, "f"), g = geis_filter_new(geis, "g");
	GeisFloat fl = -1;
	GeisInteger in = -1;
	GeisInteger n;
	uint64_t t64 = 0;

	assert_non_null(s);
	assert_non_null(t);
	assert_string_equal(geis_subscription_name(s), "one");
	assert_int_not_equal(geis_subscription_id(s), geis_subscription_id(t));
	assert_null(geis_subscription_new(geis, "bad", 0x100));
	assert_int_equal(geis_error_code(geis, 0), GEIS_STATUS_BAD_ARGUMENT);

	assert_int_equal(geis_subscription_add_filter(s, f), 0);
	assert_int_equal(geis_subscription_add_filter(s, g), 0);
	assert_int_equal(geis_subscription_add_filter(t, f), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_delete(f), GEIS_STATUS_BAD_ARGUMENT);  /* owned */
	assert_ptr_equal(geis_subscription_filter_by_name(s, "g"), g);
	assert_null(geis_subscription_filter_by_name(s, "h"));
	assert_int_equal(geis_subscription_remove_filter(s, g), 0);
	assert_null(geis_subscription_filter_by_name(s, "g"));
	assert_int_equal(geis_subscription_remove_filter(s, g), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_delete(g), 0);

	/* configuration: grail's defaults, forwarded to grail */
	assert_int_equal(geis_subscription_get_configuration(s, GEIS_CONFIG_DRAG_TIMEOUT, &in), 0);
	assert_int_equal(in, 300);
	assert_int_equal(geis_subscription_get_configuration(s, GEIS_CONFIG_PINCH_THRESHOLD, &fl), 0);
	assert_float_equal(fl, 1.1, 1e-6);
	assert_int_equal(geis_subscription_get_configuration(s, GEIS_CONFIG_ROTATE_TIMEOUT, &in), 0);
	assert_int_equal(in, 500);
	assert_int_equal(geis_subscription_get_configuration(s, "org.example.x", &in),
			 GEIS_STATUS_NOT_SUPPORTED);
	in = 700;
	assert_int_equal(geis_subscription_set_configuration(s, GEIS_CONFIG_TAP_TIMEOUT, &in), 0);
	fl = 0.01f;
	assert_int_equal(geis_subscription_set_configuration(s, GEIS_CONFIG_DRAG_THRESHOLD, &fl), 0);
	fl = -1.0f;
	assert_int_equal(geis_subscription_set_configuration(s, GEIS_CONFIG_DRAG_THRESHOLD, &fl),
			 GEIS_STATUS_BAD_ARGUMENT);
	in = -3;
	assert_int_equal(geis_subscription_set_configuration(s, GEIS_CONFIG_TAP_TIMEOUT, &in),
			 GEIS_STATUS_BAD_ARGUMENT);

	assert_int_equal(geis_subscription_activate(s), 0);
	assert_false(ut_list_empty(&s->bindings));
	assert_int_equal(grail_subscription_get_property(gs_binding_of(s->bindings.next)->ug,
		UGSubscriptionPropertyTapTimeout, &t64), UGStatusSuccess);
	assert_int_equal(t64, 700);
	assert_int_equal(grail_subscription_get_property(gs_binding_of(s->bindings.next)->ug,
		UGSubscriptionPropertyDragThreshold, &fl), UGStatusSuccess);
	assert_float_equal(fl, 0.01, 1e-7);
	/* changes reach an active subscription at once */
	in = 250;
	assert_int_equal(geis_subscription_set_configuration(s, GEIS_CONFIG_DRAG_TIMEOUT, &in), 0);
	assert_int_equal(grail_subscription_get_property(gs_binding_of(s->bindings.next)->ug,
		UGSubscriptionPropertyDragTimeout, &t64), UGStatusSuccess);
	assert_int_equal(t64, 250);

	/* no filter: activates with the whole-device fallback (window 1) */
	assert_int_equal(geis_subscription_activate(t), 0);
	assert_false(ut_list_empty(&t->bindings));
	assert_int_equal(gs_binding_of(t->bindings.next)->window, 1);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(geis_subscription_deactivate(t), 0);
	assert_true(ut_list_empty(&t->bindings));
	assert_int_equal(geis_subscription_deactivate(t), 0);   /* twice is fine */
	assert_int_equal(geis_subscription_delete(t), 0);

	/* an impossible filter fails to activate with a message */
	t = geis_subscription_new(geis, "impossible", 0);
	g = geis_filter_new(geis, "ne");
	geis_filter_add_term(g, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
			     GEIS_FILTER_OP_NE, 2, NULL);
	geis_subscription_add_filter(t, g);
	assert_int_equal(geis_subscription_activate(t), GEIS_STATUS_BAD_ARGUMENT);
	assert_true(geis_error_count(geis) >= 1);
	assert_non_null(strstr(geis_error_message(geis, 0), "impossible"));
	/* the instance deletes what is left */
	geis_delete(geis);
}

/* A subscription's configuration starts with grail's defaults, read from
 * grail (the one place they are written), and reaches grail unchanged. */
static void
test_config_defaults_are_grails(void **state)
{
	static const struct {
		const char *name;
		UGSubscriptionProperty prop;
		int is_float;   /* else a time or count */
		int is_count;   /* an unsigned int in grail */
	} items[] = {
		{ GEIS_CONFIG_DRAG_THRESHOLD, UGSubscriptionPropertyDragThreshold, 1, 0 },
		{ GEIS_CONFIG_DRAG_TIMEOUT, UGSubscriptionPropertyDragTimeout, 0, 0 },
		{ GEIS_CONFIG_PINCH_THRESHOLD, UGSubscriptionPropertyPinchThreshold, 1, 0 },
		{ GEIS_CONFIG_PINCH_TIMEOUT, UGSubscriptionPropertyPinchTimeout, 0, 0 },
		{ GEIS_CONFIG_ROTATE_THRESHOLD, UGSubscriptionPropertyRotateThreshold, 1, 0 },
		{ GEIS_CONFIG_ROTATE_TIMEOUT, UGSubscriptionPropertyRotateTimeout, 0, 0 },
		{ GEIS_CONFIG_TAP_THRESHOLD, UGSubscriptionPropertyTapThreshold, 1, 0 },
		{ GEIS_CONFIG_TAP_TIMEOUT, UGSubscriptionPropertyTapTimeout, 0, 0 },
		{ UTOUCH_GEIS_CONFIG_HOLD_TIMEOUT, UGSubscriptionPropertyHoldTimeout, 0, 0 },
		{ UTOUCH_GEIS_CONFIG_HOLD_THRESHOLD, UGSubscriptionPropertyHoldThreshold, 1, 0 },
		{ UTOUCH_GEIS_CONFIG_MULTITAP_TIMEOUT, UGSubscriptionPropertyMultiTapTimeout, 0, 0 },
		{ UTOUCH_GEIS_CONFIG_MULTITAP_THRESHOLD, UGSubscriptionPropertyMultiTapThreshold, 1, 0 },
		{ UTOUCH_GEIS_CONFIG_MULTITAP_MAXIMUM, UGSubscriptionPropertyMultiTapMaximum, 0, 1 },
		{ UTOUCH_GEIS_CONFIG_EDGE_SWIPE_EDGES, UGSubscriptionPropertyEdgeSwipeEdges, 0, 1 },
		{ UTOUCH_GEIS_CONFIG_EDGE_SWIPE_MARGIN, UGSubscriptionPropertyEdgeSwipeMargin, 1, 0 },
		{ UTOUCH_GEIS_CONFIG_EDGE_SWIPE_VELOCITY, UGSubscriptionPropertyEdgeSwipeVelocity, 1, 0 },
		{ UTOUCH_GEIS_CONFIG_VELOCITY_WINDOW, UGSubscriptionPropertyVelocityWindow, 0, 0 },
		{ UTOUCH_GEIS_CONFIG_WHOLE_HAND, UGSubscriptionPropertyWholeHand, 0, 1 },
	};
	Geis geis = open_sync(DRAG2);
	GeisSubscription s = geis_subscription_new(geis, "defaults", 0);
	UGSubscription fresh = NULL;

	(void)state;
	assert_non_null(s);
	assert_int_equal(grail_subscription_new(&fresh), UGStatusSuccess);
	assert_int_equal(geis_subscription_activate(s), 0);
	assert_false(ut_list_empty(&s->bindings));
	UGSubscription bound = gs_binding_of(s->bindings.next)->ug;
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		if (items[i].is_float) {
			GeisFloat g = -1, want = -2, got = -3;
			assert_int_equal(geis_subscription_get_configuration(s, items[i].name, &g), 0);
			grail_subscription_get_property(fresh, items[i].prop, &want);
			grail_subscription_get_property(bound, items[i].prop, &got);
			assert_true(g == want); /* bit for bit: one source */
			assert_true(got == want);
		} else {
			GeisInteger g = -1;
			uint64_t want = 1u << 31, got = 1u << 30;
			unsigned int uw = 1000, ug = 1001;
			assert_int_equal(geis_subscription_get_configuration(s, items[i].name, &g), 0);
			if (items[i].is_count) {
				grail_subscription_get_property(fresh, items[i].prop, &uw);
				grail_subscription_get_property(bound, items[i].prop, &ug);
				want = uw;
				got = ug;
			} else {
				grail_subscription_get_property(fresh, items[i].prop, &want);
				grail_subscription_get_property(bound, items[i].prop, &got);
			}
			assert_int_equal((uint64_t)g, want);
			assert_int_equal(got, want);
		}
	}
	grail_subscription_delete(fresh);
	geis_delete(geis);
}

/* A device that goes away: DEVICE_UNAVAILABLE, its subscriptions'
 * grail bindings go, the subscription stays active for new devices. */
static void
test_device_removed(void **state)
{
	Geis geis = open_sync(DRAG2);
	GeisSubscription sub = geis_subscription_new(geis, "all", 0);
	GeisDevice d = geis_get_device(geis, 1);
	GeisEvent ev;
	int unavailable = 0;
	GeisInteger n;

	assert_non_null(d);
	assert_int_equal(geis_subscription_activate(sub), 0);
	assert_false(ut_list_empty(&sub->bindings));
	gs_core_device_removed(geis, d->uf);
	assert_true(ut_list_empty(&sub->bindings));
	assert_null(geis_get_device(geis, 1));
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &n), 0);
	assert_int_equal(n, 1);
	while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
		if (geis_event_type(ev) == GEIS_EVENT_DEVICE_UNAVAILABLE) {
			GeisDevice gone = geis_attr_value_to_pointer(
				geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_DEVICE));

			assert_int_equal(geis_device_id(gone), 1);
			assert_string_equal(geis_device_name(gone), "utouch-synth touchscreen");
			unavailable++;
		}
		geis_event_delete(ev);
	}
	assert_int_equal(unavailable, 1);
	geis_delete(geis);
}

/*
 * The "timestamp" of a server clock (X11: time_origin 0) is the server
 * time modulo 2^31, wrapping to 0; other clocks count from one second
 * before the start and give 0 for anything older.
 */
static void
test_timestamp_wrap(void **state)
{
	Geis geis = open_sync(DRAG2);
	uint64_t origin = geis->time_origin;

	assert_int_equal(gs_core_timestamp(geis, origin + 1234), 1234);
	assert_int_equal(gs_core_timestamp(geis, origin ? origin - 1 : 0), 0);
	geis->time_origin = 0;   /* as for the X11 backend */
	assert_int_equal(gs_core_timestamp(geis, 987654), 987654);
	assert_int_equal(gs_core_timestamp(geis, 0x7fffffffu), 0x7fffffff);
	assert_int_equal(gs_core_timestamp(geis, 0x80000000u), 0);
	assert_int_equal(gs_core_timestamp(geis, 0x80000005u), 5);
	assert_int_equal(gs_core_timestamp(geis, 0x100000007ull), 7);
	geis_delete(geis);
}

/* The eventfd counter of @p fd, from /proc (reading the fd would clear it). */
static unsigned long long
eventfd_count(int fd)
{
	char path[64], line[256];
	unsigned long long n = ~0ull;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "eventfd-count:", 14) == 0)
			n = strtoull(line + 14, NULL, 16);
	fclose(f);
	return n;
}

/* Many events queued in one dispatch wake the instance with one write;
 * the next dispatch clears it, and the next events wake it again. */
static void
test_wake_written_once(void **state)
{
	Geis geis = open_sync(DRAG2);
	GeisSubscription sub = geis_subscription_new(geis, "all", 0);
	GeisEvent ev;
	int fd = -1;

	assert_int_equal(geis_subscription_activate(sub), 0);
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIGURATION_FD, &fd), 0);
	for (int i = 0; i < 64 && geis->queue.count < 10; i++)
		geis_dispatch_events(geis);
	assert_true(geis->queue.count >= 10);
	assert_int_equal(eventfd_count(geis->wakefd), 1);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	assert_int_equal(poll(&p, 1, 0), 1);

	/* take everything until a dispatch queues nothing: it has read the
	 * wake fd, and nothing wrote it since */
	for (int i = 0; i < 64; i++) {
		while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY)
			geis_event_delete(ev);
		geis_dispatch_events(geis);
		if (geis->queue.count == 0)
			break;
	}
	assert_int_equal(geis->queue.count, 0);
	assert_int_equal(eventfd_count(geis->wakefd), 0);
	/* the next wake-up writes it again */
	geis_register_device_callback(geis, GEIS_DEFAULT_EVENT_CALLBACK, NULL);
	assert_int_equal(eventfd_count(geis->wakefd), 1);
	p.revents = 0;
	assert_int_equal(poll(&p, 1, 0), 1);
	geis_subscription_delete(sub);
	geis_delete(geis);
}

/* An instance's log handler that deletes its instance: outside a dispatch
 * the call that logged still runs on it.  The delete is refused
 * (GEIS_STATUS_BAD_ARGUMENT, a client bug on stderr) and the instance
 * keeps working; inside a dispatch it is finished as the dispatch returns
 * (see test-geis-fuzz-regress). */
struct log_deleter {
	Geis geis;
	int calls;
	GeisStatus status;
};

static void
deleting_log(void *data, enum utouch_geis_log_priority priority, const char *message)
{
	struct log_deleter *d = data;

	(void)priority;
	(void)message;
	if (d->calls++ == 0)
		d->status = geis_delete(d->geis);
}

static void
test_log_handler_cannot_delete(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	(void)state;
	Geis geis = geis_new(GEIS_INIT_MOCK_BACKEND, NULL);
	struct log_deleter d = { geis, 0, GEIS_STATUS_SUCCESS };
	GeisSubscription sub;
	GeisFilter f;

	assert_non_null(geis);
	utouch_geis_set_log_handler(geis, deleting_log, &d);
	sub = geis_subscription_new(geis, "none", GEIS_SUBSCRIPTION_NONE);
	f = geis_filter_new(geis, "six");
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
					      GEIS_FILTER_OP_GT, 5, NULL), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_add_filter(sub, f), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_BAD_ARGUMENT);
	assert_true(d.calls >= 1);
	assert_int_equal(d.status, GEIS_STATUS_BAD_ARGUMENT);
	/* still an instance */
	assert_int_equal(geis_dispatch_events(geis), GEIS_STATUS_SUCCESS);
	utouch_geis_set_log_handler(geis, NULL, NULL);
	geis_subscription_delete(sub);
	assert_int_equal(geis_delete(geis), GEIS_STATUS_SUCCESS);
	UT_CLIENT_BUGS_END(1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_handles),
		cmocka_unit_test(test_timestamp_wrap),
		cmocka_unit_test(test_new_errors),
		cmocka_unit_test(test_backend_env),
		cmocka_unit_test(test_backend_table),
		cmocka_unit_test(test_init_events),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_device_removed),
		cmocka_unit_test(test_callbacks),
		cmocka_unit_test(test_wake_written_once),
		cmocka_unit_test(test_configuration),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_subscriptions),
		cmocka_unit_test(test_config_defaults_are_grails),
		cmocka_unit_test(test_log_handler_cannot_delete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
