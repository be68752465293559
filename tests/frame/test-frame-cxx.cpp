// The public headers compile as C++ and the untyped getters work from C++.
#include <cstdint>
#include <cstdio>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

#ifdef FRAME_HAS_GENERIC_GETTERS
#error "C++ has no _Generic: the getters must be plain functions"
#endif

static int failures;

static void
check(bool ok, const char *what)
{
	if (!ok) {
		std::fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

int
main()
{
	UFBackendDevice bdev = frame_backend_device_new();
	UFDevice dev = frame_backend_device_get_device(bdev);
	UFBackendFrame fr = frame_backend_frame_new();
	UFBackendTouch bt = frame_backend_touch_new();
	UFEvent ev = frame_event_new();
	const char *name = nullptr;
	unsigned int num = 0;
	uint64_t id = 0;
	UFTouch touch = nullptr;

	frame_backend_device_set_name(bdev, "c++");
	frame_backend_touch_set_id(bt, 8);
	check(frame_backend_frame_give_touch(fr, &bt) == UFStatusSuccess, "give");
	frame_event_set_frame(ev, fr);

	check(frame_device_get_property(dev, UFDevicePropertyName, &name) == UFStatusSuccess,
	      "device name");
	check(name && name[0] == 'c', "device name value");
	check(frame_frame_get_property(frame_backend_frame_get_frame(fr),
				       UFFramePropertyNumTouches, &num) == UFStatusSuccess &&
		      num == 1,
	      "num touches");
	check(frame_frame_get_touch_by_index(frame_backend_frame_get_frame(fr), 0, &touch) ==
		      UFStatusSuccess,
	      "touch by index");
	check(frame_touch_get_property(touch, UFTouchPropertyId, &id) == UFStatusSuccess &&
		      id == 8,
	      "touch id");
	check(frame_touch_get_property_float_(touch, UFTouchPropertyId, nullptr) ==
		      UFStatusErrorGeneric,
	      "typed getter with NULL");

	{
		bool b = false;

		frame_backend_device_set_direct(bdev, 1);
		check(frame_device_get_property_bool_(dev, UFDevicePropertyDirect, &b) ==
			      UFStatusSuccess &&
			      b,
		      "bool getter");
	}

	frame_event_unref(ev);
	frame_backend_frame_delete(fr);
	frame_backend_device_delete(bdev);
	return failures ? 1 : 0;
}
