/*
 * Touch operations -> frame events through the frame backend API.
 *
 * A ut_framer keeps the previous frame of one (device, window) and builds
 * each new frame from it with frame_backend_frame_create_next(), borrowing
 * and giving back the touches an operation changes.  It is what every
 * evdev-style producer (live devices, pipes, recordings) uses to talk to
 * the frame layer.
 */
#ifndef UTOUCH_FRAMES_H
#define UTOUCH_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>

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

/** State of one (device, window) frame sequence. */
struct ut_framer {
	UFBackendDevice device;  /**< not owned */
	UFWindowId window;
	int own_at_begin;        /**< new touches start owned */
	UFBackendFrame prev;     /**< owned; the last frame built */
};

/** Start a sequence for @p device and @p window. */
UT_FRAME_PRIVATE
void ut_framer_init(struct ut_framer *f, UFBackendDevice device,
		    UFWindowId window, int own_at_begin);

/** Release the last frame.  The device is left alone. */
UT_FRAME_PRIVATE
void ut_framer_fini(struct ut_framer *f);

/**
 * Build the frame event for one frame of operations at @p time_ms.
 * Operations on touches the frame does not hold (e.g. ownership of a touch
 * that already ended) change nothing.  The caller owns the returned event
 * (one reference); NULL on allocation failure.
 */
UT_FRAME_PRIVATE
UFEvent ut_framer_build(struct ut_framer *f, uint64_t time_ms,
			const struct ut_touch_op *ops, size_t nops);

/** A DeviceAdded or DeviceRemoved event for the framer's device. */
UT_FRAME_PRIVATE
UFEvent ut_framer_device_event(struct ut_framer *f, UFEventType type,
			       uint64_t time_ms);

#endif
