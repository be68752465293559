/*
 * utouch grail: touches and slots of a recognizer.
 *
 * Each touch a recognizer sees gets a slot in its touch table (which only
 * grows; freed slots are reused).  A slot is reference counted by the free
 * touch list, the atomic new-touch list and every gesture that has the
 * touch; the last reference rejects the touch unless a gesture took it.
 * gr_touches_read_frame() brings the table up to date with a frame and
 * hands each new touch to the matcher (grail-recognizer.c).
 */
#include <stdlib.h>
#include <string.h>

#include "grail-private.h"

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

static struct gr_touch *
touch_at(struct gr_recognizer *rec, uint32_t slot)
{
	return &rec->touches[slot];
}

/* The live, not yet ended touch with this id (listed implies live). */
static int
find_listed_touch(const struct gr_recognizer *rec, UFTouchId id)
{
	for (unsigned int i = 0; i < rec->ntouches; i++) {
		const struct gr_touch *t = &rec->touches[i];
		if (t->id == id && t->listed)
			return (int)i;
	}
	return -1;
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
	t->bit = gr_slot_bit(slot);
	t->start_time = start;
	t->live = true;
	t->listed = true;
	return (int)slot;
}

/* Drop a reference; the last one rejects the touch unless it was accepted. */
void
gr_touch_unref(struct gr_recognizer *rec, uint32_t slot)
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

void
gr_touch_accept(struct gr_recognizer *rec, uint32_t slot)
{
	struct gr_touch *t = &rec->touches[slot];
	if (t->accepted)
		return;
	t->accepted = true;
	gr_log(rec->handle, GR_LOG_DEBUG, "accepting touch %llu", (unsigned long long)t->id);
	frame_accept_touch(rec->device, rec->window, t->id);
}

void
gr_free_add(struct gr_recognizer *rec, uint32_t slot)
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
	gr_touch_ref(rec, slot);
}

void
gr_free_remove(struct gr_recognizer *rec, uint32_t slot)
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
	gr_touch_unref(rec, slot);
}

/*
 * Copy the frame's touch @ft into @slot, marking what changed.  @first:
 * the slot was just made for it (it has no origin yet); a slot found for a
 * touch already has one (it got it when it was made), so the per-frame
 * path passes a constant false and the checks go.
 */
static inline __attribute__((always_inline)) void
cache_touch(struct gr_recognizer *rec, uint32_t slot, const struct UFTouch_ *ft,
	    UFTouchState state, uint64_t time, bool first)
{
	struct gr_touch *t = &rec->touches[slot];
	uint32_t serial = rec->serial;
	bool changed = ft->time == time;
	float ox = t->x, oy = t->y;
	UFTouchState ostate = t->state;

	if (!first && changed && t->mod_time != time) {
		/* where it was before this moment */
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
	t->seen_serial = serial;
	t->src = ft;
	if (changed) {
		t->mod_time = time;
		t->mod_serial = serial;
		rec->changed_mask |= t->bit;
		/* a touch carried into a later frame of its moment keeps the
		 * moment's time: count only what this frame changes */
		bool moved = t->x != ox || t->y != oy;
		if (first || moved || state != ostate) {
			rec->frame_changes++;
			rec->frame_slot = slot;
		}
		/* split framing: two frames in a row of one moment that each
		 * move a different touch */
		if (!first && state == UFTouchStateUpdate && moved) {
			if (rec->move_time == time && rec->move_serial + 1 == serial &&
			    rec->move_slot != slot)
				rec->split = true;
			rec->move_time = time;
			rec->move_serial = serial;
			rec->move_slot = slot;
		}
	}
	if (first) {
		/* its first position is where it was before this moment */
		t->px = t->x;
		t->py = t->y;
		t->x0 = t->x;
		t->y0 = t->y;
		t->dev_x0 = ut_frame_touch_dev_x(ft);
		t->dev_y0 = ut_frame_touch_dev_y(ft);
	}
}

/* read_touch() of a touch that begins (rare: kept out of the frame loop). */
static __attribute__((noinline)) void
read_new_touch(struct gr_recognizer *rec, const struct UFTouch_ *ft, uint32_t i, uint64_t time,
	       bool *any_new)
{
	UFTouchId id = ft->id;
	int slot = touch_new(rec, id, ft->start_time);
	if (slot < 0) {
		gr_log(rec->handle, GR_LOG_ERROR, "out of memory, rejecting touch");
		frame_reject_touch(rec->device, rec->window, id);
		return;
	}
	struct gr_touch *t = touch_at(rec, (uint32_t)slot);
	t->owned = ut_frame_touch_owned(ft);
	t->pending_end = ut_frame_touch_pending_end(ft);
	if (rec->atomic) {
		if (slots_push(&rec->new_touches, (uint32_t)slot)) {
			t->in_new = true;
			gr_touch_ref(rec, (uint32_t)slot);
		}
		*any_new = true;
	} else {
		/* hold a reference while matching, so nothing rejects it early */
		gr_touch_ref(rec, (uint32_t)slot);
		gr_free_add(rec, (uint32_t)slot);
		gr_recognizer_match_new_touch(rec, (uint32_t)slot);
		gr_touch_unref(rec, (uint32_t)slot);
	}
	if (i < GR_TOUCH_HINTS)
		rec->hint[i] = (uint32_t)slot;
	if (rec->touches[slot].live)
		cache_touch(rec, (uint32_t)slot, ft, UFTouchStateBegin, time, true);
}

/* @slot: the touch's slot when the caller found it, else -1 */
static inline __attribute__((always_inline)) void
read_touch(struct gr_recognizer *rec, const struct UFTouch_ *ft, uint32_t i, int slot,
	   uint64_t time, bool *any_new)
{
	UFTouchState state = ft->state;
	if (slot < 0) {
		slot = find_listed_touch(rec, ft->id);
		if (slot < 0) {
			if (state == UFTouchStateBegin)
				read_new_touch(rec, ft, i, time, any_new);
			return;
		}
		/* (a slot the caller found came from the hint) */
		if (i < GR_TOUCH_HINTS)
			rec->hint[i] = (uint32_t)slot;
	}

	struct gr_touch *t = touch_at(rec, (uint32_t)slot);
	if (ut_frame_touch_owned(ft))
		t->owned = true;
	if (ut_frame_touch_pending_end(ft))
		t->pending_end = true;
	/* a listed touch has not ended before: t->ended is state == End */
	if (state == UFTouchStateEnd) {
		t->ended = true;
		t->listed = false;
		rec->ends++;
	}
	cache_touch(rec, (uint32_t)slot, ft, state, time, false);
	if (state == UFTouchStateEnd) {
		if (!t->owned && t->mod_serial == rec->serial)
			rec->cancel_mask |= t->bit;
	} else if (!t->pending_end) {
		/*
		 * Nothing to drop: the reference taken and released
		 * around the block below only matters for a touch
		 * nobody holds (releasing it rejects the touch).
		 */
		if (t->refs == 0) {
			gr_touch_ref(rec, (uint32_t)slot);
			gr_touch_unref(rec, (uint32_t)slot);
		}
		return;
	}
	/* hold the touch while it may be dropped from the free list */
	gr_touch_ref(rec, (uint32_t)slot);
	gr_free_remove(rec, (uint32_t)slot);
	if (t->in_new) {
		for (unsigned int k = 0; k < rec->new_touches.n; k++) {
			if (rec->new_touches.v[k] == (uint32_t)slot) {
				slots_remove_at(&rec->new_touches, k);
				break;
			}
		}
		t->in_new = false;
		gr_touch_unref(rec, (uint32_t)slot);
	}
	gr_touch_unref(rec, (uint32_t)slot);
}

/*
 * Update touch bookkeeping from the frame; marks the modified touches
 * (mod_serial) for gr_gesture_update().
 *
 * A frame made from the previous one (frame_backend_frame_create_next(),
 * which every producer of this tree uses) shares the touch objects that
 * did not change; a change copies the object first.  So when this frame's
 * previous frame is the one the recognizer read last, which keeps that
 * frame and its touches alive, a touch object at the same address as the
 * one a slot was read from in that frame is that very object, unchanged:
 * everything read_touch() would do with it again is done, except marking
 * it seen in this frame and, when its time is the frame's (a touch carried
 * through the frames of one moment), changed in it.  In X11 framing, where
 * a frame carries every touch and changes one, that is nearly all of them.
 */
void
gr_touches_read_frame(struct gr_recognizer *rec, UFFrame frame, uint32_t n, uint64_t time,
		bool *any_new)
{
	const struct UFFrame_ *f = frame;

	rec->serial++;
	if (rec->serial == 0) {
		/* wrapped after 2^32 frames: forget the old marks */
		for (unsigned int i = 0; i < rec->ntouches; i++)
			rec->touches[i].seen_serial = rec->touches[i].mod_serial = 0;
		rec->serial = 1;
		rec->move_serial = 0;
		rec->last_frame = NULL;
	}
	rec->frame_changes = 0;
	rec->changed_mask = rec->cancel_mask = 0;

	uint32_t serial = rec->serial;
	/* f->prev, when set, is held by f: comparing its serial is safe */
	bool follows = f->prev && f->prev == rec->last_frame &&
		       f->prev->serial == rec->last_frame_serial;
	rec->last_frame = f;
	rec->last_frame_serial = f->serial;

	for (uint32_t i = 0; i < n; i++) {
		/* read in place (inline, frame-peer.h) */
		const struct UFTouch_ *ft = ut_frame_touch_at(frame, i);
		int slot = -1;
		/* the slot the touch at this index had in the last frame first
		 * (find_listed_touch(): at most one listed touch has an id) */
		uint32_t hint = i < GR_TOUCH_HINTS ? rec->hint[i] : UINT32_MAX;
		if (hint < rec->ntouches) {
			struct gr_touch *t = &rec->touches[hint];
			/* the same object, seen in the previous frame (so read
			 * from it), still listed (so live), and held by someone
			 * (read_touch() rejects a touch nobody holds) */
			if (t->src == ft && follows && t->seen_serial + 1 == serial && t->listed &&
			    t->refs > 0) {
				t->seen_serial = serial;
				if (ft->time == time) {
					/* as cache_touch(): nothing moved */
					if (t->mod_time != time) {
						t->px = t->x;
						t->py = t->y;
						t->mod_time = time;
					}
					t->mod_serial = serial;
					rec->changed_mask |= t->bit;
				}
				continue;
			}
			if (t->id == ft->id && t->listed)
				slot = (int)hint;
		}
		read_touch(rec, ft, i, slot, time, any_new);
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
