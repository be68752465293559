/*
 * The end of every step, and the timers.  Every public call that changes
 * touches ends here: grail has seen the input and its slices are events;
 * what is left is carried out in one order -- cancels of clients whose
 * touch became a system gesture, then one pass over the hold ring: the
 * replay of touches released while held, the events of forwarded and
 * delivered touches that waited for the end of their frame or behind an
 * undecided touch of their device -- then the hold ring is compacted, finished touches
 * are freed and the timerfd is armed for grail's next timeout.
 *
 * This file calls only below it (gestures, touches, the hold ring, the
 * queue); the public entry points (comp-context.c, comp-input.c,
 * comp-device.c, comp-subscription.c) call it.
 */
#include <errno.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>

#include "compositor/comp-private.h"

void
uc_step_end(struct utouch_comp *comp)
{
	uc_touch_flush_cancels(comp);
	uc_hold_flush(comp);
	uc_hold_release(comp);
	uc_touch_free_finished(comp);
	uc_step_rearm(comp);
}

void
uc_step_decided(struct utouch_comp *comp)
{
	uc_gestures_drain(comp);
	uc_step_end(comp);
}

/* ---- timers ---- */

void
uc_step_rearm(struct utouch_comp *comp)
{
	uint64_t next = uc_step_next_timeout(comp) / 1000u;
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
	if (timerfd_settime(comp->timerfd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		uc_log(comp, UT_LOG_ERROR, "cannot arm the gesture timer: %s", strerror(errno));
}

void
uc_step_timers(struct utouch_comp *comp, uint64_t now_us)
{
	uint64_t now = now_us / 1000u;
	uint64_t next, at;
	int guard = 0;

	if (now_us > comp->now)
		comp->now = now_us;
	/* grail's gesture timeouts are strict (overdue after start + timeout):
	 * whatever is still pending at `now` is due a millisecond later at
	 * the earliest, see utouch_comp_next_timeout() */
	if (now > comp->timers_done)
		comp->timers_done = now;
	/* frames grail missed for want of memory: again, before its timers
	 * (not the changes that wait for the compositor's frame call) */
	for (size_t i = 0; i < comp->ndevices; i++)
		if (comp->devices[i] && comp->devices[i]->missed_zones)
			uc_step_grail(comp->devices[i], now_us);
	next = at = grail_next_timeout(comp->grail);
	while (next && at <= now && guard++ < 10000) {
		grail_update_time(comp->grail, at);
		uc_gestures_drain(comp);
		next = grail_next_timeout(comp->grail);
		if (!next)
			break;
		at = next <= at ? at + 1 : next;
	}
	uc_step_end(comp);
}

uint64_t
uc_step_next_timeout(struct utouch_comp *comp)
{
	uint64_t next = grail_next_timeout(comp->grail);

	if (next && next <= comp->timers_done)
		next = comp->timers_done + 1;
	/* a frame grail missed (out of memory) is made again a millisecond on */
	if (uc_frames_waiting(comp) && (!next || next > comp->timers_done + 1))
		next = comp->timers_done + 1;
	return next * 1000u;
}

UTOUCH_COMP_PUBLIC uint64_t
utouch_comp_next_timeout(struct utouch_comp *comp)
{
	uint64_t next;

	if (!comp)
		return 0;
	next = uc_step_next_timeout(comp);
	if (!next)
		return 0;
	/* in the input clock; a timer due before its start is due now */
	return next > comp->time_shift ? next - comp->time_shift : 1;
}
