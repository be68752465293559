/*
 * utouch compositor API: system gestures inside a Wayland compositor.
 *
 * A compositor owns every touch.  This API lets it run grail's gesture
 * model (several gesture classes, touch counts, thresholds, timeouts,
 * simultaneous gestures, accept and reject) on the touches of one seat and
 * tells it, per touch, what the client under the touch may see:
 *
 *   deliver   pass the event to the client now;
 *   hold      keep it back, a system gesture may still claim the touch;
 *   cancel    send wl_touch.cancel to the client (the touch became a
 *             system gesture after the client saw it);
 *   replay    the touch is not a system gesture: deliver the events that
 *             were held back, in order, then the live ones.
 *
 * Shaped like a libinput context: one context per seat, one pollable file
 * descriptor (its timers included) and a dispatch call, no threads, no
 * heap allocation per touch event once the buffers have grown to the
 * working size.  The compositor feeds input with utouch_comp_touch_down()
 * and friends and, after each call and after utouch_comp_dispatch(), takes
 * what to do from utouch_comp_next_event() until it returns 0.  Gesture
 * recognition is grail's (<oif/grail.h>), fed through the frame producer
 * API (<oif/frame_backend.h>).
 *
 * Times are microseconds.  Any clock works as long as it advances at the
 * rate of CLOCK_MONOTONIC (libinput and wlroots use CLOCK_MONOTONIC); the
 * context maps its timers onto the time base of the latest input event.
 *
 * See doc/compositor.md for the model, the configuration file and a
 * complete event loop.
 */
#ifndef UTOUCH_COMPOSITOR_H
#define UTOUCH_COMPOSITOR_H

#include <stddef.h>
#include <stdint.h>

#include <oif/grail.h>

#ifndef UTOUCH_COMP_PUBLIC
#if defined __GNUC__
#define UTOUCH_COMP_PUBLIC __attribute__((visibility("default")))
#else
#define UTOUCH_COMP_PUBLIC
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** A gesture context for one seat. */
struct utouch_comp;
/** A touch device of the seat. */
struct utouch_comp_device;
/** A system gesture subscription. */
struct utouch_comp_subscription;

/** What the client under a touch sees of it; see utouch_comp_touch_get_route(). */
enum utouch_comp_route {
	UTOUCH_COMP_ROUTE_NONE = 0,  /**< no such touch */
	UTOUCH_COMP_ROUTE_DELIVER,   /**< no system gesture wants it: events go to the client */
	UTOUCH_COMP_ROUTE_HOLD,      /**< undecided, events are held back (hold policy) */
	UTOUCH_COMP_ROUTE_FORWARD,   /**< undecided, events go to the client
					  (forward-then-cancel policy) */
	UTOUCH_COMP_ROUTE_SYSTEM,    /**< taken by a system gesture: the client sees
					  nothing more of it */
	UTOUCH_COMP_ROUTE_CANCELLED, /**< the client got a cancel, or its surface or
					  client is gone: nothing more is delivered */
};

/** How the touches of a subscription's candidate gestures are treated. */
enum utouch_comp_policy {
	/**
	 * A touch that may still become this system gesture is held back; the
	 * client never sees the touches of an accepted gesture and gets the
	 * held events replayed when the touch is rejected.
	 */
	UTOUCH_COMP_POLICY_HOLD = 0,
	/**
	 * The client gets every event at the end of its frame, before any
	 * decision; when the gesture is accepted it gets a cancel (what GNOME
	 * Shell and KWin do).
	 */
	UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL,
};

/** Who decides on a subscription's gestures. */
enum utouch_comp_accept {
	/** The context accepts a gesture at its first event (it recognized something). */
	UTOUCH_COMP_ACCEPT_AUTO = 0,
	/** The compositor calls utouch_comp_gesture_accept() or utouch_comp_gesture_reject(). */
	UTOUCH_COMP_ACCEPT_MANUAL,
};

/** Properties of a touch device, given to utouch_comp_device_add(). */
struct utouch_comp_device_info {
	/** Name, copied; may be NULL. */
	const char *name;
	/**
	 * Nonzero for a direct device (touchscreen): touch coordinates are
	 * global (layout) pixels.  Zero for an indirect device (touchpad):
	 * the global coordinates given with its touches are device units.
	 */
	int direct;
	/** Physical width and height of the touch surface in mm (0 when unknown). */
	double width_mm, height_mm;
	/**
	 * Direct devices: layout pixels per mm of the device (0: 96 dpi).
	 * Indirect devices: device units per mm (0: the grail defaults).
	 */
	double resolution;
	/** How many touches the device tracks (0: unknown, reported as 10). */
	unsigned int max_touches;
	/** Passed back by utouch_comp_device_get_user_data(). */
	void *user_data;
};

/** A rectangle in global coordinates. */
struct utouch_comp_rect {
	double x, y, width, height;
};

/**
 * Everything a subscription is made of.  Fill it with
 * utouch_comp_subscription_params_init() first: that sets grail's
 * defaults, which every field below repeats (whole_hand, on for system
 * gestures, is the one exception).
 */
struct utouch_comp_subscription_params {
	/** Name, copied (used in configuration errors and by the compositor). */
	const char *name;
	/** Gesture classes (UGGestureType bits); required, not 0. */
	UGGestureTypeMask mask;
	/** Touches that start a gesture, 1..5; default 2. */
	unsigned int touches_start;
	/** The gesture ends below this many touches (0: touches_start). */
	unsigned int touches_minimum;
	/** A gesture grows into a new one up to this many touches (0: never). */
	unsigned int touches_maximum;
	/** Timeouts in ms (0: no limit); defaults 300, 300, 500, 300. */
	uint64_t drag_timeout, pinch_timeout, rotate_timeout, tap_timeout;
	/** Drag distance in metres; default 0.0026. */
	float drag_threshold;
	/** Pinch ratio; default 1.1. */
	float pinch_threshold;
	/** Rotation in radians; default 2π/50. */
	float rotate_threshold;
	/** Largest tap travel in metres; default 0.0026. */
	float tap_threshold;
	/** grail's atomic mode (one gesture at a time, grail decides); default 0. */
	int atomic;
	/**
	 * Whole-hand gestures (grail's UGSubscriptionPropertyWholeHand): a
	 * gesture is made only of every touch down on the device in the
	 * subscription's region, and an undecided one is rejected (its touches
	 * go to the clients) when a touch lands that it does not take; an
	 * accepted one goes on.  Default 1, unlike grail's 0: a system gesture
	 * for three fingers must not fire on part of a four- or ten-finger hand
	 * (doc/compositor.md, "Whole hand").  0 gives grail 3.1's subsets.
	 */
	int whole_hand;
	/** Hold (default) or forward-then-cancel. */
	enum utouch_comp_policy policy;
	/** Automatic (default) or manual accept. */
	enum utouch_comp_accept accept;
	/**
	 * Only touches that begin inside this rectangle (global coordinates)
	 * count for the subscription; width or height 0 (the default) means
	 * everywhere.
	 */
	struct utouch_comp_rect region;
	/** Passed back by utouch_comp_subscription_get_user_data(). */
	void *user_data;
};

/** Types of the events utouch_comp_next_event() hands out. */
enum utouch_comp_event_type {
	/** Send wl_touch.down for `touch` to the client of `touch.surface`. */
	UTOUCH_COMP_EVENT_TOUCH_DOWN = 1,
	/** Send wl_touch.motion for `touch`. */
	UTOUCH_COMP_EVENT_TOUCH_MOTION,
	/** Send wl_touch.up for `touch`. */
	UTOUCH_COMP_EVENT_TOUCH_UP,
	/** Send wl_touch.frame: the touch events before it form one frame. */
	UTOUCH_COMP_EVENT_TOUCH_FRAME,
	/**
	 * Send wl_touch.cancel to the client of `touch.surface` (`touch.client`).
	 * In Wayland a cancel ends every touch of that client; the context
	 * delivers nothing more of those touches.  One event per client.
	 */
	UTOUCH_COMP_EVENT_TOUCH_CANCEL,
	/** A gesture of a subscription began (its first event). */
	UTOUCH_COMP_EVENT_GESTURE_BEGIN,
	/** A gesture changed. */
	UTOUCH_COMP_EVENT_GESTURE_UPDATE,
	/** A gesture ended (`gesture.canceled` set when it was cut short). */
	UTOUCH_COMP_EVENT_GESTURE_END,
};

/** The most touches a gesture has. */
#define UTOUCH_COMP_GESTURE_MAX_TOUCHES 5

/** A touch event for a client; member of struct utouch_comp_event. */
struct utouch_comp_touch_event {
	struct utouch_comp_device *device; /**< the device (NULL for FRAME) */
	int32_t id;          /**< the device's touch id */
	void *surface;       /**< the surface the touch began on */
	void *client;        /**< its client, as given with the down */
	double sx, sy;       /**< surface-local position (DOWN, MOTION) */
	double x, y;         /**< global position (DOWN, MOTION) */
	int replayed;        /**< 1 when the event was held back and is replayed now */
};

/** A gesture event; member of struct utouch_comp_event. */
struct utouch_comp_gesture_event {
	unsigned int id;                       /**< gesture id, unique per context */
	struct utouch_comp_subscription *subscription;
	UGGestureTypeMask recognized;          /**< classes recognized so far */
	unsigned int num_touches;
	struct utouch_comp_device *device;
	int32_t touch_ids[UTOUCH_COMP_GESTURE_MAX_TOUCHES]; /**< the device's touch ids */
	float center_x, center_y;              /**< centroid now */
	float original_center_x, original_center_y; /**< centroid at the start */
	float original_radius;                 /**< mean distance from the centroid at the start */
	float delta_x, delta_y;                /**< centroid travel since the start */
	float scale;                           /**< spread now / spread at the start */
	float angle;                           /**< rotation since the start, radians */
	int construction_finished;             /**< no touch joins or leaves any more */
	int canceled;                          /**< END only: cut short */
};

/** One thing for the compositor to do. */
struct utouch_comp_event {
	enum utouch_comp_event_type type;
	uint64_t time;   /**< microseconds: the input event's time (replayed events keep theirs) */
	union {
		struct utouch_comp_touch_event touch;     /**< TOUCH_* events */
		struct utouch_comp_gesture_event gesture; /**< GESTURE_* events */
	};
};

/*
 * Context
 */

/**
 * Create a gesture context for one seat.
 *
 * @param seat_name name of the seat, copied (may be NULL)
 * @return the context, or NULL with errno set (ENOMEM, or what
 *         epoll_create1(), timerfd_create() or eventfd() failed with)
 */
UTOUCH_COMP_PUBLIC
struct utouch_comp *utouch_comp_new(const char *seat_name);

/**
 * Destroy a context with its devices and subscriptions; queued events are
 * dropped.  NULL is ignored.  Called from the context's log handler or a
 * configuration check (utouch_comp_load_config_checked(); the call that
 * logged or checks still runs on the context) it is refused, as a client
 * bug logged to stderr, and the context stays.
 *
 * @param comp the context
 */
UTOUCH_COMP_PUBLIC
void utouch_comp_destroy(struct utouch_comp *comp);

/**
 * Priorities of the context's log messages, lowest first.
 */
enum utouch_comp_log_priority {
	UTOUCH_COMP_LOG_DEBUG = 10,   /**< tracing: decisions on touches, ignored calls */
	UTOUCH_COMP_LOG_INFO = 20,    /**< failures already reported to the caller */
	UTOUCH_COMP_LOG_WARNING = 30, /**< input dropped or refused, e.g. a touch id down twice */
	UTOUCH_COMP_LOG_ERROR = 40,   /**< out of memory, failing system calls, client bugs */
};

/**
 * Receives one log message of a context.
 *
 * @param data the pointer given to utouch_comp_set_log_handler()
 * @param priority the message's priority
 * @param message the message, without trailing newline; misuse of the API
 *        is reported at UTOUCH_COMP_LOG_ERROR with the prefix
 *        "client bug: FUNCTION: ", messages of the context's grail handle
 *        carry the prefix "grail: "
 */
typedef void (*utouch_comp_log_handler)(void *data, enum utouch_comp_log_priority priority,
					const char *message);

/**
 * Install the log handler of a context.
 *
 * Without one, the context writes its messages to stderr as
 * "compositor PRIORITY: MESSAGE" from the priority the environment
 * variable UTOUCH_DEBUG asks for (debug, info, warning, error, none; by
 * default error).  A handler receives every message of the context and of
 * its grail handle, whatever its priority, and replaces that output; it is
 * called from inside the calls the compositor makes on the context.  It is
 * the context's alone: messages of other contexts, other utouch objects
 * and of bugs that concern no context (a NULL context) do not reach it.
 * It must not destroy the context: utouch_comp_destroy() from it is
 * refused.
 *
 * @param comp the context; NULL is a client bug (logged to stderr)
 * @param handler the handler, or NULL to go back to stderr
 * @param data passed to @p handler unchanged
 */
UTOUCH_COMP_PUBLIC
void utouch_comp_set_log_handler(struct utouch_comp *comp, utouch_comp_log_handler handler,
				 void *data);

/**
 * The context's file descriptor: readable while events are queued or a
 * timer expired.  Add it to the compositor's event loop and call
 * utouch_comp_dispatch() when it is readable.
 *
 * @param comp the context
 * @return the descriptor, -1 for NULL
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_get_fd(struct utouch_comp *comp);

/**
 * Run expired timers (gesture timeouts, the 60 ms grouping window of grail)
 * against CLOCK_MONOTONIC mapped to the input time base; their results are
 * queued.  Never blocks.
 *
 * @param comp the context
 * @return 0, or -EINVAL for NULL
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_dispatch(struct utouch_comp *comp);

/**
 * Run the timers as if the input clock read @p time now.  For compositors
 * that drive time themselves (tests, replaying recordings); a time before
 * the latest input event or timer runs what is due by that latest time.
 *
 * @param comp the context
 * @param time microseconds in the input time base
 * @return 0, or -EINVAL for NULL
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_advance_time(struct utouch_comp *comp, uint64_t time);

/**
 * Take the next queued event.
 *
 * @param comp the context
 * @param[out] event receives the event
 * @return 1 when an event was taken, 0 when the queue is empty or an
 *         argument is NULL
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_next_event(struct utouch_comp *comp, struct utouch_comp_event *event);

/**
 * The time in microseconds (input time base) at which the context next
 * needs utouch_comp_dispatch() or utouch_comp_advance_time(), 0 when no
 * timer runs.
 *
 * @param comp the context
 * @return the time or 0
 */
UTOUCH_COMP_PUBLIC
uint64_t utouch_comp_next_timeout(struct utouch_comp *comp);

/**
 * The seat name given to utouch_comp_new().
 *
 * @param comp the context
 * @return the name ("" when none was given), NULL for NULL
 */
UTOUCH_COMP_PUBLIC
const char *utouch_comp_get_seat_name(struct utouch_comp *comp);

/*
 * Devices
 */

/**
 * Add a touch device to the seat.  Active subscriptions start watching it.
 *
 * @param comp the context
 * @param info the properties, copied
 * @return the device, or NULL with errno set (EINVAL for NULL arguments
 *         or negative or non-finite sizes, ENOMEM)
 */
UTOUCH_COMP_PUBLIC
struct utouch_comp_device *utouch_comp_device_add(struct utouch_comp *comp,
						  const struct utouch_comp_device_info *info);

/**
 * Remove a device.  Its touches end: clients that saw one of them get a
 * TOUCH_CANCEL, held events are dropped, its gestures end canceled.  The
 * handle is invalid afterwards: queued events that named it, those canceled
 * ENDs included, carry a NULL device instead.  NULL is ignored.  The calls
 * that take the context with the device find a removed one without
 * reading it (-EINVAL, a client bug); utouch_comp_device_get_user_data()
 * and utouch_comp_device_get_name() cannot and must not be given it.
 *
 * @param comp the context
 * @param device the device
 */
UTOUCH_COMP_PUBLIC
void utouch_comp_device_remove(struct utouch_comp *comp, struct utouch_comp_device *device);

/**
 * The user_data of the device's utouch_comp_device_info.
 *
 * @param device the device
 * @return the pointer, NULL for NULL
 */
UTOUCH_COMP_PUBLIC
void *utouch_comp_device_get_user_data(const struct utouch_comp_device *device);

/**
 * The device's name.
 *
 * @param device the device
 * @return the name ("" when none was given), NULL for NULL
 */
UTOUCH_COMP_PUBLIC
const char *utouch_comp_device_get_name(const struct utouch_comp_device *device);

/*
 * Touch input.  Each call returns 0 or a negative errno: -EINVAL for NULL
 * arguments, a device of another context or a position that is not finite
 * (NaN, infinity, or a global position beyond ±FLT_MAX, which the
 * recognizer's float geometry cannot hold; logged as a client bug), -EEXIST for a down of a touch
 * id that is down (logged as a device bug), -ENOENT for an unknown touch
 * id, -ENOMEM.  A failed call changes nothing.
 *
 * Times are microseconds of one clock for the whole seat.  A time up to
 * 50 ms before the latest is taken as it is (hardware jitter); when the
 * clock steps further back (a device's clock reset) the recognizer's clock
 * goes on from the latest time instead, so that the timers already running
 * stay due when they were, and utouch_comp_next_timeout(),
 * utouch_comp_advance_time() and gesture event times follow the new clock.
 */

/**
 * A touch begins.
 *
 * @param comp the context
 * @param device the device
 * @param id the device's touch id (a slot; reused after the up)
 * @param time microseconds
 * @param x global position (device units for indirect devices)
 * @param y global position
 * @param surface the surface under the touch, NULL for none (nothing is
 *        delivered then)
 * @param client the client of @p surface; NULL means the surface itself
 * @param sx surface-local position
 * @param sy surface-local position
 * @return 0 or a negative errno
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_touch_down(struct utouch_comp *comp, struct utouch_comp_device *device,
			   int32_t id, uint64_t time, double x, double y,
			   void *surface, void *client, double sx, double sy);

/**
 * A touch moved.  The touch stays with the surface it began on; give its
 * position relative to that surface.
 *
 * @param comp the context
 * @param device the device
 * @param id the touch id
 * @param time microseconds
 * @param x global position
 * @param y global position
 * @param sx position relative to the touch's surface
 * @param sy position relative to the touch's surface
 * @return 0 or a negative errno
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_touch_motion(struct utouch_comp *comp, struct utouch_comp_device *device,
			     int32_t id, uint64_t time, double x, double y,
			     double sx, double sy);

/**
 * A touch lifted.
 *
 * @param comp the context
 * @param device the device
 * @param id the touch id
 * @param time microseconds
 * @return 0 or a negative errno
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_touch_up(struct utouch_comp *comp, struct utouch_comp_device *device,
			 int32_t id, uint64_t time);

/**
 * The device cancelled a touch (libinput's touch cancel): it ends as if
 * lifted for the recognizer, and a client that saw it gets a TOUCH_CANCEL.
 *
 * @param comp the context
 * @param device the device
 * @param id the touch id
 * @param time microseconds
 * @return 0 or a negative errno
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_touch_cancel(struct utouch_comp *comp, struct utouch_comp_device *device,
			     int32_t id, uint64_t time);

/**
 * The device finished a frame: the touch changes since the last frame are
 * recognized as one step, routing decisions and gesture events are queued.
 * Events of forwarded touches (forward-then-cancel policy) are delivered
 * here, after the recognizer saw their frame, so call it at the end of
 * every hardware frame (libinput's and wlroots' touch frame event).
 *
 * @param comp the context
 * @param device the device
 * @param time microseconds
 * @return 0 or a negative errno
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_touch_frame(struct utouch_comp *comp, struct utouch_comp_device *device,
			    uint64_t time);

/**
 * What the client sees of a touch now.
 *
 * @param comp the context
 * @param device the device
 * @param id the touch id
 * @return the route; UTOUCH_COMP_ROUTE_NONE for a touch that is not down
 */
UTOUCH_COMP_PUBLIC
enum utouch_comp_route utouch_comp_touch_get_route(struct utouch_comp *comp,
						   struct utouch_comp_device *device,
						   int32_t id);

/**
 * A surface is gone: its touches are delivered no more, their held events
 * are dropped; they still count for system gestures.  NULL is ignored.
 *
 * @param comp the context
 * @param surface the surface
 */
UTOUCH_COMP_PUBLIC
void utouch_comp_surface_destroyed(struct utouch_comp *comp, void *surface);

/**
 * A client disconnected: like utouch_comp_surface_destroyed() for every
 * surface whose touches named it as client.  NULL is ignored.
 *
 * @param comp the context
 * @param client the client
 */
UTOUCH_COMP_PUBLIC
void utouch_comp_client_destroyed(struct utouch_comp *comp, void *client);

/**
 * How many events are held back in total (for tests and statistics).
 *
 * @param comp the context
 * @return the count, 0 for NULL
 */
UTOUCH_COMP_PUBLIC
size_t utouch_comp_get_held_count(struct utouch_comp *comp);

/**
 * How many touches are down or not yet decided (for tests and statistics).
 *
 * @param comp the context
 * @return the count, 0 for NULL
 */
UTOUCH_COMP_PUBLIC
size_t utouch_comp_get_touch_count(struct utouch_comp *comp);

/*
 * Subscriptions
 */

/**
 * Fill @p params with grail's defaults: drag, two touches, hold policy,
 * automatic accept, everywhere.  NULL is ignored.
 *
 * @param params the parameters
 */
UTOUCH_COMP_PUBLIC
void utouch_comp_subscription_params_init(struct utouch_comp_subscription_params *params);

/**
 * Add a system gesture subscription.  It watches every device of the seat,
 * now and later.
 *
 * @param comp the context
 * @param params the parameters, copied
 * @param[out] subscription receives the subscription
 * @return 0, -EINVAL for NULL arguments or values out of range (mask 0,
 *         touch counts outside 1..5, minimum above start, maximum below
 *         start, negative thresholds, negative region size, unknown policy
 *         or accept mode), -EBUSY when @p params->atomic differs from
 *         another subscription of an overlapping region, -ENOMEM
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_subscribe(struct utouch_comp *comp,
			  const struct utouch_comp_subscription_params *params,
			  struct utouch_comp_subscription **subscription);

/**
 * Remove a subscription.  Its gestures end canceled; touches nothing else
 * wants are released to their clients.  NULL, a subscription of another
 * context and one already removed are ignored (the handle is not read);
 * the functions that take the subscription alone must not be given it.
 *
 * @param comp the context
 * @param subscription the subscription
 */
UTOUCH_COMP_PUBLIC
void utouch_comp_unsubscribe(struct utouch_comp *comp,
			     struct utouch_comp_subscription *subscription);

/**
 * The parameters of a subscription (the name points to the context's copy).
 *
 * @param subscription the subscription
 * @return the parameters, NULL for NULL
 */
UTOUCH_COMP_PUBLIC
const struct utouch_comp_subscription_params *
utouch_comp_subscription_get_params(const struct utouch_comp_subscription *subscription);

/**
 * The user_data of the subscription's parameters.
 *
 * @param subscription the subscription
 * @return the pointer, NULL for NULL
 */
UTOUCH_COMP_PUBLIC
void *utouch_comp_subscription_get_user_data(const struct utouch_comp_subscription *subscription);

/**
 * Set a free-form option of a subscription, e.g. the action a compositor
 * runs for it.  The configuration file sets them from its `options`
 * mapping.
 *
 * @param subscription the subscription
 * @param key the key, copied
 * @param value the value, copied; NULL removes the option
 * @return 0, -EINVAL for NULL arguments, -ENOMEM
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_subscription_set_option(struct utouch_comp_subscription *subscription,
					const char *key, const char *value);

/**
 * Read a free-form option.
 *
 * @param subscription the subscription
 * @param key the key
 * @return the value, NULL when unset
 */
UTOUCH_COMP_PUBLIC
const char *utouch_comp_subscription_get_option(const struct utouch_comp_subscription *subscription,
						const char *key);

/**
 * The subscriptions of the context, in the order they were made.
 *
 * @param comp the context
 * @param index 0 .. count - 1
 * @return the subscription, NULL past the end
 */
UTOUCH_COMP_PUBLIC
struct utouch_comp_subscription *utouch_comp_get_subscription(struct utouch_comp *comp,
							      size_t index);

/**
 * Add the subscriptions of a YAML configuration file (format in
 * doc/compositor.md).  All or nothing: on error no subscription of the
 * file is added.  A file that another user (not root) owns or that
 * everyone may write is refused, as sshd refuses such files: its options
 * may name commands the compositor runs.
 *
 * @param comp the context
 * @param path the file
 * @param err buffer for "PATH:LINE:COLUMN: what is wrong" (may be NULL)
 * @param errlen size of @p err
 * @return the number of subscriptions added, or a negative errno (-ENOENT
 *         and other open errors, -EPERM for an unsafe file, -EFBIG above
 *         1 MiB, -EINVAL for bad content, -ENOMEM)
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_load_config(struct utouch_comp *comp, const char *path,
			    char *err, size_t errlen);

/**
 * Like utouch_comp_load_config() for a document in memory.
 *
 * @param comp the context
 * @param name used as PATH in error messages
 * @param data the YAML text
 * @param len its length
 * @param err buffer for the error message (may be NULL)
 * @param errlen size of @p err
 * @return the number of subscriptions added, or a negative errno
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_load_config_data(struct utouch_comp *comp, const char *name,
				 const char *data, size_t len, char *err, size_t errlen);

/**
 * Checks the `options` of one subscription of a configuration file for
 * utouch_comp_load_config_checked(), before anything is subscribed.
 *
 * @param data the pointer given to utouch_comp_load_config_checked()
 * @param params the subscription as read
 * @param keys the option keys, in file order
 * @param values their values
 * @param count how many
 * @param bad on refusal: the index of the option at fault, or @p count
 *        when the subscription as a whole is wrong (it is preset to @p count)
 * @param why on refusal: what is wrong, without the place
 * @param whylen size of @p why
 * @return 0 to accept, -1 to refuse
 *
 * It must not destroy the context: utouch_comp_destroy() from it is refused.
 */
typedef int (*utouch_comp_config_check)(void *data,
					const struct utouch_comp_subscription_params *params,
					const char *const *keys, const char *const *values,
					size_t count, size_t *bad, char *why, size_t whylen);

/**
 * utouch_comp_load_config() that also lets the compositor refuse options
 * it does not take: @p check is called for every subscription, and its
 * refusals become errors of the file with the line and column of the
 * option ("PATH:LINE:COLUMN: why").
 *
 * @param comp the context
 * @param path the file
 * @param check the compositor's check (NULL: none)
 * @param data passed to @p check
 * @param err buffer for the first error (may be NULL)
 * @param errlen size of @p err
 * @return the number of subscriptions added, or a negative errno
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_load_config_checked(struct utouch_comp *comp, const char *path,
				    utouch_comp_config_check check, void *data,
				    char *err, size_t errlen);

/*
 * Gestures
 */

/**
 * Accept a gesture of a subscription with manual accept: its touches
 * become system touches (held events dropped, clients that saw them get a
 * cancel); other gestures on those touches end canceled.
 *
 * @param comp the context
 * @param gesture_id the id from a gesture event
 * @return 0, -ENOENT when no undecided gesture has that id, -EINVAL for NULL
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_gesture_accept(struct utouch_comp *comp, unsigned int gesture_id);

/**
 * Reject a gesture: it ends without an END event; its touches go to their
 * clients unless another gesture holds them.
 *
 * @param comp the context
 * @param gesture_id the id from a gesture event
 * @return 0, -ENOENT when no undecided gesture has that id, -EINVAL for NULL
 */
UTOUCH_COMP_PUBLIC
int utouch_comp_gesture_reject(struct utouch_comp *comp, unsigned int gesture_id);

/**
 * A name for a route ("deliver", "hold", ...), for logs.
 *
 * @param route the route
 * @return a static string, "?" for unknown values
 */
UTOUCH_COMP_PUBLIC
const char *utouch_comp_route_name(enum utouch_comp_route route);

/**
 * A name for an event type ("touch-down", "gesture-begin", ...), for logs.
 *
 * @param type the type
 * @return a static string, "?" for unknown values
 */
UTOUCH_COMP_PUBLIC
const char *utouch_comp_event_type_name(enum utouch_comp_event_type type);

#ifdef __cplusplus
}
#endif

#endif /* UTOUCH_COMPOSITOR_H */
