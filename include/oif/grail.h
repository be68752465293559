/*
 * utouch grail: multitouch gesture recognition on top of utouch frame.
 *
 * API- and ABI-compatible re-implementation of the grail 3.1 interface
 * (same type names, enum values, property value types and defaults), with a
 * few documented extensions marked "utouch extension".
 *
 * Model: a client creates a handle, describes what it wants to see with
 * subscriptions (device, window, gesture types, touch counts, thresholds),
 * activates them and then feeds every frame event it gets from frame into
 * grail_process_frame_event().  The recognizer groups touches into
 * candidate gestures and queues events; each event carries one slice, a
 * snapshot of one gesture at one point in time.  The client pulls events
 * with grail_get_event() (grail_get_fd() becomes readable while events are
 * queued), decides per gesture whether it wants it with
 * grail_accept_gesture() or grail_reject_gesture(), and drives the
 * recognizer's timers with grail_next_timeout() and grail_update_time().
 *
 * All times are in milliseconds in the time base of the frame events.
 * A handle and everything obtained from it is single-threaded.
 * Every function accepts NULL objects and then fails with an error status
 * (or returns a zero value) instead of crashing.
 */
#ifndef GRAIL_OIF_GRAIL_H_
#define GRAIL_OIF_GRAIL_H_

#ifndef GRAIL_PUBLIC
#if defined _WIN32 || defined __CYGWIN__
#ifdef BUILDING_GRAIL
#define GRAIL_PUBLIC __declspec(dllexport)
#else
#define GRAIL_PUBLIC __declspec(dllimport)
#endif
#elif defined __GNUC__
#define GRAIL_PUBLIC __attribute__((visibility("default")))
#else
#define GRAIL_PUBLIC
#endif
#endif

#include <stdint.h>

#include <oif/frame.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque recognizer context; create with grail_new(). */
typedef struct UGHandle_ *UGHandle;
/** Opaque description of the gestures a client wants to receive. */
typedef struct UGSubscription_ *UGSubscription;
/** Opaque reference-counted event; see grail_event_ref(). */
typedef struct UGEvent_ *UGEvent;
/** Read-only view of one gesture at one point in time, owned by its event. */
typedef const struct UGSlice_ *UGSlice;

/** Result of a grail call. */
typedef enum UGStatus {
	UGStatusSuccess = 0,              /**< the call succeeded */
	UGStatusErrorGeneric,             /**< bad handle or system error */
	UGStatusErrorResources,           /**< out of memory or file descriptors */
	UGStatusErrorNoEvent,             /**< the event queue is empty */
	UGStatusErrorUnknownProperty,     /**< no such property */
	UGStatusErrorInvalidValue,        /**< the value is out of range or NULL */
	UGStatusErrorInvalidDevice,       /**< no such device */
	UGStatusErrorInvalidSubscription, /**< the subscription is incomplete or inconsistent */
	UGStatusErrorInvalidGesture,      /**< no undecided gesture has this id */
	UGStatusErrorInvalidIndex,        /**< the touch index is out of range */
	UGStatusErrorAtomicity,           /**< the window already has subscriptions with the
					       other AtomicGestures setting */
} UGStatus;

/**
 * Subscription properties, read and written with
 * grail_subscription_get_property() and grail_subscription_set_property().
 *
 * Distances are in metres on the device surface, angles in radians,
 * timeouts in milliseconds.  A timeout of 0 means "no time limit".
 */
typedef enum UGSubscriptionProperty {
	/** `UFDevice`: the device to recognize gestures on (required). */
	UGSubscriptionPropertyDevice,
	/** `UFWindowId`: the window to recognize gestures in (required, not 0). */
	UGSubscriptionPropertyWindow,
	/** `UGGestureTypeMask`: the gesture types wanted (required, not 0). */
	UGSubscriptionPropertyMask,
	/** `unsigned int`, 1..5: touches needed to start a gesture; default 2. */
	UGSubscriptionPropertyTouchesStart,
	/**
	 * `unsigned int`, 1..5: the gesture ends when fewer touches remain.
	 * Default 0 (unset): the gesture ends when fewer than TouchesStart
	 * touches remain.
	 */
	UGSubscriptionPropertyTouchesMinimum,
	/**
	 * `unsigned int`, 1..5: a gesture with fewer touches grows into a new
	 * gesture when a touch begins.  Default 0 (unset): gestures never grow.
	 */
	UGSubscriptionPropertyTouchesMaximum,
	/** `uint64_t`: drag must be recognized within this time; default 300. */
	UGSubscriptionPropertyDragTimeout,
	/** `float`: distance the centroid must travel for a drag; default 0.0026 m. */
	UGSubscriptionPropertyDragThreshold,
	/** `uint64_t`: pinch must be recognized within this time; default 300. */
	UGSubscriptionPropertyPinchTimeout,
	/**
	 * `float`: ratio by which the mean distance of the touches from their
	 * centroid must grow or shrink for a pinch; default 1.1.
	 */
	UGSubscriptionPropertyPinchThreshold,
	/** `uint64_t`: rotate must be recognized within this time; default 500. */
	UGSubscriptionPropertyRotateTimeout,
	/** `float`: angle the touches must turn for a rotate; default 2π/50. */
	UGSubscriptionPropertyRotateThreshold,
	/**
	 * `uint64_t`: the touches must lift within this time for a tap;
	 * default 300.  0 means no time limit, as for the other timeouts
	 * (grail 3.1 never recognized a tap with timeout 0).
	 */
	UGSubscriptionPropertyTapTimeout,
	/** `float`: a tap must not travel further than this; default 0.0026 m. */
	UGSubscriptionPropertyTapThreshold,
	/**
	 * `int`, boolean: emulate grail 1 (one gesture at a time per window,
	 * decided by grail).  Default 0.  With atomic gestures the client must
	 * not accept or reject; a gesture ends when more touches begin than
	 * TouchesMaximum allows, and a subscription whose TouchesStart matches
	 * the new touch count takes over.  All active subscriptions of one
	 * (device, window) must agree on this setting, otherwise activation
	 * fails with UGStatusErrorAtomicity.
	 */
	UGSubscriptionPropertyAtomicGestures,
	/*
	 * utouch extensions (doc/grail.md, "Velocity, hold, multi-tap, edge
	 * swipe"); the defaults and why they were chosen are given there.
	 */
	/**
	 * `uint64_t`, utouch extension: time in ms the touches must stay down
	 * within UGSubscriptionPropertyHoldThreshold of where they began for
	 * UGGestureTypeHold; default 500 (GTK, iOS and Chromium long press).
	 * Must not be 0.
	 */
	UGSubscriptionPropertyHoldTimeout,
	/**
	 * `float`, utouch extension: distance (m) each touch may move from
	 * where it began and still count as held; default 0.0026, the default
	 * drag threshold, so that a hold that moves becomes a drag.
	 */
	UGSubscriptionPropertyHoldThreshold,
	/**
	 * `uint64_t`, utouch extension: a tap continues the previous tap of the
	 * subscription (UGSlicePropertyTapCount) when its touches begin at most
	 * this many ms after that tap was recognized; default 400 (GTK, Qt and
	 * Chromium double-click/double-tap time).
	 */
	UGSubscriptionPropertyMultiTapTimeout,
	/**
	 * `float`, utouch extension: ... and its centroid is at most this far
	 * (m) from the previous tap's; default 0.010.
	 */
	UGSubscriptionPropertyMultiTapThreshold,
	/**
	 * `unsigned int`, 1..100, utouch extension: the highest tap count; the
	 * tap after a tap with this count counts 1 again.  Default 3 (Chromium's
	 * maximum tap count); 1 turns multi-tap off.
	 */
	UGSubscriptionPropertyMultiTapMaximum,
	/**
	 * `unsigned int`, utouch extension: the edges (UGEdge bits, not 0) from
	 * which UGGestureTypeEdgeSwipe is recognized; default all four.
	 */
	UGSubscriptionPropertyEdgeSwipeEdges,
	/**
	 * `float`, utouch extension: every touch of an edge swipe must begin
	 * within this distance (m) of the edge; default 0.005.
	 */
	UGSubscriptionPropertyEdgeSwipeMargin,
	/**
	 * `float`, utouch extension: minimum initial velocity (m/s) inward, from
	 * touch-down until the centroid has moved the drag threshold, of an edge
	 * swipe; default 0.03.
	 */
	UGSubscriptionPropertyEdgeSwipeVelocity,
	/**
	 * `uint64_t`, utouch extension: the velocity of a slice
	 * (UGSlicePropertyVelocityX/Y) is estimated over the centroid positions
	 * of this many recent ms; default 150 (GTK's swipe velocity window).
	 * Must not be 0.
	 */
	UGSubscriptionPropertyVelocityWindow,
	/**
	 * `int`, boolean, utouch extension: whole-hand gestures, for system
	 * gestures that must not fire on part of a hand.  Default 0 (grail 3.1:
	 * any subset of the touches down may form a gesture).  When set, a
	 * gesture of the subscription is a candidate only while it holds every
	 * touch down on its (device, window): no candidate is made from some of
	 * the touches down, and when a touch lands that an undecided candidate
	 * does not take (it is full, or cannot expand), the candidate is
	 * rejected, like a client's rejection (a client that saw its events
	 * gets a cancelled End), and its touches go back to the client or the
	 * window below once no other gesture holds them.  A gesture the client
	 * has accepted keeps going when more touches land.  doc/grail.md,
	 * "Whole-hand gestures".
	 */
	UGSubscriptionPropertyWholeHand,
} UGSubscriptionProperty;

/**
 * Screen edges of a direct device (utouch extension), used as bits of
 * UGSubscriptionPropertyEdgeSwipeEdges and as the value of
 * UGSlicePropertyEdge.  They are the ends of the device's X and Y axes.
 */
typedef enum UGEdge {
	UGEdgeLeft = 0x1,   /**< minimum X */
	UGEdgeRight = 0x2,  /**< maximum X */
	UGEdgeTop = 0x4,    /**< minimum Y */
	UGEdgeBottom = 0x8, /**< maximum Y */
} UGEdge;

/** Event types. */
typedef enum UGEventType {
	UGEventTypeSlice = 0, /**< the event carries a gesture slice */
} UGEventType;

/** Event properties, read with grail_event_get_property(). */
typedef enum UGEventProperty {
	/** `UGEventType`: the event type. */
	UGEventPropertyType = 0,
	/** `UGSlice`: the slice, owned by the event. */
	UGEventPropertySlice,
	/** `uint64_t`: the time of the frame event the slice was computed from, in ms. */
	UGEventPropertyTime,
} UGEventProperty;

/** Gesture primitives, used as bits of a UGGestureTypeMask. */
typedef enum UGGestureType {
	UGGestureTypeDrag = 0x1,   /**< the centroid moved */
	UGGestureTypePinch = 0x2,  /**< the touches moved apart or together */
	UGGestureTypeRotate = 0x4, /**< the touches turned around their centroid */
	UGGestureTypeTap = 0x8,    /**< the touches lifted quickly without moving */
	UGGestureTypeTouch = 0x10, /**< the touches are down (always recognized) */
	/**
	 * utouch extension: the touches stayed down, within the hold threshold
	 * of where they began, for the hold timeout; recognized while they are
	 * held (a slice at that time, from grail_update_time()).  Moving
	 * further before that rules the hold out.
	 */
	UGGestureTypeHold = 0x20,
	/**
	 * utouch extension: on a direct device, every touch began within the
	 * edge swipe margin of one enabled screen edge, and the centroid moved
	 * the drag threshold inward, within 30° of perpendicular to the edge,
	 * at no less than the edge swipe velocity and within the drag timeout.
	 */
	UGGestureTypeEdgeSwipe = 0x40,
} UGGestureType;

/** Set of UGGestureType bits. */
typedef uint32_t UGGestureTypeMask;

/** A 2D transform in homogeneous coordinates, row major; row 2 is 0 0 1. */
typedef const float UGTransform[3][3];

/** Lifecycle state of a slice. */
typedef enum UGGestureState {
	UGGestureStateBegin = 0, /**< first slice of a gesture */
	UGGestureStateUpdate,    /**< later slice */
	UGGestureStateEnd,       /**< last slice of a gesture */
} UGGestureState;

/** Slice properties, read with grail_slice_get_property(). */
typedef enum UGSliceProperty {
	/** `unsigned int`: gesture id, unique per handle, never reused. */
	UGSlicePropertyId = 0,
	/** `UGGestureState`: slice state. */
	UGSlicePropertyState,
	/** `UGSubscription`: the subscription the gesture belongs to. */
	UGSlicePropertySubscription,
	/** `UGGestureTypeMask`: primitives recognized so far (only grows). */
	UGSlicePropertyRecognized,
	/** `unsigned int`: number of touches in the slice. */
	UGSlicePropertyNumTouches,
	/** `UFFrame`: the frame the slice was computed from, valid as long as the event. */
	UGSlicePropertyFrame,
	/** `float`: X of the centroid of the touches when the touch count last changed. */
	UGSlicePropertyOriginalCenterX,
	/** `float`: Y of the centroid of the touches when the touch count last changed. */
	UGSlicePropertyOriginalCenterY,
	/**
	 * `float`: mean distance of the touches from their centroid when the
	 * touch count last changed.
	 */
	UGSlicePropertyOriginalRadius,
	/**
	 * `const UGTransform *`: similarity transform (translation of the
	 * centroid, scale of the mean radius, rotation of the mean angle) from
	 * the previous slice to this one.  utouch: when three or more touches
	 * have one close to their centroid, where the mean angle is noise,
	 * rotation and scale come from the least-squares similarity instead
	 * (doc/grail.md, "Geometry").
	 */
	UGSlicePropertyTransform,
	/**
	 * `const UGTransform *`: the same transform relative to the original
	 * touches; the current centroid is (original centre + column 2).
	 */
	UGSlicePropertyCumulativeTransform,
	/** `float`: X of the fixed point of the per-slice transform (0 when none). */
	UGSlicePropertyCenterOfRotationX,
	/** `float`: Y of the fixed point of the per-slice transform (0 when none). */
	UGSlicePropertyCenterOfRotationY,
	/**
	 * `int`, boolean: no more touches will be added to or removed from the
	 * gesture by construction; once set it stays set.
	 */
	UGSlicePropertyConstructionFinished,
	/**
	 * `int`, boolean: utouch extension.  Set only on an End slice of a
	 * gesture that grail cancelled after the client had received some of
	 * its events (another gesture holding its touches was accepted, it was
	 * replaced by an extension, or its subscription was deactivated).
	 */
	UGSlicePropertyCanceled,
	/**
	 * `float`, utouch extension: X velocity of the centroid in window
	 * pixels (direct devices) or device units per ms, the least-squares
	 * slope of its positions in the last UGSubscriptionPropertyVelocityWindow
	 * ms (0 with fewer than two); positions are forgotten when the touch
	 * count changes.  Slices in which touches lift add no position, so the
	 * End slice carries the release velocity.
	 */
	UGSlicePropertyVelocityX,
	/** `float`, utouch extension: Y velocity of the centroid, as X. */
	UGSlicePropertyVelocityY,
	/**
	 * `unsigned int`, utouch extension: on the slices of a gesture that
	 * recognized UGGestureTypeTap from the one where it did, 1 for a single
	 * tap, 2 for the second of a double tap, ...; 0 otherwise.
	 */
	UGSlicePropertyTapCount,
	/**
	 * `unsigned int`, utouch extension: the UGEdge an edge swipe began at,
	 * on the slices from the one that recognized UGGestureTypeEdgeSwipe;
	 * 0 otherwise.
	 */
	UGSlicePropertyEdge,
} UGSliceProperty;

/**
 * Log handler (utouch extension).
 *
 * @param data the pointer given to grail_set_log_handler()
 * @param level -1 debug, 0 warning, 1 error (the GRAIL_DEBUG levels);
 *        misuse of the API is reported at level 1 with the prefix
 *        "client bug: FUNCTION: "
 * @param msg the message, without trailing newline
 */
typedef void (*grail_log_handler)(void *data, int level, const char *msg);

/**
 * Create a grail handle.
 *
 * Until a handler is installed with grail_set_log_handler(), messages go
 * to stderr from the level the environment variable UTOUCH_DEBUG asks for
 * (debug, info, warning, error, none), else GRAIL_DEBUG (-1 debug,
 * 0 warning, 1 error); by default errors and client bugs are printed.
 *
 * The handle takes no file descriptor until grail_get_fd() is first
 * called.
 *
 * @param[out] handle receives the handle, to be freed with grail_delete()
 * @return UGStatusSuccess, UGStatusErrorInvalidValue if @p handle is NULL,
 *         UGStatusErrorResources when out of memory
 */
GRAIL_PUBLIC
UGStatus grail_new(UGHandle *handle);

/**
 * Destroy a grail handle.
 *
 * Every gesture is dropped without further events and every touch that no
 * accepted gesture holds is rejected.  Subscriptions are not deleted;
 * events the client still holds remain valid until unreferenced.  Called
 * from the handle's log handler (grail_set_log_handler(); the call that
 * logged still runs on the handle) it is refused as a client bug, logged
 * to stderr, and the handle stays.
 *
 * @param handle the handle, may be NULL
 */
GRAIL_PUBLIC
void grail_delete(UGHandle handle);

/**
 * Get the file descriptor that is readable while events are queued.
 *
 * The descriptor is made by the first call (an eventfd), readable at
 * once if events are already queued; later calls return the same one.  A
 * client that pulls events after every frame it feeds in need not ask for
 * it, and then grail makes no system call at all.
 *
 * The descriptor is owned by the handle; do not read from or close it.
 * Poll it, then call grail_get_event() until it returns
 * UGStatusErrorNoEvent.  To save two system calls per frame the
 * descriptor is cleared lazily: it may stay readable after the queue was
 * emptied, until grail_get_event() has returned UGStatusErrorNoEvent twice
 * in a row, so a poll loop sees at most one spurious wake-up per batch.
 *
 * @param handle the handle
 * @return the file descriptor; -1 for a NULL handle, or when no descriptor
 *         can be made (the process is out of file descriptors: an error
 *         is logged, and a later call tries again)
 */
GRAIL_PUBLIC
int grail_get_fd(UGHandle handle);

/**
 * Install a log handler (utouch extension).
 *
 * The handler receives the handle's messages of every level, including
 * debug messages, and replaces their stderr output (UTOUCH_DEBUG,
 * GRAIL_DEBUG).  Messages that concern no handle (client bugs such as a
 * NULL grail handle, a NULL frame touch, a frame property read as the
 * wrong type) and those of other libraries (geis has
 * utouch_geis_set_log_handler()) do not reach it: they keep their own
 * output, stderr by default.
 *
 * @param handle the handle, may be NULL (then nothing happens)
 * @param handler the handler, or NULL to go back to stderr (UTOUCH_DEBUG)
 * @param data passed to @p handler unchanged
 */
GRAIL_PUBLIC
void grail_set_log_handler(UGHandle handle, grail_log_handler handler, void *data);

/**
 * Create a subscription with default properties.
 *
 * Device, window and mask have no default and must be set before
 * activation.
 *
 * @param[out] subscription receives the subscription, to be freed with
 *             grail_subscription_delete()
 * @return UGStatusSuccess, UGStatusErrorInvalidValue for NULL,
 *         UGStatusErrorResources when out of memory
 */
GRAIL_PUBLIC
UGStatus grail_subscription_new(UGSubscription *subscription);

/**
 * Delete a subscription.
 *
 * Deactivate it on every handle first; deleting an active subscription
 * leaves that handle with a dangling pointer.
 *
 * @param subscription the subscription, may be NULL
 */
GRAIL_PUBLIC
void grail_subscription_delete(UGSubscription subscription);

/**
 * Set a subscription property.
 *
 * Changes take effect for gestures created after the call.
 *
 * @param subscription the subscription
 * @param property the property
 * @param value points to a value of the property's type
 * @return UGStatusSuccess, UGStatusErrorInvalidValue for NULL arguments, a
 *         NULL device, window 0, mask 0, a touch count outside 1..5 or a
 *         negative or non-finite threshold, UGStatusErrorUnknownProperty for
 *         an unknown property
 */
GRAIL_PUBLIC
UGStatus grail_subscription_set_property(UGSubscription subscription,
					 UGSubscriptionProperty property,
					 const void *value);

/**
 * Get a subscription property.
 *
 * @param subscription the subscription
 * @param property the property
 * @param[out] value points to storage of the property's type
 * @return UGStatusSuccess, UGStatusErrorInvalidValue for NULL arguments,
 *         UGStatusErrorUnknownProperty for an unknown property
 */
GRAIL_PUBLIC
UGStatus grail_subscription_get_property(UGSubscription subscription,
					 UGSubscriptionProperty property, void *value);

/**
 * Activate a subscription: gestures matching it are recognized from the
 * next frame event on.
 *
 * @param handle the handle
 * @param subscription the subscription
 * @return UGStatusSuccess (also when it is already active),
 *         UGStatusErrorInvalidValue for NULL arguments,
 *         UGStatusErrorInvalidSubscription when device, window or mask is
 *         unset or TouchesStart lies outside [TouchesMinimum,
 *         TouchesMaximum], UGStatusErrorAtomicity when other active
 *         subscriptions of the same device and window differ in
 *         AtomicGestures, UGStatusErrorResources when out of memory
 */
GRAIL_PUBLIC
UGStatus grail_subscription_activate(UGHandle handle, UGSubscription subscription);

/**
 * Deactivate a subscription.
 *
 * Gestures of this subscription are cancelled (those the client has seen
 * events for get a cancelled End slice); gestures of other subscriptions
 * are not affected (grail 3.1 dropped all of them).
 *
 * @param handle the handle
 * @param subscription the subscription; nothing happens if it is not active
 *        on @p handle, also when it was deleted since (it is found by
 *        address, not read)
 */
GRAIL_PUBLIC
void grail_subscription_deactivate(UGHandle handle, UGSubscription subscription);

/**
 * Feed a frame event to the recognizer.
 *
 * Frame events of devices and windows without an active subscription get
 * their new touches rejected.
 *
 * @param handle the handle
 * @param event the frame event; grail takes its own references as needed
 */
GRAIL_PUBLIC
void grail_process_frame_event(UGHandle handle, const UFEvent event);

/**
 * Take the next event from the queue.
 *
 * @param handle the handle
 * @param[out] event receives the event; the caller owns one reference and
 *             releases it with grail_event_unref()
 * @return UGStatusSuccess, UGStatusErrorNoEvent when the queue is empty,
 *         UGStatusErrorInvalidValue for NULL arguments
 */
GRAIL_PUBLIC
UGStatus grail_get_event(UGHandle handle, UGEvent *event);

/**
 * Tell the recognizer that time has advanced to @p time.
 *
 * Call it when grail_next_timeout() has passed: it runs timeouts and may
 * queue events.
 *
 * @param handle the handle
 * @param time the current time in ms, in the frame events' time base
 */
GRAIL_PUBLIC
void grail_update_time(UGHandle handle, uint64_t time);

/**
 * Get the time at which grail_update_time() should be called next.
 *
 * @param handle the handle
 * @return an absolute time in ms, or 0 when no timer is pending
 */
GRAIL_PUBLIC
uint64_t grail_next_timeout(UGHandle handle);

/**
 * Add a reference to an event.
 *
 * @param event the event, may be NULL
 */
GRAIL_PUBLIC
void grail_event_ref(UGEvent event);

/**
 * Drop a reference to an event; the last one frees it together with its
 * slice.
 *
 * @param event the event, may be NULL
 */
GRAIL_PUBLIC
void grail_event_unref(UGEvent event);

/**
 * Get an event property.
 *
 * @param event the event
 * @param property the property
 * @param[out] value points to storage of the property's type
 * @return UGStatusSuccess, UGStatusErrorInvalidValue for NULL arguments,
 *         UGStatusErrorUnknownProperty for an unknown property
 */
GRAIL_PUBLIC
UGStatus grail_event_get_property(const UGEvent event, UGEventProperty property,
				  void *value);

/**
 * Get the id of one of the slice's touches.
 *
 * @param slice the slice
 * @param index 0 .. number of touches - 1; touches are in the order they
 *        joined the gesture
 * @param[out] touch_id receives the touch id
 * @return UGStatusSuccess, UGStatusErrorInvalidIndex for a bad index,
 *         UGStatusErrorInvalidValue for NULL arguments
 */
GRAIL_PUBLIC
UGStatus grail_slice_get_touch_id(const UGSlice slice, unsigned int index,
				  UFTouchId *touch_id);

/**
 * Get a slice property.
 *
 * @param slice the slice
 * @param property the property
 * @param[out] value points to storage of the property's type
 * @return UGStatusSuccess, UGStatusErrorInvalidValue for NULL arguments,
 *         UGStatusErrorUnknownProperty for an unknown property
 */
GRAIL_PUBLIC
UGStatus grail_slice_get_property(const UGSlice slice, UGSliceProperty property,
				  void *value);

/**
 * Accept a gesture: its touches are accepted, every other undecided gesture
 * sharing a touch is cancelled, and construction is finished.
 *
 * If the touches were already accepted through another gesture, that
 * gesture is cancelled and this one takes over (an extension).  Not allowed
 * with atomic gestures.
 *
 * @param handle the handle
 * @param id the gesture id
 * @return UGStatusSuccess, UGStatusErrorInvalidGesture when no undecided
 *         gesture has this id, UGStatusErrorAtomicity when the gesture
 *         belongs to an atomic subscription (grail decides those itself),
 *         UGStatusErrorInvalidValue for a NULL handle
 */
GRAIL_PUBLIC
UGStatus grail_accept_gesture(UGHandle handle, unsigned int id);

/**
 * Reject a gesture: it is dropped without further events (queued events
 * the client has not taken yet are removed) and its touches are rejected
 * once no other gesture holds them.
 *
 * @param handle the handle
 * @param id the gesture id
 * @return UGStatusSuccess, UGStatusErrorInvalidGesture when no undecided
 *         gesture has this id, UGStatusErrorAtomicity when the gesture
 *         belongs to an atomic subscription (grail decides those itself),
 *         UGStatusErrorInvalidValue for a NULL handle
 */
GRAIL_PUBLIC
UGStatus grail_reject_gesture(UGHandle handle, unsigned int id);

/**
 * Get the type of an event.
 *
 * @param event the event
 * @return the type (UGEventTypeSlice; also for NULL)
 */
GRAIL_PUBLIC
UGEventType grail_event_get_type(const UGEvent event);

/**
 * Get the time of an event.
 *
 * @param event the event
 * @return the time in ms, 0 for NULL
 */
GRAIL_PUBLIC
uint64_t grail_event_get_time(const UGEvent event);

/**
 * Get the gesture id of a slice.
 *
 * @param slice the slice
 * @return the id, 0 for NULL
 */
GRAIL_PUBLIC
unsigned int grail_slice_get_id(const UGSlice slice);

/**
 * Get the state of a slice.
 *
 * @param slice the slice
 * @return the state, UGGestureStateBegin for NULL
 */
GRAIL_PUBLIC
UGGestureState grail_slice_get_state(const UGSlice slice);

/**
 * Get the subscription of a slice's gesture.
 *
 * @param slice the slice
 * @return the subscription, NULL for NULL
 */
GRAIL_PUBLIC
UGSubscription grail_slice_get_subscription(const UGSlice slice);

/**
 * Get the primitives recognized so far.
 *
 * @param slice the slice
 * @return the mask, 0 for NULL
 */
GRAIL_PUBLIC
UGGestureTypeMask grail_slice_get_recognized(const UGSlice slice);

/**
 * Get the number of touches of a slice.
 *
 * @param slice the slice
 * @return the count, 0 for NULL
 */
GRAIL_PUBLIC
unsigned int grail_slice_get_num_touches(const UGSlice slice);

/**
 * Get the X of the original centroid.
 *
 * @param slice the slice
 * @return window pixels (direct devices) or device units, 0 for NULL
 */
GRAIL_PUBLIC
float grail_slice_get_original_center_x(const UGSlice slice);

/**
 * Get the Y of the original centroid.
 *
 * @param slice the slice
 * @return window pixels (direct devices) or device units, 0 for NULL
 */
GRAIL_PUBLIC
float grail_slice_get_original_center_y(const UGSlice slice);

/**
 * Get the original mean distance of the touches from their centroid.
 *
 * @param slice the slice
 * @return the radius, 0 for NULL or a single touch
 */
GRAIL_PUBLIC
float grail_slice_get_original_radius(const UGSlice slice);

/**
 * Get the X of the centre of rotation of the per-slice transform.
 *
 * @param slice the slice
 * @return the coordinate, 0 for NULL or when the transform has no fixed point
 */
GRAIL_PUBLIC
float grail_slice_get_center_of_rotation_x(const UGSlice slice);

/**
 * Get the Y of the centre of rotation of the per-slice transform.
 *
 * @param slice the slice
 * @return the coordinate, 0 for NULL or when the transform has no fixed point
 */
GRAIL_PUBLIC
float grail_slice_get_center_of_rotation_y(const UGSlice slice);

/**
 * Get the transform from the previous slice to this one.
 *
 * @param slice the slice
 * @return the transform, owned by the slice; NULL for NULL
 */
GRAIL_PUBLIC
const UGTransform *grail_slice_get_transform(const UGSlice slice);

/**
 * Get the transform from the original touches to this slice.
 *
 * @param slice the slice
 * @return the transform, owned by the slice; NULL for NULL
 */
GRAIL_PUBLIC
const UGTransform *grail_slice_get_cumulative_transform(const UGSlice slice);

/**
 * Get the frame a slice was computed from.
 *
 * @param slice the slice
 * @return the frame, valid while the event lives; NULL for NULL
 *
 * grail 3.1 declared the return type `const UFFrame`; the qualifier had no
 * effect and makes compilers warn, so it is dropped (same ABI).
 */
GRAIL_PUBLIC
UFFrame grail_slice_get_frame(const UGSlice slice);

/**
 * Get whether construction of the gesture has finished.
 *
 * @param slice the slice
 * @return 1 or 0, 0 for NULL
 */
GRAIL_PUBLIC
int grail_slice_get_construction_finished(const UGSlice slice);

/**
 * Get whether the slice is the cancelled End of a gesture (utouch extension).
 *
 * @param slice the slice
 * @return 1 or 0, 0 for NULL
 * @see UGSlicePropertyCanceled
 */
GRAIL_PUBLIC
int grail_slice_get_canceled(const UGSlice slice);

/**
 * Get the X velocity of the centroid (utouch extension).
 *
 * @param slice the slice
 * @return window pixels or device units per ms, 0 for NULL
 * @see UGSlicePropertyVelocityX
 */
GRAIL_PUBLIC
float grail_slice_get_velocity_x(const UGSlice slice);

/**
 * Get the Y velocity of the centroid (utouch extension).
 *
 * @param slice the slice
 * @return window pixels or device units per ms, 0 for NULL
 * @see UGSlicePropertyVelocityY
 */
GRAIL_PUBLIC
float grail_slice_get_velocity_y(const UGSlice slice);

/**
 * Get the tap count of a tap (utouch extension).
 *
 * @param slice the slice
 * @return 1, 2, 3, ... on slices of a recognized tap; 0 otherwise and for NULL
 * @see UGSlicePropertyTapCount
 */
GRAIL_PUBLIC
unsigned int grail_slice_get_tap_count(const UGSlice slice);

/**
 * Get the edge an edge swipe began at (utouch extension).
 *
 * @param slice the slice
 * @return a UGEdge, 0 when the gesture is no recognized edge swipe or for NULL
 * @see UGSlicePropertyEdge
 */
GRAIL_PUBLIC
unsigned int grail_slice_get_edge(const UGSlice slice);

#ifdef __cplusplus
}
#endif

#endif /* GRAIL_OIF_GRAIL_H_ */
