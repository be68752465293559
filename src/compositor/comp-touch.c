/*
 * Touch input: the slot table, per-touch routes, frames for grail and the
 * touch handler through which grail's accept/reject arrive.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <utouch/frame_handle.h>

#include "compositor/comp-private.h"
#include "util/clock.h"

/* ---- slots ---- */

UFTouchId
uc_touch_frame_id(const struct utouch_comp *comp, const struct uc_touch *t)
{
	return ((UFTouchId)t->serial << UC_SLOT_BITS) | (UFTouchId)(t - comp->touches);
}

struct uc_touch *
uc_touch_lookup(struct utouch_comp *comp, UFTouchId frame_id)
{
	size_t slot = (size_t)(frame_id & UC_SLOT_MASK);
	uint64_t serial = frame_id >> UC_SLOT_BITS;

	if (slot >= comp->ntouches || serial == 0 || comp->touches[slot].serial != serial)
		return NULL;
	return &comp->touches[slot];
}

struct uc_touch *
uc_touch_find(struct utouch_comp *comp, struct utouch_comp_device *dev, int32_t id)
{
	for (size_t i = 0; i < comp->ntouches; i++) {
		struct uc_touch *t = &comp->touches[i];

		if (t->serial && t->down && t->dev == dev && t->id == id)
			return t;
	}
	return NULL;
}

static struct uc_touch *
slot_new(struct utouch_comp *comp)
{
	size_t slot;
	struct uc_touch *t;

	if (comp->nfree > 0) {
		slot = comp->free_slots[--comp->nfree];
	} else {
		if (comp->ntouches >= UC_SLOT_MASK)
			return NULL;
		if (uc_grow((void **)&comp->touches, &comp->captouches, comp->ntouches + 1,
			    sizeof(*comp->touches)) < 0)
			return NULL;
		/* room to free every slot later without allocating */
		if (uc_grow((void **)&comp->free_slots, &comp->capfree, comp->captouches,
			    sizeof(*comp->free_slots)) < 0)
			return NULL;
		slot = comp->ntouches++;
	}
	t = &comp->touches[slot];
	memset(t, 0, sizeof(*t));
	t->serial = comp->next_serial++;
	if (comp->next_serial == 0 || comp->next_serial > 0xffffffu * 255u)
		comp->next_serial = 1;
	comp->live_touches++;
	return t;
}

static void
slot_free(struct utouch_comp *comp, struct uc_touch *t)
{
	t->serial = 0;
	t->dev = NULL;
	comp->free_slots[comp->nfree++] = (uint32_t)(t - comp->touches);
	comp->live_touches--;
}

void
uc_touch_free_finished(struct utouch_comp *comp)
{
	for (size_t i = 0; i < comp->ntouches; i++) {
		struct uc_touch *t = &comp->touches[i];

		if (t->serial && !t->down && !t->undecided && !t->nheld && !t->replay &&
		    !t->changed)
			slot_free(comp, t);
	}
}

/* ---- cancels ---- */

static void *
client_of(const struct uc_touch *t)
{
	return t->client ? t->client : t->surface;
}

void
uc_queue_cancel(struct utouch_comp *comp, struct uc_touch *t, uint64_t time)
{
	void *client = client_of(t);

	if (!client)
		return;
	for (size_t i = 0; i < comp->ncancel; i++)
		if (comp->cancel_clients[i] == client)
			return;
	if (comp->ncancel == comp->capcancel) {
		size_t cap = comp->capcancel;

		if (uc_grow((void **)&comp->cancel_clients, &cap, comp->ncancel + 1,
			    sizeof(void *)) < 0)
			goto oom;
		cap = comp->capcancel;
		if (uc_grow((void **)&comp->cancel_surfaces, &cap, comp->ncancel + 1,
			    sizeof(void *)) < 0)
			goto oom;
		cap = comp->capcancel;
		if (uc_grow((void **)&comp->cancel_times, &cap, comp->ncancel + 1,
			    sizeof(uint64_t)) < 0)
			goto oom;
		comp->capcancel = cap;
	}
	comp->cancel_clients[comp->ncancel] = client;
	comp->cancel_surfaces[comp->ncancel] = t->surface;
	comp->cancel_times[comp->ncancel] = time;
	comp->ncancel++;
	return;
oom:
	comp->oom = 1;
}

void
uc_flush_cancels(struct utouch_comp *comp)
{
	for (size_t c = 0; c < comp->ncancel; c++) {
		void *client = comp->cancel_clients[c];
		struct utouch_comp_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.type = UTOUCH_COMP_EVENT_TOUCH_CANCEL;
		ev.time = comp->cancel_times[c];
		ev.touch.surface = comp->cancel_surfaces[c];
		ev.touch.client = client;
		uc_emit(comp, &ev);
		/* wl_touch.cancel ends every touch of the client */
		for (size_t i = 0; i < comp->ntouches; i++) {
			struct uc_touch *t = &comp->touches[i];

			if (t->serial && client_of(t) == client &&
			    (t->route == UTOUCH_COMP_ROUTE_DELIVER ||
			     t->route == UTOUCH_COMP_ROUTE_FORWARD)) {
				uc_hold_drop(comp, t);
				t->route = UTOUCH_COMP_ROUTE_CANCELLED;
			}
		}
	}
	comp->ncancel = 0;
}

void
uc_forget_target(struct utouch_comp *comp, void *surface, void *client)
{
	for (size_t i = 0; i < comp->ntouches; i++) {
		struct uc_touch *t = &comp->touches[i];

		if (!t->serial || (surface && t->surface != surface) ||
		    (client && client_of(t) != client))
			continue;
		uc_hold_drop(comp, t);
		t->replay = 0;
		t->surface = NULL;
		t->client = NULL;
		if (t->route != UTOUCH_COMP_ROUTE_SYSTEM)
			t->route = UTOUCH_COMP_ROUTE_CANCELLED;
	}
	for (size_t c = 0; c < comp->ncancel;) {
		if ((surface && comp->cancel_surfaces[c] == surface) ||
		    (client && comp->cancel_clients[c] == client)) {
			comp->ncancel--;
			comp->cancel_clients[c] = comp->cancel_clients[comp->ncancel];
			comp->cancel_surfaces[c] = comp->cancel_surfaces[comp->ncancel];
			comp->cancel_times[c] = comp->cancel_times[comp->ncancel];
		} else {
			c++;
		}
	}
	/* queued events for it must not reach a reused pointer either */
	for (size_t i = 0; i < comp->q_count; i++) {
		struct utouch_comp_event *ev = &comp->queue[(comp->q_head + i) % comp->q_cap];

		if (ev->type > UTOUCH_COMP_EVENT_TOUCH_CANCEL ||
		    ev->type == UTOUCH_COMP_EVENT_TOUCH_FRAME)
			continue;
		if ((surface && ev->touch.surface == surface) ||
		    (client && (ev->touch.client ? ev->touch.client : ev->touch.surface) == client)) {
			/* keep the slot, make it a no-op frame */
			ev->type = UTOUCH_COMP_EVENT_TOUCH_FRAME;
			memset(&ev->touch, 0, sizeof(ev->touch));
		}
	}
	uc_settle(comp);
}

UTOUCH_COMP_PUBLIC void
utouch_comp_surface_destroyed(struct utouch_comp *comp, void *surface)
{
	if (comp && surface)
		uc_forget_target(comp, surface, NULL);
}

UTOUCH_COMP_PUBLIC void
utouch_comp_client_destroyed(struct utouch_comp *comp, void *client)
{
	if (comp && client)
		uc_forget_target(comp, NULL, client);
}

/* ---- grail's decisions ---- */

UFStatus
uc_touch_handler(void *data, UFWindowId window, UFTouchId touch_id, int accept)
{
	struct utouch_comp *comp = data;
	struct uc_touch *t = uc_touch_lookup(comp, touch_id);
	uint32_t bit;

	if (!t || window == 0 || window > UC_MAX_ZONES)
		return UFStatusSuccess;
	bit = 1u << (window - 1);
	if (!(t->undecided & bit))
		return UFStatusSuccess;
	if (accept) {
		/* one system gesture is enough: later decisions of other
		 * zones are ignored */
		t->undecided = 0;
		switch (t->route) {
		case UTOUCH_COMP_ROUTE_HOLD:
			uc_hold_drop(comp, t);
			t->route = UTOUCH_COMP_ROUTE_SYSTEM;
			break;
		case UTOUCH_COMP_ROUTE_FORWARD:
			/* events of this frame not delivered yet never will be */
			uc_hold_drop(comp, t);
			if (t->seen)
				uc_queue_cancel(comp, t, comp->now);
			t->route = UTOUCH_COMP_ROUTE_SYSTEM;
			break;
		default:
			break;
		}
		return UFStatusSuccess;
	}
	t->undecided &= ~bit;
	if (t->undecided)
		return UFStatusSuccess;
	if (t->route == UTOUCH_COMP_ROUTE_HOLD) {
		t->replay = 1;
		comp->replay_pending = 1;
	} else if (t->route == UTOUCH_COMP_ROUTE_FORWARD) {
		t->route = UTOUCH_COMP_ROUTE_DELIVER;
	}
	return UFStatusSuccess;
}

/* ---- frames for grail ---- */

static int
mark_changed(struct utouch_comp_device *dev, struct uc_touch *t)
{
	if (!t->zones || t->changed)
		return 0;
	if (uc_grow((void **)&dev->changed, &dev->capchanged, dev->nchanged + 1,
		    sizeof(*dev->changed)) < 0)
		return -ENOMEM;
	dev->changed[dev->nchanged++] = (uint32_t)(t - dev->comp->touches);
	t->changed = 1;
	dev->dirty_zones |= t->zones;
	return 0;
}

static void
zone_frame(struct utouch_comp_device *dev, unsigned int z, uint64_t ms)
{
	struct utouch_comp *comp = dev->comp;
	struct utouch_frame_touch_op op = {
		.time = ms,
		.set = UTOUCH_FRAME_SET_POSITION | 1u << UFAxisTypeX | 1u << UFAxisTypeY,
	};
	UFStatus status;
	UFEvent ev;

	if ((!dev->frames[z] &&
	     utouch_frame_builder_new(dev->bdev, (UFWindowId)z + 1, 1,
				      &dev->frames[z]) != UFStatusSuccess) ||
	    utouch_frame_builder_begin(dev->frames[z]) != UFStatusSuccess) {
		comp->oom = 1;
		return;
	}
	for (size_t i = 0; i < dev->nchanged; i++) {
		struct uc_touch *t = &comp->touches[dev->changed[i]];

		if (!(t->zones & (1u << z)))
			continue;
		op.id = uc_touch_frame_id(comp, t);
		op.window_x = op.values[UFAxisTypeX] = (float)t->x;
		op.window_y = op.values[UFAxisTypeY] = (float)t->y;
		if (!t->framed) {
			op.kind = UTOUCH_FRAME_OP_BEGIN;
			op.start_time = t->start / 1000u;
			status = utouch_frame_builder_touch(dev->frames[z], &op);
			if (status == UFStatusSuccess && !t->down) {
				op.kind = UTOUCH_FRAME_OP_END;
				status = utouch_frame_builder_touch(dev->frames[z], &op);
			}
		} else {
			op.kind = t->down ? UTOUCH_FRAME_OP_UPDATE : UTOUCH_FRAME_OP_END;
			/* UFStatusErrorInvalidTouch: it already ended in this zone */
			status = utouch_frame_builder_touch(dev->frames[z], &op);
		}
		if (status == UFStatusErrorResources)
			comp->oom = 1;
	}
	if (utouch_frame_builder_end(dev->frames[z], ms, &ev) != UFStatusSuccess) {
		comp->oom = 1;
		return;
	}
	comp->in_grail = 1;
	grail_process_frame_event(comp->grail, ev);
	comp->in_grail = 0;
	frame_event_unref(ev);
}

void
uc_device_flush_frames(struct utouch_comp_device *dev, uint64_t time)
{
	struct utouch_comp *comp = dev->comp;
	uint64_t ms = time / 1000u;

	for (unsigned int z = 0; z < UC_MAX_ZONES; z++)
		if (dev->dirty_zones & (1u << z))
			zone_frame(dev, z, ms);
	for (size_t i = 0; i < dev->nchanged; i++) {
		struct uc_touch *t = &comp->touches[dev->changed[i]];

		t->changed = 0;
		t->framed = 1;
	}
	dev->nchanged = 0;
	dev->dirty_zones = 0;
	uc_gestures_drain(comp);
}

/* ---- input ---- */

static int
check(struct utouch_comp *comp, struct utouch_comp_device *dev)
{
	if (!comp || !dev || dev->comp != comp || dev->index >= comp->ndevices ||
	    comp->devices[dev->index] != dev)
		return -EINVAL;
	return 0;
}

static void
tick(struct utouch_comp *comp, uint64_t time)
{
	comp->clock_offset = (int64_t)ut_mono_us() - (int64_t)time;
	if (time > comp->now)
		comp->now = time;
}

static int
zone_contains(const struct uc_zone *z, double x, double y)
{
	const struct utouch_comp_rect *r = &z->region;

	if (r->width <= 0 || r->height <= 0)
		return 1;
	return x >= r->x && y >= r->y && x < r->x + r->width && y < r->y + r->height;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_down(struct utouch_comp *comp, struct utouch_comp_device *dev,
		       int32_t id, uint64_t time, double x, double y,
		       void *surface, void *client, double sx, double sy)
{
	struct uc_touch *t;
	uint32_t zones = 0;
	int hold = 0;

	if (check(comp, dev) < 0)
		return -EINVAL;
	if (uc_touch_find(comp, dev, id))
		return -EEXIST;
	if (uc_grow((void **)&dev->changed, &dev->capchanged, dev->nchanged + 1,
		    sizeof(*dev->changed)) < 0)
		return -ENOMEM;
	for (unsigned int z = 0; z < comp->nzones; z++) {
		if (comp->zones[z].nsubs && zone_contains(&comp->zones[z], x, y)) {
			zones |= 1u << z;
			if (comp->zones[z].nhold)
				hold = 1;
		}
	}
	t = slot_new(comp);
	if (!t)
		return -ENOMEM;
	t->dev = dev;
	t->id = id;
	t->surface = surface;
	t->client = client;
	t->x = x;
	t->y = y;
	t->sx = sx;
	t->sy = sy;
	t->start = t->time = time;
	t->zones = t->undecided = zones;
	t->down = 1;
	t->route = !zones ? UTOUCH_COMP_ROUTE_DELIVER
		: hold ? UTOUCH_COMP_ROUTE_HOLD : UTOUCH_COMP_ROUTE_FORWARD;
	tick(comp, time);
	if (t->route != UTOUCH_COMP_ROUTE_DELIVER) {
		/* held, or forwarded at the end of the frame once grail saw it */
		if (uc_hold(comp, t, UC_HELD_DOWN, time) < 0) {
			slot_free(comp, t);
			return -ENOMEM;
		}
	} else {
		uc_emit_touch(comp, UTOUCH_COMP_EVENT_TOUCH_DOWN, t, time, x, y, sx, sy, 0);
	}
	mark_changed(dev, t);   /* room reserved above */
	return 0;
}

static void
deliver_or_hold(struct utouch_comp *comp, struct uc_touch *t, enum uc_held_type type,
		enum utouch_comp_event_type etype, uint64_t time)
{
	switch (t->route) {
	case UTOUCH_COMP_ROUTE_DELIVER:
		if (!t->nheld) {
			uc_emit_touch(comp, etype, t, time, t->x, t->y, t->sx, t->sy, 0);
			break;
		}
		/* earlier events still wait in the buffer: keep the order */
		/* fall through */
	case UTOUCH_COMP_ROUTE_HOLD:
	case UTOUCH_COMP_ROUTE_FORWARD:
		if (uc_hold(comp, t, type, time) < 0)
			comp->oom = 1;
		break;
	default:
		break;
	}
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_motion(struct utouch_comp *comp, struct utouch_comp_device *dev,
			 int32_t id, uint64_t time, double x, double y, double sx, double sy)
{
	struct uc_touch *t;

	if (check(comp, dev) < 0)
		return -EINVAL;
	t = uc_touch_find(comp, dev, id);
	if (!t)
		return -ENOENT;
	if (mark_changed(dev, t) < 0)
		return -ENOMEM;
	tick(comp, time);
	t->x = x;
	t->y = y;
	t->sx = sx;
	t->sy = sy;
	t->time = time;
	deliver_or_hold(comp, t, UC_HELD_MOTION, UTOUCH_COMP_EVENT_TOUCH_MOTION, time);
	return 0;
}

static struct uc_touch *
end_touch(struct utouch_comp *comp, struct utouch_comp_device *dev, int32_t id,
	  uint64_t time, int *err)
{
	struct uc_touch *t;
	size_t slot;

	*err = check(comp, dev);
	if (*err < 0)
		return NULL;
	t = uc_touch_find(comp, dev, id);
	if (!t) {
		*err = -ENOENT;
		return NULL;
	}
	tick(comp, time);
	slot = (size_t)(t - comp->touches);
	if (t->zones && !t->framed) {
		/* grail must see the begin before the end */
		uc_device_flush_frames(dev, time);
		uc_settle(comp);
		t = &comp->touches[slot];
	}
	if (mark_changed(dev, t) < 0) {
		*err = -ENOMEM;
		return NULL;
	}
	t->time = time;
	t->down = 0;
	return t;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_up(struct utouch_comp *comp, struct utouch_comp_device *dev,
		     int32_t id, uint64_t time)
{
	int err;
	struct uc_touch *t = end_touch(comp, dev, id, time, &err);

	if (!t)
		return err;
	deliver_or_hold(comp, t, UC_HELD_UP, UTOUCH_COMP_EVENT_TOUCH_UP, time);
	return 0;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_cancel(struct utouch_comp *comp, struct utouch_comp_device *dev,
			 int32_t id, uint64_t time)
{
	int err;
	struct uc_touch *t = end_touch(comp, dev, id, time, &err);

	if (!t)
		return err;
	if (t->seen && (t->route == UTOUCH_COMP_ROUTE_DELIVER ||
			t->route == UTOUCH_COMP_ROUTE_FORWARD))
		uc_queue_cancel(comp, t, time);
	uc_hold_drop(comp, t);
	t->replay = 0;
	if (t->route != UTOUCH_COMP_ROUTE_SYSTEM)
		t->route = UTOUCH_COMP_ROUTE_CANCELLED;
	uc_settle(comp);
	return 0;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_frame(struct utouch_comp *comp, struct utouch_comp_device *dev,
			uint64_t time)
{
	if (check(comp, dev) < 0)
		return -EINVAL;
	tick(comp, time);
	uc_emit_frame(comp, time);
	comp->frame_seq++;
	uc_device_flush_frames(dev, time);
	uc_settle(comp);
	uc_emit_frame(comp, time);
	return 0;
}

UTOUCH_COMP_PUBLIC enum utouch_comp_route
utouch_comp_touch_get_route(struct utouch_comp *comp, struct utouch_comp_device *dev,
			    int32_t id)
{
	struct uc_touch *t;

	if (check(comp, dev) < 0)
		return UTOUCH_COMP_ROUTE_NONE;
	t = uc_touch_find(comp, dev, id);
	if (!t)
		return UTOUCH_COMP_ROUTE_NONE;
	if (t->replay)
		return UTOUCH_COMP_ROUTE_DELIVER;
	return t->route;
}

UTOUCH_COMP_PUBLIC size_t
utouch_comp_get_held_count(struct utouch_comp *comp)
{
	return comp ? comp->held_live : 0;
}

UTOUCH_COMP_PUBLIC size_t
utouch_comp_get_touch_count(struct utouch_comp *comp)
{
	return comp ? comp->live_touches : 0;
}
