/*
 * Touch operations -> frame events.  See framer.h.
 */
#include <libevdev/libevdev.h>

#include <utouch/frame_handle.h>

#include "input/evdev/framer.h"
#include "frame/frame-private.h"

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

/* the operation kinds are the builder's */
_Static_assert(UT_OP_BEGIN == (int)UTOUCH_FRAME_OP_BEGIN &&
	       UT_OP_UPDATE == (int)UTOUCH_FRAME_OP_UPDATE &&
	       UT_OP_END == (int)UTOUCH_FRAME_OP_END &&
	       UT_OP_OWN == (int)UTOUCH_FRAME_OP_OWN &&
	       UT_OP_PENDING_END == (int)UTOUCH_FRAME_OP_PENDING_END,
	       "operation kinds differ");

UFEvent
ut_framer_build(struct ut_frame_builder *b, uint64_t time_ms,
		const struct ut_touch_op *ops, size_t nops)
{
	UFEvent ev;

	if (ut_frame_builder_begin(b) != UFStatusSuccess)
		return NULL;
	/* an evstream operation always carries the window position, and
	 * device X and Y in axis[] (axis_mask has their bits); with the mask
	 * cut to the axes the compiler sees the other set bits */
	for (size_t k = 0; k < nops; k++) {
		ut_frame_builder_apply(b, ops[k].kind, ops[k].id, time_ms, time_ms,
				       (ops[k].axis_mask & ((1u << UT_OP_NUM_AXES) - 1)) |
					       UTOUCH_FRAME_SET_POSITION,
				       0, ops[k].wx, ops[k].wy, ops[k].axis, true,
				       (unsigned int)k);
		if (ops[k].cut_off &&
		    (ops[k].kind == UT_OP_END || ops[k].kind == UT_OP_PENDING_END))
			ut_frame_mark_cut_off(b->cur);
	}
	if (ut_frame_builder_end(b, time_ms, &ev) != UFStatusSuccess)
		return NULL;
	return ev;
}
