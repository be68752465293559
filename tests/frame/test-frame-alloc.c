/*
 * Steady-state frame production must not touch the heap.
 *
 * The test executable is linked with -Wl,--wrap=malloc,calloc,realloc, so
 * every allocation made by the statically linked frame library code goes
 * through the counters below; the library's own pool counter is checked
 * too.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

#include "frame/frame-private.h"
#include "heap-count.h"
#include "test-support.h"

#define NUM_TOUCHES 5

struct producer {
	UFBackendDevice device;
	UFBackendFrame prev;
	UFHandle queue;
	uint64_t time;
};

/* One frame event the way a backend makes it: touches begin, move, end. */
static void
produce_frame(struct producer *p)
{
	UFBackendFrame fr = p->prev ? frame_backend_frame_create_next(p->prev)
				    : frame_backend_frame_new();
	uint64_t cycle = p->time % 20;
	UFEvent ev;

	assert_non_null(fr);
	p->time++;
	frame_backend_frame_set_device(fr, p->device);
	frame_backend_frame_set_window_id(fr, 1);
	for (UFTouchId id = 0; id < NUM_TOUCHES; id++) {
		UFBackendTouch bt;

		if (cycle == 0) {
			bt = frame_backend_touch_new();
			frame_backend_touch_set_id(bt, id);
			frame_backend_touch_set_start_time(bt, p->time);
		} else if (frame_backend_frame_borrow_touch_by_id(fr, id, &bt) !=
			   UFStatusSuccess) {
			fail_msg("touch %u missing at cycle %u", (unsigned)id, (unsigned)cycle);
		}
		frame_backend_touch_set_time(bt, p->time);
		frame_backend_touch_set_window_pos(bt, (float)cycle, (float)id);
		frame_backend_touch_set_value(bt, UFAxisTypeX, (float)cycle * 10.0f);
		frame_backend_touch_set_value(bt, UFAxisTypeY, (float)id * 10.0f);
		if (cycle == 19)
			frame_backend_touch_set_ended(bt);
		assert_int_equal(frame_backend_frame_give_touch(fr, &bt), UFStatusSuccess);
	}
	frame_backend_frame_set_active_touches(fr, NUM_TOUCHES);

	ev = frame_event_new();
	frame_event_set_type(ev, UFEventTypeFrame);
	frame_event_set_frame(ev, fr);
	frame_event_set_time(ev, p->time);
	assert_int_equal(utouch_frame_handle_push(p->queue, ev), UFStatusSuccess);
	frame_event_unref(ev);
	if (p->prev)
		frame_backend_frame_delete(p->prev);
	p->prev = fr;
}

/* The consumer side: read every touch and its previous values. */
static void
consume(struct producer *p)
{
	UFEvent ev;

	while (frame_get_event(p->queue, &ev) == UFStatusSuccess) {
		UFFrame frame;
		float x;

		assert_int_equal(frame_event_get_property_frame_(ev, UFEventPropertyFrame, &frame),
				 UFStatusSuccess);
		assert_int_equal(frame_frame_get_num_touches(frame), NUM_TOUCHES);
		for (unsigned int i = 0; i < NUM_TOUCHES; i++) {
			UFTouch t;

			assert_int_equal(frame_frame_get_touch_by_index(frame, i, &t),
					 UFStatusSuccess);
			(void)frame_frame_get_previous_touch_value(frame, t, UFAxisTypeX, &x);
		}
		frame_event_unref(ev);
	}
}

static void
run_cycles(struct producer *p, int frames, int batch)
{
	for (int i = 0; i < frames; i += batch) {
		for (int k = 0; k < batch; k++)
			produce_frame(p);
		consume(p);
	}
}

static void
test_steady_state_no_malloc(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct producer p = { 0 };
	uint64_t pool_before, heap_before;
	struct ut_frame_pool_stats stats;

	p.device = frame_backend_device_new();
	frame_backend_device_set_window_resolution(p.device, 1.0f, 1.0f);
	assert_int_equal(utouch_frame_handle_new(&p.queue), UFStatusSuccess);

	/* warm up: fill the free lists and the queue ring */
	run_cycles(&p, 200, 8);

	pool_before = ut_frame_pool_malloc_count();
	heap_before = ut_test_heap_calls();
	run_cycles(&p, 2000, 8);
	assert_int_equal(ut_frame_pool_malloc_count() - pool_before, 0);
	assert_int_equal(ut_test_heap_calls() - heap_before, 0);

	ut_frame_pool_get_stats(&stats);
	assert_true(stats.reuses > 2000);
	assert_true(stats.cached[UT_POOL_TOUCH] > 0);

	frame_backend_frame_delete(p.prev);
	frame_backend_device_delete(p.device);
	utouch_frame_handle_delete(p.queue);
	ut_frame_pool_trim();
	ut_frame_pool_get_stats(&stats);
	for (int k = 0; k < UT_POOL_KIND_COUNT; k++)
		assert_int_equal(stats.cached[k], 0);
	UT_CLIENT_BUGS_END(5);
}

static void
test_counter_sees_allocations(void **state)
{
	/* The wrapper really counts: a cold start allocates. */
	uint64_t before;
	UFBackendFrame fr;

	ut_frame_pool_trim();
	before = ut_test_heap_calls();
	fr = frame_backend_frame_new();
	assert_true(ut_test_heap_calls() > before);
	frame_backend_frame_delete(fr);
	ut_frame_pool_trim();
}

static void *
thread_main(void *data)
{
	struct producer *p = data;

	/* objects cached on this thread are freed at thread exit (LSan checks) */
	run_cycles(p, 100, 4);
	return NULL;
}

static void
test_thread_exit_frees_pool(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct producer p = { 0 };
	pthread_t thread;

	p.device = frame_backend_device_new();
	assert_int_equal(utouch_frame_handle_new(&p.queue), UFStatusSuccess);
	assert_int_equal(pthread_create(&thread, NULL, thread_main, &p), 0);
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(p.time, 100);
	frame_backend_frame_delete(p.prev);
	frame_backend_device_delete(p.device);
	utouch_frame_handle_delete(p.queue);
	ut_frame_pool_trim();
	UT_CLIENT_BUGS_END(5);
}

/*
 * A change made through a borrowed touch copies it first (the frame before
 * shares it); when that copy cannot be made, the change is lost, and the
 * frame refuses the touch instead of taking it with the change missing.
 */
static void
test_lost_change_refused(void **state)
{
	(void)state;
	UFBackendFrame first = frame_backend_frame_new(), second;
	UFBackendTouch t = frame_backend_touch_new();
	UFTouch seen;

	assert_non_null(first);
	assert_non_null(t);
	frame_backend_touch_set_id(t, 7);
	frame_backend_touch_set_window_pos(t, 10.0f, 20.0f);
	assert_int_equal(frame_backend_frame_give_touch(first, &t), UFStatusSuccess);
	second = frame_backend_frame_create_next(first);
	assert_non_null(second);
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(second, 7, &t), UFStatusSuccess);

	ut_frame_pool_trim(); /* the copy must come from the heap */
	uint64_t failures = ut_test_heap_failures();
	ut_test_heap_fail_at(1);
	frame_backend_touch_set_window_pos(t, 30.0f, 40.0f);
	ut_test_heap_fail_at(0);
	assert_int_equal(ut_test_heap_failures(), failures + 1);
	frame_backend_touch_set_time(t, 99); /* made: the copy succeeds now */

	assert_int_equal(frame_backend_frame_give_touch(second, &t), UFStatusErrorResources);
	assert_non_null(t); /* still the producer's */
	assert_int_equal(frame_frame_get_touch_by_id(frame_backend_frame_get_frame(second), 7, &seen),
			 UFStatusSuccess);
	assert_true(frame_touch_get_window_x(seen) == 10.0f);
	assert_int_equal(frame_touch_get_time(seen), 0);
	utouch_frame_backend_touch_delete(t);

	/* borrowed again, changed with memory to spare: taken */
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(second, 7, &t), UFStatusSuccess);
	frame_backend_touch_set_window_pos(t, 30.0f, 40.0f);
	assert_int_equal(frame_backend_frame_give_touch(second, &t), UFStatusSuccess);
	assert_null(t);
	assert_int_equal(frame_frame_get_touch_by_id(frame_backend_frame_get_frame(second), 7, &seen),
			 UFStatusSuccess);
	assert_true(frame_touch_get_window_x(seen) == 30.0f);
	frame_backend_frame_delete(first);
	frame_backend_frame_delete(second);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_state_no_malloc),
		cmocka_unit_test(test_counter_sees_allocations),
		cmocka_unit_test(test_thread_exit_frees_pool),
		cmocka_unit_test(test_lost_change_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
