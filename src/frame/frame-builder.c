/*
 * The frame builder: one (device, window) frame sequence, built one touch
 * operation at a time.  See frame-builder.h and <utouch/frame_handle.h>.
 *
 * A frame is written in place through the frame library's producer
 * shortcuts (frame-private.h): the frame being built has not been seen by
 * any consumer, and a touch is copied before its first change when the
 * previous frame shares it.  The result is what borrowing or creating a
 * backend touch, setting its properties and giving it back makes.
 */
#include <math.h>
#include <stdlib.h>

#include "frame/frame-builder.h"
#include "frame/frame-private.h"

struct UTouchFrameBuilder_ {
	struct ut_frame_builder b;
};

void
ut_frame_builder_init(struct ut_frame_builder *b, UFBackendDevice device,
		      UFWindowId window, int own_at_begin)
{
	ut_device_ref(ut_device_from_backend(device));
	*b = (struct ut_frame_builder){
		.device = device,
		.window = window,
		.own_at_begin = own_at_begin,
	};
}

void
ut_frame_builder_fini(struct ut_frame_builder *b)
{
	ut_frame_builder_cancel(b);
	ut_frame_unref(ut_frame_from_backend(b->prev));
	ut_device_unref(ut_device_from_backend(b->device));
	*b = (struct ut_frame_builder){ 0 };
}

/* What the public API refuses before anything changes. */
static UFStatus
check_op(const struct utouch_frame_touch_op *op)
{
	uint32_t known = UTOUCH_FRAME_SET_POSITION | UTOUCH_FRAME_SET_PENDING_END |
			 ((1u << UT_AXIS_COUNT) - 1);
	uint32_t axes = op->set & ((1u << UT_AXIS_COUNT) - 1);

	if ((unsigned int)op->kind > UTOUCH_FRAME_OP_PENDING_END)
		return UFStatusErrorGeneric;
	if (op->kind == UTOUCH_FRAME_OP_OWN)
		return UFStatusSuccess;
	if (op->set & ~known)
		return UFStatusErrorInvalidAxis;
	if ((op->set & UTOUCH_FRAME_SET_POSITION) &&
	    (!isfinite(op->window_x) || !isfinite(op->window_y)))
		return UFStatusErrorInvalidAxis;
	for (unsigned int i = 0; i < UT_AXIS_COUNT; i++)
		if ((axes & (1u << i)) && !isfinite(op->values[i]))
			return UFStatusErrorInvalidAxis;
	return UFStatusSuccess;
}

UFStatus
ut_frame_builder_touch(struct ut_frame_builder *b, const struct utouch_frame_touch_op *op)
{
	UFStatus status = check_op(op);

	if (status != UFStatusSuccess)
		return status;
	if (!b->cur)
		return UFStatusErrorGeneric;
	return ut_frame_builder_apply(b, op->kind, op->id, op->time, op->start_time,
				      op->set, op->pending_end, op->window_x, op->window_y,
				      op->values, false, 0);
}

/*
 * Public API
 */

FRAME_PUBLIC UFStatus
utouch_frame_builder_new(UFBackendDevice device, UFWindowId window, int own_at_begin,
			 UTouchFrameBuilder *builder)
{
	UTouchFrameBuilder fb;

	if (UT_CLIENT_BUG_IF(NULL, !device || !builder))
		return UFStatusErrorGeneric;
	*builder = NULL;
	fb = calloc(1, sizeof(*fb));
	if (!fb)
		return UFStatusErrorResources;
	ut_frame_builder_init(&fb->b, device, window, own_at_begin);
	*builder = fb;
	return UFStatusSuccess;
}

FRAME_PUBLIC void
utouch_frame_builder_delete(UTouchFrameBuilder builder)
{
	if (!builder)
		return;
	ut_frame_builder_fini(&builder->b);
	free(builder);
}

FRAME_PUBLIC UFStatus
utouch_frame_builder_begin(UTouchFrameBuilder builder)
{
	if (UT_CLIENT_BUG_IF(NULL, !builder))
		return UFStatusErrorGeneric;
	return ut_frame_builder_begin(&builder->b);
}

FRAME_PUBLIC UFStatus
utouch_frame_builder_touch(UTouchFrameBuilder builder, const struct utouch_frame_touch_op *op)
{
	if (UT_CLIENT_BUG_IF(NULL, !builder || !op))
		return UFStatusErrorGeneric;
	return ut_frame_builder_touch(&builder->b, op);
}

FRAME_PUBLIC void
utouch_frame_builder_cancel(UTouchFrameBuilder builder)
{
	if (builder)
		ut_frame_builder_cancel(&builder->b);
}

FRAME_PUBLIC UFStatus
utouch_frame_builder_end(UTouchFrameBuilder builder, uint64_t time, UFEvent *event)
{
	if (UT_CLIENT_BUG_IF(NULL, !builder || !event))
		return UFStatusErrorGeneric;
	return ut_frame_builder_end(&builder->b, time, event);
}

FRAME_PUBLIC UFStatus
utouch_frame_device_event_new(UFBackendDevice device, UFEventType type, uint64_t time,
			      UFEvent *event)
{
	UFEvent ev;

	if (UT_CLIENT_BUG_IF(NULL, !device || !event ||
				   (type != UFEventTypeDeviceAdded &&
				    type != UFEventTypeDeviceRemoved)))
		return UFStatusErrorGeneric;
	ev = frame_event_new();
	if (!ev)
		return UFStatusErrorResources;
	frame_event_set_type(ev, type);
	frame_event_set_device(ev, device);
	frame_event_set_time(ev, time);
	*event = ev;
	return UFStatusSuccess;
}
