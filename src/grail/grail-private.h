/*
 * utouch grail: internal types shared by the grail sources.
 *
 * Layout of the recognizer state (see doc/grail.md for the algorithm):
 *
 *   UGHandle_ ─┬─ event queue (UGEvent_, intrusive list, eventfd readable
 *              │  while non-empty)
 *              ├─ event pool (recycled UGEvent_ objects, outlives the
 *              │  handle while the client holds events)
 *              ├─ gesture pool (recycled gr_gesture objects)
 *              └─ recognizers, one per (device, window):
 *                   touch table (gr_touch slots, reference counted),
 *                   free touch list (slot indices sorted by touch id),
 *                   undecided and accepted gesture lists (creation order).
 */
#ifndef UTOUCH_GRAIL_PRIVATE_H
#define UTOUCH_GRAIL_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <oif/frame.h>
#include <oif/grail.h>

/*
 * grail links the frame library and reads what it needs on every frame
 * through frame's internal interface (frame-peer.h): one view of the frame
 * event, and the touches GR_VIEW_BATCH at a time, instead of a public
 * getter call per field.  It never sees frame's structures.
 */
#include "frame/frame-peer.h"
#include "util/array.h"
#include "util/list.h"
#include "util/log.h"

/* Touches read per ut_frame_touch_views() call. */
#define GR_VIEW_BATCH 16

/* Touch counts of a subscription are 1..GR_MAX_TOUCHES. */
#define GR_MAX_TOUCHES 5
/* Touches that begin within this many ms may form one gesture. */
#define GR_COMPOSITION_TIME 60
/* Resolution fallbacks, in pixels (direct) or device units (indirect) per metre. */
#define GR_DEFAULT_WINDOW_RES 3780.0f
#define GR_DEFAULT_AXIS_RES_X 46000.0f
#define GR_DEFAULT_AXIS_RES_Y 45000.0f
/* Live (not ended) candidate gestures per recognizer; more are not created
 * (grail 3.1 had no limit, so a burst of touches could make it allocate
 * combinatorially). */
#define GR_MAX_GESTURES 4096
/* Ended gestures a client has not decided yet that a recognizer keeps; the
 * oldest beyond this are rejected, so a client that never decides does not
 * make grail grow (or slow down) for ever. */
#define GR_MAX_ENDED_UNDECIDED 4096
/* Frame touch indices for which the recognizer remembers a slot. */
#define GR_TOUCH_HINTS 32

/* grail logs through the shared path (util/log.h) */
#define GR_LOG_DEBUG UT_LOG_DEBUG
#define GR_LOG_WARN UT_LOG_WARNING
#define GR_LOG_ERROR UT_LOG_ERROR

struct UGSubscription_ {
	UFDevice device;
	UFWindowId window;
	UGGestureTypeMask mask;
	unsigned int touches_start;
	unsigned int touches_min;
	unsigned int touches_max;
	uint64_t drag_timeout;
	float drag_threshold;
	uint64_t pinch_timeout;
	float pinch_threshold;
	uint64_t rotate_timeout;
	float rotate_threshold;
	uint64_t tap_timeout;
	float tap_threshold;
	int atomic;
	bool device_set;
	/* handles on which the subscription is active */
	struct UGHandle_ **handles;
	unsigned int nhandles, caphandles;
};

struct UGSlice_ {
	unsigned int id;
	UGGestureState state;
	UGSubscription subscription;
	UGGestureTypeMask recognized;
	unsigned int num_touches;
	UFTouchId touch_ids[GR_MAX_TOUCHES];
	UFEvent frame_event; /* one reference held while the slice lives */
	UFFrame frame;
	uint64_t time;
	float original_center_x, original_center_y;
	float original_radius, original_angle;
	float center_x, center_y, radius, angle;
	float transform[3][3];
	float cumulative[3][3];
	float center_of_rotation_x, center_of_rotation_y;
	int construction_finished;
	int canceled;
	bool physically_ended;
};

struct gr_pool;
struct gr_gesture;

struct UGEvent_ {
	struct ut_list link;
	/*
	 * While the event waits in the handle's queue: the gesture it belongs
	 * to and its place in that gesture's list of queued events, so that
	 * cancelling a gesture withdraws its events without a queue scan.
	 */
	struct gr_gesture *owner;
	struct ut_list glink;
	unsigned int refcount;
	struct gr_pool *pool;
	struct UGSlice_ slice;
};

/* Events are allocated in chunks of growing size. */
struct gr_event_chunk {
	struct gr_event_chunk *next;
	unsigned int n;
	struct UGEvent_ ev[];
};

/*
 * Recycles events; lives until the handle is gone and no event is out.
 * Memory is taken in chunks (GR_EVENT_CHUNK_MIN doubling up to
 * GR_EVENT_CHUNK_MAX events) and only returned when the pool goes.
 */
struct gr_pool {
	struct ut_list free;
	struct gr_event_chunk *chunks;
	unsigned int next_chunk;
	unsigned int live;
	bool orphaned;
};
#define GR_EVENT_CHUNK_MIN 32
#define GR_EVENT_CHUNK_MAX 512

/* Gestures are allocated in chunks too; see create_gesture(). */
#define GR_GESTURE_CHUNK 16

struct gr_touch {
	UFTouchId id;
	uint64_t start_time;
	unsigned int refs;  /* free list + new list + gestures */
	bool live;          /* slot in use */
	bool listed;        /* still reported by frames (not ended) */
	bool accepted;
	bool owned;
	bool pending_end;
	bool ended;
	bool in_free;
	bool in_new;
	/* copy of the touch in the newest frame that carried it */
	UFTouchState state;
	float x, y;          /* window (direct) or device (indirect) coordinates */
	uint32_t seen_serial; /* frame serial of x, y and state */
	uint32_t mod_serial;  /* frame serial in which the touch last changed */
};

struct gr_recognizer;

struct gr_gesture {
	struct ut_list link;
	struct gr_recognizer *rec;
	UGSubscription sub;
	unsigned int id;
	/*
	 * Iteration rank: grail 3.1 kept gestures in sets ordered by their
	 * heap address, so the order in which gestures emit slices in one
	 * frame follows the allocator.  A new gesture object gets the next
	 * rank; a recycled one (free list, last in first out, like malloc's
	 * per-size caches) keeps its old rank.
	 */
	uint32_t rank;
	uint64_t start_time;
	/* touches still down, sorted by touch id, and their last angles */
	unsigned int ncur;
	uint32_t cur[GR_MAX_TOUCHES];
	float cur_angle[GR_MAX_TOUCHES];
	/* every touch the gesture ever had (one reference each) */
	unsigned int nall, capall;
	uint32_t *all;
	uint32_t all_inline[8];
	UGGestureTypeMask recognized;
	bool accepted;
	bool owned;
	bool not_owned;
	bool canceled;
	bool ended;
	bool keep_slices;
	bool construction_finished;
	bool has_slice;
	struct UGSlice_ last;     /* copy of the newest slice */
	struct ut_list pending;   /* slices waiting to be flushed */
	struct ut_list queued;    /* its events in the handle's queue (glink) */
	unsigned int nflushed;    /* events handed to the queue */
	unsigned int nflushed_cf; /* ... of which with construction_finished */
};

struct gr_gesture_chunk {
	struct gr_gesture_chunk *next;
	struct gr_gesture g[GR_GESTURE_CHUNK];
};

struct gr_slot_array {
	uint32_t *v;
	unsigned int n, cap;
};

struct gr_recognizer {
	struct ut_list link;
	struct UGHandle_ *handle;
	UFDevice device;
	UFWindowId window;
	bool atomic;
	bool direct;
	float res_x, res_y;
	UGSubscription *subs;
	unsigned int nsubs, capsubs;
	struct ut_list unaccepted;
	struct ut_list accepted;
	struct gr_touch *touches;
	unsigned int ntouches, captouches;
	struct gr_slot_array free_slots;   /* unused touch slots */
	struct gr_slot_array free_touches; /* sorted by touch id */
	struct gr_slot_array new_touches;  /* atomic: begun this frame */
	/*
	 * Lookup hints: the slot of the touch at index i of the last frame.
	 * Frames keep their touches in order, so the hint is usually right;
	 * it is only used after checking that it names the touch sought.
	 */
	uint32_t hint[GR_TOUCH_HINTS];
	uint32_t serial;                   /* frames processed, starting at 1 */
	unsigned int ngestures;            /* gestures of this recognizer */
	unsigned int nended;               /* ... of which ended (waiting for the
	                                      client's decision) */
};

struct UGHandle_ {
	int fd;
	bool fd_signalled;
	bool noevent_pending; /* last grail_get_event() found the queue empty */
	struct ut_list queue;
	unsigned int next_id;
	struct ut_list recognizers;
	struct gr_pool *pool;
	struct ut_list gesture_free;   /* recycled gesture objects */
	struct ut_list gesture_fresh;  /* never used yet (from a chunk) */
	struct gr_gesture_chunk *gesture_chunks;
	uint32_t next_rank;
	unsigned int ncached;
	struct ut_log log;              /* domain "grail" */
	grail_log_handler log_handler;  /* the client's, fed by the log */
	void *log_data;
};

/* grail-handle.c */
void gr_log(struct UGHandle_ *h, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool gr_log_enabled(const struct UGHandle_ *h, int level);
/* An event with one reference; the caller must set the whole slice. */
struct UGEvent_ *gr_event_alloc(struct UGHandle_ *h);
void gr_event_release(struct UGEvent_ *ev);
/* Append @ev, an event of gesture @g, to the handle's queue. */
void gr_queue_push(struct UGHandle_ *h, struct UGEvent_ *ev, struct gr_gesture *g);
/* Remove a gesture's events from the queue; returns how many, and in
 * @n_cf how many of them had construction_finished set. */
unsigned int gr_queue_purge(struct gr_gesture *g, unsigned int *n_cf);
/* The gesture object is going away: its queued events stay queued. */
void gr_queue_disown(struct gr_gesture *g);

/* grail-slice.c */
/* gr_slice_begin() and gr_slice_next() build the gesture's next slice in
 * @s, which may be &g->last itself (gr_slice_next() then drops the old
 * slice's frame reference). */
void gr_slice_begin(struct gr_gesture *g, struct UGSlice_ *s, UFEvent ev, UFFrame frame,
		    uint64_t time);
void gr_slice_next(struct gr_gesture *g, struct UGSlice_ *s, UFEvent ev, UFFrame frame,
		   uint64_t time);
void gr_slice_copy(const struct UGSlice_ *prev, struct UGSlice_ *s, uint64_t time);
bool gr_slice_physically_ended(const struct gr_gesture *g, const struct UGSlice_ *s);
UGGestureTypeMask gr_slice_check_recognition(const struct gr_gesture *g,
					     const struct UGSlice_ *s);
void gr_slice_set_frame(struct UGSlice_ *s, UFEvent ev, UFFrame frame);
void gr_slice_clear_frame(struct UGSlice_ *s);
float gr_angle_mean(const float *angles, unsigned int n);
/* Fixed point of [a -b c; b a d]-like transforms around centroid (x0, y0). */
void gr_center_of_rotation(float a, float b, float c, float d, float x0, float y0,
			   float *x, float *y);

/* grail-recognizer.c */
struct gr_recognizer *gr_recognizer_new(struct UGHandle_ *h, UFDevice device,
					UFWindowId window, bool atomic);
void gr_recognizer_destroy(struct gr_recognizer *rec, bool notify);
bool gr_recognizer_add_subscription(struct gr_recognizer *rec, UGSubscription sub);
void gr_recognizer_remove_subscription(struct gr_recognizer *rec, UGSubscription sub);
/* @num_touches: the frame's, as ut_frame_event_view() reported it. */
void gr_recognizer_process_frame(struct gr_recognizer *rec, UFEvent ev, UFFrame frame,
				 unsigned int num_touches,
				 uint64_t time);
void gr_recognizer_update_time(struct gr_recognizer *rec, uint64_t time);
uint64_t gr_recognizer_next_timeout(const struct gr_recognizer *rec);
/*
 * The timeout work only concerns undecided gestures and free touches; in
 * a steady stream of frames of accepted gestures there are none, and the
 * timeout calls are skipped (they would find nothing to do).
 */
static inline bool
gr_recognizer_has_undecided(const struct gr_recognizer *rec)
{
	return !ut_list_empty(&rec->unaccepted) || rec->free_touches.n > 0;
}
struct gr_gesture *gr_recognizer_find_undecided(struct gr_recognizer *rec,
						unsigned int id);
UGStatus gr_recognizer_accept(struct gr_recognizer *rec, struct gr_gesture *g);
void gr_recognizer_reject(struct gr_recognizer *rec, struct gr_gesture *g);

/* grail-subscription.c */
bool gr_subscription_is_valid(const struct UGSubscription_ *sub);
bool gr_subscription_attach(struct UGSubscription_ *sub, struct UGHandle_ *h);
void gr_subscription_detach(struct UGSubscription_ *sub, struct UGHandle_ *h);

/* small growable arrays of slot indices */
bool gr_slots_reserve(struct gr_slot_array *a, unsigned int n);
void gr_slots_finish(struct gr_slot_array *a);

#endif /* UTOUCH_GRAIL_PRIVATE_H */
