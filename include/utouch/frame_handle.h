/*
 * utouch frame library: extensions beyond the frame 2.5 API.
 *
 * - A UFHandle that any producer can fill: utouch_frame_handle_new(),
 *   utouch_frame_handle_push(), utouch_frame_handle_delete().  The
 *   consumer side is the standard frame_get_fd() / frame_get_event().
 * - Touch ownership handlers on backend devices, so that
 *   frame_accept_touch() and frame_reject_touch() reach the producer.
 * - Releasing a touch handle that was not given to a frame.
 * - A frame builder (UTouchFrameBuilder): the frame sequence of one
 *   (device, window), built one touch operation at a time, and device
 *   events (utouch_frame_device_event_new()).
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

/*
 * Frame builder
 *
 * A producer describes what happened to its touches as touch operations
 * and gets frame events back:
 *
 *   UTouchFrameBuilder b;
 *   utouch_frame_builder_new(device, window, 1, &b);
 *   ...
 *   utouch_frame_builder_begin(b);                 // the next frame
 *   struct utouch_frame_touch_op op = {
 *           .kind = UTOUCH_FRAME_OP_BEGIN, .id = 1, .time = t, .start_time = t,
 *           .set = UTOUCH_FRAME_SET_POSITION | 1u << UFAxisTypeX | 1u << UFAxisTypeY,
 *           .window_x = x, .window_y = y, .values = { [UFAxisTypeX] = x, [UFAxisTypeY] = y },
 *   };
 *   utouch_frame_builder_touch(b, &op);           // once per changed touch
 *   UFEvent ev;
 *   if (utouch_frame_builder_end(b, t, &ev) == UFStatusSuccess) {
 *           ... hand ev to grail or a queue ...
 *           frame_event_unref(ev);
 *   }
 *
 * Each frame starts as a copy of the previous one: touches that began
 * there are in state Update, ended touches are gone, and a touch no
 * operation names is shared with the previous frame unchanged.
 */

/** A frame builder: the frames of one (device, window) sequence. */
typedef struct UTouchFrameBuilder_ *UTouchFrameBuilder;

/** Number of values a touch operation can carry, one per UFAxisType. */
#define UTOUCH_FRAME_NUM_AXES 12

/** What happens to a touch in one operation. */
enum utouch_frame_op_kind {
	/** The touch appears: a new touch in state Begin with its id, start
	 *  time, time, Owned (the builder's own_at_begin), PendingEnd 0 and
	 *  whatever the operation sets. */
	UTOUCH_FRAME_OP_BEGIN = 0,
	/** Its time and whatever the operation sets change. */
	UTOUCH_FRAME_OP_UPDATE,
	/** As UPDATE, and the touch is in state End (it is gone from the
	 *  next frame). */
	UTOUCH_FRAME_OP_END,
	/** The touch becomes owned (Owned 1) at the operation's time;
	 *  position, values and PendingEnd are left alone. */
	UTOUCH_FRAME_OP_OWN,
	/** As UPDATE, and PendingEnd becomes 1 (the touch lifted but is not
	 *  owned yet), unless UTOUCH_FRAME_SET_PENDING_END says otherwise. */
	UTOUCH_FRAME_OP_PENDING_END,
};

/** utouch_frame_touch_op::set bit: window_x and window_y are given. */
#define UTOUCH_FRAME_SET_POSITION (1u << 16)
/** utouch_frame_touch_op::set bit: PendingEnd becomes pending_end (for
 *  producers that report the flag with every event, as XI 2.2 does). */
#define UTOUCH_FRAME_SET_PENDING_END (1u << 17)

/** One touch operation for utouch_frame_builder_touch(). */
struct utouch_frame_touch_op {
	enum utouch_frame_op_kind kind;
	UFTouchId id;          /**< the touch */
	uint64_t time;         /**< the touch's time (Time property), ms */
	uint64_t start_time;   /**< UTOUCH_FRAME_OP_BEGIN: its start time, ms */
	/** What the operation sets besides the kind's own changes: bit
	 *  (1u << UFAxisType) for each valid entry of values,
	 *  UTOUCH_FRAME_SET_POSITION, UTOUCH_FRAME_SET_PENDING_END.
	 *  Ignored for UTOUCH_FRAME_OP_OWN. */
	uint32_t set;
	int pending_end;       /**< with UTOUCH_FRAME_SET_PENDING_END: 1 or 0 */
	float window_x, window_y;               /**< window coordinates */
	float values[UTOUCH_FRAME_NUM_AXES];    /**< device values by UFAxisType */
};

/**
 * Create a builder for the frames of @p device in @p window.
 *
 * The builder keeps its own reference to the device, so the producer may
 * delete its device handle before the builder.
 *
 * @param device the device every frame names
 * @param window the window id every frame names
 * @param own_at_begin 1: new touches start owned (Owned 1); 0: they wait
 *        for a UTOUCH_FRAME_OP_OWN (as on X11)
 * @param[out] builder receives the builder; release it with
 *        utouch_frame_builder_delete()
 * @return UFStatusSuccess, UFStatusErrorResources when out of memory,
 *         UFStatusErrorGeneric for a NULL @p device or @p builder
 */
FRAME_PUBLIC
UFStatus utouch_frame_builder_new(UFBackendDevice device, UFWindowId window,
				  int own_at_begin, UTouchFrameBuilder *builder);

/**
 * Destroy a builder: drop the frame being built and the builder's
 * references to the last frame and the device.  Events it returned stay
 * valid.
 *
 * @param builder the builder; NULL is ignored
 */
FRAME_PUBLIC
void utouch_frame_builder_delete(UTouchFrameBuilder builder);

/**
 * Start the next frame: a copy of the last frame utouch_frame_builder_end()
 * returned (an empty frame at first), with the builder's device and
 * window.  When a frame is being built already, it stays as it is.
 *
 * @param builder the builder
 * @return UFStatusSuccess, UFStatusErrorResources when out of memory (no
 *         frame is being built then), UFStatusErrorGeneric for NULL
 */
FRAME_PUBLIC
UFStatus utouch_frame_builder_begin(UTouchFrameBuilder builder);

/**
 * Apply one touch operation to the frame being built.  On any error the
 * frame is unchanged.
 *
 * @param builder the builder
 * @param op the operation (read during the call only)
 * @return UFStatusSuccess;
 *         UFStatusErrorTouchIdExists for a BEGIN of an id the frame holds;
 *         UFStatusErrorInvalidTouch for another kind on an id the frame
 *         does not hold (e.g. a touch that ended in an earlier frame);
 *         UFStatusErrorInvalidAxis for a set bit of an unknown axis or a
 *         value or position that is not finite;
 *         UFStatusErrorResources when out of memory;
 *         UFStatusErrorGeneric for NULL arguments, an unknown kind or no
 *         frame being built
 */
FRAME_PUBLIC
UFStatus utouch_frame_builder_touch(UTouchFrameBuilder builder,
				    const struct utouch_frame_touch_op *op);

/**
 * Drop the frame being built, if any; the next frame starts again from
 * the last one returned.
 *
 * @param builder the builder; NULL is ignored
 */
FRAME_PUBLIC
void utouch_frame_builder_cancel(UTouchFrameBuilder builder);

/**
 * Finish the frame being built: its active touch count becomes its number
 * of touches, and it is returned in a Frame event at @p time.  It becomes
 * the frame the next one is built from.
 *
 * @param builder the builder
 * @param time the event time, ms
 * @param[out] event receives the event (one reference, for the caller)
 * @return UFStatusSuccess; UFStatusErrorResources when out of memory (the
 *         frame is dropped as by utouch_frame_builder_cancel());
 *         UFStatusErrorGeneric for NULL arguments or no frame being built
 */
FRAME_PUBLIC
UFStatus utouch_frame_builder_end(UTouchFrameBuilder builder, uint64_t time,
				  UFEvent *event);

/**
 * Create a DeviceAdded or DeviceRemoved event for @p device at @p time.
 *
 * @param device the device
 * @param type UFEventTypeDeviceAdded or UFEventTypeDeviceRemoved
 * @param time the event time, ms
 * @param[out] event receives the event (one reference, for the caller)
 * @return UFStatusSuccess, UFStatusErrorResources when out of memory,
 *         UFStatusErrorGeneric for NULL arguments or another @p type
 */
FRAME_PUBLIC
UFStatus utouch_frame_device_event_new(UFBackendDevice device, UFEventType type,
				       uint64_t time, UFEvent *event);

#ifdef __cplusplus
}
#endif

#endif /* UTOUCH_FRAME_HANDLE_H */
