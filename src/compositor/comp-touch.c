/*
 * Touches: the slot table, per-touch routes, the touch handler through
 * which grail's accept/reject arrive, the clients to cancel, and the frames
 * for grail.  State changes only, below the step (comp-step.c): nothing
 * here calls up; the one output made here, a client's cancel, goes through
 * the queue (comp-queue.c).
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
uc_touch_new(struct utouch_comp *comp)
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

void
uc_touch_free(struct utouch_comp *comp, struct uc_touch *t)
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
			uc_touch_free(comp, t);
	}
}

/* ---- cancels ---- */

void
uc_queue_cancel(struct utouch_comp *comp, struct uc_touch *t, uint64_t time)
{
	void *client = uc_touch_client(t);

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
	uc_out_of_memory(comp, "a client's cancel was dropped");
}

void
uc_touch_flush_cancels(struct utouch_comp *comp)
{
	for (size_t c = 0; c < comp->ncancel; c++) {
		void *client = comp->cancel_clients[c];

		uc_emit_cancel(comp, comp->cancel_surfaces[c], client, comp->cancel_times[c]);
		/* wl_touch.cancel ends every touch of the client */
		for (size_t i = 0; i < comp->ntouches; i++) {
			struct uc_touch *t = &comp->touches[i];

			if (t->serial && uc_touch_client(t) == client &&
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
uc_touch_forget_target(struct utouch_comp *comp, void *surface, void *client)
{
	for (size_t i = 0; i < comp->ntouches; i++) {
		struct uc_touch *t = &comp->touches[i];

		if (!t->serial || (surface && t->surface != surface) ||
		    (client && uc_touch_client(t) != client))
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

/*
 * Give grail the frame of zone @z: the touches changed since its last
 * frame.  False when the frame could not be made (out of memory): the
 * builder is left at the last frame grail has, and the frame is made again
 * with the next input or timer (uc_device_flush_frames()).
 */
static bool
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
		return false;
	}
	for (size_t i = 0; i < dev->nchanged; i++) {
		struct uc_touch *t = &comp->touches[dev->changed[i]];

		if (!(t->zones & (1u << z)))
			continue;
		op.id = uc_touch_frame_id(comp, t);
		op.window_x = op.values[UFAxisTypeX] = (float)t->x;
		op.window_y = op.values[UFAxisTypeY] = (float)t->y;
		if (!(t->framed_zones & (1u << z))) {
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
		if (status == UFStatusErrorResources) {
			utouch_frame_builder_cancel(dev->frames[z]);
			comp->oom = 1;
			return false;
		}
	}
	/* (a failed end drops the frame as a cancel does) */
	if (utouch_frame_builder_end(dev->frames[z], ms, &ev) != UFStatusSuccess) {
		comp->oom = 1;
		return false;
	}
	comp->in_grail = 1;
	grail_process_frame_event(comp->grail, ev);
	comp->in_grail = 0;
	frame_event_unref(ev);
	return true;
}

void
uc_device_flush_frames(struct utouch_comp_device *dev, uint64_t time)
{
	struct utouch_comp *comp = dev->comp;
	uint64_t ms = time / 1000u;
	uint32_t missed = 0;
	size_t kept = 0;
	int oom = comp->oom;

	/* zone_frame() notes what it could not do in comp->oom: logged once */
	comp->oom = 0;
	for (unsigned int z = 0; z < UC_MAX_ZONES; z++)
		if ((dev->dirty_zones & (1u << z)) && !zone_frame(dev, z, ms))
			missed |= 1u << z;
	if (comp->oom)
		uc_out_of_memory(comp, "a frame for grail waits for the next input or timer");
	comp->oom |= oom;
	/* the touches of a missed frame stay changed: the frame is made again
	 * (a touch grail never saw still begins, one that lifted still ends) */
	for (size_t i = 0; i < dev->nchanged; i++) {
		struct uc_touch *t = &comp->touches[dev->changed[i]];

		t->framed_zones |= t->zones & ~missed;
		if (t->zones & missed)
			dev->changed[kept++] = dev->changed[i];
		else
			t->changed = 0;
	}
	dev->nchanged = kept;
	dev->dirty_zones = dev->missed_zones = missed;
}

bool
uc_frames_waiting(const struct utouch_comp *comp)
{
	for (size_t i = 0; i < comp->ndevices; i++)
		if (comp->devices[i] && comp->devices[i]->missed_zones)
			return true;
	return false;
}
