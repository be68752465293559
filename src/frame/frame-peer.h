/*
 * The frame library's internal interface to the libraries and tools built
 * on it (grail, geis, utouch-replay).
 *
 * libutouch-frame exports two kinds of functions (see
 * src/frame/libutouch-frame.sym):
 *
 *  - the public API of <oif/frame.h>, <oif/frame_backend.h>,
 *    <oif/frame_x11.h> and <utouch/frame_handle.h>, in the version nodes of
 *    the original libframe (FRAME_2.2, FRAME_2.4, FRAME_2.5) and ours
 *    (UTOUCH_FRAME_0.1);
 *  - the functions declared with UT_FRAME_PRIVATE in the internal headers
 *    (this one, util/log.h, util/yaml-config.h, input/evdev/evstream.h, framer.h,
 *    input/recording/recording.h and script.h), in the node
 *    UTOUCH_FRAME_PRIVATE_<project version>.  Its name changes with every
 *    release, so a grail or geis built against one frame library refuses to
 *    load with another one instead of misreading a changed structure.
 *
 * Nothing outside this source tree may use the private node.  The install
 * test (tests/install/check-symbols.py) fails when the exported symbols and
 * the declarations marked here differ.
 *
 * grail does not see frame's structures (src/frame/frame-private.h): what
 * it reads on every frame comes through the two view functions below
 * instead of a public getter per field: one call per frame event, which
 * also copies out the first touches, and for a frame with more touches
 * than the caller's buffer one call per further group of touches.
 */
#ifndef UTOUCH_FRAME_PEER_H
#define UTOUCH_FRAME_PEER_H

#include <stdbool.h>
#include <stdint.h>

#include <oif/frame.h>

#include "util/export.h"  /* UT_FRAME_PRIVATE */

/** What a consumer reads from a frame event, as the public getters report it. */
struct ut_frame_event_view {
	UFEventType type;          /**< the event type (DeviceAdded when unset) */
	UFDevice device;           /**< DeviceAdded/Removed: the event's device;
	                                Frame: the frame's device; NULL when unset */
	UFFrame frame;             /**< the frame of a Frame event, else NULL */
	UFWindowId window;         /**< the frame's window, 0 when unset */
	uint64_t time;             /**< the event time, 0 when unset */
	unsigned int num_touches;  /**< touches in the frame, 0 without one */
	unsigned int num_views;    /**< touch views filled by ut_frame_event_view() */
};

/** What a consumer reads from one touch of a frame. */
struct ut_frame_touch_view {
	UFTouchId id;
	uint64_t time;              /**< frame_touch_get_time() */
	uint64_t start_time;        /**< frame_touch_get_start_time() */
	float x, y;                 /**< frame_touch_get_window_x() / _y() */
	float dev_x, dev_y;         /**< frame_touch_get_device_x() / _y() (0 when
	                                 the axis is absent) */
	UFTouchState state;
	bool owned;                 /**< Owned property (false when unset) */
	bool pending_end;           /**< PendingEnd property (false when unset) */
};

/**
 * Fill @p view from @p event and, for a Frame event, @p touches with its
 * first touches (at most @p max, in the frame's order; view->num_views says
 * how many), so that a frame of up to @p max touches costs one call.
 * @p touches may be NULL when @p max is 0.  Returns false (and leaves
 * @p view alone) when @p event or @p view is NULL.
 */
UT_FRAME_PRIVATE
bool ut_frame_event_view(UFEvent event, struct ut_frame_event_view *view,
			 struct ut_frame_touch_view *touches, unsigned int max);

/**
 * Fill @p views with up to @p max touches of @p frame, starting at index
 * @p first, in the frame's order.  Returns how many were filled (0 when
 * @p frame is NULL or has no touch at @p first).
 */
UT_FRAME_PRIVATE
unsigned int ut_frame_touch_views(UFFrame frame, unsigned int first,
				  struct ut_frame_touch_view *views, unsigned int max);

#endif /* UTOUCH_FRAME_PEER_H */
