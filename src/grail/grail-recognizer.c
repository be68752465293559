/*
 * utouch grail: the per-(device, window) recognizer.
 *
 * See doc/grail.md for the algorithm.  This file holds the recognizer's
 * gesture lists and what changes them: matching new touches into candidate
 * gestures, the client's (or atomic mode's) accept and reject, timeouts,
 * and the entry points for frames and timers.  Touches are kept in
 * grail-touch.c, the gesture object in grail-gesture.c.  Memory: gestures
 * and events come from free lists owned by the handle, so a steady stream
 * of frames allocates nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "grail-private.h"

struct gr_recognizer *
gr_recognizer_new(struct UGHandle_ *h, UFDevice device, UFWindowId window, bool atomic)
{
	struct gr_recognizer *rec = calloc(1, sizeof(*rec));
	if (!rec)
		return NULL;
	rec->handle = h;
	rec->device = device;
	rec->window = window;
	rec->atomic = atomic;
	ut_list_init(&rec->unaccepted);
	ut_list_init(&rec->accepted);

	int direct = 0;
	if ((frame_device_get_property)(device, UFDevicePropertyDirect, &direct) !=
	    UFStatusSuccess)
		direct = 0;
	rec->direct = direct != 0;

	if (rec->direct) {
		rec->res_x = frame_device_get_window_resolution_x(device);
		rec->res_y = frame_device_get_window_resolution_y(device);
		if (!(rec->res_x > 0.0f))
			rec->res_x = GR_DEFAULT_WINDOW_RES;
		if (!(rec->res_y > 0.0f))
			rec->res_y = GR_DEFAULT_WINDOW_RES;
	} else {
		UFAxis axis = NULL;
		rec->res_x = 0.0f;
		rec->res_y = 0.0f;
		if (frame_device_get_axis_by_type(device, UFAxisTypeX, &axis) ==
			    UFStatusSuccess &&
		    axis)
			rec->res_x = frame_axis_get_resolution(axis);
		axis = NULL;
		if (frame_device_get_axis_by_type(device, UFAxisTypeY, &axis) ==
			    UFStatusSuccess &&
		    axis)
			rec->res_y = frame_axis_get_resolution(axis);
		if (!(rec->res_x > 0.0f))
			rec->res_x = GR_DEFAULT_AXIS_RES_X;
		if (!(rec->res_y > 0.0f))
			rec->res_y = GR_DEFAULT_AXIS_RES_Y;
	}
	gr_init_edges(rec);
	ut_list_insert_before(&h->recognizers, &rec->link);
	gr_log(h, GR_LOG_DEBUG, "new %s recognizer for window %llu (%s, %.1f x %.1f per m)",
	       atomic ? "atomic" : "regular", (unsigned long long)window,
	       rec->direct ? "direct" : "indirect", (double)rec->res_x, (double)rec->res_y);
	return rec;
}

static void
destroy_list(struct ut_list *list, uint64_t time, bool notify)
{
	while (!ut_list_empty(list)) {
		struct gr_gesture *g = ut_container_of(list->next, struct gr_gesture, link);
		if (!g->ended || notify)
			gr_gesture_cancel(g, time, notify);
		gr_gesture_remove_and_destroy(g);
	}
}

static uint64_t
last_time(const struct gr_recognizer *rec)
{
	uint64_t t = 0;
	const struct ut_list *lists[2] = {&rec->unaccepted, &rec->accepted};
	for (int k = 0; k < 2; k++) {
		for (const struct ut_list *l = lists[k]->next; l != lists[k]; l = l->next) {
			const struct gr_gesture *g =
				ut_container_of(l, struct gr_gesture, link);
			if (g->last && g->last->time > t)
				t = g->last->time;
		}
	}
	return t;
}

void
gr_recognizer_destroy(struct gr_recognizer *rec, bool notify)
{
	uint64_t t = last_time(rec);
	destroy_list(&rec->accepted, t, notify);
	destroy_list(&rec->unaccepted, t, notify);
	while (rec->free_touches.n > 0)
		gr_free_remove(rec, rec->free_touches.v[rec->free_touches.n - 1]);
	while (rec->new_touches.n > 0) {
		uint32_t slot = rec->new_touches.v[--rec->new_touches.n];
		rec->touches[slot].in_new = false;
		gr_touch_unref(rec, slot);
	}
	ut_list_remove(&rec->link);
	gr_slots_finish(&rec->free_slots);
	gr_slots_finish(&rec->free_touches);
	gr_slots_finish(&rec->new_touches);
	free(rec->touches);
	free(rec->subs);
	free(rec->taps);
	free(rec);
}

bool
gr_recognizer_add_subscription(struct gr_recognizer *rec, UGSubscription sub)
{
	for (unsigned int i = 0; i < rec->nsubs; i++)
		if (rec->subs[i] == sub)
			return true;
	if (!UT_ARRAY_RESERVE(rec->subs, rec->capsubs, rec->nsubs + 1, 4))
		return false;
	if (!UT_ARRAY_RESERVE(rec->taps, rec->captaps, rec->nsubs + 1, 4))
		return false;
	memset(&rec->taps[rec->nsubs], 0, sizeof(rec->taps[0]));
	rec->subs[rec->nsubs++] = sub;
	rec->hold_known = false;
	return true;
}

void
gr_recognizer_remove_subscription(struct gr_recognizer *rec, UGSubscription sub)
{
	unsigned int i;
	for (i = 0; i < rec->nsubs; i++)
		if (rec->subs[i] == sub)
			break;
	if (i == rec->nsubs)
		return;
	memmove(&rec->subs[i], &rec->subs[i + 1], (rec->nsubs - i - 1) * sizeof(rec->subs[0]));
	memmove(&rec->taps[i], &rec->taps[i + 1], (rec->nsubs - i - 1) * sizeof(rec->taps[0]));
	rec->nsubs--;
	rec->hold_known = false;

	uint64_t t = last_time(rec);
	struct ut_list *lists[2] = {&rec->accepted, &rec->unaccepted};
	for (int k = 0; k < 2; k++) {
		struct ut_list *l = lists[k]->next;
		while (l != lists[k]) {
			struct ut_list *next = l->next;
			struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
			if (g->sub == sub) {
				if (!g->ended)
					gr_gesture_cancel(g, t, true);
				gr_gesture_remove_and_destroy(g);
			}
			l = next;
		}
	}
}

struct gr_gesture *
gr_recognizer_find_undecided(struct gr_recognizer *rec, unsigned int id)
{
	for (struct ut_list *l = rec->unaccepted.next; l != &rec->unaccepted; l = l->next) {
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (g->id == id)
			return g;
	}
	return NULL;
}

static uint64_t
event_time_of(const struct gr_gesture *g)
{
	return g->last ? g->last->time : g->start_time;
}

/* Drop a gesture the client (or grail, implicitly) rejected. */
static void
reject_gesture(struct gr_recognizer *rec, struct gr_gesture *g, uint64_t time,
	       bool tell_client)
{
	(void)rec;
	gr_gesture_cancel(g, time, tell_client);
	gr_gesture_remove_and_destroy(g);
}

void
gr_recognizer_reject(struct gr_recognizer *rec, struct gr_gesture *g)
{
	reject_gesture(rec, g, event_time_of(g), false);
}

UGStatus
gr_recognizer_accept(struct gr_recognizer *rec, struct gr_gesture *g)
{
	uint64_t time = event_time_of(g);

	for (unsigned int i = 0; i < g->nall; i++) {
		uint32_t slot = g->all[i];
		struct gr_touch *t = &rec->touches[slot];
		if (!t->accepted) {
			gr_touch_accept(rec, slot);
		} else {
			/* an extension: it replaces the accepted gestures it grew from */
			struct ut_list *l = rec->accepted.next;
			while (l != &rec->accepted) {
				struct ut_list *next = l->next;
				struct gr_gesture *o = ut_container_of(l, struct gr_gesture, link);
				if (gr_gesture_has_touch(o, slot)) {
					gr_gesture_cancel(o, time, true);
					gr_gesture_remove_and_destroy(o);
				}
				l = next;
			}
		}
		gr_free_remove(rec, slot);
	}

	struct ut_list *l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *o = ut_container_of(l, struct gr_gesture, link);
		if (o != g && gr_gestures_share_touch(g, o))
			reject_gesture(rec, o, time, true);
		l = next;
	}

	gr_gesture_finish_construction(g, time);
	ut_list_remove(&g->link);
	if (g->ended) {
		gr_gesture_destroy(g);
	} else {
		g->accepted = true;
		gr_gesture_list_insert(&rec->accepted, g);
	}
	return UGStatusSuccess;
}

/* Atomic mode: grail itself accepts; overlapping gestures are kept. */
static void
atomic_accept(struct gr_recognizer *rec, struct gr_gesture *g, uint64_t time)
{
	for (unsigned int i = 0; i < g->nall; i++) {
		gr_touch_accept(rec, g->all[i]);
		gr_free_remove(rec, g->all[i]);
	}
	gr_gesture_finish_construction(g, time);
	ut_list_remove(&g->link);
	if (g->ended) {
		gr_gesture_destroy(g);
	} else {
		g->accepted = true;
		gr_gesture_list_insert(&rec->accepted, g);
	}
}

static void
reject_overdue(struct gr_recognizer *rec, uint64_t time)
{
	struct ut_list *l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		uint64_t to = gr_gesture_timeout(g);
		if (to && gr_elapsed(time, g->start_time) > to) {
			gr_log(rec->handle, GR_LOG_DEBUG, "gesture %u timed out", g->id);
			reject_gesture(rec, g, time, true);
		}
		l = next;
	}

	for (unsigned int i = 0; i < rec->free_touches.n;) {
		uint32_t slot = rec->free_touches.v[i];
		const struct gr_touch *t = &rec->touches[slot];
		if (gr_elapsed(time, t->start_time) >= GR_COMPOSITION_TIME)
			gr_free_remove(rec, slot);
		else
			i++;
	}
}

/* Create a gesture of @sub with the touches @slots (n of them). */
static struct gr_gesture *
create_gesture(struct gr_recognizer *rec, UGSubscription sub, const uint32_t *slots,
	       unsigned int n, uint64_t start)
{
	struct gr_gesture *g = gr_gesture_new(rec, sub, start);
	if (!g)
		return NULL;
	for (unsigned int i = 0; i < n; i++) {
		if (!gr_gesture_add_touch(g, slots[i])) {
			gr_gesture_destroy(g);
			return NULL;
		}
	}
	g->single = n == 1 && !rec->atomic;
	gr_gesture_list_insert(&rec->unaccepted, g);
	gr_log(rec->handle, GR_LOG_DEBUG, "new gesture %u with %u touches", g->id, n);
	return g;
}

static void
expand_gesture(struct gr_recognizer *rec, struct gr_gesture *g, uint32_t slot)
{
	if (g->ended || g->canceled)
		return;
	if (g->sub->touches_max == 0 || g->ncur >= g->sub->touches_max)
		return;
	if (gr_gesture_has_current(g, slot) || gr_gesture_has_touch(g, slot))
		return;
	if (g->last && g->last->physically_ended)
		return;

	uint32_t slots[GR_MAX_TOUCHES];
	unsigned int n = 0;
	for (unsigned int i = 0; i < g->ncur; i++)
		slots[n++] = g->cur[i];
	slots[n++] = slot;
	struct gr_gesture *ng = create_gesture(rec, g->sub, slots, n, g->start_time);
	if (ng) {
		ng->recognized = g->recognized;
		/* what the extensions decided goes with the recognized mask */
		ng->tap_count = g->tap_count;
		ng->hold_out = g->hold_out;
		if (g->edge_decided) {
			ng->edge = g->edge;
			ng->edge_decided = true;
		}
	}
}

/*
 * Whole-hand subscriptions: the touches down on the recognizer's device
 * and window, i.e. those of the frame being read that have neither ended
 * nor are about to (pending end).  Touches grail has already let go of
 * count too: the hand is still on the device.
 */
static unsigned int
touches_down(const struct gr_recognizer *rec)
{
	unsigned int n = 0;
	if (!rec->frame)
		return 0;
	for (uint32_t i = 0; i < rec->frame_ntouches; i++) {
		const struct UFTouch_ *ft = ut_frame_touch_at(rec->frame, i);
		if (ft->state != UFTouchStateEnd && !ut_frame_touch_pending_end(ft))
			n++;
	}
	return n;
}

/* Whether each of the touches @slots is down in the frame being read. */
static bool
all_down(const struct gr_recognizer *rec, const uint32_t *slots, unsigned int n)
{
	for (unsigned int j = 0; j < n; j++) {
		UFTouchId id = rec->touches[slots[j]].id;
		bool found = false;
		for (uint32_t i = 0; i < rec->frame_ntouches && !found; i++) {
			const struct UFTouch_ *ft = ut_frame_touch_at(rec->frame, i);
			found = ft->id == id && ft->state != UFTouchStateEnd &&
				!ut_frame_touch_pending_end(ft);
		}
		if (!found)
			return false;
	}
	return true;
}

static bool
any_whole_hand(const struct gr_recognizer *rec)
{
	for (unsigned int i = 0; i < rec->nsubs; i++)
		if (rec->subs[i]->whole_hand)
			return true;
	return false;
}

/*
 * A touch landed: every undecided whole-hand gesture that did not take it
 * (its expansion, if any, is a new gesture that did) no longer has the
 * whole hand and is rejected.  Gestures that ended already are complete
 * and stay for the client to decide.
 */
static void
reject_partial_hands(struct gr_recognizer *rec, uint32_t slot)
{
	struct ut_list *l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (g->sub->whole_hand && !g->ended && !gr_gesture_has_touch(g, slot)) {
			gr_log(rec->handle, GR_LOG_DEBUG,
			       "gesture %u rejected: touch %llu landed outside it", g->id,
			       (unsigned long long)rec->touches[slot].id);
			reject_gesture(rec, g, rec->frame_time, true);
		}
		l = next;
	}
}

/*
 * Whole-hand subscriptions only (regular and atomic mode): once more
 * touches are down than any of them takes (TouchesStart, or
 * TouchesMaximum when larger), none can have
 * the whole hand while these touches stay down, and a gesture forms only
 * when a touch lands, with every touch down.  So the undecided candidates
 * go and every free touch is let go of at once (rejected unless an
 * accepted gesture holds it) instead of when the composition time has
 * passed: the application gets a palm's touches as the fingers land, not
 * 60 ms later (issue 23 point 8).  A touch let go of here cannot join a
 * later gesture.  With any other subscription on the window, a subset of
 * the touches may still be its gesture, and nothing changes.
 */
static void
release_over_hand(struct gr_recognizer *rec, unsigned int down)
{
	unsigned int most = 0;

	for (unsigned int i = 0; i < rec->nsubs; i++) {
		const struct UGSubscription_ *sub = rec->subs[i];
		if (!sub->whole_hand)
			return;
		if (sub->touches_start > most)
			most = sub->touches_start;
		if (sub->touches_max > most)
			most = sub->touches_max;
	}
	if (down <= most)
		return;
	struct ut_list *l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (!g->ended)
			reject_gesture(rec, g, rec->frame_time, true);
		l = next;
	}
	if (rec->free_touches.n > 0)
		gr_log(rec->handle, GR_LOG_DEBUG, "%u touches down, more than any gesture takes: "
		       "letting %u go", down, rec->free_touches.n);
	while (rec->free_touches.n > 0)
		gr_free_remove(rec, rec->free_touches.v[rec->free_touches.n - 1]);
}

/*
 * Every combination of @new_slot with k-1 other free touches (ascending
 * ids) becomes a gesture of each subscription starting with k touches, as
 * long as the undecided touches began within the composition time.  A
 * whole-hand subscription takes only the combination of every touch down
 * (@down of them; 0 when no subscription is whole-hand).
 */
static void
match_combinations(struct gr_recognizer *rec, uint32_t new_slot, unsigned int down)
{
	const struct gr_touch *nt = &rec->touches[new_slot];
	uint32_t others[64];
	unsigned int nothers = 0;

	for (unsigned int i = 0; i < rec->free_touches.n && nothers < 64; i++) {
		uint32_t s = rec->free_touches.v[i];
		if (s != new_slot)
			others[nothers++] = s;
	}

	for (unsigned int k = 1; k <= GR_MAX_TOUCHES; k++) {
		for (unsigned int si = 0; si < rec->nsubs; si++) {
			UGSubscription sub = rec->subs[si];
			if (sub->touches_start != k)
				continue;
			unsigned int m = k - 1;
			if (m > nothers)
				continue;
			/* k touches down in the combination are all of them */
			if (sub->whole_hand && k != down)
				continue;
			unsigned int idx[GR_MAX_TOUCHES];
			for (unsigned int j = 0; j < m; j++)
				idx[j] = j;
			for (;;) {
				uint64_t min_start = nt->start_time;
				uint32_t slots[GR_MAX_TOUCHES];
				for (unsigned int j = 0; j < m; j++) {
					const struct gr_touch *o = &rec->touches[others[idx[j]]];
					slots[j] = others[idx[j]];
					if (!o->accepted && o->start_time < min_start)
						min_start = o->start_time;
				}
				slots[m] = new_slot;
				if (nt->start_time - min_start < GR_COMPOSITION_TIME &&
				    (!sub->whole_hand || all_down(rec, slots, m)) &&
				    !create_gesture(rec, sub, slots, m + 1, nt->start_time))
					/* at the cap (or out of memory) every further
					 * combination fails too: with dozens of touches
					 * down the rest would take minutes */
					return;
				/* next combination in lexicographic order */
				int j = (int)m - 1;
				while (j >= 0 && idx[j] == nothers - m + (unsigned int)j)
					j--;
				if (j < 0)
					break;
				idx[j]++;
				for (unsigned int q = (unsigned int)j + 1; q < m; q++)
					idx[q] = idx[q - 1] + 1;
			}
		}
	}
}

/*
 * A new touch (non-atomic mode): every live gesture that can grow takes it
 * as an extension candidate, then it forms new gestures with the other free
 * touches.  Called by gr_touches_read_frame() for each new touch, before
 * the frame's later touches are read.
 */
void
gr_recognizer_match_new_touch(struct gr_recognizer *rec, uint32_t slot)
{
	unsigned int down = any_whole_hand(rec) ? touches_down(rec) : 0;
	struct ut_list *lists[2] = {&rec->accepted, &rec->unaccepted};
	for (int k = 0; k < 2; k++) {
		struct ut_list *last = lists[k]->prev;
		struct ut_list *l = lists[k]->next;
		while (l != lists[k]) {
			struct ut_list *next = l->next;
			expand_gesture(rec, ut_container_of(l, struct gr_gesture, link), slot);
			if (l == last)
				break;
			l = next;
		}
	}
	if (down)
		reject_partial_hands(rec, slot);
	match_combinations(rec, slot, down);
	if (down)
		release_over_hand(rec, down);
}

/* Atomic mode: one gesture per subscription matching all free touches. */
static void
match_atomic(struct gr_recognizer *rec)
{
	unsigned int n = rec->free_touches.n;
	if (n < 1 || n > GR_MAX_TOUCHES)
		return;

	uint64_t min_start = UINT64_MAX, max_start = 0, all_max = 0;
	bool any_unaccepted = false;
	for (unsigned int i = 0; i < n; i++) {
		const struct gr_touch *t = &rec->touches[rec->free_touches.v[i]];
		if (t->start_time > all_max)
			all_max = t->start_time;
		if (t->accepted)
			continue;
		any_unaccepted = true;
		if (t->start_time < min_start)
			min_start = t->start_time;
		if (t->start_time > max_start)
			max_start = t->start_time;
	}
	if (any_unaccepted && max_start - min_start >= GR_COMPOSITION_TIME)
		return;

	unsigned int down = any_whole_hand(rec) ? touches_down(rec) : 0;
	for (unsigned int si = 0; si < rec->nsubs; si++) {
		UGSubscription sub = rec->subs[si];
		if (sub->touches_start != n)
			continue;
		if (sub->whole_hand && (n != down || !all_down(rec, rec->free_touches.v, n)))
			continue;
		struct gr_gesture *g =
			create_gesture(rec, sub, rec->free_touches.v, n, all_max);
		if (g)
			g->keep_slices = true;
	}
}

static void
atomic_match_new_touches(struct gr_recognizer *rec, uint64_t time)
{
	unsigned int nnew = rec->new_touches.n;
	uint32_t newslots[64];
	if (nnew > 64)
		nnew = 64;
	for (unsigned int i = 0; i < nnew; i++) {
		uint32_t slot = rec->new_touches.v[i];
		newslots[i] = slot;
		gr_free_add(rec, slot);
	}
	for (unsigned int i = 0; i < rec->new_touches.n; i++) {
		uint32_t slot = rec->new_touches.v[i];
		rec->touches[slot].in_new = false;
		gr_touch_unref(rec, slot);
	}
	rec->new_touches.n = 0;

	/*
	 * Like grail 3.1: the first accepted gesture (in list order) that can
	 * take the new touches takes them all; then none are left for the
	 * accepted gestures after it (each still ends if its own touches are
	 * more than its TouchesMaximum, as an unset maximum of 0 makes them),
	 * the undecided ones or a new gesture.
	 */
	unsigned int take = nnew;
	struct ut_list *l = rec->accepted.next;
	while (l != &rec->accepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (!g->ended && g->ncur + take <= g->sub->touches_max) {
			for (unsigned int i = 0; i < take; i++) {
				if (rec->touches[newslots[i]].live &&
				    gr_gesture_add_touch(g, newslots[i])) {
					gr_touch_accept(rec, newslots[i]);
					gr_free_remove(rec, newslots[i]);
				}
			}
			take = 0;
		} else {
			for (unsigned int i = 0; i < g->ncur; i++) {
				const struct gr_touch *t = &rec->touches[g->cur[i]];
				if (!t->ended && !t->pending_end)
					gr_free_add(rec, g->cur[i]);
			}
			gr_gesture_end(g, time);
			gr_gesture_remove_and_destroy(g);
		}
		l = next;
	}
	if (take == 0 && nnew > 0)
		goto out;

	l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (!g->ended && g->ncur + nnew <= g->sub->touches_max) {
			for (unsigned int i = 0; i < nnew; i++)
				if (rec->touches[newslots[i]].live)
					gr_gesture_add_touch(g, newslots[i]);
		} else {
			/* like grail 3.1: its touches become free again first */
			for (unsigned int i = 0; i < g->ncur; i++) {
				const struct gr_touch *t = &rec->touches[g->cur[i]];
				if (!t->ended && !t->pending_end)
					gr_free_add(rec, g->cur[i]);
			}
			reject_gesture(rec, g, time, true);
		}
		l = next;
	}

	match_atomic(rec);
out:
	if (any_whole_hand(rec))
		release_over_hand(rec, touches_down(rec));
}

/*
 * A client that never decides its non-atomic gestures leaves the ended
 * ones waiting; beyond GR_MAX_ENDED_UNDECIDED, release the oldest (the
 * first created: the list is in rank order, and a recycled gesture object
 * keeps its old rank, so the head may well be a gesture that ended just
 * now).  Its touches are rejected; its events stay in the queue, the End
 * among them: the client gets every event of a gesture it saw, whether or
 * not it read them yet.
 */
static void
release_ended(struct gr_recognizer *rec)
{
	while (rec->nended > GR_MAX_ENDED_UNDECIDED) {
		struct gr_gesture *oldest = NULL;
		for (struct ut_list *l = rec->unaccepted.next; l != &rec->unaccepted;
		     l = l->next) {
			struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
			if (g->ended && (!oldest || (int)(g->id - oldest->id) < 0))
				oldest = g;
		}
		if (!oldest)
			return;
		gr_log(rec->handle, GR_LOG_DEBUG, "releasing ended undecided gesture %u",
		       oldest->id);
		gr_gesture_remove_and_destroy(oldest);
	}
}

static void
process_event(struct gr_recognizer *rec, UFEvent ev, UFFrame frame, uint64_t time)
{
	struct ut_list *l = rec->accepted.next;
	while (l != &rec->accepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		gr_gesture_update(g, ev, frame, time);
		if (g->canceled && !g->ended) {
			gr_gesture_cancel(g, time, true);
			gr_gesture_remove_and_destroy(g);
		} else if (g->ended) {
			/* its touches do not become free again (as in grail 3.1) */
			gr_gesture_remove_and_destroy(g);
		}
		l = next;
	}

	l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		gr_gesture_update(g, ev, frame, time);
		if (g->canceled)
			reject_gesture(rec, g, time, true);
		l = next;
	}
	release_ended(rec);
}

/* Stamp every touch that an unaccepted gesture that is not active holds
 * (gr_gesture_has_touch() looks at all of a gesture's touches). */
static void
mark_inactive_holders(struct gr_recognizer *rec)
{
	uint64_t stamp = ++rec->holders_stamp;

	for (struct ut_list *l = rec->unaccepted.next; l != &rec->unaccepted; l = l->next) {
		const struct gr_gesture *o = ut_container_of(l, struct gr_gesture, link);
		if (gr_gesture_active(o))
			continue;
		for (unsigned int i = 0; i < o->nall; i++)
			rec->touches[o->all[i]].holders_stamp = stamp;
	}
}

/*
 * An active gesture finishes its construction once every touch it has is
 * older than the composition time and no unaccepted gesture that is not
 * active holds any of them.  The held touches are marked once per call,
 * when first needed: walking the list for every touch of every gesture is
 * quadratic in the gestures, which a client with thousands of them felt.
 * Finishing a construction changes no gesture's recognized or owned
 * state, so the marks hold for the whole walk.
 */
static void
check_construction_finished(struct gr_recognizer *rec, uint64_t time)
{
	bool marked = false;

	if (rec->atomic)
		return;
	for (struct ut_list *l = rec->unaccepted.next; l != &rec->unaccepted; l = l->next) {
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (g->construction_finished || g->ended || !gr_gesture_active(g))
			continue;
		bool finished = true;
		for (unsigned int i = 0; i < g->ncur && finished; i++) {
			const struct gr_touch *t = &rec->touches[g->cur[i]];
			if (gr_elapsed(time, t->start_time) < GR_COMPOSITION_TIME) {
				finished = false;
				break;
			}
			if (!marked) {
				mark_inactive_holders(rec);
				marked = true;
			}
			/* g is active, so it is not among the holders */
			if (t->holders_stamp == rec->holders_stamp)
				finished = false;
		}
		if (finished)
			gr_gesture_finish_construction(g, time);
	}
}

static void
find_gestures_to_accept(struct gr_recognizer *rec, uint64_t time)
{
	struct ut_list *l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (gr_gesture_active(g) &&
		    gr_elapsed(time, g->start_time) >= GR_COMPOSITION_TIME) {
			g->keep_slices = false;
			gr_gesture_flush(g);
			atomic_accept(rec, g, time);
		}
		l = next;
	}
}

/* Whether the touch in @slot is one that @frame, a cut-off frame, ends or
 * gives a pending end (a pending end carried over from an earlier frame
 * was a lift). */
static bool
touch_cut_in(const struct gr_recognizer *rec, UFFrame frame, unsigned int num_touches,
	     uint32_t slot, uint64_t time)
{
	const struct gr_touch *t = &rec->touches[slot];

	for (unsigned int i = 0; i < num_touches; i++) {
		const struct UFTouch_ *ft = ut_frame_touch_at(frame, i);
		if (ft->id != t->id)
			continue;
		return ft->state == UFTouchStateEnd ||
		       (ut_frame_touch_pending_end(ft) && ft->time == time);
	}
	return false;
}

static void
cut_off_list(struct gr_recognizer *rec, struct ut_list *list, UFEvent ev, UFFrame frame,
	     unsigned int num_touches, uint64_t time)
{
	struct ut_list *l = list->next;
	while (l != list) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		for (unsigned int i = 0; i < g->ncur; i++) {
			if (touch_cut_in(rec, frame, num_touches, g->cur[i], time)) {
				gr_gesture_cut_off(g, ev, frame, time);
				gr_gesture_remove_and_destroy(g);
				break;
			}
		}
		l = next;
	}
}

/*
 * A cut-off frame (ut_frame_cut_off()): input stopped with touches down,
 * and the touches the frame ends did not lift.  Before the frame is read,
 * every gesture holding one of them is cut off, so that nothing is
 * recognized from that end (no tap, no release velocity of a flick, no
 * hold later): a gesture the client saw ends with a cancelled End on this
 * frame, the others vanish.  Reading the frame then ends the touches as usual, and
 * the ones no accepted gesture took are rejected.  The frame gives the
 * other gestures no slice: it carries nothing but the cut (in split
 * framing the ends come one per frame, and the touches still listed
 * are carried over unchanged).
 */
static void
cut_off_gestures(struct gr_recognizer *rec, UFEvent ev, UFFrame frame, unsigned int num_touches,
		 uint64_t time)
{
	cut_off_list(rec, &rec->accepted, ev, frame, num_touches, time);
	cut_off_list(rec, &rec->unaccepted, ev, frame, num_touches, time);
}

void
gr_recognizer_process_frame(struct gr_recognizer *rec, UFEvent ev, UFFrame frame,
			    unsigned int num_touches, uint64_t time)
{
	bool any_new = false;
	/* (the masks do not change while a frame is processed) */
	bool hold = gr_wants_hold(rec);

	/*
	 * A hold is due at its gesture's timeout: recognize it before the
	 * timeout rejects the gesture (a timer or frame that comes late must
	 * not turn a hold into a rejection).
	 */
	if (hold)
		gr_check_holds(rec, time);
	if (gr_recognizer_has_undecided(rec))
		reject_overdue(rec, time);
	bool cut = ut_frame_cut_off(frame);
	if (cut)
		cut_off_gestures(rec, ev, frame, num_touches, time);
	rec->frame = frame;
	rec->frame_ntouches = num_touches;
	rec->frame_time = time;
	gr_touches_read_frame(rec, frame, num_touches, time, &any_new);
	if (rec->atomic && any_new)
		atomic_match_new_touches(rec, time);
	rec->frame = NULL;
	/* a cut-off frame holds no motion of its own: no slices from it */
	if (!cut)
		process_event(rec, ev, frame, time);
	if (hold)
		gr_check_holds(rec, time);
	if (ut_list_empty(&rec->unaccepted))
		return;
	if (rec->atomic)
		find_gestures_to_accept(rec, time);
	else
		check_construction_finished(rec, time);
}

void
gr_recognizer_update_time(struct gr_recognizer *rec, uint64_t time)
{
	if (!gr_recognizer_has_undecided(rec)) {
		if (gr_wants_hold(rec))
			gr_check_holds(rec, time);
		return;
	}
	/* holds first, as in gr_recognizer_process_frame() */
	if (gr_wants_hold(rec))
		gr_check_holds(rec, time);
	reject_overdue(rec, time);
	if (rec->atomic)
		find_gestures_to_accept(rec, time);
	else
		check_construction_finished(rec, time);
}

uint64_t
gr_recognizer_next_timeout(struct gr_recognizer *rec)
{
	uint64_t best = gr_wants_hold(rec) ? gr_next_hold(rec) : 0;

	if (!gr_recognizer_has_undecided(rec))
		return best;

	for (unsigned int i = 0; i < rec->free_touches.n; i++) {
		uint32_t slot = rec->free_touches.v[i];
		const struct gr_touch *t = &rec->touches[slot];
		bool in_gesture = false;
		for (const struct ut_list *l = rec->unaccepted.next; l != &rec->unaccepted;
		     l = l->next) {
			if (gr_gesture_has_touch(ut_container_of(l, struct gr_gesture, link),
					      slot)) {
				in_gesture = true;
				break;
			}
		}
		if (in_gesture)
			continue;
		uint64_t t60 = t->start_time + GR_COMPOSITION_TIME;
		if (!best || t60 < best)
			best = t60;
	}

	for (const struct ut_list *l = rec->unaccepted.next; l != &rec->unaccepted;
	     l = l->next) {
		const struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		uint64_t to = gr_gesture_timeout(g);
		if (to) {
			/* a huge timeout must not wrap around to the past */
			uint64_t t = to > UINT64_MAX - g->start_time ? UINT64_MAX
								    : g->start_time + to;
			if (!best || t < best)
				best = t;
		}
		if (rec->atomic && gr_gesture_active(g)) {
			uint64_t t = g->start_time + GR_COMPOSITION_TIME;
			if (!best || t < best)
				best = t;
		}
	}
	return best;
}
