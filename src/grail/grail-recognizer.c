/*
 * utouch grail: the per-(device, window) recognizer.
 *
 * See doc/grail.md for the algorithm.  Memory: touches live in a table of
 * slots that only grows; gestures and events come from free lists owned by
 * the handle, so a steady stream of frames allocates nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "grail-private.h"

/* ------------------------------------------------------------------ */
/* slot arrays                                                         */

bool
gr_slots_reserve(struct gr_slot_array *a, unsigned int n)
{
	return UT_ARRAY_RESERVE(a->v, a->cap, n, 8);
}

void
gr_slots_finish(struct gr_slot_array *a)
{
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

static bool
slots_push(struct gr_slot_array *a, uint32_t v)
{
	if (!gr_slots_reserve(a, a->n + 1))
		return false;
	a->v[a->n++] = v;
	return true;
}

static void
slots_remove_at(struct gr_slot_array *a, unsigned int i)
{
	memmove(&a->v[i], &a->v[i + 1], (a->n - i - 1) * sizeof(a->v[0]));
	a->n--;
}

/* ------------------------------------------------------------------ */
/* touches                                                             */

static struct gr_touch *
touch_at(struct gr_recognizer *rec, uint32_t slot)
{
	return &rec->touches[slot];
}

/* The live, not yet ended touch with this id. */
static int
find_listed_touch(const struct gr_recognizer *rec, UFTouchId id)
{
	for (unsigned int i = 0; i < rec->ntouches; i++) {
		const struct gr_touch *t = &rec->touches[i];
		if (t->id == id && t->live && t->listed)
			return (int)i;
	}
	return -1;
}

/*
 * find_listed_touch() for the touch at @index of the frame, trying the
 * slot that index had in the previous frame first.  At most one live,
 * listed touch has a given id, so the answer is the same.
 */
static inline int
find_listed_touch_at(const struct gr_recognizer *rec, UFTouchId id, uint32_t index)
{
	if (index < GR_TOUCH_HINTS) {
		uint32_t slot = rec->hint[index];
		if (slot < rec->ntouches) {
			const struct gr_touch *t = &rec->touches[slot];
			if (t->id == id && t->live && t->listed)
				return (int)slot;
		}
	}
	return find_listed_touch(rec, id);
}

static int
touch_new(struct gr_recognizer *rec, UFTouchId id, uint64_t start)
{
	uint32_t slot;
	if (rec->free_slots.n > 0) {
		slot = rec->free_slots.v[--rec->free_slots.n];
	} else {
		if (!UT_ARRAY_RESERVE(rec->touches, rec->captouches, rec->ntouches + 1, 16))
			return -1;
		/* make sure releasing every slot later cannot fail */
		if (!gr_slots_reserve(&rec->free_slots, rec->ntouches + 1))
			return -1;
		slot = rec->ntouches++;
	}
	struct gr_touch *t = &rec->touches[slot];
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->start_time = start;
	t->live = true;
	t->listed = true;
	return (int)slot;
}

static void
touch_ref(struct gr_recognizer *rec, uint32_t slot)
{
	rec->touches[slot].refs++;
}

/* Drop a reference; the last one rejects the touch unless it was accepted. */
static void
touch_unref(struct gr_recognizer *rec, uint32_t slot)
{
	struct gr_touch *t = &rec->touches[slot];
	if (t->refs == 0 || --t->refs > 0)
		return;
	if (!t->accepted) {
		gr_log(rec->handle, GR_LOG_DEBUG, "rejecting touch %llu",
		       (unsigned long long)t->id);
		frame_reject_touch(rec->device, rec->window, t->id);
	}
	t->live = false;
	t->listed = false;
	rec->free_slots.v[rec->free_slots.n++] = slot;
}

static void
touch_accept(struct gr_recognizer *rec, uint32_t slot)
{
	struct gr_touch *t = &rec->touches[slot];
	if (t->accepted)
		return;
	t->accepted = true;
	gr_log(rec->handle, GR_LOG_DEBUG, "accepting touch %llu", (unsigned long long)t->id);
	frame_accept_touch(rec->device, rec->window, t->id);
}

static void
free_add(struct gr_recognizer *rec, uint32_t slot)
{
	struct gr_touch *t = &rec->touches[slot];
	if (t->in_free)
		return;
	if (!gr_slots_reserve(&rec->free_touches, rec->free_touches.n + 1))
		return;
	unsigned int i = rec->free_touches.n;
	while (i > 0 && rec->touches[rec->free_touches.v[i - 1]].id > t->id) {
		rec->free_touches.v[i] = rec->free_touches.v[i - 1];
		i--;
	}
	rec->free_touches.v[i] = slot;
	rec->free_touches.n++;
	t->in_free = true;
	touch_ref(rec, slot);
}

static void
free_remove(struct gr_recognizer *rec, uint32_t slot)
{
	struct gr_touch *t = &rec->touches[slot];
	if (!t->in_free)
		return;
	for (unsigned int i = 0; i < rec->free_touches.n; i++) {
		if (rec->free_touches.v[i] == slot) {
			slots_remove_at(&rec->free_touches, i);
			break;
		}
	}
	t->in_free = false;
	touch_unref(rec, slot);
}

/* ------------------------------------------------------------------ */
/* gestures                                                            */

static bool
gesture_has_touch(const struct gr_gesture *g, uint32_t slot)
{
	for (unsigned int i = 0; i < g->nall; i++)
		if (g->all[i] == slot)
			return true;
	return false;
}

static bool
gesture_has_current(const struct gr_gesture *g, uint32_t slot)
{
	for (unsigned int i = 0; i < g->ncur; i++)
		if (g->cur[i] == slot)
			return true;
	return false;
}

static bool
gestures_share_touch(const struct gr_gesture *a, const struct gr_gesture *b)
{
	for (unsigned int i = 0; i < a->nall; i++)
		if (gesture_has_touch(b, a->all[i]))
			return true;
	return false;
}

/* Insert into a gesture list, keeping it in rank order. */
static void
list_insert_ordered(struct ut_list *list, struct gr_gesture *g)
{
	struct ut_list *pos = list->next;
	while (pos != list && ut_container_of(pos, struct gr_gesture, link)->rank < g->rank)
		pos = pos->next;
	ut_list_insert_before(pos, &g->link);
}

static void
gesture_mark_ended(struct gr_gesture *g)
{
	if (!g->ended) {
		g->ended = true;
		g->rec->nended++;
	}
}

static struct gr_gesture *
gesture_new(struct gr_recognizer *rec, UGSubscription sub, uint64_t start)
{
	struct UGHandle_ *h = rec->handle;
	struct gr_gesture *g;
	uint32_t rank;

	if (rec->ngestures - rec->nended >= GR_MAX_GESTURES) {
		gr_log(h, GR_LOG_WARN, "too many candidate gestures, dropping one");
		return NULL;
	}

	if (!ut_list_empty(&h->gesture_free)) {
		struct ut_list *l = h->gesture_free.next;
		ut_list_remove(l);
		g = ut_container_of(l, struct gr_gesture, link);
		rank = g->rank;
		if (h->ncached > 0)
			h->ncached--;
	} else {
		if (ut_list_empty(&h->gesture_fresh)) {
			struct gr_gesture_chunk *c = malloc(sizeof(*c));
			if (!c)
				return NULL;
			c->next = h->gesture_chunks;
			h->gesture_chunks = c;
			for (unsigned int i = 0; i < GR_GESTURE_CHUNK; i++)
				ut_list_insert_before(&h->gesture_fresh, &c->g[i].link);
		}
		struct ut_list *l = h->gesture_fresh.next;
		ut_list_remove(l);
		g = ut_container_of(l, struct gr_gesture, link);
		rank = h->next_rank++;
	}
	memset(g, 0, sizeof(*g));
	g->rank = rank;
	ut_list_init(&g->link);
	ut_list_init(&g->pending);
	ut_list_init(&g->queued);
	g->rec = rec;
	g->sub = sub;
	g->start_time = start;
	g->all = g->all_inline;
	g->capall = sizeof(g->all_inline) / sizeof(g->all_inline[0]);
	g->id = h->next_id++;
	rec->ngestures++;
	return g;
}

/* Add a touch to the current touches (kept sorted by id) and to all touches. */
static bool
gesture_add_touch(struct gr_gesture *g, uint32_t slot)
{
	struct gr_recognizer *rec = g->rec;

	if (g->ncur >= GR_MAX_TOUCHES)
		return false;
	if (!gesture_has_touch(g, slot)) {
		if (g->nall == g->capall) {
			unsigned int cap = g->capall * 2;
			uint32_t *v;
			if (g->all == g->all_inline) {
				v = malloc(cap * sizeof(*v));
				if (v)
					memcpy(v, g->all, g->nall * sizeof(*v));
			} else {
				v = realloc(g->all, cap * sizeof(*v));
			}
			if (!v)
				return false;
			g->all = v;
			g->capall = cap;
		}
		g->all[g->nall++] = slot;
		touch_ref(rec, slot);
	}
	UFTouchId id = rec->touches[slot].id;
	unsigned int i = g->ncur;
	while (i > 0 && rec->touches[g->cur[i - 1]].id > id) {
		g->cur[i] = g->cur[i - 1];
		g->track[i] = g->track[i - 1];
		i--;
	}
	g->cur[i] = slot;
	memset(&g->track[i], 0, sizeof(g->track[i]));
	g->ncur++;
	return true;
}

static void
gesture_remove_current(struct gr_gesture *g, unsigned int i)
{
	memmove(&g->cur[i], &g->cur[i + 1], (g->ncur - i - 1) * sizeof(g->cur[0]));
	memmove(&g->track[i], &g->track[i + 1], (g->ncur - i - 1) * sizeof(g->track[0]));
	g->ncur--;
}

static void
gesture_drop_pending(struct gr_gesture *g)
{
	while (!ut_list_empty(&g->pending)) {
		struct ut_list *l = g->pending.next;
		ut_list_remove(l);
		gr_event_release(ut_container_of(l, struct UGEvent_, link));
	}
}

/* Free a gesture that is no longer in any list. */
static void
gesture_destroy(struct gr_gesture *g)
{
	struct gr_recognizer *rec = g->rec;

	gesture_drop_pending(g);
	gr_queue_disown(g);
	if (g->has_slice)
		gr_slice_clear_frame(&g->last);
	g->has_slice = false;
	/* unref may reject touches; copy first since g is recycled below */
	for (unsigned int i = 0; i < g->nall; i++)
		touch_unref(rec, g->all[i]);
	if (g->all != g->all_inline)
		free(g->all);
	g->all = NULL;
	g->nall = 0;
	rec->ngestures--;
	if (g->ended)
		rec->nended--;
	struct UGHandle_ *h = rec->handle;
	if (h->ncached < 7) {
		ut_list_insert_before(h->gesture_free.next, &g->link);
		h->ncached++;
	} else {
		ut_list_insert_before(&h->gesture_free, &g->link);
	}
}

static bool
gesture_active(const struct gr_gesture *g)
{
	return g->recognized != 0 && g->owned;
}

/* Queue a copy of @s as a pending slice of the gesture. */
static void
gesture_queue_slice(struct gr_gesture *g, const struct UGSlice_ *s)
{
	struct UGEvent_ *ev = gr_event_alloc(g->rec->handle);
	if (!ev) {
		gr_log(g->rec->handle, GR_LOG_ERROR, "out of memory, dropping a slice");
		return;
	}
	ev->slice = *s;
	gr_slice_set_frame(&ev->slice, s->frame_event, s->frame);
	ut_list_insert_before(&g->pending, &ev->link);
}

/* Make @s the gesture's newest slice and queue it. */
static void
gesture_push_slice(struct gr_gesture *g, struct UGSlice_ *s)
{
	if (g->has_slice)
		gr_slice_clear_frame(&g->last);
	g->last = *s; /* takes over the frame reference of s */
	g->has_slice = true;
	gesture_queue_slice(g, &g->last);
}

static void
gesture_flush(struct gr_gesture *g)
{
	struct UGHandle_ *h = g->rec->handle;
	while (!ut_list_empty(&g->pending)) {
		struct ut_list *l = g->pending.next;
		ut_list_remove(l);
		struct UGEvent_ *ev = ut_container_of(l, struct UGEvent_, link);
		gr_queue_push(h, ev, g);
		g->nflushed++;
		if (ev->slice.construction_finished)
			g->nflushed_cf++;
	}
}

static void
gesture_maybe_flush(struct gr_gesture *g)
{
	if (gesture_active(g) && !g->keep_slices)
		gesture_flush(g);
}

static void
gesture_check_owned(struct gr_gesture *g)
{
	if (g->owned || g->not_owned)
		return;
	bool all_owned = true;
	for (unsigned int i = 0; i < g->nall; i++) {
		const struct gr_touch *t = &g->rec->touches[g->all[i]];
		if (!t->owned) {
			all_owned = false;
			if (t->ended)
				g->not_owned = true;
		}
	}
	if (all_owned)
		g->owned = true;
}

/* End the gesture with a copy of its last slice in state End. */
static void
gesture_end(struct gr_gesture *g, uint64_t time)
{
	if (g->ended)
		return;
	if (g->has_slice) {
		struct UGSlice_ s;
		gr_slice_copy(&g->last, &s, time);
		s.state = UGGestureStateEnd;
		gesture_push_slice(g, &s);
		gesture_maybe_flush(g);
	}
	gesture_mark_ended(g);
	g->ncur = 0;
}

static void
gesture_finish_construction(struct gr_gesture *g, uint64_t time)
{
	if (g->construction_finished)
		return;
	g->construction_finished = true;
	if (!g->has_slice)
		return;
	struct UGSlice_ s;
	gr_slice_copy(&g->last, &s, time);
	s.construction_finished = 1;
	bool phys_ended = g->last.physically_ended;
	s.state = phys_ended ? UGGestureStateEnd : UGGestureStateUpdate;
	gesture_push_slice(g, &s);
	gesture_maybe_flush(g);
	if (phys_ended) {
		gesture_mark_ended(g);
		g->ncur = 0;
	}
}

/*
 * Drop a gesture that grail gives up on.  Events still queued for the
 * client are withdrawn; if the client already took some of them, it gets
 * a final End slice marked canceled instead of a silent disappearance.
 */
static void
gesture_cancel(struct gr_gesture *g, uint64_t time, bool tell_client)
{
	struct UGHandle_ *h = g->rec->handle;

	bool had_pending = !ut_list_empty(&g->pending);
	gesture_drop_pending(g);
	unsigned int purged_cf = 0;
	unsigned int purged = gr_queue_purge(g, &purged_cf);
	bool seen = g->nflushed > purged;
	g->nflushed -= purged;
	g->nflushed_cf -= purged_cf;
	/*
	 * The client needs an End unless it already has one: an End that
	 * was still pending or queued has just been withdrawn.
	 */
	bool client_has_end = g->last.state == UGGestureStateEnd &&
			      !had_pending && purged == 0;
	if (tell_client && seen && g->has_slice && !client_has_end) {
		struct UGEvent_ *ev = gr_event_alloc(h);
		if (ev) {
			gr_slice_copy(&g->last, &ev->slice, time);
			ev->slice.state = UGGestureStateEnd;
			ev->slice.canceled = 1;
			/*
			 * construction_finished repeats what the client last saw:
			 * construction did not finish, the gesture was cancelled,
			 * and a client that decides on cf must not see a new cf.
			 */
			ev->slice.construction_finished = g->nflushed_cf > 0;
			gr_queue_push(h, ev, g);
			g->nflushed++;
		}
	}
	gesture_mark_ended(g);
	g->canceled = true;
	gr_log(h, GR_LOG_DEBUG, "gesture %u cancelled%s", g->id,
	       tell_client && seen ? " (client notified)" : "");
}

static void
gesture_remove_and_destroy(struct gr_gesture *g)
{
	ut_list_remove(&g->link);
	gesture_destroy(g);
}

/* Milliseconds an unrecognized gesture may live; 0 for no limit. */
static uint64_t
gesture_timeout(const struct gr_gesture *g)
{
	if (g->recognized)
		return 0;
	const struct UGSubscription_ *s = g->sub;
	uint64_t t = 0;
	if ((s->mask & UGGestureTypeDrag) && s->drag_timeout > t)
		t = s->drag_timeout;
	if ((s->mask & UGGestureTypePinch) && s->pinch_timeout > t)
		t = s->pinch_timeout;
	if ((s->mask & UGGestureTypeRotate) && s->rotate_timeout > t)
		t = s->rotate_timeout;
	if ((s->mask & UGGestureTypeTap) && s->tap_timeout > t)
		t = s->tap_timeout;
	if ((s->mask & UGGestureTypeHold) && s->hold_timeout > t)
		t = s->hold_timeout;
	if ((s->mask & UGGestureTypeEdgeSwipe) && s->drag_timeout > t)
		t = s->drag_timeout;
	return t;
}

static void gesture_update_touched(struct gr_gesture *g, UFEvent ev, UFFrame frame,
				   uint64_t time);

/*
 * Process one frame for one gesture: build a slice when one of its touches
 * changed, track ownership, recognize, and flush when active.  Most
 * gestures of a frame are untouched; this part, which finds that out, is
 * inline and the rest is not.
 */
static inline void
gesture_update(struct gr_gesture *g, UFEvent ev, UFFrame frame, uint64_t time)
{
	const struct gr_recognizer *rec = g->rec;

	if (g->ended) {
		if (!g->owned) {
			gesture_check_owned(g);
			if (g->owned)
				gesture_maybe_flush(g);
		}
		return;
	}

	bool touched = false;
	for (unsigned int i = 0; i < g->nall; i++) {
		uint32_t slot = g->all[i];
		if (rec->touches[slot].mod_serial != rec->serial)
			continue;
		touched = true;
		const struct gr_touch *t = &rec->touches[slot];
		if (t->ended && !t->owned) {
			/* someone above us accepted the touch */
			g->canceled = true;
			return;
		}
	}
	if (!touched || g->canceled)
		return;
	gesture_update_touched(g, ev, frame, time);
}

/* Whether a subscription of the recognizer wants UGGestureTypeHold (masks
 * may change while subscriptions are active). */
static bool
wants_hold(const struct gr_recognizer *rec)
{
	for (unsigned int i = 0; i < rec->nsubs; i++)
		if (rec->subs[i]->mask & UGGestureTypeHold)
			return true;
	return false;
}

/* Whether a current touch of the gesture moved beyond the hold threshold. */
static bool
moved_beyond_hold(const struct gr_gesture *g)
{
	const struct gr_recognizer *rec = g->rec;
	float thr = g->sub->hold_threshold;
	for (unsigned int i = 0; i < g->ncur; i++) {
		const struct gr_touch *t = &rec->touches[g->cur[i]];
		float dx = (t->x - t->x0) / rec->res_x, dy = (t->y - t->y0) / rec->res_y;
		if (dx * dx + dy * dy > thr * thr)
			return true;
	}
	return false;
}

/*
 * Multi-tap: the tap count of a tap the gesture just recognized.  It
 * continues the subscription's previous tap when that one was recognized
 * before this gesture's touches began, at most the multi-tap timeout
 * earlier, with as many touches, its centroid within the multi-tap
 * threshold, and its count below the maximum.
 */
static unsigned int
count_tap(struct gr_gesture *g, const struct UGSlice_ *s)
{
	struct gr_recognizer *rec = g->rec;
	const struct UGSubscription_ *sub = g->sub;
	unsigned int si;

	for (si = 0; si < rec->nsubs; si++)
		if (rec->subs[si] == g->sub)
			break;
	if (si == rec->nsubs)
		return 1;
	struct gr_tap_memory *m = &rec->taps[si];
	unsigned int count = 1;
	bool before = m->count == 0 || m->time <= g->start_time;
	if (m->count > 0 && before && m->count < sub->multitap_max &&
	    m->touches == s->num_touches && g->start_time - m->time <= sub->multitap_timeout) {
		float dx = (s->original_center_x - m->x) / rec->res_x;
		float dy = (s->original_center_y - m->y) / rec->res_y;
		if (dx * dx + dy * dy <= sub->multitap_threshold * sub->multitap_threshold)
			count = m->count + 1;
	}
	/* a second gesture of the same physical tap does not move the memory */
	if (before) {
		m->time = s->time;
		m->x = s->original_center_x;
		m->y = s->original_center_y;
		m->count = count;
		m->touches = s->num_touches;
	}
	return count;
}

/* Hold, edge swipe and tap count for a new slice (recognition was @was). */
static void
check_extensions(struct gr_gesture *g, UGGestureTypeMask was)
{
	const UGGestureTypeMask mask = g->sub->mask;

	if ((mask & UGGestureTypeHold) && !(g->recognized & UGGestureTypeHold) &&
	    !g->hold_out && moved_beyond_hold(g))
		g->hold_out = true;
	if ((mask & UGGestureTypeEdgeSwipe) && !g->edge_decided) {
		unsigned int edge = 0;
		int r = gr_slice_check_edge(g, &g->last, &edge);
		if (r > 0) {
			g->edge = edge;
			g->recognized |= UGGestureTypeEdgeSwipe;
		}
		if (r != 0)
			g->edge_decided = true;
	}
	if ((g->recognized & UGGestureTypeTap) && !(was & UGGestureTypeTap))
		g->tap_count = count_tap(g, &g->last);
}

/* Whether the gesture may still recognize UGGestureTypeHold. */
static bool
hold_pending(const struct gr_gesture *g)
{
	return (g->sub->mask & UGGestureTypeHold) && !(g->recognized & UGGestureTypeHold) &&
	       !g->hold_out && !g->ended && !g->canceled && g->has_slice &&
	       !g->last.physically_ended;
}

/* Gestures that have been held long enough recognize UGGestureTypeHold. */
static void
check_holds(struct gr_recognizer *rec, uint64_t time)
{
	struct ut_list *lists[2] = {&rec->accepted, &rec->unaccepted};
	for (int k = 0; k < 2; k++) {
		for (struct ut_list *l = lists[k]->next; l != lists[k]; l = l->next) {
			struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
			const struct UGSubscription_ *sub = g->sub;
			if (!hold_pending(g))
				continue;
			if (time < g->start_time || time - g->start_time < sub->hold_timeout)
				continue;
			if (moved_beyond_hold(g)) {
				g->hold_out = true;
				continue;
			}
			g->recognized |= UGGestureTypeHold;
			struct UGSlice_ s;
			gr_slice_copy(&g->last, &s, time);
			s.state = UGGestureStateUpdate;
			s.time = time;
			s.recognized = g->recognized;
			gr_slice_take_velocity(g, time, &s);
			gesture_push_slice(g, &s);
			gesture_maybe_flush(g);
			gr_log(rec->handle, GR_LOG_DEBUG, "gesture %u held", g->id);
		}
	}
}

/* The earliest time a hold may be recognized, 0 when none is pending. */
static uint64_t
next_hold(const struct gr_recognizer *rec)
{
	uint64_t best = 0;
	const struct ut_list *lists[2] = {&rec->accepted, &rec->unaccepted};
	for (int k = 0; k < 2; k++) {
		for (const struct ut_list *l = lists[k]->next; l != lists[k]; l = l->next) {
			const struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
			const struct UGSubscription_ *sub = g->sub;
			if (!hold_pending(g))
				continue;
			uint64_t t = sub->hold_timeout > UINT64_MAX - g->start_time
					     ? UINT64_MAX
					     : g->start_time + sub->hold_timeout;
			if (!best || t < best)
				best = t;
		}
	}
	return best;
}

/* The rest of gesture_update() for a gesture with a changed touch. */
static void
gesture_update_touched(struct gr_gesture *g, UFEvent ev, UFFrame frame, uint64_t time)
{
	struct gr_recognizer *rec = g->rec;

	bool new_slice = false;
	if (!g->has_slice || !g->last.physically_ended) {
		/* the new slice is built right in g->last (the same as
		 * building it apart and calling gesture_push_slice()) */
		if (!g->has_slice) {
			gr_slice_begin(g, &g->last, ev, frame, time);
			if ((g->sub->mask & UGGestureTypeEdgeSwipe) && !g->edge_decided) {
				g->edge = gr_edge_candidates(g);
				g->edge_decided = g->edge == 0;
			}
		} else {
			gr_slice_next(g, &g->last, ev, frame, time);
		}
		g->has_slice = true;
		gesture_queue_slice(g, &g->last);
		new_slice = true;
	}

	for (unsigned int i = 0; i < g->ncur;) {
		const struct gr_touch *t = &rec->touches[g->cur[i]];
		if (t->ended)
			gesture_remove_current(g, i);
		else
			i++;
	}

	gesture_check_owned(g);

	if (new_slice && g->recognized != g->sub->mask) {
		UGGestureTypeMask was = g->recognized;
		g->recognized |= gr_slice_check_recognition(g, &g->last);
		check_extensions(g, was);
		g->last.recognized = g->recognized;
		g->last.tap_count = g->tap_count;
		g->last.edge = (g->recognized & UGGestureTypeEdgeSwipe) ? g->edge : 0;
		/* the queued copy is the tail of the pending list */
		if (!ut_list_empty(&g->pending)) {
			struct UGEvent_ *qe =
				ut_container_of(g->pending.prev, struct UGEvent_, link);
			qe->slice.recognized = g->recognized;
			qe->slice.tap_count = g->last.tap_count;
			qe->slice.edge = g->last.edge;
		}
	}

	gesture_maybe_flush(g);

	bool phys_ended = g->has_slice && g->last.physically_ended;
	if (phys_ended && (!g->recognized || g->construction_finished))
		gesture_end(g, time);
	if (phys_ended && !g->recognized)
		g->canceled = true;
}

/* ------------------------------------------------------------------ */
/* recognizer                                                          */

/* The screen edges of a direct device: the ends of its X and Y axes. */
static void
init_edges(struct gr_recognizer *rec)
{
	UFAxis ax = NULL, ay = NULL;

	rec->has_edges = false;
	if (!rec->direct ||
	    frame_device_get_axis_by_type(rec->device, UFAxisTypeX, &ax) != UFStatusSuccess ||
	    frame_device_get_axis_by_type(rec->device, UFAxisTypeY, &ay) != UFStatusSuccess ||
	    !ax || !ay)
		return;
	rec->ax_min = frame_axis_get_minimum(ax);
	rec->ax_max = frame_axis_get_maximum(ax);
	rec->ay_min = frame_axis_get_minimum(ay);
	rec->ay_max = frame_axis_get_maximum(ay);
	rec->ax_res = frame_axis_get_resolution(ax);
	rec->ay_res = frame_axis_get_resolution(ay);
	if (!(rec->ax_res > 0.0f))
		rec->ax_res = GR_DEFAULT_AXIS_RES_X;
	if (!(rec->ay_res > 0.0f))
		rec->ay_res = GR_DEFAULT_AXIS_RES_Y;
	rec->has_edges = rec->ax_max > rec->ax_min && rec->ay_max > rec->ay_min;
}

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
	init_edges(rec);
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
			gesture_cancel(g, time, notify);
		gesture_remove_and_destroy(g);
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
			if (g->has_slice && g->last.time > t)
				t = g->last.time;
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
		free_remove(rec, rec->free_touches.v[rec->free_touches.n - 1]);
	while (rec->new_touches.n > 0) {
		uint32_t slot = rec->new_touches.v[--rec->new_touches.n];
		rec->touches[slot].in_new = false;
		touch_unref(rec, slot);
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

	uint64_t t = last_time(rec);
	struct ut_list *lists[2] = {&rec->accepted, &rec->unaccepted};
	for (int k = 0; k < 2; k++) {
		struct ut_list *l = lists[k]->next;
		while (l != lists[k]) {
			struct ut_list *next = l->next;
			struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
			if (g->sub == sub) {
				if (!g->ended)
					gesture_cancel(g, t, true);
				gesture_remove_and_destroy(g);
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
	return g->has_slice ? g->last.time : g->start_time;
}

/* Drop a gesture the client (or grail, implicitly) rejected. */
static void
reject_gesture(struct gr_recognizer *rec, struct gr_gesture *g, uint64_t time,
	       bool tell_client)
{
	(void)rec;
	gesture_cancel(g, time, tell_client);
	gesture_remove_and_destroy(g);
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
			touch_accept(rec, slot);
		} else {
			/* an extension: it replaces the accepted gestures it grew from */
			struct ut_list *l = rec->accepted.next;
			while (l != &rec->accepted) {
				struct ut_list *next = l->next;
				struct gr_gesture *o = ut_container_of(l, struct gr_gesture, link);
				if (gesture_has_touch(o, slot)) {
					gesture_cancel(o, time, true);
					gesture_remove_and_destroy(o);
				}
				l = next;
			}
		}
		free_remove(rec, slot);
	}

	struct ut_list *l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *o = ut_container_of(l, struct gr_gesture, link);
		if (o != g && gestures_share_touch(g, o))
			reject_gesture(rec, o, time, true);
		l = next;
	}

	gesture_finish_construction(g, time);
	ut_list_remove(&g->link);
	if (g->ended) {
		gesture_destroy(g);
	} else {
		g->accepted = true;
		list_insert_ordered(&rec->accepted, g);
	}
	return UGStatusSuccess;
}

/* Atomic mode: grail itself accepts; overlapping gestures are kept. */
static void
atomic_accept(struct gr_recognizer *rec, struct gr_gesture *g, uint64_t time)
{
	for (unsigned int i = 0; i < g->nall; i++) {
		touch_accept(rec, g->all[i]);
		free_remove(rec, g->all[i]);
	}
	gesture_finish_construction(g, time);
	ut_list_remove(&g->link);
	if (g->ended) {
		gesture_destroy(g);
	} else {
		g->accepted = true;
		list_insert_ordered(&rec->accepted, g);
	}
}

static void
reject_overdue(struct gr_recognizer *rec, uint64_t time)
{
	struct ut_list *l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		uint64_t to = gesture_timeout(g);
		if (to && time > g->start_time && time - g->start_time > to) {
			gr_log(rec->handle, GR_LOG_DEBUG, "gesture %u timed out", g->id);
			reject_gesture(rec, g, time, true);
		}
		l = next;
	}

	for (unsigned int i = 0; i < rec->free_touches.n;) {
		uint32_t slot = rec->free_touches.v[i];
		const struct gr_touch *t = &rec->touches[slot];
		if (time >= t->start_time && time - t->start_time >= GR_COMPOSITION_TIME)
			free_remove(rec, slot);
		else
			i++;
	}
}

/* Create a gesture of @sub with the touches @slots (n of them). */
static struct gr_gesture *
create_gesture(struct gr_recognizer *rec, UGSubscription sub, const uint32_t *slots,
	       unsigned int n, uint64_t start)
{
	struct gr_gesture *g = gesture_new(rec, sub, start);
	if (!g)
		return NULL;
	for (unsigned int i = 0; i < n; i++) {
		if (!gesture_add_touch(g, slots[i])) {
			gesture_destroy(g);
			return NULL;
		}
	}
	list_insert_ordered(&rec->unaccepted, g);
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
	if (gesture_has_current(g, slot) || gesture_has_touch(g, slot))
		return;
	if (g->has_slice && g->last.physically_ended)
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
 * Every combination of @new_slot with k-1 other free touches (ascending
 * ids) becomes a gesture of each subscription starting with k touches, as
 * long as the undecided touches began within the composition time.
 */
static void
match_combinations(struct gr_recognizer *rec, uint32_t new_slot)
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

	for (unsigned int si = 0; si < rec->nsubs; si++) {
		UGSubscription sub = rec->subs[si];
		if (sub->touches_start != n)
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
		free_add(rec, slot);
	}
	for (unsigned int i = 0; i < rec->new_touches.n; i++) {
		uint32_t slot = rec->new_touches.v[i];
		rec->touches[slot].in_new = false;
		touch_unref(rec, slot);
	}
	rec->new_touches.n = 0;

	struct ut_list *l = rec->accepted.next;
	while (l != &rec->accepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (!g->ended && g->ncur + nnew <= g->sub->touches_max) {
			for (unsigned int i = 0; i < nnew; i++) {
				if (rec->touches[newslots[i]].live &&
				    gesture_add_touch(g, newslots[i])) {
					touch_accept(rec, newslots[i]);
					free_remove(rec, newslots[i]);
				}
			}
		} else {
			for (unsigned int i = 0; i < g->ncur; i++) {
				const struct gr_touch *t = &rec->touches[g->cur[i]];
				if (!t->ended && !t->pending_end)
					free_add(rec, g->cur[i]);
			}
			gesture_end(g, time);
			gesture_remove_and_destroy(g);
		}
		l = next;
	}

	l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (!g->ended && g->ncur + nnew <= g->sub->touches_max) {
			for (unsigned int i = 0; i < nnew; i++)
				if (rec->touches[newslots[i]].live)
					gesture_add_touch(g, newslots[i]);
		} else {
			/* like grail 3.1: its touches become free again first */
			for (unsigned int i = 0; i < g->ncur; i++) {
				const struct gr_touch *t = &rec->touches[g->cur[i]];
				if (!t->ended && !t->pending_end)
					free_add(rec, g->cur[i]);
			}
			reject_gesture(rec, g, time, true);
		}
		l = next;
	}

	match_atomic(rec);
}

static inline void
cache_touch(struct gr_recognizer *rec, uint32_t slot, const struct UFTouch_ *ft,
	    UFTouchState state, uint64_t time)
{
	struct gr_touch *t = &rec->touches[slot];
	bool changed = ft->time == time;
	float ox = t->x, oy = t->y;
	UFTouchState ostate = t->state;

	if (!t->has_origin || (changed && t->mod_time != time)) {
		/* where it was before this moment (its first position for a
		 * new touch, set below) */
		t->px = t->x;
		t->py = t->y;
	}
	if (rec->direct) {
		t->x = ft->window_x;
		t->y = ft->window_y;
	} else {
		t->x = ut_frame_touch_dev_x(ft);
		t->y = ut_frame_touch_dev_y(ft);
	}
	t->state = state;
	t->seen_serial = rec->serial;
	if (changed) {
		t->mod_time = time;
		t->mod_serial = rec->serial;
		/* a touch carried into a later frame of its moment keeps the
		 * moment's time: count only what this frame changes */
		bool moved = t->x != ox || t->y != oy;
		if (!t->has_origin || moved || state != ostate) {
			rec->frame_changes++;
			rec->frame_slot = slot;
		}
		/* split framing: two frames in a row of one moment that each
		 * move a different touch */
		if (state == UFTouchStateUpdate && t->has_origin && moved) {
			if (rec->move_time == time && rec->move_serial + 1 == rec->serial &&
			    rec->move_slot != slot)
				rec->split = true;
			rec->move_time = time;
			rec->move_serial = rec->serial;
			rec->move_slot = slot;
		}
	}
	if (!t->has_origin) {
		t->has_origin = true;
		t->px = t->x;
		t->py = t->y;
		t->x0 = t->x;
		t->y0 = t->y;
		t->dev_x0 = ut_frame_touch_dev_x(ft);
		t->dev_y0 = ut_frame_touch_dev_y(ft);
	}
}

/* Update touch bookkeeping from the frame; marks the modified touches
 * (mod_serial) for gesture_update(). */
static void
process_touches(struct gr_recognizer *rec, UFFrame frame, uint32_t n, uint64_t time,
		bool *any_new)
{
	rec->serial++;
	if (rec->serial == 0) {
		/* wrapped after 2^32 frames: forget the old marks */
		for (unsigned int i = 0; i < rec->ntouches; i++)
			rec->touches[i].seen_serial = rec->touches[i].mod_serial = 0;
		rec->serial = 1;
		rec->move_serial = 0;
	}
	rec->frame_changes = 0;

	for (uint32_t i = 0; i < n; i++) {
		/* read in place (inline, frame-peer.h) */
		const struct UFTouch_ *ft = ut_frame_touch_at(frame, i);
		UFTouchId id = ft->id;
		UFTouchState state = ft->state;
		int owned = ut_frame_touch_owned(ft);
		int pending_end = ut_frame_touch_pending_end(ft);
		int slot = find_listed_touch_at(rec, id, i);

		if (state == UFTouchStateBegin && slot < 0) {
			slot = touch_new(rec, id, ft->start_time);
			if (slot < 0) {
				gr_log(rec->handle, GR_LOG_ERROR, "out of memory, rejecting touch");
				frame_reject_touch(rec->device, rec->window, id);
				continue;
			}
			struct gr_touch *t = touch_at(rec, (uint32_t)slot);
			t->owned = owned != 0;
			t->pending_end = pending_end != 0;
			if (rec->atomic) {
				if (slots_push(&rec->new_touches, (uint32_t)slot)) {
					t->in_new = true;
					touch_ref(rec, (uint32_t)slot);
				}
				*any_new = true;
			} else {
				/* hold a reference while matching, so nothing rejects it early */
				touch_ref(rec, (uint32_t)slot);
				free_add(rec, (uint32_t)slot);
				struct ut_list *lists[2] = {&rec->accepted, &rec->unaccepted};
				for (int k = 0; k < 2; k++) {
					struct ut_list *last = lists[k]->prev;
					struct ut_list *l = lists[k]->next;
					while (l != lists[k]) {
						struct ut_list *next = l->next;
						expand_gesture(rec,
							       ut_container_of(l, struct gr_gesture, link),
							       (uint32_t)slot);
						if (l == last)
							break;
						l = next;
					}
				}
				match_combinations(rec, (uint32_t)slot);
				touch_unref(rec, (uint32_t)slot);
			}
			if (i < GR_TOUCH_HINTS)
				rec->hint[i] = (uint32_t)slot;
			if (rec->touches[slot].live)
				cache_touch(rec, (uint32_t)slot, ft, state, time);
			continue;
		}
		if (slot < 0)
			continue;
		if (i < GR_TOUCH_HINTS)
			rec->hint[i] = (uint32_t)slot;

		struct gr_touch *t = touch_at(rec, (uint32_t)slot);
		if (owned)
			t->owned = true;
		if (pending_end)
			t->pending_end = true;
		if (state == UFTouchStateEnd) {
			t->ended = true;
			t->listed = false;
		}
		cache_touch(rec, (uint32_t)slot, ft, state, time);
		if (!t->pending_end && !t->ended) {
			/*
			 * Nothing to drop: the reference taken and released
			 * around the block below only matters for a touch
			 * nobody holds (releasing it rejects the touch).
			 */
			if (t->refs == 0) {
				touch_ref(rec, (uint32_t)slot);
				touch_unref(rec, (uint32_t)slot);
			}
			continue;
		}
		/* hold the touch while it may be dropped from the free list */
		touch_ref(rec, (uint32_t)slot);
		free_remove(rec, (uint32_t)slot);
		if (t->in_new) {
			for (unsigned int k = 0; k < rec->new_touches.n; k++) {
				if (rec->new_touches.v[k] == (uint32_t)slot) {
					slots_remove_at(&rec->new_touches, k);
					break;
				}
			}
			t->in_new = false;
			touch_unref(rec, (uint32_t)slot);
		}
		touch_unref(rec, (uint32_t)slot);
	}
	/* the moments (struct gr_recognizer, split framing) */
	if (rec->frame_changes == 0)
		return;
	if (time != rec->moment) {
		rec->prev_moment = rec->moment;
		rec->prev_moment_split = rec->moment_split && rec->moment_frames >= 2;
		rec->moment = time;
		rec->moment_split = true;
		rec->moment_frames = 0;
	}
	if (rec->frame_changes > 1)
		rec->moment_split = false;
	else if (rec->moment_frames == 0 || rec->frame_slot != rec->change_slot)
		rec->moment_frames++;
	rec->change_slot = rec->frame_slot;
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
		gesture_remove_and_destroy(oldest);
	}
}

static void
process_event(struct gr_recognizer *rec, UFEvent ev, UFFrame frame, uint64_t time)
{
	struct ut_list *l = rec->accepted.next;
	while (l != &rec->accepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		gesture_update(g, ev, frame, time);
		if (g->canceled && !g->ended) {
			gesture_cancel(g, time, true);
			gesture_remove_and_destroy(g);
		} else if (g->ended) {
			/* its touches do not become free again (as in grail 3.1) */
			gesture_remove_and_destroy(g);
		}
		l = next;
	}

	l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		gesture_update(g, ev, frame, time);
		if (g->canceled)
			reject_gesture(rec, g, time, true);
		l = next;
	}
	release_ended(rec);
}

static void
check_construction_finished(struct gr_recognizer *rec, uint64_t time)
{
	if (rec->atomic)
		return;
	for (struct ut_list *l = rec->unaccepted.next; l != &rec->unaccepted; l = l->next) {
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (g->construction_finished || g->ended || !gesture_active(g))
			continue;
		bool finished = true;
		for (unsigned int i = 0; i < g->ncur && finished; i++) {
			uint32_t slot = g->cur[i];
			const struct gr_touch *t = &rec->touches[slot];
			if (time < t->start_time || time - t->start_time < GR_COMPOSITION_TIME) {
				finished = false;
				break;
			}
			for (struct ut_list *m = rec->unaccepted.next; m != &rec->unaccepted;
			     m = m->next) {
				struct gr_gesture *o = ut_container_of(m, struct gr_gesture, link);
				if (o != g && gesture_has_touch(o, slot) && !gesture_active(o)) {
					finished = false;
					break;
				}
			}
		}
		if (finished)
			gesture_finish_construction(g, time);
	}
}

static void
find_gestures_to_accept(struct gr_recognizer *rec, uint64_t time)
{
	struct ut_list *l = rec->unaccepted.next;
	while (l != &rec->unaccepted) {
		struct ut_list *next = l->next;
		struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
		if (gesture_active(g) && time >= g->start_time &&
		    time - g->start_time >= GR_COMPOSITION_TIME) {
			g->keep_slices = false;
			gesture_flush(g);
			atomic_accept(rec, g, time);
		}
		l = next;
	}
}

void
gr_recognizer_process_frame(struct gr_recognizer *rec, UFEvent ev, UFFrame frame,
			    unsigned int num_touches, uint64_t time)
{
	bool any_new = false;
	/* (the masks do not change while a frame is processed) */
	bool hold = wants_hold(rec);

	/*
	 * A hold is due at its gesture's timeout: recognize it before the
	 * timeout rejects the gesture (a timer or frame that comes late must
	 * not turn a hold into a rejection).
	 */
	if (hold)
		check_holds(rec, time);
	if (gr_recognizer_has_undecided(rec))
		reject_overdue(rec, time);
	process_touches(rec, frame, num_touches, time, &any_new);
	if (rec->atomic && any_new)
		atomic_match_new_touches(rec, time);
	process_event(rec, ev, frame, time);
	if (hold)
		check_holds(rec, time);
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
		if (wants_hold(rec))
			check_holds(rec, time);
		return;
	}
	/* holds first, as in gr_recognizer_process_frame() */
	if (wants_hold(rec))
		check_holds(rec, time);
	reject_overdue(rec, time);
	if (rec->atomic)
		find_gestures_to_accept(rec, time);
	else
		check_construction_finished(rec, time);
}

uint64_t
gr_recognizer_next_timeout(const struct gr_recognizer *rec)
{
	uint64_t best = wants_hold(rec) ? next_hold(rec) : 0;

	if (!gr_recognizer_has_undecided(rec))
		return best;

	for (unsigned int i = 0; i < rec->free_touches.n; i++) {
		uint32_t slot = rec->free_touches.v[i];
		const struct gr_touch *t = &rec->touches[slot];
		bool in_gesture = false;
		for (const struct ut_list *l = rec->unaccepted.next; l != &rec->unaccepted;
		     l = l->next) {
			if (gesture_has_touch(ut_container_of(l, struct gr_gesture, link),
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
		uint64_t to = gesture_timeout(g);
		if (to) {
			/* a huge timeout must not wrap around to the past */
			uint64_t t = to > UINT64_MAX - g->start_time ? UINT64_MAX
								    : g->start_time + to;
			if (!best || t < best)
				best = t;
		}
		if (rec->atomic && gesture_active(g)) {
			uint64_t t = g->start_time + GR_COMPOSITION_TIME;
			if (!best || t < best)
				best = t;
		}
	}
	return best;
}
