/*
 * Tests of the frame library: consumer API, producer rules, event queue.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <poll.h>
#include <unistd.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

#include "frame/frame-private.h"
#include "test-support.h"

/* Untyped calls, bypassing the C11 _Generic macros. */
#define dev_prop(d, p, v) (frame_device_get_property)((d), (p), (v))
#define ev_prop(e, p, v) (frame_event_get_property)((e), (p), (v))
#define fr_prop(f, p, v) (frame_frame_get_property)((f), (p), (v))
#define to_prop(t, p, v) (frame_touch_get_property)((t), (p), (v))

static UFBackendDevice
make_device(void)
{
	UFBackendDevice dev = frame_backend_device_new();

	assert_non_null(dev);
	frame_backend_device_set_name(dev, "test pad");
	frame_backend_device_set_direct(dev, 1);
	frame_backend_device_set_independent(dev, 0);
	frame_backend_device_set_semi_mt(dev, 0);
	frame_backend_device_set_max_touches(dev, 10);
	frame_backend_device_set_window_resolution(dev, 3800.0f, 3900.0f);
	frame_backend_device_add_axis(dev, UFAxisTypeY, 0.0f, 600.0f, 40000.0f);
	frame_backend_device_add_axis(dev, UFAxisTypeX, 0.0f, 1000.0f, 50000.0f);
	frame_backend_device_add_axis(dev, UFAxisTypePressure, 0.0f, 255.0f, 0.0f);
	return dev;
}

static UFBackendTouch
make_touch(UFTouchId id, uint64_t time, float x, float y)
{
	UFBackendTouch bt = frame_backend_touch_new();

	assert_non_null(bt);
	frame_backend_touch_set_id(bt, id);
	frame_backend_touch_set_time(bt, time);
	frame_backend_touch_set_start_time(bt, time);
	frame_backend_touch_set_window_pos(bt, x, y);
	frame_backend_touch_set_value(bt, UFAxisTypeX, x * 10.0f);
	frame_backend_touch_set_value(bt, UFAxisTypeY, y * 10.0f);
	frame_backend_touch_set_owned(bt, 0);
	frame_backend_touch_set_pending_end(bt, 0);
	return bt;
}

static void
give(UFBackendFrame fr, UFBackendTouch bt)
{
	assert_int_equal(frame_backend_frame_give_touch(fr, &bt), UFStatusSuccess);
	assert_null(bt);
}

static UFTouch
touch_by_id(UFBackendFrame fr, UFTouchId id)
{
	UFTouch t = NULL;

	assert_int_equal(frame_frame_get_touch_by_id(frame_backend_frame_get_frame(fr), id, &t),
			 UFStatusSuccess);
	return t;
}

/* ------------------------------------------------------------------ */

static void
test_device_properties(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice bdev = make_device();
	UFDevice dev = frame_backend_device_get_device(bdev);
	const char *name = NULL;
	char *mname = NULL;
	int i = -1;
	unsigned int u = 0;
	float f = 0.0f;

	assert_int_equal(dev_prop(dev, UFDevicePropertyName, &name), UFStatusSuccess);
	assert_string_equal(name, "test pad");
	assert_int_equal(frame_device_get_property_string_(dev, UFDevicePropertyName, &mname),
			 UFStatusSuccess);
	assert_string_equal(mname, "test pad");
	assert_int_equal(dev_prop(dev, UFDevicePropertyDirect, &i), UFStatusSuccess);
	assert_int_equal(i, 1);
	assert_int_equal(dev_prop(dev, UFDevicePropertyIndependent, &i), UFStatusSuccess);
	assert_int_equal(i, 0);
	assert_int_equal(frame_device_get_property_int_(dev, UFDevicePropertySemiMT, &i),
			 UFStatusSuccess);
	assert_int_equal(i, 0);
	assert_int_equal(dev_prop(dev, UFDevicePropertyMaxTouches, &u), UFStatusSuccess);
	assert_int_equal(u, 10);
	assert_int_equal(frame_device_get_property_unsigned_int_(dev, UFDevicePropertyNumAxes,
								 &u),
			 UFStatusSuccess);
	assert_int_equal(u, 3);
	assert_int_equal(dev_prop(dev, UFDevicePropertyWindowResolutionX, &f), UFStatusSuccess);
	assert_float_equal(f, 3800.0f, 0.0f);
	assert_int_equal(frame_device_get_property_float_(dev, UFDevicePropertyWindowResolutionY,
							  &f),
			 UFStatusSuccess);
	assert_float_equal(f, 3900.0f, 0.0f);
	assert_float_equal(frame_device_get_window_resolution_x(dev), 3800.0f, 0.0f);
	assert_float_equal(frame_device_get_window_resolution_y(dev), 3900.0f, 0.0f);
	assert_int_equal(frame_device_get_num_axes(dev), 3);

	/* wrong value types */
	assert_int_equal(frame_device_get_property_int_(dev, UFDevicePropertyName, &i),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_device_get_property_float_(dev, UFDevicePropertyMaxTouches, &f),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_device_get_property_unsigned_int_(dev, UFDevicePropertyDirect,
								 &u),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_device_get_property_const_string_(dev,
								 UFDevicePropertyWindowResolutionX,
								 &name),
			 UFStatusErrorInvalidType);
	/* unknown property, NULLs */
	assert_int_equal(dev_prop(dev, (UFDeviceProperty)42, &u), UFStatusErrorUnknownProperty);
	assert_int_equal(frame_device_get_property_int_(dev, (UFDeviceProperty)-1, &i),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(dev_prop(NULL, UFDevicePropertyDirect, &i), UFStatusErrorGeneric);
	assert_int_equal(dev_prop(dev, UFDevicePropertyDirect, NULL), UFStatusErrorGeneric);
	assert_int_equal(frame_device_get_num_axes(NULL), 0);

	/* clearing the name */
	frame_backend_device_set_name(bdev, NULL);
	assert_int_equal(dev_prop(dev, UFDevicePropertyName, &name),
			 UFStatusErrorUnknownProperty);
	frame_backend_device_delete(bdev);
	UT_CLIENT_BUGS_END(7);
}

static void
test_device_unset_properties(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice bdev = frame_backend_device_new();
	UFDevice dev = frame_backend_device_get_device(bdev);
	float f = 7.0f;
	unsigned int u = 7;
	int i = 7;
	const char *name = "x";

	/* The original asserted here; we answer 0 and UnknownProperty. */
	assert_float_equal(frame_device_get_window_resolution_x(dev), 0.0f, 0.0f);
	assert_float_equal(frame_device_get_window_resolution_y(dev), 0.0f, 0.0f);
	assert_int_equal(dev_prop(dev, UFDevicePropertyWindowResolutionX, &f),
			 UFStatusErrorUnknownProperty);
	assert_float_equal(f, 7.0f, 0.0f);
	assert_int_equal(dev_prop(dev, UFDevicePropertyName, &name),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(dev_prop(dev, UFDevicePropertyDirect, &i),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(dev_prop(dev, UFDevicePropertyMaxTouches, &u),
			 UFStatusErrorUnknownProperty);
	/* NumAxes is always known */
	assert_int_equal(dev_prop(dev, UFDevicePropertyNumAxes, &u), UFStatusSuccess);
	assert_int_equal(u, 0);
	assert_float_equal(frame_device_get_window_resolution_x(NULL), 0.0f, 0.0f);

	/* setters on NULL do nothing */
	frame_backend_device_set_name(NULL, "x");
	frame_backend_device_set_direct(NULL, 1);
	frame_backend_device_set_independent(NULL, 1);
	frame_backend_device_set_semi_mt(NULL, 1);
	frame_backend_device_set_max_touches(NULL, 1);
	frame_backend_device_set_window_resolution(NULL, 1, 1);
	frame_backend_device_add_axis(NULL, UFAxisTypeX, 0, 1, 1);
	frame_backend_device_delete(NULL);
	assert_null(frame_backend_device_get_device(NULL));
	frame_backend_device_delete(bdev);
	UT_CLIENT_BUGS_END(8);
}

static void
test_device_axes(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice bdev = make_device();
	UFDevice dev = frame_backend_device_get_device(bdev);
	UFAxis axis = NULL;

	/* listed in type order: X, Y, Pressure */
	assert_int_equal(frame_device_get_axis_by_index(dev, 0, &axis), UFStatusSuccess);
	assert_int_equal(frame_axis_get_type(axis), UFAxisTypeX);
	assert_float_equal(frame_axis_get_maximum(axis), 1000.0f, 0.0f);
	assert_float_equal(frame_axis_get_resolution(axis), 50000.0f, 0.0f);
	assert_int_equal(frame_device_get_axis_by_index(dev, 1, &axis), UFStatusSuccess);
	assert_int_equal(frame_axis_get_type(axis), UFAxisTypeY);
	assert_float_equal(frame_axis_get_minimum(axis), 0.0f, 0.0f);
	assert_float_equal(frame_axis_get_maximum(axis), 600.0f, 0.0f);
	assert_int_equal(frame_device_get_axis_by_index(dev, 2, &axis), UFStatusSuccess);
	assert_int_equal(frame_axis_get_type(axis), UFAxisTypePressure);
	assert_int_equal(frame_device_get_axis_by_index(dev, 3, &axis),
			 UFStatusErrorInvalidAxis);

	assert_int_equal(frame_device_get_axis_by_type(dev, UFAxisTypePressure, &axis),
			 UFStatusSuccess);
	assert_float_equal(frame_axis_get_maximum(axis), 255.0f, 0.0f);
	assert_int_equal(frame_device_get_axis_by_type(dev, UFAxisTypeTouchMajor, &axis),
			 UFStatusErrorInvalidAxis);
	assert_int_equal(frame_device_get_axis_by_type(dev, (UFAxisType)99, &axis),
			 UFStatusErrorInvalidAxis);
	assert_int_equal(frame_device_get_axis_by_type(NULL, UFAxisTypeX, &axis),
			 UFStatusErrorInvalidAxis);

	/* a second axis of a type replaces the first; bad types and ranges that
	 * are not numbers are ignored */
	frame_backend_device_add_axis(bdev, UFAxisTypeX, NAN, 2000.0f, 1.0f);
	frame_backend_device_add_axis(bdev, UFAxisTypeX, 0.0f, INFINITY, 1.0f);
	frame_backend_device_add_axis(bdev, UFAxisTypeX, 0.0f, 10.0f, NAN);
	assert_int_equal(frame_device_get_axis_by_type(dev, UFAxisTypeX, &axis), UFStatusSuccess);
	assert_float_equal(frame_axis_get_maximum(axis), 1000.0f, 0.0f);
	frame_backend_device_set_window_resolution(bdev, NAN, 1.0f);
	assert_true(isfinite(frame_device_get_window_resolution_x(dev)));
	frame_backend_device_add_axis(bdev, UFAxisTypeX, -5.0f, 2000.0f, 1.0f);
	frame_backend_device_add_axis(bdev, (UFAxisType)12, 0.0f, 1.0f, 1.0f);
	assert_int_equal(frame_device_get_num_axes(dev), 3);
	assert_int_equal(frame_device_get_axis_by_type(dev, UFAxisTypeX, &axis), UFStatusSuccess);
	assert_float_equal(frame_axis_get_minimum(axis), -5.0f, 0.0f);
	assert_float_equal(frame_axis_get_maximum(axis), 2000.0f, 0.0f);

	assert_float_equal(frame_axis_get_maximum(NULL), 0.0f, 0.0f);
	assert_float_equal(frame_axis_get_minimum(NULL), 0.0f, 0.0f);
	assert_float_equal(frame_axis_get_resolution(NULL), 0.0f, 0.0f);
	assert_int_equal(frame_axis_get_type(NULL), UFAxisTypeX);
	frame_backend_device_delete(bdev);
	UT_CLIENT_BUGS_END(9);
}

static void
test_event_properties(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice bdev = make_device();
	UFBackendFrame fr = frame_backend_frame_new();
	UFEvent ev = frame_event_new();
	UFEventType type = UFEventTypeFrame;
	UFDevice dev = NULL;
	UFFrame frame = NULL;
	uint64_t time = 0;

	/* nothing is set on a new event */
	assert_int_equal(ev_prop(ev, UFEventPropertyType, &type), UFStatusErrorUnknownProperty);
	assert_int_equal(ev_prop(ev, UFEventPropertyTime, &time), UFStatusErrorUnknownProperty);
	assert_int_equal(ev_prop(ev, UFEventPropertyDevice, &dev), UFStatusErrorUnknownProperty);
	assert_int_equal(ev_prop(ev, UFEventPropertyFrame, &frame),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(frame_event_get_time(ev), 0);

	frame_event_set_type(ev, UFEventTypeDeviceAdded);
	frame_event_set_device(ev, bdev);
	frame_event_set_time(ev, 1234);
	frame_event_set_type(ev, (UFEventType)7); /* ignored */
	assert_int_equal(ev_prop(ev, UFEventPropertyType, &type), UFStatusSuccess);
	assert_int_equal(type, UFEventTypeDeviceAdded);
	assert_int_equal(frame_event_get_type(ev), UFEventTypeDeviceAdded);
	assert_int_equal(ev_prop(ev, UFEventPropertyDevice, &dev), UFStatusSuccess);
	assert_ptr_equal(dev, frame_backend_device_get_device(bdev));
	assert_int_equal(ev_prop(ev, UFEventPropertyTime, &time), UFStatusSuccess);
	assert_int_equal(time, 1234);
	assert_int_equal(frame_event_get_time(ev), 1234);

	frame_event_set_type(ev, UFEventTypeFrame);
	frame_event_set_frame(ev, fr);
	assert_int_equal(frame_event_get_property_frame_(ev, UFEventPropertyFrame, &frame),
			 UFStatusSuccess);
	assert_ptr_equal(frame, frame_backend_frame_get_frame(fr));
	assert_int_equal(frame_event_get_property_type_(ev, UFEventPropertyType, &type),
			 UFStatusSuccess);
	assert_int_equal(type, UFEventTypeFrame);
	assert_int_equal(frame_event_get_property_device_(ev, UFEventPropertyDevice, &dev),
			 UFStatusSuccess);
	assert_int_equal(frame_event_get_property_uint64_(ev, UFEventPropertyTime, &time),
			 UFStatusSuccess);

	/* wrong types, unknown property, NULL */
	assert_int_equal(frame_event_get_property_uint64_(ev, UFEventPropertyType, &time),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_event_get_property_frame_(ev, UFEventPropertyDevice, &frame),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_event_get_property_device_(ev, UFEventPropertyFrame, &dev),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_event_get_property_type_(ev, UFEventPropertyTime, &type),
			 UFStatusErrorInvalidType);
	assert_int_equal(ev_prop(ev, (UFEventProperty)9, &time), UFStatusErrorUnknownProperty);
	assert_int_equal(ev_prop(NULL, UFEventPropertyTime, &time), UFStatusErrorGeneric);
	assert_int_equal(frame_event_get_type(NULL), UFEventTypeDeviceAdded);
	assert_int_equal(frame_event_get_time(NULL), 0);

	/* clearing */
	frame_event_set_device(ev, NULL);
	frame_event_set_frame(ev, NULL);
	assert_int_equal(ev_prop(ev, UFEventPropertyDevice, &dev), UFStatusErrorUnknownProperty);
	assert_int_equal(ev_prop(ev, UFEventPropertyFrame, &frame),
			 UFStatusErrorUnknownProperty);

	frame_event_set_type(NULL, UFEventTypeFrame);
	frame_event_set_device(NULL, bdev);
	frame_event_set_frame(NULL, fr);
	frame_event_set_time(NULL, 1);
	frame_event_ref(NULL);
	frame_event_unref(NULL);

	frame_event_unref(ev);
	frame_backend_frame_delete(fr);
	frame_backend_device_delete(bdev);
	UT_CLIENT_BUGS_END(9);
}

static void
test_touch_properties(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendTouch bt = frame_backend_touch_new();
	UFTouch t = frame_backend_touch_get_touch(bt);
	UFTouchState st = UFTouchStateEnd;
	uint64_t u = 0;
	float f = 0.0f;
	int i = -1;

	/* a new touch only has its state */
	assert_int_equal(to_prop(t, UFTouchPropertyState, &st), UFStatusSuccess);
	assert_int_equal(st, UFTouchStateBegin);
	assert_int_equal(to_prop(t, UFTouchPropertyId, &u), UFStatusErrorUnknownProperty);
	assert_int_equal(to_prop(t, UFTouchPropertyWindowX, &f), UFStatusErrorUnknownProperty);
	assert_int_equal(to_prop(t, UFTouchPropertyTime, &u), UFStatusErrorUnknownProperty);
	assert_int_equal(to_prop(t, UFTouchPropertyStartTime, &u),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(to_prop(t, UFTouchPropertyOwned, &i), UFStatusErrorUnknownProperty);
	assert_int_equal(to_prop(t, UFTouchPropertyPendingEnd, &i),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(frame_touch_get_value(t, UFAxisTypeX, &f), UFStatusErrorInvalidAxis);
	assert_float_equal(frame_touch_get_device_x(t), 0.0f, 0.0f);

	frame_backend_touch_set_id(bt, 77);
	frame_backend_touch_set_window_pos(bt, 10.5f, 20.25f);
	frame_backend_touch_set_time(bt, 500);
	frame_backend_touch_set_start_time(bt, 400);
	frame_backend_touch_set_owned(bt, 5);
	frame_backend_touch_set_pending_end(bt, 1);
	frame_backend_touch_set_value(bt, UFAxisTypeX, 105.0f);
	frame_backend_touch_set_value(bt, UFAxisTypeY, 202.5f);
	frame_backend_touch_set_value(bt, UFAxisTypeDistance, 3.0f);
	frame_backend_touch_set_value(bt, (UFAxisType)12, 3.0f); /* ignored */
	/* positions and values that are not numbers are refused */
	frame_backend_touch_set_window_pos(bt, NAN, 1.0f);
	frame_backend_touch_set_window_pos(bt, 1.0f, INFINITY);
	frame_backend_touch_set_window_pos(bt, -INFINITY, -INFINITY);
	frame_backend_touch_set_value(bt, UFAxisTypeX, NAN);
	frame_backend_touch_set_value(bt, UFAxisTypeY, INFINITY);
	frame_backend_touch_set_value(bt, UFAxisTypePressure, NAN);
	t = frame_backend_touch_get_touch(bt);

	assert_int_equal(to_prop(t, UFTouchPropertyId, &u), UFStatusSuccess);
	assert_int_equal(u, 77);
	assert_int_equal(frame_touch_get_property_uint64_(t, UFTouchPropertyTime, &u),
			 UFStatusSuccess);
	assert_int_equal(u, 500);
	assert_int_equal(frame_touch_get_property_uint64_(t, UFTouchPropertyStartTime, &u),
			 UFStatusSuccess);
	assert_int_equal(u, 400);
	assert_int_equal(frame_touch_get_property_float_(t, UFTouchPropertyWindowX, &f),
			 UFStatusSuccess);
	assert_float_equal(f, 10.5f, 0.0f);
	assert_int_equal(to_prop(t, UFTouchPropertyWindowY, &f), UFStatusSuccess);
	assert_float_equal(f, 20.25f, 0.0f);
	assert_int_equal(frame_touch_get_property_int_(t, UFTouchPropertyOwned, &i),
			 UFStatusSuccess);
	assert_int_equal(i, 1);
	assert_int_equal(to_prop(t, UFTouchPropertyPendingEnd, &i), UFStatusSuccess);
	assert_int_equal(i, 1);
	assert_int_equal(frame_touch_get_property_state_(t, UFTouchPropertyState, &st),
			 UFStatusSuccess);
	assert_int_equal(st, UFTouchStateBegin);

	assert_int_equal(frame_touch_get_id(t), 77);
	assert_int_equal(frame_touch_get_state(t), UFTouchStateBegin);
	assert_float_equal(frame_touch_get_window_x(t), 10.5f, 0.0f);
	assert_float_equal(frame_touch_get_window_y(t), 20.25f, 0.0f);
	assert_float_equal(frame_touch_get_device_x(t), 105.0f, 0.0f);
	assert_float_equal(frame_touch_get_device_y(t), 202.5f, 0.0f);
	assert_int_equal(frame_touch_get_time(t), 500);
	assert_int_equal(frame_touch_get_start_time(t), 400);
	assert_int_equal(frame_touch_get_value(t, UFAxisTypeDistance, &f), UFStatusSuccess);
	assert_float_equal(f, 3.0f, 0.0f);
	assert_int_equal(frame_touch_get_value(t, UFAxisTypePressure, &f),
			 UFStatusErrorInvalidAxis);
	assert_int_equal(frame_touch_get_value(t, (UFAxisType)12, &f), UFStatusErrorInvalidAxis);
	{
		/* a new touch given only a NaN position has none */
		UFBackendTouch nt = frame_backend_touch_new();

		frame_backend_touch_set_window_pos(nt, NAN, NAN);
		assert_int_equal(to_prop(frame_backend_touch_get_touch(nt), UFTouchPropertyWindowX,
					 &f), UFStatusErrorUnknownProperty);
		utouch_frame_backend_touch_delete(nt);
	}

	/* wrong types */
	assert_int_equal(frame_touch_get_property_float_(t, UFTouchPropertyId, &f),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_touch_get_property_uint64_(t, UFTouchPropertyWindowX, &u),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_touch_get_property_int_(t, UFTouchPropertyState, &i),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_touch_get_property_state_(t, UFTouchPropertyOwned, &st),
			 UFStatusErrorInvalidType);
	assert_int_equal(to_prop(t, (UFTouchProperty)8, &u), UFStatusErrorUnknownProperty);

	frame_backend_touch_set_ended(bt);
	assert_int_equal(frame_touch_get_state(frame_backend_touch_get_touch(bt)),
			 UFTouchStateEnd);

	/* NULL handles */
	assert_int_equal(to_prop(NULL, UFTouchPropertyId, &u), UFStatusErrorGeneric);
	assert_int_equal(frame_touch_get_value(NULL, UFAxisTypeX, &f), UFStatusErrorInvalidAxis);
	assert_int_equal(frame_touch_get_id(NULL), 0);
	assert_int_equal(frame_touch_get_state(NULL), UFTouchStateBegin);
	assert_int_equal(frame_touch_get_time(NULL), 0);
	assert_int_equal(frame_touch_get_start_time(NULL), 0);
	assert_float_equal(frame_touch_get_window_x(NULL), 0.0f, 0.0f);
	assert_float_equal(frame_touch_get_window_y(NULL), 0.0f, 0.0f);
	assert_float_equal(frame_touch_get_device_y(NULL), 0.0f, 0.0f);
	assert_null(frame_backend_touch_get_touch(NULL));
	frame_backend_touch_set_id(NULL, 1);
	frame_backend_touch_set_ended(NULL);
	frame_backend_touch_set_window_pos(NULL, 1, 1);
	frame_backend_touch_set_time(NULL, 1);
	frame_backend_touch_set_start_time(NULL, 1);
	frame_backend_touch_set_owned(NULL, 1);
	frame_backend_touch_set_pending_end(NULL, 1);
	frame_backend_touch_set_value(NULL, UFAxisTypeX, 1);
	utouch_frame_backend_touch_delete(NULL);

	utouch_frame_backend_touch_delete(bt);
	UT_CLIENT_BUGS_END(28);
}

static void
test_frame_properties(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice bdev = make_device();
	UFBackendFrame fr = frame_backend_frame_new();
	UFFrame frame = frame_backend_frame_get_frame(fr);
	UFDevice dev = NULL;
	UFWindowId win = 0;
	unsigned int u = 99;
	uint64_t u64 = 0;
	UFTouch t = NULL;

	assert_int_equal(fr_prop(frame, UFFramePropertyDevice, &dev),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(fr_prop(frame, UFFramePropertyWindowId, &win),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(fr_prop(frame, UFFramePropertyNumTouches, &u), UFStatusSuccess);
	assert_int_equal(u, 0);
	assert_null(frame_frame_get_device(frame));
	assert_int_equal(frame_frame_get_window_id(frame), 0);

	frame_backend_frame_set_device(fr, bdev);
	frame_backend_frame_set_window_id(fr, 0x1234);
	give(fr, make_touch(1, 10, 1, 2));
	give(fr, make_touch(2, 10, 3, 4));

	assert_int_equal(fr_prop(frame, UFFramePropertyDevice, &dev), UFStatusSuccess);
	assert_ptr_equal(dev, frame_backend_device_get_device(bdev));
	assert_ptr_equal(frame_frame_get_device(frame), dev);
	assert_int_equal(frame_frame_get_property_device_(frame, UFFramePropertyDevice, &dev),
			 UFStatusSuccess);
	assert_int_equal(fr_prop(frame, UFFramePropertyWindowId, &win), UFStatusSuccess);
	assert_int_equal(win, 0x1234);
	assert_int_equal(frame_frame_get_property_window_id_(frame, UFFramePropertyWindowId,
							     &win),
			 UFStatusSuccess);
	assert_int_equal(frame_frame_get_property_uint64_(frame, UFFramePropertyWindowId, &u64),
			 UFStatusSuccess);
	assert_int_equal(u64, 0x1234);
	assert_int_equal(frame_frame_get_window_id(frame), 0x1234);
	assert_int_equal(frame_frame_get_property_unsigned_int_(frame, UFFramePropertyNumTouches,
								&u),
			 UFStatusSuccess);
	assert_int_equal(u, 2);
	assert_int_equal(frame_frame_get_num_touches(frame), 2);
	/* ActiveTouches defaults to NumTouches */
	assert_int_equal(fr_prop(frame, UFFramePropertyActiveTouches, &u), UFStatusSuccess);
	assert_int_equal(u, 2);
	frame_backend_frame_set_active_touches(fr, 5);
	assert_int_equal(fr_prop(frame, UFFramePropertyActiveTouches, &u), UFStatusSuccess);
	assert_int_equal(u, 5);

	/* touches */
	assert_int_equal(frame_frame_get_touch_by_index(frame, 1, &t), UFStatusSuccess);
	assert_int_equal(frame_touch_get_id(t), 2);
	assert_int_equal(frame_frame_get_touch_by_index(frame, 2, &t), UFStatusErrorInvalidTouch);
	assert_int_equal(frame_frame_get_touch_by_id(frame, 1, &t), UFStatusSuccess);
	assert_float_equal(frame_touch_get_window_y(t), 2.0f, 0.0f);
	assert_int_equal(frame_frame_get_touch_by_id(frame, 3, &t), UFStatusErrorInvalidTouch);

	/* wrong types, unknown, NULL */
	assert_int_equal(frame_frame_get_property_device_(frame, UFFramePropertyWindowId, &dev),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_frame_get_property_window_id_(frame, UFFramePropertyNumTouches,
							     &win),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_frame_get_property_unsigned_int_(frame, UFFramePropertyDevice,
								&u),
			 UFStatusErrorInvalidType);
	assert_int_equal(fr_prop(frame, (UFFrameProperty)4, &u), UFStatusErrorUnknownProperty);
	assert_int_equal(fr_prop(NULL, UFFramePropertyNumTouches, &u), UFStatusErrorGeneric);
	assert_int_equal(frame_frame_get_num_touches(NULL), 0);
	assert_null(frame_frame_get_device(NULL));
	assert_int_equal(frame_frame_get_window_id(NULL), 0);
	assert_int_equal(frame_frame_get_touch_by_index(NULL, 0, &t), UFStatusErrorInvalidTouch);
	assert_int_equal(frame_frame_get_touch_by_id(NULL, 0, &t), UFStatusErrorInvalidTouch);
	assert_null(frame_backend_frame_get_frame(NULL));
	assert_null(frame_backend_frame_create_next(NULL));
	frame_backend_frame_set_device(NULL, bdev);
	frame_backend_frame_set_window_id(NULL, 1);
	frame_backend_frame_set_active_touches(NULL, 1);
	frame_backend_frame_delete(NULL);

	/* clearing the device */
	frame_backend_frame_set_device(fr, NULL);
	assert_int_equal(fr_prop(frame, UFFramePropertyDevice, &dev),
			 UFStatusErrorUnknownProperty);

	frame_backend_frame_delete(fr);
	frame_backend_device_delete(bdev);
	UT_CLIENT_BUGS_END(12);
}

static void
test_create_next_rules(void **state)
{
	UFBackendDevice bdev = make_device();
	UFBackendFrame f1 = frame_backend_frame_new();
	UFBackendFrame f2, f3;
	UFBackendTouch bt;
	UFFrame frame2;
	UFTouch t;
	unsigned int u;

	frame_backend_frame_set_device(f1, bdev);
	frame_backend_frame_set_window_id(f1, 9);
	frame_backend_frame_set_active_touches(f1, 7);
	give(f1, make_touch(1, 100, 1, 1));
	give(f1, make_touch(2, 100, 2, 2));
	give(f1, make_touch(3, 100, 3, 3));
	/* touch 3 ends in f1 */
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f1, 3, &bt), UFStatusSuccess);
	frame_backend_touch_set_ended(bt);
	give(f1, bt);

	f2 = frame_backend_frame_create_next(f1);
	assert_non_null(f2);
	frame2 = frame_backend_frame_get_frame(f2);
	/* end dropped, begin became update with the same time */
	assert_int_equal(frame_frame_get_num_touches(frame2), 2);
	t = touch_by_id(f2, 1);
	assert_int_equal(frame_touch_get_state(t), UFTouchStateUpdate);
	assert_int_equal(frame_touch_get_time(t), 100);
	assert_int_equal(frame_touch_get_start_time(t), 100);
	assert_float_equal(frame_touch_get_device_x(t), 10.0f, 0.0f);
	/* a copy: the original is still Begin */
	assert_ptr_not_equal(t, touch_by_id(f1, 1));
	assert_int_equal(frame_touch_get_state(touch_by_id(f1, 1)), UFTouchStateBegin);
	assert_int_equal(frame_frame_get_touch_by_id(frame2, 3, &t), UFStatusErrorInvalidTouch);
	/* device, window and active touches are not carried over */
	assert_null(frame_frame_get_device(frame2));
	assert_int_equal(fr_prop(frame2, UFFramePropertyWindowId, &(UFWindowId){ 0 }),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(fr_prop(frame2, UFFramePropertyActiveTouches, &u), UFStatusSuccess);
	assert_int_equal(u, 2);

	/* update touches are shared with the next frame */
	f3 = frame_backend_frame_create_next(f2);
	assert_ptr_equal(touch_by_id(f3, 1), touch_by_id(f2, 1));
	assert_ptr_equal(touch_by_id(f3, 2), touch_by_id(f2, 2));
	assert_int_equal(frame_touch_get_state(touch_by_id(f3, 2)), UFTouchStateUpdate);

	frame_backend_frame_delete(f1);
	frame_backend_frame_delete(f2);
	frame_backend_frame_delete(f3);
	frame_backend_device_delete(bdev);
}

static void
test_borrow_give_copy_on_write(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendFrame f1 = frame_backend_frame_new();
	UFBackendFrame f2, f3;
	UFBackendTouch bt = NULL;
	UFTouch old, t;
	float f;

	give(f1, make_touch(1, 100, 1, 1));
	give(f1, make_touch(2, 100, 2, 2));
	give(f1, make_touch(3, 100, 3, 3));
	f2 = frame_backend_frame_create_next(f1);
	f3 = frame_backend_frame_create_next(f2);
	old = touch_by_id(f3, 2);
	assert_ptr_equal(old, touch_by_id(f2, 2)); /* shared */

	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f3, 2, &bt), UFStatusSuccess);
	assert_non_null(bt);
	/* borrowing leaves the frame as it was */
	assert_int_equal(frame_frame_get_num_touches(frame_backend_frame_get_frame(f3)), 3);
	frame_backend_touch_set_window_pos(bt, 50.0f, 60.0f);
	frame_backend_touch_set_value(bt, UFAxisTypeX, 500.0f);
	frame_backend_touch_set_time(bt, 200);
	/* not visible before the touch is given back */
	assert_float_equal(frame_touch_get_window_x(touch_by_id(f3, 2)), 2.0f, 0.0f);
	give(f3, bt);

	t = touch_by_id(f3, 2);
	assert_ptr_not_equal(t, old);
	assert_float_equal(frame_touch_get_window_x(t), 50.0f, 0.0f);
	assert_float_equal(frame_touch_get_device_x(t), 500.0f, 0.0f);
	assert_int_equal(frame_touch_get_time(t), 200);
	/* same place in the frame */
	assert_int_equal(frame_frame_get_touch_by_index(frame_backend_frame_get_frame(f3), 1, &t),
			 UFStatusSuccess);
	assert_int_equal(frame_touch_get_id(t), 2);
	assert_int_equal(frame_frame_get_num_touches(frame_backend_frame_get_frame(f3)), 3);
	/* the previous frame's touch is unchanged */
	t = touch_by_id(f2, 2);
	assert_float_equal(frame_touch_get_window_x(t), 2.0f, 0.0f);
	assert_int_equal(frame_touch_get_value(t, UFAxisTypeX, &f), UFStatusSuccess);
	assert_float_equal(f, 20.0f, 0.0f);
	assert_int_equal(frame_touch_get_time(t), 100);

	/* borrow + give without a change keeps sharing */
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f3, 3, &bt), UFStatusSuccess);
	give(f3, bt);
	assert_ptr_equal(touch_by_id(f3, 3), touch_by_id(f2, 3));

	/* borrowing an absent touch */
	bt = NULL;
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f3, 42, &bt),
			 UFStatusErrorInvalidTouch);
	assert_null(bt);
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(NULL, 1, &bt),
			 UFStatusErrorInvalidTouch);

	/* a borrowed touch that is never given back */
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f3, 1, &bt), UFStatusSuccess);
	frame_backend_touch_set_ended(bt);
	utouch_frame_backend_touch_delete(bt);
	assert_int_equal(frame_touch_get_state(touch_by_id(f3, 1)), UFTouchStateUpdate);

	frame_backend_frame_delete(f1);
	frame_backend_frame_delete(f2);
	frame_backend_frame_delete(f3);
	UT_CLIENT_BUGS_END(1);
}

static void
test_touch_id_exists(void **state)
{
	UFBackendFrame f1 = frame_backend_frame_new();
	UFBackendFrame f2;
	UFBackendTouch bt, other;

	give(f1, make_touch(1, 100, 1, 1));
	give(f1, make_touch(2, 100, 2, 2));

	bt = make_touch(2, 150, 9, 9);
	assert_int_equal(frame_backend_frame_give_touch(f1, &bt), UFStatusErrorTouchIdExists);
	assert_non_null(bt); /* the producer keeps it */
	assert_int_equal(frame_frame_get_num_touches(frame_backend_frame_get_frame(f1)), 2);
	assert_float_equal(frame_touch_get_window_x(touch_by_id(f1, 2)), 2.0f, 0.0f);
	/* with another id it can go in */
	frame_backend_touch_set_id(bt, 3);
	give(f1, bt);
	assert_int_equal(frame_frame_get_num_touches(frame_backend_frame_get_frame(f1)), 3);

	/* a touch borrowed from another frame is a new touch here */
	f2 = frame_backend_frame_create_next(f1);
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f1, 1, &bt), UFStatusSuccess);
	assert_int_equal(frame_backend_frame_give_touch(f2, &bt), UFStatusErrorTouchIdExists);
	utouch_frame_backend_touch_delete(bt);

	/* renaming a borrowed touch onto another existing id */
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f2, 1, &bt), UFStatusSuccess);
	frame_backend_touch_set_id(bt, 2);
	assert_int_equal(frame_backend_frame_give_touch(f2, &bt), UFStatusErrorTouchIdExists);
	frame_backend_touch_set_id(bt, 10);
	give(f2, bt); /* replaces touch 1 in place */
	assert_int_equal(frame_frame_get_num_touches(frame_backend_frame_get_frame(f2)), 3);
	assert_int_equal(frame_frame_get_touch_by_id(frame_backend_frame_get_frame(f2), 1,
						     &(UFTouch){ NULL }),
			 UFStatusErrorInvalidTouch);
	assert_int_equal(frame_touch_get_id(touch_by_id(f2, 10)), 10);

	/* two borrows of the same touch: the second give replaces the first */
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f2, 2, &bt), UFStatusSuccess);
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f2, 2, &other), UFStatusSuccess);
	frame_backend_touch_set_time(bt, 300);
	frame_backend_touch_set_time(other, 400);
	give(f2, bt);
	give(f2, other);
	assert_int_equal(frame_touch_get_time(touch_by_id(f2, 2)), 400);
	assert_int_equal(frame_frame_get_num_touches(frame_backend_frame_get_frame(f2)), 3);

	/* NULL arguments */
	assert_int_equal(frame_backend_frame_give_touch(NULL, &bt), UFStatusErrorGeneric);
	assert_int_equal(frame_backend_frame_give_touch(f2, NULL), UFStatusErrorGeneric);
	bt = NULL;
	assert_int_equal(frame_backend_frame_give_touch(f2, &bt), UFStatusErrorGeneric);

	frame_backend_frame_delete(f1);
	frame_backend_frame_delete(f2);
}

static void
test_many_touches(void **state)
{
	UFBackendFrame f1 = frame_backend_frame_new();
	UFBackendFrame f2;
	UFTouch t;

	for (UFTouchId id = 0; id < 40; id++)
		give(f1, make_touch(id, 5, (float)id, 0));
	assert_int_equal(frame_frame_get_num_touches(frame_backend_frame_get_frame(f1)), 40);
	f2 = frame_backend_frame_create_next(f1);
	assert_int_equal(frame_frame_get_num_touches(frame_backend_frame_get_frame(f2)), 40);
	assert_int_equal(frame_frame_get_touch_by_index(frame_backend_frame_get_frame(f2), 39,
							&t),
			 UFStatusSuccess);
	assert_int_equal(frame_touch_get_id(t), 39);
	assert_float_equal(frame_touch_get_window_x(touch_by_id(f2, 33)), 33.0f, 0.0f);
	frame_backend_frame_delete(f1);
	frame_backend_frame_delete(f2);
}

static UFEvent
frame_event(UFBackendFrame fr, uint64_t time)
{
	UFEvent ev = frame_event_new();

	assert_non_null(ev);
	frame_event_set_type(ev, UFEventTypeFrame);
	frame_event_set_frame(ev, fr);
	frame_event_set_time(ev, time);
	return ev;
}

static void
test_previous_touch(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendFrame f1 = frame_backend_frame_new();
	UFBackendFrame f2;
	UFBackendTouch bt;
	UFEvent ev;
	UFTouch t;
	UFFrame frame2;
	float f = 0.0f;
	uint64_t u = 0;
	UFTouchState st;

	give(f1, make_touch(1, 100, 1, 1));
	ev = frame_event(f1, 100);
	f2 = frame_backend_frame_create_next(f1);
	frame2 = frame_backend_frame_get_frame(f2);
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f2, 1, &bt), UFStatusSuccess);
	frame_backend_touch_set_window_pos(bt, 5.0f, 6.0f);
	frame_backend_touch_set_value(bt, UFAxisTypeX, 55.0f);
	frame_backend_touch_set_time(bt, 110);
	give(f2, bt);
	give(f2, make_touch(2, 110, 8, 8));
	frame_event_unref(ev); /* f1 leaves its event before f2 gets one */
	ev = frame_event(f2, 110);

	t = touch_by_id(f2, 1);
	assert_int_equal(frame_frame_get_previous_touch_property(frame2, t, UFTouchPropertyWindowX,
								 &f),
			 UFStatusSuccess);
	assert_float_equal(f, 1.0f, 0.0f);
	assert_int_equal(frame_frame_get_previous_touch_property(frame2, t, UFTouchPropertyTime,
								 &u),
			 UFStatusSuccess);
	assert_int_equal(u, 100);
	assert_int_equal(frame_frame_get_previous_touch_property(frame2, t, UFTouchPropertyState,
								 &st),
			 UFStatusSuccess);
	assert_int_equal(st, UFTouchStateBegin);
	assert_int_equal(frame_frame_get_previous_touch_value(frame2, t, UFAxisTypeX, &f),
			 UFStatusSuccess);
	assert_float_equal(f, 10.0f, 0.0f);
	assert_int_equal(frame_frame_get_previous_touch_value(frame2, t, UFAxisTypePressure, &f),
			 UFStatusErrorInvalidAxis);
	assert_int_equal(frame_frame_get_previous_touch_property(frame2, t, (UFTouchProperty)20,
								 &u),
			 UFStatusErrorUnknownProperty);
	/* a touch that did not exist in the previous frame */
	t = touch_by_id(f2, 2);
	assert_int_equal(frame_frame_get_previous_touch_property(frame2, t, UFTouchPropertyTime,
								 &u),
			 UFStatusErrorInvalidTouch);
	assert_int_equal(frame_frame_get_previous_touch_value(frame2, t, UFAxisTypeX, &f),
			 UFStatusErrorInvalidTouch);
	/* a frame without a previous frame */
	assert_int_equal(frame_frame_get_previous_touch_value(frame_backend_frame_get_frame(f1),
							      touch_by_id(f1, 1), UFAxisTypeX,
							      &f),
			 UFStatusErrorInvalidTouch);
	assert_int_equal(frame_frame_get_previous_touch_value(NULL, t, UFAxisTypeX, &f),
			 UFStatusErrorInvalidTouch);
	assert_int_equal(frame_frame_get_previous_touch_property(frame2, NULL,
								 UFTouchPropertyTime, &u),
			 UFStatusErrorInvalidTouch);

	/* the producer deletes f1: the link from f2 stays valid */
	frame_backend_frame_delete(f1);
	t = touch_by_id(f2, 1);
	assert_int_equal(frame_frame_get_previous_touch_property(frame2, t, UFTouchPropertyWindowY,
								 &f),
			 UFStatusSuccess);
	assert_float_equal(f, 1.0f, 0.0f);

	/* destroying the only event holding f2 releases the link */
	frame_event_unref(ev);
	assert_int_equal(frame_frame_get_previous_touch_value(frame2, t, UFAxisTypeX, &f),
			 UFStatusErrorInvalidTouch);
	frame_backend_frame_delete(f2);
	UT_CLIENT_BUGS_END(6);
}

static void
test_event_keeps_objects_alive(void **state)
{
	UFBackendDevice bdev = make_device();
	UFBackendFrame f1 = frame_backend_frame_new();
	UFBackendFrame f2;
	UFEvent added = frame_event_new();
	UFEvent ev;
	UFFrame frame;
	UFDevice dev;
	UFTouch t;
	const char *name;

	frame_event_set_type(added, UFEventTypeDeviceAdded);
	frame_event_set_device(added, bdev);

	frame_backend_frame_set_device(f1, bdev);
	give(f1, make_touch(4, 100, 1, 1));
	f2 = frame_backend_frame_create_next(f1);
	frame_backend_frame_set_device(f2, bdev);
	ev = frame_event(f2, 101);
	frame_event_ref(ev);

	/* the producer lets go of everything */
	frame_backend_frame_delete(f1);
	frame_backend_frame_delete(f2);
	frame_backend_device_delete(bdev);

	frame_event_unref(ev); /* still one reference */
	assert_int_equal(frame_event_get_property_frame_(ev, UFEventPropertyFrame, &frame),
			 UFStatusSuccess);
	dev = frame_frame_get_device(frame);
	assert_int_equal(frame_device_get_property_const_string_(dev, UFDevicePropertyName,
								 &name),
			 UFStatusSuccess);
	assert_string_equal(name, "test pad");
	assert_int_equal(frame_frame_get_touch_by_id(frame, 4, &t), UFStatusSuccess);
	assert_int_equal(frame_frame_get_previous_touch_property(frame, t, UFTouchPropertyTime,
								 &(uint64_t){ 0 }),
			 UFStatusSuccess);
	frame_event_unref(ev);

	assert_int_equal(frame_event_get_property_device_(added, UFEventPropertyDevice, &dev),
			 UFStatusSuccess);
	assert_int_equal(frame_device_get_num_axes(dev), 3);
	frame_event_unref(added);
}

static void
test_prev_chain_stays_short(void **state)
{
	UFBackendFrame prev = frame_backend_frame_new();
	UFBackendFrame first = prev;
	UFEvent ev;

	/* frames never put in events: each keeps only its direct predecessor */
	give(prev, make_touch(1, 1, 0, 0));
	frame_backend_frame_set_window_id(prev, 1);
	for (int i = 0; i < 50; i++) {
		UFBackendFrame next = frame_backend_frame_create_next(prev);

		if (prev != first)
			frame_backend_frame_delete(prev);
		prev = next;
	}
	{
		struct UFFrame_ *last = frame_backend_frame_get_frame(prev);

		assert_non_null(last->prev);
		assert_null(last->prev->prev);
	}
	/* with an event holding a frame, its link survives a create_next */
	ev = frame_event(prev, 5);
	{
		UFBackendFrame next = frame_backend_frame_create_next(prev);
		UFFrame held = frame_backend_frame_get_frame(prev);
		UFTouch t = touch_by_id(prev, 1);

		assert_int_equal(frame_frame_get_previous_touch_property(held, t,
									 UFTouchPropertyId,
									 &(uint64_t){ 0 }),
				 UFStatusSuccess);
		frame_backend_frame_delete(prev);
		frame_event_unref(ev);
		frame_backend_frame_delete(next);
	}
	frame_backend_frame_delete(first);
}

struct handler_log {
	int calls;
	UFWindowId window;
	UFTouchId touch;
	int accept;
};

static UFStatus
touch_handler(void *data, UFWindowId window, UFTouchId touch_id, int accept)
{
	struct handler_log *log = data;

	log->calls++;
	log->window = window;
	log->touch = touch_id;
	log->accept = accept;
	return touch_id == 666 ? UFStatusErrorInvalidTouch : UFStatusSuccess;
}

static void
test_accept_reject(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice bdev = make_device();
	UFDevice dev = frame_backend_device_get_device(bdev);
	struct handler_log log = { 0 };

	/* no handler: Success, nothing happens */
	assert_int_equal(frame_accept_touch(dev, 1, 2), UFStatusSuccess);
	assert_int_equal(frame_reject_touch(dev, 1, 2), UFStatusSuccess);
	assert_int_equal(frame_accept_touch(NULL, 1, 2), UFStatusErrorGeneric);
	assert_int_equal(frame_reject_touch(NULL, 1, 2), UFStatusErrorGeneric);

	utouch_frame_backend_device_set_touch_handler(bdev, touch_handler, &log);
	assert_int_equal(frame_accept_touch(dev, 0xabc, 17), UFStatusSuccess);
	assert_int_equal(log.calls, 1);
	assert_int_equal(log.window, 0xabc);
	assert_int_equal(log.touch, 17);
	assert_int_equal(log.accept, 1);
	assert_int_equal(frame_reject_touch(dev, 0xdef, 18), UFStatusSuccess);
	assert_int_equal(log.calls, 2);
	assert_int_equal(log.window, 0xdef);
	assert_int_equal(log.touch, 18);
	assert_int_equal(log.accept, 0);
	assert_int_equal(frame_reject_touch(dev, 1, 666), UFStatusErrorInvalidTouch);
	assert_int_equal(log.calls, 3);

	utouch_frame_backend_device_set_touch_handler(bdev, NULL, &log);
	assert_int_equal(frame_accept_touch(dev, 1, 666), UFStatusSuccess);
	assert_int_equal(log.calls, 3);
	utouch_frame_backend_device_set_touch_handler(NULL, touch_handler, &log);
	frame_backend_device_delete(bdev);
	UT_CLIENT_BUGS_END(1);
}

static bool
fd_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN);
}

static void
test_handle_queue(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFHandle handle = NULL;
	UFEvent out = NULL;
	UFEvent ev[3];
	int fd;
	uint64_t drained;

	assert_int_equal(utouch_frame_handle_new(&handle), UFStatusSuccess);
	assert_non_null(handle);
	fd = frame_get_fd(handle);
	assert_true(fd >= 0);
	assert_false(fd_readable(fd));
	assert_int_equal(frame_get_event(handle, &out), UFStatusErrorNoEvent);

	for (int i = 0; i < 3; i++) {
		ev[i] = frame_event_new();
		frame_event_set_type(ev[i], UFEventTypeFrame);
		frame_event_set_time(ev[i], (uint64_t)(10 + i));
		assert_int_equal(utouch_frame_handle_push(handle, ev[i]), UFStatusSuccess);
		frame_event_unref(ev[i]); /* the queue keeps its own reference */
	}
	assert_int_equal(utouch_frame_handle_get_queue_length(handle), 3);
	assert_true(fd_readable(fd));

	assert_int_equal(frame_get_event(handle, &out), UFStatusSuccess);
	assert_ptr_equal(out, ev[0]);
	assert_int_equal(frame_event_get_time(out), 10);
	frame_event_unref(out);
	assert_true(fd_readable(fd));

	/* the caller may clear the fd itself; it is re-armed by the next pop */
	assert_int_equal(read(fd, &drained, sizeof(drained)), (ssize_t)sizeof(drained));
	assert_int_equal(frame_get_event(handle, &out), UFStatusSuccess);
	assert_int_equal(frame_event_get_time(out), 11);
	frame_event_unref(out);
	assert_true(fd_readable(fd));

	assert_int_equal(frame_get_event(handle, &out), UFStatusSuccess);
	assert_int_equal(frame_event_get_time(out), 12);
	frame_event_unref(out);
	assert_false(fd_readable(fd));
	assert_int_equal(frame_get_event(handle, &out), UFStatusErrorNoEvent);
	assert_int_equal(utouch_frame_handle_get_queue_length(handle), 0);

	/* growth and wrap-around keep the order */
	for (uint64_t round = 0; round < 3; round++) {
		for (uint64_t i = 0; i < 50; i++) {
			UFEvent e = frame_event_new();

			frame_event_set_time(e, round * 100 + i);
			assert_int_equal(utouch_frame_handle_push(handle, e), UFStatusSuccess);
			frame_event_unref(e);
		}
		for (uint64_t i = 0; i < 45; i++) {
			assert_int_equal(frame_get_event(handle, &out), UFStatusSuccess);
			frame_event_unref(out);
		}
	}
	assert_int_equal(utouch_frame_handle_get_queue_length(handle), 15);
	assert_int_equal(frame_get_event(handle, &out), UFStatusSuccess);
	assert_int_equal(frame_event_get_time(out), 235);
	frame_event_unref(out);
	assert_true(fd_readable(fd));

	/* NULL arguments */
	assert_int_equal(frame_get_fd(NULL), -1);
	assert_int_equal(frame_get_event(NULL, &out), UFStatusErrorGeneric);
	assert_int_equal(frame_get_event(handle, NULL), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_handle_push(NULL, out), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_handle_push(handle, NULL), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_handle_new(NULL), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_handle_get_queue_length(NULL), 0);

	/* deleting with queued events releases them (ASan checks) */
	utouch_frame_handle_delete(handle);
	utouch_frame_handle_delete(NULL);
	UT_CLIENT_BUGS_END(7);
}

static void
test_handle_producer_flow(void **state)
{
	/* a queue of several frame events, consumed after the producer moved on */
	UFBackendDevice bdev = make_device();
	UFBackendFrame prev = NULL;
	UFHandle handle;
	UFEvent ev;
	int frames = 0;

	assert_int_equal(utouch_frame_handle_new(&handle), UFStatusSuccess);
	ev = frame_event_new();
	frame_event_set_type(ev, UFEventTypeDeviceAdded);
	frame_event_set_device(ev, bdev);
	utouch_frame_handle_push(handle, ev);
	frame_event_unref(ev);

	for (uint64_t t = 1; t <= 5; t++) {
		UFBackendFrame fr = prev ? frame_backend_frame_create_next(prev)
					 : frame_backend_frame_new();
		UFBackendTouch bt;

		frame_backend_frame_set_device(fr, bdev);
		frame_backend_frame_set_window_id(fr, 1);
		if (t == 1) {
			give(fr, make_touch(1, t, 0, 0));
		} else {
			assert_int_equal(frame_backend_frame_borrow_touch_by_id(fr, 1, &bt),
					 UFStatusSuccess);
			frame_backend_touch_set_window_pos(bt, (float)t, 0);
			frame_backend_touch_set_time(bt, t);
			if (t == 5)
				frame_backend_touch_set_ended(bt);
			give(fr, bt);
		}
		ev = frame_event(fr, t);
		utouch_frame_handle_push(handle, ev);
		frame_event_unref(ev);
		if (prev)
			frame_backend_frame_delete(prev);
		prev = fr;
	}
	frame_backend_frame_delete(prev);
	frame_backend_device_delete(bdev);

	assert_int_equal(frame_get_event(handle, &ev), UFStatusSuccess);
	assert_int_equal(frame_event_get_type(ev), UFEventTypeDeviceAdded);
	frame_event_unref(ev);
	while (frame_get_event(handle, &ev) == UFStatusSuccess) {
		UFFrame frame;
		UFTouch t;
		float x = -1;

		frames++;
		assert_int_equal(frame_event_get_property_frame_(ev, UFEventPropertyFrame, &frame),
				 UFStatusSuccess);
		assert_int_equal(frame_frame_get_touch_by_id(frame, 1, &t), UFStatusSuccess);
		assert_float_equal(frame_touch_get_window_x(t), frames == 1 ? 0.0f : (float)frames,
				   0.0f);
		if (frames > 1) {
			assert_int_equal(frame_frame_get_previous_touch_property(
						 frame, t, UFTouchPropertyWindowX, &x),
					 UFStatusSuccess);
			assert_float_equal(x, frames == 2 ? 0.0f : (float)(frames - 1), 0.0f);
		}
		assert_int_equal(frame_touch_get_state(t),
				 frames == 1 ? UFTouchStateBegin
				 : frames == 5 ? UFTouchStateEnd
					       : UFTouchStateUpdate);
		frame_event_unref(ev);
	}
	assert_int_equal(frames, 5);
	utouch_frame_handle_delete(handle);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_properties),
		cmocka_unit_test(test_device_unset_properties),
		cmocka_unit_test(test_device_axes),
		cmocka_unit_test(test_event_properties),
		cmocka_unit_test(test_touch_properties),
		cmocka_unit_test(test_frame_properties),
		cmocka_unit_test(test_create_next_rules),
		cmocka_unit_test(test_borrow_give_copy_on_write),
		cmocka_unit_test(test_touch_id_exists),
		cmocka_unit_test(test_many_touches),
		cmocka_unit_test(test_previous_touch),
		cmocka_unit_test(test_event_keeps_objects_alive),
		cmocka_unit_test(test_prev_chain_stays_short),
		cmocka_unit_test(test_accept_reject),
		cmocka_unit_test(test_handle_queue),
		cmocka_unit_test(test_handle_producer_flow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
