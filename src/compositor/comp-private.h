/*
 * utouch compositor API: shared internals.
 *
 * The files call in one direction, from the public entry points down:
 *
 *   entry points   comp-context.c (context, fd, timers, the compositor's
 *                  accept/reject), comp-input.c (touch input),
 *                  comp-device.c, comp-subscription.c, comp-config.c
 *        |
 *   comp-step.c    the end of every step: cancels, replay, forwarding,
 *                  freeing, the timers
 *        |
 *   comp-gesture.c grail slices -> gesture events, automatic accept
 *        |
 *   comp-touch.c   touch state: slots, routes, grail's decisions, frames
 *        |
 *   comp-hold.c    the hold ring and its replay
 *        |
 *   comp-queue.c   the output queue: the one place events are made
 *        |
 *   comp-log.c     the context's log
 *
 * (grail's accept/reject reach comp-touch.c through the frame device's
 * touch handler while comp-touch.c or comp-gesture.c call grail.)  Entry
 * points may call each other (device -> subscription), lower files never
 * call higher ones.
 *
 * One context per seat holds one grail handle.  Each distinct subscription
 * region is a *zone*, which is a grail window (id = zone index + 1): a
 * touch belongs to the zones whose region contains its first position and
 * is fed to grail once per zone.  Touches live in a slot table; the frame
 * touch id given to grail is (serial << UC_SLOT_BITS) | slot so that late
 * accept/reject calls for a reused slot are recognised and ignored.
 */
#ifndef UTOUCH_COMP_PRIVATE_H
#define UTOUCH_COMP_PRIVATE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>
#include <oif/grail.h>
#include <utouch/compositor.h>

#include "util/array.h"
#include "util/log.h"

#define UC_MAX_ZONES 32
#define UC_SLOT_BITS 24
#define UC_SLOT_MASK ((1u << UC_SLOT_BITS) - 1u)

/* Grow *p (an array of *cap elements of size) to hold need elements. */
static inline int
uc_grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *q = ut_array_grow(*p, cap, need, size, 16);

	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

struct uc_zone {
	struct utouch_comp_rect region; /* width or height 0: everywhere */
	unsigned int nsubs;             /* subscriptions using it */
	unsigned int nhold;             /* of which with the hold policy */
	int atomic;
};

enum uc_held_type { UC_HELD_DOWN, UC_HELD_MOTION, UC_HELD_UP };

struct uc_held {
	uint32_t slot, serial;
	uint8_t type;
	uint8_t dead;
	uint8_t kept;                    /* held back: a touch undecided then (its
	                                    own or an earlier one of its device) */
	uint64_t time;
	uint64_t frame_seq;
	double x, y, sx, sy;
};

struct uc_touch {
	uint32_t serial;                 /* 0: slot free */
	struct utouch_comp_device *dev;
	int32_t id;
	void *surface, *client;
	double x, y, sx, sy;
	uint64_t start, time;            /* us */
	uint32_t zones;                  /* zones the touch is in */
	uint32_t undecided;              /* zones that did not decide yet */
	enum utouch_comp_route route;
	uint8_t down;                    /* not lifted yet */
	uint32_t framed_zones;           /* zones whose grail saw its begin */
	uint8_t changed;                 /* in dev->changed */
	uint8_t replay;                  /* rejected while held: replay pending */
	uint8_t seen;                    /* the client got an event of it */
	uint32_t nheld;                  /* live entries in the hold buffer */
	uint32_t nkept;                  /* of them kept: later events of its
	                                    device and client wait behind them */
	uint8_t blocked;                 /* during uc_hold_flush(): an undecided
	                                    touch of its device and client was
	                                    passed */
};

/* Whom a touch's events go to: its client, or its surface when the
 * compositor gave no client (comp-touch.c, comp-hold.c). */
static inline void *
uc_touch_client(const struct uc_touch *t)
{
	return t->client ? t->client : t->surface;
}

struct utouch_comp_device {
	struct utouch_comp *comp;
	size_t index;                    /* in comp->devices */
	char *name;
	struct utouch_comp_device_info info;
	UFBackendDevice bdev;
	UTouchFrameBuilder frames[UC_MAX_ZONES];  /* per zone (window z + 1), made on first use */
	uint32_t dirty_zones;
	uint32_t missed_zones;           /* whose last frame grail could not get
	                                    (out of memory): made again at once */
	uint32_t *changed;               /* slots changed since the last frame */
	size_t nchanged, capchanged;
};

struct uc_option {
	char *key, *value;
};

struct utouch_comp_subscription {
	struct utouch_comp *comp;
	struct utouch_comp_subscription_params params;
	char *name;
	unsigned int zone;
	UGSubscription *gsubs;           /* per device index */
	size_t ngsubs;
	struct uc_option *options;
	size_t noptions;
};

struct utouch_comp {
	char *seat;
	struct ut_log log;                     /* domain "compositor" */
	utouch_comp_log_handler log_handler;   /* the public handler, or NULL */
	void *log_data;
	UGHandle grail;
	int epfd, timerfd, wakefd;
	int woken;

	struct utouch_comp_device **devices;   /* NULL holes */
	size_t ndevices, capdevices;

	struct utouch_comp_subscription **subs;
	size_t nsubs, capsubs;

	struct uc_zone zones[UC_MAX_ZONES];
	unsigned int nzones;

	struct uc_touch *touches;
	size_t ntouches, captouches;           /* ntouches: slots in use or once used */
	uint32_t *free_slots;
	size_t nfree, capfree;
	size_t live_touches;
	uint32_t next_serial;

	/* hold buffer: a ring of entries in arrival order */
	struct uc_held *held;
	size_t held_head, held_count, held_cap;
	size_t held_live;
	int replay_pending;

	/* output queue: a ring */
	struct utouch_comp_event *queue;
	size_t q_head, q_count, q_cap;
	int oom;                               /* an event could not be queued */

	/* clients to cancel after the current step */
	void **cancel_clients;
	void **cancel_surfaces;
	uint64_t *cancel_times;
	size_t ncancel, capcancel;

	uint64_t frame_seq;
	int need_frame;                        /* touch events delivered since the last FRAME */
	uint64_t now;                          /* us, latest input or timer time */
	/*
	 * us added to input times on their way to grail and the timers: an
	 * input clock that steps back (a device's clock reset) would leave the
	 * timers grail armed before the step late by the step, touches held
	 * for as long; the recognizer's clock goes on from where it was.
	 */
	uint64_t time_shift;
	uint64_t input_now;                    /* us, latest input time (shifted) */
	int64_t clock_offset;                  /* CLOCK_MONOTONIC us - input time */
	int64_t armed_offset;                  /* clock_offset when the timer was armed */
	uint64_t timer_at;                     /* ms, what the timerfd is armed for */
	uint64_t timers_done;                  /* ms, timers ran up to this time */
	int in_grail;                          /* inside a grail call */
	int in_callback;                       /* inside the log handler or a config check */
};

/* comp-log.c */
__attribute__((format(printf, 3, 4)))
void uc_log(struct utouch_comp *comp, enum ut_log_priority priority, const char *fmt, ...);
/* sets comp->oom and logs what was lost */
void uc_out_of_memory(struct utouch_comp *comp, const char *what);

/* comp-queue.c */
/* The output queue's ring holds UC_QUEUE_INITIAL events first, twice as
 * many each time it grows (0, or -1 out of memory). */
#define UC_QUEUE_INITIAL 64
int uc_queue_grow(struct utouch_comp *comp);
void uc_emit(struct utouch_comp *comp, const struct utouch_comp_event *ev);
void uc_emit_touch(struct utouch_comp *comp, enum utouch_comp_event_type type,
		   struct uc_touch *t, uint64_t time, double x, double y,
		   double sx, double sy, int replayed);
void uc_emit_frame(struct utouch_comp *comp, uint64_t time);
void uc_emit_cancel(struct utouch_comp *comp, void *surface, void *client, uint64_t time);
void uc_queue_rewake(struct utouch_comp *comp);
void uc_queue_forget_target(struct utouch_comp *comp, void *surface, void *client);
void uc_queue_forget_device(struct utouch_comp *comp, const struct utouch_comp_device *dev);

/* comp-hold.c */
int uc_hold(struct utouch_comp *comp, struct uc_touch *t, enum uc_held_type type,
	    uint64_t time);
void uc_hold_flush(struct utouch_comp *comp);
void uc_hold_drop(struct utouch_comp *comp, struct uc_touch *t);
void uc_hold_release(struct utouch_comp *comp);
/* Whether an event of @t must wait in the hold buffer behind a kept
 * event of another touch of its device and client. */
bool uc_hold_behind(const struct utouch_comp *comp, const struct uc_touch *t);

/* comp-touch.c */
struct uc_touch *uc_touch_new(struct utouch_comp *comp);
void uc_touch_free(struct utouch_comp *comp, struct uc_touch *t);
struct uc_touch *uc_touch_lookup(struct utouch_comp *comp, UFTouchId frame_id);
UFTouchId uc_touch_frame_id(const struct utouch_comp *comp, const struct uc_touch *t);
UFStatus uc_touch_handler(void *data, UFWindowId window, UFTouchId touch_id, int accept);
void uc_touch_free_finished(struct utouch_comp *comp);
void uc_queue_cancel(struct utouch_comp *comp, struct uc_touch *t, uint64_t time);
void uc_touch_flush_cancels(struct utouch_comp *comp);
void uc_touch_forget_target(struct utouch_comp *comp, void *surface, void *client);
void uc_device_flush_frames(struct utouch_comp_device *dev, uint64_t time);
/* Whether a device has a frame grail could not get (out of memory, its
 * missed_zones): the timer then fires at once, and the frames are made
 * again.  (Changes waiting for the compositor's frame call do not count.) */
bool uc_frames_waiting(const struct utouch_comp *comp);

/* comp-gesture.c */
void uc_gestures_drain(struct utouch_comp *comp);

/* comp-step.c */
/* the end of every step */
void uc_step_end(struct utouch_comp *comp);
/* the device's changes to grail, its slices to events */
static inline void uc_step_grail(struct utouch_comp_device *dev, uint64_t time);
/* after an accept or reject: slices to events, then the end of the step */
void uc_step_decided(struct utouch_comp *comp);
/* grail's timeouts up to now_us, then the end of the step */
void uc_step_timers(struct utouch_comp *comp, uint64_t now_us);
void uc_step_rearm(struct utouch_comp *comp);
/* The next timer in the recognizer's clock (input time + time_shift), us. */
uint64_t uc_step_next_timeout(struct utouch_comp *comp);
/* Whether @dev is a device of @comp, without reading *dev: a removed
 * device's handle points to freed memory (a handful of devices per seat). */
static inline int
uc_device_known(const struct utouch_comp *comp, const struct utouch_comp_device *dev)
{
	if (!comp || !dev)
		return 0;
	for (size_t i = 0; i < comp->ndevices; i++)
		if (comp->devices[i] == dev)
			return 1;
	return 0;
}

/* Steps back of the input clock up to this are passed on as they are. */
#define UC_CLOCK_STEP_US 50000u
/* Input times go to grail no later than this (2^62 us, 146,000 years):
 * the timers grail arms after them (an hour at most) must still fit the
 * input clock, or they would never be due. */
#define UC_TIME_MAX (UINT64_C(1) << 62)

/* comp-subscription.c */
int uc_subscription_attach_device(struct utouch_comp_subscription *sub,
				  struct utouch_comp_device *dev);
void uc_subscription_detach_device(struct utouch_comp_subscription *sub,
				   struct utouch_comp_device *dev);
void uc_subscription_free(struct utouch_comp_subscription *sub);
int uc_subscription_validate(const struct utouch_comp_subscription_params *p);
int uc_zone_find(struct utouch_comp *comp, const struct utouch_comp_rect *r, int atomic,
		 int create);

/* ---- small and hot: inline for the input calls ---- */

/* the live touch of a device id (comp-touch.c's slot table) */
static inline struct uc_touch *
uc_touch_find(struct utouch_comp *comp, struct utouch_comp_device *dev, int32_t id)
{
	for (size_t i = 0; i < comp->ntouches; i++) {
		struct uc_touch *t = &comp->touches[i];

		if (t->serial && t->down && t->dev == dev && t->id == id)
			return t;
	}
	return NULL;
}

/* a touch changed since the device's last frame for grail: it goes into
 * the next one (comp-touch.c) */
static inline int
uc_touch_mark_changed(struct utouch_comp_device *dev, struct uc_touch *t)
{
	if (!t->zones || t->changed)
		return 0;
	if (uc_grow((void **)&dev->changed, &dev->capchanged, dev->nchanged + 1,
		    sizeof(*dev->changed)) < 0)
		return -ENOMEM;
	dev->changed[dev->nchanged++] = (uint32_t)(t - dev->comp->touches);
	t->changed = 1;
	dev->dirty_zones |= t->zones;
	return 0;
}

static inline void
uc_step_grail(struct utouch_comp_device *dev, uint64_t time)
{
	uc_device_flush_frames(dev, time);
	uc_gestures_drain(dev->comp);
}

#endif
