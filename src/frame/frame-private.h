/*
 * Internal definitions of the frame library objects.
 *
 * The public handle types of <oif/frame.h> point at these structs.  The
 * backend handle types are the same objects seen from the producer side:
 * UFBackendDevice is a struct UFDevice_, UFBackendFrame a struct UFFrame_
 * (each conversion goes through the helpers below).  UFBackendTouch is a
 * small separate object because a borrowed touch is copied on write.
 */
#ifndef UTOUCH_FRAME_PRIVATE_H
#define UTOUCH_FRAME_PRIVATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

#include "frame/frame-builder.h"
#include "frame/frame-peer.h"
#include "util/log.h"
#include "util/poison.h"


struct UFAxis_ {
	UFAxisType type;
	float minimum;
	float maximum;
	float resolution; /* units per metre */
};

struct UFDevice_ {
	int refcount;
	uint32_t set; /* bit (1 << UFDeviceProperty) per property set */
	char *name;
	int direct;
	int independent;
	int semi_mt;
	unsigned int max_touches;
	float window_resolution_x;
	float window_resolution_y;
	uint32_t axis_mask; /* bit (1 << UFAxisType) per axis present */
	struct UFAxis_ axes[UT_AXIS_COUNT]; /* indexed by type */
	utouch_frame_touch_handler touch_handler;
	void *touch_handler_data;
};

struct UFBackendTouch_ {
	struct UFTouch_ *touch; /* holds one reference */
	uint64_t frame_serial;  /* serial of the frame it was borrowed from, 0 if new */
	UFTouchId borrowed_id;
	bool lost_change;       /* a change was lost for want of memory */
};

enum ut_event_set_bits {
	UT_EVENT_SET_TYPE = 1u << 0,
	UT_EVENT_SET_TIME = 1u << 1,
};

static inline struct UFDevice_ *
ut_device_from_backend(UFBackendDevice device)
{
	return (struct UFDevice_ *)(void *)device;
}

static inline struct UFFrame_ *
ut_frame_from_backend(UFBackendFrame frame)
{
	return (struct UFFrame_ *)(void *)frame;
}

/** Mark @p frame (not NULL) cut off (frame-peer.h, ut_frame_cut_off()). */
static inline void
ut_frame_mark_cut_off(UFBackendFrame frame)
{
	ut_frame_from_backend(frame)->set |= UT_FRAME_SET_CUT_OFF;
}

/*
 * Reference helpers shared between the object files.  They run several
 * times per frame, so taking and dropping a reference that is not the
 * last is inline; the release itself is not.
 */

/** Free @p device (its last reference is gone). */
void ut_device_destroy(struct UFDevice_ *device);
/** Free one frame and what it holds, walking back along its prev links
 *  for as long as that drops their last reference. */
void ut_frame_unref_last(struct UFFrame_ *frame);
/** Return @p touch (its last reference is gone) to the free list. */
static inline void ut_touch_release(struct UFTouch_ *touch);

static inline void
ut_device_ref(struct UFDevice_ *device)
{
	if (device)
		device->refcount++;
}

static inline void
ut_device_unref(struct UFDevice_ *device)
{
	if (device && --device->refcount <= 0)
		ut_device_destroy(device);
}

static inline void
ut_frame_ref(struct UFFrame_ *frame)
{
	if (frame)
		frame->refcount++;
}

static inline void
ut_frame_unref(struct UFFrame_ *frame)
{
	if (!frame)
		return;
	if (frame->refcount > 1)
		frame->refcount--;
	else
		ut_frame_unref_last(frame);
}

/** Drop @p frame's link to its previous frame. */
static inline void
ut_frame_drop_prev(struct UFFrame_ *frame)
{
	struct UFFrame_ *prev = frame->prev;

	frame->prev = NULL;
	ut_frame_unref(prev);
}

/** Called when an event stops holding @p frame: the last one releases the
 *  link to the previous frame. */
static inline void
ut_frame_release_event_hold(struct UFFrame_ *frame)
{
	if (--frame->event_holders == 0)
		ut_frame_drop_prev(frame);
}

static inline void
ut_touch_unref(struct UFTouch_ *touch)
{
	if (touch && --touch->refcount == 0)
		ut_touch_release(touch);
}

/** A new touch in state Begin with nothing but the state set, refcount 1;
 *  NULL when out of memory. */
struct UFTouch_ *ut_touch_new(void);
/** A new touch that copies @p src, with refcount 1; NULL when out of memory. */
static inline struct UFTouch_ *ut_touch_clone(const struct UFTouch_ *src);
/** The touch of @p frame with id @p id, or NULL. */
struct UFTouch_ *ut_frame_find_touch(const struct UFFrame_ *frame, UFTouchId id,
				     unsigned int *index);
/** A new handle sharing @p touch (borrowed from the frame with @p frame_serial);
 *  NULL when out of memory. */
UFBackendTouch ut_backend_touch_borrow(struct UFTouch_ *touch, uint64_t frame_serial);
/** Free @p handle after its touch reference moved into a frame. */
void ut_backend_touch_consume(UFBackendTouch handle);

/*
 * Producer shortcuts for a frame that is being built (no consumer has
 * seen it yet).  They give the same frames as borrowing or creating a
 * backend touch, changing it and giving it back, without the handle.
 */

/**
 * The frame after @p prev (frame_backend_frame_create_next()), except
 * that of the touches it carries over unchanged, the first 64 take no
 * reference yet: bit i of *@p borrowed set means touch i is prev's own
 * object, counted once (by prev).  Most carried touches change in the
 * next frame and are copied then, so the reference would be taken only to
 * be dropped again.  Before anything but ut_frame_writable_touch() and
 * ut_frame_add_touch() sees the frame, ut_frame_settle() takes the
 * references still owed.  Every touch of the new frame is in state
 * Update, which its UT_FRAME_SET_ALL_UPDATE bit says until a touch begins
 * or ends in it; the frame after such a frame copies the touch array
 * without looking at each touch.  NULL when out of memory.
 */
static inline struct UFFrame_ *ut_frame_next(struct UFFrame_ *prev, uint64_t *borrowed);

/** Take a reference on each touch of @p frame marked in @p borrowed. */
static inline void
ut_frame_settle(struct UFFrame_ *frame, uint64_t borrowed)
{
	while (borrowed) {
		frame->touches[__builtin_ctzll(borrowed)]->refcount++;
		borrowed &= borrowed - 1;
	}
}

/**
 * The touch of @p frame with id @p id, made private to the frame first
 * (copied when another frame shares it, or when its bit is set in
 * *@p borrowed, which is then cleared; see ut_frame_next()), for the
 * caller to change in place.  The search starts with index @p hint (a
 * producer that changes the touches in their order finds each at once).
 * NULL when the frame has no such touch or out of memory.
 */
static inline struct UFTouch_ *ut_frame_writable_touch(struct UFFrame_ *frame, UFTouchId id,
						       unsigned int hint, uint64_t *borrowed);

/**
 * Append a new touch with id @p id to @p frame, in state Begin with only
 * its state and id set (as frame_backend_touch_new() and
 * frame_backend_touch_set_id() leave it).  NULL when the frame already
 * holds that id or out of memory.
 */
struct UFTouch_ *ut_frame_add_touch(struct UFFrame_ *frame, UFTouchId id);

/*
 * The frame builder's touch step (frame-builder.h), inline so that the
 * evdev framer's loop over a frame's operations costs no call per
 * operation.  @p kind is an enum utouch_frame_op_kind, @p set its
 * utouch_frame_touch_op::set bits, @p pending_end the value for
 * UTOUCH_FRAME_SET_PENDING_END, @p values the values by axis.  With
 * @p dense, all UT_AXIS_COUNT values are readable and those of axes the
 * touch does not have (not in its axis_mask, so never read) may be
 * overwritten: a touch whose axes all come with the operation, as the
 * evdev framer's always do, then takes the whole array in one copy.
 * @p hint is where the touch probably is in the frame (see
 * ut_frame_writable_touch()).  The
 * arguments are trusted (ut_frame_builder_touch() checks them for the
 * public API); a frame is being built.  On error nothing changes.
 */
#define UT_TOUCH_BIT(p) ((uint16_t)(1u << (p)))

static inline UFStatus
ut_frame_builder_apply(struct ut_frame_builder *b, unsigned int kind, UFTouchId id,
		       uint64_t time, uint64_t start_time, uint32_t set,
		       int pending_end, float window_x, float window_y, const float *values,
		       bool dense, unsigned int hint)
{
	struct UFFrame_ *frame = ut_frame_from_backend(b->cur);
	struct UFTouch_ *t;
	uint16_t axes;

	if (kind == UTOUCH_FRAME_OP_BEGIN) {
		t = ut_frame_add_touch(frame, id);
		if (!t)
			return ut_frame_find_touch(frame, id, NULL) ? UFStatusErrorTouchIdExists
								    : UFStatusErrorResources;
		frame->set &= ~(uint32_t)UT_FRAME_SET_ALL_UPDATE;
		t->start_time = start_time;
		t->owned = b->own_at_begin != 0;
		t->pending_end = 0;
		t->set |= UT_TOUCH_BIT(UFTouchPropertyStartTime) |
			  UT_TOUCH_BIT(UFTouchPropertyOwned) |
			  UT_TOUCH_BIT(UFTouchPropertyPendingEnd);
	} else {
		t = ut_frame_writable_touch(frame, id, hint, &b->borrowed);
		if (!t)
			return ut_frame_find_touch(frame, id, NULL) ? UFStatusErrorResources
								    : UFStatusErrorInvalidTouch;
		if (kind == UTOUCH_FRAME_OP_OWN) {
			t->owned = 1;
			t->time = time;
			t->set |= UT_TOUCH_BIT(UFTouchPropertyOwned) |
				  UT_TOUCH_BIT(UFTouchPropertyTime);
			return UFStatusSuccess;
		}
	}
	if (set & UTOUCH_FRAME_SET_POSITION) {
		t->window_x = window_x;
		t->window_y = window_y;
		t->set |= UT_TOUCH_BIT(UFTouchPropertyWindowX) |
			  UT_TOUCH_BIT(UFTouchPropertyWindowY);
	}
	axes = (uint16_t)(set & ((1u << UT_AXIS_COUNT) - 1));
	bool whole = dense && !(t->axis_mask & ~axes);
	t->axis_mask |= axes;
	if (whole) {
		memcpy(t->values, values, sizeof(t->values));
		axes = 0;
	}
	while (axes) {
		unsigned int i = (unsigned int)__builtin_ctz(axes);

		t->values[i] = values[i];
		axes &= (uint16_t)(axes - 1);
	}
	if (kind == UTOUCH_FRAME_OP_PENDING_END) {
		t->pending_end = 1;
		t->set |= UT_TOUCH_BIT(UFTouchPropertyPendingEnd);
	} else if (kind == UTOUCH_FRAME_OP_END) {
		t->state = UFTouchStateEnd;
		frame->set &= ~(uint32_t)UT_FRAME_SET_ALL_UPDATE;
	}
	if (set & UTOUCH_FRAME_SET_PENDING_END) {
		t->pending_end = pending_end != 0;
		t->set |= UT_TOUCH_BIT(UFTouchPropertyPendingEnd);
	}
	t->time = time;
	t->set |= UT_TOUCH_BIT(UFTouchPropertyTime);
	return UFStatusSuccess;
}

/*
 * Per-thread free lists.
 *
 * Touches, backend touches, frames and events are recycled through bounded
 * per-thread free lists, so that steady-state frame production does not
 * call malloc.  Objects may be released on any thread; they go to that
 * thread's list.  A thread's lists are freed when the thread exits.
 */
enum ut_pool_kind {
	UT_POOL_TOUCH,
	UT_POOL_BACKEND_TOUCH,
	UT_POOL_FRAME,
	UT_POOL_EVENT,
	UT_POOL_KIND_COUNT,
};

struct ut_pool {
	void *head;
	/* How many more objects the list takes: ut_pool_limit() less those it
	 * holds, and 0 until the thread is registered (ut_pool_put_slow()),
	 * so one test tells the put fast path that it may keep the object. */
	unsigned int room;
};

/* The calling thread's free lists (frame-pool.c); the get and put fast
 * paths below are inline because every frame takes and returns several
 * objects. */
struct ut_pool_state {
	struct ut_pool pools[UT_POOL_KIND_COUNT];
	uint64_t reuses;
	bool exit_hook_set; /* the thread's lists are freed when it exits */
};
/* initial-exec: a direct %fs-relative access instead of a __tls_get_addr
 * call per use in the shared library (a few dozen bytes of static TLS,
 * which glibc reserves room for even when the library is dlopen'ed). */
#define UT_POOL_TLS __attribute__((tls_model("initial-exec")))
extern _Thread_local struct ut_pool_state ut_pool_state
	__attribute__((visibility("hidden"))) UT_POOL_TLS;

static inline size_t
ut_pool_object_size(enum ut_pool_kind kind)
{
	switch (kind) {
	case UT_POOL_TOUCH:
		return sizeof(struct UFTouch_);
	case UT_POOL_BACKEND_TOUCH:
		return sizeof(struct UFBackendTouch_);
	case UT_POOL_FRAME:
		return sizeof(struct UFFrame_);
	case UT_POOL_EVENT:
	default:
		return sizeof(struct UFEvent_);
	}
}

/* Enough for a few hundred queued frame events of several touches. */
static inline unsigned int
ut_pool_limit(enum ut_pool_kind kind)
{
	switch (kind) {
	case UT_POOL_TOUCH:
		return 1024;
	case UT_POOL_BACKEND_TOUCH:
		return 64;
	case UT_POOL_FRAME:
	case UT_POOL_EVENT:
	default:
		return 256;
	}
}

/** ut_pool_get() when the list is empty: a fresh heap object. */
void *ut_pool_get_slow(enum ut_pool_kind kind, bool *recycled);
/** ut_pool_put() when the list is full or the thread is not registered. */
bool ut_pool_put_slow(enum ut_pool_kind kind, void *object);

/**
 * Take an object of @p kind, or NULL when out of memory.  The contents are
 * uninitialised, except that a recycled object (*recycled set to true)
 * keeps what it held when it was put back, apart from its first pointer.
 */
static inline void *
ut_pool_get(enum ut_pool_kind kind, bool *recycled)
{
	struct ut_pool *pool = &ut_pool_state.pools[kind];
	void *object = pool->head;

	if (!object)
		return ut_pool_get_slow(kind, recycled);
	if (recycled)
		*recycled = true;
	ut_unpoison(object, ut_pool_object_size(kind));
	pool->head = *(void **)object;
	pool->room++;
	ut_pool_state.reuses++;
	return object;
}

/**
 * Return an object.  Returns true when the list kept it; false when the
 * list is full and the caller must release what the object owns and free()
 * it.
 */
static inline bool
ut_pool_put(enum ut_pool_kind kind, void *object)
{
	struct ut_pool *pool = &ut_pool_state.pools[kind];

	if (!pool->room)
		return ut_pool_put_slow(kind, object);
	*(void **)object = pool->head;
	pool->head = object;
	pool->room--;
	/* listed objects stay poisoned but for the link word, so that ASan
	 * reports a use after release */
	ut_poison((char *)object + sizeof(void *), ut_pool_object_size(kind) - sizeof(void *));
	/* A cached frame keeps its grown touch array; LeakSanitizer does not
	 * follow pointers stored in poisoned memory. */
	if (kind == UT_POOL_FRAME) {
		struct UFFrame_ *frame = object;

		ut_unpoison(&frame->touches, sizeof(frame->touches));
	}
	return true;
}

static inline void
ut_touch_release(struct UFTouch_ *touch)
{
	if (!ut_pool_put(UT_POOL_TOUCH, touch))
		free(touch);
}

static inline struct UFTouch_ *
ut_touch_clone(const struct UFTouch_ *src)
{
	struct UFTouch_ *touch = ut_pool_get(UT_POOL_TOUCH, NULL);

	if (!touch)
		return NULL;
	*touch = *src;
	touch->refcount = 1;
	return touch;
}

static inline struct UFTouch_ *
ut_frame_writable_touch(struct UFFrame_ *frame, UFTouchId id, unsigned int hint,
			uint64_t *borrowed)
{
	struct UFTouch_ **touches = frame->touches;
	unsigned int n = frame->num_touches;
	unsigned int slot = hint;
	struct UFTouch_ *touch, *copy;

	if (slot >= n || touches[slot]->id != id) {
		for (slot = 0; slot < n; slot++)
			if (touches[slot]->id == id)
				break;
		if (slot == n)
			return NULL;
	}
	touch = touches[slot];
	if (slot < 64 && (*borrowed >> slot & 1)) {
		/* the reference is prev's, not this frame's */
		copy = ut_touch_clone(touch);
		if (!copy)
			return NULL;
		*borrowed &= ~((uint64_t)1 << slot);
	} else {
		if (touch->refcount == 1)
			return touch;
		copy = ut_touch_clone(touch);
		if (!copy)
			return NULL;
		touch->refcount--;
	}
	touches[slot] = copy;
	return copy;
}

/* Serial of the next frame made (frame-frame.c). */
extern atomic_uint_fast64_t ut_frame_next_serial __attribute__((visibility("hidden")));

/** A new empty frame, refcount 1; NULL when out of memory. */
static inline struct UFFrame_ *
ut_frame_alloc(void)
{
	bool recycled;
	struct UFFrame_ *frame = ut_pool_get(UT_POOL_FRAME, &recycled);

	if (!frame)
		return NULL;
	if (!recycled) {
		frame->touches = frame->inline_touches;
		frame->capacity = UT_FRAME_INLINE_TOUCHES;
	}
	frame->refcount = 1;
	frame->event_holders = 0;
	frame->serial = atomic_fetch_add(&ut_frame_next_serial, 1);
	frame->set = 0;
	frame->active_touches = 0;
	frame->device = NULL;
	frame->window_id = 0;
	frame->prev = NULL;
	frame->num_touches = 0;
	return frame;
}

/** ut_frame_reserve() when the touch array must grow. */
bool ut_frame_grow(struct UFFrame_ *frame, unsigned int count);

/** Make room for @p count touches in @p frame; false when out of memory. */
static inline bool
ut_frame_reserve(struct UFFrame_ *frame, unsigned int count)
{
	return count <= frame->capacity || ut_frame_grow(frame, count);
}

static inline struct UFFrame_ *
ut_frame_next(struct UFFrame_ *prev, uint64_t *borrowed)
{
	struct UFFrame_ *frame = ut_frame_alloc();
	uint64_t mask = 0;
	unsigned int n = 0;

	if (!frame)
		return NULL;
	if (!ut_frame_reserve(frame, prev->num_touches))
		goto fail;

	if ((prev->set & UT_FRAME_SET_ALL_UPDATE) && prev->num_touches <= 64) {
		/* the usual case, where each touch is carried as it is */
		n = prev->num_touches;
		for (unsigned int i = 0; i < n; i++)
			frame->touches[i] = prev->touches[i];
		mask = n < 64 ? ((uint64_t)1 << n) - 1 : ~(uint64_t)0;
	} else for (unsigned int i = 0; i < prev->num_touches; i++) {
		struct UFTouch_ *touch = prev->touches[i];

		if (touch->state == UFTouchStateEnd)
			continue;
		if (touch->state == UFTouchStateBegin) {
			/* Same time: the copy counts as unchanged in the new frame. */
			touch = ut_touch_clone(touch);
			if (!touch)
				goto fail;
			touch->state = UFTouchStateUpdate;
		} else if (n < 64) {
			mask |= (uint64_t)1 << n;
		} else {
			touch->refcount++;
		}
		frame->touches[n++] = touch;
	}
	frame->num_touches = n;
	frame->set |= UT_FRAME_SET_ALL_UPDATE;

	frame->prev = prev;
	prev->refcount++;
	/* Only the last frame is ever looked back at; unless an event still
	 * shows prev, its own history can go, so chains stay short. */
	if (prev->event_holders == 0)
		ut_frame_drop_prev(prev);
	*borrowed = mask;
	return frame;

fail:
	frame->num_touches = n;
	ut_frame_settle(frame, mask);
	ut_frame_unref(frame);
	return NULL;
}

/** malloc() that counts into ut_frame_pool_malloc_count(). */
void *ut_frame_malloc(size_t size);
/** realloc() that counts into ut_frame_pool_malloc_count(). */
void *ut_frame_realloc(void *ptr, size_t size);

/** Statistics of the calling thread's free lists. */
struct ut_frame_pool_stats {
	uint64_t mallocs;                   /**< heap allocations made by the frame
	                                         library on this thread */
	uint64_t reuses;                    /**< objects served from a free list */
	unsigned int cached[UT_POOL_KIND_COUNT]; /**< objects in each free list */
};

/** Read the calling thread's statistics. */
void ut_frame_pool_get_stats(struct ut_frame_pool_stats *stats);

/** Number of heap allocations made by the frame library on this thread. */
uint64_t ut_frame_pool_malloc_count(void);

/** Free every object cached in the calling thread's free lists. */
void ut_frame_pool_trim(void);

/*
 * The frame builder's frame steps (frame-builder.h), inline like the
 * touch step so that a frame costs its producer no calls besides the
 * frame library's allocations.
 */

/** utouch_frame_builder_begin() */
static inline UFStatus
ut_frame_builder_begin(struct ut_frame_builder *b)
{
	struct UFFrame_ *frame;
	struct UFDevice_ *device = ut_device_from_backend(b->device);

	if (b->cur)
		return UFStatusSuccess;
	b->cur = b->prev ? (UFBackendFrame)(void *)ut_frame_next(ut_frame_from_backend(b->prev),
								  &b->borrowed)
			 : frame_backend_frame_new();
	if (!b->cur)
		return UFStatusErrorResources;
	/* a fresh frame has neither device nor window */
	frame = ut_frame_from_backend(b->cur);
	ut_device_ref(device);
	frame->device = device;
	frame->window_id = b->window;
	frame->set |= UT_FRAME_SET_DEVICE | UT_FRAME_SET_WINDOW;
	return UFStatusSuccess;
}

/** utouch_frame_builder_cancel() */
static inline void
ut_frame_builder_cancel(struct ut_frame_builder *b)
{
	if (b->cur)
		ut_frame_settle(ut_frame_from_backend(b->cur), b->borrowed);
	b->borrowed = 0;
	ut_frame_unref(ut_frame_from_backend(b->cur));
	b->cur = NULL;
}

/** utouch_frame_builder_end() */
static inline UFStatus
ut_frame_builder_end(struct ut_frame_builder *b, uint64_t time, UFEvent *event)
{
	struct UFFrame_ *frame = ut_frame_from_backend(b->cur);
	struct UFEvent_ *ev;

	if (!frame)
		return UFStatusErrorGeneric;
	ut_frame_settle(frame, b->borrowed);
	b->borrowed = 0;
	frame->active_touches = frame->num_touches;
	frame->set |= UT_FRAME_SET_ACTIVE;
	/* what frame_event_new() and its type, frame and time setters make */
	ev = ut_pool_get(UT_POOL_EVENT, NULL);
	if (!ev) {
		ut_frame_builder_cancel(b);
		return UFStatusErrorResources;
	}
	*ev = (struct UFEvent_){
		.refcount = 1,
		.set = UT_EVENT_SET_TYPE | UT_EVENT_SET_TIME,
		.type = UFEventTypeFrame,
		.frame = frame,
		.time = time,
	};
	frame->refcount++;
	frame->event_holders++;
	ut_frame_unref(ut_frame_from_backend(b->prev));
	b->prev = b->cur;
	b->cur = NULL;
	*event = ev;
	return UFStatusSuccess;
}

#endif /* UTOUCH_FRAME_PRIVATE_H */
