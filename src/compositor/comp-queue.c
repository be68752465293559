/*
 * The output queue: the one place where compositor events are made.  A
 * ring of events in the order the compositor is to carry them out, and the
 * eventfd that makes the context's fd readable while it is not empty.
 * Everything above writes through uc_emit*; the compositor reads with
 * utouch_comp_next_event().  Touches, devices, surfaces and clients that go
 * away are struck from the events still waiting here.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compositor/comp-private.h"

static void
wake(struct utouch_comp *comp, int on)
{
	uint64_t v = 1;

	if (on == comp->woken)
		return;
	comp->woken = on;
	if (on) {
		if (write(comp->wakefd, &v, sizeof(v)) < 0) {
			/* the counter cannot overflow with one write per wake */
		}
	} else if (read(comp->wakefd, &v, sizeof(v)) < 0) {
		/* EAGAIN: nothing to clear */
	}
}

void
uc_queue_rewake(struct utouch_comp *comp)
{
	if (comp->q_count > 0)
		wake(comp, 1);
}

int
uc_queue_grow(struct utouch_comp *comp)
{
	size_t n = comp->q_cap ? comp->q_cap * 2 : UC_QUEUE_INITIAL;
	struct utouch_comp_event *q = malloc(n * sizeof(*q));

	if (!q)
		return -1;
	for (size_t i = 0; i < comp->q_count; i++)
		q[i] = comp->queue[(comp->q_head + i) % comp->q_cap];
	free(comp->queue);
	comp->queue = q;
	comp->q_cap = n;
	comp->q_head = 0;
	return 0;
}

void
uc_emit(struct utouch_comp *comp, const struct utouch_comp_event *ev)
{
	/* the ring grows when three quarters full, so that a failed growth
	 * (out of memory) costs nothing yet: it is tried again with the next
	 * event, and an event is dropped only when the ring is full */
	if (comp->q_count >= comp->q_cap - comp->q_cap / 4 && uc_queue_grow(comp) < 0) {
		if (comp->q_count == comp->q_cap) {
			uc_out_of_memory(comp, "an event was dropped");
			return;
		}
		uc_out_of_memory(comp, "the event queue could not grow");
	}
	comp->queue[(comp->q_head + comp->q_count) % comp->q_cap] = *ev;
	comp->q_count++;
	wake(comp, 1);
}

void
uc_emit_touch(struct utouch_comp *comp, enum utouch_comp_event_type type,
	      struct uc_touch *t, uint64_t time, double x, double y, double sx,
	      double sy, int replayed)
{
	struct utouch_comp_event ev;

	if (!t->surface)
		return;   /* nobody to deliver to */
	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.time = time;
	ev.touch.device = t->dev;
	ev.touch.id = t->id;
	ev.touch.surface = t->surface;
	ev.touch.client = t->client;
	ev.touch.x = x;
	ev.touch.y = y;
	ev.touch.sx = sx;
	ev.touch.sy = sy;
	ev.touch.replayed = replayed;
	uc_emit(comp, &ev);
	comp->need_frame = 1;
	t->seen = 1;
}

void
uc_emit_frame(struct utouch_comp *comp, uint64_t time)
{
	struct utouch_comp_event ev;

	if (!comp->need_frame)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = UTOUCH_COMP_EVENT_TOUCH_FRAME;
	ev.time = time;
	uc_emit(comp, &ev);
	comp->need_frame = 0;
}

void
uc_emit_cancel(struct utouch_comp *comp, void *surface, void *client, uint64_t time)
{
	struct utouch_comp_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = UTOUCH_COMP_EVENT_TOUCH_CANCEL;
	ev.time = time;
	ev.touch.surface = surface;
	ev.touch.client = client;
	uc_emit(comp, &ev);
}

UTOUCH_COMP_PUBLIC int
utouch_comp_next_event(struct utouch_comp *comp, struct utouch_comp_event *event)
{
	if (!comp || !event || comp->q_count == 0)
		return 0;
	*event = comp->queue[comp->q_head];
	comp->q_head = (comp->q_head + 1) % comp->q_cap;
	comp->q_count--;
	if (comp->q_count == 0)
		wake(comp, 0);
	return 1;
}

static struct utouch_comp_event *
queued(struct utouch_comp *comp, size_t i)
{
	return &comp->queue[(comp->q_head + i) % comp->q_cap];
}

void
uc_queue_forget_target(struct utouch_comp *comp, void *surface, void *client)
{
	/* queued events for it must not reach a reused pointer */
	for (size_t i = 0; i < comp->q_count; i++) {
		struct utouch_comp_event *ev = queued(comp, i);

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
}

void
uc_queue_forget_device(struct utouch_comp *comp, const struct utouch_comp_device *dev)
{
	for (size_t i = 0; i < comp->q_count; i++) {
		struct utouch_comp_event *q = queued(comp, i);

		if (q->type >= UTOUCH_COMP_EVENT_GESTURE_BEGIN) {
			if (q->gesture.device == dev)
				q->gesture.device = NULL;
		} else if (q->touch.device == dev) {
			q->touch.device = NULL;
		}
	}
}
