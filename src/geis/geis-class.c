/*
 * Gesture classes: Drag, Pinch, Rotate, Tap and Touch, one per grail
 * gesture type.
 */
#include <stdlib.h>

#include "geis-private.h"

GeisGestureClass
gs_gesture_class_new(const char *name, GeisInteger id, UGGestureTypeMask mask)
{
	GeisGestureClass c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->ref = 1;
	c->id = id;
	c->mask = mask;
	gs_attr_bag_init(&c->attrs);
	if (gs_attr_bag_add_string(&c->attrs, GEIS_CLASS_ATTRIBUTE_NAME, name) ||
	    gs_attr_bag_add_integer(&c->attrs, GEIS_CLASS_ATTRIBUTE_ID, id)) {
		gs_attr_bag_fini(&c->attrs);
		free(c);
		return NULL;
	}
	return c;
}

GEIS_API void
geis_register_class_callback(Geis geis, GeisEventCallback event_callback,
			     void *context)
{
	if (UT_CLIENT_BUG_IF(NULL, !geis))
		return;
	geis->class_cb = event_callback;
	geis->class_ctx = context;
	gs_wake(geis);
}

GEIS_API void
geis_gesture_class_ref(GeisGestureClass gesture_class)
{
	if (gesture_class)
		gesture_class->ref++;
}

GEIS_API void
geis_gesture_class_unref(GeisGestureClass gesture_class)
{
	if (!gesture_class || --gesture_class->ref > 0)
		return;
	gs_attr_bag_fini(&gesture_class->attrs);
	free(gesture_class);
}

GEIS_API GeisString
geis_gesture_class_name(GeisGestureClass gesture_class)
{
	return geis_attr_value_to_string(gesture_class ?
		gs_attr_bag_find(&gesture_class->attrs, GEIS_CLASS_ATTRIBUTE_NAME) : NULL);
}

GEIS_API GeisInteger
geis_gesture_class_id(GeisGestureClass gesture_class)
{
	return UT_CLIENT_BUG_IF(NULL, !gesture_class) ? -1 : gesture_class->id;
}

GEIS_API GeisSize
geis_gesture_class_attr_count(GeisGestureClass gesture_class)
{
	return UT_CLIENT_BUG_IF(NULL, !gesture_class) ? 0 : gesture_class->attrs.count;
}

GEIS_API GeisAttr
geis_gesture_class_attr(GeisGestureClass gesture_class, int index)
{
	if (!gesture_class || index < 0)
		return NULL;
	return gs_attr_bag_get(&gesture_class->attrs, (GeisSize)index);
}
