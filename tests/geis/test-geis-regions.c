/*
 * Regions on the window-less backends: rectangles of the screen
 * (UTOUCH_GEIS_REGION_RECT) get the gestures of the touches that began
 * inside them, in their own coordinates; other rectangles get nothing.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "geis-test.h"

static GeisSubscription
subscribe(Geis geis, const char *name, GeisRegion region)
{
	GeisSubscription sub = geis_subscription_new(geis, name, GEIS_SUBSCRIPTION_NONE);
	GeisFilter f = geis_filter_new(geis, name);
	assert_non_null(sub);
	assert_non_null(f);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL), 0);
	if (region)
		assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_REGION,
			GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ,
			utouch_geis_region_window_id(region), NULL), 0);
	assert_int_equal(geis_subscription_add_filter(sub, f), 0);
	assert_int_equal(geis_subscription_activate(sub), 0);
	return sub;
}

/* the events of window @p window, in order */
static size_t
of_window(const struct gt_log *log, int window, const struct gt_event **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < log->n && n < max; i++)
		if (log->ev[i].window == window)
			out[n++] = &log->ev[i];
	return n;
}

/*
 * drag-2's touches start around (367, 230) and (452, 230) and move down to
 * y = 499.  A rectangle at (100, 50) holding them reports the same drag
 * shifted by (-100, -50); a rectangle on the right half reports nothing.
 */
static void
test_rect_regions(void **state)
{
	(void)state;
	Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, gt_recording("touchscreen/drag-2.evemu"),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	assert_non_null(geis);
	GeisRegion left = geis_region_new(geis, "left", UTOUCH_GEIS_REGION_RECT, 100, 50, 412, 718,
					  NULL);
	GeisRegion right = geis_region_new(geis, "right", UTOUCH_GEIS_REGION_RECT, 512, 0, 512,
					   768, NULL);
	assert_non_null(left);
	assert_non_null(right);
	int lw = utouch_geis_region_window_id(left), rw = utouch_geis_region_window_id(right);
	assert_true(lw > 1);
	assert_true(rw > 1);
	assert_int_not_equal(lw, rw);
	subscribe(geis, "screen", NULL);
	subscribe(geis, "left", left);
	subscribe(geis, "right", right);

	struct gt_log log = { 0 };
	gt_run_fast(geis, &log);
	const struct gt_event *screen[128], *inleft[128], *inright[128];
	size_t ns = of_window(&log, 1, screen, 128);
	size_t nl = of_window(&log, lw, inleft, 128);
	size_t nr = of_window(&log, rw, inright, 128);
	assert_true(ns > 10);
	assert_int_equal(nl, ns);
	assert_int_equal(nr, 0);
	for (size_t i = 0; i < ns; i++) {
		assert_int_equal(inleft[i]->type, screen[i]->type);
		assert_int_equal(inleft[i]->touches, 2);
		assert_true(fabsf(inleft[i]->pos_x - (screen[i]->pos_x - 100.0f)) < 0.01f);
		assert_true(fabsf(inleft[i]->pos_y - (screen[i]->pos_y - 50.0f)) < 0.01f);
		assert_true(fabsf(inleft[i]->delta_y - screen[i]->delta_y) < 0.01f);
		for (int t = 0; t < 2; t++)
			assert_true(fabsf(inleft[i]->touch_x[t] - (screen[i]->touch_x[t] - 100.0f)) <
				    0.01f);
	}
	assert_int_equal(inleft[0]->type, GEIS_EVENT_GESTURE_BEGIN);
	assert_int_equal(inleft[nl - 1]->type, GEIS_EVENT_GESTURE_END);
	gt_log_free(&log);
	geis_delete(geis);
}

/*
 * A rectangle that only one of the two touches begins in sees a one-touch
 * world: no two-touch drag there.
 */
static void
test_touch_must_begin_inside(void **state)
{
	(void)state;
	Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, gt_recording("touchscreen/drag-2.evemu"),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	assert_non_null(geis);
	/* x from 410: holds the right touch (452) only, for its whole drag */
	GeisRegion half = geis_region_new(geis, "half", UTOUCH_GEIS_REGION_RECT, 410, 0, 614, 768,
					  NULL);
	assert_non_null(half);
	subscribe(geis, "half", half);
	struct gt_log log = { 0 };
	gt_run_fast(geis, &log);
	assert_int_equal(log.n, 0);
	gt_log_free(&log);
	geis_delete(geis);
}

static void
test_rect_errors(void **state)
{
	(void)state;
	Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, gt_recording("touchscreen/drag-2.evemu"),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
	assert_non_null(geis);
	assert_null(geis_region_new(geis, "empty", UTOUCH_GEIS_REGION_RECT, 0, 0, 0, 10, NULL));
	assert_true(geis_error_count(geis) > 0);
	assert_int_equal(geis_error_code(geis, 0), GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_region_new(geis, "negative", UTOUCH_GEIS_REGION_RECT, 0, 0, 10, -5,
				    NULL));
	assert_int_equal(utouch_geis_region_window_id(NULL), 0);
	geis_delete(geis);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rect_regions),
		cmocka_unit_test(test_touch_must_begin_inside),
		cmocka_unit_test(test_rect_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
