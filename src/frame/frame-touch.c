/*
 * Touches: backend touch handles (copy on write) and property getters.
 */
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "frame/frame-private.h"


static UFBackendTouch
backend_touch_wrap(struct UFTouch_ *touch, uint64_t frame_serial, UFTouchId id)
{
	UFBackendTouch handle = ut_pool_get(UT_POOL_BACKEND_TOUCH, NULL);

	if (!handle)
		return NULL;
	handle->touch = touch;
	handle->frame_serial = frame_serial;
	handle->borrowed_id = id;
	handle->lost_change = false;
	return handle;
}

static void
backend_touch_release(UFBackendTouch handle)
{
	if (!ut_pool_put(UT_POOL_BACKEND_TOUCH, handle))
		free(handle);
}

struct UFTouch_ *
ut_touch_new(void)
{
	struct UFTouch_ *touch = ut_pool_get(UT_POOL_TOUCH, NULL);

	if (!touch)
		return NULL;
	memset(touch, 0, sizeof(*touch));
	touch->refcount = 1;
	touch->state = UFTouchStateBegin;
	touch->set = UT_TOUCH_BIT(UFTouchPropertyState);
	return touch;
}

FRAME_PUBLIC UFBackendTouch
frame_backend_touch_new(void)
{
	struct UFTouch_ *touch = ut_touch_new();
	UFBackendTouch handle;

	if (!touch)
		return NULL; /* out of memory */
	handle = backend_touch_wrap(touch, 0, 0);
	if (!handle)
		ut_touch_release(touch);
	return handle;
}

UFBackendTouch
ut_backend_touch_borrow(struct UFTouch_ *touch, uint64_t frame_serial)
{
	UFBackendTouch handle = backend_touch_wrap(touch, frame_serial, touch->id);

	if (handle)
		touch->refcount++;
	return handle;
}

void
ut_backend_touch_consume(UFBackendTouch handle)
{
	backend_touch_release(handle);
}

FRAME_PUBLIC void
utouch_frame_backend_touch_delete(UFBackendTouch handle)
{
	if (!handle)
		return;
	ut_touch_unref(handle->touch);
	backend_touch_release(handle);
}

FRAME_PUBLIC UFTouch
frame_backend_touch_get_touch(UFBackendTouch handle)
{
	return UT_CLIENT_BUG_IF(NULL, !handle) ? NULL : handle->touch;
}

/*
 * The touch to write through @p handle: private to the handle, copied
 * first if a frame shares it.  NULL out of memory: the change is then
 * lost and the touch left as it was, and the handle remembers it, so that
 * frame_backend_frame_give_touch() refuses the touch instead of putting
 * it into a frame with some of its changes missing.
 */
static struct UFTouch_ *
writable(UFBackendTouch handle)
{
	struct UFTouch_ *copy;

	if (handle->touch->refcount == 1)
		return handle->touch;
	copy = ut_touch_clone(handle->touch);
	if (!copy) {
		handle->lost_change = true;
		return NULL;
	}
	handle->touch->refcount--;
	handle->touch = copy;
	return copy;
}

/* writable() for a public setter, which reports a NULL handle as a client
 * bug in its own name. */
#define WRITABLE(h) (UT_CLIENT_BUG_IF(NULL, !h) ? NULL : writable(h)) /* h: a name */

FRAME_PUBLIC void
frame_backend_touch_set_id(UFBackendTouch handle, UFTouchId id)
{
	struct UFTouch_ *touch = WRITABLE(handle);

	if (!touch)
		return;
	touch->id = id;
	touch->set |= UT_TOUCH_BIT(UFTouchPropertyId);
}

FRAME_PUBLIC void
frame_backend_touch_set_ended(UFBackendTouch handle)
{
	struct UFTouch_ *touch = WRITABLE(handle);

	if (touch)
		touch->state = UFTouchStateEnd;
}

FRAME_PUBLIC void
frame_backend_touch_set_window_pos(UFBackendTouch handle, float x, float y)
{
	struct UFTouch_ *touch;

	if (UT_CLIENT_BUG_IF(NULL, !isfinite(x) || !isfinite(y)))
		return;
	touch = WRITABLE(handle);
	if (!touch)
		return;
	touch->window_x = x;
	touch->window_y = y;
	touch->set |= UT_TOUCH_BIT(UFTouchPropertyWindowX) | UT_TOUCH_BIT(UFTouchPropertyWindowY);
}

FRAME_PUBLIC void
frame_backend_touch_set_time(UFBackendTouch handle, uint64_t time)
{
	struct UFTouch_ *touch = WRITABLE(handle);

	if (!touch)
		return;
	touch->time = time;
	touch->set |= UT_TOUCH_BIT(UFTouchPropertyTime);
}

FRAME_PUBLIC void
frame_backend_touch_set_start_time(UFBackendTouch handle, uint64_t start_time)
{
	struct UFTouch_ *touch = WRITABLE(handle);

	if (!touch)
		return;
	touch->start_time = start_time;
	touch->set |= UT_TOUCH_BIT(UFTouchPropertyStartTime);
}

FRAME_PUBLIC void
frame_backend_touch_set_owned(UFBackendTouch handle, int owned)
{
	struct UFTouch_ *touch = WRITABLE(handle);

	if (!touch)
		return;
	touch->owned = !!owned;
	touch->set |= UT_TOUCH_BIT(UFTouchPropertyOwned);
}

FRAME_PUBLIC void
frame_backend_touch_set_pending_end(UFBackendTouch handle, int pending_end)
{
	struct UFTouch_ *touch = WRITABLE(handle);

	if (!touch)
		return;
	touch->pending_end = !!pending_end;
	touch->set |= UT_TOUCH_BIT(UFTouchPropertyPendingEnd);
}

FRAME_PUBLIC void
frame_backend_touch_set_value(UFBackendTouch handle, UFAxisType type, float value)
{
	struct UFTouch_ *touch;

	if (UT_CLIENT_BUG_IF(NULL, (unsigned int)type >= UT_AXIS_COUNT || !isfinite(value)))
		return;
	touch = WRITABLE(handle);
	if (!touch)
		return;
	touch->values[type] = value;
	touch->axis_mask |= (uint16_t)(1u << type);
}

/*
 * Getters
 */

enum value_kind {
	KIND_NONE,
	KIND_UINT64,
	KIND_STATE,
	KIND_FLOAT,
	KIND_INT,
};

static enum value_kind
touch_property_kind(UFTouchProperty property)
{
	switch (property) {
	case UFTouchPropertyId:
	case UFTouchPropertyTime:
	case UFTouchPropertyStartTime:
		return KIND_UINT64;
	case UFTouchPropertyState:
		return KIND_STATE;
	case UFTouchPropertyWindowX:
	case UFTouchPropertyWindowY:
		return KIND_FLOAT;
	case UFTouchPropertyOwned:
	case UFTouchPropertyPendingEnd:
		return KIND_INT;
	}
	return KIND_NONE;
}

static UFStatus
touch_check(UFTouch touch, UFTouchProperty property, const void *value,
	    enum value_kind want)
{
	enum value_kind kind;

	if (!touch || !value) {
		ut_log_client_bug(NULL, "frame_touch_get_property", "NULL touch or value pointer");
		return UFStatusErrorGeneric;
	}
	kind = touch_property_kind(property);
	if (kind == KIND_NONE)
		return UFStatusErrorUnknownProperty;
	if (want != KIND_NONE && kind != want) {
		ut_log_client_bug(NULL, "frame_touch_get_property", "property %d read as the wrong type",
				  (int)property);
		return UFStatusErrorInvalidType;
	}
	if (!(touch->set & UT_TOUCH_BIT(property)))
		return UFStatusErrorUnknownProperty;
	return UFStatusSuccess;
}

static uint64_t
touch_uint64(UFTouch touch, UFTouchProperty property)
{
	switch (property) {
	case UFTouchPropertyId:
		return touch->id;
	case UFTouchPropertyTime:
		return touch->time;
	case UFTouchPropertyStartTime:
		return touch->start_time;
	default:
		return 0;
	}
}

static float
touch_float(UFTouch touch, UFTouchProperty property)
{
	return property == UFTouchPropertyWindowX ? touch->window_x : touch->window_y;
}

static int
touch_int(UFTouch touch, UFTouchProperty property)
{
	return property == UFTouchPropertyOwned ? touch->owned : touch->pending_end;
}

FRAME_PUBLIC UFStatus
(frame_touch_get_property)(UFTouch touch, UFTouchProperty property, void *value)
{
	UFStatus status = touch_check(touch, property, value, KIND_NONE);

	if (status != UFStatusSuccess)
		return status;
	switch (touch_property_kind(property)) {
	case KIND_UINT64:
		*(uint64_t *)value = touch_uint64(touch, property);
		break;
	case KIND_STATE:
		*(UFTouchState *)value = touch->state;
		break;
	case KIND_FLOAT:
		*(float *)value = touch_float(touch, property);
		break;
	case KIND_INT:
		*(int *)value = touch_int(touch, property);
		break;
	case KIND_NONE:
		return UFStatusErrorUnknownProperty;
	}
	return UFStatusSuccess;
}

FRAME_PUBLIC UFStatus
frame_touch_get_property_uint64_(UFTouch touch, UFTouchProperty property,
				 uint64_t *value)
{
	UFStatus status = touch_check(touch, property, value, KIND_UINT64);

	if (status == UFStatusSuccess)
		*value = touch_uint64(touch, property);
	return status;
}

FRAME_PUBLIC UFStatus
frame_touch_get_property_state_(UFTouch touch, UFTouchProperty property,
				UFTouchState *value)
{
	UFStatus status = touch_check(touch, property, value, KIND_STATE);

	if (status == UFStatusSuccess)
		*value = touch->state;
	return status;
}

FRAME_PUBLIC UFStatus
frame_touch_get_property_float_(UFTouch touch, UFTouchProperty property, float *value)
{
	UFStatus status = touch_check(touch, property, value, KIND_FLOAT);

	if (status == UFStatusSuccess)
		*value = touch_float(touch, property);
	return status;
}

FRAME_PUBLIC UFStatus
frame_touch_get_property_int_(UFTouch touch, UFTouchProperty property, int *value)
{
	UFStatus status = touch_check(touch, property, value, KIND_INT);

	if (status == UFStatusSuccess)
		*value = touch_int(touch, property);
	return status;
}

FRAME_PUBLIC UFStatus
frame_touch_get_property_bool_(UFTouch touch, UFTouchProperty property, _Bool *value)
{
	UFStatus status = touch_check(touch, property, value, KIND_INT);

	if (status == UFStatusSuccess)
		*value = touch_int(touch, property) != 0;
	return status;
}

FRAME_PUBLIC UFStatus
frame_touch_get_value(UFTouch touch, UFAxisType type, float *value)
{
	if (!touch || !value || (unsigned int)type >= UT_AXIS_COUNT ||
	    !(touch->axis_mask & (1u << type)))
		return UFStatusErrorInvalidAxis;
	*value = touch->values[type];
	return UFStatusSuccess;
}

FRAME_PUBLIC UFTouchId
frame_touch_get_id(UFTouch touch)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? 0 : touch->id;
}

FRAME_PUBLIC UFTouchState
frame_touch_get_state(UFTouch touch)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? UFTouchStateBegin : touch->state;
}

FRAME_PUBLIC float
frame_touch_get_window_x(UFTouch touch)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? 0.0f : touch->window_x;
}

FRAME_PUBLIC float
frame_touch_get_window_y(UFTouch touch)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? 0.0f : touch->window_y;
}

static float
axis_or_zero(UFTouch touch, UFAxisType type)
{
	float value = 0.0f;

	if (frame_touch_get_value(touch, type, &value) != UFStatusSuccess)
		return 0.0f;
	return value;
}

FRAME_PUBLIC float
frame_touch_get_device_x(UFTouch touch)
{
	return axis_or_zero(touch, UFAxisTypeX);
}

FRAME_PUBLIC float
frame_touch_get_device_y(UFTouch touch)
{
	return axis_or_zero(touch, UFAxisTypeY);
}

FRAME_PUBLIC uint64_t
frame_touch_get_time(UFTouch touch)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? 0 : touch->time;
}

FRAME_PUBLIC uint64_t
frame_touch_get_start_time(UFTouch touch)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? 0 : touch->start_time;
}
