/*
 * grail must not allocate per frame in steady state: malloc, calloc and
 * realloc are wrapped at link time (-Wl,--wrap) and counted while a
 * two-touch gesture is dragged for a few hundred frames.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_allocation_per_frame),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
