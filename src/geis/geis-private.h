/*
 * Internal objects of the geis library.  See doc/geis.md for the design.
 */
#ifndef UTOUCH_GEIS_PRIVATE_H
#define UTOUCH_GEIS_PRIVATE_H

#include <stdarg.h>
#include <stdint.h>

#include <geis/geis.h>
#include <utouch/geis.h>
#include <oif/grail.h>

#include "geis-backend.h"
#include "grail/grail-props.h"
#include "util/array.h"
#include "geis/gesture-class.h"
#include "util/list.h"
#include "util/log.h"

/* ---- attributes ---- */

/*
 * Gesture ids: grail numbers gestures from 0, but 0 is GEIS_NO_GESTURE_ID
 * to applications (v1 uses it as "no gesture"), so the ids applications
 * see are grail's plus one.
 */
#define GEIS_PUBLIC_ID(grail_id) ((GeisGestureId)(grail_id) + 1u)
#define GEIS_GRAIL_ID(public_id) ((unsigned)((public_id) - 1u))

struct _GeisAttr {
	char *name;
	GeisAttrType type;
	union {
		GeisBoolean b;
		GeisFloat f;
		GeisInteger i;
		GeisPointer p;
		char *s;
	} v;
};

/** A growable list of attributes; pointers to items stay valid. */
struct geis_attr_bag {
	struct _GeisAttr **items;
	GeisSize count, cap;
};

void gs_attr_bag_init(struct geis_attr_bag *bag);
void gs_attr_bag_fini(struct geis_attr_bag *bag);
struct _GeisAttr *gs_attr_bag_add(struct geis_attr_bag *bag, const char *name,
				    GeisAttrType type);
int gs_attr_bag_add_boolean(struct geis_attr_bag *bag, const char *name, GeisBoolean v);
int gs_attr_bag_add_float(struct geis_attr_bag *bag, const char *name, GeisFloat v);
int gs_attr_bag_add_integer(struct geis_attr_bag *bag, const char *name, GeisInteger v);
int gs_attr_bag_add_pointer(struct geis_attr_bag *bag, const char *name, GeisPointer v);
int gs_attr_bag_add_string(struct geis_attr_bag *bag, const char *name, const char *v);
GeisAttr gs_attr_bag_get(const struct geis_attr_bag *bag, GeisSize index);
GeisAttr gs_attr_bag_find(const struct geis_attr_bag *bag, const char *name);

/* ---- errors ---- */

#define GEIS_MAX_ERRORS 8
/* room for a backend's whole message: a device path, what failed and who
 * holds the device (evdev-live's 512 bytes and a prefix) */
#define GEIS_MAX_ERROR_LEN 600

struct geis_error_stack {
	GeisStatus code[GEIS_MAX_ERRORS];
	char msg[GEIS_MAX_ERRORS][GEIS_MAX_ERROR_LEN];
	GeisSize count;
};

/** Push on @p geis's stack, or on the global one when @p geis is NULL. */
void gs_error_push(Geis geis, GeisStatus code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gs_error_vpush(Geis geis, GeisStatus code, const char *fmt, va_list ap);
/** Clear @p geis's stack (NULL: the global one). */
void gs_error_clear(Geis geis);

/* ---- devices and classes ---- */

struct _GeisDevice {
	int ref;
	Geis geis;                  /* NULL once the instance is gone */
	GeisInteger id;
	UFDevice uf;                /* NULL once removed */
	int direct;
	struct geis_attr_bag attrs;
	struct ut_list link;        /* instance's device list */
	/* its DEVICE_AVAILABLE or DEVICE_UNAVAILABLE that could not be
	 * queued (out of memory; 0: none): made again at each dispatch, the
	 * instance holding a reference meanwhile (geis.c) */
	GeisEventType owed_event;
	struct ut_list owed_link;   /* instance's owed_devices */
};

GeisDevice gs_device_new(Geis geis, UFDevice uf, GeisInteger id);

struct _GeisGestureClass {
	int ref;
	GeisInteger id;
	UGGestureTypeMask mask;
	struct geis_attr_bag attrs;
};

/* Drag, Pinch, Rotate, Tap, Touch and Flick (the last: drags, see
 * geis_frame_is_class()) */
#define GEIS_NUM_CLASSES UT_NUM_GEIS_CLASSES
GeisGestureClass gs_gesture_class_new(const char *name, GeisInteger id,
					UGGestureTypeMask mask);

/* ---- events ---- */

struct _GeisTouch {
	GeisTouchId id;
	struct geis_attr_bag attrs;
};

struct _GeisTouchSet {
	struct _GeisTouch *touches;
	GeisSize count;
};

struct _GeisFrame {
	GeisGestureId id;
	UGGestureTypeMask mask;
	int flick;          /* a drag's GESTURE_END faster than 1 px/ms */
	struct geis_attr_bag attrs;
	GeisFloat matrix[9];
	GeisTouchId *touchids;
	GeisSize ntouchids;
};

struct _GeisGroup {
	Geis geis;
	GeisInteger id;
	struct _GeisFrame *frame;   /* one frame per group */
};

struct _GeisGroupSet {
	struct _GeisGroup *groups;
	GeisSize count;
};

struct _GeisEvent {
	GeisEventType type;
	struct geis_attr_bag attrs;
	GeisDevice device;            /* referenced, device events */
	GeisGestureClass klass;       /* referenced, class events */
	struct _GeisGroupSet *groupset;
	struct _GeisTouchSet *touchset;
	GeisGestureId gesture;        /* gesture events: the gesture id */
	int is_gesture;
	int canceled;                 /* of a gesture grail cancelled (seen before) */
	struct _GeisEvent *next, *prev;
};

GeisEvent gs_event_new(GeisEventType type);
/**
 * Give a new gesture event its group set (one group, @p group_id, holding
 * one frame, @p frame_id) and its touch set of @p ntouches touches (zeroed,
 * like the frame's touch ids).  Returns the frame, or NULL when out of
 * memory (geis_event_delete() frees what was made).
 */
struct _GeisFrame *gs_event_add_frame(GeisEvent ev, Geis geis, GeisInteger group_id,
					GeisGestureId frame_id, GeisSize ntouches);

struct geis_event_queue {
	struct _GeisEvent *head, *tail;
	GeisSize count;
};

void gs_queue_push(struct geis_event_queue *q, GeisEvent ev);
GeisEvent gs_queue_pop(struct geis_event_queue *q);
void gs_queue_remove(struct geis_event_queue *q, GeisEvent ev);
void gs_queue_clear(struct geis_event_queue *q);

/* ---- regions, filters, subscriptions ---- */

struct _GeisRegion {
	Geis geis;
	char *name;
	GeisInteger windowid;
	int has_rect;                   /* UTOUCH_GEIS_REGION_RECT */
	float rect[4];                  /* x, y, width, height */
	struct ut_list link;            /* instance's region list */
};

struct geis_term {
	GeisFilterFacility facility;
	char *name;
	GeisFilterOperation op;
	GeisAttrType type;
	union {
		GeisBoolean b;
		GeisFloat f;
		GeisInteger i;
		GeisPointer p;
		char *s;
	} v;
};

struct _GeisFilter {
	Geis geis;
	char *name;
	struct geis_term *terms;
	GeisSize nterms, cap;
	GeisSubscription owner;
	struct ut_list owner_link;  /* owner's filter list (unlinked: none) */
	struct ut_list link;        /* instance's filter list */
};

/** Whether the device matches every device term of @p filter (NULL: yes). */
int gs_filter_match_device(GeisFilter filter, GeisDevice device);

/** Grail parameters derived from a filter's class terms. */
struct geis_gesture_params {
	UGGestureTypeMask mask;
	unsigned start, min, max;
	GeisInteger windows[8];
	int nwindows;
};

/** Compute the parameters; 0, or -1 when the filter can not be satisfied. */
int gs_filter_gesture_params(GeisFilter filter, GeisSubscriptionFlags flags,
			       int tentative, struct geis_gesture_params *p);

/** One UGSubscription of an active subscription. */
struct geis_binding {
	GeisDevice device;          /* referenced */
	UFWindowId window;
	UGSubscription ug;
	struct ut_list link;        /* subscription's bindings, newest first */
};

/* What a gesture event takes from the binding its slice came through
 * (geis-slice.c): a copy, so that an End owed past the binding's life (a
 * device removed while the End could not be made) still has it. */
struct gs_binding_info {
	GeisSubscription sub;
	GeisDevice device;          /* the binding's; referenced while an End is owed */
	UFWindowId window;
	UGGestureTypeMask mask;     /* the grail subscription's classes */
};

struct gs_sub_config {
	GeisFloat drag_threshold, pinch_threshold, rotate_threshold, tap_threshold;
	GeisInteger drag_timeout, pinch_timeout, rotate_timeout, tap_timeout;
	/* grail's utouch extensions (UTOUCH_GEIS_CONFIG_*) */
	GeisInteger hold_timeout, multitap_timeout, multitap_max, edge_edges, velocity_window;
	GeisFloat hold_threshold, multitap_threshold, edge_margin, edge_velocity;
	GeisInteger whole_hand; /* UTOUCH_GEIS_CONFIG_WHOLE_HAND, 0 or 1 */
	int extended; /* one of them was set: gestures carry the extension attributes */
};

struct _GeisSubscription {
	Geis geis;
	GeisInteger id;
	char *name;
	GeisSubscriptionFlags flags;
	struct ut_list filters;     /* struct _GeisFilter (owner_link), in order added */
	int active;
	struct gs_sub_config config;
	struct ut_list bindings;    /* struct geis_binding */
	struct ut_list link;        /* instance's subscriptions, newest first */
};

/** The first filter of @p sub, or NULL when it has none. */
static inline GeisFilter
gs_sub_first_filter(GeisSubscription sub)
{
	return ut_list_empty(&sub->filters) ? NULL :
	       ut_container_of(sub->filters.next, struct _GeisFilter, owner_link);
}

/** The filter after @p f in its subscription @p sub, or NULL. */
static inline GeisFilter
gs_sub_next_filter(GeisSubscription sub, GeisFilter f)
{
	return f->owner_link.next == &sub->filters ? NULL :
	       ut_container_of(f->owner_link.next, struct _GeisFilter, owner_link);
}

/** The subscription of the link @p pos of geis->subs. */
static inline GeisSubscription
gs_sub_of(struct ut_list *pos)
{
	return ut_container_of(pos, struct _GeisSubscription, link);
}

/** The binding of the link @p pos of a subscription's bindings. */
static inline struct geis_binding *
gs_binding_of(struct ut_list *pos)
{
	return ut_container_of(pos, struct geis_binding, link);
}

/* ---- gestures in flight ---- */

struct geis_gesture {
	unsigned id;
	GeisSubscription sub;
	int begun;          /* a BEGIN (or tap UPDATE) was queued */
	int seen;           /* the application received one of its events */
	int dead;           /* rejected or ended: ignore further slices */
	int tap_only;       /* pure tap delivered as one UPDATE */
	int ended;          /* grail sent its End: kept until it is decided
	                       and none of its events is queued */
	int accepted;       /* the application accepted it: it cannot be rejected */
	GeisInteger device_id;  /* where it happens (grail cancels overlapping */
	UFWindowId window;      /* gestures per device and window) */
	UFTouchId touches[8];   /* every touch it held (up to 8) */
	unsigned ntouches;
	uint64_t last_time;
	float last_x, last_y, last_radius, last_angle;
	float last_vx, last_vy;   /* the newest velocity over a time step */
	unsigned last_touches;    /* "touches" of the previous event */
	int in_queue;             /* release_undecided(): an event of it is queued */
	int finished;             /* a slice said "construction finished" */
	/* an End the application is owed: its event could not be made (out
	 * of memory); made again at each dispatch (gs_engine_retry_ends()) */
	UGEvent owed_end;         /* grail's event of the End slice (a reference) */
	struct gs_binding_info owed_binding;
	UGGestureTypeMask owed_mask;
	uint64_t owed_time;
	struct ut_list link;      /* geis->gestures, newest first */
	struct geis_gesture *hnext;  /* chain of geis->gesture_hash */
};

/* ---- the instance ---- */

/*
 * A grail timeout as geis 2.2's XSync alarm for it (backends with
 * ops->xsync_alarms, see doc/geis.md "Time"): one for every time
 * grail_next_timeout() reported after a frame or after grail events,
 * never cancelled.
 */
struct geis_alarm {
	uint64_t at;        /* the time it was made for */
	uint64_t counter;   /* the server time it comes back with */
	int fresh;          /* made since the backend's last read of input:
	                       comes back with a later read */
};

struct geis_mux_entry {
	int fd;
	geis_mux_fn fn;
	void *data;
	struct ut_list link;        /* geis->mux */
};

/* what GEIS_CONFIG_MAX_EVENTS reads before a client sets it (geis 2.2.17's) */
#define GEIS_MAX_EVENTS_DEFAULT 16

struct _Geis {
	struct geis_error_stack errors;
	struct ut_log log;          /* domain "geis"; errors pushed are logged too */
	utouch_geis_log_handler log_handler;   /* utouch_geis_set_log_handler() */
	void *log_data;
	int in_log_handler;                    /* inside log_handler */
	/* options */
	int track_devices, track_classes, sync_start;
	int atomic, tentative, synchronous;
	GeisInteger max_events;     /* GEIS_CONFIG_MAX_EVENTS: read back only,
					 GEIS_MAX_EVENTS_DEFAULT at first */
	/* backend */
	struct geis_backend *backend;
	int started;
	int backend_failed;
	uint64_t time_origin;   /* backend clock 1 s before the backend started
	                           (0 for a server clock): the zero of the
	                           "timestamp" attribute */
	/* event loop */
	int epfd;
	int wakefd;              /* eventfd: something to dispatch */
	int wake_signalled;      /* wakefd is readable: no write needed
	                            until on_wake() has read it */
	int timerfd;             /* grail timeouts (default clock) */
	uint64_t timer_at;
	uint64_t time_done;      /* latest time given to grail_update_time() */
	uint64_t time_seen;      /* newest frame or alarm time given to grail */
	struct geis_alarm *alarms;   /* ops->xsync_alarms */
	unsigned int nalarms, capalarms;
	struct ut_list mux;      /* struct geis_mux_entry, newest first */
	struct geis_event_queue queue;
	GeisEventCallback event_cb, device_cb, class_cb;
	void *event_ctx, *device_ctx, *class_ctx;
	/* objects */
	struct ut_list devices;  /* struct _GeisDevice, newest first */
	struct ut_list owed_devices;  /* devices whose event is owed (owed_link) */
	GeisInteger next_device_id;
	GeisInteger next_rect_window;   /* window ids of rectangle regions */
	GeisGestureClass classes[GEIS_NUM_CLASSES];
	struct ut_list subs;     /* struct _GeisSubscription, newest first */
	GeisInteger next_sub_id;
	struct ut_list filters;  /* every filter, owned or not (link), newest first */
	struct ut_list regions;  /* struct _GeisRegion, newest first */
	/* engine */
	UGHandle grail;
	struct ut_list gestures; /* struct geis_gesture */
	/* the gestures by id: ngestures entries in hash_size chains (a power
	 * of two), so that finding one does not depend on how many are live */
	struct geis_gesture **gesture_hash;
	size_t hash_size, ngestures;
	int in_dispatch;
	int delivering;
	/* geis_delete() was called from a callback: the instance is freed
	 * when geis_dispatch_events() unwinds */
	int delete_pending;
	int releasing;
	int release_due;    /* an ended gesture may have left the queue */
	size_t ends_owed;   /* gestures whose End could not be made yet */
};

/* engine (geis-engine.c) */
int gs_engine_init(Geis geis);
void gs_engine_fini(Geis geis);
GeisStatus gs_engine_activate(GeisSubscription sub);
void gs_engine_deactivate(GeisSubscription sub);
void gs_engine_apply_config(GeisSubscription sub);
/** Feed a frame event to grail and turn what comes out into events. */
void gs_engine_frame(Geis geis, UFEvent event);
void gs_engine_drain(Geis geis);
void gs_engine_rearm(Geis geis);
/* Queue the gesture Ends owed because their events could not be made (out
 * of memory, geis-slice.c); while some are still owed, the fd stays
 * readable so that the application dispatches again. */
void gs_engine_retry_ends(Geis geis);
void gs_engine_timer_fired(Geis geis);
void gs_engine_device_added(Geis geis, GeisDevice dev);
void gs_engine_device_removed(Geis geis, GeisDevice dev);
void gs_engine_event_delivered(Geis geis, GeisEvent ev);
/** Reject (in grail, and so in the backend) the gestures that ended
 * without the application accepting or rejecting them, once none of their
 * events waits in the queue: their touches go back to the clients below,
 * as in geis 2.2. */
void gs_engine_release_undecided(Geis geis);
GeisStatus gs_engine_accept(Geis geis, GeisGestureId id);
GeisStatus gs_engine_reject(Geis geis, GeisGestureId id);

/* Whether the instance's gestures come from grail (all backends but the
 * test backend, which makes its own: geis_backend_ops.activate). */
static inline int
gs_uses_grail(Geis geis)
{
	return !geis->backend || !geis->backend->ops->activate;
}

/* core (geis.c) */
void gs_enqueue(Geis geis, GeisEvent ev);
void gs_wake(Geis geis);
int gs_deliver_callbacks(Geis geis);
uint64_t gs_now(Geis geis);
GeisInteger gs_region_windowid(GeisRegion region);
/* Window ids given to rectangle regions: above 1 (the screen), clear of
 * small ids applications pick for themselves. */
#define GEIS_RECT_WINDOW_BASE 0x10000

/* subscriptions (geis-subscription.c) */
/* Fill @c with grail's defaults; -1 when out of memory. */
int gs_subscription_defaults(struct gs_sub_config *c);
/* The grail properties of struct gs_sub_config (grail/grail-props.h). */
extern const struct gr_prop_field geis_sub_config_props[];
extern const size_t geis_sub_config_nprops;

/* strings */
char *gs_strdup(const char *s);

#endif
