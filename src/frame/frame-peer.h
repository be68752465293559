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
 * grail reads every frame event and its touches in place, through the
 * inline accessors at the end of this header, over the layout of frame's
 * event, frame and touch objects declared here (frame's own code sees the
 * same structures through src/frame/frame-private.h, which includes this
 * header).  That layout is part of the private interface: it may change
 * with any release, which is what the private version node is for.  grail
 * asks ut_frame_peer_layout() once per handle, so a grail built against
 * another layout is refused at load time (the node) and, should the node
 * ever match by mistake, at grail_new() (the fingerprint).
 */
#ifndef UTOUCH_FRAME_PEER_H
#define UTOUCH_FRAME_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <oif/frame.h>

#include "util/export.h"  /* UT_FRAME_PRIVATE */

/** Number of UFAxisType values. */
#define UT_AXIS_COUNT 12
/** Touch pointers a frame holds without a separate allocation. */
#define UT_FRAME_INLINE_TOUCHES 10

struct UFTouch_ {
	/* The pool link overlays the first 8 bytes while the touch is free. */
	int refcount; /* frames and backend handles sharing this touch */
	uint16_t set; /* bit (1 << UFTouchProperty) per property set */
	uint16_t axis_mask;
	UFTouchId id;
	UFTouchState state;
	float window_x;
	float window_y;
	uint8_t owned;
	uint8_t pending_end;
	uint64_t time;
	uint64_t start_time;
	float values[UT_AXIS_COUNT];
};

/** Bits of struct UFFrame_'s set field. */
enum ut_frame_set_bits {
	UT_FRAME_SET_DEVICE = 1u << 0,
	UT_FRAME_SET_WINDOW = 1u << 1,
	UT_FRAME_SET_ACTIVE = 1u << 2,
	UT_FRAME_SET_CUT_OFF = 1u << 3, /* see ut_frame_cut_off() */
	UT_FRAME_SET_ALL_UPDATE = 1u << 4, /* frame's own: every touch is in state
	                                     Update (see ut_frame_next()) */
};

struct UFFrame_ {
	/* The pool link overlays the first 8 bytes while the frame is free. */
	int refcount;      /* producer handle, events, successor frames */
	int event_holders; /* events holding this frame */
	uint64_t serial;
	uint32_t set;      /* enum ut_frame_set_bits */
	unsigned int active_touches;
	struct UFDevice_ *device; /* holds a reference when set */
	UFWindowId window_id;
	struct UFFrame_ *prev;    /* holds a reference when set */
	unsigned int num_touches;
	/* Kept across recycling, so a grown array is reused. */
	unsigned int capacity;
	struct UFTouch_ **touches;
	struct UFTouch_ *inline_touches[UT_FRAME_INLINE_TOUCHES];
};

struct UFEvent_ {
	int refcount;
	uint32_t set; /* enum ut_event_set_bits */
	UFEventType type;
	struct UFDevice_ *device; /* holds a reference when set */
	struct UFFrame_ *frame;   /* holds a reference and an event_holders count */
	uint64_t time;
};

/**
 * A fingerprint of the layout above (sizes and offsets of what the inline
 * accessors read); ut_frame_peer_layout() returns frame's own.
 */
#define UT_FRAME_PEER_LAYOUT                                                               \
	((unsigned int)(sizeof(struct UFTouch_) | (sizeof(struct UFFrame_) << 8) |         \
			(sizeof(struct UFEvent_) << 16) |                                  \
			(offsetof(struct UFTouch_, values) << 24)))

/** Frame's UT_FRAME_PEER_LAYOUT, for a library built on it to compare. */
UT_FRAME_PRIVATE
unsigned int ut_frame_peer_layout(void);

/** What a consumer reads from a frame event, as the public getters report it. */
struct ut_frame_event_view {
	UFEventType type;          /**< the event type (DeviceAdded when unset) */
	UFDevice device;           /**< DeviceAdded/Removed: the event's device;
	                                Frame: the frame's device; NULL when unset */
	UFFrame frame;             /**< the frame of a Frame event, else NULL */
	UFWindowId window;         /**< the frame's window, 0 when unset */
	uint64_t time;             /**< the event time, 0 when unset */
	unsigned int num_touches;  /**< touches in the frame, 0 without one */
};


/**
 * Fill @p view from @p event (not NULL).  Inline: what it reads is in
 * place, so a caller that uses a few fields pays for those only.
 */
static inline void
ut_frame_event_view(UFEvent event, struct ut_frame_event_view *view)
{
	const struct UFEvent_ *e = event;
	struct UFFrame_ *frame = e->type == UFEventTypeFrame ? e->frame : NULL;

	view->type = e->type;
	view->frame = frame;
	view->time = e->time;
	if (frame) {
		view->device = (UFDevice)frame->device;
		view->window = frame->window_id;
		view->num_touches = frame->num_touches;
	} else {
		view->device = (UFDevice)e->device;
		view->window = 0;
		view->num_touches = 0;
	}
}

/** Touch @p i of @p frame (i < the frame's num_touches), read in place. */
static inline const struct UFTouch_ *
ut_frame_touch_at(UFFrame frame, unsigned int i)
{
	return ((const struct UFFrame_ *)frame)->touches[i];
}

/** frame_touch_get_device_x() / _y() of @p t: 0 when the axis is absent. */
static inline float
ut_frame_touch_dev_x(const struct UFTouch_ *t)
{
	return (t->axis_mask & (1u << UFAxisTypeX)) ? t->values[UFAxisTypeX] : 0.0f;
}

static inline float
ut_frame_touch_dev_y(const struct UFTouch_ *t)
{
	return (t->axis_mask & (1u << UFAxisTypeY)) ? t->values[UFAxisTypeY] : 0.0f;
}

/** The Owned / PendingEnd property of @p t (false when unset). */
static inline bool
ut_frame_touch_owned(const struct UFTouch_ *t)
{
	return (t->set & (1u << UFTouchPropertyOwned)) && t->owned;
}

static inline bool
ut_frame_touch_pending_end(const struct UFTouch_ *t)
{
	return (t->set & (1u << UFTouchPropertyPendingEnd)) && t->pending_end;
}

/**
 * Whether @p frame (not NULL) is cut off: input stopped with touches down
 * (a recording that ends with fingers on the surface, a live stream at end
 * of file), and the touches that end or get a pending end in this frame
 * did not lift.  The evdev producers mark such frames (ut_evstream_end_all(),
 * ut_framer_build()); the public API does not show the mark.  grail ends
 * those touches' gestures without recognizing anything from the end.
 */
static inline bool
ut_frame_cut_off(UFFrame frame)
{
	return (((const struct UFFrame_ *)frame)->set & UT_FRAME_SET_CUT_OFF) != 0;
}

/** frame_event_ref() of a valid event, inline. */
static inline void
ut_frame_event_ref_inline(UFEvent event)
{
	((struct UFEvent_ *)event)->refcount++;
}

/** frame_event_unref() of a valid event: inline unless it is the last
 *  reference (then frame_event_unref() releases it). */
static inline void
ut_frame_event_unref_inline(UFEvent event)
{
	struct UFEvent_ *e = event;

	if (e->refcount > 1)
		e->refcount--;
	else
		frame_event_unref(event);
}

#endif /* UTOUCH_FRAME_PEER_H */
