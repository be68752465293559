/*
 * geis1-gestures: the old geis v1 ("simplified") interface.
 *
 * Subscribes a window to two-finger drags, pinches and rotations plus
 * one- to three-finger taps, and prints each callback.  The program only
 * uses <geis/geis.h>, so it runs unchanged on any geis implementation; on
 * utouch, point it at a recording with
 *
 *   UTOUCH_GEIS_BACKEND=recording-fast:data/recordings/touchscreen/pinch-2.evemu \
 *       ./geis1-gestures [WINDOW-ID [IDLE-MS]]
 *
 * It runs until interrupted, or, with IDLE-MS, until no input arrived for
 * that many milliseconds.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include <geis/geis.h>

/* Print a v1 attribute list; the gesture callbacks get a count. */
static void
print_attrs(GeisSize count, const GeisGestureAttr *attrs)
{
	for (GeisSize i = 0; i < count; i++) {
		const GeisGestureAttr *a = &attrs[i];

		switch (a->type) {
		case GEIS_ATTR_TYPE_BOOLEAN:
			printf("  %s=%s", a->name, a->boolean_val ? "true" : "false");
			break;
		case GEIS_ATTR_TYPE_FLOAT:
			printf("  %s=%.2f", a->name, a->float_val);
			break;
		case GEIS_ATTR_TYPE_INTEGER:
			printf("  %s=%d", a->name, a->integer_val);
			break;
		case GEIS_ATTR_TYPE_STRING:
			printf("  %s=\"%s\"", a->name, a->string_val ? a->string_val : "");
			break;
		default:
			break;
		}
	}
	printf("\n");
}

/* Device callbacks: utouch passes the device attributes, ended by an
 * entry without a name. */
static void
device_added(void *cookie, GeisInputDeviceId id, void *attrs)
{
	const GeisGestureAttr *a = attrs;
	GeisSize n = 0;

	(void)cookie;
	while (a && a[n].name)
		n++;
	printf("device %u added:", id);
	print_attrs(n, a);
}

static void
device_removed(void *cookie, GeisInputDeviceId id, void *attrs)
{
	(void)cookie;
	(void)attrs;
	printf("device %u removed\n", id);
}

/* One function prints every kind of gesture callback; the cookie tells
 * which one it is. */
static void
gesture_cb(void *cookie, GeisGestureType type, GeisGestureId id,
	   GeisSize count, GeisGestureAttr *attrs)
{
	printf("%s type=%u id=%u:", (const char *)cookie, type, id);
	print_attrs(count, attrs);
}

static void
start_cb(void *c, GeisGestureType t, GeisGestureId i, GeisSize n, GeisGestureAttr *a)
{
	(void)c;
	gesture_cb("start", t, i, n, a);
}

static void
update_cb(void *c, GeisGestureType t, GeisGestureId i, GeisSize n, GeisGestureAttr *a)
{
	(void)c;
	gesture_cb("update", t, i, n, a);
}

static void
finish_cb(void *c, GeisGestureType t, GeisGestureId i, GeisSize n, GeisGestureAttr *a)
{
	(void)c;
	gesture_cb("finish", t, i, n, a);
}

int
main(int argc, char **argv)
{
	/* the window: on X a real window id; elsewhere any number */
	GeisXcbWinInfo xcb = { NULL, NULL, argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 1 };
	GeisWinInfo win = { GEIS_XCB_FULL_WINDOW, &xcb };
	GeisInputFuncs input = { device_added, NULL, device_removed };
	GeisGestureFuncs gestures = { NULL, NULL, start_cb, update_cb, finish_cb };
	const char *types[] = {
		GEIS_GESTURE_TYPE_DRAG2, GEIS_GESTURE_TYPE_PINCH2, GEIS_GESTURE_TYPE_ROTATE2,
		GEIS_GESTURE_TYPE_TAP1, GEIS_GESTURE_TYPE_TAP2, GEIS_GESTURE_TYPE_TAP3,
		NULL
	};
	int idle_ms = argc > 2 ? atoi(argv[2]) : -1;
	GeisInstance instance;
	struct pollfd pfd = { .events = POLLIN };

	if (geis_init(&win, &instance) != GEIS_STATUS_SUCCESS) {
		fprintf(stderr, "geis_init failed\n");
		return 1;
	}
	geis_configuration_get_value(instance, GEIS_CONFIG_UNIX_FD, &pfd.fd);
	geis_input_devices(instance, &input, NULL);
	/* NULL is GEIS_ALL_INPUT_DEVICES: every device */
	if (geis_subscribe(instance, NULL, types, &gestures, NULL) !=
	    GEIS_STATUS_SUCCESS) {
		fprintf(stderr, "geis_subscribe failed\n");
		geis_finish(instance);
		return 1;
	}

	/* Dispatch whenever the descriptor is readable. */
	while (poll(&pfd, 1, idle_ms) > 0)
		geis_event_dispatch(instance);

	geis_finish(instance);
	return 0;
}
