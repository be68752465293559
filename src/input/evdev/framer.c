/*
 * Touch operations -> frame events.  See framer.h.
 */
#include <libevdev/libevdev.h>

#include <utouch/frame_handle.h>

#include "input/evdev/framer.h"
#include "frame/frame-private.h"

#define TOUCH_BIT(p) ((uint16_t)(1u << (p)))

/* an operation carries one value per frame axis */
_Static_assert(UT_OP_NUM_AXES == UT_AXIS_COUNT, "axis counts differ");

/* ABS_MT_* codes in UFAxisType order */
static const unsigned int axis_codes[UT_OP_NUM_AXES] = {
	ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TOUCH_MAJOR,
	ABS_MT_TOUCH_MINOR, ABS_MT_WIDTH_MAJOR, ABS_MT_WIDTH_MINOR,
	ABS_MT_ORIENTATION, ABS_MT_TOOL_TYPE, ABS_MT_BLOB_ID,
	ABS_MT_TRACKING_ID, ABS_MT_PRESSURE, ABS_MT_DISTANCE,
};

UFBackendDevice
ut_framer_device_new(const struct libevdev *caps,
		     const struct ut_device_opts *opts)
{
	struct ut_device_opts defaults = {
		.name = NULL,
		.direct = ut_evdev_caps_is_direct(caps),
		.window_res = 0,
	};
	UFBackendDevice dev;
	const char *name;
	unsigned int touches = UT_EVSTREAM_MAX_SLOTS;

	if (!opts)
		opts = &defaults;
	name = opts->name ? opts->name : libevdev_get_name(caps);
	dev = frame_backend_device_new();
	if (!dev)
		return NULL;
	/* the stream follows at most UT_EVSTREAM_MAX_SLOTS slots */
	if (libevdev_has_event_code(caps, EV_ABS, ABS_MT_SLOT) &&
	    libevdev_get_num_slots(caps) > 0 &&
	    libevdev_get_num_slots(caps) < UT_EVSTREAM_MAX_SLOTS)
		touches = (unsigned int)libevdev_get_num_slots(caps);
	frame_backend_device_set_name(dev, name && *name ? name : "utouch device");
	frame_backend_device_set_direct(dev, opts->direct);
	frame_backend_device_set_independent(dev, 0);
	frame_backend_device_set_semi_mt(dev,
		libevdev_has_property(caps, INPUT_PROP_SEMI_MT));
	frame_backend_device_set_max_touches(dev, touches);
	frame_backend_device_set_window_resolution(dev, opts->window_res,
						   opts->window_res);
	for (int i = 0; i < UT_OP_NUM_AXES; i++) {
		const struct input_absinfo *a;

		if (!libevdev_has_event_code(caps, EV_ABS, axis_codes[i]))
			continue;
		a = libevdev_get_abs_info(caps, axis_codes[i]);
		/* evdev resolution is units/mm, frame wants units/m */
		frame_backend_device_add_axis(dev, (UFAxisType)i,
					      (float)a->minimum,
					      (float)a->maximum,
					      (float)a->resolution * 1000.f);
	}
	return dev;
}

void
ut_framer_init(struct ut_framer *f, UFBackendDevice device, UFWindowId window,
	       int own_at_begin)
{
	f->device = device;
	f->window = window;
	f->own_at_begin = own_at_begin;
	f->prev = NULL;
}

void
ut_framer_fini(struct ut_framer *f)
{
	if (f->prev)
		frame_backend_frame_delete(f->prev);
	f->prev = NULL;
}

/*
 * The framer builds its frames in place through the frame library's
 * internal producer shortcuts (frame-private.h): the touch it changes is
 * private to the new frame, so the fields are written directly.  The
 * result is what the frame_backend_touch_set_*() calls of the public
 * producer API would make (window position, device axes, time).
 */
static void
set_values(struct UFTouch_ *t, const struct ut_touch_op *op, uint64_t time_ms)
{
	uint16_t axes = (uint16_t)((op->axis_mask & ~3u) & ((1u << UT_AXIS_COUNT) - 1));

	t->window_x = op->wx;
	t->window_y = op->wy;
	t->values[UFAxisTypeX] = op->dx;
	t->values[UFAxisTypeY] = op->dy;
	t->axis_mask |= (uint16_t)(axes | (1u << UFAxisTypeX) | (1u << UFAxisTypeY));
	while (axes) {
		unsigned int i = (unsigned int)__builtin_ctz(axes);

		t->values[i] = op->axis[i];
		axes &= (uint16_t)(axes - 1);
	}
	t->time = time_ms;
	t->set |= TOUCH_BIT(UFTouchPropertyWindowX) | TOUCH_BIT(UFTouchPropertyWindowY) |
		  TOUCH_BIT(UFTouchPropertyTime);
}

UFEvent
ut_framer_build(struct ut_framer *f, uint64_t time_ms,
		const struct ut_touch_op *ops, size_t nops)
{
	UFBackendFrame fr = f->prev ? frame_backend_frame_create_next(f->prev)
				    : frame_backend_frame_new();
	UFEvent ev;

	if (!fr)
		return NULL;
	frame_backend_frame_set_device(fr, f->device);
	frame_backend_frame_set_window_id(fr, f->window);

	struct UFFrame_ *frame = ut_frame_from_backend(fr);

	for (size_t k = 0; k < nops; k++) {
		const struct ut_touch_op *op = &ops[k];
		struct UFTouch_ *t;

		if (op->kind == UT_OP_BEGIN) {
			/* a begin of an id the frame already holds is refused */
			t = ut_frame_add_touch(frame, op->id);
			if (!t)
				continue;
			t->start_time = time_ms;
			t->owned = f->own_at_begin != 0;
			t->pending_end = 0;
			t->set |= TOUCH_BIT(UFTouchPropertyStartTime) |
				  TOUCH_BIT(UFTouchPropertyOwned) |
				  TOUCH_BIT(UFTouchPropertyPendingEnd);
			set_values(t, op, time_ms);
			continue;
		}
		t = ut_frame_writable_touch(frame, op->id);
		if (!t)
			continue;
		switch (op->kind) {
		case UT_OP_OWN:
			t->owned = 1;
			t->time = time_ms;
			t->set |= TOUCH_BIT(UFTouchPropertyOwned) | TOUCH_BIT(UFTouchPropertyTime);
			break;
		case UT_OP_PENDING_END:
			set_values(t, op, time_ms);
			t->pending_end = 1;
			t->set |= TOUCH_BIT(UFTouchPropertyPendingEnd);
			break;
		case UT_OP_END:
			set_values(t, op, time_ms);
			t->state = UFTouchStateEnd;
			break;
		default:
			set_values(t, op, time_ms);
			break;
		}
	}
	frame_backend_frame_set_active_touches(fr,
		frame_frame_get_num_touches(frame_backend_frame_get_frame(fr)));

	ev = frame_event_new();
	if (!ev) {
		frame_backend_frame_delete(fr);
		return NULL;
	}
	frame_event_set_type(ev, UFEventTypeFrame);
	frame_event_set_frame(ev, fr);
	frame_event_set_time(ev, time_ms);
	if (f->prev)
		frame_backend_frame_delete(f->prev);
	f->prev = fr;
	return ev;
}

UFEvent
ut_framer_device_event(struct ut_framer *f, UFEventType type, uint64_t time_ms)
{
	UFEvent ev = frame_event_new();

	if (!ev)
		return NULL;
	frame_event_set_type(ev, type);
	frame_event_set_device(ev, f->device);
	frame_event_set_time(ev, time_ms);
	return ev;
}
