/*
 * Events and the event queue.
 */
#include <stdlib.h>

#include "geis-private.h"

GeisEvent
gs_event_new(GeisEventType type)
{
	GeisEvent ev = calloc(1, sizeof(*ev));

	if (!ev)
		return NULL;
	ev->type = type;
	gs_attr_bag_init(&ev->attrs);
	return ev;
}

static void
frame_free(struct _GeisFrame *f)
{
	if (!f)
		return;
	gs_attr_bag_fini(&f->attrs);
	free(f->touchids);
	free(f);
}

struct _GeisFrame *
gs_event_add_frame(GeisEvent ev, Geis geis, GeisInteger group_id,
		     GeisGestureId frame_id, GeisSize ntouches)
{
	struct _GeisFrame *f;

	ev->groupset = calloc(1, sizeof(*ev->groupset));
	ev->touchset = calloc(1, sizeof(*ev->touchset));
	if (!ev->groupset || !ev->touchset)
		return NULL;
	ev->groupset->groups = calloc(1, sizeof(struct _GeisGroup));
	if (!ev->groupset->groups)
		return NULL;
	ev->groupset->count = 1;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	ev->groupset->groups[0].geis = geis;
	ev->groupset->groups[0].id = group_id;
	ev->groupset->groups[0].frame = f;
	gs_attr_bag_init(&f->attrs);
	f->id = frame_id;
	if (ntouches > 0) {
		f->touchids = calloc(ntouches, sizeof(*f->touchids));
		ev->touchset->touches = calloc(ntouches, sizeof(struct _GeisTouch));
		if (!f->touchids || !ev->touchset->touches)
			return NULL;
	}
	f->ntouchids = ntouches;
	ev->touchset->count = ntouches;
	return f;
}

GEIS_API void
geis_event_delete(GeisEvent event)
{
	if (!event)
		return;
	gs_attr_bag_fini(&event->attrs);
	if (event->device)
		geis_device_unref(event->device);
	if (event->klass)
		geis_gesture_class_unref(event->klass);
	if (event->groupset) {
		for (GeisSize i = 0; i < event->groupset->count; i++)
			frame_free(event->groupset->groups[i].frame);
		free(event->groupset->groups);
		free(event->groupset);
	}
	if (event->touchset) {
		for (GeisSize i = 0; i < event->touchset->count; i++)
			gs_attr_bag_fini(&event->touchset->touches[i].attrs);
		free(event->touchset->touches);
		free(event->touchset);
	}
	free(event);
}

GEIS_API GeisEventType
geis_event_type(GeisEvent event)
{
	return UT_CLIENT_BUG_IF(NULL, !event) ? (GeisEventType)0 : event->type;
}

GEIS_API GeisSize
geis_event_attr_count(GeisEvent event)
{
	return UT_CLIENT_BUG_IF(NULL, !event) ? 0 : event->attrs.count;
}

GEIS_API GeisAttr
geis_event_attr(GeisEvent event, GeisSize index)
{
	return UT_CLIENT_BUG_IF(NULL, !event) ? NULL : gs_attr_bag_get(&event->attrs, index);
}

GEIS_API GeisAttr
geis_event_attr_by_name(GeisEvent event, GeisString attr_name)
{
	return UT_CLIENT_BUG_IF(NULL, !event) ? NULL : gs_attr_bag_find(&event->attrs, attr_name);
}

void
gs_queue_push(struct geis_event_queue *q, GeisEvent ev)
{
	ev->next = NULL;
	ev->prev = q->tail;
	if (q->tail)
		q->tail->next = ev;
	else
		q->head = ev;
	q->tail = ev;
	q->count++;
}

void
gs_queue_remove(struct geis_event_queue *q, GeisEvent ev)
{
	if (ev->prev)
		ev->prev->next = ev->next;
	else
		q->head = ev->next;
	if (ev->next)
		ev->next->prev = ev->prev;
	else
		q->tail = ev->prev;
	ev->next = ev->prev = NULL;
	q->count--;
}

GeisEvent
gs_queue_pop(struct geis_event_queue *q)
{
	GeisEvent ev = q->head;

	if (ev)
		gs_queue_remove(q, ev);
	return ev;
}

void
gs_queue_clear(struct geis_event_queue *q)
{
	GeisEvent ev;

	while ((ev = gs_queue_pop(q)))
		geis_event_delete(ev);
}

/* ---- group sets, groups, frames, touch sets, touches ---- */

GEIS_API GeisSize
geis_groupset_group_count(GeisGroupSet groupset)
{
	return UT_CLIENT_BUG_IF(NULL, !groupset) ? 0 : groupset->count;
}

GEIS_API GeisGroup
geis_groupset_group(GeisGroupSet groupset, GeisSize index)
{
	if (!groupset || index >= groupset->count)
		return NULL;
	return &groupset->groups[index];
}

GEIS_API GeisInteger
geis_group_id(GeisGroup group)
{
	return UT_CLIENT_BUG_IF(NULL, !group) ? -1 : group->id;
}

GEIS_API GeisSize
geis_group_frame_count(GeisGroup group)
{
	return group && group->frame ? 1 : 0;
}

GEIS_API GeisFrame
geis_group_frame(GeisGroup group, GeisSize index)
{
	if (!group || index != 0)
		return NULL;
	return group->frame;
}

GEIS_API void
geis_group_reject(GeisGroup group)
{
	if (UT_CLIENT_BUG_IF(NULL, !group || !group->geis || !group->frame))
		return;
	geis_gesture_reject(group->geis, group, group->frame->id);
}

GEIS_API GeisSize
geis_touchset_touch_count(GeisTouchSet touchset)
{
	return UT_CLIENT_BUG_IF(NULL, !touchset) ? 0 : touchset->count;
}

GEIS_API GeisTouch
geis_touchset_touch(GeisTouchSet touchset, GeisSize index)
{
	if (!touchset || index >= touchset->count)
		return NULL;
	return &touchset->touches[index];
}

GEIS_API GeisTouch
geis_touchset_touch_by_id(GeisTouchSet touchset, GeisTouchId touchid)
{
	if (UT_CLIENT_BUG_IF(NULL, !touchset))
		return NULL;
	for (GeisSize i = 0; i < touchset->count; i++)
		if (touchset->touches[i].id == touchid)
			return &touchset->touches[i];
	return NULL;
}

GEIS_API GeisTouchId
geis_touch_id(GeisTouch touch)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? 0 : touch->id;
}

GEIS_API GeisSize
geis_touch_attr_count(GeisTouch touch)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? 0 : touch->attrs.count;
}

GEIS_API GeisAttr
geis_touch_attr(GeisTouch touch, GeisSize index)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? NULL : gs_attr_bag_get(&touch->attrs, index);
}

GEIS_API GeisAttr
geis_touch_attr_by_name(GeisTouch touch, GeisString name)
{
	return UT_CLIENT_BUG_IF(NULL, !touch) ? NULL : gs_attr_bag_find(&touch->attrs, name);
}

GEIS_API GeisGestureId
geis_frame_id(GeisFrame frame)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? 0 : frame->id;
}

GEIS_API GeisBoolean
geis_frame_is_class(GeisFrame frame, GeisGestureClass gesture_class)
{
	if (UT_CLIENT_BUG_IF(NULL, !frame || !gesture_class))
		return GEIS_FALSE;
	/* Flick: a drag whose end moved faster than 1 px/ms */
	if (gesture_class->id == GEIS_GESTURE_ID_FLICK)
		return frame->flick ? GEIS_TRUE : GEIS_FALSE;
	return (frame->mask & gesture_class->mask) ? GEIS_TRUE : GEIS_FALSE;
}

GEIS_API GeisSize
geis_frame_attr_count(GeisFrame frame)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? 0 : frame->attrs.count;
}

GEIS_API GeisAttr
geis_frame_attr(GeisFrame frame, GeisSize index)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? NULL : gs_attr_bag_get(&frame->attrs, index);
}

GEIS_API GeisAttr
geis_frame_attr_by_name(GeisFrame frame, GeisString name)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? NULL : gs_attr_bag_find(&frame->attrs, name);
}

GEIS_API GeisFloat *
geis_frame_matrix(GeisFrame frame)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? NULL : frame->matrix;
}

GEIS_API GeisSize
geis_frame_touchid_count(GeisFrame frame)
{
	return UT_CLIENT_BUG_IF(NULL, !frame) ? 0 : frame->ntouchids;
}

GEIS_API GeisTouchId
geis_frame_touchid(GeisFrame frame, GeisSize index)
{
	if (!frame || index >= frame->ntouchids)
		return 0;
	return frame->touchids[index];
}
