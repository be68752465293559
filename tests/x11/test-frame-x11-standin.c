/*
 * frame's X11 backend under an Xlib stand-in, as frame 2.5's and geis
 * 2.2's own tests run it: this program answers XQueryExtension(),
 * XIQueryVersion() and XIQueryDevice() itself (one direct touchscreen with
 * the two position valuators), and libutouch-frame, linked as a shared
 * library, calls these instead of libX11's and libXi's.
 *
 * Those tests build their touch events' valuator masks with malloc() and
 * XISetMask(), so only the bits of the device's valuators are defined.  A
 * bit past the device's valuators means nothing to the backend and must
 * not be read (frame 2.5 did not; valgrind reports it: suite memcheck).
 */
#define XLIB_ILLEGAL_ACCESS
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cmocka.h>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <oif/frame.h>
#include <oif/frame_x11.h>

#include "test-support.h"

/* The project builds with -fvisibility=hidden; the stand-ins must be seen
 * by the shared library. */
#define STANDIN __attribute__((visibility("default")))

#define XI_OPCODE 131
#define DEVICE_ID 7
#define ROOT 1

STANDIN Bool
XQueryExtension(Display *dpy, const char *name, int *opcode, int *event, int *error)
{
	(void)dpy;
	(void)name;
	*opcode = XI_OPCODE;
	*event = *error = 0;
	return True;
}

STANDIN Status
XIQueryVersion(Display *dpy, int *major, int *minor)
{
	(void)dpy;
	*major = 2;
	*minor = 2;
	return Success;
}

static XITouchClassInfo touch_info = {
	.type = XITouchClass, .sourceid = DEVICE_ID, .mode = XIDirectTouch, .num_touches = 5,
};
static XIValuatorClassInfo x_info = {
	.type = XIValuatorClass, .sourceid = DEVICE_ID, .number = 0,
	.min = 0, .max = 1000, .resolution = 3000,
};
static XIValuatorClassInfo y_info = {
	.type = XIValuatorClass, .sourceid = DEVICE_ID, .number = 1,
	.min = 0, .max = 1000, .resolution = 3000,
};
static XIAnyClassInfo *classes[] = {
	(XIAnyClassInfo *)&touch_info, (XIAnyClassInfo *)&x_info, (XIAnyClassInfo *)&y_info,
};

STANDIN XIDeviceInfo *
XIQueryDevice(Display *dpy, int deviceid, int *count)
{
	(void)dpy;
	(void)deviceid;
	XIDeviceInfo *info = calloc(1, sizeof(*info));

	assert_non_null(info);
	info->deviceid = DEVICE_ID;
	info->name = (char *)"stand-in touchscreen";
	info->use = XISlavePointer;
	info->attachment = 2;
	info->enabled = True;
	info->num_classes = 3;
	info->classes = classes;
	*count = 1;
	return info;
}

STANDIN void
XIFreeDeviceInfo(XIDeviceInfo *info)
{
	free(info);
}

/* A TouchBegin at window position (wx, wy) whose two valuators read
 * (vx, vy); the mask is two bytes of which only bits 0 and 1 are set and
 * the rest left as malloc() gave them. */
static XIDeviceEvent *
touch_begin(Display *dpy, double wx, double wy, double vx, double vy)
{
	XIDeviceEvent *ev = calloc(1, sizeof(*ev));

	assert_non_null(ev);
	ev->type = GenericEvent;
	ev->display = dpy;
	ev->extension = XI_OPCODE;
	ev->evtype = XI_TouchBegin;
	ev->time = 1000;
	ev->deviceid = ev->sourceid = DEVICE_ID;
	ev->detail = 42;
	ev->root = ev->event = ROOT;
	ev->event_x = ev->root_x = wx;
	ev->event_y = ev->root_y = wy;
	ev->valuators.mask_len = 2;
	ev->valuators.mask = malloc(2);
	ev->valuators.values = malloc(2 * sizeof(double));
	assert_non_null(ev->valuators.mask);
	assert_non_null(ev->valuators.values);
	XISetMask(ev->valuators.mask, 0);
	XISetMask(ev->valuators.mask, 1);
	ev->valuators.values[0] = vx;
	ev->valuators.values[1] = vy;
	return ev;
}

static void
free_touch_event(XIDeviceEvent *ev)
{
	free(ev->valuators.mask);
	free(ev->valuators.values);
	free(ev);
}

static void
test_mask_bits_past_the_device(void **state)
{
	Display *dpy = calloc(1, sizeof(Display));
	UFHandle handle;
	UFEvent event;

	assert_non_null(dpy);
	dpy->fd = eventfd(0, EFD_NONBLOCK);
	assert_int_equal(frame_x11_new(dpy, &handle), UFStatusSuccess);
	/* the device */
	assert_int_equal(frame_get_event(handle, &event), UFStatusSuccess);
	assert_int_equal(frame_event_get_type(event), UFEventTypeDeviceAdded);
	frame_event_unref(event);

	XIDeviceEvent *ev = touch_begin(dpy, 120.0, 80.0, 400.0, 250.0);
	XGenericEventCookie cookie = {
		.type = GenericEvent, .extension = XI_OPCODE, .evtype = XI_TouchBegin,
		.data = ev,
	};
	assert_int_equal(frame_x11_process_event(handle, &cookie), UFStatusSuccess);
	free_touch_event(ev);

	UFFrame frame;
	UFTouch touch;
	float x, y;

	assert_int_equal(frame_get_event(handle, &event), UFStatusSuccess);
	assert_int_equal(frame_event_get_type(event), UFEventTypeFrame);
	assert_int_equal(frame_event_get_property(event, UFEventPropertyFrame, &frame),
			 UFStatusSuccess);
	assert_int_equal(frame_frame_get_touch_by_index(frame, 0, &touch), UFStatusSuccess);
	assert_int_equal(frame_touch_get_id(touch), 42);
	assert_true(frame_touch_get_window_x(touch) == 120.0f);
	assert_true(frame_touch_get_window_y(touch) == 80.0f);
	assert_int_equal(frame_touch_get_value(touch, UFAxisTypeX, &x), UFStatusSuccess);
	assert_int_equal(frame_touch_get_value(touch, UFAxisTypeY, &y), UFStatusSuccess);
	assert_true(x == 400.0f);
	assert_true(y == 250.0f);
	frame_event_unref(event);

	frame_x11_delete(handle);
	close(dpy->fd);
	free(dpy);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mask_bits_past_the_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
