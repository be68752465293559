/*
 * The hold buffer: events of undecided touches under the hold policy, kept
 * in arrival order in one ring for the whole seat so that a replay of
 * several touches keeps their interleaving and their frames.  Events of
 * forwarded touches wait here until the end of their frame, so that the
 * frame that makes a touch a system gesture never reaches the client; and
 * every later event of a device for the same client waits here behind an
 * undecided touch's, so that no touch overtakes it in what the client gets
 * (uc_hold_flush()).  Each client has its own stream of events, so the
 * touches of other clients go on meanwhile.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compositor/comp-private.h"

static const enum utouch_comp_event_type types[] = {
	[UC_HELD_DOWN] = UTOUCH_COMP_EVENT_TOUCH_DOWN,
	[UC_HELD_MOTION] = UTOUCH_COMP_EVENT_TOUCH_MOTION,
	[UC_HELD_UP] = UTOUCH_COMP_EVENT_TOUCH_UP,
};

static struct uc_held *
at(struct utouch_comp *comp, size_t i)
{
	return &comp->held[(comp->held_head + i) % comp->held_cap];
}

/* Touches @u and @t go to the same client from the same device. */
static bool
same_stream(const struct uc_touch *u, const struct uc_touch *t)
{
	return u->serial && u->dev == t->dev && uc_touch_client(u) == uc_touch_client(t);
}

bool
uc_hold_behind(const struct utouch_comp *comp, const struct uc_touch *t)
{
	if (comp->held_live == 0)
		return false;   /* nothing waits: the usual case, no walk */
	for (size_t i = 0; i < comp->ntouches; i++)
		if (comp->touches[i].nkept && same_stream(&comp->touches[i], t))
			return true;
	return false;
}

int
uc_hold(struct utouch_comp *comp, struct uc_touch *t, enum uc_held_type type,
	uint64_t time)
{
	struct uc_held *h;

	if (comp->held_count == comp->held_cap) {
		size_t n = comp->held_cap ? comp->held_cap * 2 : 64;
		struct uc_held *ring = malloc(n * sizeof(*ring));

		if (!ring)
			return -ENOMEM;
		for (size_t i = 0; i < comp->held_count; i++)
			ring[i] = *at(comp, i);
		free(comp->held);
		comp->held = ring;
		comp->held_cap = n;
		comp->held_head = 0;
	}
	h = at(comp, comp->held_count);
	comp->held_count++;
	h->slot = (uint32_t)(t - comp->touches);
	h->serial = t->serial;
	h->type = (uint8_t)type;
	h->dead = 0;
	/* held, or behind a kept event of its device and client: late,
	 * whenever it goes */
	h->kept = t->route == UTOUCH_COMP_ROUTE_HOLD || uc_hold_behind(comp, t);
	t->nkept += h->kept;
	h->time = time;
	h->frame_seq = comp->frame_seq;
	h->x = t->x;
	h->y = t->y;
	h->sx = t->sx;
	h->sy = t->sy;
	t->nheld++;
	comp->held_live++;
	return 0;
}

static void
kill(struct utouch_comp *comp, struct uc_held *h)
{
	h->dead = 1;
	comp->touches[h->slot].nkept -= h->kept;
	comp->touches[h->slot].nheld--;
	comp->held_live--;
}

void
uc_hold_drop(struct utouch_comp *comp, struct uc_touch *t)
{
	uint32_t slot = (uint32_t)(t - comp->touches);

	for (size_t i = 0; i < comp->held_count && t->nheld; i++) {
		struct uc_held *h = at(comp, i);

		if (!h->dead && h->slot == slot && h->serial == t->serial)
			kill(comp, h);
	}
}

/*
 * Carry out what the ring allows, in ring order: events of touches that are
 * released (rejected while held, forwarded, delivered) go out, up to the
 * first event of a touch that is still undecided on each device for each
 * client; what comes after it on that device for that client waits for its
 * decision, so that a client gets its touches in the order they came
 * however their decisions fell.  Kept
 * events are marked replayed and go out in the frames they came in.
 */
void
uc_hold_flush(struct utouch_comp *comp)
{
	uint64_t seq = 0, last_time = comp->now;
	int any = 0, last_kept = 0;

	for (size_t i = 0; i < comp->ntouches; i++)
		comp->touches[i].blocked = 0;
	for (size_t i = 0; i < comp->held_count; i++) {
		struct uc_held *h = at(comp, i);
		struct uc_touch *t = &comp->touches[h->slot];

		if (h->dead || t->serial != h->serial)
			continue;
		if (t->route == UTOUCH_COMP_ROUTE_HOLD && !t->replay) {
			if (!t->blocked)
				for (size_t k = 0; k < comp->ntouches; k++)
					if (same_stream(&comp->touches[k], t))
						comp->touches[k].blocked = 1;
			continue;
		}
		if (t->blocked || (t->route != UTOUCH_COMP_ROUTE_HOLD &&
					t->route != UTOUCH_COMP_ROUTE_FORWARD &&
					t->route != UTOUCH_COMP_ROUTE_DELIVER))
			continue;
		/* the frames of the original input, one wl_touch.frame each */
		if (any && h->frame_seq != seq)
			uc_emit_frame(comp, last_time);
		uc_emit_touch(comp, types[h->type], t, h->time, h->x, h->y, h->sx, h->sy, h->kept);
		seq = h->frame_seq;
		last_time = h->time;
		last_kept = h->kept;
		any = 1;
		kill(comp, h);
	}
	/* held-back events end their frame here; events of the frame that
	 * just ended are closed by its frame call */
	if (last_kept)
		uc_emit_frame(comp, last_time);
	if (!comp->replay_pending)
		return;
	comp->replay_pending = 0;
	for (size_t i = 0; i < comp->ntouches; i++) {
		struct uc_touch *t = &comp->touches[i];

		if (t->serial && t->replay) {
			t->replay = 0;
			if (t->route == UTOUCH_COMP_ROUTE_HOLD)
				t->route = UTOUCH_COMP_ROUTE_DELIVER;
		}
	}
}

void
uc_hold_release(struct utouch_comp *comp)
{
	while (comp->held_count > 0 && comp->held[comp->held_head].dead) {
		comp->held_head = (comp->held_head + 1) % comp->held_cap;
		comp->held_count--;
	}
	if (comp->held_count == 0)
		comp->held_head = 0;
}
