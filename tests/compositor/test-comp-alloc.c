/*
 * No heap allocation per touch event in steady state: the executable is
 * linked with -Wl,--wrap=malloc,calloc,realloc so that every allocation of
 * the statically linked libraries is counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "comp-harness.h"
#include "heap-count.h"

/* A swipe of three touches, a tap of three, a lone touch: every path
 * (system gesture, replay, release after 60 ms). */
static void
round_of_input(struct harness *h)
{
	for (int i = 0; i < 3; i++)
		h_down(h, i, 100, 100 + 50 * i);
	h_frame(h);
	for (int step = 1; step <= 10; step++) {
		for (int i = 0; i < 3; i++)
			h_move(h, i, 100 + 10 * step, 100 + 50 * i);
		h_frame(h);
	}
	for (int i = 0; i < 3; i++)
		h_up(h, i);
	h_frame(h);
	h_wait(h, 400);
	for (int i = 0; i < 3; i++)
		h_down(h, i, 100 + 40 * i, 300);
	h_frame(h);
	for (int i = 0; i < 3; i++)
		h_up(h, i);
	h_frame(h);
	h_wait(h, 400);
	h_down(h, 0, 600, 300);
	h_frame(h);
	h_wait(h, 100);
	h_move(h, 0, 610, 300);
	h_frame(h);
	h_up(h, 0);
	h_frame(h);
	h_wait(h, 400);
	h->nlog = 0;
}

static void
steady_state(enum utouch_comp_policy policy)
{
	struct harness *h = h_new();
	uint64_t before;

	h_subscribe(h, UGGestureTypeDrag, 3, policy);
	h_subscribe(h, UGGestureTypePinch, 2, policy);
	/* the counters work: the first rounds grow the buffers */
	before = ut_test_heap_calls();
	for (int i = 0; i < 3; i++)
		round_of_input(h);
	assert_true(ut_test_heap_calls() > before);
	before = ut_test_heap_calls();
	for (int i = 0; i < 20; i++)
		round_of_input(h);
	assert_int_equal(ut_test_heap_calls() - before, 0);
	h_free(h);
}

static void
test_hold_steady_state(void **state)
{
	steady_state(UTOUCH_COMP_POLICY_HOLD);
}

static void
test_forward_steady_state(void **state)
{
	steady_state(UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold_steady_state),
		cmocka_unit_test(test_forward_steady_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
