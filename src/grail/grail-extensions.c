/*
 * utouch grail: recognition beyond grail 3.1 — hold (long press),
 * multi-tap counting and edge (bezel) swipes.  See doc/grail.md.
 */
#include "grail-private.h"

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
void
gr_check_extensions(struct gr_gesture *g, UGGestureTypeMask was)
{
	const UGGestureTypeMask mask = g->sub->mask;

	if ((mask & UGGestureTypeHold) && !(g->recognized & UGGestureTypeHold) &&
	    !g->hold_out && moved_beyond_hold(g))
		g->hold_out = true;
	if ((mask & UGGestureTypeEdgeSwipe) && !g->edge_decided) {
		unsigned int edge = 0;
		int r = gr_slice_check_edge(g, g->last, &edge);
		if (r > 0) {
			g->edge = edge;
			g->recognized |= UGGestureTypeEdgeSwipe;
		}
		if (r != 0)
			g->edge_decided = true;
	}
	if ((g->recognized & UGGestureTypeTap) && !(was & UGGestureTypeTap))
		g->tap_count = count_tap(g, g->last);
}

/* Whether the gesture may still recognize UGGestureTypeHold. */
static bool
hold_pending(const struct gr_gesture *g)
{
	return (g->sub->mask & UGGestureTypeHold) && !(g->recognized & UGGestureTypeHold) &&
	       !g->hold_out && !g->ended && !g->canceled && g->last &&
	       !g->last->physically_ended;
}

/* Gestures that have been held long enough recognize UGGestureTypeHold. */
void
gr_check_holds(struct gr_recognizer *rec, uint64_t time)
{
	struct ut_list *lists[2] = {&rec->accepted, &rec->unaccepted};
	for (int k = 0; k < 2; k++) {
		for (struct ut_list *l = lists[k]->next; l != lists[k]; l = l->next) {
			struct gr_gesture *g = ut_container_of(l, struct gr_gesture, link);
			const struct UGSubscription_ *sub = g->sub;
			if (!hold_pending(g))
				continue;
			if (gr_elapsed(time, g->start_time) < sub->hold_timeout)
				continue;
			if (moved_beyond_hold(g)) {
				g->hold_out = true;
				continue;
			}
			g->recognized |= UGGestureTypeHold;
			struct UGSlice_ *s = gr_gesture_copy_last(g, time);
			if (s) {
				s->state = UGGestureStateUpdate;
				s->time = time;
				s->recognized = g->recognized;
				gr_slice_take_velocity(g, time, s);
				gr_gesture_push_slice(g, s);
				gr_gesture_maybe_flush(g);
			}
			gr_log(rec->handle, GR_LOG_DEBUG, "gesture %u held", g->id);
		}
	}
}

/* The earliest time a hold may be recognized, 0 when none is pending. */
uint64_t
gr_next_hold(const struct gr_recognizer *rec)
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

/* The screen edges of a direct device: the ends of its X and Y axes. */
void
gr_init_edges(struct gr_recognizer *rec)
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
