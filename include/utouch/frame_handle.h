/*
 * utouch frame library: extensions beyond the frame 2.5 API.
 *
 * - A UFHandle that any producer can fill: utouch_frame_handle_new(),
 *   utouch_frame_handle_push(), utouch_frame_handle_delete().  The
 *   consumer side is the standard frame_get_fd() / frame_get_event().
 * - Touch ownership handlers on backend devices, so that
 *   frame_accept_touch() and frame_reject_touch() reach the producer.
 * - Releasing a touch handle that was not given to a frame.
 *
 * A UFHandle and the objects it hands out are not thread safe; use them
 * from one thread at a time.
 *
 * Consumer loop:
 *
 *   struct pollfd pfd = { .fd = frame_get_fd(handle), .events = POLLIN };
 *   while (poll(&pfd, 1, -1) > 0) {
 *           UFEvent event;
 *           while (frame_get_event(handle, &event) == UFStatusSuccess) {
 *                   ... use the event ...
 *                   frame_event_unref(event);
 *           }
 *   }
 */
#ifndef UTOUCH_FRAME_HANDLE_H
#define UTOUCH_FRAME_HANDLE_H

#include <oif/frame.h>
#include <oif/frame_backend.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Handler for frame_accept_touch() and frame_reject_touch().
 *
 * @param data the pointer given to
 *        utouch_frame_backend_device_set_touch_handler()
 * @param window the window the touch was delivered to
 * @param touch_id the touch
 * @param accept 1 for accept, 0 for reject
 * @return the status frame_accept_touch() / frame_reject_touch() return
 */
typedef UFStatus (*utouch_frame_touch_handler)(void *data, UFWindowId window,
					       UFTouchId touch_id, int accept);

/**
 * Route touch ownership decisions of a device to the producer.
 *
 * Without a handler, frame_accept_touch() and frame_reject_touch() do
 * nothing and return UFStatusSuccess (the behaviour of devices without
 * touch ownership).  The handler is called synchronously from the
 * consumer's accept/reject call; it may be called after the producer
 * deleted its device handle, as long as events still hold the device, so
 * clear it (pass NULL) before @p data goes away.
 *
 * @param device the device handle; NULL is ignored
 * @param handler the handler, or NULL to remove it
 * @param data passed to @p handler unchanged
 */
FRAME_PUBLIC
void utouch_frame_backend_device_set_touch_handler(UFBackendDevice device,
						   utouch_frame_touch_handler handler,
						   void *data);

/**
 * Release a touch handle that will not be given to a frame.
 *
 * Use it for a borrowed touch the producer decided not to give back, or a
 * new touch that frame_backend_frame_give_touch() refused.  The frame it
 * was borrowed from is not affected.
 *
 * @param touch the touch handle; NULL is ignored
 */
FRAME_PUBLIC
void utouch_frame_backend_touch_delete(UFBackendTouch touch);

/**
 * Create an empty event queue with a pollable file descriptor.
 *
 * @param[out] handle receives the queue; release it with
 *             utouch_frame_handle_delete()
 * @return UFStatusSuccess, UFStatusErrorResources when out of memory or
 *         file descriptors, UFStatusErrorGeneric if @p handle is NULL
 */
FRAME_PUBLIC
UFStatus utouch_frame_handle_new(UFHandle *handle);

/**
 * Destroy a queue: drop the queued events and close its file descriptor.
 *
 * Events already taken with frame_get_event() stay valid.
 *
 * @param handle the queue; NULL is ignored
 */
FRAME_PUBLIC
void utouch_frame_handle_delete(UFHandle handle);

/**
 * Append an event to a queue.
 *
 * The queue takes its own reference; the caller keeps its reference.
 * After the call the queue's file descriptor is readable.
 *
 * @param handle the queue
 * @param event the event
 * @return UFStatusSuccess, UFStatusErrorResources when out of memory (the
 *         event is not queued), UFStatusErrorGeneric for NULL arguments
 */
FRAME_PUBLIC
UFStatus utouch_frame_handle_push(UFHandle handle, UFEvent event);

/**
 * Count the events waiting in a queue.
 *
 * @param handle the queue
 * @return the number of queued events, 0 for NULL
 */
FRAME_PUBLIC
unsigned int utouch_frame_handle_get_queue_length(UFHandle handle);

#ifdef __cplusplus
}
#endif

#endif /* UTOUCH_FRAME_HANDLE_H */
