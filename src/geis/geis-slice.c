/*
 * Slices to events: each grail slice becomes a GESTURE_BEGIN, UPDATE or
 * END (or a tentative one) with every attribute, in the application's
 * terms (part of the engine, see geis-engine.h).
 */
#include <math.h>
#include <string.h>

#include "frame/frame-peer.h"
#include "geis-engine.h"

/* the classes of a binding are kept in its grail subscription (read once
 * per slice, by find_binding()) */
static UGGestureTypeMask
binding_mask(struct geis_binding *b)
{
	UGGestureTypeMask m = 0;

	grail_subscription_get_property(b->ug, UGSubscriptionPropertyMask, &m);
	return m;
}


/* ---- slices to events ---- */

static int
find_binding(Geis geis, UGSubscription ug, struct gs_binding_info *out)
{
	ut_list_for_each(spos, &geis->subs) {
		ut_list_for_each(bpos, &gs_sub_of(spos)->bindings) {
			struct geis_binding *b = gs_binding_of(bpos);

			if (b->ug == ug) {
				out->sub = gs_sub_of(spos);
				out->device = b->device;
				out->window = b->window;
				out->mask = binding_mask(b);
				return 1;
			}
		}
	}
	return 0;
}

static const char *
class_name(UGGestureTypeMask m)
{
	const struct ut_gesture_class *k = ut_gesture_class_by_mask(m);

	return k ? k->name : "";
}

struct touch_info {
	UFTouchId id;
	float x, y;           /* window coords (direct) or device coords */
	float wx, wy;         /* window coords */
	uint64_t start;
};

#define MAX_TOUCHES 32

static int
collect_touches(UGSlice slice, UFFrame frame, int direct, struct touch_info *t)
{
	unsigned n = grail_slice_get_num_touches(slice);
	int count = 0;

	for (unsigned i = 0; i < n && count < MAX_TOUCHES; i++) {
		UFTouchId id;
		UFTouch touch;

		if (grail_slice_get_touch_id(slice, i, &id) != UGStatusSuccess)
			continue;
		t[count].id = id;
		t[count].x = t[count].y = t[count].wx = t[count].wy = 0.0f;
		t[count].start = 0;
		if (frame && frame_frame_get_touch_by_id(frame, id, &touch) == UFStatusSuccess) {
			t[count].wx = frame_touch_get_window_x(touch);
			t[count].wy = frame_touch_get_window_y(touch);
			if (direct) {
				t[count].x = t[count].wx;
				t[count].y = t[count].wy;
			} else {
				t[count].x = frame_touch_get_device_x(touch);
				t[count].y = frame_touch_get_device_y(touch);
			}
			t[count].start = frame_touch_get_start_time(touch);
		}
		count++;
	}
	return count;
}

static float
wrap_angle(float a)
{
	while (a > (float)M_PI)
		a -= 2.0f * (float)M_PI;
	while (a <= -(float)M_PI)
		a += 2.0f * (float)M_PI;
	return a;
}

/* Add @p id to the touches @p g ever held. */
static void
remember_touch(struct geis_gesture *g, UFTouchId id)
{
	for (unsigned i = 0; i < g->ntouches; i++)
		if (g->touches[i] == id)
			return;
	if (g->ntouches < sizeof(g->touches) / sizeof(g->touches[0]))
		g->touches[g->ntouches++] = id;
}

/* The attributes of grail's utouch extensions (utouch/geis.h). */
static int
add_extension_attrs(struct geis_attr_bag *a, UGSlice slice)
{
	int err = 0;
	unsigned int taps = grail_slice_get_tap_count(slice);
	unsigned int edge = grail_slice_get_edge(slice);

	err |= gs_attr_bag_add_float(a, UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_X,
				       grail_slice_get_velocity_x(slice));
	err |= gs_attr_bag_add_float(a, UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_Y,
				       grail_slice_get_velocity_y(slice));
	if (taps)
		err |= gs_attr_bag_add_integer(a, UTOUCH_GEIS_GESTURE_ATTRIBUTE_TAP_COUNT,
						 (GeisInteger)taps);
	if (edge)
		err |= gs_attr_bag_add_string(a, UTOUCH_GEIS_GESTURE_ATTRIBUTE_EDGE,
						edge == UGEdgeLeft ? "left" :
						edge == UGEdgeRight ? "right" :
						edge == UGEdgeTop ? "top" : "bottom");
	return err;
}

/* What one slice of a gesture shows, in the terms of geis's attributes. */
struct slice_geometry {
	float C[3][3];                    /* cumulative transform */
	float px, py, radius, angle;      /* position, scale and rotation */
	float dx, dy, rdelta, adelta, dt; /* change since the gesture's last event */
	float cx, cy;                     /* centre of rotation */
	float bx1, by1, bx2, by2;         /* bounding box of the touches */
	float fx, fy;                     /* focus point */
};

/* Position, scale and rotation of @p slice, and their change since the
 * last event of @p g. */
static void
slice_motion(struct slice_geometry *m, UGSlice slice, uint64_t time,
	     const struct geis_gesture *g, int n, UGGestureTypeMask mask)
{
	const UGTransform *cp = grail_slice_get_cumulative_transform(slice);
	float ox = grail_slice_get_original_center_x(slice);
	float oy = grail_slice_get_original_center_y(slice);
	float C[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

	if (cp)
		memcpy(C, cp, sizeof(C));
	memcpy(m->C, C, sizeof(C));
	m->px = C[0][2] + ox;
	m->py = C[1][2] + oy;
	m->radius = sqrtf(C[0][0] * C[0][0] + C[0][1] * C[0][1]);
	m->angle = atan2f(C[0][1], C[0][0]);
	if (g->begun && (unsigned)n == g->last_touches) {
		m->dt = (float)(time > g->last_time ? time - g->last_time : 0);
		m->dx = m->px - g->last_x;
		m->dy = m->py - g->last_y;
		m->rdelta = g->last_radius > 0.0f ? m->radius / g->last_radius : 1.0f;
		m->adelta = wrap_angle(m->angle - g->last_angle);
	} else {
		/* the first event, or the touch count changed: as geis 2.2, the
		 * motion starts afresh.  No movement yet (the centroid's jump
		 * when a touch lifts or lands is no motion); the scale and
		 * rotation are those accumulated since the touches began, as
		 * the change from the neutral 1 and 0. */
		m->dt = 0.0f;
		m->dx = m->dy = 0.0f;
		m->rdelta = m->radius;
		m->adelta = wrap_angle(m->angle);
	}
	m->cx = m->px;
	m->cy = m->py;
	if (mask & UGGestureTypeRotate) {
		/* grail computes the centre of rotation when it is read */
		float cx = grail_slice_get_center_of_rotation_x(slice);
		float cy = grail_slice_get_center_of_rotation_y(slice);
		if (cx != 0.0f || cy != 0.0f) {
			m->cx = cx;
			m->cy = cy;
		}
	}
}

/* Bounding box and focus point of the touches: the focus is their mean
 * window position on a direct device, the newest touch's otherwise. */
static void
touch_extent(struct slice_geometry *m, const struct touch_info *t, int n, int direct)
{
	float bx1 = 0, by1 = 0, bx2 = 0, by2 = 0, fx = 0, fy = 0;

	for (int i = 0; i < n; i++) {
		if (i == 0 || t[i].x < bx1) bx1 = t[i].x;
		if (i == 0 || t[i].y < by1) by1 = t[i].y;
		if (i == 0 || t[i].x > bx2) bx2 = t[i].x;
		if (i == 0 || t[i].y > by2) by2 = t[i].y;
		fx += t[i].wx;
		fy += t[i].wy;
	}
	if (n > 0) {
		if (direct) {
			fx /= (float)n;
			fy /= (float)n;
		} else {
			fx = t[n - 1].wx;
			fy = t[n - 1].wy;
		}
	}
	m->bx1 = bx1;
	m->by1 = by1;
	m->bx2 = bx2;
	m->by2 = by2;
	m->fx = fx;
	m->fy = fy;
}

/* The frame's matrix, touch ids and the event's touch set. */
static int
add_frame_touches(GeisEvent ev, struct _GeisFrame *f, const struct slice_geometry *m,
		  const struct touch_info *t, int n)
{
	int err = 0;

	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			f->matrix[r * 3 + c] = m->C[r][c];
	for (int i = 0; i < n; i++) {
		struct _GeisTouch *tt = &ev->touchset->touches[i];

		f->touchids[i] = (GeisTouchId)t[i].id;
		tt->id = (GeisTouchId)t[i].id;
		gs_attr_bag_init(&tt->attrs);
		err |= gs_attr_bag_add_integer(&tt->attrs, GEIS_TOUCH_ATTRIBUTE_ID,
						 (GeisInteger)t[i].id);
		err |= gs_attr_bag_add_float(&tt->attrs, GEIS_TOUCH_ATTRIBUTE_X, t[i].x);
		err |= gs_attr_bag_add_float(&tt->attrs, GEIS_TOUCH_ATTRIBUTE_Y, t[i].y);
	}
	return err;
}

/* The drag attributes: position, its delta and velocity. */
static int
add_drag_attrs(struct geis_attr_bag *a, const struct slice_geometry *m)
{
	float dt = m->dt;
	int err = 0;

	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_POSITION_X, m->px);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_POSITION_Y, m->py);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_DELTA_X, m->dx);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_DELTA_Y, m->dy);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_VELOCITY_X, dt > 0 ? m->dx / dt : 0.0f);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_VELOCITY_Y, dt > 0 ? m->dy / dt : 0.0f);
	return err;
}

/* The pinch attributes: the scale, its ratio to the last one and rate. */
static int
add_pinch_attrs(struct geis_attr_bag *a, const struct slice_geometry *m)
{
	float dt = m->dt;
	int err = 0;

	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_RADIUS, m->radius);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_RADIUS_DELTA, m->rdelta);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_RADIAL_VELOCITY,
				       dt > 0 ? m->rdelta / dt : 0.0f);
	return err;
}

/* The rotation attributes: its centre, the angle, its delta and rate. */
static int
add_rotate_attrs(struct geis_attr_bag *a, const struct slice_geometry *m)
{
	float dt = m->dt;
	int err = 0;

	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_CENTROID_X, m->cx);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_CENTROID_Y, m->cy);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_ANGLE, m->angle);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_ANGLE_DELTA, m->adelta);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_ANGULAR_VELOCITY,
				       dt > 0 ? m->adelta / dt : 0.0f);
	return err;
}

/*
 * The gesture attributes of geis 2.2, which every frame carries, in geis
 * 2.2.17's order: the common ones, then those of the frame's classes
 * (drag, pinch, rotation), then the other classes' ones that geis 2.2
 * left out, so a program walking the attributes by index finds geis
 * 2.2's first.
 */
static int
add_gesture_attrs(Geis geis, struct geis_attr_bag *a, const struct gs_binding_info *bi,
		  uint64_t time, int n, UGGestureTypeMask mask, const struct slice_geometry *m)
{
	static const UGGestureTypeMask blocks[3] = {
		UGGestureTypeDrag, UGGestureTypePinch, UGGestureTypeRotate,
	};
	static int (*const add_block[3])(struct geis_attr_bag *, const struct slice_geometry *) = {
		add_drag_attrs, add_pinch_attrs, add_rotate_attrs,
	};
	int err = 0;

	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP,
					 gs_core_timestamp(geis, time));
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_DEVICE_ID, bi->device->id);
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID,
					 (GeisInteger)gs_core_root_window(geis));
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID,
					 (GeisInteger)bi->window);
	/* geis 2.2.17 reported the event window as the child window too */
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID,
					 (GeisInteger)bi->window);
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_TOUCHES, n);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_FOCUS_X, m->fx);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_FOCUS_Y, m->fy);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X1, m->bx1);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y1, m->by1);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X2, m->bx2);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y2, m->by2);
	err |= gs_attr_bag_add_string(a, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME, class_name(mask));
	for (int i = 0; i < 3; i++)
		if (mask & blocks[i])
			err |= add_block[i](a, m);
	for (int i = 0; i < 3; i++)
		if (!(mask & blocks[i]))
			err |= add_block[i](a, m);
	return err;
}

/* "tap time" (taps only): since the first touch began. */
static int
add_tap_time(struct geis_attr_bag *a, uint64_t time, const struct touch_info *t, int n)
{
	uint64_t start = time;

	for (int i = 0; i < n; i++)
		if (t[i].start && t[i].start < start)
			start = t[i].start;
	return gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_TAP_TIME,
					 (GeisInteger)(time - start));
}

/* The first five touches as "touch N id/x/y" attributes. */
static int
add_touch_attrs(struct geis_attr_bag *a, const struct touch_info *t, int n)
{
	static const char *const names[5][3] = {
		{ GEIS_GESTURE_ATTRIBUTE_TOUCH_0_ID, GEIS_GESTURE_ATTRIBUTE_TOUCH_0_X,
		  GEIS_GESTURE_ATTRIBUTE_TOUCH_0_Y },
		{ GEIS_GESTURE_ATTRIBUTE_TOUCH_1_ID, GEIS_GESTURE_ATTRIBUTE_TOUCH_1_X,
		  GEIS_GESTURE_ATTRIBUTE_TOUCH_1_Y },
		{ GEIS_GESTURE_ATTRIBUTE_TOUCH_2_ID, GEIS_GESTURE_ATTRIBUTE_TOUCH_2_X,
		  GEIS_GESTURE_ATTRIBUTE_TOUCH_2_Y },
		{ GEIS_GESTURE_ATTRIBUTE_TOUCH_3_ID, GEIS_GESTURE_ATTRIBUTE_TOUCH_3_X,
		  GEIS_GESTURE_ATTRIBUTE_TOUCH_3_Y },
		{ GEIS_GESTURE_ATTRIBUTE_TOUCH_4_ID, GEIS_GESTURE_ATTRIBUTE_TOUCH_4_X,
		  GEIS_GESTURE_ATTRIBUTE_TOUCH_4_Y },
	};
	int err = 0;

	for (int i = 0; i < n && i < 5; i++) {
		err |= gs_attr_bag_add_integer(a, names[i][0], (GeisInteger)t[i].id);
		err |= gs_attr_bag_add_float(a, names[i][1], t[i].x);
		err |= gs_attr_bag_add_float(a, names[i][2], t[i].y);
	}
	return err;
}

/* The gesture's memory of this event, for the deltas of the next one. */
static void
remember_event(struct geis_gesture *g, const struct gs_binding_info *bi, uint64_t time,
	       const struct touch_info *t, int n, const struct slice_geometry *m)
{
	g->last_touches = (unsigned)n;
	g->device_id = bi->device->id;
	g->window = bi->window;
	for (int i = 0; i < n; i++)
		remember_touch(g, t[i].id);
	g->last_time = time;
	g->last_x = m->px;
	g->last_y = m->py;
	g->last_radius = m->radius;
	g->last_angle = m->angle;
}

/* Build a gesture event from a slice and update the gesture's memory of
 * the previous values. */
static GeisEvent
build_event(Geis geis, GeisEventType type, UGSlice slice, uint64_t time,
	    struct gs_binding_info *bi, struct geis_gesture *g, UGGestureTypeMask mask)
{
	GeisDevice dev = bi->device;
	UFFrame frame = grail_slice_get_frame(slice);
	struct touch_info t[MAX_TOUCHES];
	int n = collect_touches(slice, frame, dev->direct, t);
	GeisEvent ev = gs_event_new(type);
	struct slice_geometry m;
	struct _GeisFrame *f;
	int err = 0;

	if (!ev)
		return NULL;
	slice_motion(&m, slice, time, g, n, mask);
	touch_extent(&m, t, n, dev->direct);

	ev->is_gesture = 1;
	ev->gesture = g->id;
	f = gs_event_add_frame(ev, geis, (GeisInteger)GEIS_PUBLIC_ID(g->id),
				 GEIS_PUBLIC_ID(g->id), (GeisSize)n);
	if (!f)
		goto fail;
	f->mask = mask;
	if (m.dt > 0) {
		g->last_vx = m.dx / m.dt;
		g->last_vy = m.dy / m.dt;
	}
	/* a flick: a drag that ends faster than 1 px/ms.  The end usually
	 * comes without a time step of its own (the touch lifts where it last
	 * moved), so the newest velocity counts, as in geis 2.2.  Not the END
	 * of a gesture grail cancelled (its subscription deactivated, another
	 * gesture accepted): the fingers did not lift, and geis 2.2 sent no
	 * END for it at all. */
	if (type == GEIS_EVENT_GESTURE_END && (mask & UGGestureTypeDrag) &&
	    !grail_slice_get_canceled(slice) &&
	    g->last_vx * g->last_vx + g->last_vy * g->last_vy > 1.0f)
		f->flick = 1;
	err |= add_frame_touches(ev, f, &m, t, n);
	err |= add_gesture_attrs(geis, &f->attrs, bi, time, n, mask, &m);
	if (mask & UGGestureTypeTap)
		err |= add_tap_time(&f->attrs, time, t, n);
	if (bi->sub->config.extended ||
	    (bi->mask & (UGGestureTypeHold | UGGestureTypeEdgeSwipe)))
		err |= add_extension_attrs(&f->attrs, slice);
	err |= add_touch_attrs(&f->attrs, t, n);

	err |= gs_attr_bag_add_pointer(&ev->attrs, GEIS_EVENT_ATTRIBUTE_GROUPSET, ev->groupset);
	err |= gs_attr_bag_add_pointer(&ev->attrs, GEIS_EVENT_ATTRIBUTE_TOUCHSET, ev->touchset);
	err |= gs_attr_bag_add_boolean(&ev->attrs, GEIS_EVENT_ATTRIBUTE_CONSTRUCTION_FINISHED,
					 grail_slice_get_construction_finished(slice) != 0);
	if (err)
		goto fail;
	remember_event(g, bi, time, t, n, &m);
	return ev;
fail:
	geis_event_delete(ev);
	return NULL;
}

static bool
queue_gesture_event(Geis geis, GeisEventType type, UGSlice slice, uint64_t time,
		    struct gs_binding_info *bi, struct geis_gesture *g,
		    UGGestureTypeMask mask)
{
	GeisEvent ev = build_event(geis, type, slice, time, bi, g, mask);

	if (!ev) {
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"out of memory building a gesture event");
		return false;
	}
	gs_enqueue(geis, ev);
	gs_wake(geis);
	return true;
}

/*
 * Queue the End of @g, or, when its event cannot be made (out of memory),
 * owe it: @g keeps grail's event @gev and what the End needs, and each
 * dispatch makes it again (gs_engine_retry_ends()) until it is queued.
 * Every gesture the application saw begin ends.
 */
static void
queue_end(Geis geis, UGEvent gev, UGSlice slice, uint64_t time, struct gs_binding_info *bi,
	  struct geis_gesture *g, UGGestureTypeMask mask)
{
	if (queue_gesture_event(geis, GEIS_EVENT_GESTURE_END, slice, time, bi, g, mask) ||
	    g->owed_end)
		return;
	grail_event_ref(gev);
	g->owed_end = gev;
	g->owed_binding = *bi;
	geis_device_ref(bi->device);
	g->owed_mask = mask;
	g->owed_time = time;
	geis->ends_owed++;
}

void
gs_engine_retry_ends(Geis geis)
{
	if (!geis->ends_owed)
		return;
	ut_list_for_each(pos, &geis->gestures) {
		struct geis_gesture *g = gs_gesture_of(pos);
		UGSlice slice = NULL;

		if (!g->owed_end)
			continue;
		if (grail_event_get_property(g->owed_end, UGEventPropertySlice, &slice) !=
			    UGStatusSuccess ||
		    !queue_gesture_event(geis, GEIS_EVENT_GESTURE_END, slice, g->owed_time,
					 &g->owed_binding, g, g->owed_mask))
			continue;
		gs_gesture_forgive_end(geis, g);
		g->ended = 1;
		geis->release_due = 1;
	}
	/* still short of memory: come back (the fd stays readable) */
	if (geis->ends_owed)
		gs_wake(geis);
}

void
gs_engine_handle_slice(Geis geis, UGEvent gev, UGSlice slice)
{
	struct gs_binding_info bi;
	unsigned id = grail_slice_get_id(slice);
	UGGestureState state = grail_slice_get_state(slice);
	uint64_t time = grail_event_get_time(gev);
	struct geis_gesture *g;
	UGGestureTypeMask mask;

	if (!find_binding(geis, grail_slice_get_subscription(slice), &bi))
		return;
	g = gs_gesture_find(geis, id);
	if (g && g->owed_end)
		return; /* nothing of it after its End, even one still owed */
	if (g && grail_slice_get_construction_finished(slice))
		g->finished = 1;
	if (grail_slice_get_canceled(slice)) {
		/* grail dropped a gesture we had taken events of: end it if the
		 * application saw it, else forget it entirely; but when input
		 * stopped with its touches down (the End is on a cut-off frame),
		 * the events not read yet were real: they stay, and it ends */
		if (!g)
			return;
		UFFrame frame = grail_slice_get_frame(slice);
		bool cut = frame && ut_frame_cut_off(frame);
		if (!g->dead && !g->ended && (g->seen || cut) && g->begun && !g->tap_only)
			queue_end(geis, gev, slice, time, &bi, g,
				  grail_slice_get_recognized(slice) & bi.mask);
		if (!g->seen && !cut)
			gs_gesture_purge(geis, id);
		else   /* accepting it now would take nothing (gs_engine_accept) */
			gs_gesture_mark_canceled(geis, id);
		if (!g->owed_end)
			gs_gesture_remove(geis, g);
		return;
	}
	if (!g) {
		g = gs_gesture_new(geis, id, bi.sub);
		if (!g)
			return;
		g->finished = grail_slice_get_construction_finished(slice) != 0;
	}
	if (g->dead) {
		if (state == UGGestureStateEnd)
			gs_gesture_remove(geis, g);
		return;
	}
	mask = grail_slice_get_recognized(slice) & bi.mask;
	if (mask == 0) {
		if (geis->tentative) {
			GeisEventType type = state == UGGestureStateBegin ?
				GEIS_EVENT_TENTATIVE_BEGIN :
				state == UGGestureStateEnd ? GEIS_EVENT_TENTATIVE_END :
				GEIS_EVENT_TENTATIVE_UPDATE;

			queue_gesture_event(geis, type, slice, time, &bi, g, mask);
		}
	} else if (!geis->tentative && mask == UGGestureTypeTap) {
		/* a pure tap is reported once, as an update */
		if (!g->begun &&
		    queue_gesture_event(geis, GEIS_EVENT_GESTURE_UPDATE, slice, time, &bi, g,
					mask)) {
			g->begun = 1;
			g->tap_only = 1;
		}
	} else if (g->tap_only) {
		/* rest of a tap already reported */
	} else if (!g->begun) {
		/* (a Begin that could not be made, out of memory, is tried
		 * again with the next slice: no event of the gesture before it;
		 * recognized only at its end, it begins and ends at once) */
		if (queue_gesture_event(geis, GEIS_EVENT_GESTURE_BEGIN, slice, time, &bi, g,
					mask)) {
			g->begun = 1;
			if (state == UGGestureStateEnd)
				queue_end(geis, gev, slice, time, &bi, g, mask);
		}
	} else if (state == UGGestureStateEnd) {
		queue_end(geis, gev, slice, time, &bi, g, mask);
	} else if (geis->synchronous || time > g->last_time) {
		queue_gesture_event(geis, GEIS_EVENT_GESTURE_UPDATE, slice, time, &bi, g, mask);
	}
	if (state == UGGestureStateEnd) {
		g->ended = 1;   /* decided later: gs_engine_release_undecided */
		geis->release_due = 1;
	}
}
