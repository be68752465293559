/*
 * utouch frame library: the consumer API.
 *
 * This header is source compatible with the frame 2.5 <oif/frame.h>: the
 * same handle types, enum names and values, and functions.  A frame
 * library instance hands out events (UFEvent).  A device event announces a
 * touch device (UFDevice) appearing or going away; a frame event carries a
 * frame (UFFrame): a snapshot of the touches (UFTouch) of one device over
 * one window at one point in time.
 *
 * All handles are opaque.  Every function accepts NULL handles and out of
 * range enum values: it then returns an error status or a zero value.
 *
 * Units: times are milliseconds (uint64_t), window coordinates are pixels,
 * resolutions are units per metre.
 */
#ifndef FRAME_OIF_FRAME_H_
#define FRAME_OIF_FRAME_H_

#ifndef FRAME_PUBLIC
#if defined _WIN32 || defined __CYGWIN__
#ifdef BUILDING_FRAME
#define FRAME_PUBLIC __declspec(dllexport)
#else
#define FRAME_PUBLIC __declspec(dllimport)
#endif
#elif defined __GNUC__
#define FRAME_PUBLIC __attribute__((visibility("default")))
#else
#define FRAME_PUBLIC
#endif
#endif

/*
 * FRAME_X11_BACKEND is defined when <oif/frame_x11.h> is available, and
 * FRAME_NO_X11_BACKEND otherwise.  This build has no X11 backend yet.
 */
#define FRAME_NO_X11_BACKEND

/*
 * FRAME_HAS_GENERIC_GETTERS is defined when the property getters
 * (frame_*_get_property) are type-checked C11 _Generic macros.  This is
 * the case for every C11 compiler (gcc and clang alike), not C++.
 */
#if !defined __cplusplus && defined __STDC_VERSION__ && __STDC_VERSION__ >= 201112L
#define FRAME_HAS_GENERIC_GETTERS 1
#endif

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A frame library instance: a queue of events with a pollable fd. */
typedef struct UFHandle_ *UFHandle;
/** A reference counted event: device added, device removed or frame. */
typedef struct UFEvent_ *UFEvent;
/** A snapshot of the touches of one device over one window. */
typedef struct UFFrame_ *UFFrame;
/** One touch of a frame. */
typedef struct UFTouch_ *UFTouch;
/** A touch device. */
typedef struct UFDevice_ *UFDevice;
/** One axis (value range) of a touch device. */
typedef struct UFAxis_ *UFAxis;
/** Window server id of a window. */
typedef uint64_t UFWindowId;
/** Window server id of a touch. */
typedef uint64_t UFTouchId;

/** Result of a call. */
typedef enum UFStatus {
	UFStatusSuccess = 0,           /**< the call succeeded */
	UFStatusErrorGeneric,          /**< a generic failure (bad handle, system error) */
	UFStatusErrorResources,        /**< out of memory or other resources */
	UFStatusErrorNoEvent,          /**< the event queue is empty */
	UFStatusErrorUnknownProperty,  /**< the property is unknown or was never set */
	UFStatusErrorInvalidTouch,     /**< no such touch */
	UFStatusErrorInvalidAxis,      /**< no such axis */
	UFStatusErrorUnsupported,      /**< the backend does not support the call */
	UFStatusErrorInvalidType,      /**< the value type does not match the property */
	UFStatusErrorTouchIdExists,    /**< the frame already has a touch with that id */
} UFStatus;

/** Device properties, read with frame_device_get_property(). */
typedef enum UFDeviceProperty {
	/** Device name; `const char *` owned by the device, valid while the
	 *  device lives (at least until the DeviceRemoved event is released). */
	UFDevicePropertyName = 0,
	/** `int`, boolean: touches map directly onto the screen (touchscreen)
	 *  rather than relative to a cursor (touchpad). */
	UFDevicePropertyDirect,
	/** `int`, boolean: an indirect device whose cursor does not follow
	 *  the touches (for example a mouse with a touch surface). */
	UFDevicePropertyIndependent,
	/** `int`, boolean: the device only reports a bounding box of the
	 *  touches instead of each touch position. */
	UFDevicePropertySemiMT,
	/** `unsigned int`: how many touches the device can track. */
	UFDevicePropertyMaxTouches,
	/** `unsigned int`: number of axes of the device. */
	UFDevicePropertyNumAxes,
	/** `float`: window pixels per metre along X. */
	UFDevicePropertyWindowResolutionX,
	/** `float`: window pixels per metre along Y. */
	UFDevicePropertyWindowResolutionY,
} UFDeviceProperty;

/** Axis types of a touch device. */
typedef enum UFAxisType {
	UFAxisTypeX = 0,        /**< X position */
	UFAxisTypeY,            /**< Y position */
	UFAxisTypeTouchMajor,   /**< major diameter of the contact area */
	UFAxisTypeTouchMinor,   /**< minor diameter of the contact area */
	UFAxisTypeWidthMajor,   /**< major diameter of the approaching tool */
	UFAxisTypeWidthMinor,   /**< minor diameter of the approaching tool */
	UFAxisTypeOrientation,  /**< orientation of the contact ellipse */
	UFAxisTypeTool,         /**< tool type */
	UFAxisTypeBlobId,       /**< id of a group of touches */
	UFAxisTypeTrackingId,   /**< tracking id */
	UFAxisTypePressure,     /**< pressure */
	UFAxisTypeDistance,     /**< hover distance */
} UFAxisType;

/** Event properties, read with frame_event_get_property(). */
typedef enum UFEventProperty {
	/** `UFEventType`: the kind of event. */
	UFEventPropertyType = 0,
	/** `UFDevice`: the device added or removed; only set on device
	 *  events.  The event keeps the device alive. */
	UFEventPropertyDevice,
	/** `UFFrame`: the frame; only set on frame events.  The event keeps
	 *  the frame alive. */
	UFEventPropertyFrame,
	/** `uint64_t`: time of the event in milliseconds (0 when it happened
	 *  before the instance existed). */
	UFEventPropertyTime,
} UFEventProperty;

/** Event types. */
typedef enum UFEventType {
	UFEventTypeDeviceAdded = 0,  /**< a device appeared */
	UFEventTypeDeviceRemoved,    /**< a device went away */
	UFEventTypeFrame,            /**< one or more touches changed */
} UFEventType;

/** Frame properties, read with frame_frame_get_property(). */
typedef enum UFFrameProperty {
	/** `UFDevice`: the device the touches are on. */
	UFFramePropertyDevice = 0,
	/** `UFWindowId`: the window the touches are delivered to. */
	UFFramePropertyWindowId,
	/** `unsigned int`: touches reported in this frame. */
	UFFramePropertyNumTouches,
	/** `unsigned int`: touches down on the device, including those the
	 *  device tracks but does not report; equals NumTouches unless the
	 *  producer set it. */
	UFFramePropertyActiveTouches,
} UFFrameProperty;

/** Touch states. */
typedef enum UFTouchState {
	UFTouchStateBegin = 0,  /**< the touch started in this frame */
	UFTouchStateUpdate,     /**< the touch continues */
	UFTouchStateEnd,        /**< the touch ended in this frame */
} UFTouchState;

/** Touch properties, read with frame_touch_get_property(). */
typedef enum UFTouchProperty {
	/** `UFTouchId`: window server id of the touch. */
	UFTouchPropertyId = 0,
	/** `UFTouchState`: state of the touch. */
	UFTouchPropertyState,
	/** `float`: X position relative to the frame's window, in pixels. */
	UFTouchPropertyWindowX,
	/** `float`: Y position relative to the frame's window, in pixels. */
	UFTouchPropertyWindowY,
	/** `uint64_t`: time of the last change of the touch, in ms.  A touch
	 *  changed in a frame exactly when this equals the event time. */
	UFTouchPropertyTime,
	/** `uint64_t`: time the touch began, in ms. */
	UFTouchPropertyStartTime,
	/** `int`, boolean: the client owns the touch (window servers with
	 *  touch ownership only). */
	UFTouchPropertyOwned,
	/** `int`, boolean: the touch physically ended before the client got
	 *  or decided ownership. */
	UFTouchPropertyPendingEnd,
} UFTouchProperty;

/**
 * Get the pollable file descriptor of an instance.
 *
 * The descriptor is an eventfd owned by @p handle; it is readable while
 * events are queued.  Do not close it.
 *
 * @param handle the instance
 * @return the file descriptor, or -1 if @p handle is NULL
 */
FRAME_PUBLIC
int frame_get_fd(UFHandle handle);

/**
 * Take the oldest queued event.
 *
 * @param handle the instance
 * @param[out] event receives the event; the caller owns one reference and
 *        releases it with frame_event_unref()
 * @return UFStatusSuccess, UFStatusErrorNoEvent when the queue is empty, or
 *         UFStatusErrorGeneric for NULL arguments
 */
FRAME_PUBLIC
UFStatus frame_get_event(UFHandle handle, UFEvent *event);

/**
 * Read a device property into untyped storage.
 *
 * @p value must point to the type documented at UFDeviceProperty.  In C11
 * this name is a type-checked macro (see frame_internal.h); this function
 * is always exported and can be called as `(frame_device_get_property)(...)`.
 *
 * @param device the device
 * @param property which property
 * @param[out] value where the value is written
 * @return UFStatusSuccess, UFStatusErrorUnknownProperty for a property that
 *         is unknown or not set, UFStatusErrorGeneric for NULL arguments
 */
FRAME_PUBLIC
UFStatus frame_device_get_property(UFDevice device, UFDeviceProperty property,
				   void *value);

/**
 * Get a device axis by position.
 *
 * @param device the device
 * @param index 0 to the number of axes - 1; axes are listed in UFAxisType order
 * @param[out] axis receives the axis, owned by the device
 * @return UFStatusSuccess or UFStatusErrorInvalidAxis
 */
FRAME_PUBLIC
UFStatus frame_device_get_axis_by_index(UFDevice device, unsigned int index,
					UFAxis *axis);

/**
 * Get a device axis by type.
 *
 * @param device the device
 * @param type the axis type
 * @param[out] axis receives the axis, owned by the device
 * @return UFStatusSuccess, or UFStatusErrorInvalidAxis if the device has no
 *         axis of that type
 */
FRAME_PUBLIC
UFStatus frame_device_get_axis_by_type(UFDevice device, UFAxisType type,
				       UFAxis *axis);

/**
 * Get the type of an axis.
 *
 * @param axis the axis
 * @return the axis type (UFAxisTypeX for NULL)
 */
FRAME_PUBLIC
UFAxisType frame_axis_get_type(UFAxis axis);

/**
 * Get the smallest value of an axis.
 *
 * @param axis the axis
 * @return the minimum, in device units (0 for NULL)
 */
FRAME_PUBLIC
float frame_axis_get_minimum(UFAxis axis);

/**
 * Get the largest value of an axis.
 *
 * @param axis the axis
 * @return the maximum, in device units (0 for NULL)
 */
FRAME_PUBLIC
float frame_axis_get_maximum(UFAxis axis);

/**
 * Get the resolution of an axis.
 *
 * @param axis the axis
 * @return device units per metre, 0 when unknown or for NULL
 */
FRAME_PUBLIC
float frame_axis_get_resolution(UFAxis axis);

/**
 * Take one more reference to an event.
 *
 * @param event the event; NULL is ignored
 */
FRAME_PUBLIC
void frame_event_ref(UFEvent event);

/**
 * Drop one reference to an event.
 *
 * The last reference frees the event and drops its references to its
 * device and frame.  When no event holds a frame any more, the frame also
 * lets go of its previous frame.
 *
 * @param event the event; NULL is ignored
 */
FRAME_PUBLIC
void frame_event_unref(UFEvent event);

/**
 * Read an event property into untyped storage.
 *
 * See UFEventProperty for the value types; see frame_device_get_property()
 * about the C11 macro of the same name.
 *
 * @param event the event
 * @param property which property
 * @param[out] value where the value is written
 * @return UFStatusSuccess, UFStatusErrorUnknownProperty, or
 *         UFStatusErrorGeneric for NULL arguments
 */
FRAME_PUBLIC
UFStatus frame_event_get_property(UFEvent event, UFEventProperty property,
				  void *value);

/**
 * Read a frame property into untyped storage.
 *
 * See UFFrameProperty for the value types; see frame_device_get_property()
 * about the C11 macro of the same name.
 *
 * @param frame the frame
 * @param property which property
 * @param[out] value where the value is written
 * @return UFStatusSuccess, UFStatusErrorUnknownProperty, or
 *         UFStatusErrorGeneric for NULL arguments
 */
FRAME_PUBLIC
UFStatus frame_frame_get_property(UFFrame frame, UFFrameProperty property,
				  void *value);

/**
 * Get a touch of a frame by position.
 *
 * @param frame the frame
 * @param index 0 to the number of touches - 1
 * @param[out] touch receives the touch, owned by the frame
 * @return UFStatusSuccess or UFStatusErrorInvalidTouch
 */
FRAME_PUBLIC
UFStatus frame_frame_get_touch_by_index(UFFrame frame, unsigned int index,
					UFTouch *touch);

/**
 * Get a touch of a frame by its id.
 *
 * @param frame the frame
 * @param touch_id the window server id of the touch
 * @param[out] touch receives the touch, owned by the frame
 * @return UFStatusSuccess or UFStatusErrorInvalidTouch
 */
FRAME_PUBLIC
UFStatus frame_frame_get_touch_by_id(UFFrame frame, UFTouchId touch_id,
				     UFTouch *touch);

/**
 * Read a property of the previous frame's copy of a touch.
 *
 * The previous frame is the one @p frame was created from with
 * frame_backend_frame_create_next(); it stays reachable while an event
 * holds @p frame.
 *
 * @param frame the current frame
 * @param touch a touch of @p frame (only its id is used)
 * @param property which property; see UFTouchProperty for the value types
 * @param[out] value where the value is written
 * @return UFStatusSuccess, UFStatusErrorUnknownProperty, or
 *         UFStatusErrorInvalidTouch if there is no previous frame or the
 *         touch was not in it
 */
FRAME_PUBLIC
UFStatus frame_frame_get_previous_touch_property(UFFrame frame, UFTouch touch,
						 UFTouchProperty property,
						 void *value);

/**
 * Read an axis value of the previous frame's copy of a touch.
 *
 * @param frame the current frame
 * @param touch a touch of @p frame (only its id is used)
 * @param type the axis
 * @param[out] value where the value is written
 * @return UFStatusSuccess, UFStatusErrorInvalidAxis if the previous copy has
 *         no value for that axis, or UFStatusErrorInvalidTouch if there is
 *         no previous frame or the touch was not in it
 */
FRAME_PUBLIC
UFStatus frame_frame_get_previous_touch_value(UFFrame frame, UFTouch touch,
					      UFAxisType type, float *value);

/**
 * Read a touch property into untyped storage.
 *
 * See UFTouchProperty for the value types; see frame_device_get_property()
 * about the C11 macro of the same name.
 *
 * @param touch the touch
 * @param property which property
 * @param[out] value where the value is written
 * @return UFStatusSuccess, UFStatusErrorUnknownProperty, or
 *         UFStatusErrorGeneric for NULL arguments
 */
FRAME_PUBLIC
UFStatus frame_touch_get_property(UFTouch touch, UFTouchProperty property,
				  void *value);

/**
 * Read an axis value of a touch.
 *
 * @param touch the touch
 * @param type the axis
 * @param[out] value where the value is written
 * @return UFStatusSuccess, or UFStatusErrorInvalidAxis if the touch has no
 *         value for that axis
 */
FRAME_PUBLIC
UFStatus frame_touch_get_value(UFTouch touch, UFAxisType type, float *value);

/*
 * Convenience getters.  They return the value directly, or 0 when the
 * property is not set or the handle is NULL.
 */

/**
 * Get the type of an event.
 *
 * @param event the event
 * @return the type (UFEventTypeDeviceAdded when unset or NULL)
 */
FRAME_PUBLIC
UFEventType frame_event_get_type(UFEvent event);

/**
 * Get the time of an event.
 *
 * @param event the event
 * @return the time in ms, 0 when unset or NULL
 */
FRAME_PUBLIC
uint64_t frame_event_get_time(UFEvent event);

/**
 * Get the number of axes of a device.
 *
 * @param device the device
 * @return the number of axes, 0 for NULL
 */
FRAME_PUBLIC
unsigned int frame_device_get_num_axes(UFDevice device);

/**
 * Get the window resolution of a device along X.
 *
 * @param device the device
 * @return pixels per metre; 0.0f when unset (the original aborted) or NULL
 */
FRAME_PUBLIC
float frame_device_get_window_resolution_x(UFDevice device);

/**
 * Get the window resolution of a device along Y.
 *
 * @param device the device
 * @return pixels per metre; 0.0f when unset (the original aborted) or NULL
 */
FRAME_PUBLIC
float frame_device_get_window_resolution_y(UFDevice device);

/**
 * Get the number of touches of a frame.
 *
 * @param frame the frame
 * @return the number of touches, 0 for NULL
 */
FRAME_PUBLIC
uint32_t frame_frame_get_num_touches(UFFrame frame);

/**
 * Get the device of a frame.
 *
 * @param frame the frame
 * @return the device, owned by the frame; NULL when unset
 */
FRAME_PUBLIC
UFDevice frame_frame_get_device(UFFrame frame);

/**
 * Get the window of a frame.
 *
 * @param frame the frame
 * @return the window id, 0 when unset
 */
FRAME_PUBLIC
UFWindowId frame_frame_get_window_id(UFFrame frame);

/**
 * Get the id of a touch.
 *
 * @param touch the touch
 * @return the touch id, 0 when unset
 */
FRAME_PUBLIC
UFTouchId frame_touch_get_id(UFTouch touch);

/**
 * Get the state of a touch.
 *
 * @param touch the touch
 * @return the state (UFTouchStateBegin for NULL)
 */
FRAME_PUBLIC
UFTouchState frame_touch_get_state(UFTouch touch);

/**
 * Get the X window coordinate of a touch.
 *
 * @param touch the touch
 * @return pixels relative to the window, 0 when unset
 */
FRAME_PUBLIC
float frame_touch_get_window_x(UFTouch touch);

/**
 * Get the Y window coordinate of a touch.
 *
 * @param touch the touch
 * @return pixels relative to the window, 0 when unset
 */
FRAME_PUBLIC
float frame_touch_get_window_y(UFTouch touch);

/**
 * Get the X device coordinate of a touch (its UFAxisTypeX value).
 *
 * @param touch the touch
 * @return device units, 0 when unset
 */
FRAME_PUBLIC
float frame_touch_get_device_x(UFTouch touch);

/**
 * Get the Y device coordinate of a touch (its UFAxisTypeY value).
 *
 * @param touch the touch
 * @return device units, 0 when unset
 */
FRAME_PUBLIC
float frame_touch_get_device_y(UFTouch touch);

/**
 * Get the time of the last change of a touch.
 *
 * @param touch the touch
 * @return ms, 0 when unset
 */
FRAME_PUBLIC
uint64_t frame_touch_get_time(UFTouch touch);

/**
 * Get the time a touch began.
 *
 * @param touch the touch
 * @return ms, 0 when unset
 */
FRAME_PUBLIC
uint64_t frame_touch_get_start_time(UFTouch touch);

/**
 * Accept a touch: tell the window server that this client uses it.
 *
 * Every touch should eventually be accepted or rejected, as early as
 * possible, even after it ended.  The call is passed to the backend of the
 * device; backends without touch ownership accept every call.
 *
 * @param device the device of the touch
 * @param window the window the touch was delivered to
 * @param touch_id the touch
 * @return UFStatusSuccess, the backend's error (such as
 *         UFStatusErrorInvalidTouch), or UFStatusErrorGeneric for NULL
 * @see frame_reject_touch
 */
FRAME_PUBLIC
UFStatus frame_accept_touch(UFDevice device, UFWindowId window, UFTouchId touch_id);

/**
 * Reject a touch: let the window server pass it on to other clients.
 *
 * @param device the device of the touch
 * @param window the window the touch was delivered to
 * @param touch_id the touch
 * @return UFStatusSuccess, the backend's error (such as
 *         UFStatusErrorInvalidTouch), or UFStatusErrorGeneric for NULL
 * @see frame_accept_touch
 */
FRAME_PUBLIC
UFStatus frame_reject_touch(UFDevice device, UFWindowId window, UFTouchId touch_id);

#ifdef __cplusplus
}
#endif

#include "frame_internal.h"

#endif /* FRAME_OIF_FRAME_H_ */
