/*
 * utouch frame library: the producer (backend) API.
 *
 * Source compatible with the frame 2.5 <oif/frame_backend.h>.  A producer
 * (an input backend, a recording player, a test) builds devices, frames,
 * touches and events with these calls and hands the events to a consumer
 * (grail, or a UFHandle queue, see <utouch/frame_handle.h>).
 *
 * Ownership: the backend handles (UFBackendDevice, UFBackendFrame,
 * UFBackendTouch) are owned by the producer until deleted or given away.
 * Devices and frames are reference counted: an event holding a device or a
 * frame keeps it alive after the producer deleted its handle.
 *
 * Typical producer step for one frame event:
 *
 *   UFBackendFrame next = prev ? frame_backend_frame_create_next(prev)
 *                              : frame_backend_frame_new();
 *   frame_backend_frame_set_device(next, device);
 *   frame_backend_frame_set_window_id(next, window);
 *   (new touches: frame_backend_touch_new(), set fields, give_touch;
 *    changed touches: borrow_touch_by_id(), set fields, give_touch)
 *   UFEvent ev = frame_event_new();
 *   frame_event_set_type(ev, UFEventTypeFrame);
 *   frame_event_set_frame(ev, next);
 *   frame_event_set_time(ev, now);
 *   (deliver ev, then frame_event_unref(ev))
 *   if (prev) frame_backend_frame_delete(prev);
 *   prev = next;
 */
#ifndef FRAME_OIF_FRAME_BACKEND_H_
#define FRAME_OIF_FRAME_BACKEND_H_

#include <oif/frame.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Producer handle of a device; see frame_backend_device_get_device(). */
typedef struct UFBackendDevice_ *UFBackendDevice;

/** Producer handle of a frame; see frame_backend_frame_get_frame(). */
typedef struct UFBackendFrame_ *UFBackendFrame;

/** Producer handle of a touch that is being filled in or changed. */
typedef struct UFBackendTouch_ *UFBackendTouch;

/*
 * Events
 */

/**
 * Create an empty event with one reference.
 *
 * No property is set; set the type, time, and device or frame.
 *
 * @return the event, or NULL when out of memory
 */
FRAME_PUBLIC
UFEvent frame_event_new(void);

/**
 * Set the type of an event.
 *
 * @param event the event; NULL is ignored
 * @param type the type; values outside UFEventType are ignored
 */
FRAME_PUBLIC
void frame_event_set_type(UFEvent event, UFEventType type);

/**
 * Set the device of a device event.
 *
 * The event takes its own reference to the device, replacing any device
 * set before.
 *
 * @param event the event; NULL is ignored
 * @param device the device; NULL clears the property
 */
FRAME_PUBLIC
void frame_event_set_device(UFEvent event, UFBackendDevice device);

/**
 * Set the frame of a frame event.
 *
 * The event takes its own reference to the frame, replacing any frame set
 * before.  While at least one event holds the frame, the frame keeps its
 * previous frame alive for frame_frame_get_previous_touch_property().
 *
 * @param event the event; NULL is ignored
 * @param frame the frame; NULL clears the property
 */
FRAME_PUBLIC
void frame_event_set_frame(UFEvent event, UFBackendFrame frame);

/**
 * Set the time of an event.
 *
 * @param event the event; NULL is ignored
 * @param time milliseconds
 */
FRAME_PUBLIC
void frame_event_set_time(UFEvent event, uint64_t time);

/*
 * Devices
 */

/**
 * Create a device with no properties and no axes.
 *
 * The producer owns the returned handle and releases it with
 * frame_backend_device_delete().
 *
 * @return the device handle, or NULL when out of memory
 */
FRAME_PUBLIC
UFBackendDevice frame_backend_device_new(void);

/**
 * Get the consumer view of a device.
 *
 * @param device the device handle
 * @return the device, valid while the handle or an event holds it; NULL for
 *         NULL
 */
FRAME_PUBLIC
UFDevice frame_backend_device_get_device(UFBackendDevice device);

/**
 * Set the Name property of a device.
 *
 * @param device the device handle; NULL is ignored
 * @param name the name, copied; NULL clears the property
 */
FRAME_PUBLIC
void frame_backend_device_set_name(UFBackendDevice device, const char *name);

/**
 * Set the Direct property of a device.
 *
 * @param device the device handle; NULL is ignored
 * @param direct nonzero for a direct (touchscreen-like) device
 */
FRAME_PUBLIC
void frame_backend_device_set_direct(UFBackendDevice device, int direct);

/**
 * Set the Independent property of a device.
 *
 * @param device the device handle; NULL is ignored
 * @param independent nonzero when the cursor does not follow the touches
 */
FRAME_PUBLIC
void frame_backend_device_set_independent(UFBackendDevice device, int independent);

/**
 * Set the SemiMT property of a device.
 *
 * @param device the device handle; NULL is ignored
 * @param semi_mt nonzero for a device that only reports a bounding box
 */
FRAME_PUBLIC
void frame_backend_device_set_semi_mt(UFBackendDevice device, int semi_mt);

/**
 * Set the MaxTouches property of a device.
 *
 * @param device the device handle; NULL is ignored
 * @param max_touches how many touches the device tracks
 */
FRAME_PUBLIC
void frame_backend_device_set_max_touches(UFBackendDevice device,
					  unsigned int max_touches);

/**
 * Set the WindowResolutionX and WindowResolutionY properties of a device.
 *
 * @param device the device handle; NULL is ignored
 * @param x window pixels per metre along X
 * @param y window pixels per metre along Y
 *
 * A NaN or infinite resolution is refused (the call is ignored).
 */
FRAME_PUBLIC
void frame_backend_device_set_window_resolution(UFBackendDevice device, float x,
						float y);

/**
 * Add an axis to a device.
 *
 * A device has at most one axis per type; adding a type that is already
 * present replaces its range.  frame_device_get_axis_by_index() lists the
 * axes in UFAxisType order, like the original library.
 *
 * @param device the device handle; NULL is ignored
 * @param type the axis type; values outside UFAxisType are ignored
 * @param min smallest value, in device units
 * @param max largest value, in device units
 * @param resolution device units per metre (0 when unknown)
 *
 * A NaN or infinite @p min, @p max or @p resolution is refused (the call is
 * ignored).
 */
FRAME_PUBLIC
void frame_backend_device_add_axis(UFBackendDevice device, UFAxisType type, float min,
				   float max, float resolution);

/**
 * Release the producer's handle of a device.
 *
 * The device itself lives on while events or frames hold it.
 *
 * @param device the device handle; NULL is ignored
 */
FRAME_PUBLIC
void frame_backend_device_delete(UFBackendDevice device);

/*
 * Frames
 */

/**
 * Create an empty frame with no device and no window.
 *
 * Use it for the first frame of a (device, window) pair; later frames come
 * from frame_backend_frame_create_next().
 *
 * @return the frame handle, or NULL when out of memory
 */
FRAME_PUBLIC
UFBackendFrame frame_backend_frame_new(void);

/**
 * Create the frame that follows @p frame.
 *
 * The new frame starts with the touches of @p frame, so the producer only
 * has to apply what changed:
 * - a touch in state Begin is copied, with state Update and the same Time
 *   (so it does not count as changed in the new frame);
 * - a touch in state Update is shared with @p frame until the producer
 *   borrows and changes it;
 * - a touch in state End is left out.
 *
 * The Device, WindowId and ActiveTouches properties are not carried over.
 * The new frame remembers @p frame as its previous frame.
 *
 * @param frame the frame handle to continue
 * @return the new frame handle, or NULL when out of memory or for NULL
 */
FRAME_PUBLIC
UFBackendFrame frame_backend_frame_create_next(UFBackendFrame frame);

/**
 * Get the consumer view of a frame.
 *
 * @param frame the frame handle
 * @return the frame, valid while the handle or an event holds it; NULL for
 *         NULL
 */
FRAME_PUBLIC
UFFrame frame_backend_frame_get_frame(UFBackendFrame frame);

/**
 * Take a touch out of a frame to change it.
 *
 * The handle starts as a view of the frame's touch; the first change made
 * through it makes a private copy, so the frame (and any other frame
 * sharing the touch) keeps showing the old values until the touch is given
 * back with frame_backend_frame_give_touch(), which puts the changed touch
 * in the same place.  A handle that is never given back is released with
 * utouch_frame_backend_touch_delete() from <utouch/frame_handle.h>.
 *
 * @param frame the frame handle
 * @param id the touch id
 * @param[out] touch receives a touch handle owned by the producer
 * @return UFStatusSuccess, UFStatusErrorInvalidTouch when the frame has
 *         no touch with that id, or UFStatusErrorResources when out of
 *         memory
 */
FRAME_PUBLIC
UFStatus frame_backend_frame_borrow_touch_by_id(UFBackendFrame frame, UFTouchId id,
						UFBackendTouch *touch);

/**
 * Set the Device property of a frame.
 *
 * The frame takes its own reference to the device.
 *
 * @param frame the frame handle; NULL is ignored
 * @param device the device handle; NULL clears the property
 */
FRAME_PUBLIC
void frame_backend_frame_set_device(UFBackendFrame frame, UFBackendDevice device);

/**
 * Set the WindowId property of a frame.
 *
 * @param frame the frame handle; NULL is ignored
 * @param window_id the window
 */
FRAME_PUBLIC
void frame_backend_frame_set_window_id(UFBackendFrame frame, UFWindowId window_id);

/**
 * Set the ActiveTouches property of a frame.
 *
 * Unset, the property reads as the number of touches of the frame.
 *
 * @param frame the frame handle; NULL is ignored
 * @param active_touches touches down on the device
 */
FRAME_PUBLIC
void frame_backend_frame_set_active_touches(UFBackendFrame frame,
					    unsigned int active_touches);

/**
 * Put a touch into a frame.
 *
 * On success the frame owns the touch and `*touch` is set to NULL.  A
 * touch borrowed from this frame replaces the frame's touch of that id in
 * place; a new touch is appended.  A
 * frame holds at most one touch per id: giving a touch whose id the frame
 * already has fails, and the producer keeps the handle (free it with
 * utouch_frame_backend_touch_delete() from <utouch/frame_handle.h>, or
 * change the id and give it again).
 *
 * A change made through the handle that was lost for want of memory (the
 * setters copy a touch a frame shares before changing it, and return
 * nothing) makes this fail with UFStatusErrorResources: the producer keeps
 * the handle and the frame its touch as it was, never a touch with some of
 * the changes missing.
 *
 * @param frame the frame handle
 * @param[in,out] touch the touch handle
 * @return UFStatusSuccess, UFStatusErrorTouchIdExists, UFStatusErrorResources
 *         when out of memory (now or in a change made through the handle),
 *         or UFStatusErrorGeneric for NULL arguments
 */
FRAME_PUBLIC
UFStatus frame_backend_frame_give_touch(UFBackendFrame frame, UFBackendTouch *touch);

/**
 * Release the producer's handle of a frame.
 *
 * The frame lives on while events or a following frame hold it.  Touches
 * still borrowed from it stay valid handles.
 *
 * @param frame the frame handle; NULL is ignored
 */
FRAME_PUBLIC
void frame_backend_frame_delete(UFBackendFrame frame);

/*
 * Touches
 */

/**
 * Create a touch in state Begin with no other property set.
 *
 * Fill it in, then give it to a frame with frame_backend_frame_give_touch().
 *
 * @return the touch handle, or NULL when out of memory
 */
FRAME_PUBLIC
UFBackendTouch frame_backend_touch_new(void);

/**
 * Get the consumer view of a touch.
 *
 * @param touch the touch handle
 * @return the touch; NULL for NULL
 */
FRAME_PUBLIC
UFTouch frame_backend_touch_get_touch(UFBackendTouch touch);

/**
 * Set the Id property of a touch.
 *
 * @param touch the touch handle; NULL is ignored
 * @param id the window server id
 */
FRAME_PUBLIC
void frame_backend_touch_set_id(UFBackendTouch touch, UFTouchId id);

/**
 * Set the State property of a touch to End.
 *
 * @param touch the touch handle; NULL is ignored
 */
FRAME_PUBLIC
void frame_backend_touch_set_ended(UFBackendTouch touch);

/**
 * Set the WindowX and WindowY properties of a touch.
 *
 * No device reports a position that is not a number: a call with a NaN or
 * infinite coordinate is refused (ignored as a whole), and the touch keeps
 * the position it had (none for a new touch).
 *
 * @param touch the touch handle; NULL is ignored
 * @param x window pixels (finite)
 * @param y window pixels (finite)
 */
FRAME_PUBLIC
void frame_backend_touch_set_window_pos(UFBackendTouch touch, float x, float y);

/**
 * Set the Time property of a touch.
 *
 * @param touch the touch handle; NULL is ignored
 * @param time milliseconds
 */
FRAME_PUBLIC
void frame_backend_touch_set_time(UFBackendTouch touch, uint64_t time);

/**
 * Set the StartTime property of a touch.
 *
 * @param touch the touch handle; NULL is ignored
 * @param start_time milliseconds
 */
FRAME_PUBLIC
void frame_backend_touch_set_start_time(UFBackendTouch touch, uint64_t start_time);

/**
 * Set the Owned property of a touch.
 *
 * @param touch the touch handle; NULL is ignored
 * @param owned nonzero when the client owns the touch
 */
FRAME_PUBLIC
void frame_backend_touch_set_owned(UFBackendTouch touch, int owned);

/**
 * Set the PendingEnd property of a touch.
 *
 * @param touch the touch handle; NULL is ignored
 * @param pending_end nonzero when the touch ended before ownership was
 *        settled
 */
FRAME_PUBLIC
void frame_backend_touch_set_pending_end(UFBackendTouch touch, int pending_end);

/**
 * Set an axis value of a touch.
 *
 * @param touch the touch handle; NULL is ignored
 * @param type the axis; values outside UFAxisType are ignored
 * @param value the value in device units; NaN and infinite values are
 *        refused (ignored), and the touch keeps the value it had
 */
FRAME_PUBLIC
void frame_backend_touch_set_value(UFBackendTouch touch, UFAxisType type, float value);

#ifdef __cplusplus
}
#endif

#endif /* FRAME_OIF_FRAME_BACKEND_H_ */
