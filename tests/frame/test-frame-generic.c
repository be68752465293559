/*
 * The C11 _Generic property getters: typed dispatch, and the untyped
 * function for a void *.  Built with the project compiler and
 * syntax-checked with clang -std=c11 as a separate test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

/* The test program is strict about client bugs (tests/support/strict.c);
 * the -pedantic compile checks of this file see only the public headers. */
#if __has_include("test-support.h")
#include "test-support.h"
#else
#define UT_CLIENT_BUGS_BEGIN() (void)0
#define UT_CLIENT_BUGS_END(n) (void)0
#endif

#ifndef FRAME_HAS_GENERIC_GETTERS
#error "the _Generic getters must be available in C11"
#endif
/* <oif/frame.h> must say what the build has (UTOUCH_EXPECT_X11 from meson) */
#if UTOUCH_EXPECT_X11
#if !defined FRAME_X11_BACKEND || defined FRAME_NO_X11_BACKEND
#error "this build has the X11 backend: FRAME_X11_BACKEND alone must be defined"
#endif
#else
#if defined FRAME_X11_BACKEND || !defined FRAME_NO_X11_BACKEND
#error "this build has no X11 backend: FRAME_NO_X11_BACKEND alone must be defined"
#endif
#endif

static void
test_generic_getters(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice bdev = frame_backend_device_new();
	UFDevice dev = frame_backend_device_get_device(bdev);
	UFBackendFrame fr = frame_backend_frame_new();
	UFFrame frame = frame_backend_frame_get_frame(fr);
	UFBackendTouch bt = frame_backend_touch_new();
	UFEvent ev = frame_event_new();
	const char *cname = NULL;
	char *name = NULL;
	int i = 0;
	unsigned int u = 0;
	float f = 0.0f;
	uint64_t u64 = 0;
	UFWindowId win = 0;
	UFDevice d = NULL;
	UFFrame fm = NULL;
	UFEventType et = UFEventTypeDeviceAdded;
	UFTouchState st = UFTouchStateEnd;
	UFTouch t;
	void *untyped;

	frame_backend_device_set_name(bdev, "generic");
	frame_backend_device_set_direct(bdev, 1);
	frame_backend_device_set_max_touches(bdev, 4);
	frame_backend_device_set_window_resolution(bdev, 10.0f, 20.0f);

	/* device: every value type */
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyName, &cname),
			 UFStatusSuccess);
	assert_string_equal(cname, "generic");
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyName, &name),
			 UFStatusSuccess);
	assert_string_equal(name, "generic");
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyDirect, &i),
			 UFStatusSuccess);
	assert_int_equal(i, 1);
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyMaxTouches, &u),
			 UFStatusSuccess);
	assert_int_equal(u, 4);
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyWindowResolutionY, &f),
			 UFStatusSuccess);
	assert_float_equal(f, 20.0f, 0.0f);
	{
		bool guard_before = true, direct = false, guard_after = true;

		/* a bool gets a bool, not an int written over its neighbours */
		assert_int_equal(frame_device_get_property(dev, UFDevicePropertyDirect, &direct),
				 UFStatusSuccess);
		assert_true(direct);
		assert_true(guard_before && guard_after);
		assert_int_equal(frame_device_get_property(dev, UFDevicePropertyName, &direct),
				 UFStatusErrorInvalidType);
	}
	/* the macro type-checks */
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyMaxTouches, &f),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyName, &i),
			 UFStatusErrorInvalidType);
	/* a void * goes to the untyped function; any other pointer type does
	 * not compile (generic-wrong-type.c) */
	untyped = &u;
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyMaxTouches, untyped),
			 UFStatusSuccess);
	assert_int_equal(u, 4);

	/* event */
	frame_event_set_type(ev, UFEventTypeFrame);
	frame_event_set_time(ev, 99);
	frame_event_set_frame(ev, fr);
	frame_event_set_device(ev, bdev);
	assert_int_equal(frame_event_get_property(ev, UFEventPropertyType, &et), UFStatusSuccess);
	assert_int_equal(et, UFEventTypeFrame);
	assert_int_equal(frame_event_get_property(ev, UFEventPropertyTime, &u64), UFStatusSuccess);
	assert_int_equal(u64, 99);
	assert_int_equal(frame_event_get_property(ev, UFEventPropertyFrame, &fm), UFStatusSuccess);
	assert_ptr_equal(fm, frame);
	assert_int_equal(frame_event_get_property(ev, UFEventPropertyDevice, &d), UFStatusSuccess);
	assert_ptr_equal(d, dev);
	assert_int_equal(frame_event_get_property(ev, UFEventPropertyTime, &d),
			 UFStatusErrorInvalidType);

	/* frame */
	frame_backend_frame_set_window_id(fr, 5);
	frame_backend_frame_set_device(fr, bdev);
	assert_int_equal(frame_frame_get_property(frame, UFFramePropertyWindowId, &win),
			 UFStatusSuccess);
	assert_int_equal(win, 5);
	assert_int_equal(frame_frame_get_property(frame, UFFramePropertyNumTouches, &u),
			 UFStatusSuccess);
	assert_int_equal(u, 0);
	assert_int_equal(frame_frame_get_property(frame, UFFramePropertyDevice, &d),
			 UFStatusSuccess);
	assert_int_equal(frame_frame_get_property(frame, UFFramePropertyNumTouches, &win),
			 UFStatusErrorInvalidType);

	/* touch */
	frame_backend_touch_set_id(bt, 3);
	frame_backend_touch_set_window_pos(bt, 1.5f, 2.5f);
	frame_backend_touch_set_owned(bt, 1);
	t = frame_backend_touch_get_touch(bt);
	assert_int_equal(frame_touch_get_property(t, UFTouchPropertyId, &u64), UFStatusSuccess);
	assert_int_equal(u64, 3);
	assert_int_equal(frame_touch_get_property(t, UFTouchPropertyState, &st), UFStatusSuccess);
	assert_int_equal(st, UFTouchStateBegin);
	assert_int_equal(frame_touch_get_property(t, UFTouchPropertyWindowY, &f), UFStatusSuccess);
	assert_float_equal(f, 2.5f, 0.0f);
	assert_int_equal(frame_touch_get_property(t, UFTouchPropertyOwned, &i), UFStatusSuccess);
	assert_int_equal(i, 1);
	{
		bool owned = false;

		assert_int_equal(frame_touch_get_property(t, UFTouchPropertyOwned, &owned),
				 UFStatusSuccess);
		assert_true(owned);
		assert_int_equal(frame_touch_get_property(t, UFTouchPropertyPendingEnd, &owned),
				 UFStatusErrorUnknownProperty);
		assert_int_equal(frame_touch_get_property(t, UFTouchPropertyTime, &owned),
				 UFStatusErrorInvalidType);
	}
	assert_int_equal(frame_touch_get_property(t, UFTouchPropertyId, &f),
			 UFStatusErrorInvalidType);
	assert_int_equal(frame_touch_get_property(t, UFTouchPropertyWindowX, &i),
			 UFStatusErrorInvalidType);

	/* parentheses bypass the macros */
	assert_int_equal((frame_touch_get_property)(t, UFTouchPropertyWindowX, &f),
			 UFStatusSuccess);
	assert_float_equal(f, 1.5f, 0.0f);

	utouch_frame_backend_touch_delete(bt);
	frame_event_unref(ev);
	frame_backend_frame_delete(fr);
	frame_backend_device_delete(bdev);
	UT_CLIENT_BUGS_END(8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_getters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
