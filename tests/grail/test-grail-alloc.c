/*
 * grail must not allocate per frame in steady state: malloc, calloc and
 * realloc are wrapped at link time (-Wl,--wrap) and counted while a
 * two-touch gesture is dragged for a few hundred frames.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "frame/frame-private.h"
#include "grail-fixture.h"
#include "heap-count.h"

static void
drag(struct fixture *fx, unsigned int frames, float *x)
{
	UFTouchId ids[] = {1, 2, 3};
	for (unsigned int i = 0; i < frames; i++) {
		*x += 3.0f;
		float xs[] = {*x, *x + 1000.0f, *x + 2000.0f}, ys[] = {3000, 3000, 3000};
		fx->time += 10;
		fx_move_many(fx, 3, ids, xs, ys);
	}
}

static void
test_no_allocation_per_frame(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeDrag, 2, 0, 0);
	fx_subscribe(fx, UGGestureTypeTouch, 1, 0, 0);
	fx_subscribe(fx, UGGestureTypeDrag | UGGestureTypePinch, 3, 0, 0);
	fx_begin_owned(fx, 1, 1000, 3000);
	fx_begin_owned(fx, 2, 2000, 3000);
	fx_begin_owned(fx, 3, 3000, 3000);

	assert_true(ut_test_heap_calls() > 0); /* the wrappers are in place */
	float x = 1000.0f;
	drag(fx, 50, &x); /* warm up pools */
	uint64_t before = ut_test_heap_calls();
	unsigned int slices = fx->nslices;
	drag(fx, 300, &x);
	assert_true(fx->nslices > slices + 300); /* grail did work */
	assert_int_equal(ut_test_heap_calls() - before, 0);
	fx_free(fx);
}

/* One handle's life: four touches land together under drag, pinch and
 * rotate subscriptions for one to four touches (15 candidate gestures)
 * and move too little to be recognised for FRAMES frames, so that every
 * candidate's slices wait in grail's event pool; then they lift.  Returns
 * the heap calls it made outside the frame library (whose objects come
 * from its own per-thread lists). */
static uint64_t
handle_life(unsigned int frames)
{
	uint64_t before = ut_test_heap_calls(), frame_before = ut_frame_pool_malloc_count();
	struct fixture *fx = fx_new();
	for (unsigned int k = 1; k <= 4; k++)
		fx_subscribe(fx, UGGestureTypeDrag | UGGestureTypePinch | UGGestureTypeRotate,
			     k, 0, 0);
	UFTouchId ids[] = {1, 2, 3, 4};
	float xs[] = {1000, 2000, 3000, 4000}, ys[] = {3000, 3000, 3000, 3000};
	fx_begin_many(fx, 4, ids, xs, ys);
	for (unsigned int i = 0; i < frames; i++) {
		fx->time += 5;
		for (unsigned int t = 0; t < 4; t++)
			xs[t] += (i & 1) ? -0.5f : 0.5f;
		fx_move_many(fx, 4, ids, xs, ys);
	}
	for (unsigned int t = 0; t < 4; t++)
		fx_end(fx, ids[t]);
	fx_free(fx);
	return ut_test_heap_calls() - before - (ut_frame_pool_malloc_count() - frame_before);
}

static void
test_event_memory_kept_between_handles(void **state)
{
	(void)state;
	/* the first handle of the process: one-time allocations, and one
	 * chunk of events (32) that it leaves for the next pool */
	handle_life(1);
	/* takes that chunk and allocates those of 64, 128 and 256 events;
	 * leaves all four (about 160 KiB, under GR_SPARE_BYTES) */
	uint64_t first = handle_life(20);
	/* the same life again: every chunk comes from the one before */
	uint64_t second = handle_life(20);
	uint64_t third = handle_life(20);
	assert_int_equal(first - second, 3);
	assert_int_equal(second, third);

	/* twice as many events: the four chunks and a new one of 512 events;
	 * the pool keeps the largest that fit in GR_SPARE_BYTES (512 and 256
	 * events, about 250 KiB) and frees the others.  Each of the 15
	 * candidates also starts a second velocity log (struct gr_vlog): its
	 * first is full while its waiting slices still read it; all 30 are
	 * kept for the next handle too (GR_SPARE_VLOGS) */
	uint64_t heavy = handle_life(40);
	assert_int_equal(heavy - second, 1 + 15);
	/* enough for the same life again */
	assert_int_equal(handle_life(40), second);
	/* and for a smaller one */
	assert_int_equal(handle_life(20), second);
}

#define LIFE_THREADS 4
#define LIVES 25

struct lives {
	uint64_t least, most;
};

static void *
live_in_turn(void *data)
{
	struct lives *l = data;
	l->least = UINT64_MAX;
	for (unsigned int i = 0; i < LIVES; i++) {
		uint64_t n = handle_life(20);
		if (n < l->least)
			l->least = n;
		if (n > l->most)
			l->most = n;
	}
	return NULL;
}

/* The kept memory is the process's: handles made and deleted in several
 * threads at once take it and give it back through one atomic pointer
 * each for event chunks and velocity logs (ASan and UBSan run this too).
 * A life finds all it needs there, or some of it, or nothing (another
 * thread has it): it allocates no event chunk, or at most the four it
 * would need without, and no velocity log, or at most its 15. */
static void
test_event_memory_shared_by_threads(void **state)
{
	(void)state;
	handle_life(1);
	handle_life(20);
	uint64_t reused = handle_life(20);

	pthread_t threads[LIFE_THREADS];
	struct lives lives[LIFE_THREADS] = {{0}};
	for (unsigned int i = 0; i < LIFE_THREADS; i++)
		assert_int_equal(pthread_create(&threads[i], NULL, live_in_turn, &lives[i]), 0);
	for (unsigned int i = 0; i < LIFE_THREADS; i++) {
		assert_int_equal(pthread_join(threads[i], NULL), 0);
		assert_true(lives[i].least >= reused);
		assert_true(lives[i].most <= reused + 4 + 15);
	}
	/* what the threads left is whole: the next life reuses it */
	handle_life(20);
	assert_int_equal(handle_life(20), reused);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_memory_kept_between_handles),
		cmocka_unit_test(test_event_memory_shared_by_threads),
		cmocka_unit_test(test_no_allocation_per_frame),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
