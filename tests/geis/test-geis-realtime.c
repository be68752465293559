/*
 * geis with a recording played at the recorded pace, driven only by
 * polling the configuration fd: grail timeouts fire from geis' own timer,
 * and accepting a live gesture keeps its queued events.
 */
#include <poll.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "geis-test.h"
#include "geis/geis-private.h"
#include "util/clock.h"

/* signed, for differences */
static int64_t
wall_ms(void)
{
	return (int64_t)ut_mono_ms();
}

/*
 * One finger held still for 2 s (no input between its begin and its end).
 * With atomic gestures grail holds the gesture back for its 60 ms
 * composition time; only a timeout can release it.  The BEGIN must come
 * long before the finger lifts, while the recording is still playing.
 */
static void
test_timeout_without_input(void **state)
{
	Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING,
			     gt_recording("touchscreen/hold-1.evemu"), NULL);
	GeisSubscription sub;
	GeisFilter f;
	struct gt_log log = { 0 };
	int64_t start, begin_wall = -1;
	int fd;

	assert_non_null(geis);
	sub = geis_subscription_new(geis, "touch", 0);
	f = geis_filter_new(geis, "f");
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, GEIS_GESTURE_TOUCH,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 1, NULL), 0);
	assert_int_equal(geis_subscription_add_filter(sub, f), 0);
	assert_int_equal(geis_subscription_activate(sub), 0);
	fd = gt_fd(geis);
	start = wall_ms();
	while (wall_ms() - start < 4000) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		GeisEvent ev;

		if (poll(&p, 1, 50) <= 0)
			continue;
		geis_dispatch_events(geis);
		while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
			size_t before = log.n;

			gt_log_add(&log, geis, ev);
			if (log.n > before && log.ev[before].type == GEIS_EVENT_GESTURE_BEGIN) {
				begin_wall = wall_ms() - start;
				/* the finger is still down */
				assert_false(utouch_geis_playback_finished(geis));
			}
			geis_event_delete(ev);
		}
		if (log.n && log.ev[log.n - 1].type == GEIS_EVENT_GESTURE_END)
			break;
	}
	assert_true(log.n >= 2);
	assert_int_equal(log.ev[0].type, GEIS_EVENT_GESTURE_BEGIN);
	assert_int_equal(log.ev[0].timestamp, 1000);   /* the touch's begin */
	assert_true(begin_wall >= 50);     /* not before the composition time */
	assert_true(begin_wall < 1000);    /* the finger lifts at 2010 ms */
	assert_int_equal(log.ev[log.n - 1].type, GEIS_EVENT_GESTURE_END);
	assert_int_equal(log.ev[log.n - 1].timestamp, 3010);
	assert_true(utouch_geis_playback_finished(geis));
	gt_log_free(&log);
	geis_delete(geis);
}

static size_t
queued_of(Geis geis, GeisGestureId id)
{
	size_t n = 0;

	for (GeisEvent ev = geis->queue.head; ev; ev = ev->next)
		n += ev->is_gesture && ev->gesture == GEIS_GRAIL_ID(id);
	return n;
}

/*
 * Accept a gesture that is still running while some of its events wait in
 * the queue: they stay (geis 2.2 dropped them), and the gesture goes on to
 * its end.
 */
static void
test_accept_keeps_queued(void **state)
{
	Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING,
			     gt_recording("touchscreen/drag-2.evemu"),
			     GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	GeisSubscription sub;
	GeisFilter f;
	struct gt_log log = { 0 };
	GeisGestureId id = 0;
	int accepted = 0, fd;
	size_t queued = 0;
	int64_t start;

	assert_non_null(geis);
	sub = geis_subscription_new(geis, "drag", 0);
	f = geis_filter_new(geis, "f");
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL), 0);
	assert_int_equal(geis_subscription_add_filter(sub, f), 0);
	assert_int_equal(geis_subscription_activate(sub), 0);
	fd = gt_fd(geis);
	start = wall_ms();
	while (wall_ms() - start < 4000 && !(log.n &&
	       log.ev[log.n - 1].type == GEIS_EVENT_GESTURE_END)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		GeisEvent ev;

		if (poll(&p, 1, 50) <= 0)
			continue;
		if (!accepted)
			usleep(100 * 1000);   /* let several frames become due */
		geis_dispatch_events(geis);
		while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
			gt_log_add(&log, geis, ev);
			geis_event_delete(ev);
			if (!accepted && log.n) {
				id = log.ev[0].id;
				queued = queued_of(geis, id);
				if (queued == 0)
					continue;   /* try again with a fuller queue */
				assert_int_equal(geis_gesture_accept(geis, NULL, id), 0);
				accepted = 1;
				assert_int_equal(queued_of(geis, id), queued);
			}
		}
	}
	assert_true(accepted);
	assert_true(queued >= 2);
	for (size_t i = 0; i < log.n; i++)
		assert_int_equal(log.ev[i].id, id);
	assert_true(log.n > 20);
	assert_int_equal(log.ev[log.n - 1].type, GEIS_EVENT_GESTURE_END);
	gt_log_free(&log);
	geis_delete(geis);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_without_input),
		cmocka_unit_test(test_accept_keeps_queued),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
