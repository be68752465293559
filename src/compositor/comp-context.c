/*
 * The context of one seat: grail handle, pollable fd (epoll over a timerfd
 * and an eventfd), the timers run from it, and the compositor's decisions
 * on gestures.  Public entry points: they call down (comp-step.c) only.
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
	ut_log_init(&comp->log, "compositor");
	comp->seat = strdup(seat_name ? seat_name : "");
	if (!comp->seat || uc_queue_grow(comp) < 0) /* the queue is there from the start */
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
	if (comp->in_callback) {
		/* the call that logged or checks still runs on the
		 * context; the message goes to stderr, the handler is busy */
		ut_log_client_bug(NULL, __func__, "called from the context's log handler or a "
				  "configuration check; the context is not destroyed");
		return;
	}
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

UTOUCH_COMP_PUBLIC int
utouch_comp_dispatch(struct utouch_comp *comp)
{
	uint64_t expirations;
	int64_t now;

	if (!comp)
		return -EINVAL;
	if (read(comp->timerfd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		uc_log(comp, UT_LOG_WARNING, "reading the gesture timer: %s", strerror(errno));
	/* EAGAIN: the timer did not expire; run what is due anyway */
	comp->timer_at = 0;
	now = (int64_t)ut_mono_us() - comp->clock_offset;
	if (now < 0)
		now = 0;
	uc_step_timers(comp, (uint64_t)now > comp->now ? (uint64_t)now : comp->now);
	uc_queue_rewake(comp);
	return 0;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_advance_time(struct utouch_comp *comp, uint64_t time)
{
	if (!comp)
		return -EINVAL;
	time = time > UINT64_MAX - comp->time_shift ? UINT64_MAX : time + comp->time_shift;
	/* an earlier time still runs what is due by the latest one: timers
	 * armed since, for input stamped before it, are overdue */
	uc_step_timers(comp, time < comp->now ? comp->now : time);
	return 0;
}

/* ---- the compositor's decisions ---- */

static int
decide(struct utouch_comp *comp, unsigned int gesture_id,
       UGStatus (*call)(UGHandle, unsigned int), const char *func)
{
	UGStatus st;

	if (!comp)
		return -EINVAL;
	st = call(comp->grail, gesture_id);
	if (st != UGStatusSuccess) {
		/* a gesture that just ended is no bug of the caller */
		uc_log(comp, UT_LOG_DEBUG, "%s: gesture %u: %s", func, gesture_id,
		       st == UGStatusErrorInvalidGesture ? "unknown or finished"
		       : st == UGStatusErrorAtomicity ? "not allowed in atomic mode" : "failed");
		return st == UGStatusErrorInvalidGesture || st == UGStatusErrorAtomicity
			? -ENOENT : -EINVAL;
	}
	uc_step_decided(comp);
	return 0;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_gesture_accept(struct utouch_comp *comp, unsigned int gesture_id)
{
	return decide(comp, gesture_id, grail_accept_gesture, __func__);
}

UTOUCH_COMP_PUBLIC int
utouch_comp_gesture_reject(struct utouch_comp *comp, unsigned int gesture_id)
{
	return decide(comp, gesture_id, grail_reject_gesture, __func__);
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
