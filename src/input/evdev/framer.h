/*
 * evdev capabilities -> a frame device, and frames of evstream touch
 * operations -> frame events through the frame builder
 * (src/frame/frame-builder.h).  What every evdev-style producer (live
 * devices, pipes, recordings) uses to talk to the frame layer.
 */
#ifndef UTOUCH_FRAMES_H
#define UTOUCH_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>

#include "frame/frame-builder.h"
#include "frame/frame-peer.h"
#include "input/evdev/evstream.h"

struct libevdev;

/** Device facts for ut_framer_device_new(). */
struct ut_device_opts {
	const char *name;     /**< NULL: the evdev name */
	int direct;           /**< 1 direct, 0 indirect */
	float window_res;     /**< window resolution in px/m (0: unknown) */
};

/**
 * Create a frame backend device from evdev capabilities: name, direct,
 * semi-MT (INPUT_PROP_SEMI_MT), max touches (number of slots, at most
 * UT_EVSTREAM_MAX_SLOTS, which protocol A devices get), window resolution, and one axis per ABS_MT_* axis the device
 * has, with min, max and resolution converted from units/mm to units/m.
 * @p opts may be NULL: the evdev name, direct per ut_evdev_caps_is_direct()
 * and an unknown window resolution.  Returns NULL on allocation failure.
 */
UT_FRAME_PRIVATE
UFBackendDevice ut_framer_device_new(const struct libevdev *caps,
				     const struct ut_device_opts *opts);

/**
 * Build the frame event for one frame of operations at @p time_ms with
 * the frame builder @p b (frame-builder.h): its next frame, every
 * operation applied in order (window position and the values of
 * op->axis_mask), ended.  Operations on touches the frame does not hold
 * (e.g. ownership of a touch that already ended) and begins of ids it
 * holds change nothing.  An end or pending end with cut_off set marks the
 * frame cut off (ut_frame_cut_off()).  The caller owns the returned event (one
 * reference); NULL on allocation failure.
 */
UT_FRAME_PRIVATE
UFEvent ut_framer_build(struct ut_frame_builder *b, uint64_t time_ms,
			const struct ut_touch_op *ops, size_t nops);

#endif
