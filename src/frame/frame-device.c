/*
 * Devices and their axes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frame/frame-private.h"

#define DEVICE_BIT(p) (1u << (p))

static bool
axis_type_valid(UFAxisType type)
{
	return (unsigned int)type < UT_AXIS_COUNT;
}

void
ut_device_destroy(struct UFDevice_ *device)
{
	free(device->name);
	free(device);
}

FRAME_PUBLIC UFBackendDevice
frame_backend_device_new(void)
{
	struct UFDevice_ *device = calloc(1, sizeof(*device));

	if (!device)
		return NULL; /* out of memory, like every _new of the backend API */
	device->refcount = 1;
	device->set = DEVICE_BIT(UFDevicePropertyNumAxes);
	return (UFBackendDevice)(void *)device;
}

FRAME_PUBLIC UFDevice
frame_backend_device_get_device(UFBackendDevice device)
{
	return ut_device_from_backend(device);
}

FRAME_PUBLIC void
frame_backend_device_delete(UFBackendDevice device)
{
	ut_device_unref(ut_device_from_backend(device));
}

FRAME_PUBLIC void
frame_backend_device_set_name(UFBackendDevice backend, const char *name)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);
	char *copy = NULL;

	if (UT_CLIENT_BUG_IF(NULL, !device))
		return;
	if (name) {
		copy = strdup(name);
		if (!copy)
			return; /* keep the old name rather than lose it */
	}
	free(device->name);
	device->name = copy;
	if (copy)
		device->set |= DEVICE_BIT(UFDevicePropertyName);
	else
		device->set &= ~DEVICE_BIT(UFDevicePropertyName);
}

FRAME_PUBLIC void
frame_backend_device_set_direct(UFBackendDevice backend, int direct)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !device))
		return;
	device->direct = !!direct;
	device->set |= DEVICE_BIT(UFDevicePropertyDirect);
}

FRAME_PUBLIC void
frame_backend_device_set_independent(UFBackendDevice backend, int independent)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !device))
		return;
	device->independent = !!independent;
	device->set |= DEVICE_BIT(UFDevicePropertyIndependent);
}

FRAME_PUBLIC void
frame_backend_device_set_semi_mt(UFBackendDevice backend, int semi_mt)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !device))
		return;
	device->semi_mt = !!semi_mt;
	device->set |= DEVICE_BIT(UFDevicePropertySemiMT);
}

FRAME_PUBLIC void
frame_backend_device_set_max_touches(UFBackendDevice backend, unsigned int max_touches)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !device))
		return;
	device->max_touches = max_touches;
	device->set |= DEVICE_BIT(UFDevicePropertyMaxTouches);
}

FRAME_PUBLIC void
frame_backend_device_set_window_resolution(UFBackendDevice backend, float x, float y)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !device) || UT_CLIENT_BUG_IF(NULL, !isfinite(x) || !isfinite(y)))
		return;
	device->window_resolution_x = x;
	device->window_resolution_y = y;
	device->set |= DEVICE_BIT(UFDevicePropertyWindowResolutionX) |
		       DEVICE_BIT(UFDevicePropertyWindowResolutionY);
}

FRAME_PUBLIC void
frame_backend_device_add_axis(UFBackendDevice backend, UFAxisType type, float min,
			      float max, float resolution)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !device || !axis_type_valid(type) || !isfinite(min) ||
				   !isfinite(max) || !isfinite(resolution)))
		return;
	device->axes[type] = (struct UFAxis_){
		.type = type,
		.minimum = min,
		.maximum = max,
		.resolution = resolution,
	};
	device->axis_mask |= 1u << type;
}

FRAME_PUBLIC void
utouch_frame_backend_device_set_touch_handler(UFBackendDevice backend,
					      utouch_frame_touch_handler handler,
					      void *data)
{
	struct UFDevice_ *device = ut_device_from_backend(backend);

	if (UT_CLIENT_BUG_IF(NULL, !device))
		return;
	device->touch_handler = handler;
	device->touch_handler_data = handler ? data : NULL;
}

static UFStatus
dispatch_touch_decision(UFDevice device, UFWindowId window, UFTouchId touch_id,
			int accept)
{
	if (!device)
		return UFStatusErrorGeneric;
	if (!device->touch_handler)
		return UFStatusSuccess;
	return device->touch_handler(device->touch_handler_data, window, touch_id, accept);
}

FRAME_PUBLIC UFStatus
frame_accept_touch(UFDevice device, UFWindowId window, UFTouchId touch_id)
{
	return dispatch_touch_decision(device, window, touch_id, 1);
}

FRAME_PUBLIC UFStatus
frame_reject_touch(UFDevice device, UFWindowId window, UFTouchId touch_id)
{
	return dispatch_touch_decision(device, window, touch_id, 0);
}

/*
 * Properties
 */

enum value_kind {
	KIND_NONE,
	KIND_STRING,
	KIND_INT,
	KIND_UNSIGNED,
	KIND_FLOAT,
};

static enum value_kind
device_property_kind(UFDeviceProperty property)
{
	switch (property) {
	case UFDevicePropertyName:
		return KIND_STRING;
	case UFDevicePropertyDirect:
	case UFDevicePropertyIndependent:
	case UFDevicePropertySemiMT:
		return KIND_INT;
	case UFDevicePropertyMaxTouches:
	case UFDevicePropertyNumAxes:
		return KIND_UNSIGNED;
	case UFDevicePropertyWindowResolutionX:
	case UFDevicePropertyWindowResolutionY:
		return KIND_FLOAT;
	}
	return KIND_NONE;
}

static unsigned int
count_bits(uint32_t mask)
{
	return (unsigned int)__builtin_popcount(mask);
}

/* Checks shared by every getter: handles, known and set property, type. */
static UFStatus
device_check(UFDevice device, UFDeviceProperty property, const void *value,
	     enum value_kind want)
{
	enum value_kind kind;

	if (!device || !value) {
		ut_log_client_bug(NULL, "frame_device_get_property", "NULL device or value pointer");
		return UFStatusErrorGeneric;
	}
	kind = device_property_kind(property);
	if (kind == KIND_NONE)
		return UFStatusErrorUnknownProperty;
	if (want != KIND_NONE && kind != want) {
		ut_log_client_bug(NULL, "frame_device_get_property", "property %d read as the wrong type",
				  (int)property);
		return UFStatusErrorInvalidType;
	}
	if (!(device->set & DEVICE_BIT(property)))
		return UFStatusErrorUnknownProperty;
	return UFStatusSuccess;
}

static int
device_int(UFDevice device, UFDeviceProperty property)
{
	switch (property) {
	case UFDevicePropertyDirect:
		return device->direct;
	case UFDevicePropertyIndependent:
		return device->independent;
	case UFDevicePropertySemiMT:
		return device->semi_mt;
	default:
		return 0;
	}
}

static unsigned int
device_unsigned(UFDevice device, UFDeviceProperty property)
{
	if (property == UFDevicePropertyNumAxes)
		return count_bits(device->axis_mask);
	return device->max_touches;
}

static float
device_float(UFDevice device, UFDeviceProperty property)
{
	if (property == UFDevicePropertyWindowResolutionX)
		return device->window_resolution_x;
	return device->window_resolution_y;
}

FRAME_PUBLIC UFStatus
(frame_device_get_property)(UFDevice device, UFDeviceProperty property, void *value)
{
	UFStatus status = device_check(device, property, value, KIND_NONE);

	if (status != UFStatusSuccess)
		return status;
	switch (device_property_kind(property)) {
	case KIND_STRING:
		*(const char **)value = device->name;
		break;
	case KIND_INT:
		*(int *)value = device_int(device, property);
		break;
	case KIND_UNSIGNED:
		*(unsigned int *)value = device_unsigned(device, property);
		break;
	case KIND_FLOAT:
		*(float *)value = device_float(device, property);
		break;
	case KIND_NONE:
		return UFStatusErrorUnknownProperty;
	}
	return UFStatusSuccess;
}

FRAME_PUBLIC UFStatus
frame_device_get_property_string_(UFDevice device, UFDeviceProperty property,
				  char **value)
{
	UFStatus status = device_check(device, property, value, KIND_STRING);

	if (status == UFStatusSuccess)
		*value = device->name;
	return status;
}

FRAME_PUBLIC UFStatus
frame_device_get_property_const_string_(UFDevice device, UFDeviceProperty property,
					const char **value)
{
	UFStatus status = device_check(device, property, value, KIND_STRING);

	if (status == UFStatusSuccess)
		*value = device->name;
	return status;
}

FRAME_PUBLIC UFStatus
frame_device_get_property_int_(UFDevice device, UFDeviceProperty property, int *value)
{
	UFStatus status = device_check(device, property, value, KIND_INT);

	if (status == UFStatusSuccess)
		*value = device_int(device, property);
	return status;
}

FRAME_PUBLIC UFStatus
frame_device_get_property_bool_(UFDevice device, UFDeviceProperty property, _Bool *value)
{
	UFStatus status = device_check(device, property, value, KIND_INT);

	if (status == UFStatusSuccess)
		*value = device_int(device, property) != 0;
	return status;
}

FRAME_PUBLIC UFStatus
frame_device_get_property_unsigned_int_(UFDevice device, UFDeviceProperty property,
					unsigned int *value)
{
	UFStatus status = device_check(device, property, value, KIND_UNSIGNED);

	if (status == UFStatusSuccess)
		*value = device_unsigned(device, property);
	return status;
}

FRAME_PUBLIC UFStatus
frame_device_get_property_float_(UFDevice device, UFDeviceProperty property,
				 float *value)
{
	UFStatus status = device_check(device, property, value, KIND_FLOAT);

	if (status == UFStatusSuccess)
		*value = device_float(device, property);
	return status;
}

FRAME_PUBLIC unsigned int
frame_device_get_num_axes(UFDevice device)
{
	return UT_CLIENT_BUG_IF(NULL, !device) ? 0 : count_bits(device->axis_mask);
}

FRAME_PUBLIC float
frame_device_get_window_resolution_x(UFDevice device)
{
	float value = 0.0f;

	if (frame_device_get_property_float_(device, UFDevicePropertyWindowResolutionX,
					     &value) != UFStatusSuccess)
		return 0.0f;
	return value;
}

FRAME_PUBLIC float
frame_device_get_window_resolution_y(UFDevice device)
{
	float value = 0.0f;

	if (frame_device_get_property_float_(device, UFDevicePropertyWindowResolutionY,
					     &value) != UFStatusSuccess)
		return 0.0f;
	return value;
}

/*
 * Axes
 */

FRAME_PUBLIC UFStatus
frame_device_get_axis_by_index(UFDevice device, unsigned int index, UFAxis *axis)
{
	if (UT_CLIENT_BUG_IF(NULL, !device || !axis))
		return UFStatusErrorInvalidAxis;
	for (unsigned int type = 0; type < UT_AXIS_COUNT; type++) {
		if (!(device->axis_mask & (1u << type)))
			continue;
		if (index-- == 0) {
			*axis = &device->axes[type];
			return UFStatusSuccess;
		}
	}
	return UFStatusErrorInvalidAxis;
}

FRAME_PUBLIC UFStatus
frame_device_get_axis_by_type(UFDevice device, UFAxisType type, UFAxis *axis)
{
	if (!device || !axis || !axis_type_valid(type) ||
	    !(device->axis_mask & (1u << type)))
		return UFStatusErrorInvalidAxis;
	*axis = &device->axes[type];
	return UFStatusSuccess;
}

FRAME_PUBLIC UFAxisType
frame_axis_get_type(UFAxis axis)
{
	return UT_CLIENT_BUG_IF(NULL, !axis) ? UFAxisTypeX : axis->type;
}

FRAME_PUBLIC float
frame_axis_get_minimum(UFAxis axis)
{
	return UT_CLIENT_BUG_IF(NULL, !axis) ? 0.0f : axis->minimum;
}

FRAME_PUBLIC float
frame_axis_get_maximum(UFAxis axis)
{
	return UT_CLIENT_BUG_IF(NULL, !axis) ? 0.0f : axis->maximum;
}

FRAME_PUBLIC float
frame_axis_get_resolution(UFAxis axis)
{
	return UT_CLIENT_BUG_IF(NULL, !axis) ? 0.0f : axis->resolution;
}
