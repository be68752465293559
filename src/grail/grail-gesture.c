/*
 * utouch grail: the candidate gesture object.
 *
 * A gesture has a subscription, its touches (current and ever had), the
 * slices it built (each in the event that carries it to the client: the
 * newest is g->last, and the events wait on the pending list until the
 * gesture may be flushed to the client's queue) and its state: recognized
 * types, ownership, construction finished, ended, cancelled.  Which
 * gestures exist and what the client decides is the recognizer's business
 * (grail-recognizer.c); hold, multi-tap and edge swipes are in
 * grail-extensions.c.
 */
#include <stdlib.h>
#include <string.h>

#include "grail-private.h"

bool
gr_gesture_has_current(const struct gr_gesture *g, uint32_t slot)
{
	for (unsigned int i = 0; i < g->ncur; i++)
		if (g->cur[i] == slot)
			return true;
	return false;
}

bool
gr_gestures_share_touch(const struct gr_gesture *a, const struct gr_gesture *b)
{
	for (unsigned int i = 0; i < a->nall; i++)
		if (gr_gesture_has_touch(b, a->all[i]))
			return true;
	return false;
}

/* Insert into a gesture list, keeping it in rank order. */
void
gr_gesture_list_insert(struct ut_list *list, struct gr_gesture *g)
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

struct gr_gesture *
gr_gesture_new(struct gr_recognizer *rec, UGSubscription sub, uint64_t start)
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
bool
gr_gesture_add_touch(struct gr_gesture *g, uint32_t slot)
{
	struct gr_recognizer *rec = g->rec;

	if (g->ncur >= GR_MAX_TOUCHES)
		return false;
	if (!gr_gesture_has_touch(g, slot)) {
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
		g->slot_mask |= gr_slot_bit(slot);
		gr_touch_ref(rec, slot);
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
	g->ids_stale = true;
	return true;
}

static void
gesture_remove_current(struct gr_gesture *g, unsigned int i)
{
	memmove(&g->cur[i], &g->cur[i + 1], (g->ncur - i - 1) * sizeof(g->cur[0]));
	memmove(&g->track[i], &g->track[i + 1], (g->ncur - i - 1) * sizeof(g->track[0]));
	g->ncur--;
	g->ids_stale = true;
}

static void
gesture_drop_pending(struct gr_gesture *g)
{
	while (!ut_list_empty(&g->pending)) {
		struct ut_list *l = g->pending.next;
		ut_list_remove(l);
		gr_event_unref(ut_container_of(l, struct UGEvent_, link));
	}
}

/* Free a gesture that is no longer in any list. */
void
gr_gesture_destroy(struct gr_gesture *g)
{
	struct gr_recognizer *rec = g->rec;

	gesture_drop_pending(g);
	gr_queue_disown(g);
	if (g->last)
		gr_event_unref(gr_slice_event(g->last));
	g->last = NULL;
	gr_vlog_unref(g->vlog);
	g->vlog = NULL;
	/* unref may reject touches; copy first since g is recycled below */
	for (unsigned int i = 0; i < g->nall; i++)
		gr_touch_unref(rec, g->all[i]);
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

struct UGSlice_ *
gr_gesture_new_slice(struct gr_gesture *g)
{
	struct UGEvent_ *ev = gr_event_alloc(g->rec->handle);
	if (!ev) {
		gr_log(g->rec->handle, GR_LOG_ERROR, "out of memory, dropping a slice");
		return NULL;
	}
	return &ev->slice;
}

struct UGSlice_ *
gr_gesture_copy_last(struct gr_gesture *g, uint64_t time)
{
	struct UGSlice_ *s = gr_gesture_new_slice(g);
	if (s)
		gr_slice_copy(g->last, s, time);
	return s;
}

/* Whether the gesture's slices go to the client as they come: it is
 * active and atomic mode does not hold them back. */
static inline bool
passes_slices(const struct gr_gesture *g)
{
	return gr_gesture_active(g) && !g->keep_slices;
}

/* Hand the event (the pending list's reference) to the client's queue. */
static void
gesture_queue(struct gr_gesture *g, struct UGEvent_ *ev)
{
	gr_queue_push(g->rec->handle, ev, g);
	g->nflushed++;
	if (ev->slice.construction_finished)
		g->nflushed_cf++;
}

/*
 * A slice is built once, in the event that carries it: the event's one
 * reference belongs to the pending list (then to the client's queue, then
 * to the client) and the gesture holds a second one while the slice is its
 * newest, so that the next slice can start from it.  Nothing changes a
 * slice once its gesture has built the next one or flushed it.  Every
 * caller flushes next (gr_gesture_maybe_flush()); an active gesture with
 * nothing held back has its slice queued at once, which is what that
 * flush would do with it (recognition still marks the slice in between,
 * before the client can take it: the client reads the queue only after
 * grail returns, and nothing in between logs).
 */
void
gr_gesture_push_slice(struct gr_gesture *g, struct UGSlice_ *s)
{
	struct UGEvent_ *ev = gr_slice_event(s);
	if (g->last)
		gr_event_unref(gr_slice_event(g->last));
	ev->refcount++;
	g->last = s;
	if (ut_list_empty(&g->pending) && passes_slices(g))
		gesture_queue(g, ev);
	else
		ut_list_insert_before(&g->pending, &ev->link);
}

void
gr_gesture_flush(struct gr_gesture *g)
{
	while (!ut_list_empty(&g->pending)) {
		struct ut_list *l = g->pending.next;
		ut_list_remove(l);
		gesture_queue(g, ut_container_of(l, struct UGEvent_, link));
	}
}

void
gr_gesture_maybe_flush(struct gr_gesture *g)
{
	if (!ut_list_empty(&g->pending) && passes_slices(g))
		gr_gesture_flush(g);
}

void
gr_gesture_check_owned(struct gr_gesture *g)
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
void
gr_gesture_end(struct gr_gesture *g, uint64_t time)
{
	if (g->ended)
		return;
	struct UGSlice_ *s = g->last ? gr_gesture_copy_last(g, time) : NULL;
	if (s) {
		s->state = UGGestureStateEnd;
		gr_gesture_push_slice(g, s);
		gr_gesture_maybe_flush(g);
	}
	gesture_mark_ended(g);
	g->ncur = 0;
	g->ids_stale = true;
}

void
gr_gesture_finish_construction(struct gr_gesture *g, uint64_t time)
{
	if (g->construction_finished)
		return;
	g->construction_finished = true;
	if (!g->last)
		return;
	bool phys_ended = g->last->physically_ended;
	struct UGSlice_ *s = gr_gesture_copy_last(g, time);
	if (s) {
		s->construction_finished = 1;
		s->state = phys_ended ? UGGestureStateEnd : UGGestureStateUpdate;
		gr_gesture_push_slice(g, s);
		gr_gesture_maybe_flush(g);
	}
	if (phys_ended) {
		gesture_mark_ended(g);
		g->ncur = 0;
		g->ids_stale = true;
	}
}

/*
 * The last event of a gesture grail ends early: a final End slice marked
 * canceled when @notify and the client does not have an End already.  It
 * copies the last slice; with @fev, it has that frame event (@frame) and
 * @time instead of the last slice's.
 */
static void
gesture_end_canceled(struct gr_gesture *g, uint64_t time, bool notify, bool client_has_end,
		     UFEvent fev, UFFrame frame)
{
	struct UGHandle_ *h = g->rec->handle;

	if (notify && g->last && !client_has_end) {
		struct UGEvent_ *ev = gr_event_alloc(h);
		if (ev) {
			gr_slice_copy(g->last, &ev->slice, time);
			if (fev) {
				gr_slice_clear_frame(&ev->slice);
				gr_slice_set_frame(&ev->slice, fev, frame);
				ev->slice.time = time;
			}
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
}

/*
 * Drop a gesture that grail gives up on.  Events still queued for the
 * client are withdrawn; if the client already took some of them, it gets
 * a final End slice marked canceled instead of a silent disappearance.
 */
void
gr_gesture_cancel(struct gr_gesture *g, uint64_t time, bool tell_client)
{
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
	bool client_has_end = g->last && g->last->state == UGGestureStateEnd &&
			      !had_pending && purged == 0;
	gesture_end_canceled(g, time, tell_client && seen, client_has_end, NULL, NULL);
	gr_log(g->rec->handle, GR_LOG_DEBUG, "gesture %u cancelled%s", g->id,
	       tell_client && seen ? " (client notified)" : "");
}

/*
 * Input stopped with the gesture's touches down: nothing more can be
 * recognized from them.  Unlike a cancel, the events already queued for
 * the client stay (they were real); what was held back (a gesture the
 * client never saw, or the slices atomic mode keeps until it decides) is
 * dropped.  A client that got events gets a final cancelled End with the
 * cut-off frame and its time (so that geis can tell it from a cancel).
 */
void
gr_gesture_cut_off(struct gr_gesture *g, UFEvent ev, UFFrame frame, uint64_t time)
{
	bool had_pending = !ut_list_empty(&g->pending);
	gesture_drop_pending(g);
	bool seen = g->nflushed > 0;
	bool client_has_end = g->last && g->last->state == UGGestureStateEnd && !had_pending;
	gesture_end_canceled(g, time, seen, client_has_end, ev, frame);
	gr_log(g->rec->handle, GR_LOG_DEBUG, "gesture %u cut off%s", g->id,
	       seen ? " (client notified)" : "");
}

void
gr_gesture_remove_and_destroy(struct gr_gesture *g)
{
	ut_list_remove(&g->link);
	gr_gesture_destroy(g);
}

/*
 * The types @g may still recognize.  A single-touch gesture's radius stays
 * 0 and its angle where it began, so its pinch ratio is always 1 and its
 * rotation 0: those types are out unless the thresholds take them at
 * once (gr_slice_check_recognition() would then find them as before).
 */
static inline UGGestureTypeMask
open_types(const struct gr_gesture *g)
{
	const struct UGSubscription_ *sub = g->sub;
	UGGestureTypeMask open = sub->mask & ~g->recognized;

	if (g->single && (open & (UGGestureTypePinch | UGGestureTypeRotate))) {
		if (!(1.0f > sub->pinch_threshold))
			open &= ~UGGestureTypePinch;
		if (!(0.0f > sub->rotate_threshold))
			open &= ~UGGestureTypeRotate;
	}
	return open;
}

/* The rest of gr_gesture_update() for a gesture with a changed touch. */
void
gr_gesture_update_touched(struct gr_gesture *g, UFEvent ev, UFFrame frame, uint64_t time)
{
	struct gr_recognizer *rec = g->rec;

	/* a new slice (none once physically ended), in a new event */
	struct UGSlice_ *s = NULL;
	if (!g->last || !g->last->physically_ended)
		s = gr_gesture_new_slice(g);
	bool new_slice = s != NULL;
	if (new_slice) {
		if (!g->last) {
			gr_slice_begin(g, s, ev, frame, time);
			if ((g->sub->mask & UGGestureTypeEdgeSwipe) && !g->edge_decided) {
				g->edge = gr_edge_candidates(g);
				g->edge_decided = g->edge == 0;
			}
		} else {
			gr_slice_next(g, s, ev, frame, time);
		}
		gr_gesture_push_slice(g, s);
	}

	/* the current touches that ended leave; none can be there unless a
	 * touch ended since the last look (gestures take touches only from
	 * the free and new lists, which a touch leaves when it ends) */
	if (g->ends_checked != rec->ends) {
		for (unsigned int i = 0; i < g->ncur;) {
			const struct gr_touch *t = &rec->touches[g->cur[i]];
			if (t->ended)
				gesture_remove_current(g, i);
			else
				i++;
		}
		g->ends_checked = rec->ends;
	}

	gr_gesture_check_owned(g);

	if (new_slice && open_types(g)) {
		UGGestureTypeMask was = g->recognized;
		g->recognized |= gr_slice_check_recognition(g, g->last);
		gr_check_extensions(g, was);
		g->last->recognized = g->recognized;
		g->last->tap_count = g->tap_count;
		g->last->edge = (g->recognized & UGGestureTypeEdgeSwipe) ? g->edge : 0;
	}

	gr_gesture_maybe_flush(g);

	bool phys_ended = g->last && g->last->physically_ended;
	if (phys_ended && (!g->recognized || g->construction_finished))
		gr_gesture_end(g, time);
	if (phys_ended && !g->recognized)
		g->canceled = true;
}
