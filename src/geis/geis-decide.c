/*
 * Decisions: the gestures in flight, accept and reject from the
 * application, and the release of the gestures that ended undecided (part
 * of the engine, see geis-engine.h).
 */
#include <stdlib.h>

#include "geis-engine.h"

static int queued(Geis geis, unsigned id);

/* ---- gestures ---- */

static size_t
hash_slot(const Geis geis, unsigned id)
{
	/* grail numbers gestures one after the other: spread them out */
	return (size_t)(id * 2654435761u) & (geis->hash_size - 1);
}

struct geis_gesture *
gs_gesture_find(Geis geis, unsigned id)
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
		struct geis_gesture *g = gs_gesture_of(pos);
		size_t slot = hash_slot(geis, g->id);

		g->hnext = hash[slot];
		hash[slot] = g;
	}
	return 0;
}

struct geis_gesture *
gs_gesture_new(Geis geis, unsigned id, GeisSubscription sub)
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

void
gs_gesture_forgive_end(Geis geis, struct geis_gesture *g)
{
	if (!g->owed_end)
		return;
	grail_event_unref(g->owed_end);
	g->owed_end = NULL;
	geis_device_unref(g->owed_binding.device);
	g->owed_binding.device = NULL;
	geis->ends_owed--;
}

void
gs_gesture_remove(Geis geis, struct geis_gesture *g)
{
	gs_gesture_forgive_end(geis, g);
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
void
gs_gesture_purge(Geis geis, unsigned id)
{
	GeisEvent ev = geis->queue.head;

	while (ev) {
		GeisEvent next = ev->next;

		if (ev->is_gesture && ev->gesture == id) {
			gs_queue_remove(&geis->queue, ev);
			geis_event_delete(ev);
		}
		ev = next;
	}
}

void
gs_gesture_mark_canceled(Geis geis, unsigned id)
{
	for (GeisEvent ev = geis->queue.head; ev; ev = ev->next)
		if (ev->is_gesture && ev->gesture == id)
			ev->canceled = 1;
}

void
gs_engine_event_delivered(Geis geis, GeisEvent ev)
{
	struct geis_gesture *g;

	if (!ev->is_gesture)
		return;
	g = gs_gesture_find(geis, ev->gesture);
	if (g) {
		g->seen = 1;
		if (g->ended)
			geis->release_due = 1;
	}
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


void
gs_engine_release_undecided(Geis geis)
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

		if (ev->is_gesture && (g = gs_gesture_find(geis, ev->gesture)))
			g->in_queue = 1;
	}
	ut_list_for_each_safe(pos, tmp, &geis->gestures) {
		struct geis_gesture *g = gs_gesture_of(pos);
		int in_queue = g->in_queue;

		g->in_queue = 0;
		if (!g->ended || in_queue || g->owed_end)
			continue;
		/* an atomic gesture's touches are grail's to decide: the
		 * reject is refused (UGStatusErrorAtomicity) and changes
		 * nothing */
		if (!g->accepted && !g->dead &&
		    grail_reject_gesture(geis->grail, g->id) == UGStatusSuccess)
			rejected = 1;
		gs_gesture_remove(geis, g);
	}
	if (rejected) {
		gs_engine_drain(geis);
		gs_engine_rearm(geis);
	}
	geis->releasing = 0;
}

/* ---- accept / reject ---- */

/* Whether events of gesture @id wait in the queue: 0 none, 1 some, 2 some
 * of a gesture grail cancelled (gs_gesture_mark_canceled(): the gesture is
 * over and its touches are not the application's). */
static int
queued(Geis geis, unsigned id)
{
	int found = 0;

	for (GeisEvent ev = geis->queue.head; ev; ev = ev->next) {
		if (!ev->is_gesture || ev->gesture != id)
			continue;
		if (ev->canceled)
			return 2;
		found = 1;
	}
	return found;
}

GeisStatus
gs_engine_accept(Geis geis, GeisGestureId id)
{
	if (!gs_uses_grail(geis))
		return GEIS_STATUS_SUCCESS;   /* the test backend's gestures */
	struct geis_gesture *g = gs_gesture_find(geis, id);
	int waiting = g ? 0 : queued(geis, id);
	int known = g != NULL || waiting == 1;
	UGStatus st = grail_accept_gesture(geis->grail, id);

	if (st == UGStatusErrorAtomicity)
		return GEIS_STATUS_SUCCESS;   /* grail decides atomic gestures */
	if (st != UGStatusSuccess && waiting == 2) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_accept: gesture %u was cancelled (another gesture "
				"took its touches, or a whole-hand gesture lost the hand)",
				(unsigned)GEIS_PUBLIC_ID(id));
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	if (st != UGStatusSuccess) {
		if (known)
			return GEIS_STATUS_SUCCESS;   /* already ended in grail */
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
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
			struct geis_gesture *o = gs_gesture_of(pos);

			if (o == g || !o->ended || o->accepted || !share_touch(g, o))
				continue;
			if (!o->seen)
				gs_gesture_purge(geis, o->id);
			else
				gs_gesture_mark_canceled(geis, o->id);
			gs_gesture_remove(geis, o);
		}
	}
	gs_engine_drain(geis);
	gs_engine_rearm(geis);
	return GEIS_STATUS_SUCCESS;
}

GeisStatus
gs_engine_reject(Geis geis, GeisGestureId id)
{
	if (!gs_uses_grail(geis))
		return GEIS_STATUS_SUCCESS;
	struct geis_gesture *g = gs_gesture_find(geis, id);
	int known = g != NULL || queued(geis, id);
	UGStatus st;

	if (g && g->accepted) {
		/* grail refuses it too; the gesture goes on to its end */
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_reject: gesture %u was accepted; it cannot be "
				"rejected", (unsigned)GEIS_PUBLIC_ID(id));
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	st = grail_reject_gesture(geis->grail, id);
	if (st != UGStatusSuccess && st != UGStatusErrorAtomicity && !known) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_reject: gesture %u is unknown or already "
				"finished (grail status %d)", (unsigned)GEIS_PUBLIC_ID(id),
				(int)st);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_gesture_purge(geis, id);
	if (g) {
		if (st == UGStatusSuccess)
			gs_gesture_remove(geis, g);
		else
			g->dead = 1;   /* ignore its slices until it ends */
	}
	gs_engine_drain(geis);
	gs_engine_rearm(geis);
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisStatus
geis_gesture_accept(Geis geis, GeisGroup group, GeisGestureId gesture_id)
{
	if (!geis) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_accept: NULL instance");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(geis);
	if (gesture_id == GEIS_NO_GESTURE_ID) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_accept: GEIS_NO_GESTURE_ID");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	return gs_engine_accept(geis, GEIS_GRAIL_ID(gesture_id));
}

GEIS_API GeisStatus
geis_gesture_reject(Geis geis, GeisGroup group, GeisGestureId gesture_id)
{
	if (!geis) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_reject: NULL instance");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(geis);
	if (gesture_id == GEIS_NO_GESTURE_ID) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_gesture_reject: GEIS_NO_GESTURE_ID");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	return gs_engine_reject(geis, GEIS_GRAIL_ID(gesture_id));
}

