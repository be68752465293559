/*
 * Frames: the touches of one device over one window at one time.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "frame/frame-peer.h"
#include "frame/frame-private.h"

/* Serials identify the frame a touch was borrowed from, even after a
 * frame's memory has been recycled for another frame. */
atomic_uint_fast64_t ut_frame_next_serial = 1;

/* Free one frame whose refcount reached zero, except its prev link. */
static void
frame_release(struct UFFrame_ *frame)
{
	for (unsigned int i = 0; i < frame->num_touches; i++)
		ut_touch_unref(frame->touches[i]);
	frame->num_touches = 0;
	ut_device_unref(frame->device);
	frame->device = NULL;
	if (ut_pool_put(UT_POOL_FRAME, frame))
		return;
	if (frame->touches != frame->inline_touches)
		free(frame->touches);
	free(frame);
}

void
ut_frame_unref_last(struct UFFrame_ *frame)
{
	/* A loop rather than recursion: a chain of previous frames can be long. */
	while (frame && --frame->refcount == 0) {
		struct UFFrame_ *prev = frame->prev;

		frame->prev = NULL;
		frame_release(frame);
		frame = prev;
	}
}

bool
ut_frame_grow(struct UFFrame_ *frame, unsigned int count)
{
	struct UFTouch_ **touches;
	unsigned int capacity = frame->capacity;

	while (capacity < count)
		capacity *= 2;
	if (frame->touches == frame->inline_touches) {
		touches = ut_frame_malloc(capacity * sizeof(*touches));
		if (touches)
			memcpy(touches, frame->inline_touches,
			       frame->num_touches * sizeof(*touches));
	} else {
		touches = ut_frame_realloc(frame->touches, capacity * sizeof(*touches));
	}
	if (!touches)
		return false;
	frame->touches = touches;
	frame->capacity = capacity;
	return true;
}

struct UFTouch_ *
ut_frame_find_touch(const struct UFFrame_ *frame, UFTouchId id, unsigned int *index)
{
	for (unsigned int i = 0; i < frame->num_touches; i++) {
		if (frame->touches[i]->id == id) {
			if (index)
				*index = i;
			return frame->touches[i];
		}
	}
	return NULL;
}

FRAME_PUBLIC UFBackendFrame
frame_backend_frame_new(void)
{
	return (UFBackendFrame)(void *)ut_frame_alloc();
}

FRAME_PUBLIC UFBackendFrame
frame_backend_frame_create_next(UFBackendFrame backend)
{
	struct UFFrame_ *frame;
	uint64_t borrowed;

	if (UT_CLIENT_BUG_IF(NULL, !backend))
		return NULL;
	frame = ut_frame_next(ut_frame_from_backend(backend), &borrowed);
	if (frame)
		ut_frame_settle(frame, borrowed);
	return (UFBackendFrame)(void *)frame;
}

FRAME_PUBLIC UFFrame
frame_backend_frame_get_frame(UFBackendFrame frame)
{
	return ut_frame_from_backend(frame);
}

FRAME_PUBLIC void
frame_backend_frame_delete(UFBackendFrame frame)
{
	ut_frame_unref(ut_frame_from_backend(frame));
}

FRAME_PUBLIC void
frame_backend_frame_set_device(UFBackendFrame backend, UFBackendDevice device)
{
	struct UFFrame_ *frame = ut_frame_from_backend(backend);
	struct UFDevice_ *new_device = ut_device_from_backend(device);

	if (UT_CLIENT_BUG_IF(NULL, !frame))
		return;
	ut_device_ref(new_device);
	ut_device_unref(frame->device);
	frame->device = new_device;
	if (new_device)
		frame->set |= UT_FRAME_SET_DEVICE;
	else
		frame->set &= ~(uint32_t)UT_FRAME_SET_DEVICE;
}

FRAME_PUBLIC void
frame_backend_frame_set_window_id(UFBackendFrame backend, UFWindowId window_id)
{
	struct UFFrame_ *frame = ut_frame_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !frame))
		return;
	frame->window_id = window_id;
	frame->set |= UT_FRAME_SET_WINDOW;
}

FRAME_PUBLIC void
frame_backend_frame_set_active_touches(UFBackendFrame backend, unsigned int active_touches)
{
	struct UFFrame_ *frame = ut_frame_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !frame))
		return;
	frame->active_touches = active_touches;
	frame->set |= UT_FRAME_SET_ACTIVE;
}

FRAME_PUBLIC UFStatus
frame_backend_frame_borrow_touch_by_id(UFBackendFrame backend, UFTouchId id,
				       UFBackendTouch *touch)
{
	struct UFFrame_ *frame = ut_frame_from_backend(backend);
	struct UFTouch_ *found;
	UFBackendTouch handle;

	if (UT_CLIENT_BUG_IF(NULL, !frame || !touch))
		return UFStatusErrorInvalidTouch;
	found = ut_frame_find_touch(frame, id, NULL);
	if (!found)
		return UFStatusErrorInvalidTouch;
	handle = ut_backend_touch_borrow(found, frame->serial);
	if (!handle)
		return UFStatusErrorResources;
	*touch = handle;
	return UFStatusSuccess;
}

FRAME_PUBLIC UFStatus
frame_backend_frame_give_touch(UFBackendFrame backend, UFBackendTouch *touch)
{
	struct UFFrame_ *frame = ut_frame_from_backend(backend);
	UFBackendTouch handle;
	unsigned int slot = 0, other = 0;
	bool have_slot = false;

	if (!frame || !touch || !*touch)
		return UFStatusErrorGeneric;
	handle = *touch;
	if (handle->lost_change)
		return UFStatusErrorResources; /* the producer keeps the handle */

	if (handle->frame_serial == frame->serial)
		have_slot = ut_frame_find_touch(frame, handle->borrowed_id, &slot) != NULL;
	if (ut_frame_find_touch(frame, handle->touch->id, &other) &&
	    !(have_slot && other == slot))
		return UFStatusErrorTouchIdExists;

	frame->set &= ~(uint32_t)UT_FRAME_SET_ALL_UPDATE; /* any touch, any state */
	if (have_slot) {
		ut_touch_unref(frame->touches[slot]);
		frame->touches[slot] = handle->touch;
	} else {
		if (!ut_frame_reserve(frame, frame->num_touches + 1))
			return UFStatusErrorResources;
		frame->touches[frame->num_touches++] = handle->touch;
	}
	ut_backend_touch_consume(handle);
	*touch = NULL;
	return UFStatusSuccess;
}

struct UFTouch_ *
ut_frame_add_touch(struct UFFrame_ *frame, UFTouchId id)
{
	struct UFTouch_ *touch;

	if (ut_frame_find_touch(frame, id, NULL))
		return NULL;
	if (!ut_frame_reserve(frame, frame->num_touches + 1))
		return NULL;
	touch = ut_touch_new();
	if (!touch)
		return NULL;
	touch->id = id;
	touch->set |= (uint16_t)(1u << UFTouchPropertyId);
	frame->touches[frame->num_touches++] = touch;
	return touch;
}

/*
 * Consumer side
 */

FRAME_PUBLIC UFStatus
frame_frame_get_touch_by_index(UFFrame frame, unsigned int index, UFTouch *touch)
{
	if (!frame || !touch || index >= frame->num_touches)
		return UFStatusErrorInvalidTouch;
	*touch = frame->touches[index];
	return UFStatusSuccess;
}

FRAME_PUBLIC UFStatus
frame_frame_get_touch_by_id(UFFrame frame, UFTouchId touch_id, UFTouch *touch)
{
	struct UFTouch_ *found;

	if (UT_CLIENT_BUG_IF(NULL, !frame || !touch))
		return UFStatusErrorInvalidTouch;
	found = ut_frame_find_touch(frame, touch_id, NULL);
	if (!found)
		return UFStatusErrorInvalidTouch;
	*touch = found;
	return UFStatusSuccess;
}

static struct UFTouch_ *
previous_touch(UFFrame frame, UFTouch touch)
{
	if (!frame || !touch || !frame->prev)
		return NULL;
	return ut_frame_find_touch(frame->prev, touch->id, NULL);
}

FRAME_PUBLIC UFStatus
frame_frame_get_previous_touch_property(UFFrame frame, UFTouch touch,
					UFTouchProperty property, void *value)
{
	struct UFTouch_ *prev = previous_touch(frame, touch);

	if (UT_CLIENT_BUG_IF(NULL, !prev))
		return UFStatusErrorInvalidTouch;
	return (frame_touch_get_property)(prev, property, value);
}

FRAME_PUBLIC UFStatus
frame_frame_get_previous_touch_value(UFFrame frame, UFTouch touch, UFAxisType type,
				     float *value)
{
	struct UFTouch_ *prev = previous_touch(frame, touch);

	if (UT_CLIENT_BUG_IF(NULL, !prev))
		return UFStatusErrorInvalidTouch;
	return frame_touch_get_value(prev, type, value);
}

enum value_kind {
	KIND_NONE,
	KIND_DEVICE,
	KIND_WINDOW,
	KIND_UNSIGNED,
};

static enum value_kind
frame_property_kind(UFFrameProperty property)
{
	switch (property) {
	case UFFramePropertyDevice:
		return KIND_DEVICE;
	case UFFramePropertyWindowId:
		return KIND_WINDOW;
	case UFFramePropertyNumTouches:
	case UFFramePropertyActiveTouches:
		return KIND_UNSIGNED;
	}
	return KIND_NONE;
}

static UFStatus
frame_check(UFFrame frame, UFFrameProperty property, const void *value,
	    enum value_kind want)
{
	enum value_kind kind;

	if (!frame || !value) {
		ut_log_client_bug(NULL, "frame_frame_get_property", "NULL frame or value pointer");
		return UFStatusErrorGeneric;
	}
	kind = frame_property_kind(property);
	if (kind == KIND_NONE)
		return UFStatusErrorUnknownProperty;
	if (want != KIND_NONE && kind != want) {
		ut_log_client_bug(NULL, "frame_frame_get_property", "property %d read as the wrong type",
				  (int)property);
		return UFStatusErrorInvalidType;
	}
	if (kind == KIND_DEVICE && !(frame->set & UT_FRAME_SET_DEVICE))
		return UFStatusErrorUnknownProperty;
	if (kind == KIND_WINDOW && !(frame->set & UT_FRAME_SET_WINDOW))
		return UFStatusErrorUnknownProperty;
	return UFStatusSuccess;
}

static unsigned int
frame_unsigned(UFFrame frame, UFFrameProperty property)
{
	if (property == UFFramePropertyActiveTouches && (frame->set & UT_FRAME_SET_ACTIVE))
		return frame->active_touches;
	return frame->num_touches;
}

FRAME_PUBLIC UFStatus
(frame_frame_get_property)(UFFrame frame, UFFrameProperty property, void *value)
{
	UFStatus status = frame_check(frame, property, value, KIND_NONE);

	if (status != UFStatusSuccess)
		return status;
	switch (frame_property_kind(property)) {
	case KIND_DEVICE:
		*(UFDevice *)value = frame->device;
		break;
	case KIND_WINDOW:
		*(UFWindowId *)value = frame->window_id;
		break;
	case KIND_UNSIGNED:
		*(unsigned int *)value = frame_unsigned(frame, property);
		break;
	case KIND_NONE:
		return UFStatusErrorUnknownProperty;
	}
	return UFStatusSuccess;
}

FRAME_PUBLIC UFStatus
frame_frame_get_property_device_(UFFrame frame, UFFrameProperty property,
				 UFDevice *value)
{
	UFStatus status = frame_check(frame, property, value, KIND_DEVICE);

	if (status == UFStatusSuccess)
		*value = frame->device;
	return status;
}

FRAME_PUBLIC UFStatus
frame_frame_get_property_window_id_(UFFrame frame, UFFrameProperty property,
				    UFWindowId *value)
{
	UFStatus status = frame_check(frame, property, value, KIND_WINDOW);

	if (status == UFStatusSuccess)
		*value = frame->window_id;
	return status;
}

FRAME_PUBLIC UFStatus
frame_frame_get_property_uint64_(UFFrame frame, UFFrameProperty property,
				 uint64_t *value)
{
	return frame_frame_get_property_window_id_(frame, property, value);
}

FRAME_PUBLIC UFStatus
frame_frame_get_property_unsigned_int_(UFFrame frame, UFFrameProperty property,
				       unsigned int *value)
{
	UFStatus status = frame_check(frame, property, value, KIND_UNSIGNED);

	if (status == UFStatusSuccess)
		*value = frame_unsigned(frame, property);
	return status;
}

FRAME_PUBLIC uint32_t
frame_frame_get_num_touches(UFFrame frame)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? 0 : frame->num_touches;
}

FRAME_PUBLIC UFDevice
frame_frame_get_device(UFFrame frame)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? NULL : frame->device;
}

FRAME_PUBLIC UFWindowId
frame_frame_get_window_id(UFFrame frame)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? 0 : frame->window_id;
}

/* frame-peer.h: the layout grail reads in place, as this library sees it */
UT_FRAME_PRIVATE unsigned int
ut_frame_peer_layout(void)
{
	return UT_FRAME_PEER_LAYOUT;
}
