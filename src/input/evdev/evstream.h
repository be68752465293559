/*
 * evdev event stream -> touch operations grouped into frames.
 *
 * This is the part of the evdev backend that does not care where events come
 * from: a live device, a pipe or a recording all push `struct input_event`s
 * through ut_evstream_push().  Multitouch protocol B is read natively;
 * protocol A (with or without tracking ids) goes through libmtdev first.
 *
 * Every SYN_REPORT that changed anything yields one frame (or one frame per
 * changed touch in split mode), delivered to a callback as an array of
 * operations.  ut_framer_build() (framer.h) turns those arrays into frame events.
 */
#ifndef UTOUCH_EVSTREAM_H
#define UTOUCH_EVSTREAM_H

#include <stddef.h>
#include <stdint.h>
#include <linux/input.h>

#include "frame/frame-peer.h"

struct libevdev;

/** Number of per-touch axis values an operation carries; indexes are
 * UFAxisType values (X = 0 ... Distance = 11). */
#define UT_OP_NUM_AXES 12

/** The most slots a stream follows; events for higher slots are ignored. */
#define UT_EVSTREAM_MAX_SLOTS 64

/** The most contacts one protocol A report may list.  libmtdev, which
 * assigns slots to protocol A contacts, has 32 slots and loops for ever or
 * writes out of bounds once a report needs all of them; the stream passes
 * the first 31 contacts of a report and drops the rest (counted by
 * ut_evstream_dropped()). */
#define UT_EVSTREAM_MAX_CONTACTS_A 31
/** The same bound for a protocol A device that reports its own tracking
 * ids: mtdev keeps the previous report's slots while it gives new ids new
 * slots, so a report may need twice its contacts in slots. */
#define UT_EVSTREAM_MAX_CONTACTS_A_IDS 15

/** What happens to a touch in one operation. */
enum ut_op_kind {
	UT_OP_BEGIN = 0,     /**< the touch appears */
	UT_OP_UPDATE,        /**< a value of the touch changed */
	UT_OP_END,           /**< the touch is gone */
	UT_OP_OWN,           /**< the client now owns the touch */
	UT_OP_PENDING_END,   /**< the touch lifted but is not owned yet */
};

/** One touch operation. */
struct ut_touch_op {
	enum ut_op_kind kind;
	uint32_t id;                 /**< 1, 2, 3 ... in order of appearance */
	float wx, wy;                /**< window coordinates */
	float dx, dy;                /**< device coordinates */
	float axis[UT_OP_NUM_AXES];  /**< values by UFAxisType */
	uint32_t axis_mask;          /**< bit n set: axis[n] is valid */
	int cut_off;                 /**< UT_OP_END, UT_OP_PENDING_END: the touch did
	                                  not lift, input stopped with it down
	                                  (ut_evstream_end_all()); the frame built
	                                  from it is cut off (ut_frame_cut_off()) */
	int more;                    /**< split_begins: the device's report goes on
	                                  in the next frame (a further new touch of
	                                  the same report); set on every op of
	                                  each frame of a split report but the
	                                  last, so a consumer that rebuilds the
	                                  device's reports (the touch proxy's
	                                  clone) ends one report per report */
};

/** How ownership of new touches is reported. */
enum ut_own_mode {
	UT_OWN_BEGIN = 0,  /**< touches are owned from their begin (plain evdev) */
	UT_OWN_EVENT,      /**< ownership follows the begin in a frame of its own (X11) */
	UT_OWN_MANUAL,     /**< the embedder grants it with ut_evstream_grant(); a touch
	                        that lifts before that gets a pending end.  At most
	                        UT_EVSTREAM_MAX_SLOTS touches wait; one beginning
	                        while that many wait is owned at once, as with
	                        UT_OWN_EVENT */
};

/** Options of a stream; zero-initialised means defaults except where noted. */
struct ut_evstream_opts {
	int split;          /**< one frame per changed touch */
	int reverse;        /**< walk slots from highest to lowest */
	int begin_first;    /**< new touches before other changes of a report */
	int split_begins;   /**< at most one new touch per frame: a report that
	                         begins several touches gives a frame with the
	                         other changes and the first new touch, then one
	                         frame per further new touch, all at its time
	                         (what X11 delivers; grail's atomic mode, the
	                         geis default, relies on it) */
	enum ut_own_mode own;
	int direct;         /**< 1 direct, 0 indirect, -1 detect from capabilities */
	double screen_w;    /**< window size for direct devices (0: 1024) */
	double screen_h;    /**< (0: 768) */
};

/** Receives one frame: @p usec is the time of the event that closed it. */
typedef void (*ut_evstream_frame_fn)(void *data, uint64_t usec,
				     const struct ut_touch_op *ops, size_t nops);

struct ut_evstream;

/**
 * Create a stream for a device with the capabilities in @p caps (not kept;
 * the needed values are copied).  Returns NULL and sets errno on failure:
 * EINVAL when the device has no ABS_MT_POSITION_X/Y, ENOMEM.
 */
UT_FRAME_PRIVATE
struct ut_evstream *ut_evstream_new(const struct libevdev *caps,
				    const struct ut_evstream_opts *opts,
				    ut_evstream_frame_fn fn, void *data);

/** Destroy a stream; NULL is allowed. */
UT_FRAME_PRIVATE
void ut_evstream_destroy(struct ut_evstream *s);

/** Feed one event.  Frames are delivered from inside this call. */
UT_FRAME_PRIVATE
void ut_evstream_push(struct ut_evstream *s, const struct input_event *ev);

/**
 * End of input: end every touch that is still down, in one report at
 * @p usec that also carries what a cut-off report in progress changed
 * (protocol A: the contacts mtdev collected form a report first).  This is what a live
 * stream does at end of file, and what a recording cut off with fingers
 * down gets.  The ends it makes (UT_OP_END, or UT_OP_PENDING_END for a
 * touch still waiting for ownership, and that touch's later end) carry
 * cut_off = 1: no finger lifted, so a recognizer must not take them for a
 * lift (no tap from them).  The stream can go on afterwards; a touch that
 * is reported again begins anew.  Returns the number of touches ended.
 */
UT_FRAME_PRIVATE
size_t ut_evstream_end_all(struct ut_evstream *s, uint64_t usec);

/** Grant ownership of touch @p id (UT_OWN_MANUAL).  Emits an ownership frame
 * at @p usec, and the touch's end right after when it had a pending end.
 * Returns 0, or -ENOENT when no touch waits for ownership under that id. */
int ut_evstream_grant(struct ut_evstream *s, uint32_t id, uint64_t usec);

/** How many protocol A contacts were dropped so far because their report
 * listed more than UT_EVSTREAM_MAX_CONTACTS_A (UT_EVSTREAM_MAX_CONTACTS_A_IDS
 * for a device with ABS_MT_TRACKING_ID); 0 for protocol B.  Callers
 * compare it before and after a push to tell the user. */
UT_FRAME_PRIVATE
unsigned long ut_evstream_dropped(const struct ut_evstream *s);

/** The most contacts a protocol A report of this stream may list (0 for
 * protocol B). */
UT_FRAME_PRIVATE
int ut_evstream_max_contacts(const struct ut_evstream *s);

/** 'B' or 'A': the multitouch protocol the device speaks. */
UT_FRAME_PRIVATE
char ut_evstream_protocol(const struct ut_evstream *s);

/** Whether the stream treats the device as direct (a touchscreen). */
UT_FRAME_PRIVATE
int ut_evstream_is_direct(const struct ut_evstream *s);

/** Detect direct/indirect from capabilities: INPUT_PROP_DIRECT -> 1;
 * INPUT_PROP_POINTER or BTN_TOOL_FINGER -> 0; anything else -> 1. */
int ut_evdev_caps_is_direct(const struct libevdev *caps);

#endif
