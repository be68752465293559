/*
 * Timeouts: grail's timeouts on the core's timer or the backend's, and on
 * X11 as geis 2.2's XSync alarms (part of the engine, see geis-engine.h).
 */
#include <sys/timerfd.h>

#include "geis-engine.h"
#include "util/clock.h"

/* ---- time ---- */

/*
 * When grail's next timeout is due: grail_next_timeout(), or, when grail
 * was already told that time (or a later one) and still reports it, one
 * ms after the latest time it was told.  grail acts on some timeouts only
 * once time has passed them (a gesture's timeout rejects it when more than
 * the timeout has elapsed), so the timeout is tried again 1 ms later
 * instead of at once, over and over.  0: nothing pending.
 */
static uint64_t
next_due(Geis geis)
{
	uint64_t next = grail_next_timeout(geis->grail);

	if (next && next <= geis->time_done)
		next = geis->time_done + 1;
	return next;
}

/* ---- geis 2.2's XSync alarms (X11) ---- */

/*
 * geis 2.2 ran grail's timeouts on XSync alarms on the server's SERVERTIME
 * counter, and utouch runs them the same way where that shows (X11, where
 * a program compares with geis 2.2):
 *
 * - after every frame it gave grail, and after every batch of grail events
 *   it read, it made an alarm for grail_next_timeout() unless one for that
 *   time existed, and never cancelled one: an alarm made for a candidate
 *   that is long gone (the 60 ms glue of a touch that was free for a
 *   moment, the timeout of a gesture recognized since) still runs
 *   grail_update_time() at its time, and that checks construction;
 * - an alarm comes back with the counter's value when the server's clock
 *   reached it, on an idle server the alarm's own time, and geis 2.2 gave
 *   grail that time.  grail rejects a candidate only once more than its
 *   timeout has passed, so the alarm at the timeout itself rejects
 *   nothing, and nothing made another alarm unless grail had events: the
 *   candidate is rejected by the next input, inside that frame's
 *   processing (so the gesture that moved reports construction finished
 *   one event after the others);
 * - an alarm made while a batch of input was read comes back with a later
 *   batch, with the server's time then (not before input already read);
 * - utouch runs each alarm at exactly that time, whatever the load,
 *   with one deliberate difference: when an alarm rejected nothing and no
 *   gesture the application has seen waits for its construction to
 *   finish, the timeout is tried again 1 ms later (a touch held still is
 *   released on time instead of at its next motion; nothing the
 *   application sees changes, see doc/geis.md).
 */
int
gs_engine_alarm_mode(Geis geis)
{
	return geis->backend && geis->backend->ops->xsync_alarms;
}

static void
alarm_add(Geis geis, uint64_t at, uint64_t counter, int fresh)
{
	for (unsigned int i = 0; i < geis->nalarms; i++)
		if (geis->alarms[i].at == at)
			return;
	if (!UT_ARRAY_RESERVE(geis->alarms, geis->capalarms, geis->nalarms + 1, 8)) {
		ut_log(&geis->log, UT_LOG_ERROR, "out of memory for a timeout at %llu",
		       (unsigned long long)at);
		return;
	}
	geis->alarms[geis->nalarms++] = (struct geis_alarm){ at, counter, fresh };
}

/* An alarm for grail's next timeout: it comes back at that time, or, if
 * that has passed, with the newest time the server sent. */
void
gs_engine_alarm_note(Geis geis)
{
	uint64_t at = grail_next_timeout(geis->grail);

	if (at)
		alarm_add(geis, at, at > geis->time_seen ? at : geis->time_seen, 1);
}

/* Whether a gesture the application has seen waits for its construction
 * to finish (grail's check of it runs with every update of time). */
static int
construction_pending(Geis geis)
{
	ut_list_for_each(pos, &geis->gestures) {
		struct geis_gesture *g = gs_gesture_of(pos);

		if (g->begun && !g->finished && !g->ended && !g->dead && !g->accepted)
			return 1;
	}
	return 0;
}

/* Run the alarms that came back by server time @p t, in order. */
static void
alarms_run(Geis geis, uint64_t t)
{
	for (int guard = 0; guard < 1000; guard++) {
		unsigned int k = geis->nalarms;

		for (unsigned int i = 0; i < geis->nalarms; i++) {
			const struct geis_alarm *a = &geis->alarms[i];

			if (!a->fresh && a->counter <= t &&
			    (k == geis->nalarms || a->counter < geis->alarms[k].counter))
				k = i;
		}
		if (k == geis->nalarms)
			return;
		uint64_t c = geis->alarms[k].counter;

		geis->alarms[k] = geis->alarms[--geis->nalarms];
		if (c < geis->time_seen)
			c = geis->time_seen;
		geis->time_seen = c;
		geis->time_done = c;
		grail_update_time(geis->grail, c);
		if (gs_engine_drain_grail(geis) == 0) {
			uint64_t next = grail_next_timeout(geis->grail);

			if (next && next <= c && !construction_pending(geis))
				alarm_add(geis, c + 1, c + 1, 0);
		}
		/* callbacks, as after every drain */
		gs_engine_drain(geis);
	}
}

void
gs_core_input_read(Geis geis)
{
	if (!geis)
		return;
	for (unsigned int i = 0; i < geis->nalarms; i++) {
		struct geis_alarm *a = &geis->alarms[i];

		if (a->fresh && a->counter < geis->time_seen)
			a->counter = geis->time_seen;
		a->fresh = 0;
	}
}

void
gs_engine_rearm(Geis geis)
{
	uint64_t next;

	if (!geis->grail)
		return;
	if (gs_engine_alarm_mode(geis)) {
		next = 0;
		for (unsigned int i = 0; i < geis->nalarms; i++)
			if (!next || geis->alarms[i].counter < next)
				next = geis->alarms[i].counter;
		if (geis->backend->ops->set_timer)
			geis->backend->ops->set_timer(geis->backend, next);
		return;
	}
	next = next_due(geis);
	if (geis->backend && geis->backend->ops->set_timer) {
		geis->backend->ops->set_timer(geis->backend, next);
		return;
	}
	if (next == geis->timer_at)
		return;
	geis->timer_at = next;
	if (next) {
		uint64_t now = gs_now(geis);

		ut_timerfd_arm_ms(geis->timerfd, next > now ? next - now : 0);
	} else {
		ut_timerfd_disarm(geis->timerfd);
	}
}

void
gs_engine_timer_fired(Geis geis)
{
	geis->timer_at = 0;
	gs_core_advance_time(geis, gs_now(geis));
	gs_engine_rearm(geis);
}

/*
 * Run every timeout due at or before @t, each at its own time, in order:
 * what an XSync alarm per timeout did for geis 2.2 (grail_update_time at
 * the alarm's time, before any input stamped later).
 */
void
gs_core_advance_time(Geis geis, uint64_t t)
{
	uint64_t at;
	int guard = 0;

	if (!geis || !geis->grail)
		return;
	if (gs_engine_alarm_mode(geis)) {
		alarms_run(geis, t);
		return;
	}
	while ((at = next_due(geis)) != 0 && at <= t && guard++ < 1000) {
		geis->time_done = at;
		grail_update_time(geis->grail, at);
		gs_engine_drain(geis);
	}
}

