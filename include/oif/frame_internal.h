/*
 * utouch frame library: typed property getters.
 *
 * Included by <oif/frame.h>; do not include directly.
 *
 * Each untyped getter frame_X_get_property(obj, property, void *value) has
 * typed variants frame_X_get_property_TYPE_() that check the property
 * against the value type and return UFStatusErrorInvalidType on a
 * mismatch.  The typed variants are always exported.  In C11 the name
 * frame_X_get_property becomes a _Generic macro that picks the typed
 * variant from the pointer type of the value.  As with frame 2.5's macros
 * under clang, a pointer of any other type (a char buffer for a float, a
 * uint64_t for a device property) is a compile error, under gcc and clang
 * alike; a void * still goes to the untyped function.  Calling
 * `(frame_X_get_property)(...)` with parentheses bypasses the macro.
 */
#ifndef FRAME_OIF_FRAME_INTERNAL_H_
#define FRAME_OIF_FRAME_INTERNAL_H_

#ifndef FRAME_OIF_FRAME_H_
#error "include <oif/frame.h> instead of <oif/frame_internal.h>"
#endif

#include <stdint.h>

/* The boolean type of the *_bool_ getters, spelled for C and C++. */
#ifdef __cplusplus
#define FRAME_BOOL_TYPE_ bool
#else
#define FRAME_BOOL_TYPE_ _Bool
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Read the Name property of a device (non-const pointer variant).
 *
 * @param device the device
 * @param property must be UFDevicePropertyName
 * @param[out] value receives the name, owned by the device; do not modify
 * @return UFStatusSuccess, UFStatusErrorInvalidType for another property,
 *         UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_device_get_property_string_(UFDevice device, UFDeviceProperty property,
					   char **value);

/**
 * Read the Name property of a device.
 *
 * @param device the device
 * @param property must be UFDevicePropertyName
 * @param[out] value receives the name, owned by the device
 * @return as frame_device_get_property_string_()
 */
FRAME_PUBLIC
UFStatus frame_device_get_property_const_string_(UFDevice device,
						 UFDeviceProperty property,
						 const char **value);

/**
 * Read a boolean device property (Direct, Independent, SemiMT).
 *
 * @param device the device
 * @param property the property
 * @param[out] value receives 0 or 1
 * @return UFStatusSuccess, UFStatusErrorInvalidType for a property of
 *         another type, UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_device_get_property_int_(UFDevice device, UFDeviceProperty property,
					int *value);

/**
 * Read a boolean device property (Direct, Independent, SemiMT) into a bool.
 *
 * An extension: with the untyped getter, passing a `bool *` would make the
 * library write an int into one byte.
 *
 * @param device the device
 * @param property the property
 * @param[out] value receives false or true
 * @return as frame_device_get_property_int_()
 */
FRAME_PUBLIC
UFStatus frame_device_get_property_bool_(UFDevice device, UFDeviceProperty property,
					 FRAME_BOOL_TYPE_ *value);

/**
 * Read an unsigned device property (MaxTouches, NumAxes).
 *
 * @param device the device
 * @param property the property
 * @param[out] value receives the value
 * @return UFStatusSuccess, UFStatusErrorInvalidType for a property of
 *         another type, UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_device_get_property_unsigned_int_(UFDevice device,
						 UFDeviceProperty property,
						 unsigned int *value);

/**
 * Read a float device property (WindowResolutionX, WindowResolutionY).
 *
 * @param device the device
 * @param property the property
 * @param[out] value receives the value in pixels per metre
 * @return UFStatusSuccess, UFStatusErrorInvalidType for a property of
 *         another type, UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_device_get_property_float_(UFDevice device, UFDeviceProperty property,
					  float *value);

/**
 * Read the Type property of an event.
 *
 * @param event the event
 * @param property must be UFEventPropertyType
 * @param[out] value receives the type
 * @return UFStatusSuccess, UFStatusErrorInvalidType for another property,
 *         UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_event_get_property_type_(UFEvent event, UFEventProperty property,
					UFEventType *value);

/**
 * Read the Device property of an event.
 *
 * @param event the event
 * @param property must be UFEventPropertyDevice
 * @param[out] value receives the device, owned by the event
 * @return UFStatusSuccess, UFStatusErrorInvalidType for another property,
 *         UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_event_get_property_device_(UFEvent event, UFEventProperty property,
					  UFDevice *value);

/**
 * Read the Frame property of an event.
 *
 * @param event the event
 * @param property must be UFEventPropertyFrame
 * @param[out] value receives the frame, owned by the event
 * @return UFStatusSuccess, UFStatusErrorInvalidType for another property,
 *         UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_event_get_property_frame_(UFEvent event, UFEventProperty property,
					 UFFrame *value);

/**
 * Read the Time property of an event.
 *
 * @param event the event
 * @param property must be UFEventPropertyTime
 * @param[out] value receives the time in ms
 * @return UFStatusSuccess, UFStatusErrorInvalidType for another property,
 *         UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_event_get_property_uint64_(UFEvent event, UFEventProperty property,
					  uint64_t *value);

/**
 * Read the Device property of a frame.
 *
 * @param frame the frame
 * @param property must be UFFramePropertyDevice
 * @param[out] value receives the device, owned by the frame
 * @return UFStatusSuccess, UFStatusErrorInvalidType for another property,
 *         UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_frame_get_property_device_(UFFrame frame, UFFrameProperty property,
					  UFDevice *value);

/**
 * Read the WindowId property of a frame.
 *
 * @param frame the frame
 * @param property must be UFFramePropertyWindowId
 * @param[out] value receives the window id
 * @return UFStatusSuccess, UFStatusErrorInvalidType for another property,
 *         UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_frame_get_property_window_id_(UFFrame frame, UFFrameProperty property,
					     UFWindowId *value);

/**
 * Read the WindowId property of a frame (same as
 * frame_frame_get_property_window_id_()).
 *
 * @param frame the frame
 * @param property must be UFFramePropertyWindowId
 * @param[out] value receives the window id
 * @return as frame_frame_get_property_window_id_()
 */
FRAME_PUBLIC
UFStatus frame_frame_get_property_uint64_(UFFrame frame, UFFrameProperty property,
					  uint64_t *value);

/**
 * Read an unsigned frame property (NumTouches, ActiveTouches).
 *
 * @param frame the frame
 * @param property the property
 * @param[out] value receives the value
 * @return UFStatusSuccess, UFStatusErrorInvalidType for a property of
 *         another type
 */
FRAME_PUBLIC
UFStatus frame_frame_get_property_unsigned_int_(UFFrame frame, UFFrameProperty property,
						unsigned int *value);

/**
 * Read a 64-bit touch property (Id, Time, StartTime).
 *
 * @param touch the touch
 * @param property the property
 * @param[out] value receives the value
 * @return UFStatusSuccess, UFStatusErrorInvalidType for a property of
 *         another type, UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_touch_get_property_uint64_(UFTouch touch, UFTouchProperty property,
					  uint64_t *value);

/**
 * Read the State property of a touch.
 *
 * @param touch the touch
 * @param property must be UFTouchPropertyState
 * @param[out] value receives the state
 * @return UFStatusSuccess or UFStatusErrorInvalidType for another property
 */
FRAME_PUBLIC
UFStatus frame_touch_get_property_state_(UFTouch touch, UFTouchProperty property,
					 UFTouchState *value);

/**
 * Read a float touch property (WindowX, WindowY).
 *
 * @param touch the touch
 * @param property the property
 * @param[out] value receives the value in window pixels
 * @return UFStatusSuccess, UFStatusErrorInvalidType for a property of
 *         another type, UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_touch_get_property_float_(UFTouch touch, UFTouchProperty property,
					 float *value);

/**
 * Read a boolean touch property (Owned, PendingEnd).
 *
 * @param touch the touch
 * @param property the property
 * @param[out] value receives 0 or 1
 * @return UFStatusSuccess, UFStatusErrorInvalidType for a property of
 *         another type, UFStatusErrorUnknownProperty when unset
 */
FRAME_PUBLIC
UFStatus frame_touch_get_property_int_(UFTouch touch, UFTouchProperty property,
				       int *value);

/**
 * Read a boolean touch property (Owned, PendingEnd) into a bool.
 *
 * @param touch the touch
 * @param property the property
 * @param[out] value receives false or true
 * @return as frame_touch_get_property_int_()
 */
FRAME_PUBLIC
UFStatus frame_touch_get_property_bool_(UFTouch touch, UFTouchProperty property,
					FRAME_BOOL_TYPE_ *value);

#ifdef __cplusplus
}
#endif

#ifdef FRAME_HAS_GENERIC_GETTERS

#define frame_device_get_property(device, property, value)                      \
	_Generic((value),                                                        \
		char **: frame_device_get_property_string_,                      \
		const char **: frame_device_get_property_const_string_,          \
		int *: frame_device_get_property_int_,                           \
		_Bool *: frame_device_get_property_bool_,                        \
		unsigned int *: frame_device_get_property_unsigned_int_,         \
		float *: frame_device_get_property_float_,                       \
		void *: frame_device_get_property)((device), (property), (value))

#define frame_event_get_property(event, property, value)                        \
	_Generic((value),                                                        \
		UFEventType *: frame_event_get_property_type_,                   \
		UFDevice *: frame_event_get_property_device_,                    \
		UFFrame *: frame_event_get_property_frame_,                      \
		uint64_t *: frame_event_get_property_uint64_,                    \
		void *: frame_event_get_property)((event), (property), (value))

#define frame_frame_get_property(frame, property, value)                        \
	_Generic((value),                                                        \
		UFDevice *: frame_frame_get_property_device_,                    \
		uint64_t *: frame_frame_get_property_window_id_,                 \
		unsigned int *: frame_frame_get_property_unsigned_int_,          \
		void *: frame_frame_get_property)((frame), (property), (value))

#define frame_touch_get_property(touch, property, value)                        \
	_Generic((value),                                                        \
		uint64_t *: frame_touch_get_property_uint64_,                    \
		UFTouchState *: frame_touch_get_property_state_,                 \
		float *: frame_touch_get_property_float_,                        \
		int *: frame_touch_get_property_int_,                            \
		_Bool *: frame_touch_get_property_bool_,                         \
		void *: frame_touch_get_property)((touch), (property), (value))

#endif /* FRAME_HAS_GENERIC_GETTERS */

#endif /* FRAME_OIF_FRAME_INTERNAL_H_ */
