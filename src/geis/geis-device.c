/*
 * Input device descriptions and gesture classes.
 */
#include <stdlib.h>

#include "geis-private.h"

static float
axis_value(UFDevice uf, UFAxisType type, float (*get)(UFAxis))
{
	UFAxis axis;

	if (frame_device_get_axis_by_type(uf, type, &axis) != UFStatusSuccess)
		return 0.0f;
	return get(axis);
}

GeisDevice
gs_device_new(Geis geis, UFDevice uf, GeisInteger id)
{
	GeisDevice d = calloc(1, sizeof(*d));
	const char *name = NULL;
	int direct = 0, independent = 0;
	unsigned int touches = 0;
	struct geis_attr_bag *b;
	int err = 0;

	if (!d)
		return NULL;
	d->ref = 1;
	ut_list_init(&d->link);
	ut_list_init(&d->owed_link);
	d->geis = geis;
	d->id = id;
	d->uf = uf;
	gs_attr_bag_init(&d->attrs);
	b = &d->attrs;
	frame_device_get_property(uf, UFDevicePropertyName, &name);
	frame_device_get_property(uf, UFDevicePropertyDirect, &direct);
	frame_device_get_property(uf, UFDevicePropertyIndependent, &independent);
	frame_device_get_property(uf, UFDevicePropertyMaxTouches, &touches);
	d->direct = direct != 0;
	err |= gs_attr_bag_add_string(b, GEIS_DEVICE_ATTRIBUTE_NAME, name ? name : "");
	err |= gs_attr_bag_add_integer(b, GEIS_DEVICE_ATTRIBUTE_ID, id);
	err |= gs_attr_bag_add_integer(b, GEIS_DEVICE_ATTRIBUTE_TOUCHES, (GeisInteger)touches);
	err |= gs_attr_bag_add_boolean(b, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH, direct != 0);
	err |= gs_attr_bag_add_boolean(b, GEIS_DEVICE_ATTRIBUTE_INDEPENDENT_TOUCH,
					 independent != 0);
	err |= gs_attr_bag_add_float(b, GEIS_DEVICE_ATTRIBUTE_MIN_X,
			axis_value(uf, UFAxisTypeX, frame_axis_get_minimum));
	err |= gs_attr_bag_add_float(b, GEIS_DEVICE_ATTRIBUTE_MAX_X,
			axis_value(uf, UFAxisTypeX, frame_axis_get_maximum));
	err |= gs_attr_bag_add_float(b, GEIS_DEVICE_ATTRIBUTE_RES_X,
			axis_value(uf, UFAxisTypeX, frame_axis_get_resolution));
	err |= gs_attr_bag_add_float(b, GEIS_DEVICE_ATTRIBUTE_MIN_Y,
			axis_value(uf, UFAxisTypeY, frame_axis_get_minimum));
	err |= gs_attr_bag_add_float(b, GEIS_DEVICE_ATTRIBUTE_MAX_Y,
			axis_value(uf, UFAxisTypeY, frame_axis_get_maximum));
	err |= gs_attr_bag_add_float(b, GEIS_DEVICE_ATTRIBUTE_RES_Y,
			axis_value(uf, UFAxisTypeY, frame_axis_get_resolution));
	if (err) {
		gs_attr_bag_fini(b);
		free(d);
		return NULL;
	}
	return d;
}

GEIS_API GeisDevice
geis_device_ref(GeisDevice device)
{
	if (device)
		device->ref++;
	return device;
}

GEIS_API void
geis_device_unref(GeisDevice device)
{
	if (!device || --device->ref > 0)
		return;
	gs_attr_bag_fini(&device->attrs);
	free(device);
}

GEIS_API GeisString
geis_device_name(GeisDevice device)
{
	return geis_attr_value_to_string(device ?
		gs_attr_bag_find(&device->attrs, GEIS_DEVICE_ATTRIBUTE_NAME) : NULL);
}

GEIS_API GeisInteger
geis_device_id(GeisDevice device)
{
	return UT_CLIENT_BUG_IF(NULL, !device) ? 0 : device->id;
}

GEIS_API GeisSize
geis_device_attr_count(GeisDevice device)
{
	return UT_CLIENT_BUG_IF(NULL, !device) ? 0 : device->attrs.count;
}

GEIS_API GeisAttr
geis_device_attr(GeisDevice device, GeisSize index)
{
	return UT_CLIENT_BUG_IF(NULL, !device) ? NULL : gs_attr_bag_get(&device->attrs, index);
}

GEIS_API GeisAttr
geis_device_attr_by_name(GeisDevice device, GeisString attr_name)
{
	return UT_CLIENT_BUG_IF(NULL, !device) ? NULL :
	       gs_attr_bag_find(&device->attrs, attr_name);
}

GEIS_API GeisDevice
geis_get_device(Geis geis, GeisInteger device_id)
{
	if (UT_CLIENT_BUG_IF(NULL, !geis))
		return NULL;
	ut_list_for_each(pos, &geis->devices) {
		GeisDevice d = ut_container_of(pos, struct _GeisDevice, link);

		if (d->id == device_id)
			return d;
	}
	return NULL;
}
