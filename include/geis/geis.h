/*
 * utouch geis: the gesture engine interface (source compatible with the
 * geis 2.2 public API, both the v2 "advanced" interface and the deprecated
 * v1 "simplified" interface).
 *
 * The library turns touches from input devices into gesture events.  A
 * program creates a Geis instance with geis_new(), describes the gestures
 * it wants with subscriptions and filters, waits on the file descriptor
 * from geis_get_configuration(GEIS_CONFIGURATION_FD), and then calls
 * geis_dispatch_events() and geis_next_event() (or registers callbacks).
 *
 * A Geis instance and everything obtained from it must be used from one
 * thread at a time.  Every function accepts NULL objects and answers with
 * an error status or a zero value instead of crashing.
 *
 * utouch specific extensions (backend selection, recordings) are in
 * <utouch/geis.h>.
 */
#ifndef GEIS_GEIS_H_
#define GEIS_GEIS_H_

#include <stddef.h>
#include <stdint.h>

#ifndef GEIS_API
#if defined _WIN32 || defined __CYGWIN__
#ifdef BUILDING_GEIS
#define GEIS_API __declspec(dllexport)
#else
#define GEIS_API __declspec(dllimport)
#endif
#elif defined __GNUC__
#define GEIS_API __attribute__((visibility("default")))
#else
#define GEIS_API
#endif
#endif

/* Marks functions whose variable argument list ends with a NULL. */
#ifndef GEIS_VARARG
#if defined __GNUC__
#define GEIS_VARARG __attribute__((sentinel(0)))
#else
#define GEIS_VARARG
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Compile-time feature test: the v1 (simplified) interface is present. */
#define GEIS_VERSION_1_0  1
/** Compile-time feature test: the v2 (advanced) interface is present. */
#define GEIS_VERSION_2_0  20101122

/* ------------------------------------------------------------------ */
/* Scalar types shared by both interfaces                              */
/* ------------------------------------------------------------------ */

/** A count or an index. */
typedef size_t      GeisSize;
/** A truth value: GEIS_FALSE or GEIS_TRUE. */
typedef uint32_t    GeisBoolean;
/** A signed 32-bit integer value. */
typedef int32_t     GeisInteger;
/** A real value. */
typedef float       GeisFloat;
/** An untyped pointer value. */
typedef void       *GeisPointer;
/** A NUL-terminated UTF-8 string owned by the library unless stated. */
typedef const char *GeisString;

#define GEIS_FALSE 0
#define GEIS_TRUE  1

/** Result of a geis call. */
typedef enum GeisStatus {
	GEIS_STATUS_SUCCESS       = 0,    /**< the call did what was asked */
	GEIS_STATUS_CONTINUE      = 20,   /**< success, and more data waits */
	GEIS_STATUS_EMPTY         = 21,   /**< success, but there was nothing */
	GEIS_STATUS_NOT_SUPPORTED = 10,   /**< the feature or item is unknown */
	GEIS_BAD_ARGUMENT         = 1000, /**< bad argument (v1 interface) */
	GEIS_UNKNOWN_ERROR        = 9999, /**< other failure (v1 interface) */
	GEIS_STATUS_BAD_ARGUMENT  = -100, /**< bad argument (v2 interface) */
	GEIS_STATUS_UNKNOWN_ERROR = -999  /**< other failure (v2 interface) */
} GeisStatus;

/** The type of the value an attribute holds. */
typedef enum GeisAttrType {
	GEIS_ATTR_TYPE_UNKNOWN,  /**< no value / not known */
	GEIS_ATTR_TYPE_BOOLEAN,  /**< a GeisBoolean */
	GEIS_ATTR_TYPE_FLOAT,    /**< a GeisFloat */
	GEIS_ATTR_TYPE_INTEGER,  /**< a GeisInteger */
	GEIS_ATTR_TYPE_POINTER,  /**< a GeisPointer */
	GEIS_ATTR_TYPE_STRING    /**< a GeisString */
} GeisAttrType;

/* Gesture class names. */
#define GEIS_GESTURE_DRAG    "Drag"
#define GEIS_GESTURE_PINCH   "Pinch"
#define GEIS_GESTURE_ROTATE  "Rotate"
#define GEIS_GESTURE_TAP     "Tap"
#define GEIS_GESTURE_TOUCH   "Touch"
/** Listed for compatibility; no recognizer produces flicks. */
#define GEIS_GESTURE_FLICK   "Flick"

/*
 * Numeric gesture type ids.  They are the v1 callback's gesture_type and
 * the v2 gesture class ids ("class id").
 */
#define GEIS_GESTURE_PRIMITIVE_DRAG    0
#define GEIS_GESTURE_PRIMITIVE_PINCH   1
#define GEIS_GESTURE_PRIMITIVE_ROTATE  2
#define GEIS_GESTURE_PRIMITIVE_TAP    15
#define GEIS_GESTURE_PRIMITIVE_TOUCH  32
#define GEIS_GESTURE_ID_FLICK        128

/* v1 gesture type names: "<class>,touch=<count>". */
#define GEIS_GESTURE_TYPE_DRAG1   "Drag,touch=1"
#define GEIS_GESTURE_TYPE_DRAG2   "Drag,touch=2"
#define GEIS_GESTURE_TYPE_DRAG3   "Drag,touch=3"
#define GEIS_GESTURE_TYPE_DRAG4   "Drag,touch=4"
#define GEIS_GESTURE_TYPE_DRAG5   "Drag,touch=5"
#define GEIS_GESTURE_TYPE_PINCH1  "Pinch,touch=1"
#define GEIS_GESTURE_TYPE_PINCH2  "Pinch,touch=2"
#define GEIS_GESTURE_TYPE_PINCH3  "Pinch,touch=3"
#define GEIS_GESTURE_TYPE_PINCH4  "Pinch,touch=4"
#define GEIS_GESTURE_TYPE_PINCH5  "Pinch,touch=5"
#define GEIS_GESTURE_TYPE_ROTATE1 "Rotate,touch=1"
#define GEIS_GESTURE_TYPE_ROTATE2 "Rotate,touch=2"
#define GEIS_GESTURE_TYPE_ROTATE3 "Rotate,touch=3"
#define GEIS_GESTURE_TYPE_ROTATE4 "Rotate,touch=4"
#define GEIS_GESTURE_TYPE_ROTATE5 "Rotate,touch=5"
#define GEIS_GESTURE_TYPE_TAP1    "Tap,touch=1"
#define GEIS_GESTURE_TYPE_TAP2    "Tap,touch=2"
#define GEIS_GESTURE_TYPE_TAP3    "Tap,touch=3"
#define GEIS_GESTURE_TYPE_TAP4    "Tap,touch=4"
#define GEIS_GESTURE_TYPE_TAP5    "Tap,touch=5"
#define GEIS_GESTURE_TYPE_TOUCH1  "Touch,touch=1"
#define GEIS_GESTURE_TYPE_TOUCH2  "Touch,touch=2"
#define GEIS_GESTURE_TYPE_TOUCH3  "Touch,touch=3"
#define GEIS_GESTURE_TYPE_TOUCH4  "Touch,touch=4"
#define GEIS_GESTURE_TYPE_TOUCH5  "Touch,touch=5"
/** v1 "system gesture" pseudo type; accepted and ignored. */
#define GEIS_GESTURE_TYPE_SYSTEM  "Sysflags"
#define GEIS_GESTURE_TYPE_FLICK1  "Flick,touch=1"
#define GEIS_GESTURE_TYPE_FLICK2  "Flick,touch=2"
#define GEIS_GESTURE_TYPE_FLICK3  "Flick,touch=3"
#define GEIS_GESTURE_TYPE_FLICK4  "Flick,touch=4"
#define GEIS_GESTURE_TYPE_FLICK5  "Flick,touch=5"

/*
 * Gesture frame attributes (names of GeisAttr in a GeisFrame, and of the
 * v1 GeisGestureAttr array).  Coordinates of direct devices are window
 * coordinates, of indirect devices device coordinates.  Angles are in
 * radians, times in milliseconds.
 */
/** Float: cumulative rotation since the gesture began. */
#define GEIS_GESTURE_ATTRIBUTE_ANGLE            "angle"
/** Float: rotation since the previous event of the gesture. */
#define GEIS_GESTURE_ATTRIBUTE_ANGLE_DELTA      "angle delta"
/** Float: angle delta divided by the elapsed milliseconds. */
#define GEIS_GESTURE_ATTRIBUTE_ANGULAR_VELOCITY "angular velocity"
/** Float: bounding box of the gesture's touches (left). */
#define GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X1   "boundingbox x1"
/** Float: bounding box of the gesture's touches (top). */
#define GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y1   "boundingbox y1"
/** Float: bounding box of the gesture's touches (right). */
#define GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X2   "boundingbox x2"
/** Float: bounding box of the gesture's touches (bottom). */
#define GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y2   "boundingbox y2"
/** Integer: the child window the gesture happened in (0 if none). */
#define GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID  "child window id"
/** Float: centre of rotation, x. */
#define GEIS_GESTURE_ATTRIBUTE_CENTROID_X       "centroid x"
/** Float: centre of rotation, y. */
#define GEIS_GESTURE_ATTRIBUTE_CENTROID_Y       "centroid y"
/** Float: change of position x since the previous event. */
#define GEIS_GESTURE_ATTRIBUTE_DELTA_X          "delta x"
/** Float: change of position y since the previous event. */
#define GEIS_GESTURE_ATTRIBUTE_DELTA_Y          "delta y"
/** Integer: id of the input device. */
#define GEIS_GESTURE_ATTRIBUTE_DEVICE_ID        "device id"
/** Integer: the window (region) the gesture was delivered to. */
#define GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID  "event window id"
/** Float: focus point x (direct: centroid; indirect: last touch). */
#define GEIS_GESTURE_ATTRIBUTE_FOCUS_X          "focus x"
/** Float: focus point y. */
#define GEIS_GESTURE_ATTRIBUTE_FOCUS_Y          "focus y"
/** String: the v1 gesture type name (v1 interface only). */
#define GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME     "gesture name"
/** Float: gesture position x (original centre moved by the transform). */
#define GEIS_GESTURE_ATTRIBUTE_POSITION_X       "position x"
/** Float: gesture position y. */
#define GEIS_GESTURE_ATTRIBUTE_POSITION_Y       "position y"
/** Float: radius delta divided by the elapsed milliseconds. */
#define GEIS_GESTURE_ATTRIBUTE_RADIAL_VELOCITY  "radial velocity"
/** Float: ratio of the radius to the previous event's radius. */
#define GEIS_GESTURE_ATTRIBUTE_RADIUS_DELTA     "radius delta"
/** Float: cumulative scale factor since the gesture began (1 = none). */
#define GEIS_GESTURE_ATTRIBUTE_RADIUS           "radius"
/** Integer: the root window of the region. */
#define GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID   "root window id"
/** Integer: duration of a tap in milliseconds. */
#define GEIS_GESTURE_ATTRIBUTE_TAP_TIME         "tap time"
/** Integer: time of the event in milliseconds. */
#define GEIS_GESTURE_ATTRIBUTE_TIMESTAMP        "timestamp"
/** Integer: number of touches in the gesture. */
#define GEIS_GESTURE_ATTRIBUTE_TOUCHES          "touches"
/** Float: delta x divided by the elapsed milliseconds. */
#define GEIS_GESTURE_ATTRIBUTE_VELOCITY_X       "velocity x"
/** Float: delta y divided by the elapsed milliseconds. */
#define GEIS_GESTURE_ATTRIBUTE_VELOCITY_Y       "velocity y"
/* Per-touch values of the first five touches (id: integer, x/y: float). */
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_0_ID       "touch 0 id"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_0_X        "touch 0 x"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_0_Y        "touch 0 y"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_1_ID       "touch 1 id"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_1_X        "touch 1 x"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_1_Y        "touch 1 y"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_2_ID       "touch 2 id"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_2_X        "touch 2 x"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_2_Y        "touch 2 y"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_3_ID       "touch 3 id"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_3_X        "touch 3 x"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_3_Y        "touch 3 y"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_4_ID       "touch 4 id"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_4_X        "touch 4 x"
#define GEIS_GESTURE_ATTRIBUTE_TOUCH_4_Y        "touch 4 y"

/* ------------------------------------------------------------------ */
/* v1 interface (deprecated; implemented on top of v2)                 */
/* ------------------------------------------------------------------ */

/** Opaque v1 instance, bound to one window. */
typedef struct _GeisInstance *GeisInstance;

/** Describes the window a v1 instance works on. */
typedef struct GeisWinInfo {
	uint32_t win_type;  /**< kind of @p win_info, e.g. GEIS_XCB_FULL_WINDOW */
	void    *win_info;  /**< points to a structure selected by win_type */
} GeisWinInfo;

/* Packs four characters into a little-endian 32-bit tag. */
static inline uint32_t _geis_win_type_str(const char tag[5])
{
	return (uint32_t)(unsigned char)tag[0]
	     | (uint32_t)(unsigned char)tag[1] << 8
	     | (uint32_t)(unsigned char)tag[2] << 16
	     | (uint32_t)(unsigned char)tag[3] << 24;
}
#define geis_win_type_str(tag) _geis_win_type_str(#tag)

/** win_type of a GeisXcbWinInfo: a whole X11 window ('GXWF'). */
#define GEIS_XCB_FULL_WINDOW geis_win_type_str(GXWF)

/** Window description for GEIS_XCB_FULL_WINDOW. */
typedef struct _GeisXcbWinInfo {
	const char *display_name;  /**< X display, NULL for $DISPLAY */
	int        *screenp;       /**< screen number, or NULL */
	uint32_t    window_id;     /**< the X window */
} GeisXcbWinInfo;

/**
 * Create a v1 instance for one window.
 *
 * @param win_info the window; win_type must be GEIS_XCB_FULL_WINDOW.  On
 *        the recording and evdev backends (see <utouch/geis.h>) the window
 *        id only names the region reported in the events.  As in geis 2.2,
 *        the type geis_win_type_str(Test) selects the test backend
 *        (UTOUCH_GEIS_INIT_MOCK in <utouch/geis.h>) and needs no window
 *        info (win_info->win_info may be NULL).
 * @param[out] geis_instance receives the instance
 * @return GEIS_STATUS_SUCCESS, GEIS_BAD_ARGUMENT for NULL or unknown
 *         window types, GEIS_UNKNOWN_ERROR if no backend could start
 */
GEIS_API GeisStatus geis_init(GeisWinInfo *win_info, GeisInstance *geis_instance);

/**
 * Destroy a v1 instance and everything it subscribed.
 *
 * @param geis_instance the instance
 * @return GEIS_STATUS_SUCCESS, or GEIS_BAD_ARGUMENT for NULL
 */
GEIS_API GeisStatus geis_finish(GeisInstance geis_instance);

/** v1 configuration item: the pollable file descriptor (value type int). */
#define GEIS_CONFIG_UNIX_FD 10001

/**
 * Ask whether a v1 configuration item exists.
 *
 * @param geis_instance the instance
 * @param configuration_item e.g. GEIS_CONFIG_UNIX_FD
 * @return GEIS_STATUS_SUCCESS if supported, GEIS_STATUS_NOT_SUPPORTED if
 *         not, GEIS_BAD_ARGUMENT for a NULL instance
 */
GEIS_API GeisStatus geis_configuration_supported(GeisInstance geis_instance,
						 int configuration_item);

/**
 * Read a v1 configuration item.
 *
 * @param geis_instance the instance
 * @param configuration_item the item
 * @param[out] value where to store the value (an int for
 *        GEIS_CONFIG_UNIX_FD)
 * @return GEIS_STATUS_SUCCESS, GEIS_BAD_ARGUMENT for NULL arguments,
 *         GEIS_STATUS_NOT_SUPPORTED for an unknown item (as geis 2.2.17)
 */
GEIS_API GeisStatus geis_configuration_get_value(GeisInstance geis_instance,
						 int configuration_item,
						 void *value);

/**
 * Change a v1 configuration item.  No v1 item is writable.
 *
 * @param geis_instance the instance
 * @param configuration_item the item
 * @param value the new value
 * @return GEIS_STATUS_NOT_SUPPORTED (as geis 2.2.17), GEIS_BAD_ARGUMENT
 *         for NULL arguments
 */
GEIS_API GeisStatus geis_configuration_set_value(GeisInstance geis_instance,
						 int configuration_item,
						 void *value);

/**
 * Process pending input and call the v1 callbacks for every event.
 * Call it when the GEIS_CONFIG_UNIX_FD descriptor is readable.
 *
 * @param geis_instance the instance
 * @return GEIS_STATUS_SUCCESS, GEIS_BAD_ARGUMENT for NULL, or
 *         GEIS_UNKNOWN_ERROR when the backend failed (e.g. lost its input)
 */
GEIS_API GeisStatus geis_event_dispatch(GeisInstance geis_instance);

/** v1 numeric device id (the v2 "device id" attribute). */
typedef unsigned int GeisInputDeviceId;

/** v1 wildcard: every input device. */
#define GEIS_ALL_INPUT_DEVICES ((GeisInputDeviceId)0)

/**
 * v1 device callback.
 *
 * @param cookie the value given to geis_input_devices()
 * @param device_id the device
 * @param attrs the device's attributes (GeisGestureAttr array), ended by an
 *        entry whose name is NULL; valid during the call only
 */
typedef void (*GeisInputCallback)(void *cookie, GeisInputDeviceId device_id,
				  void *attrs);

/** v1 device callbacks; any of them may be NULL. */
typedef struct GeisInputFuncs {
	GeisInputCallback added;    /**< a device appeared */
	GeisInputCallback changed;  /**< a device changed (never called) */
	GeisInputCallback removed;  /**< a device disappeared */
} GeisInputFuncs;

/**
 * Register v1 device callbacks.  Devices already known are reported to
 * them before the call returns (as geis 2.2.17), later ones from
 * geis_event_dispatch().
 *
 * @param geis_instance the instance
 * @param func the callbacks (copied)
 * @param cookie passed to the callbacks unchanged
 * @return GEIS_STATUS_SUCCESS, or GEIS_BAD_ARGUMENT for NULL arguments
 */
GEIS_API GeisStatus geis_input_devices(GeisInstance geis_instance,
				       GeisInputFuncs *func, void *cookie);

/** v1 gesture type number (GEIS_GESTURE_PRIMITIVE_*). */
typedef unsigned int GeisGestureType;
/** Identifies one gesture (v1 and v2). */
typedef unsigned int GeisGestureId;

/** v1 wildcard: every gesture type. */
#define GEIS_ALL_GESTURES ((GeisGestureType)0)
/** An id no gesture has. */
#define GEIS_NO_GESTURE_ID ((GeisGestureId)0)

/** One v1 gesture attribute: a name, a type and a value. */
typedef struct GeisGestureAttr {
	GeisString name;    /**< attribute name (GEIS_GESTURE_ATTRIBUTE_*) */
	GeisAttrType type;  /**< selects the member of the union */
	__extension__ union {
		GeisBoolean boolean_val;
		GeisFloat   float_val;
		GeisInteger integer_val;
		GeisString  string_val;
	};
} GeisGestureAttr;

/**
 * v1 gesture callback.
 *
 * @param cookie the value given to geis_subscribe()
 * @param gesture_type the GEIS_GESTURE_PRIMITIVE_* of the gesture
 * @param gesture_id the gesture
 * @param attr_count number of entries in @p attrs
 * @param attrs the attributes; valid during the call only
 */
typedef void (*GeisGestureCallback)(void *cookie, GeisGestureType gesture_type,
				    GeisGestureId gesture_id,
				    GeisSize attr_count, GeisGestureAttr *attrs);

/** v1 gesture callbacks; any of them may be NULL. */
typedef struct GeisGestureFuncs {
	GeisGestureCallback added;    /**< a gesture type became available */
	GeisGestureCallback removed;  /**< a gesture type went away */
	GeisGestureCallback start;    /**< a gesture began */
	GeisGestureCallback update;   /**< a gesture changed */
	GeisGestureCallback finish;   /**< a gesture ended */
} GeisGestureFuncs;

/**
 * Subscribe a v1 instance to gestures.
 *
 * @param geis_instance the instance
 * @param input_list array of device ids ending with 0, or
 *        GEIS_ALL_INPUT_DEVICES (NULL) for every device
 * @param gesture_list NULL-terminated array of GEIS_GESTURE_TYPE_* names,
 *        or GEIS_ALL_GESTURES (NULL) for all
 * @param funcs the callbacks (copied)
 * @param cookie passed to the callbacks unchanged
 * @return GEIS_STATUS_SUCCESS, GEIS_BAD_ARGUMENT for bad arguments
 */
GEIS_API GeisStatus geis_subscribe(GeisInstance geis_instance,
				   GeisInputDeviceId *input_list,
				   const char **gesture_list,
				   GeisGestureFuncs *funcs, void *cookie);

/**
 * Remove a v1 subscription.
 *
 * @param geis_instance the instance
 * @param gesture_list ignored: every gesture of the instance is
 *        unsubscribed
 * @return GEIS_STATUS_SUCCESS, GEIS_BAD_ARGUMENT for NULL, or
 *         GEIS_STATUS_UNKNOWN_ERROR with nothing subscribed (as geis 2.2.17)
 */
GEIS_API GeisStatus geis_unsubscribe(GeisInstance geis_instance,
				     GeisGestureType *gesture_list);

/* ------------------------------------------------------------------ */
/* v2 interface: the instance                                          */
/* ------------------------------------------------------------------ */

/** Opaque v2 instance. */
typedef struct _Geis *Geis;

/* Standard init arguments (no parameter follows them). */
/** Accepted and ignored: utouch geis provides no network service. */
#define GEIS_INIT_SERVICE_PROVIDER       "org.libgeis.init.server"
/** Send GEIS_EVENT_DEVICE_AVAILABLE / _UNAVAILABLE events. */
#define GEIS_INIT_TRACK_DEVICES          "org.libgeis.init.track-devices"
/** Send GEIS_EVENT_CLASS_AVAILABLE events for the gesture classes. */
#define GEIS_INIT_TRACK_GESTURE_CLASSES  "org.libgeis.init.track-gesture-classes"
/** Start the backend inside geis_new(); INIT_COMPLETE is queued at once. */
#define GEIS_INIT_SYNCHRONOUS_START      "org.libgeis.init.synchronous-start"

/* Vendor init arguments (no parameter follows them). */
/** Accepted for compatibility; there is no DBus backend (error recorded). */
#define GEIS_INIT_DBUS_BACKEND           "com.canonical.oif.backend.dbus"
/** The default backend selection (see <utouch/geis.h>). */
#define GEIS_INIT_GRAIL_BACKEND          "com.canonical.oif.backend.grail"
/** Accepted for compatibility; same as GEIS_INIT_GRAIL_BACKEND. */
#define GEIS_INIT_XCB_BACKEND            "com.canonical.oif.backend.xcb"
/** Turn off atomic gestures (on by default, as in geis 2.2). */
#define GEIS_INIT_NO_ATOMIC_GESTURES     "com.canonical.oif.no-atomic.gestures"
/** Also deliver TENTATIVE_* events for not yet recognized gestures. */
#define GEIS_INIT_SEND_TENTATIVE_EVENTS  "com.canonical.oif.events.tentative"
/** Also deliver updates that carry no new time (dt = 0). */
#define GEIS_INIT_SEND_SYNCHRONOS_EVENTS "com.canonical.oif.events.synchronous"

/**
 * Create a v2 instance.
 *
 * @param init_arg_name the first init argument name, followed by the rest
 *        and a terminating NULL (pass just NULL for no arguments).  Only
 *        the utouch backend arguments of <utouch/geis.h> take a
 *        parameter.  Unknown names are skipped and recorded in the global
 *        error stack (geis_error_count(NULL)).
 * @return the instance, or NULL if the backend could not be created (the
 *         reason is on the global error stack)
 *
 * Not marked GEIS_VARARG (sentinel), so that the documented no-argument
 * form geis_new(NULL) compiles without warnings.
 */
GEIS_API Geis geis_new(GeisString init_arg_name, ...);

/**
 * Destroy a v2 instance with its subscriptions, filters, regions, devices
 * and queued events.  Events the program holds must still be deleted
 * with geis_event_delete(), but they must not be used after this call:
 * neither their attributes nor their groups (geis_group_reject() on a
 * group of a deleted instance is a use after free, like any call on the
 * deleted instance itself).  Called from a callback during
 * geis_dispatch_events(), it only marks the instance: no callback is called
 * any more and the dispatch frees the instance as it returns.  Called
 * from the instance's log handler (utouch_geis_set_log_handler()) outside
 * a dispatch it is refused: the call that logged still runs on it.
 *
 * @param geis the instance
 * @return GEIS_STATUS_SUCCESS, or GEIS_STATUS_BAD_ARGUMENT for NULL or
 *         from the instance's log handler outside a dispatch
 */
GEIS_API GeisStatus geis_delete(Geis geis);

/**
 * Number of errors recorded by the last failing call.  Each call of the v2
 * API that reports an error clears the stack first.
 *
 * @param geis the instance, or NULL for the process-wide stack used when
 *        there is no instance (geis_new() failures, NULL handles)
 * @return the number of entries
 */
GEIS_API GeisSize geis_error_count(Geis geis);

/**
 * Status code of one error stack entry.
 *
 * @param geis the instance or NULL (see geis_error_count())
 * @param index 0 .. geis_error_count() - 1
 * @return the code, or GEIS_STATUS_BAD_ARGUMENT for a bad index
 */
GEIS_API GeisStatus geis_error_code(Geis geis, GeisSize index);

/**
 * Human readable text of one error stack entry.
 *
 * @param geis the instance or NULL (see geis_error_count())
 * @param index 0 .. geis_error_count() - 1
 * @return the text (valid until the next call that records errors), or
 *         NULL for a bad index
 */
GEIS_API GeisString geis_error_message(Geis geis, GeisSize index);

/* Configuration items of geis_get/set_configuration(). */
/** int, read only: the pollable file descriptor of the instance. */
#define GEIS_CONFIGURATION_FD "org.libgeis.configuration.fd"
/** GeisInteger: 16 at first; any value set reads back and, as in geis
 * 2.2.17, limits nothing (the queue keeps every event). */
#define GEIS_CONFIG_MAX_EVENTS  "com.canonical.oif.max_events"
/** GeisBoolean: atomic gestures (applies to subscriptions activated later). */
#define GEIS_CONFIG_ATOMIC_GESTURES "com.canonical.use.atomic.gestures"
/** GeisBoolean: deliver tentative events. */
#define GEIS_CONFIG_SEND_TENTATIVE_EVENTS  "com.canonical.oif.events.tentative"
/** GeisBoolean: deliver updates without time difference. */
#define GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS "com.canonical.oif.events.synchronous"
/* Per subscription (geis_subscription_get/set_configuration()). */
/** GeisFloat, metres: movement before a drag is recognized. */
#define GEIS_CONFIG_DRAG_THRESHOLD "com.canonical.oif.drag.threshold"
/** GeisInteger, ms: time allowed to reach the drag threshold. */
#define GEIS_CONFIG_DRAG_TIMEOUT "com.canonical.oif.drag.timeout"
/** GeisFloat, scale ratio: size change before a pinch is recognized. */
#define GEIS_CONFIG_PINCH_THRESHOLD "com.canonical.oif.pinch.threshold"
/** GeisInteger, ms: time allowed to reach the pinch threshold. */
#define GEIS_CONFIG_PINCH_TIMEOUT "com.canonical.oif.pinch.timeout"
/** GeisFloat, radians: rotation before a rotate is recognized. */
#define GEIS_CONFIG_ROTATE_THRESHOLD "com.canonical.oif.rotate.threshold"
/** GeisInteger, ms: time allowed to reach the rotate threshold. */
#define GEIS_CONFIG_ROTATE_TIMEOUT "com.canonical.oif.rotate.timeout"
/** GeisFloat, metres: most movement a tap may have. */
#define GEIS_CONFIG_TAP_THRESHOLD "com.canonical.oif.tap.threshold"
/** GeisInteger, ms: longest duration of a tap. */
#define GEIS_CONFIG_TAP_TIMEOUT "com.canonical.oif.tap.timeout"
/**
 * Read only, for debugging.  With geis_get_configuration(): the number of
 * active subscriptions of the instance, a GeisInteger.  With
 * geis_subscription_get_configuration() (where geis 2.2 answered it): the
 * number of grail subscriptions the subscription holds, one per (filter,
 * device, window) while it is active and 0 while it is not, a GeisSize.
 */
#define GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS "com.canonical.oif.debug.active_subs"

/**
 * Read an instance configuration item.
 *
 * @param geis the instance
 * @param configuration_item_name one of the GEIS_CONFIG* names above
 * @param[out] configuration_item_value where to store the value; its type
 *        depends on the item
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_NOT_SUPPORTED for unknown items,
 *         GEIS_STATUS_BAD_ARGUMENT for NULL arguments
 */
GEIS_API GeisStatus geis_get_configuration(Geis geis,
					   GeisString configuration_item_name,
					   void *configuration_item_value);

/**
 * Change an instance configuration item.
 *
 * @param geis the instance
 * @param configuration_item_name a writable GEIS_CONFIG* name
 * @param configuration_item_value points to the new value
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_NOT_SUPPORTED for unknown or
 *         read-only items, GEIS_STATUS_BAD_ARGUMENT for NULL arguments or
 *         bad values
 */
GEIS_API GeisStatus geis_set_configuration(Geis geis,
					   GeisString configuration_item_name,
					   void *configuration_item_value);

/* ------------------------------------------------------------------ */
/* Attributes                                                          */
/* ------------------------------------------------------------------ */

/** A named, typed value owned by the object it was read from. */
typedef struct _GeisAttr *GeisAttr;

/**
 * Name of an attribute.
 * @param attr the attribute
 * @return the name, NULL for a NULL attribute
 */
GEIS_API GeisString geis_attr_name(GeisAttr attr);

/**
 * Type of an attribute's value.
 * @param attr the attribute
 * @return the type, GEIS_ATTR_TYPE_UNKNOWN for NULL
 */
GEIS_API GeisAttrType geis_attr_type(GeisAttr attr);

/**
 * Value of a boolean attribute.
 * @param attr the attribute
 * @return the value; GEIS_FALSE for NULL or another type
 */
GEIS_API GeisBoolean geis_attr_value_to_boolean(GeisAttr attr);

/**
 * Value of a float attribute (integers are converted).
 * @param attr the attribute
 * @return the value; 0 for NULL or another type
 */
GEIS_API GeisFloat geis_attr_value_to_float(GeisAttr attr);

/**
 * Value of an integer attribute (booleans are converted).
 * @param attr the attribute
 * @return the value; 0 for NULL or another type
 */
GEIS_API GeisInteger geis_attr_value_to_integer(GeisAttr attr);

/**
 * Value of a pointer attribute.
 * @param attr the attribute
 * @return the value; NULL for NULL or another type
 */
GEIS_API GeisPointer geis_attr_value_to_pointer(GeisAttr attr);

/**
 * Value of a string attribute.
 * @param attr the attribute
 * @return the value (owned by the attribute); NULL for NULL or another type
 */
GEIS_API GeisString geis_attr_value_to_string(GeisAttr attr);

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

/** Kinds of event. */
typedef enum _GeisEventType {
	GEIS_EVENT_DEVICE_AVAILABLE   = 1000,
	GEIS_EVENT_DEVICE_UNAVAILABLE = 1010,
	GEIS_EVENT_CLASS_AVAILABLE    = 2000,
	GEIS_EVENT_CLASS_CHANGED      = 2005,
	GEIS_EVENT_CLASS_UNAVAILABLE  = 2010,
	GEIS_EVENT_GESTURE_BEGIN      = 3000,
	GEIS_EVENT_GESTURE_UPDATE     = 3010,
	GEIS_EVENT_GESTURE_END        = 3020,
	GEIS_EVENT_TENTATIVE_BEGIN    = 3500,
	GEIS_EVENT_TENTATIVE_UPDATE   = 3510,
	GEIS_EVENT_TENTATIVE_END      = 3520,
	GEIS_EVENT_INIT_COMPLETE      = 4000,
	GEIS_EVENT_USER_DEFINED       = 6000,
	GEIS_EVENT_ERROR              = 7000
} GeisEventType;

/** An event; the receiver owns it and frees it with geis_event_delete(). */
typedef struct _GeisEvent *GeisEvent;

/**
 * Free an event and everything read from it (attributes, group sets,
 * frames, touch sets).
 * @param event the event; NULL is ignored
 */
GEIS_API void geis_event_delete(GeisEvent event);

/**
 * Kind of an event.
 * @param event the event
 * @return the type; 0 for NULL
 */
GEIS_API GeisEventType geis_event_type(GeisEvent event);

/**
 * Number of attributes of an event.
 * @param event the event
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_event_attr_count(GeisEvent event);

/**
 * Attribute of an event by position.
 * @param event the event
 * @param index 0 .. geis_event_attr_count() - 1
 * @return the attribute, NULL if out of range
 */
GEIS_API GeisAttr geis_event_attr(GeisEvent event, GeisSize index);

/**
 * Attribute of an event by name, e.g. GEIS_EVENT_ATTRIBUTE_GROUPSET.
 * @param event the event
 * @param attr_name the name
 * @return the attribute, NULL if absent
 */
GEIS_API GeisAttr geis_event_attr_by_name(GeisEvent event, GeisString attr_name);

/**
 * Event callback.  The callback owns @p event and must delete it.
 *
 * @param geis the instance
 * @param event the event
 * @param context the value given at registration
 */
typedef void (*GeisEventCallback)(Geis geis, GeisEvent event, void *context);

/** Passed as a callback: restore the default (queue for geis_next_event()). */
#define GEIS_DEFAULT_EVENT_CALLBACK ((GeisEventCallback)0)

/**
 * Deliver events to a function during geis_dispatch_events() instead of
 * queueing them.  Device and class events go to their own callbacks when
 * those are registered.  The callback runs after each input frame's events
 * are known, so it may accept or reject gestures in time.  It may call
 * geis_delete() on the instance: that returns GEIS_STATUS_SUCCESS, no
 * callback is called any more, and geis_dispatch_events() frees the
 * instance as it returns (GEIS_STATUS_SUCCESS); the instance must not be
 * used after the callback.
 *
 * @param geis the instance
 * @param event_callback the function, or GEIS_DEFAULT_EVENT_CALLBACK
 * @param context passed to the function unchanged
 */
GEIS_API void geis_register_event_callback(Geis geis,
					   GeisEventCallback event_callback,
					   void *context);

/**
 * Process all pending input: read the backend, run the recognizer, fire
 * due timeouts, and deliver the resulting events to the callbacks or the
 * queue.  Call it when the configuration fd is readable.
 *
 * @param geis the instance
 * @return GEIS_STATUS_SUCCESS when all input was handled,
 *         GEIS_STATUS_CONTINUE when more input is already waiting,
 *         GEIS_STATUS_EMPTY when there was nothing to do (e.g. a recording
 *         finished), GEIS_STATUS_BAD_ARGUMENT for NULL,
 *         GEIS_STATUS_UNKNOWN_ERROR if the backend failed
 */
GEIS_API GeisStatus geis_dispatch_events(Geis geis);

/**
 * Take the oldest queued event.
 *
 * @param geis the instance
 * @param[out] event receives the event (unchanged if the queue is empty)
 * @return GEIS_STATUS_SUCCESS if an event was returned and the queue is
 *         now empty, GEIS_STATUS_CONTINUE if more events wait,
 *         GEIS_STATUS_EMPTY if there was none, GEIS_STATUS_BAD_ARGUMENT for
 *         NULL arguments
 */
GEIS_API GeisStatus geis_next_event(Geis geis, GeisEvent *event);

/* ------------------------------------------------------------------ */
/* Devices                                                             */
/* ------------------------------------------------------------------ */

/** Event attribute (pointer to GeisDevice) of device events. */
#define GEIS_EVENT_ATTRIBUTE_DEVICE             "device"

/** String: the device name. */
#define GEIS_DEVICE_ATTRIBUTE_NAME              "device name"
/** Integer: the id, unique within an instance, never 0. */
#define GEIS_DEVICE_ATTRIBUTE_ID                "device id"
/** Integer: most simultaneous touches (0 = unknown). */
#define GEIS_DEVICE_ATTRIBUTE_TOUCHES           "device touches"
/** Boolean: touches land where they are shown (touchscreen). */
#define GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH      "direct touch"
/** Boolean: touches move a pointer independently (e.g. a touch mouse). */
#define GEIS_DEVICE_ATTRIBUTE_INDEPENDENT_TOUCH "independent touch"
/** Float: X axis minimum in device units. */
#define GEIS_DEVICE_ATTRIBUTE_MIN_X             "device X minimum"
/** Float: X axis maximum in device units. */
#define GEIS_DEVICE_ATTRIBUTE_MAX_X             "device X maximum"
/** Float: X axis resolution in device units per metre. */
#define GEIS_DEVICE_ATTRIBUTE_RES_X             "device X resolution"
/** Float: Y axis minimum in device units. */
#define GEIS_DEVICE_ATTRIBUTE_MIN_Y             "device Y minimum"
/** Float: Y axis maximum in device units. */
#define GEIS_DEVICE_ATTRIBUTE_MAX_Y             "device Y maximum"
/** Float: Y axis resolution in device units per metre. */
#define GEIS_DEVICE_ATTRIBUTE_RES_Y             "device Y resolution"

/** A reference-counted input device description. */
typedef struct _GeisDevice *GeisDevice;

/**
 * Deliver device events to a function instead of the event callback or
 * the queue.
 *
 * @param geis the instance
 * @param event_callback the function, or GEIS_DEFAULT_EVENT_CALLBACK
 * @param context passed to the function unchanged
 */
GEIS_API void geis_register_device_callback(Geis geis,
					    GeisEventCallback event_callback,
					    void *context);

/**
 * Look up a known device.
 *
 * @param geis the instance
 * @param device_id the "device id"
 * @return the device (not referenced for the caller), NULL if unknown
 */
GEIS_API GeisDevice geis_get_device(Geis geis, GeisInteger device_id);

/**
 * Take a reference to a device.
 * @param device the device
 * @return @p device
 */
GEIS_API GeisDevice geis_device_ref(GeisDevice device);

/**
 * Drop a reference to a device; the last one frees it.
 * @param device the device; NULL is ignored
 */
GEIS_API void geis_device_unref(GeisDevice device);

/**
 * Name of a device.
 * @param device the device
 * @return the name, NULL for NULL
 */
GEIS_API GeisString geis_device_name(GeisDevice device);

/**
 * Id of a device.
 * @param device the device
 * @return the id, 0 for NULL
 */
GEIS_API GeisInteger geis_device_id(GeisDevice device);

/**
 * Number of attributes of a device.
 * @param device the device
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_device_attr_count(GeisDevice device);

/**
 * Attribute of a device by position.
 * @param device the device
 * @param index 0 .. geis_device_attr_count() - 1
 * @return the attribute, NULL if out of range
 */
GEIS_API GeisAttr geis_device_attr(GeisDevice device, GeisSize index);

/**
 * Attribute of a device by name (GEIS_DEVICE_ATTRIBUTE_*).
 * @param device the device
 * @param attr_name the name
 * @return the attribute, NULL if absent
 */
GEIS_API GeisAttr geis_device_attr_by_name(GeisDevice device, GeisString attr_name);

/* ------------------------------------------------------------------ */
/* Gesture classes                                                     */
/* ------------------------------------------------------------------ */

/** A reference-counted gesture class (Drag, Pinch, Rotate, Tap, Touch). */
typedef struct _GeisGestureClass *GeisGestureClass;

/** Event attribute (pointer to GeisGestureClass) of class events. */
#define GEIS_EVENT_ATTRIBUTE_CLASS  "gesture class"

/** String: the class name, e.g. GEIS_GESTURE_DRAG. */
#define GEIS_CLASS_ATTRIBUTE_NAME   "class name"
/** Integer: the class id, e.g. GEIS_GESTURE_PRIMITIVE_DRAG. */
#define GEIS_CLASS_ATTRIBUTE_ID     "class id"

/**
 * Deliver class events to a function instead of the event callback or
 * the queue.
 *
 * @param geis the instance
 * @param event_callback the function, or GEIS_DEFAULT_EVENT_CALLBACK
 * @param context passed to the function unchanged
 */
GEIS_API void geis_register_class_callback(Geis geis,
					   GeisEventCallback event_callback,
					   void *context);

/**
 * Take a reference to a gesture class.
 * @param gesture_class the class
 */
GEIS_API void geis_gesture_class_ref(GeisGestureClass gesture_class);

/**
 * Drop a reference to a gesture class; the last one frees it.
 * @param gesture_class the class; NULL is ignored
 */
GEIS_API void geis_gesture_class_unref(GeisGestureClass gesture_class);

/**
 * Name of a gesture class.
 * @param gesture_class the class
 * @return the name, NULL for NULL
 */
GEIS_API GeisString geis_gesture_class_name(GeisGestureClass gesture_class);

/**
 * Id of a gesture class.
 * @param gesture_class the class
 * @return the id, -1 for NULL
 */
GEIS_API GeisInteger geis_gesture_class_id(GeisGestureClass gesture_class);

/**
 * Number of attributes of a gesture class.
 * @param gesture_class the class
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_gesture_class_attr_count(GeisGestureClass gesture_class);

/**
 * Attribute of a gesture class by position.
 * @param gesture_class the class
 * @param index 0 .. geis_gesture_class_attr_count() - 1
 * @return the attribute, NULL if out of range
 */
GEIS_API GeisAttr geis_gesture_class_attr(GeisGestureClass gesture_class,
					  int index);

/* ------------------------------------------------------------------ */
/* Regions                                                             */
/* ------------------------------------------------------------------ */

/** An area of the screen gestures are wanted in. */
typedef struct _GeisRegion *GeisRegion;

/** Integer region attribute for filter terms: the window id. */
#define GEIS_REGION_ATTRIBUTE_WINDOWID "windowid"

/** Region init argument: the root window (no parameter). */
#define GEIS_REGION_X11_ROOT       "org.libgeis.region.x11.root"
/** Region init argument: a window; one parameter, the window id (int). */
#define GEIS_REGION_X11_WINDOWID   "org.libgeis.region.x11.windowid"

/**
 * Create a region.
 *
 * @param geis the instance
 * @param name a name for diagnostics (copied)
 * @param init_arg_name GEIS_REGION_X11_ROOT, or GEIS_REGION_X11_WINDOWID
 *        followed by the window id; the list ends with NULL
 * @return the region, NULL for bad arguments (see geis_error_count())
 */
GEIS_API GEIS_VARARG GeisRegion geis_region_new(Geis geis, GeisString name,
						GeisString init_arg_name, ...);

/**
 * Destroy a region.
 * @param region the region
 * @return GEIS_STATUS_SUCCESS, or GEIS_STATUS_BAD_ARGUMENT for NULL
 */
GEIS_API GeisStatus geis_region_delete(GeisRegion region);

/**
 * Name a region was created with.
 * @param region the region
 * @return the name, NULL for NULL
 */
GEIS_API GeisString geis_region_name(GeisRegion region);

/* ------------------------------------------------------------------ */
/* Filters                                                             */
/* ------------------------------------------------------------------ */

/**
 * A set of terms that all must hold for a gesture to be delivered
 * (except that several class-name terms select any of those classes).
 */
typedef struct _GeisFilter *GeisFilter;

/** What a filter term looks at. */
typedef enum _GeisFilterFacility {
	GEIS_FILTER_DEVICE  = 1000,  /**< device attributes */
	GEIS_FILTER_CLASS   = 2000,  /**< class and gesture attributes */
	GEIS_FILTER_REGION  = 3000,  /**< region attributes */
	GEIS_FILTER_SPECIAL = 5000   /**< special attributes */
} GeisFilterFacility;

/** How a filter term compares the attribute with its value. */
typedef enum _GeisFilterOperation {
	GEIS_FILTER_OP_EQ,  /**< equal */
	GEIS_FILTER_OP_NE,  /**< not equal */
	GEIS_FILTER_OP_GT,  /**< greater than */
	GEIS_FILTER_OP_GE,  /**< greater or equal */
	GEIS_FILTER_OP_LT,  /**< less than */
	GEIS_FILTER_OP_LE   /**< less or equal */
} GeisFilterOperation;

/**
 * Create an empty filter (it matches everything).
 *
 * @param geis the instance
 * @param name a name (copied); used by geis_subscription_filter_by_name()
 * @return the filter, NULL on failure
 */
GEIS_API GeisFilter geis_filter_new(Geis geis, GeisString name);

/**
 * Copy a filter with all its terms.
 *
 * @param original the filter to copy (unchanged)
 * @param name the copy's name (copied)
 * @return the copy, NULL on failure
 */
GEIS_API GeisFilter geis_filter_clone(GeisFilter original, GeisString name);

/**
 * Destroy a filter that no subscription owns.
 * @param filter the filter
 * @return GEIS_STATUS_SUCCESS, or GEIS_STATUS_BAD_ARGUMENT for NULL
 */
GEIS_API GeisStatus geis_filter_delete(GeisFilter filter);

/**
 * Name of a filter.
 * @param filter the filter
 * @return the name, NULL for NULL
 */
GEIS_API GeisString geis_filter_name(GeisFilter filter);

/**
 * Add terms to a filter.
 *
 * After @p facility come zero or more (attribute name, GeisFilterOperation,
 * value) triples and a terminating NULL.  The value's C type follows the
 * attribute: GeisString for names, int for integers and booleans
 * (GeisBoolean, GeisInteger), double for floats (a float argument is
 * promoted), void * for pointers.  Example:
 *
 *   geis_filter_add_term(filter, GEIS_FILTER_CLASS,
 *       GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG,
 *       GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2,
 *       NULL);
 *
 * @param filter the filter
 * @param facility what the terms look at
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_BAD_ARGUMENT for NULL, an
 *         unknown facility, an attribute name the facility does not know or
 *         an unknown operation (terms before the bad one are kept)
 */
GEIS_API GEIS_VARARG GeisStatus geis_filter_add_term(GeisFilter filter,
						     GeisFilterFacility facility,
						     ...);

/* ------------------------------------------------------------------ */
/* Subscriptions                                                       */
/* ------------------------------------------------------------------ */

/** A request for gesture events, selected by its filters. */
typedef struct _GeisSubscription *GeisSubscription;

/* Subscription flags (may be OR'ed). */
enum {
	GEIS_SUBSCRIPTION_NONE = 0x0000,  /**< nothing special */
	GEIS_SUBSCRIPTION_GRAB = 0x0001,  /**< take gestures from child windows */
	GEIS_SUBSCRIPTION_CONT = 0x0002   /**< gesture continuation: a gesture
					       keeps its id when its class
					       changes */
};
/** A combination of GEIS_SUBSCRIPTION_* flags. */
typedef int GeisSubscriptionFlags;

/**
 * Create an inactive subscription.
 *
 * @param geis the instance
 * @param name a name (copied)
 * @param flags GEIS_SUBSCRIPTION_* flags
 * @return the subscription, NULL on failure
 */
GEIS_API GeisSubscription geis_subscription_new(Geis geis, GeisString name,
						GeisSubscriptionFlags flags);

/**
 * Deactivate and destroy a subscription together with its filters.
 * @param subscription the subscription
 * @return GEIS_STATUS_SUCCESS, or GEIS_STATUS_BAD_ARGUMENT for NULL
 */
GEIS_API GeisStatus geis_subscription_delete(GeisSubscription subscription);

/**
 * Start delivering gestures for a subscription.  Without filters every
 * gesture of every device in the whole window is delivered.  Devices that
 * appear later are included.  Activating an active subscription applies
 * changed filters and configuration.
 *
 * @param subscription the subscription
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_BAD_ARGUMENT for NULL, for a
 *         filter that can not be satisfied (e.g. a "touches" NE term; an
 *         active subscription then stays active with its old filters), or
 *         when the recognizer refuses a binding, e.g. atomic and non-atomic
 *         subscriptions on the same device and window (the subscription
 *         is then left inactive); the error stack says which
 */
GEIS_API GeisStatus geis_subscription_activate(GeisSubscription subscription);

/**
 * Stop delivering gestures for a subscription.  Its gestures in progress
 * end without further events; other subscriptions are not affected.
 *
 * @param subscription the subscription
 * @return GEIS_STATUS_SUCCESS, or GEIS_STATUS_BAD_ARGUMENT for NULL
 */
GEIS_API GeisStatus geis_subscription_deactivate(GeisSubscription subscription);

/**
 * Name of a subscription.
 * @param subscription the subscription
 * @return the name, NULL for NULL
 */
GEIS_API GeisString geis_subscription_name(GeisSubscription subscription);

/**
 * Id of a subscription, unique within the instance.
 * @param subscription the subscription
 * @return the id, -1 for NULL
 */
GEIS_API GeisInteger geis_subscription_id(GeisSubscription subscription);

/**
 * Give a filter to a subscription.  Filters of a subscription are OR'ed.
 * The subscription owns the filter afterwards.  Takes effect at the next
 * geis_subscription_activate().
 *
 * @param subscription the subscription
 * @param filter the filter
 * @return GEIS_STATUS_SUCCESS, or GEIS_STATUS_BAD_ARGUMENT for NULL
 *         arguments or a filter that already belongs to a subscription
 */
GEIS_API GeisStatus geis_subscription_add_filter(GeisSubscription subscription,
						 GeisFilter filter);

/**
 * Find a filter of a subscription by name.
 *
 * @param sub the subscription
 * @param name the name
 * @return the first filter with that name, NULL if none
 */
GEIS_API GeisFilter geis_subscription_filter_by_name(GeisSubscription sub,
						     GeisString name);

/**
 * Take a filter back from a subscription; the caller owns it again.
 *
 * @param subscription the subscription
 * @param filter the filter
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_BAD_ARGUMENT for NULL or a
 *         filter the subscription does not have
 */
GEIS_API GeisStatus geis_subscription_remove_filter(GeisSubscription subscription,
						    GeisFilter filter);

/**
 * Read a per-subscription recognizer setting (GEIS_CONFIG_{DRAG,PINCH,
 * ROTATE,TAP}_{THRESHOLD,TIMEOUT}), or GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS.
 *
 * @param subscription the subscription
 * @param config_item_name the item
 * @param[out] config_item_value a GeisFloat *, GeisInteger * or (for
 *        GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS) GeisSize *
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_NOT_SUPPORTED for unknown items,
 *         GEIS_STATUS_BAD_ARGUMENT for NULL arguments
 */
GEIS_API GeisStatus geis_subscription_get_configuration(GeisSubscription subscription,
							GeisString config_item_name,
							GeisPointer config_item_value);

/**
 * Change a per-subscription recognizer setting; an active subscription
 * applies it at once.
 *
 * @param subscription the subscription
 * @param config_item_name the item
 * @param config_item_value a GeisFloat * or GeisInteger *
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_NOT_SUPPORTED for unknown items,
 *         GEIS_STATUS_BAD_ARGUMENT for NULL arguments or negative values
 */
GEIS_API GeisStatus geis_subscription_set_configuration(GeisSubscription subscription,
							GeisString config_item_name,
							GeisPointer config_item_value);

/* ------------------------------------------------------------------ */
/* Gesture frames                                                      */
/* ------------------------------------------------------------------ */

/** A group of gesture frames made from one set of touches. */
typedef struct _GeisGroup    *GeisGroup;
/** The groups of a gesture event. */
typedef struct _GeisGroupSet *GeisGroupSet;
/** Identifies a touch within a touch set. */
typedef GeisSize              GeisTouchId;
/** One touch of a gesture event. */
typedef struct _GeisTouch    *GeisTouch;
/** The touches of a gesture event. */
typedef struct _GeisTouchSet *GeisTouchSet;
/** The state of one gesture in one event. */
typedef struct _GeisFrame    *GeisFrame;

/** Event attribute (pointer to GeisGroupSet) of gesture events. */
#define GEIS_EVENT_ATTRIBUTE_GROUPSET  "group set"
/** Event attribute (pointer to GeisTouchSet) of gesture events. */
#define GEIS_EVENT_ATTRIBUTE_TOUCHSET  "touch set"
/**
 * Boolean event attribute of gesture events: true once every gesture the
 * current touches can form has been reported, so accept/reject decisions
 * can be made with complete information.
 */
#define GEIS_EVENT_ATTRIBUTE_CONSTRUCTION_FINISHED  "construction finished"

/** Integer touch attribute: the touch id. */
#define GEIS_TOUCH_ATTRIBUTE_ID                 "touch id"
/** Float touch attribute: x (window coordinates on direct devices). */
#define GEIS_TOUCH_ATTRIBUTE_X                  "touch x"
/** Float touch attribute: y (window coordinates on direct devices). */
#define GEIS_TOUCH_ATTRIBUTE_Y                  "touch y"

/**
 * Number of groups in a group set.
 * @param groupset the group set
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_groupset_group_count(GeisGroupSet groupset);

/**
 * Group of a group set by position.
 * @param groupset the group set
 * @param index 0 .. geis_groupset_group_count() - 1
 * @return the group, NULL if out of range
 */
GEIS_API GeisGroup geis_groupset_group(GeisGroupSet groupset, GeisSize index);

/**
 * Id of a group.
 * @param group the group
 * @return the id, -1 for NULL
 */
GEIS_API GeisInteger geis_group_id(GeisGroup group);

/**
 * Number of frames in a group.
 * @param group the group
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_group_frame_count(GeisGroup group);

/**
 * Frame of a group by position.
 * @param group the group
 * @param index 0 .. geis_group_frame_count() - 1
 * @return the frame, NULL if out of range
 */
GEIS_API GeisFrame geis_group_frame(GeisGroup group, GeisSize index);

/**
 * Reject every gesture of a group (see geis_gesture_reject()).
 * @param group the group; NULL is ignored
 */
GEIS_API void geis_group_reject(GeisGroup group);

/**
 * Number of touches in a touch set.
 * @param touchset the touch set
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_touchset_touch_count(GeisTouchSet touchset);

/**
 * Touch of a touch set by position.
 * @param touchset the touch set
 * @param index 0 .. geis_touchset_touch_count() - 1
 * @return the touch, NULL if out of range
 */
GEIS_API GeisTouch geis_touchset_touch(GeisTouchSet touchset, GeisSize index);

/**
 * Touch of a touch set by id.
 * @param touchset the touch set
 * @param touchid the id (as from geis_frame_touchid())
 * @return the touch, NULL if absent
 */
GEIS_API GeisTouch geis_touchset_touch_by_id(GeisTouchSet touchset,
					     GeisTouchId touchid);

/**
 * Id of a touch.
 * @param touch the touch
 * @return the id, 0 for NULL
 */
GEIS_API GeisTouchId geis_touch_id(GeisTouch touch);

/**
 * Number of attributes of a touch.
 * @param touch the touch
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_touch_attr_count(GeisTouch touch);

/**
 * Attribute of a touch by position.
 * @param touch the touch
 * @param index 0 .. geis_touch_attr_count() - 1
 * @return the attribute, NULL if out of range
 */
GEIS_API GeisAttr geis_touch_attr(GeisTouch touch, GeisSize index);

/**
 * Attribute of a touch by name (GEIS_TOUCH_ATTRIBUTE_*).
 * @param touch the touch
 * @param name the name
 * @return the attribute, NULL if absent
 */
GEIS_API GeisAttr geis_touch_attr_by_name(GeisTouch touch, GeisString name);

/**
 * Gesture id of a frame.
 * @param frame the frame
 * @return the id, 0 for NULL
 */
GEIS_API GeisGestureId geis_frame_id(GeisFrame frame);

/**
 * Whether the gesture of a frame is currently recognized as a class.
 *
 * @param frame the frame
 * @param gesture_class the class
 * @return GEIS_TRUE or GEIS_FALSE (also for NULL arguments)
 */
GEIS_API GeisBoolean geis_frame_is_class(GeisFrame frame,
					 GeisGestureClass gesture_class);

/**
 * Number of attributes of a frame.
 * @param frame the frame
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_frame_attr_count(GeisFrame frame);

/**
 * Attribute of a frame by position.
 * @param frame the frame
 * @param index 0 .. geis_frame_attr_count() - 1
 * @return the attribute, NULL if out of range
 */
GEIS_API GeisAttr geis_frame_attr(GeisFrame frame, GeisSize index);

/**
 * Attribute of a frame by name (GEIS_GESTURE_ATTRIBUTE_*).
 * @param frame the frame
 * @param name the name
 * @return the attribute, NULL if absent
 */
GEIS_API GeisAttr geis_frame_attr_by_name(GeisFrame frame, GeisString name);

/**
 * The gesture's cumulative transform since it began: a row-major 3x3
 * matrix (9 floats) mapping the original touch positions to the current
 * ones.
 *
 * @param frame the frame
 * @return the matrix (owned by the frame), NULL for NULL
 */
GEIS_API GeisFloat *geis_frame_matrix(GeisFrame frame);

/**
 * Number of touches of a frame's gesture.
 * @param frame the frame
 * @return the count, 0 for NULL
 */
GEIS_API GeisSize geis_frame_touchid_count(GeisFrame frame);

/**
 * Touch id of a frame's gesture by position; look the touch up with
 * geis_touchset_touch_by_id().
 *
 * @param frame the frame
 * @param index 0 .. geis_frame_touchid_count() - 1
 * @return the id, 0 if out of range
 */
GEIS_API GeisTouchId geis_frame_touchid(GeisFrame frame, GeisSize index);

/**
 * Accept a gesture: its touches belong to this program; the recognizer
 * rejects overlapping gestures, whose queued events are dropped.  The
 * accepted gesture keeps its queued events and ends normally.
 *
 * @param geis the instance
 * @param group the group holding the gesture (may be NULL)
 * @param gesture_id the gesture (geis_frame_id())
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_BAD_ARGUMENT for a NULL
 *         instance or an unknown or already finished gesture
 */
GEIS_API GeisStatus geis_gesture_accept(Geis geis, GeisGroup group,
					GeisGestureId gesture_id);

/**
 * Reject a gesture: no more events are delivered for it and its queued
 * events are dropped.
 *
 * @param geis the instance
 * @param group the group holding the gesture (may be NULL)
 * @param gesture_id the gesture (geis_frame_id())
 * @return GEIS_STATUS_SUCCESS, GEIS_STATUS_BAD_ARGUMENT for a NULL
 *         instance or an unknown or already finished gesture
 */
GEIS_API GeisStatus geis_gesture_reject(Geis geis, GeisGroup group,
					GeisGestureId gesture_id);

#ifdef __cplusplus
}
#endif

#endif /* GEIS_GEIS_H_ */
