/*
 * Gesture events: grail's slices turned into compositor gesture events,
 * and the automatic accept.  (The compositor's own accept/reject calls are
 * in comp-context.c.)
 */
#include <math.h>
#include <string.h>

#include "compositor/comp-private.h"

static struct utouch_comp_subscription *
find_subscription(struct utouch_comp *comp, UGSubscription gs)
{
	for (size_t i = 0; i < comp->nsubs; i++) {
		struct utouch_comp_subscription *sub = comp->subs[i];

		for (size_t d = 0; d < sub->ngsubs; d++)
			if (sub->gsubs[d] == gs)
				return sub;
	}
	return NULL;
}

static struct utouch_comp_device *
find_device(struct utouch_comp *comp, UFFrame frame)
{
	UFDevice fd = frame ? frame_frame_get_device(frame) : NULL;

	for (size_t i = 0; i < comp->ndevices; i++) {
		struct utouch_comp_device *dev = comp->devices[i];

		if (dev && frame_backend_device_get_device(dev->bdev) == fd)
			return dev;
	}
	return NULL;
}

static void
fill(struct utouch_comp *comp, struct utouch_comp_gesture_event *g, UGSlice s)
{
	const UGTransform *c = grail_slice_get_cumulative_transform(s);
	unsigned int n = grail_slice_get_num_touches(s);

	g->id = grail_slice_get_id(s);
	g->recognized = grail_slice_get_recognized(s);
	g->num_touches = n;
	g->device = find_device(comp, grail_slice_get_frame(s));
	for (unsigned int i = 0; i < UTOUCH_COMP_GESTURE_MAX_TOUCHES; i++) {
		UFTouchId id;
		struct uc_touch *t;

		g->touch_ids[i] = -1;
		if (i < n && grail_slice_get_touch_id(s, i, &id) == UGStatusSuccess &&
		    (t = uc_touch_lookup(comp, id)) != NULL)
			g->touch_ids[i] = t->id;
	}
	g->original_center_x = grail_slice_get_original_center_x(s);
	g->original_center_y = grail_slice_get_original_center_y(s);
	g->original_radius = grail_slice_get_original_radius(s);
	if (c) {
		g->delta_x = (*c)[0][2];
		g->delta_y = (*c)[1][2];
		g->scale = hypotf((*c)[0][0], (*c)[1][0]);
		g->angle = atan2f((*c)[1][0], (*c)[0][0]);
	} else {
		g->scale = 1.0f;
	}
	g->center_x = g->original_center_x + g->delta_x;
	g->center_y = g->original_center_y + g->delta_y;
	g->construction_finished = grail_slice_get_construction_finished(s);
	g->canceled = grail_slice_get_canceled(s);
}

void
uc_gestures_drain(struct utouch_comp *comp)
{
	UGEvent gev;

	while (grail_get_event(comp->grail, &gev) == UGStatusSuccess) {
		UGSlice s = NULL;
		struct utouch_comp_event ev;
		UGGestureState state;

		if (grail_event_get_property(gev, UGEventPropertySlice, &s) != UGStatusSuccess ||
		    !s) {
			grail_event_unref(gev);
			continue;
		}
		memset(&ev, 0, sizeof(ev));
		state = grail_slice_get_state(s);
		ev.type = state == UGGestureStateBegin ? UTOUCH_COMP_EVENT_GESTURE_BEGIN
			: state == UGGestureStateUpdate ? UTOUCH_COMP_EVENT_GESTURE_UPDATE
			: UTOUCH_COMP_EVENT_GESTURE_END;
		/* back in the input clock */
		ev.time = grail_event_get_time(gev) * 1000u;
		ev.time = ev.time > comp->time_shift ? ev.time - comp->time_shift : 0;
		ev.gesture.subscription = find_subscription(comp, grail_slice_get_subscription(s));
		fill(comp, &ev.gesture, s);
		if (ev.gesture.subscription)
			uc_emit(comp, &ev);
		if (ev.gesture.subscription && state == UGGestureStateBegin &&
		    ev.gesture.subscription->params.accept == UTOUCH_COMP_ACCEPT_AUTO &&
		    !ev.gesture.subscription->params.atomic)
			grail_accept_gesture(comp->grail, ev.gesture.id);
		grail_event_unref(gev);
	}
}
