/*
 * The X11 backend: XInput 2.2 touch events -> frame events.
 *
 * State per instance (struct x11_ctx):
 * - the tracked devices: enabled slave pointers with a touch class that are
 *   attached to a master, each with its UFBackendDevice and the mapping
 *   from valuator numbers to frame axes;
 * - per device, the windows that have touches (struct x11_window): the
 *   last frame built for that (device, window) pair and a record per touch
 *   that is still of interest (not ended, or owned and not yet accepted or
 *   rejected).  A window is forgotten when it has no record left.
 *
 * The instance is found from its UFHandle through a small registry, so
 * that the frame library core needs no knowledge of X.  See doc/x11.md.
 */
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>

#include <oif/frame_x11.h>
#include <utouch/frame_handle.h>

#include "frame/frame-builder.h"
#include "frame/frame-private.h"
#include "util/array.h"
#include "util/list.h"
#include "util/log.h"

#define AXIS_NONE (-1)

struct x11_touch {
	UFTouchId id;
	bool ended;
	bool owned;
	bool decided; /* accepted or rejected */
};

struct x11_window {
	struct ut_list link;  /* x11_device.windows, newest first */
	Window window;
	struct ut_frame_builder frames; /* the frames of (device, window) */
	struct x11_touch *touches;
	unsigned int num_touches;
	unsigned int capacity;
};

struct x11_ctx;

struct x11_device {
	struct ut_list link;  /* x11_ctx.devices, newest first */
	struct x11_ctx *ctx;
	int id;     /* the slave device */
	int master; /* its master pointer, for XIAllowTouchEvents */
	bool seen;  /* scratch flag of a rescan */
	UFBackendDevice device;
	int num_valuators;
	signed char *valuator_axis; /* UFAxisType per valuator, or AXIS_NONE */
	struct ut_list windows;
};

struct x11_ctx {
	struct ut_list link;  /* registry, newest first */
	UFHandle handle;
	Display *display;
	int opcode; /* XInputExtension major opcode */
	struct ut_list devices;
	uint64_t last_time; /* newest event time, extended to 64 bits */
};

/* Registry: UFHandle -> instance.  Handles are few and long lived. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ut_list registry = { &registry, &registry };   /* empty */

/*
 * X server time is a 32-bit millisecond counter that wraps after about
 * 49.7 days; frame times are 64-bit and must not go backwards (grail's
 * timeouts compare them).  A time more than half the range below the
 * newest one is taken as the counter having wrapped.
 */
static uint64_t
extend_time(struct x11_ctx *ctx, Time t)
{
	uint64_t high = ctx->last_time & ~(uint64_t)0xffffffffu;
	uint64_t v = high | (uint32_t)t;
	if (ctx->last_time && v + 0x80000000u < ctx->last_time)
		v += (uint64_t)1 << 32;         /* wrapped forward */
	else if (v > ctx->last_time + 0x80000000u && high)
		v -= (uint64_t)1 << 32;         /* a late event from before a wrap */
	if (v > ctx->last_time)
		ctx->last_time = v;
	return v;
}

static struct x11_ctx *
registry_find(UFHandle handle)
{
	struct x11_ctx *found = NULL;

	pthread_mutex_lock(&registry_lock);
	ut_list_for_each(pos, &registry) {
		struct x11_ctx *ctx = ut_container_of(pos, struct x11_ctx, link);

		if (ctx->handle == handle) {
			found = ctx;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return found;
}

static void
registry_add(struct x11_ctx *ctx)
{
	pthread_mutex_lock(&registry_lock);
	ut_list_insert_after(&registry, &ctx->link);
	pthread_mutex_unlock(&registry_lock);
}

static bool
registry_remove(struct x11_ctx *ctx)
{
	bool found = false;

	pthread_mutex_lock(&registry_lock);
	ut_list_for_each(pos, &registry) {
		if (pos == &ctx->link) {
			ut_list_remove(pos);
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return found;
}

/* True when the connection to the server is known to be gone. */
static bool
display_broken(Display *display)
{
	struct pollfd pfd = { .fd = ConnectionNumber(display), .events = 0 };

	if (pfd.fd < 0)
		return true;
	if (poll(&pfd, 1, 0) < 0)
		return false;
	return (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

/*
 * Touch records and windows
 */

static struct x11_window *
window_find(struct x11_device *dev, Window window)
{
	ut_list_for_each(pos, &dev->windows) {
		struct x11_window *w = ut_container_of(pos, struct x11_window, link);

		if (w->window == window)
			return w;
	}
	return NULL;
}

static struct x11_window *
window_get(struct x11_device *dev, Window window)
{
	struct x11_window *w = window_find(dev, window);

	if (w)
		return w;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->window = window;
	/* touches wait for their ownership event */
	ut_frame_builder_init(&w->frames, dev->device, frame_x11_create_window_id(window), 0);
	ut_list_insert_after(&dev->windows, &w->link);
	return w;
}

static void
window_free(struct x11_window *w)
{
	ut_list_remove(&w->link);
	ut_frame_builder_fini(&w->frames);
	free(w->touches);
	free(w);
}

static struct x11_touch *
touch_find(struct x11_window *w, UFTouchId id)
{
	for (unsigned int i = 0; i < w->num_touches; i++)
		if (w->touches[i].id == id)
			return &w->touches[i];
	return NULL;
}

static struct x11_touch *
touch_add(struct x11_window *w, UFTouchId id)
{
	struct x11_touch *t = touch_find(w, id);

	if (t)
		return t;
	if (!UT_ARRAY_RESERVE(w->touches, w->capacity, w->num_touches + 1, 4))
		return NULL;
	t = &w->touches[w->num_touches++];
	*t = (struct x11_touch){ .id = id };
	return t;
}

/* A touch stays while it can still change or still needs a decision. */
static bool
touch_done(const struct x11_touch *t)
{
	return t->ended && (!t->owned || t->decided);
}

/* Drop finished touch records, then the window once it has none. */
static void
window_collect(struct x11_device *dev, struct x11_window *w)
{
	unsigned int kept = 0;

	for (unsigned int i = 0; i < w->num_touches; i++)
		if (!touch_done(&w->touches[i]))
			w->touches[kept++] = w->touches[i];
	w->num_touches = kept;
	if (kept == 0)
		window_free(w);
}

/*
 * Events
 */

static UFStatus
push_event(struct x11_ctx *ctx, UFEvent event)
{
	UFStatus status = utouch_frame_handle_push(ctx->handle, event);

	frame_event_unref(event);
	return status;
}

static UFStatus
push_device_event(struct x11_ctx *ctx, struct x11_device *dev, UFEventType type,
		  uint64_t time)
{
	UFEvent event;
	UFStatus status = utouch_frame_device_event_new(dev->device, type, time, &event);

	if (status != UFStatusSuccess)
		return status;
	return push_event(ctx, event);
}

/*
 * Devices
 */

static UFStatus
touch_decision(void *data, UFWindowId window_id, UFTouchId touch_id, int accept)
{
	struct x11_device *dev = data;
	struct x11_ctx *ctx = dev->ctx;
	struct x11_window *w = window_find(dev, (Window)window_id);
	struct x11_touch *t = w ? touch_find(w, touch_id) : NULL;

	if (!t || t->decided)
		return UFStatusErrorInvalidTouch;
	if (display_broken(ctx->display))
		return UFStatusErrorGeneric;
	XIAllowTouchEvents(ctx->display, dev->master, (unsigned int)touch_id,
			   (Window)window_id, accept ? XIAcceptTouch : XIRejectTouch);
	/* Send it now: the server holds the touch for other clients (and
	 * pointer emulation) until it knows. */
	XFlush(ctx->display);
	t->decided = true;
	window_collect(dev, w);
	return UFStatusSuccess;
}

/* Handler left on devices whose instance or device record is gone. */
static UFStatus
touch_decision_gone(void *data, UFWindowId window_id, UFTouchId touch_id, int accept)
{
	return UFStatusErrorInvalidTouch;
}

static void
device_free(struct x11_device *dev)
{
	ut_list_remove(&dev->link);
	ut_list_for_each_safe(pos, tmp, &dev->windows)
		window_free(ut_container_of(pos, struct x11_window, link));
	if (dev->device) {
		utouch_frame_backend_device_set_touch_handler(dev->device,
							      touch_decision_gone, NULL);
		frame_backend_device_delete(dev->device);
	}
	free(dev->valuator_axis);
	free(dev);
}

/* Free every device of @p ctx, without reporting them removed. */
static void
devices_free(struct x11_ctx *ctx)
{
	ut_list_for_each_safe(pos, tmp, &ctx->devices)
		device_free(ut_container_of(pos, struct x11_device, link));
}

static const struct {
	const char *label;
	UFAxisType type;
} axis_labels[] = {
	{ "Abs MT Position X", UFAxisTypeX },
	{ "Abs MT Position Y", UFAxisTypeY },
	{ "Abs MT Touch Major", UFAxisTypeTouchMajor },
	{ "Abs MT Touch Minor", UFAxisTypeTouchMinor },
	{ "Abs MT Width Major", UFAxisTypeWidthMajor },
	{ "Abs MT Width Minor", UFAxisTypeWidthMinor },
	{ "Abs MT Orientation", UFAxisTypeOrientation },
	{ "Abs MT Tool Type", UFAxisTypeTool },
	{ "Abs MT Blob ID", UFAxisTypeBlobId },
	{ "Abs MT Tracking ID", UFAxisTypeTrackingId },
	{ "Abs MT Pressure", UFAxisTypePressure },
	{ "Abs MT Distance", UFAxisTypeDistance },
};

static int
axis_from_label(Display *display, Atom label)
{
	char *name;
	int type = AXIS_NONE;

	if (label == None)
		return AXIS_NONE;
	name = XGetAtomName(display, label);
	if (!name)
		return AXIS_NONE;
	for (size_t i = 0; i < sizeof(axis_labels) / sizeof(axis_labels[0]); i++)
		if (strcmp(name, axis_labels[i].label) == 0)
			type = (int)axis_labels[i].type;
	XFree(name);
	return type;
}

static const XITouchClassInfo *
touch_class(const XIDeviceInfo *info)
{
	for (int i = 0; i < info->num_classes; i++)
		if (info->classes[i]->type == XITouchClass)
			return (const XITouchClassInfo *)info->classes[i];
	return NULL;
}

/* Is this a device the backend reports? */
static bool
device_qualifies(const XIDeviceInfo *info)
{
	return info->use == XISlavePointer && info->enabled && info->attachment > 0 &&
	       touch_class(info) != NULL;
}

static struct x11_device *
device_new(struct x11_ctx *ctx, const XIDeviceInfo *info)
{
	const XITouchClassInfo *touch = touch_class(info);
	struct x11_device *dev = calloc(1, sizeof(*dev));
	uint32_t axes_seen = 0;

	if (!dev)
		return NULL;
	dev->ctx = ctx;
	ut_list_init(&dev->link);
	ut_list_init(&dev->windows);
	dev->id = info->deviceid;
	dev->master = info->attachment;
	dev->device = frame_backend_device_new();
	for (int i = 0; i < info->num_classes; i++)
		if (info->classes[i]->type == XIValuatorClass) {
			const XIValuatorClassInfo *v =
				(const XIValuatorClassInfo *)info->classes[i];

			if (v->number >= dev->num_valuators)
				dev->num_valuators = v->number + 1;
		}
	if (dev->num_valuators > 0)
		dev->valuator_axis = malloc((size_t)dev->num_valuators);
	if (!dev->device || (dev->num_valuators > 0 && !dev->valuator_axis)) {
		device_free(dev);
		return NULL;
	}
	memset(dev->valuator_axis, AXIS_NONE, (size_t)dev->num_valuators);

	frame_backend_device_set_name(dev->device, info->name);
	frame_backend_device_set_direct(dev->device, touch->mode == XIDirectTouch);
	frame_backend_device_set_independent(dev->device, 0);
	frame_backend_device_set_semi_mt(dev->device, 0);
	frame_backend_device_set_max_touches(dev->device,
					     touch->num_touches > 0 ?
					     (unsigned int)touch->num_touches : 0);
	/* X knows the screen in pixels, not its physical size */
	frame_backend_device_set_window_resolution(dev->device, 0, 0);

	for (int i = 0; i < info->num_classes; i++) {
		const XIValuatorClassInfo *v;
		int type;

		if (info->classes[i]->type != XIValuatorClass)
			continue;
		v = (const XIValuatorClassInfo *)info->classes[i];
		if (v->number < 0)
			continue;
		/* valuators 0 and 1 are the position whatever their labels */
		if (v->number == 0)
			type = UFAxisTypeX;
		else if (v->number == 1)
			type = UFAxisTypeY;
		else
			type = axis_from_label(ctx->display, v->label);
		if (type == AXIS_NONE || (axes_seen & (1u << type)))
			continue;
		axes_seen |= 1u << type;
		dev->valuator_axis[v->number] = (signed char)type;
		/* XI2 resolutions are already in units per metre */
		frame_backend_device_add_axis(dev->device, (UFAxisType)type, (float)v->min,
					      (float)v->max, (float)v->resolution);
	}
	utouch_frame_backend_device_set_touch_handler(dev->device, touch_decision, dev);
	return dev;
}

static struct x11_device *
device_find(struct x11_ctx *ctx, int id)
{
	ut_list_for_each(pos, &ctx->devices) {
		struct x11_device *dev = ut_container_of(pos, struct x11_device, link);

		if (dev->id == id)
			return dev;
	}
	return NULL;
}

/*
 * Compare the server's device list with the tracked devices: report new
 * devices as added and vanished (removed, disabled, floating) ones as
 * removed.
 */
static UFStatus
rescan_devices(struct x11_ctx *ctx, uint64_t time)
{
	XIDeviceInfo *info;
	int count = 0;
	UFStatus status = UFStatusSuccess;

	if (display_broken(ctx->display))
		return UFStatusErrorGeneric;
	info = XIQueryDevice(ctx->display, XIAllDevices, &count);
	if (!info)
		return UFStatusErrorGeneric;
	ut_list_for_each(pos, &ctx->devices)
		ut_container_of(pos, struct x11_device, link)->seen = false;
	for (int i = 0; i < count; i++) {
		struct x11_device *dev;

		if (!device_qualifies(&info[i]))
			continue;
		dev = device_find(ctx, info[i].deviceid);
		if (dev) {
			dev->seen = true;
			dev->master = info[i].attachment;
			continue;
		}
		dev = device_new(ctx, &info[i]);
		if (!dev) {
			status = UFStatusErrorResources;
			continue;
		}
		dev->seen = true;
		ut_list_insert_after(&ctx->devices, &dev->link);
		if (push_device_event(ctx, dev, UFEventTypeDeviceAdded, time) != UFStatusSuccess)
			status = UFStatusErrorResources;
	}
	XIFreeDeviceInfo(info);

	ut_list_for_each_safe(pos, tmp, &ctx->devices) {
		struct x11_device *dev = ut_container_of(pos, struct x11_device, link);

		if (dev->seen)
			continue;
		ut_list_remove(&dev->link);
		if (push_device_event(ctx, dev, UFEventTypeDeviceRemoved, time) !=
		    UFStatusSuccess)
			status = UFStatusErrorResources;
		device_free(dev);
	}
	return status;
}

/*
 * Frames
 */

enum touch_change {
	CHANGE_BEGIN,
	CHANGE_UPDATE,
	CHANGE_END,
	CHANGE_OWNED,
};

/* The window position, the valuators the device maps to axes and the
 * pending-end flag of a touch event, for the frame builder. */
static void
touch_values(const struct x11_device *dev, const XIDeviceEvent *ev,
	     struct utouch_frame_touch_op *op)
{
	const double *value = ev->valuators.values;
	/* values are packed in mask order, so the bits past the device's
	 * valuators change nothing here and are not read (frame 2.5 did
	 * not; Xlib stand-ins leave them undefined) */
	int nbits = ev->valuators.mask_len * 8;

	if (nbits > dev->num_valuators)
		nbits = dev->num_valuators;
	op->window_x = (float)ev->event_x;
	op->window_y = (float)ev->event_y;
	op->set |= UTOUCH_FRAME_SET_POSITION;
	for (int i = 0; i < nbits; i++) {
		if (!XIMaskIsSet(ev->valuators.mask, i))
			continue;
		/* a value that is not a number is left out, as the backend
		 * setters did */
		if (dev->valuator_axis[i] != AXIS_NONE && isfinite(*value)) {
			op->values[dev->valuator_axis[i]] = (float)*value;
			op->set |= 1u << dev->valuator_axis[i];
		}
		value++;
	}
	op->pending_end = (ev->flags & XITouchPendingEnd) != 0;
	op->set |= UTOUCH_FRAME_SET_PENDING_END;
}

/*
 * Build the next frame of (dev, window) with one touch changed and queue
 * its event.  @p ev is the device event (NULL for CHANGE_OWNED).
 */
static UFStatus
emit_frame(struct x11_ctx *ctx, struct x11_device *dev, Window window,
	   enum touch_change change, UFTouchId id, uint64_t time, const XIDeviceEvent *ev)
{
	struct x11_window *w;
	struct x11_touch *rec;
	struct utouch_frame_touch_op op = { .kind = UTOUCH_FRAME_OP_UPDATE };
	UFStatus status;
	UFEvent event;

	if (change == CHANGE_BEGIN) {
		w = window_get(dev, window);
		if (!w)
			return UFStatusErrorResources;
		rec = touch_find(w, id);
		if (rec && !rec->ended)
			return UFStatusSuccess; /* a second begin: ignore it */
		rec = touch_add(w, id);
		if (!rec) {
			window_collect(dev, w);
			return UFStatusErrorResources;
		}
		*rec = (struct x11_touch){ .id = id };
	} else {
		/* touches that began before this instance are not followed */
		w = window_find(dev, window);
		rec = w ? touch_find(w, id) : NULL;
		if (!rec || rec->ended)
			return UFStatusSuccess;
	}

	if (ut_frame_builder_begin(&w->frames) != UFStatusSuccess)
		goto out_of_memory;
	op.id = id;
	op.time = time;
	op.start_time = time;
	switch (change) {
	case CHANGE_BEGIN:
		op.kind = UTOUCH_FRAME_OP_BEGIN;
		break;
	case CHANGE_UPDATE:
		op.kind = UTOUCH_FRAME_OP_UPDATE;
		break;
	case CHANGE_END:
		op.kind = UTOUCH_FRAME_OP_END;
		break;
	case CHANGE_OWNED:
		op.kind = UTOUCH_FRAME_OP_OWN;
		break;
	}
	if (change != CHANGE_OWNED)
		touch_values(dev, ev, &op);
	status = ut_frame_builder_touch(&w->frames, &op);
	if (status == UFStatusErrorInvalidTouch) {
		/* the touch ended in an earlier frame */
		ut_frame_builder_cancel(&w->frames);
		return UFStatusSuccess;
	}
	if (status != UFStatusSuccess ||
	    ut_frame_builder_end(&w->frames, time, &event) != UFStatusSuccess)
		goto out_of_memory;

	if (change == CHANGE_OWNED)
		rec->owned = true;
	else if (change == CHANGE_END)
		rec->ended = true;
	window_collect(dev, w);
	return push_event(ctx, event);

out_of_memory:
	ut_frame_builder_cancel(&w->frames);
	if (change == CHANGE_BEGIN && rec)
		rec->ended = true; /* forget the touch */
	window_collect(dev, w);
	return UFStatusErrorResources;
}

static UFStatus
process_device_event(struct x11_ctx *ctx, const XIDeviceEvent *ev)
{
	struct x11_device *dev = device_find(ctx, ev->sourceid);
	enum touch_change change;

	if (!dev)
		return UFStatusSuccess;
	switch (ev->evtype) {
	case XI_TouchBegin:
		change = CHANGE_BEGIN;
		break;
	case XI_TouchUpdate:
		change = CHANGE_UPDATE;
		break;
	default:
		change = CHANGE_END;
		break;
	}
	return emit_frame(ctx, dev, ev->event, change,
			  frame_x11_create_touch_id((unsigned int)ev->detail),
			  extend_time(ctx, ev->time), ev);
}

static UFStatus
process_ownership(struct x11_ctx *ctx, const XITouchOwnershipEvent *ev)
{
	struct x11_device *dev = device_find(ctx, ev->sourceid);

	if (!dev)
		return UFStatusSuccess;
	return emit_frame(ctx, dev, ev->event, CHANGE_OWNED,
			  frame_x11_create_touch_id(ev->touchid), extend_time(ctx, ev->time), NULL);
}

/*
 * Public API
 */

FRAME_PUBLIC UFStatus
frame_x11_new(Display *display, UFHandle *handle)
{
	struct x11_ctx *ctx;
	int event_base, error_base, major = 2, minor = 2;
	UFStatus status;

	if (UT_CLIENT_BUG_IF(NULL, !handle))
		return UFStatusErrorGeneric;
	*handle = NULL;
	if (!display)
		return UFStatusErrorGeneric;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return UFStatusErrorResources;
	ctx->display = display;
	ut_list_init(&ctx->link);
	ut_list_init(&ctx->devices);
	if (display_broken(display) ||
	    !XQueryExtension(display, "XInputExtension", &ctx->opcode, &event_base,
			     &error_base) ||
	    XIQueryVersion(display, &major, &minor) != Success ||
	    major < 2 || (major == 2 && minor < 2)) {
		free(ctx);
		return UFStatusErrorGeneric;
	}
	status = utouch_frame_handle_new(&ctx->handle);
	if (status != UFStatusSuccess) {
		free(ctx);
		return status;
	}
	status = rescan_devices(ctx, 0);
	if (status != UFStatusSuccess) {
		devices_free(ctx);
		utouch_frame_handle_delete(ctx->handle);
		free(ctx);
		return status;
	}
	registry_add(ctx);
	*handle = ctx->handle;
	return UFStatusSuccess;
}

FRAME_PUBLIC void
frame_x11_delete(UFHandle handle)
{
	struct x11_ctx *ctx;

	if (!handle)
		return;
	ctx = registry_find(handle);
	if (!ctx || !registry_remove(ctx))
		return;
	devices_free(ctx);
	utouch_frame_handle_delete(ctx->handle);
	free(ctx);
}

FRAME_PUBLIC UFStatus
frame_x11_process_event(UFHandle handle, XGenericEventCookie *xcookie)
{
	struct x11_ctx *ctx;

	if (UT_CLIENT_BUG_IF(NULL, !handle || !xcookie))
		return UFStatusErrorGeneric;
	ctx = registry_find(handle);
	if (!ctx)
		return UFStatusErrorGeneric;
	/* as frame 2.5: the extension and evtype say what the event is; the
	 * type is not looked at, so cookies built by hand without it count */
	if (xcookie->extension != ctx->opcode)
		return UFStatusSuccess;
	switch (xcookie->evtype) {
	case XI_TouchBegin:
	case XI_TouchUpdate:
	case XI_TouchEnd:
		if (!xcookie->data)
			return UFStatusErrorGeneric;
		return process_device_event(ctx, xcookie->data);
	case XI_TouchOwnership:
		if (!xcookie->data)
			return UFStatusErrorGeneric;
		return process_ownership(ctx, xcookie->data);
	case XI_HierarchyChanged:
		if (!xcookie->data)
			return UFStatusErrorGeneric;
		return rescan_devices(ctx, extend_time(ctx,
					((XIHierarchyEvent *)xcookie->data)->time));
	default:
		return UFStatusSuccess;
	}
}

FRAME_PUBLIC UFStatus
frame_x11_accept_touch(UFDevice device, UFWindowId window, UFTouchId touch_id)
{
	return frame_accept_touch(device, window, touch_id);
}

FRAME_PUBLIC UFStatus
frame_x11_reject_touch(UFDevice device, UFWindowId window, UFTouchId touch_id)
{
	return frame_reject_touch(device, window, touch_id);
}

FRAME_PUBLIC Window
frame_x11_get_window_id(UFWindowId window_id)
{
	return (Window)window_id;
}

FRAME_PUBLIC UFWindowId
frame_x11_create_window_id(Window id)
{
	return (UFWindowId)id;
}

FRAME_PUBLIC unsigned int
frame_x11_get_touch_id(UFTouchId touch_id)
{
	return (unsigned int)touch_id;
}

FRAME_PUBLIC UFTouchId
frame_x11_create_touch_id(unsigned int id)
{
	return (UFTouchId)id;
}
