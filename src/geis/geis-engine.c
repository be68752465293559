/*
 * The gesture engine: one grail handle per instance.  Active subscriptions
 * become grail subscriptions per (device, window); grail slices become
 * gesture events; accept/reject and timeouts go back to grail.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>

#include "geis-private.h"
#include "util/clock.h"

struct binding_info {
	GeisSubscription sub;
	struct geis_binding *b;
};

/* mask of a binding is kept in the grail subscription; cache it here */
static UGGestureTypeMask
binding_mask(struct geis_binding *b)
{
	UGGestureTypeMask m = 0;

	grail_subscription_get_property(b->ug, UGSubscriptionPropertyMask, &m);
	return m;
}

int
geis_engine_init(Geis geis)
{
	return grail_new(&geis->grail) == UGStatusSuccess ? 0 : -1;
}

static struct geis_gesture *
gesture_of(struct ut_list *pos)
{
	return ut_container_of(pos, struct geis_gesture, link);
}

void
geis_engine_fini(Geis geis)
{
	ut_list_for_each_safe(pos, tmp, &geis->gestures) {
		ut_list_remove(pos);
		free(gesture_of(pos));
	}
	free(geis->gesture_hash);
	geis->gesture_hash = NULL;
	geis->hash_size = geis->ngestures = 0;
	if (geis->grail)
		grail_delete(geis->grail);
	geis->grail = NULL;
}

/* ---- gestures ---- */

static size_t
hash_slot(const Geis geis, unsigned id)
{
	/* grail numbers gestures one after the other: spread them out */
	return (size_t)(id * 2654435761u) & (geis->hash_size - 1);
}

static struct geis_gesture *
gesture_find(Geis geis, unsigned id)
{
	if (!geis->hash_size)
		return NULL;
	for (struct geis_gesture *g = geis->gesture_hash[hash_slot(geis, id)]; g; g = g->hnext)
		if (g->id == id)
			return g;
	return NULL;
}

/* Keep the chains short: twice the slots when there are more gestures. */
static int
hash_grow(Geis geis)
{
	size_t size = geis->hash_size ? geis->hash_size * 2 : 64;
	struct geis_gesture **hash = calloc(size, sizeof(*hash));

	if (!hash)
		return -1;
	free(geis->gesture_hash);
	geis->gesture_hash = hash;
	geis->hash_size = size;
	ut_list_for_each(pos, &geis->gestures) {
		struct geis_gesture *g = gesture_of(pos);
		size_t slot = hash_slot(geis, g->id);

		g->hnext = hash[slot];
		hash[slot] = g;
	}
	return 0;
}

static struct geis_gesture *
gesture_new(Geis geis, unsigned id, GeisSubscription sub)
{
	struct geis_gesture *g;
	size_t slot;

	if (geis->ngestures >= geis->hash_size && hash_grow(geis) < 0 && !geis->hash_size)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->id = id;
	g->sub = sub;
	ut_list_insert_after(&geis->gestures, &g->link);
	slot = hash_slot(geis, id);
	g->hnext = geis->gesture_hash[slot];
	geis->gesture_hash[slot] = g;
	geis->ngestures++;
	return g;
}

static void
gesture_remove(Geis geis, struct geis_gesture *g)
{
	for (struct geis_gesture **p = &geis->gesture_hash[hash_slot(geis, g->id)]; *p;
	     p = &(*p)->hnext) {
		if (*p == g) {
			*p = g->hnext;
			break;
		}
	}
	ut_list_remove(&g->link);
	geis->ngestures--;
	free(g);
}

/* Drop every queued event of gesture @p id. */
static void
purge(Geis geis, unsigned id)
{
	GeisEvent ev = geis->queue.head;

	while (ev) {
		GeisEvent next = ev->next;

		if (ev->is_gesture && ev->gesture == id) {
			geis_queue_remove(&geis->queue, ev);
			geis_event_delete(ev);
		}
		ev = next;
	}
}

void
geis_engine_event_delivered(Geis geis, GeisEvent ev)
{
	struct geis_gesture *g;

	if (!ev->is_gesture)
		return;
	g = gesture_find(geis, ev->gesture);
	if (g) {
		g->seen = 1;
		if (g->ended)
			geis->release_due = 1;
	}
}

static int queued(Geis geis, unsigned id);

/* ---- subscriptions ---- */

static void
grab(Geis geis, GeisDevice dev, UFWindowId window, int on)
{
	/* only the first binding of a (device, window) grabs, and only the
	 * last one ungrabs */
	int count = 0;

	if (!geis->backend || !geis->backend->ops->grab || !dev->uf)
		return;
	ut_list_for_each(spos, &geis->subs) {
		ut_list_for_each(bpos, &geis_sub_of(spos)->bindings) {
			struct geis_binding *b = geis_binding_of(bpos);

			if (b->device == dev && b->window == window)
				count++;
		}
	}
	if ((on && count == 1) || (!on && count == 0))
		geis->backend->ops->grab(geis->backend, dev->uf, window, on);
}

static void
set_config(UGSubscription ug, const struct geis_sub_config *c)
{
	/* the values were checked when they were set */
	gr_props_apply(ug, c, geis_sub_config_props, geis_sub_config_nprops);
}

void
geis_engine_apply_config(GeisSubscription sub)
{
	ut_list_for_each(pos, &sub->bindings)
		set_config(geis_binding_of(pos)->ug, &sub->config);
}

static int
bind_one(GeisSubscription sub, GeisDevice dev, UFWindowId window,
	 const struct geis_gesture_params *p)
{
	Geis geis = sub->geis;
	struct geis_binding *b;
	UGSubscription ug;
	UGStatus st;
	int atomic = geis->atomic;

	if (grail_subscription_new(&ug) != UGStatusSuccess)
		return -1;
	grail_subscription_set_property(ug, UGSubscriptionPropertyDevice, &dev->uf);
	grail_subscription_set_property(ug, UGSubscriptionPropertyWindow, &window);
	grail_subscription_set_property(ug, UGSubscriptionPropertyMask, &p->mask);
	grail_subscription_set_property(ug, UGSubscriptionPropertyTouchesStart, &p->start);
	grail_subscription_set_property(ug, UGSubscriptionPropertyTouchesMinimum, &p->min);
	grail_subscription_set_property(ug, UGSubscriptionPropertyTouchesMaximum, &p->max);
	grail_subscription_set_property(ug, UGSubscriptionPropertyAtomicGestures, &atomic);
	set_config(ug, &sub->config);
	st = grail_subscription_activate(geis->grail, ug);
	if (st != UGStatusSuccess) {
		geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"subscription \"%s\": grail refused device %d window %llu "
				"(grail status %d)", sub->name, dev->id,
				(unsigned long long)window, (int)st);
		grail_subscription_delete(ug);
		return -1;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		grail_subscription_deactivate(geis->grail, ug);
		grail_subscription_delete(ug);
		return -1;
	}
	b->device = geis_device_ref(dev);
	b->window = window;
	b->ug = ug;
	ut_list_insert_after(&sub->bindings, &b->link);
	grab(geis, dev, window, 1);
	return 0;
}

/* Bind @p sub to @p dev through every filter that selects the device. */
static int
bind_device(GeisSubscription sub, GeisDevice dev)
{
	GeisFilter f = geis_sub_first_filter(sub);
	int rc = 0;

	do {
		struct geis_gesture_params p;

		if (!geis_filter_match_device(f, dev))
			continue;
		if (geis_filter_gesture_params(f, sub->flags, sub->geis->tentative, &p) < 0)
			continue;  /* checked at activation */
		for (int i = 0; i < (p.nwindows ? p.nwindows : 1); i++) {
			UFWindowId window = p.nwindows ? (UFWindowId)(uint32_t)p.windows[i] :
				geis_core_root_window(sub->geis);
			if (bind_one(sub, dev, window, &p) < 0)
				rc = -1;
		}
	} while (f && (f = geis_sub_next_filter(sub, f)));
	return rc;
}

static void
unbind_all(GeisSubscription sub, GeisDevice only)
{
	Geis geis = sub->geis;

	/* cancel first, and turn the cancelled ends into events while the
	 * bindings still exist */
	ut_list_for_each(pos, &sub->bindings) {
		struct geis_binding *b = geis_binding_of(pos);

		if (!only || b->device == only)
			grail_subscription_deactivate(geis->grail, b->ug);
	}
	geis_engine_drain(geis);
	ut_list_for_each_safe(pos, tmp, &sub->bindings) {
		struct geis_binding *b = geis_binding_of(pos);

		if (only && b->device != only)
			continue;
		ut_list_remove(&b->link);
		grail_subscription_delete(b->ug);
		grab(geis, b->device, b->window, 0);
		geis_device_unref(b->device);
		free(b);
	}
}

GeisStatus
geis_engine_activate(GeisSubscription sub)
{
	Geis geis = sub->geis;
	GeisFilter f = geis_sub_first_filter(sub);

	if (!geis_uses_grail(geis)) {
		/* the backend makes the gestures (the test backend) */
		GeisStatus st = geis->backend->ops->activate(geis->backend, sub);

		if (st == GEIS_STATUS_SUCCESS)
			sub->active = 1;
		return st;
	}

	do {
		struct geis_gesture_params p;

		if (geis_filter_gesture_params(f, sub->flags, geis->tentative, &p) < 0) {
			geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
					"subscription \"%s\": filter \"%s\" can not be "
					"satisfied (no gesture class left, a \"touches\" NE "
					"term, a non-EQ region term or an impossible touch "
					"count)", sub->name, f ? f->name : "");
			return GEIS_STATUS_BAD_ARGUMENT;
		}
	} while (f && (f = geis_sub_next_filter(sub, f)));

	if (sub->active)
		geis_engine_deactivate(sub);
	sub->active = 1;
	ut_list_for_each(pos, &geis->devices) {
		if (bind_device(sub, ut_container_of(pos, struct _GeisDevice, link)) < 0) {
			geis_engine_deactivate(sub);
			return GEIS_STATUS_BAD_ARGUMENT;
		}
	}
	geis_engine_rearm(geis);
	return GEIS_STATUS_SUCCESS;
}

void
geis_engine_deactivate(GeisSubscription sub)
{
	Geis geis = sub->geis;

	if (!geis_uses_grail(geis)) {
		sub->active = 0;
		return;
	}

	unbind_all(sub, NULL);
	sub->active = 0;
	/* whatever is still queued of its gestures is dropped; gestures the
	 * application has seen got their GESTURE_END from the drain */
	ut_list_for_each_safe(pos, tmp, &geis->gestures) {
		struct geis_gesture *g = gesture_of(pos);

		if (g->sub == sub) {
			if (!g->seen)
				purge(geis, g->id);
			gesture_remove(geis, g);
		}
	}
	geis_engine_rearm(geis);
}

void
geis_engine_device_added(Geis geis, GeisDevice dev)
{
	if (!geis_uses_grail(geis))
		return;
	ut_list_for_each(pos, &geis->subs) {
		if (geis_sub_of(pos)->active)
			bind_device(geis_sub_of(pos), dev);
	}
	geis_engine_rearm(geis);
}

void
geis_engine_device_removed(Geis geis, GeisDevice dev)
{
	ut_list_for_each(pos, &geis->subs)
		unbind_all(geis_sub_of(pos), dev);
	geis_engine_rearm(geis);
}

/* ---- slices to events ---- */

static int
find_binding(Geis geis, UGSubscription ug, struct binding_info *out)
{
	ut_list_for_each(spos, &geis->subs) {
		ut_list_for_each(bpos, &geis_sub_of(spos)->bindings) {
			if (geis_binding_of(bpos)->ug == ug) {
				out->sub = geis_sub_of(spos);
				out->b = geis_binding_of(bpos);
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

static int
share_touch(const struct geis_gesture *a, const struct geis_gesture *b)
{
	if (a->device_id != b->device_id || a->window != b->window)
		return 0;
	for (unsigned i = 0; i < a->ntouches; i++)
		for (unsigned j = 0; j < b->ntouches; j++)
			if (a->touches[i] == b->touches[j])
				return 1;
	return 0;
}

/* The attributes of grail's utouch extensions (utouch/geis.h). */
static int
add_extension_attrs(struct geis_attr_bag *a, UGSlice slice)
{
	int err = 0;
	unsigned int taps = grail_slice_get_tap_count(slice);
	unsigned int edge = grail_slice_get_edge(slice);

	err |= geis_attr_bag_add_float(a, UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_X,
				       grail_slice_get_velocity_x(slice));
	err |= geis_attr_bag_add_float(a, UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_Y,
				       grail_slice_get_velocity_y(slice));
	if (taps)
		err |= geis_attr_bag_add_integer(a, UTOUCH_GEIS_GESTURE_ATTRIBUTE_TAP_COUNT,
						 (GeisInteger)taps);
	if (edge)
		err |= geis_attr_bag_add_string(a, UTOUCH_GEIS_GESTURE_ATTRIBUTE_EDGE,
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
	if ((mask & UGGestureTypeRotate) && (grail_slice_get_center_of_rotation_x(slice) != 0.0f ||
					    grail_slice_get_center_of_rotation_y(slice) != 0.0f)) {
		m->cx = grail_slice_get_center_of_rotation_x(slice);
		m->cy = grail_slice_get_center_of_rotation_y(slice);
	} else {
		m->cx = m->px;
		m->cy = m->py;
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
		geis_attr_bag_init(&tt->attrs);
		err |= geis_attr_bag_add_integer(&tt->attrs, GEIS_TOUCH_ATTRIBUTE_ID,
						 (GeisInteger)t[i].id);
		err |= geis_attr_bag_add_float(&tt->attrs, GEIS_TOUCH_ATTRIBUTE_X, t[i].x);
		err |= geis_attr_bag_add_float(&tt->attrs, GEIS_TOUCH_ATTRIBUTE_Y, t[i].y);
	}
	return err;
}

/* The gesture attributes of geis 2.2 every frame carries. */
static int
add_gesture_attrs(Geis geis, struct geis_attr_bag *a, const struct binding_info *bi,
		  uint64_t time, int n, UGGestureTypeMask mask, const struct slice_geometry *m)
{
	float dt = m->dt;
	int err = 0;

	err |= geis_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_DEVICE_ID, bi->b->device->id);
	err |= geis_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP,
					 geis_core_timestamp(geis, time));
	err |= geis_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID,
					 (GeisInteger)geis_core_root_window(geis));
	err |= geis_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID,
					 (GeisInteger)bi->b->window);
	/* geis 2.2.17 reported the event window as the child window too */
	err |= geis_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID,
					 (GeisInteger)bi->b->window);
	err |= geis_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_TOUCHES, n);
	err |= geis_attr_bag_add_string(a, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME, class_name(mask));
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_FOCUS_X, m->fx);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_FOCUS_Y, m->fy);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X1, m->bx1);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y1, m->by1);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X2, m->bx2);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y2, m->by2);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_POSITION_X, m->px);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_POSITION_Y, m->py);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_DELTA_X, m->dx);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_DELTA_Y, m->dy);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_VELOCITY_X, dt > 0 ? m->dx / dt : 0.0f);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_VELOCITY_Y, dt > 0 ? m->dy / dt : 0.0f);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_RADIUS, m->radius);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_RADIUS_DELTA, m->rdelta);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_RADIAL_VELOCITY,
				       dt > 0 ? m->rdelta / dt : 0.0f);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_ANGLE, m->angle);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_ANGLE_DELTA, m->adelta);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_ANGULAR_VELOCITY,
				       dt > 0 ? m->adelta / dt : 0.0f);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_CENTROID_X, m->cx);
	err |= geis_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_CENTROID_Y, m->cy);
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
	return geis_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_TAP_TIME,
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
		err |= geis_attr_bag_add_integer(a, names[i][0], (GeisInteger)t[i].id);
		err |= geis_attr_bag_add_float(a, names[i][1], t[i].x);
		err |= geis_attr_bag_add_float(a, names[i][2], t[i].y);
	}
	return err;
}

/* The gesture's memory of this event, for the deltas of the next one. */
static void
remember_event(struct geis_gesture *g, const struct binding_info *bi, uint64_t time,
	       const struct touch_info *t, int n, const struct slice_geometry *m)
{
	g->last_touches = (unsigned)n;
	g->device_id = bi->b->device->id;
	g->window = bi->b->window;
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
	    struct binding_info *bi, struct geis_gesture *g, UGGestureTypeMask mask)
{
	GeisDevice dev = bi->b->device;
	UFFrame frame = grail_slice_get_frame(slice);
	struct touch_info t[MAX_TOUCHES];
	int n = collect_touches(slice, frame, dev->direct, t);
	GeisEvent ev = geis_event_new(type);
	struct slice_geometry m;
	struct _GeisFrame *f;
	int err = 0;

	if (!ev)
		return NULL;
	slice_motion(&m, slice, time, g, n, mask);
	touch_extent(&m, t, n, dev->direct);

	ev->is_gesture = 1;
	ev->gesture = g->id;
	f = geis_event_add_frame(ev, geis, (GeisInteger)GEIS_PUBLIC_ID(g->id),
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
	 * moved), so the newest velocity counts, as in geis 2.2. */
	if (type == GEIS_EVENT_GESTURE_END && (mask & UGGestureTypeDrag) &&
	    g->last_vx * g->last_vx + g->last_vy * g->last_vy > 1.0f)
		f->flick = 1;
	err |= add_frame_touches(ev, f, &m, t, n);
	err |= add_gesture_attrs(geis, &f->attrs, bi, time, n, mask, &m);
	if (mask & UGGestureTypeTap)
		err |= add_tap_time(&f->attrs, time, t, n);
	if (bi->sub->config.extended ||
	    (binding_mask(bi->b) & (UGGestureTypeHold | UGGestureTypeEdgeSwipe)))
		err |= add_extension_attrs(&f->attrs, slice);
	err |= add_touch_attrs(&f->attrs, t, n);

	err |= geis_attr_bag_add_pointer(&ev->attrs, GEIS_EVENT_ATTRIBUTE_GROUPSET, ev->groupset);
	err |= geis_attr_bag_add_pointer(&ev->attrs, GEIS_EVENT_ATTRIBUTE_TOUCHSET, ev->touchset);
	err |= geis_attr_bag_add_boolean(&ev->attrs, GEIS_EVENT_ATTRIBUTE_CONSTRUCTION_FINISHED,
					 grail_slice_get_construction_finished(slice) != 0);
	if (err)
		goto fail;
	remember_event(g, bi, time, t, n, &m);
	return ev;
fail:
	geis_event_delete(ev);
	return NULL;
}

static void
queue_gesture_event(Geis geis, GeisEventType type, UGSlice slice, uint64_t time,
		    struct binding_info *bi, struct geis_gesture *g,
		    UGGestureTypeMask mask)
{
	GeisEvent ev = build_event(geis, type, slice, time, bi, g, mask);

	if (!ev) {
		geis_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"out of memory building a gesture event");
		return;
	}
	geis_enqueue(geis, ev);
	geis_wake(geis);
}

static void
handle_slice(Geis geis, UGEvent gev, UGSlice slice)
{
	struct binding_info bi;
	unsigned id = grail_slice_get_id(slice);
	UGGestureState state = grail_slice_get_state(slice);
	uint64_t time = grail_event_get_time(gev);
	struct geis_gesture *g;
	UGGestureTypeMask mask;

	if (!find_binding(geis, grail_slice_get_subscription(slice), &bi))
		return;
	g = gesture_find(geis, id);
	if (grail_slice_get_canceled(slice)) {
		/* grail dropped a gesture we had taken events of: end it if the
		 * application saw it, else forget it entirely */
		if (!g)
			return;
		if (!g->dead && !g->ended && g->seen && g->begun && !g->tap_only)
			queue_gesture_event(geis, GEIS_EVENT_GESTURE_END, slice, time, &bi, g,
					    grail_slice_get_recognized(slice) &
					    binding_mask(bi.b));
		else if (!g->seen)
			purge(geis, id);
		gesture_remove(geis, g);
		return;
	}
	if (!g) {
		g = gesture_new(geis, id, bi.sub);
		if (!g)
			return;
	}
	if (g->dead) {
		if (state == UGGestureStateEnd)
			gesture_remove(geis, g);
		return;
	}
	mask = grail_slice_get_recognized(slice) & binding_mask(bi.b);
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
		if (!g->begun) {
			queue_gesture_event(geis, GEIS_EVENT_GESTURE_UPDATE, slice, time,
					    &bi, g, mask);
			g->begun = 1;
			g->tap_only = 1;
		}
	} else if (g->tap_only) {
		/* rest of a tap already reported */
	} else if (!g->begun) {
		if (state != UGGestureStateEnd || geis->synchronous) {
			queue_gesture_event(geis, GEIS_EVENT_GESTURE_BEGIN, slice, time,
					    &bi, g, mask);
			g->begun = 1;
			if (state == UGGestureStateEnd)
				queue_gesture_event(geis, GEIS_EVENT_GESTURE_END, slice, time,
						    &bi, g, mask);
		} else {
			/* recognized only at its end: begin and end at once */
			queue_gesture_event(geis, GEIS_EVENT_GESTURE_BEGIN, slice, time,
					    &bi, g, mask);
			g->begun = 1;
			queue_gesture_event(geis, GEIS_EVENT_GESTURE_END, slice, time,
					    &bi, g, mask);
		}
	} else if (state == UGGestureStateEnd) {
		queue_gesture_event(geis, GEIS_EVENT_GESTURE_END, slice, time, &bi, g, mask);
	} else if (geis->synchronous || time > g->last_time) {
		queue_gesture_event(geis, GEIS_EVENT_GESTURE_UPDATE, slice, time, &bi, g, mask);
	}
	if (state == UGGestureStateEnd) {
		g->ended = 1;   /* decided later: geis_engine_release_undecided */
		geis->release_due = 1;
	}
}

void
geis_engine_drain(Geis geis)
{
	UGEvent ev;

	if (!geis->grail)
		return;
	while (grail_get_event(geis->grail, &ev) == UGStatusSuccess) {
		UGSlice slice;

		if (grail_event_get_type(ev) == UGEventTypeSlice &&
		    grail_event_get_property(ev, UGEventPropertySlice, &slice) ==
			    UGStatusSuccess)
			handle_slice(geis, ev, slice);
		grail_event_unref(ev);
	}
	/* during dispatch, callbacks see the events of each frame (or
	 * timeout) before the next one is processed, so that they can accept
	 * or reject in time */
	if (geis->in_dispatch) {
		geis_deliver_callbacks(geis);
		geis_engine_release_undecided(geis);
	}
}

void
geis_engine_release_undecided(Geis geis)
{
	int rejected = 0;

	/* only after an ended gesture's End or one of its events went out:
	 * a gesture still queued then gets its turn when its last event does */
	if (!geis->grail || geis->releasing || !geis->release_due)
		return;
	geis->release_due = 0;
	geis->releasing = 1;
	/* one walk over the queue marks the gestures with queued events */
	for (GeisEvent ev = geis->queue.head; ev; ev = ev->next) {
		struct geis_gesture *g;

		if (ev->is_gesture && (g = gesture_find(geis, ev->gesture)))
			g->in_queue = 1;
	}
	ut_list_for_each_safe(pos, tmp, &geis->gestures) {
		struct geis_gesture *g = gesture_of(pos);
		int in_queue = g->in_queue;

		g->in_queue = 0;
		if (!g->ended || in_queue)
			continue;
		/* an atomic gesture's touches are grail's to decide: the
		 * reject is refused (UGStatusErrorAtomicity) and changes
		 * nothing */
		if (!g->accepted && !g->dead &&
		    grail_reject_gesture(geis->grail, g->id) == UGStatusSuccess)
			rejected = 1;
		gesture_remove(geis, g);
	}
	if (rejected) {
		geis_engine_drain(geis);
		geis_engine_rearm(geis);
	}
	geis->releasing = 0;
}

/* ---- time ---- */

/*
 * When grail's next timeout is due: grail_next_timeout(), or, when grail
 * was already told that time (or a later one) and still reports it, one
 * ms after the latest time it was told.  grail acts on some timeouts only
 * once time has passed them (a gesture's timeout rejects it when more than
 * the timeout has elapsed), so the timeout is tried again 1 ms later
 * instead of at once, over and over.  0: nothing pending.
 */
static uint64_t
next_due(Geis geis)
{
	uint64_t next = grail_next_timeout(geis->grail);

	if (next && next <= geis->time_done)
		next = geis->time_done + 1;
	return next;
}

void
geis_engine_rearm(Geis geis)
{
	uint64_t next;

	if (!geis->grail)
		return;
	next = next_due(geis);
	if (geis->backend && geis->backend->ops->set_timer) {
		geis->backend->ops->set_timer(geis->backend, next);
		return;
	}
	if (next == geis->timer_at)
		return;
	geis->timer_at = next;
	if (next) {
		uint64_t now = geis_now(geis);

		ut_timerfd_arm_ms(geis->timerfd, next > now ? next - now : 0);
	} else {
		ut_timerfd_disarm(geis->timerfd);
	}
}

void
geis_engine_timer_fired(Geis geis)
{
	geis->timer_at = 0;
	geis_core_advance_time(geis, geis_now(geis));
	geis_engine_rearm(geis);
}

/*
 * Run every timeout due at or before @t, each at its own time, in order:
 * what an XSync alarm per timeout did for geis 2.2 (grail_update_time at
 * the alarm's time, before any input stamped later).
 */
void
geis_core_advance_time(Geis geis, uint64_t t)
{
	uint64_t at;
	int guard = 0;

	if (!geis || !geis->grail)
		return;
	while ((at = next_due(geis)) != 0 && at <= t && guard++ < 1000) {
		geis->time_done = at;
		grail_update_time(geis->grail, at);
		geis_engine_drain(geis);
	}
}

/* ---- accept / reject ---- */

static int
queued(Geis geis, unsigned id)
{
	for (GeisEvent ev = geis->queue.head; ev; ev = ev->next)
		if (ev->is_gesture && ev->gesture == id)
			return 1;
	return 0;
}

GeisStatus
geis_engine_accept(Geis geis, GeisGestureId id)
{
	if (!geis_uses_grail(geis))
		return GEIS_STATUS_SUCCESS;   /* the test backend's gestures */
	struct geis_gesture *g = gesture_find(geis, id);
	int known = g != NULL || queued(geis, id);
	UGStatus st = grail_accept_gesture(geis->grail, id);

	if (st == UGStatusErrorAtomicity)
		return GEIS_STATUS_SUCCESS;   /* grail decides atomic gestures */
	if (st != UGStatusSuccess) {
		if (known)
			return GEIS_STATUS_SUCCESS;   /* already ended in grail */
		geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_accept: gesture %u is unknown or already "
				"finished (grail status %d)", (unsigned)GEIS_PUBLIC_ID(id),
				(int)st);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	/* overlapping gestures are cancelled by grail: their ends (or the
	 * removal of their unseen events) happen here.  The accepted
	 * gesture's own queued events stay. */
	if (g) {
		g->accepted = 1;
		/* grail tells nothing about overlapping gestures that had
		 * already ended: they are cancelled all the same, so their
		 * events the application has not seen vanish too */
		ut_list_for_each_safe(pos, tmp, &geis->gestures) {
			struct geis_gesture *o = gesture_of(pos);

			if (o == g || !o->ended || o->accepted || !share_touch(g, o))
				continue;
			if (!o->seen)
				purge(geis, o->id);
			gesture_remove(geis, o);
		}
	}
	geis_engine_drain(geis);
	geis_engine_rearm(geis);
	return GEIS_STATUS_SUCCESS;
}

GeisStatus
geis_engine_reject(Geis geis, GeisGestureId id)
{
	if (!geis_uses_grail(geis))
		return GEIS_STATUS_SUCCESS;
	struct geis_gesture *g = gesture_find(geis, id);
	int known = g != NULL || queued(geis, id);
	UGStatus st;

	if (g && g->accepted) {
		/* grail refuses it too; the gesture goes on to its end */
		geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_reject: gesture %u was accepted; it cannot be "
				"rejected", (unsigned)GEIS_PUBLIC_ID(id));
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	st = grail_reject_gesture(geis->grail, id);
	if (st != UGStatusSuccess && st != UGStatusErrorAtomicity && !known) {
		geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_reject: gesture %u is unknown or already "
				"finished (grail status %d)", (unsigned)GEIS_PUBLIC_ID(id),
				(int)st);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	purge(geis, id);
	if (g) {
		if (st == UGStatusSuccess)
			gesture_remove(geis, g);
		else
			g->dead = 1;   /* ignore its slices until it ends */
	}
	geis_engine_drain(geis);
	geis_engine_rearm(geis);
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisStatus
geis_gesture_accept(Geis geis, GeisGroup group, GeisGestureId gesture_id)
{
	if (!geis) {
		geis_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_accept: NULL instance");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	geis_error_clear(geis);
	if (gesture_id == GEIS_NO_GESTURE_ID) {
		geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_accept: GEIS_NO_GESTURE_ID");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	return geis_engine_accept(geis, GEIS_GRAIL_ID(gesture_id));
}

GEIS_API GeisStatus
geis_gesture_reject(Geis geis, GeisGroup group, GeisGestureId gesture_id)
{
	if (!geis) {
		geis_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_reject: NULL instance");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	geis_error_clear(geis);
	if (gesture_id == GEIS_NO_GESTURE_ID) {
		geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_reject: GEIS_NO_GESTURE_ID");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	return geis_engine_reject(geis, GEIS_GRAIL_ID(gesture_id));
}
