/*
 * The gesture engine, the part of geis that talks to grail (geis-engine.h
 * lists its files): one grail handle per instance; active subscriptions
 * become grail subscriptions per (device, window); frames go to grail and
 * grail's events to the slice part.
 */
#include <stdlib.h>

#include "geis-engine.h"

int
gs_engine_init(Geis geis)
{
	return grail_new(&geis->grail) == UGStatusSuccess ? 0 : -1;
}

void
gs_engine_fini(Geis geis)
{
	ut_list_for_each_safe(pos, tmp, &geis->gestures) {
		ut_list_remove(pos);
		gs_gesture_forgive_end(geis, gs_gesture_of(pos));
		free(gs_gesture_of(pos));
	}
	free(geis->gesture_hash);
	geis->gesture_hash = NULL;
	geis->hash_size = geis->ngestures = 0;
	free(geis->alarms);
	geis->alarms = NULL;
	geis->nalarms = geis->capalarms = 0;
	if (geis->grail)
		grail_delete(geis->grail);
	geis->grail = NULL;
}


/* ---- subscriptions ---- */

/* @return 0, or -1 when the backend could not take the grab */
static int
grab(Geis geis, GeisDevice dev, UFWindowId window, int on)
{
	/* only the first binding of a (device, window) grabs, and only the
	 * last one ungrabs */
	int count = 0;

	if (!geis->backend || !geis->backend->ops->grab || !dev->uf)
		return 0;
	ut_list_for_each(spos, &geis->subs) {
		ut_list_for_each(bpos, &gs_sub_of(spos)->bindings) {
			struct geis_binding *b = gs_binding_of(bpos);

			if (b->device == dev && b->window == window)
				count++;
		}
	}
	if ((on && count == 1) || (!on && count == 0))
		return geis->backend->ops->grab(geis->backend, dev->uf, window, on);
	return 0;
}

static void
set_config(UGSubscription ug, const struct gs_sub_config *c)
{
	/* the values were checked when they were set */
	gr_props_apply(ug, c, geis_sub_config_props, geis_sub_config_nprops);
}

void
gs_engine_apply_config(GeisSubscription sub)
{
	ut_list_for_each(pos, &sub->bindings)
		set_config(gs_binding_of(pos)->ug, &sub->config);
}

/* @return 0; -1 when grail refused it, -2 when the backend could not
 * grab the window */
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
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
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
	if (grab(geis, dev, window, 1) < 0) {
		ut_list_remove(&b->link);
		grail_subscription_deactivate(geis->grail, ug);
		grail_subscription_delete(ug);
		geis_device_unref(b->device);
		free(b);
		return -2;
	}
	return 0;
}

/* Bind @p sub to @p dev through every filter that selects the device:
 * 0, or the worst bind_one() failure (-2 before -1). */
static int
bind_device(GeisSubscription sub, GeisDevice dev)
{
	GeisFilter f = gs_sub_first_filter(sub);
	int rc = 0;

	do {
		struct geis_gesture_params p;

		if (!gs_filter_match_device(f, dev))
			continue;
		if (gs_filter_gesture_params(f, sub->flags, sub->geis->tentative, &p) < 0)
			continue;  /* checked at activation */
		for (int i = 0; i < (p.nwindows ? p.nwindows : 1); i++) {
			UFWindowId window = p.nwindows ? (UFWindowId)(uint32_t)p.windows[i] :
				gs_core_root_window(sub->geis);
			int r = bind_one(sub, dev, window, &p);
			if (r < rc)
				rc = r;
		}
	} while (f && (f = gs_sub_next_filter(sub, f)));
	return rc;
}

static void
unbind_all(GeisSubscription sub, GeisDevice only)
{
	Geis geis = sub->geis;

	/* cancel first, and turn the cancelled ends into events while the
	 * bindings still exist */
	ut_list_for_each(pos, &sub->bindings) {
		struct geis_binding *b = gs_binding_of(pos);

		if (!only || b->device == only)
			grail_subscription_deactivate(geis->grail, b->ug);
	}
	gs_engine_drain(geis);
	ut_list_for_each_safe(pos, tmp, &sub->bindings) {
		struct geis_binding *b = gs_binding_of(pos);

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
gs_engine_activate(GeisSubscription sub)
{
	Geis geis = sub->geis;
	GeisFilter f = gs_sub_first_filter(sub);

	if (!gs_uses_grail(geis)) {
		/* the backend makes the gestures (the test backend) */
		GeisStatus st = geis->backend->ops->activate(geis->backend, sub);

		if (st == GEIS_STATUS_SUCCESS)
			sub->active = 1;
		return st;
	}

	do {
		struct geis_gesture_params p;

		if (gs_filter_gesture_params(f, sub->flags, geis->tentative, &p) < 0) {
			gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
					"subscription \"%s\": filter \"%s\" can not be "
					"satisfied (no gesture class left, a \"touches\" NE "
					"term, a non-EQ region term or an impossible touch "
					"count)", sub->name, f ? f->name : "");
			return GEIS_STATUS_BAD_ARGUMENT;
		}
	} while (f && (f = gs_sub_next_filter(sub, f)));

	if (sub->active)
		gs_engine_deactivate(sub);
	sub->active = 1;
	ut_list_for_each(pos, &geis->devices) {
		int rc = bind_device(sub, ut_container_of(pos, struct _GeisDevice, link));
		if (rc < 0) {
			gs_engine_deactivate(sub);
			/* a window another client grabbed: GEIS_STATUS_UNKNOWN_ERROR,
			 * as geis 2.2 returned */
			return rc == -2 ? GEIS_STATUS_UNKNOWN_ERROR : GEIS_STATUS_BAD_ARGUMENT;
		}
	}
	gs_engine_rearm(geis);
	return GEIS_STATUS_SUCCESS;
}

void
gs_engine_deactivate(GeisSubscription sub)
{
	Geis geis = sub->geis;

	if (!gs_uses_grail(geis)) {
		sub->active = 0;
		return;
	}

	unbind_all(sub, NULL);
	sub->active = 0;
	/* whatever is still queued of its gestures is dropped; gestures the
	 * application has seen got their GESTURE_END from the drain */
	ut_list_for_each_safe(pos, tmp, &geis->gestures) {
		struct geis_gesture *g = gs_gesture_of(pos);

		if (g->sub == sub) {
			if (!g->seen)
				gs_gesture_purge(geis, g->id);
			gs_gesture_remove(geis, g);
		}
	}
	gs_engine_rearm(geis);
}

void
gs_engine_device_added(Geis geis, GeisDevice dev)
{
	if (!gs_uses_grail(geis))
		return;
	ut_list_for_each(pos, &geis->subs) {
		if (gs_sub_of(pos)->active)
			bind_device(gs_sub_of(pos), dev);
	}
	gs_engine_rearm(geis);
}

void
gs_engine_device_removed(Geis geis, GeisDevice dev)
{
	ut_list_for_each(pos, &geis->subs)
		unbind_all(gs_sub_of(pos), dev);
	gs_engine_rearm(geis);
}

/* Turn grail's events into gesture events; the number of grail events. */
unsigned
gs_engine_drain_grail(Geis geis)
{
	unsigned n = 0;
	UGEvent ev;

	if (!geis->grail)
		return 0;
	while (grail_get_event(geis->grail, &ev) == UGStatusSuccess) {
		UGSlice slice;

		n++;
		if (grail_event_get_type(ev) == UGEventTypeSlice &&
		    grail_event_get_property(ev, UGEventPropertySlice, &slice) ==
			    UGStatusSuccess)
			gs_engine_handle_slice(geis, ev, slice);
		grail_event_unref(ev);
	}
	/* geis 2.2 set an alarm after the grail events it read */
	if (n && gs_engine_alarm_mode(geis))
		gs_engine_alarm_note(geis);
	return n;
}

void
gs_engine_frame(Geis geis, UFEvent event)
{
	uint64_t t = frame_event_get_time(event);

	grail_process_frame_event(geis->grail, event);
	if (t > geis->time_seen)
		geis->time_seen = t;
	/* and after every frame */
	if (gs_engine_alarm_mode(geis))
		gs_engine_alarm_note(geis);
	gs_engine_drain(geis);
}

void
gs_engine_drain(Geis geis)
{
	gs_engine_drain_grail(geis);
	/* during dispatch, callbacks see the events of each frame (or
	 * timeout) before the next one is processed, so that they can accept
	 * or reject in time */
	if (geis->in_dispatch) {
		gs_deliver_callbacks(geis);
		gs_engine_release_undecided(geis);
	}
}

