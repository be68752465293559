/*
 * utouch frame library: the X11 (XInput 2.2) backend.
 *
 * Source compatible with the frame 2.5 <oif/frame_x11.h>.  The backend
 * turns XInput 2.2 touch events that the application reads from its own
 * Display connection into frame events on a UFHandle:
 *
 *   UFHandle handle;
 *   frame_x11_new(display, &handle);      (DeviceAdded for present devices)
 *   ... for every XEvent read from the display:
 *   if (XGetEventData(display, &xev.xcookie)) {
 *           frame_x11_process_event(handle, &xev.xcookie);
 *           XFreeEventData(display, &xev.xcookie);
 *   }
 *   ... take the events with frame_get_event(handle, ...), poll
 *       frame_get_fd(handle) ...
 *   frame_x11_delete(handle);
 *
 * The application selects the events itself: touch events (XI_TouchBegin,
 * XI_TouchUpdate, XI_TouchEnd, and XI_TouchOwnership for touch grabs or
 * early ownership) on its windows or through XIGrabTouchBegin(), and
 * XI_HierarchyChanged on the root window for XIAllDevices to follow
 * devices coming and going.  The application must use XInput 2.2 or
 * later (frame_x11_new() asks the server for 2.2 on the same connection).
 *
 * frame_accept_touch() and frame_reject_touch() on devices of this backend
 * send XIAllowTouchEvents() for the frame's window and flush the display.
 *
 * The display is used only from the calls of this API and from
 * frame_accept_touch() / frame_reject_touch(); like Xlib without
 * XInitThreads(), use them from the thread that uses the display.  The
 * backend does not install X error handlers: X errors (for instance
 * accepting a touch the server already finished) reach the application's
 * handler.
 */
#ifndef FRAME_OIF_FRAME_X11_H_
#define FRAME_OIF_FRAME_X11_H_

#include <oif/frame.h>
#include <X11/Xlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Create a frame instance that reads touches from an X server.
 *
 * Checks that the server has XInput 2.2, lists the slave pointer devices
 * with a touch class that are enabled and attached to a master device, and
 * queues one DeviceAdded event (time 0) for each of them.
 *
 * @param display the application's connection; it must stay open until
 *        frame_x11_delete()
 * @param[out] handle receives the instance; its events are read with
 *        frame_get_event() and frame_get_fd()
 * @return UFStatusSuccess; UFStatusErrorResources when out of memory;
 *         UFStatusErrorGeneric for NULL arguments or a server without
 *         XInput 2.2
 */
FRAME_PUBLIC
UFStatus frame_x11_new(Display *display, UFHandle *handle);

/**
 * Destroy an instance made by frame_x11_new().
 *
 * Queued events are dropped; events and devices the application still
 * holds stay valid, but accepting or rejecting their touches then fails
 * with UFStatusErrorInvalidTouch.  No X request is made, so this is safe
 * after the server went away.
 *
 * @param handle the instance; NULL and handles not made by
 *        frame_x11_new() are ignored
 */
FRAME_PUBLIC
void frame_x11_delete(UFHandle handle);

/**
 * Turn one XInput event into frame events.
 *
 * Handles XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd (one frame event per
 * X event, for the device and the event window), XI_TouchOwnership (a
 * frame in which the touch becomes Owned) and XI_HierarchyChanged
 * (DeviceAdded / DeviceRemoved).  Other events are ignored.  As in
 * frame 2.5, an event is recognised by the cookie's extension (the XInput
 * opcode) and evtype alone; its type is not checked, so a cookie built by
 * hand needs only extension, evtype and data.  The cookie must hold its
 * data: call XGetEventData() before and XFreeEventData() after.
 *
 * @param handle an instance made by frame_x11_new()
 * @param xcookie the event
 * @return UFStatusSuccess (also for ignored events);
 *         UFStatusErrorResources when out of memory;
 *         UFStatusErrorGeneric for NULL arguments, a handle not made by
 *         frame_x11_new(), an XInput cookie without data, or a broken
 *         connection while reading the device list
 */
FRAME_PUBLIC
UFStatus frame_x11_process_event(UFHandle handle, XGenericEventCookie *xcookie);

/**
 * Accept a touch (older name of frame_accept_touch()).
 *
 * @deprecated Use frame_accept_touch().
 * @param device the device of the touch
 * @param window the window of the frame
 * @param touch_id the touch
 * @return the result of frame_accept_touch()
 */
FRAME_PUBLIC
UFStatus frame_x11_accept_touch(UFDevice device, UFWindowId window, UFTouchId touch_id);

/**
 * Reject a touch (older name of frame_reject_touch()).
 *
 * @deprecated Use frame_reject_touch().
 * @param device the device of the touch
 * @param window the window of the frame
 * @param touch_id the touch
 * @return the result of frame_reject_touch()
 */
FRAME_PUBLIC
UFStatus frame_x11_reject_touch(UFDevice device, UFWindowId window, UFTouchId touch_id);

/**
 * Convert a frame window id to an X window.
 *
 * @param window_id a frame window id of this backend
 * @return the X window (the same number)
 */
FRAME_PUBLIC
Window frame_x11_get_window_id(UFWindowId window_id);

/**
 * Convert an X window to a frame window id.
 *
 * @param id the X window
 * @return the frame window id (the same number)
 */
FRAME_PUBLIC
UFWindowId frame_x11_create_window_id(Window id);

/**
 * Convert a frame touch id to an XInput touch id.
 *
 * @param touch_id a frame touch id of this backend
 * @return the XInput touch id (the low 32 bits)
 */
FRAME_PUBLIC
unsigned int frame_x11_get_touch_id(UFTouchId touch_id);

/**
 * Convert an XInput touch id to a frame touch id.
 *
 * @param id the XInput touch id (XIDeviceEvent.detail)
 * @return the frame touch id (the same number)
 */
FRAME_PUBLIC
UFTouchId frame_x11_create_touch_id(unsigned int id);

#ifdef __cplusplus
}
#endif

#endif /* FRAME_OIF_FRAME_X11_H_ */
