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
 * grail links the frame library and reads each frame event and its
 * touches in place, through the inline accessors of frame's internal
 * interface (frame-peer.h), instead of a public getter call per field.
 */
#include "frame/frame-peer.h"
#include "util/array.h"
#include "util/list.h"
#include "util/log.h"

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
/* Centroid positions a velocity is estimated from, at most. */
#define GR_VELOCITY_SAMPLES 16
/* Positions one velocity log holds (struct gr_vlog). */
#define GR_VLOG_SAMPLES 32
/* An edge swipe moves inward within this angle (degrees) of the normal. */
#define GR_EDGE_MAX_DEVIATION 30.0
/* See gr_angle_ill_conditioned(). */
#define GR_LSQ_NEAR_CENTROID 0.25f
/* A time at most this many ms before a touch or gesture began is clock
 * jitter or lag: "not yet".  Further back, the clocks disagree and the
 * time counts as long past, as grail 3.1's unsigned subtraction made it
 * (see gr_elapsed()). */
#define GR_CLOCK_SLACK 10000
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
	/* utouch extensions */
	uint64_t hold_timeout;
	float hold_threshold;
	uint64_t multitap_timeout;
	float multitap_threshold;
	unsigned int multitap_max;
	unsigned int edge_edges;
	float edge_margin;
	float edge_velocity;
	uint64_t velocity_window;
	/* the longest timeout of the types in mask, what an unrecognized
	 * gesture may live (0: no limit; grail-subscription.c keeps it) */
	uint64_t timeout;
	/* only gestures of every touch down (UGSubscriptionPropertyWholeHand) */
	bool whole_hand;
	bool device_set;
	/* handles on which the subscription is active */
	struct UGHandle_ **handles;
	unsigned int nhandles, caphandles;
};

/*
 * A gesture's centroid positions, one per slice, for the windowed
 * velocity (grail-slice.c).  The gesture appends to the log and its slices
 * name their window in it (struct UGSlice_); a position once written does
 * not change while a slice may read it, so a slice keeps its window
 * without copying it, and the slope is only computed when a client asks.
 * When the log is full, the gesture moves its newest positions to the
 * front if no other slice reads the log (or only its newest slice, whose
 * window moves with them), else it starts a new log and leaves the old
 * one to its slices.  Logs come from the handle's pool (struct gr_pool).
 */
struct gr_vsample {
	uint64_t time;
	float x, y;
};

struct gr_vlog {
	unsigned int refs; /* the gesture writing it, the slices reading it */
	unsigned int n;    /* positions written */
	struct gr_pool *pool;
	struct gr_vlog *next_free;
	struct gr_vsample s[GR_VLOG_SAMPLES];
};

/* A slice is built in the event that carries it (gr_gesture_new_slice());
 * gr_slice_begin(), gr_slice_next() and gr_slice_copy() set every field,
 * so a field added here must be set in each of them. */
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
	/* the centre of rotation is computed when read (it is rarely read):
	 * from transform and cumulative when the step has a fixed point */
	bool rotates;
	/*
	 * The rotation and scale parts (the 2x2 blocks) of transform and
	 * cumulative and rotates are computed when first read
	 * (gr_slice_linear()), from the slice's radius and angle, the
	 * original ones and those of the previous slice: most slices are
	 * never asked for them.  The translations are always there.
	 */
	bool linear_pending;
	float prev_radius, prev_angle;
	int construction_finished;
	int canceled;
	bool physically_ended;
	/* utouch extensions */
	/* the velocity's window: the vcount positions before vend in vlog
	 * (one reference; NULL when vcount is 0); the slope is computed when
	 * a client first reads it (gr_slice_read_velocity()) and kept in vx,
	 * vy (vknown) */
	struct gr_vlog *vlog;
	unsigned int vend, vcount;
	bool vknown;
	float vx, vy;
	unsigned int tap_count;
	unsigned int edge;
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
 * Recycles events and velocity logs; lives until the handle is gone and
 * no event or log is out (live counts both).
 * Memory is taken in chunks (GR_EVENT_CHUNK_MIN doubling up to
 * GR_EVENT_CHUNK_MAX events) and only given up when the pool goes: the
 * largest chunks to the next pool, the rest to malloc (grail-handle.c).
 */
struct gr_pool {
	/* released events, the last released first: a stack through their
	 * link.next (an event on it is in no list) */
	struct ut_list *free;
	/* chunks, newest first; events never used yet are taken from the
	 * newest in order: chunks->ev[carved] is the next */
	struct gr_event_chunk *chunks;
	unsigned int carved;
	/* chunks a deleted handle's pool left (grail-handle.c, "Event memory
	 * kept between handles"), taken at the first growth, used before
	 * any new one is allocated */
	struct gr_event_chunk *reserve;
	bool reserve_taken;
	unsigned int next_chunk;
	/* released velocity logs, a stack through next_free (malloc'd one
	 * by one; those an earlier pool left are taken when the first log
	 * is needed, vlogs_taken; grail-handle.c) */
	struct gr_vlog *vlog_free;
	bool vlogs_taken;
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
	/* where it began: window or device coordinates like x, y, and the
	 * device's axes (for the screen edges) */
	float x0, y0;
	float dev_x0, dev_y0;
	/* copy of the touch in the newest frame that carried it */
	UFTouchState state;
	float x, y;          /* window (direct) or device (indirect) coordinates */
	uint32_t seen_serial; /* frame serial of x, y and state */
	/* the frame touch object x, y and state were read from (frames share
	 * a touch object while it does not change; see
	 * gr_touches_read_frame()) */
	const struct UFTouch_ *src;
	uint32_t mod_serial;  /* frame serial in which the touch last changed */
	uint64_t bit;         /* gr_slot_bit() of its slot */
	/* the time of its last change, and where it was before the changes
	 * of that time (for split framing, see struct gr_recognizer) */
	uint64_t mod_time;
	float px, py;
	/* equal to the recognizer's holders_stamp: an unaccepted gesture
	 * that is not active holds the touch (see
	 * check_construction_finished()) */
	uint64_t holders_stamp;
};

struct gr_recognizer;

/* Per current touch of a gesture: its angle around the centroid in the
 * previous slice and its position when the segment began. */
struct gr_track {
	float angle;
	float ox, oy;
};

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
	/* touches still down, sorted by touch id, and what the geometry
	 * remembers of each (see struct gr_track) */
	unsigned int ncur;
	uint32_t cur[GR_MAX_TOUCHES];
	struct gr_track track[GR_MAX_TOUCHES];
	/*
	 * The angle estimate of grail 3.1 was ill-conditioned in this segment
	 * (since the last Begin or change of the touch count): rotation and
	 * scale come from the least-squares similarity (grail-slice.c).
	 */
	bool lsq;
	/* the previous slice's touches were ill-conditioned */
	bool ill_prev;
	/* another subscription may have candidates with the same touches:
	 * look for their geometry in the recognizer's cache (grail-slice.c) */
	bool share_geometry;
	/* centroid positions for the velocity (NULL before the first): the
	 * last vcount of the log are in the window (none since the last
	 * change of the touch count) */
	struct gr_vlog *vlog;
	unsigned int vcount;
	bool lifting;   /* a current touch lifts in the newest slice */
	/* rec->ends when the ended touches last left cur: while it is the
	 * same, no current touch has ended */
	uint64_t ends_checked;
	/* cur changed since its touch ids were last written into last */
	bool ids_stale;
	/* hold: a touch moved beyond the hold threshold */
	bool hold_out;
	/* edge swipe: decided (recognized or ruled out), candidate edge */
	bool edge_decided;
	unsigned int edge;
	unsigned int tap_count;
	/* every touch the gesture ever had (one reference each) */
	unsigned int nall, capall;
	uint32_t *all;
	uint32_t all_inline[8];
	/* all of them as a slot mask (gr_slot_bit()), kept with all by
	 * gr_gesture_add_touch() */
	uint64_t slot_mask;
	UGGestureTypeMask recognized;
	/* made with one touch outside atomic mode: it keeps at most that
	 * touch, so its radius and angle never move (open_types() in
	 * grail-gesture.c) */
	bool single;
	bool accepted;
	bool owned;
	bool not_owned;
	bool canceled;
	bool ended;
	bool keep_slices;
	bool construction_finished;
	/* the newest slice, NULL before the first: the slice of the event
	 * that carries it to the client, on which the gesture holds a
	 * reference (see gr_gesture_push_slice()) */
	struct UGSlice_ *last;
	struct ut_list pending;   /* slices waiting to be flushed */
	struct ut_list queued;    /* its events in the handle's queue (glink) */
	unsigned int nflushed;    /* events handed to the queue */
	unsigned int nflushed_cf; /* ... of which with construction_finished */
};

struct gr_gesture_chunk {
	struct gr_gesture_chunk *next;
	struct gr_gesture g[GR_GESTURE_CHUNK];
};

/*
 * What a slice's geometry takes from one frame for one set of touches
 * (grail-slice.c): candidate gestures of different subscriptions with the
 * same touches share it through the recognizer's cache.
 */
struct gr_geometry {
	/* key: the frame (serial and time) and the touch slots, in order */
	uint32_t serial;
	unsigned int ncur;
	uint64_t time;
	uint32_t cur[GR_MAX_TOUCHES];
	unsigned int active;  /* touches not ending */
	bool lifting;         /* a touch ends or is about to */
	/* the n touches of the frame among them: positions (where rotation and
	 * scale are measured), index into cur, angle around their centroid */
	unsigned int n;
	unsigned int begun;   /* bit i: touch i began in this frame */
	bool partial;         /* split framing: positions before the moment */
	bool ill;             /* grail 3.1's angle estimate ill-conditioned */
	unsigned char idx[GR_MAX_TOUCHES];
	float gx[GR_MAX_TOUCHES], gy[GR_MAX_TOUCHES], a[GR_MAX_TOUCHES];
	float cx, cy;         /* centroid of the frame's positions */
	float radius;         /* mean distance of gx, gy from their centroid */
};
#define GR_GEOMETRY_CACHE 8

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
	/* gr_wants_hold()'s answer, valid while hold_known and the handle's
	 * masks_changed is hold_masks */
	bool hold_known, hold;
	uint64_t hold_masks;
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
	uint64_t holders_stamp;            /* see struct gr_touch */
	/* the slots with mod_serial == serial, as a mask (gr_slot_bit()),
	 * and those of them that ended unowned (someone above took them) */
	uint64_t changed_mask, cancel_mask;
	/* the frame read last (compared, never dereferenced: it may be gone)
	 * and its frame serial, to tell whether the next frame follows it */
	const struct UFFrame_ *last_frame;
	uint64_t last_frame_serial;
	/*
	 * Split framing: the device reports one changed touch per frame, the
	 * frames of one moment sharing their time (X11 sends an event per
	 * touch).  Taken for good once two frames in a row at the same time
	 * each move a different touch (split), and for the moment after one
	 * whose changes all came in frames of one touch each, two touches or
	 * more (prev_moment_split: touches landing together, before anything
	 * moved).  A frame in the
	 * middle of such a moment shows some touches moved and others not
	 * yet, which is no rotation or scaling of the hand: while a touch of
	 * the gesture that changed in the previous moment has not changed in
	 * this one, the geometry measures rotation and scale on where the
	 * touches were before this moment (gr_touch px, py).  Once they all
	 * have, it is the frame's own geometry again, as in grail 3.1.
	 */
	bool split;
	uint64_t move_time;                /* time of the last frame that moved a touch */
	uint32_t move_serial;              /* ... its serial */
	uint32_t move_slot;                /* ... and the touch it moved */
	unsigned int frame_changes;        /* touches the current frame changes */
	uint32_t frame_slot;               /* ... the last of them */
	uint32_t change_slot;              /* the touch the last changing frame changed */
	uint64_t ends;                     /* touches that ended, ever (gr_gesture_update_touched()) */
	unsigned int moment_frames;        /* frames of the moment, one touch each */
	bool moment_split, prev_moment_split;
	uint64_t moment, prev_moment;      /* the last two times a touch changed */
	/* per subscription (parallel to subs): the last tap, for multi-tap */
	struct gr_tap_memory {
		uint64_t time;
		float x, y;
		unsigned int count, touches;
	} *taps;
	unsigned int captaps;             /* allocated taps */
	/* the device's X and Y axes (edge swipes), valid if has_edges */
	bool has_edges;
	float ax_min, ax_max, ay_min, ay_max, ax_res, ay_res;
	/* the frame being read (whole-hand subscriptions count the touches
	 * down in it), valid during gr_recognizer_process_frame() */
	UFFrame frame;
	uint32_t frame_ntouches;
	uint64_t frame_time;
	/* slice geometry of the current frame, per set of touches */
	struct gr_geometry geometry[GR_GEOMETRY_CACHE];
	unsigned int ngestures;            /* gestures of this recognizer */
	unsigned int nended;               /* ... of which ended (waiting for the
	                                      client's decision) */
};

struct UGHandle_ {
	int fd;             /* -1 until grail_get_fd() makes it */
	/* the eventfd is readable, or there is none: nothing to write */
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
	/* times the mask of a subscription active on it changed (see
	 * gr_wants_hold()) */
	uint64_t masks_changed;
	struct ut_log log;              /* domain "grail" */
	grail_log_handler log_handler;  /* the client's, fed by the log */
	int in_log_handler;             /* inside it: grail_delete() is refused */
	void *log_data;
};

/* grail-handle.c */
void gr_log(struct UGHandle_ *h, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool gr_log_enabled(const struct UGHandle_ *h, int level);
/* An event with one reference; the caller must set the whole slice. */
struct UGEvent_ *gr_event_alloc(struct UGHandle_ *h);
/* Back to the pool (the last reference is gone). */
void gr_event_release(struct UGEvent_ *ev);
/* Drop one reference to an event (a queue's, a gesture's, the client's). */
static inline void
gr_event_unref(struct UGEvent_ *ev)
{
	if (--ev->refcount == 0)
		gr_event_release(ev);
}
/* The event that carries @s, a slice made by the gesture code. */
static inline struct UGEvent_ *
gr_slice_event(struct UGSlice_ *s)
{
	return ut_container_of(s, struct UGEvent_, slice);
}
/* Append @ev, an event of gesture @g, to the handle's queue. */
void gr_queue_push(struct UGHandle_ *h, struct UGEvent_ *ev, struct gr_gesture *g);
/* Remove a gesture's events from the queue; returns how many, and in
 * @n_cf how many of them had construction_finished set. */
unsigned int gr_queue_purge(struct gr_gesture *g, unsigned int *n_cf);
/* The gesture object is going away: its queued events stay queued. */
void gr_queue_disown(struct gr_gesture *g);

/* grail-slice.c */
/* gr_slice_begin() and gr_slice_next() build the gesture's next slice in
 * @s (the slice of a new event, whose every field they set), the second
 * from the gesture's newest slice g->last. */
void gr_slice_begin(struct gr_gesture *g, struct UGSlice_ *s, UFEvent ev, UFFrame frame,
		    uint64_t time);
void gr_slice_next(struct gr_gesture *g, struct UGSlice_ *s, UFEvent ev, UFFrame frame,
		   uint64_t time);
void gr_slice_copy(const struct UGSlice_ *prev, struct UGSlice_ *s, uint64_t time);
/* Give @s the gesture's velocity at @now, from its recent positions
 * (forgetting those older than the window; @now never goes back). */
void gr_slice_take_velocity(struct gr_gesture *g, uint64_t now, struct UGSlice_ *s);
/* The velocity of a slice (computed on each call). */
void gr_slice_read_velocity(const struct UGSlice_ *s, float *vx, float *vy);
/* The enabled edges (UGEdge bits) within whose margin every current touch
 * of the gesture began; 0 when none or the device has no screen edges. */
unsigned int gr_edge_candidates(const struct gr_gesture *g);
/* Edge swipe decision for a slice among the candidate edges g->edge:
 * 1 recognized (the edge in *edge), -1 ruled out, 0 not yet. */
int gr_slice_check_edge(const struct gr_gesture *g, const struct UGSlice_ *s,
			unsigned int *edge);
/* The types of g->sub->mask not in g->recognized that slice @s recognizes. */
UGGestureTypeMask gr_slice_check_recognition(const struct gr_gesture *g,
					     const struct UGSlice_ *s);
/* Give the slice @ev and @frame, taking a reference to @ev (every slice
 * of a frame holds one; inline: done for every slice and queued copy). */
static inline void
gr_slice_set_frame(struct UGSlice_ *s, UFEvent ev, UFFrame frame)
{
	if (ev)
		ut_frame_event_ref_inline(ev);
	s->frame_event = ev;
	s->frame = frame;
}

/* Drop the slice's reference to its frame event. */
static inline void
gr_slice_clear_frame(struct UGSlice_ *s)
{
	if (s->frame_event)
		ut_frame_event_unref_inline(s->frame_event);
	s->frame_event = NULL;
	s->frame = NULL;
}

/* A new velocity log of @h's pool with one reference and no position;
 * NULL when out of memory (grail-handle.c). */
struct gr_vlog *gr_vlog_new(struct UGHandle_ *h);
/* Give a log whose last reference is gone back to its pool. */
void gr_vlog_release(struct gr_vlog *log);

static inline void
gr_vlog_unref(struct gr_vlog *log)
{
	if (log && --log->refs == 0)
		gr_vlog_release(log);
}

/* Drop what a slice holds (its event is released). */
static inline void
gr_slice_release(struct UGSlice_ *s)
{
	gr_slice_clear_frame(s);
	gr_vlog_unref(s->vlog);
	s->vlog = NULL;
}
float gr_angle_mean(const float *angles, unsigned int n);
/*
 * The rotation @angle (radians) and @scale of the similarity that best
 * maps the points p onto the points q in the least-squares sense, each
 * set taken about its own centroid (translation is the centroid shift).
 * Returns false, with angle 0 and scale 1, when the p are all one point.
 */
bool gr_similarity_fit(const float *px, const float *py, const float *qx, const float *qy,
		       unsigned int n, float *angle, float *scale);
/*
 * Whether grail 3.1's angle estimate (the mean change of each touch's
 * angle around the centroid) is ill-conditioned for these n touches: three
 * or more touches, one of them closer to the centroid than
 * GR_LSQ_NEAR_CENTROID times their mean distance from it.
 */
bool gr_angle_ill_conditioned(const float *x, const float *y, unsigned int n);
/* The same test on the touches' distances from their centroid. */
bool gr_distances_ill_conditioned(const float *d, unsigned int n);
/* Fixed point of [a -b c; b a d]-like transforms around centroid (x0, y0). */
void gr_center_of_rotation(float a, float b, float c, float d, float x0, float y0,
			   float *x, float *y);
/* The slice's centre of rotation: that of its step, (0, 0) for a pure
 * translation (or no step). */
void gr_slice_center_of_rotation(const struct UGSlice_ *s, float *x, float *y);
/* Compute the slice's 2x2 rotation and scale blocks of transform and
 * cumulative, and rotates, if they are not yet (linear_pending): every
 * reader of those fields calls it first. */
void gr_slice_linear(const struct UGSlice_ *s);

/* grail-touch.c: the touch table */
/* small growable arrays of slot indices */
bool gr_slots_reserve(struct gr_slot_array *a, unsigned int n);
void gr_slots_finish(struct gr_slot_array *a);
/* Drop a reference to a touch; the last one rejects the touch unless a
 * gesture accepted it, and frees the slot. */
void gr_touch_unref(struct gr_recognizer *rec, uint32_t slot);
/* Accept the touch (once) through the frame library. */
void gr_touch_accept(struct gr_recognizer *rec, uint32_t slot);
/* Add to / remove from the free touch list (sorted by touch id); the list
 * holds a reference. */
void gr_free_add(struct gr_recognizer *rec, uint32_t slot);
void gr_free_remove(struct gr_recognizer *rec, uint32_t slot);
/* Bring the touch table up to date with the frame's @n touches; new
 * touches go to the matcher (non-atomic) or the new-touch list (atomic,
 * *any_new set).  Marks each changed touch with the frame's serial. */
void gr_touches_read_frame(struct gr_recognizer *rec, UFFrame frame, uint32_t n,
			   uint64_t time, bool *any_new);

/* grail-gesture.c: the gesture object */
struct gr_gesture *gr_gesture_new(struct gr_recognizer *rec, UGSubscription sub,
				  uint64_t start);
/* Free a gesture that is in no list; drops its touch references. */
void gr_gesture_destroy(struct gr_gesture *g);
/* Unlink from its list, then gr_gesture_destroy(). */
void gr_gesture_remove_and_destroy(struct gr_gesture *g);
/* Insert into a gesture list in rank order (see struct gr_gesture). */
void gr_gesture_list_insert(struct ut_list *list, struct gr_gesture *g);
/* Add a current touch (sorted by id); false when full or out of memory. */
bool gr_gesture_add_touch(struct gr_gesture *g, uint32_t slot);
bool gr_gesture_has_current(const struct gr_gesture *g, uint32_t slot);
bool gr_gestures_share_touch(const struct gr_gesture *a, const struct gr_gesture *b);
/* A new event for the gesture's next slice (NULL, logged, when out of
 * memory); its slice is for the caller to set. */
struct UGSlice_ *gr_gesture_new_slice(struct gr_gesture *g);
/* The same with a copy of the newest slice (gr_slice_copy()). */
struct UGSlice_ *gr_gesture_copy_last(struct gr_gesture *g, uint64_t time);
/* Make @s, from one of the two above, the newest slice (the gesture takes a
 * reference to its event, dropping the one to the previous) and put its
 * event on the pending list. */
void gr_gesture_push_slice(struct gr_gesture *g, struct UGSlice_ *s);
/* Hand the pending slices to the client's queue (always / when active). */
void gr_gesture_flush(struct gr_gesture *g);
void gr_gesture_maybe_flush(struct gr_gesture *g);
/* Owned once every touch it ever had is owned by the client (X11). */
void gr_gesture_check_owned(struct gr_gesture *g);
/* End with a copy of the last slice in state End. */
void gr_gesture_end(struct gr_gesture *g, uint64_t time);
void gr_gesture_finish_construction(struct gr_gesture *g, uint64_t time);
/* Give up on the gesture: withdraw its queued events and, when the client
 * saw some and @tell_client, end it with a cancelled End. */
void gr_gesture_cancel(struct gr_gesture *g, uint64_t time, bool tell_client);
/* Input stopped with its touches down (@frame of @ev, at @time, is cut
 * off): end it without recognizing anything more; queued events stay,
 * held-back ones go, a client that saw it gets a cancelled End on that
 * frame (grail-gesture.c). */
void gr_gesture_cut_off(struct gr_gesture *g, UFEvent ev, UFFrame frame, uint64_t time);
/* The part of gr_gesture_update() for a gesture with a changed touch. */
void gr_gesture_update_touched(struct gr_gesture *g, UFEvent ev, UFFrame frame,
			       uint64_t time);

/* grail-extensions.c: hold, multi-tap, edge swipe */
/* Hold, edge and tap count after a new slice (the mask was @was before). */
void gr_check_extensions(struct gr_gesture *g, UGGestureTypeMask was);
/* Recognize the holds that are due at @time. */
void gr_check_holds(struct gr_recognizer *rec, uint64_t time);
/* The earliest time a hold may be recognized, 0 when none is pending. */
uint64_t gr_next_hold(const struct gr_recognizer *rec);
/* Read the device's screen edges (direct devices). */
void gr_init_edges(struct gr_recognizer *rec);

/* grail-recognizer.c */
/* Match a new touch (non-atomic): extension candidates of the live
 * gestures, then new gestures with the other free touches. */
void gr_recognizer_match_new_touch(struct gr_recognizer *rec, uint32_t slot);
struct gr_recognizer *gr_recognizer_new(struct UGHandle_ *h, UFDevice device,
					UFWindowId window, bool atomic);
void gr_recognizer_destroy(struct gr_recognizer *rec, bool notify);
bool gr_recognizer_add_subscription(struct gr_recognizer *rec, UGSubscription sub);
void gr_recognizer_remove_subscription(struct gr_recognizer *rec, UGSubscription sub);
/* @num_touches: the frame's, as ut_frame_event_view() reported it. */
void gr_recognizer_process_frame(struct gr_recognizer *rec, UFEvent ev, UFFrame frame,
				 unsigned int num_touches, uint64_t time);
void gr_recognizer_update_time(struct gr_recognizer *rec, uint64_t time);
uint64_t gr_recognizer_next_timeout(struct gr_recognizer *rec);
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

/*
 * Small helpers of the per-frame path, inline so that splitting the
 * recognizer into files costs no calls per frame.
 */
/*
 * Milliseconds from @then to @now.  A @now up to GR_CLOCK_SLACK before
 * @then is 0 (timestamps that step back a little, a client clock that
 * lags the events: nothing is due yet); one further back is UINT64_MAX,
 * every timeout due at once, as grail 3.1's unsigned arithmetic had it,
 * so that a clock that jumped back does not hold touches for hours.
 */
static inline uint64_t
gr_elapsed(uint64_t now, uint64_t then)
{
	if (now >= then)
		return now - then;
	return then - now <= GR_CLOCK_SLACK ? 0 : UINT64_MAX;
}

/* Milliseconds an unrecognized gesture may live; 0 for no limit. */
static inline uint64_t
gr_gesture_timeout(const struct gr_gesture *g)
{
	return g->recognized ? 0 : g->sub->timeout;
}

/*
 * A slot's bit in a slot mask: slots 0..62 have their own, the others
 * share bit 63 (a mask with it set is only a hint: look at the slots).
 */
#define GR_SLOT_MASK_SHARED (UINT64_C(1) << 63)
static inline uint64_t
gr_slot_bit(uint32_t slot)
{
	return slot < 63 ? UINT64_C(1) << slot : GR_SLOT_MASK_SHARED;
}

static inline void
gr_touch_ref(struct gr_recognizer *rec, uint32_t slot)
{
	rec->touches[slot].refs++;
}

static inline bool
gr_gesture_has_touch(const struct gr_gesture *g, uint32_t slot)
{
	for (unsigned int i = 0; i < g->nall; i++)
		if (g->all[i] == slot)
			return true;
	return false;
}

static inline bool
gr_gesture_active(const struct gr_gesture *g)
{
	return g->recognized != 0 && g->owned;
}

/* Whether a subscription of the recognizer wants UGGestureTypeHold. */
static inline bool
gr_wants_hold(struct gr_recognizer *rec)
{
	/* masks may change while subscriptions are active: the answer is
	 * kept until the handle counts a change or the subscriptions change
	 * (gr_recognizer_add/remove_subscription() forget it) */
	if (rec->hold_known && rec->hold_masks == rec->handle->masks_changed)
		return rec->hold;
	bool hold = false;
	for (unsigned int i = 0; i < rec->nsubs && !hold; i++)
		hold = (rec->subs[i]->mask & UGGestureTypeHold) != 0;
	rec->hold = hold;
	rec->hold_known = true;
	rec->hold_masks = rec->handle->masks_changed;
	return hold;
}

/*
 * Process one frame for one gesture: build a slice when one of its touches
 * changed, track ownership, recognize, and flush when active.  Most
 * gestures of a frame are untouched; this part, which finds that out, is
 * inline and the rest is not.
 */
static inline void
gr_gesture_update(struct gr_gesture *g, UFEvent ev, UFFrame frame, uint64_t time)
{
	const struct gr_recognizer *rec = g->rec;

	if (g->ended) {
		if (!g->owned) {
			gr_gesture_check_owned(g);
			if (g->owned)
				gr_gesture_maybe_flush(g);
		}
		return;
	}

	/* which of its touches changed: the gesture's slot mask against the
	 * frame's; the touches themselves only when one of them may cancel
	 * it or the masks cannot tell (a shared bit) */
	uint64_t hit = g->slot_mask & rec->changed_mask;
	if (!hit)
		return;
	if (hit & (rec->cancel_mask | GR_SLOT_MASK_SHARED)) {
		bool touched = false;
		for (unsigned int i = 0; i < g->nall; i++) {
			uint32_t slot = g->all[i];
			const struct gr_touch *t = &rec->touches[slot];
			if (t->mod_serial != rec->serial)
				continue;
			touched = true;
			if (t->ended && !t->owned) {
				/* someone above us accepted the touch */
				g->canceled = true;
				return;
			}
		}
		if (!touched)
			return;
	}
	if (g->canceled)
		return;
	gr_gesture_update_touched(g, ev, frame, time);
}

#endif /* UTOUCH_GRAIL_PRIVATE_H */
