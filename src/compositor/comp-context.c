/*
 * The context of one seat: grail handle, pollable fd (epoll over a timerfd
 * and an eventfd), the output queue, timers and the end-of-step work.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <utouch/frame_handle.h>

#include "compositor/comp-private.h"
#include "util/array.h"
#include "util/clock.h"

int
uc_grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *q = ut_array_grow(*p, cap, need, size, 16);

	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

UTOUCH_COMP_PUBLIC struct utouch_comp *
utouch_comp_new(const char *seat_name)
{
	struct utouch_comp *comp = calloc(1, sizeof(*comp));
	struct epoll_event ev;
	int err;

	if (!comp)
		return NULL;
	comp->epfd = comp->timerfd = comp->wakefd = -1;
	comp->next_serial = 1;
	comp->seat = strdup(seat_name ? seat_name : "");
	if (!comp->seat)
		goto fail_errno;
	if (grail_new(&comp->grail) != UGStatusSuccess) {
		errno = ENOMEM;
		goto fail_errno;
	}
	comp->epfd = epoll_create1(EPOLL_CLOEXEC);
	comp->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	comp->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (comp->epfd < 0 || comp->timerfd < 0 || comp->wakefd < 0)
		goto fail_errno;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.fd = comp->timerfd;
	if (epoll_ctl(comp->epfd, EPOLL_CTL_ADD, comp->timerfd, &ev) < 0)
		goto fail_errno;
	ev.data.fd = comp->wakefd;
	if (epoll_ctl(comp->epfd, EPOLL_CTL_ADD, comp->wakefd, &ev) < 0)
		goto fail_errno;
	return comp;

fail_errno:
	err = errno ? errno : ENOMEM;
	utouch_comp_destroy(comp);
	errno = err;
	return NULL;
}

UTOUCH_COMP_PUBLIC void
utouch_comp_destroy(struct utouch_comp *comp)
{
	if (!comp)
		return;
	while (comp->nsubs > 0)
		utouch_comp_unsubscribe(comp, comp->subs[comp->nsubs - 1]);
	for (size_t i = 0; i < comp->ndevices; i++)
		if (comp->devices[i])
			utouch_comp_device_remove(comp, comp->devices[i]);
	if (comp->grail)
		grail_delete(comp->grail);
	if (comp->epfd >= 0)
		close(comp->epfd);
	if (comp->timerfd >= 0)
		close(comp->timerfd);
	if (comp->wakefd >= 0)
		close(comp->wakefd);
	free(comp->devices);
	free(comp->subs);
	free(comp->touches);
	free(comp->free_slots);
	free(comp->held);
	free(comp->queue);
	free(comp->cancel_clients);
	free(comp->cancel_surfaces);
	free(comp->cancel_times);
	free(comp->seat);
	free(comp);
}

UTOUCH_COMP_PUBLIC int
utouch_comp_get_fd(struct utouch_comp *comp)
{
	return comp ? comp->epfd : -1;
}

UTOUCH_COMP_PUBLIC const char *
utouch_comp_get_seat_name(struct utouch_comp *comp)
{
	return comp ? comp->seat : NULL;
}

/* ---- output queue ---- */

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
uc_emit(struct utouch_comp *comp, const struct utouch_comp_event *ev)
{
	if (comp->q_count == comp->q_cap) {
		size_t n = comp->q_cap ? comp->q_cap * 2 : 64;
		struct utouch_comp_event *q = malloc(n * sizeof(*q));

		if (!q) {
			comp->oom = 1;
			return;
		}
		for (size_t i = 0; i < comp->q_count; i++)
			q[i] = comp->queue[(comp->q_head + i) % comp->q_cap];
		free(comp->queue);
		comp->queue = q;
		comp->q_cap = n;
		comp->q_head = 0;
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

/* ---- the end of every step ---- */

void
uc_settle(struct utouch_comp *comp)
{
	uc_flush_cancels(comp);
	if (comp->replay_pending)
		uc_hold_replay(comp);
	uc_hold_flush_forward(comp);
	uc_hold_release(comp);
	uc_touch_free_finished(comp);
	uc_rearm(comp);
}

/* ---- timers ---- */

void
uc_rearm(struct utouch_comp *comp)
{
	uint64_t next = utouch_comp_next_timeout(comp) / 1000u;
	struct itimerspec its;

	/* the mapping to CLOCK_MONOTONIC drifts with every input event; a
	 * timer armed in an older mapping is kept while it is off by less
	 * than 0.2 ms (one syscall less per frame) */
	int64_t drift = comp->clock_offset - comp->armed_offset;

	if (next == comp->timer_at && (!next || (drift < 200 && drift > -200)))
		return;
	comp->timer_at = next;
	comp->armed_offset = comp->clock_offset;
	memset(&its, 0, sizeof(its));
	if (next) {
		/* the input time `next` ms in CLOCK_MONOTONIC */
		int64_t at = (int64_t)(next * 1000u) + comp->clock_offset;

		if (at <= 0)
			at = 1;
		its.it_value.tv_sec = (time_t)(at / 1000000);
		its.it_value.tv_nsec = (long)(at % 1000000) * 1000L;
	}
	timerfd_settime(comp->timerfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void
run_timers(struct utouch_comp *comp, uint64_t now_us)
{
	uint64_t now = now_us / 1000u;
	uint64_t next = grail_next_timeout(comp->grail);
	uint64_t at = next;
	int guard = 0;

	if (now_us > comp->now)
		comp->now = now_us;
	/* grail's gesture timeouts are strict (overdue after start + timeout):
	 * whatever is still pending at `now` is due a millisecond later at
	 * the earliest, see utouch_comp_next_timeout() */
	if (now > comp->timers_done)
		comp->timers_done = now;
	while (next && at <= now && guard++ < 10000) {
		grail_update_time(comp->grail, at);
		uc_gestures_drain(comp);
		next = grail_next_timeout(comp->grail);
		if (!next)
			break;
		at = next <= at ? at + 1 : next;
	}
	uc_settle(comp);
}

UTOUCH_COMP_PUBLIC uint64_t
utouch_comp_next_timeout(struct utouch_comp *comp)
{
	uint64_t next;

	if (!comp)
		return 0;
	next = grail_next_timeout(comp->grail);
	if (next && next <= comp->timers_done)
		next = comp->timers_done + 1;
	return next * 1000u;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_dispatch(struct utouch_comp *comp)
{
	uint64_t expirations;
	int64_t now;

	if (!comp)
		return -EINVAL;
	if (read(comp->timerfd, &expirations, sizeof(expirations)) < 0) {
		/* EAGAIN: the timer did not expire; run what is due anyway */
	}
	comp->timer_at = 0;
	now = (int64_t)ut_mono_us() - comp->clock_offset;
	if (now < 0)
		now = 0;
	run_timers(comp, (uint64_t)now > comp->now ? (uint64_t)now : comp->now);
	if (comp->q_count > 0)
		wake(comp, 1);
	return 0;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_advance_time(struct utouch_comp *comp, uint64_t time)
{
	if (!comp)
		return -EINVAL;
	if (time < comp->now)
		return 0;
	run_timers(comp, time);
	return 0;
}

/* ---- names ---- */

UTOUCH_COMP_PUBLIC const char *
utouch_comp_route_name(enum utouch_comp_route route)
{
	switch (route) {
	case UTOUCH_COMP_ROUTE_NONE: return "none";
	case UTOUCH_COMP_ROUTE_DELIVER: return "deliver";
	case UTOUCH_COMP_ROUTE_HOLD: return "hold";
	case UTOUCH_COMP_ROUTE_FORWARD: return "forward";
	case UTOUCH_COMP_ROUTE_SYSTEM: return "system";
	case UTOUCH_COMP_ROUTE_CANCELLED: return "cancelled";
	}
	return "?";
}

UTOUCH_COMP_PUBLIC const char *
utouch_comp_event_type_name(enum utouch_comp_event_type type)
{
	switch (type) {
	case UTOUCH_COMP_EVENT_TOUCH_DOWN: return "touch-down";
	case UTOUCH_COMP_EVENT_TOUCH_MOTION: return "touch-motion";
	case UTOUCH_COMP_EVENT_TOUCH_UP: return "touch-up";
	case UTOUCH_COMP_EVENT_TOUCH_FRAME: return "touch-frame";
	case UTOUCH_COMP_EVENT_TOUCH_CANCEL: return "touch-cancel";
	case UTOUCH_COMP_EVENT_GESTURE_BEGIN: return "gesture-begin";
	case UTOUCH_COMP_EVENT_GESTURE_UPDATE: return "gesture-update";
	case UTOUCH_COMP_EVENT_GESTURE_END: return "gesture-end";
	}
	return "?";
}
