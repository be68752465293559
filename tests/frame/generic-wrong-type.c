/*
 * Compile-time checks of the C11 _Generic property getters (never run).
 *
 * With -DCASE=0 every call passes a pointer of a type the getters know
 * and the file compiles.  Each CASE from 1 up passes one pointer of a
 * wrong type, which must not compile (meson tests with should_fail), as
 * with frame 2.5's macros under clang.
 */
#include <stddef.h>
#include <stdint.h>

#include <oif/frame.h>

#ifndef CASE
#error "define CASE"
#endif

UFStatus check(UFDevice dev, UFEvent ev, UFFrame frame, UFTouch touch);

UFStatus
check(UFDevice dev, UFEvent ev, UFFrame frame, UFTouch touch)
{
	UFStatus st = UFStatusSuccess;
	float f = 0.0f;
	unsigned int u = 0;
	uint64_t u64 = 0;
	UFDevice d = NULL;
	void *untyped = &f;
	char buf[32];
	double dbl = 0.0;
	int i = 0;

	(void)i;
	(void)buf;
	(void)dbl;
	(void)u64;
	(void)d;
	st |= frame_device_get_property(dev, UFDevicePropertyWindowResolutionX, &f);
	st |= frame_device_get_property(dev, UFDevicePropertyMaxTouches, untyped);
	st |= frame_event_get_property(ev, UFEventPropertyTime, &u64);
	st |= frame_frame_get_property(frame, UFFramePropertyNumTouches, &u);
	st |= frame_frame_get_property(frame, UFFramePropertyDevice, &d);
	st |= frame_touch_get_property(touch, UFTouchPropertyWindowX, &f);
#if CASE == 1
	/* a char buffer for a float property */
	st |= frame_device_get_property(dev, UFDevicePropertyWindowResolutionX, buf);
#elif CASE == 2
	/* a uint64_t for a device property */
	st |= frame_device_get_property(dev, UFDevicePropertyMaxTouches, &u64);
#elif CASE == 3
	/* a double for a touch coordinate */
	st |= frame_touch_get_property(touch, UFTouchPropertyWindowX, &dbl);
#elif CASE == 4
	/* a float for the event's device */
	st |= frame_event_get_property(ev, UFEventPropertyDevice, &f);
#elif CASE == 5
	/* an int for the frame's touch count (an unsigned int) */
	st |= frame_frame_get_property(frame, UFFramePropertyNumTouches, &i);
#endif
	return st;
}
