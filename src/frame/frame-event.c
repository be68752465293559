/*
 * Events: device added/removed and frame events.
 */
#include <stdlib.h>

#include "frame/frame-peer.h"
#include "frame/frame-private.h"

FRAME_PUBLIC UFEvent
frame_event_new(void)
{
	struct UFEvent_ *event = ut_pool_get(UT_POOL_EVENT, NULL);

	if (!event)
		return NULL; /* out of memory */
	*event = (struct UFEvent_){ .refcount = 1 };
	return event;
}

static void
event_set_frame(struct UFEvent_ *event, struct UFFrame_ *frame)
{
	struct UFFrame_ *old = event->frame;

	if (frame) {
		frame->refcount++;
		frame->event_holders++;
	}
	event->frame = frame;
	if (old) {
		ut_frame_release_event_hold(old);
		ut_frame_unref(old);
	}
}

FRAME_PUBLIC void
frame_event_ref(UFEvent event)
{
	if (event)
		event->refcount++;
}

/* The last reference to @p event is gone.  Out of line, so that dropping
 * any other reference costs frame_event_unref() no saved registers. */
static __attribute__((noinline)) void
event_release(UFEvent event)
{
	event_set_frame(event, NULL);
	ut_device_unref(event->device);
	event->device = NULL;
	if (!ut_pool_put(UT_POOL_EVENT, event))
		free(event);
}

FRAME_PUBLIC void
frame_event_unref(UFEvent event)
{
	if (event && --event->refcount <= 0)
		event_release(event);
}

FRAME_PUBLIC void
frame_event_set_type(UFEvent event, UFEventType type)
{
	if (!event || (unsigned int)type > UFEventTypeFrame)
		return;
	event->type = type;
	event->set |= UT_EVENT_SET_TYPE;
}

FRAME_PUBLIC void
frame_event_set_device(UFEvent event, UFBackendDevice backend)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !event))
		return;
	ut_device_ref(device);
	ut_device_unref(event->device);
	event->device = device;
}

FRAME_PUBLIC void
frame_event_set_frame(UFEvent event, UFBackendFrame frame)
{
	if (event)
		event_set_frame(event, ut_frame_from_backend(frame));
}

FRAME_PUBLIC void
frame_event_set_time(UFEvent event, uint64_t time)
{
	if (UT_CLIENT_BUG_IF(NULL, !event))
		return;
	event->time = time;
	event->set |= UT_EVENT_SET_TIME;
}

enum value_kind {
	KIND_NONE,
	KIND_TYPE,
	KIND_DEVICE,
	KIND_FRAME,
	KIND_UINT64,
};

static enum value_kind
event_property_kind(UFEventProperty property)
{
	switch (property) {
	case UFEventPropertyType:
		return KIND_TYPE;
	case UFEventPropertyDevice:
		return KIND_DEVICE;
	case UFEventPropertyFrame:
		return KIND_FRAME;
	case UFEventPropertyTime:
		return KIND_UINT64;
	}
	return KIND_NONE;
}

static bool
event_property_set(UFEvent event, enum value_kind kind)
{
	switch (kind) {
	case KIND_TYPE:
		return event->set & UT_EVENT_SET_TYPE;
	case KIND_DEVICE:
		return event->device != NULL;
	case KIND_FRAME:
		return event->frame != NULL;
	case KIND_UINT64:
		return event->set & UT_EVENT_SET_TIME;
	case KIND_NONE:
		break;
	}
	return false;
}

static UFStatus
event_check(UFEvent event, UFEventProperty property, const void *value,
	    enum value_kind want)
{
	enum value_kind kind;

	if (!event || !value) {
		ut_log_client_bug(NULL, "frame_event_get_property", "NULL event or value pointer");
		return UFStatusErrorGeneric;
	}
	kind = event_property_kind(property);
	if (kind == KIND_NONE)
		return UFStatusErrorUnknownProperty;
	if (want != KIND_NONE && kind != want) {
		ut_log_client_bug(NULL, "frame_event_get_property", "property %d read as the wrong type",
				  (int)property);
		return UFStatusErrorInvalidType;
	}
	if (!event_property_set(event, kind))
		return UFStatusErrorUnknownProperty;
	return UFStatusSuccess;
}

FRAME_PUBLIC UFStatus
(frame_event_get_property)(UFEvent event, UFEventProperty property, void *value)
{
	UFStatus status = event_check(event, property, value, KIND_NONE);

	if (status != UFStatusSuccess)
		return status;
	switch (event_property_kind(property)) {
	case KIND_TYPE:
		*(UFEventType *)value = event->type;
		break;
	case KIND_DEVICE:
		*(UFDevice *)value = event->device;
		break;
	case KIND_FRAME:
		*(UFFrame *)value = event->frame;
		break;
	case KIND_UINT64:
		*(uint64_t *)value = event->time;
		break;
	case KIND_NONE:
		return UFStatusErrorUnknownProperty;
	}
	return UFStatusSuccess;
}

FRAME_PUBLIC UFStatus
frame_event_get_property_type_(UFEvent event, UFEventProperty property,
			       UFEventType *value)
{
	UFStatus status = event_check(event, property, value, KIND_TYPE);

	if (status == UFStatusSuccess)
		*value = event->type;
	return status;
}

FRAME_PUBLIC UFStatus
frame_event_get_property_device_(UFEvent event, UFEventProperty property,
				 UFDevice *value)
{
	UFStatus status = event_check(event, property, value, KIND_DEVICE);

	if (status == UFStatusSuccess)
		*value = event->device;
	return status;
}

FRAME_PUBLIC UFStatus
frame_event_get_property_frame_(UFEvent event, UFEventProperty property,
				UFFrame *value)
{
	UFStatus status = event_check(event, property, value, KIND_FRAME);

	if (status == UFStatusSuccess)
		*value = event->frame;
	return status;
}

FRAME_PUBLIC UFStatus
frame_event_get_property_uint64_(UFEvent event, UFEventProperty property,
				 uint64_t *value)
{
	UFStatus status = event_check(event, property, value, KIND_UINT64);

	if (status == UFStatusSuccess)
		*value = event->time;
	return status;
}

FRAME_PUBLIC UFEventType
frame_event_get_type(UFEvent event)
{
	return UT_CLIENT_BUG_IF(NULL, !event) ? UFEventTypeDeviceAdded : event->type;
}

FRAME_PUBLIC uint64_t
frame_event_get_time(UFEvent event)
{
	return UT_CLIENT_BUG_IF(NULL, !event) ? 0 : event->time;
}
