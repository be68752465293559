/*
 * grail unit tests: API contracts, the recognizer's behaviours (ported from
 * the grail 3.1 regression tests and the reference notes' scenarios) and
 * the utouch bug fixes.
 */
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "grail-fixture.h"
#include "grail/grail-private.h"
#include "test-support.h"

#define FLOAT_EQ(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) < (eps))

static bool
slice_has_touches(const struct fx_slice *s, unsigned int n, const UFTouchId *ids)
{
	if (s->num_touches != n)
		return false;
	for (unsigned int i = 0; i < n; i++)
		if (s->touches[i] != ids[i])
			return false;
	return true;
}

static bool
gesture_seen(const struct fixture *fx, unsigned int id)
{
	return fx_first_of(fx, id) != NULL;
}

/* ------------------------------------------------------------------ */
/* API                                                                 */

static void
test_handle_basics(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	(void)state;
	UGHandle h = NULL;
	UGEvent ev = NULL;

	assert_int_equal(grail_new(NULL), UGStatusErrorInvalidValue);
	assert_int_equal(grail_new(&h), UGStatusSuccess);
	assert_non_null(h);
	assert_true(grail_get_fd(h) >= 0);
	assert_int_equal(grail_get_fd(NULL), -1);
	assert_int_equal(grail_get_event(h, &ev), UGStatusErrorNoEvent);
	assert_int_equal(grail_get_event(h, NULL), UGStatusErrorInvalidValue);
	assert_int_equal(grail_get_event(NULL, &ev), UGStatusErrorInvalidValue);
	assert_int_equal(grail_accept_gesture(h, 0), UGStatusErrorInvalidGesture);
	assert_int_equal(grail_reject_gesture(h, 7), UGStatusErrorInvalidGesture);
	assert_int_equal(grail_accept_gesture(NULL, 0), UGStatusErrorInvalidValue);
	assert_int_equal(grail_next_timeout(h), 0);
	assert_int_equal(grail_next_timeout(NULL), 0);
	grail_update_time(h, 5000);
	grail_update_time(NULL, 5000);
	grail_process_frame_event(h, NULL);
	grail_process_frame_event(NULL, NULL);

	/* NULL objects give neutral values */
	assert_int_equal(grail_slice_get_id(NULL), 0);
	assert_null(grail_slice_get_transform(NULL));
	assert_null(grail_slice_get_frame(NULL));
	assert_int_equal(grail_slice_get_canceled(NULL), 0);
	assert_int_equal(grail_event_get_time(NULL), 0);
	assert_int_equal(grail_event_get_property(NULL, UGEventPropertyTime, &ev),
			 UGStatusErrorInvalidValue);
	grail_event_ref(NULL);
	grail_event_unref(NULL);
	grail_set_log_handler(NULL, NULL, NULL);
	grail_delete(h);
	grail_delete(NULL);
	UT_CLIENT_BUGS_END(16);
}

static void
test_default_subscription(void **state)
{
	(void)state;
	UGSubscription sub;
	UGGestureTypeMask mask = 99;
	unsigned int n = 99;
	int atomic = 99;

	assert_int_equal(grail_subscription_new(&sub), UGStatusSuccess);
	assert_int_equal(grail_subscription_get_property(sub, UGSubscriptionPropertyMask, &mask),
			 UGStatusSuccess);
	assert_int_equal(mask, 0);
	grail_subscription_get_property(sub, UGSubscriptionPropertyTouchesStart, &n);
	assert_int_equal(n, 2);
	grail_subscription_get_property(sub, UGSubscriptionPropertyTouchesMinimum, &n);
	assert_int_equal(n, 0);
	grail_subscription_get_property(sub, UGSubscriptionPropertyTouchesMaximum, &n);
	assert_int_equal(n, 0);
	grail_subscription_get_property(sub, UGSubscriptionPropertyAtomicGestures, &atomic);
	assert_int_equal(atomic, 0);
	grail_subscription_delete(sub);
}

static void
test_get_set_subscription(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription sub;
	UFDevice dev = NULL;
	UFWindowId win = 0, w = 42;
	UGGestureTypeMask mask = UGGestureTypeDrag | UGGestureTypeTap, m = 0;
	unsigned int start = 3, min = 2, max = 4, v = 0;
	int atomic = 1, a = 0;

	assert_int_equal(grail_subscription_new(&sub), UGStatusSuccess);
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyDevice,
							 &fx->device),
			 UGStatusSuccess);
	assert_int_equal(grail_subscription_get_property(sub, UGSubscriptionPropertyDevice,
							 &dev),
			 UGStatusSuccess);
	assert_ptr_equal(dev, fx->device);
	grail_subscription_set_property(sub, UGSubscriptionPropertyWindow, &w);
	grail_subscription_get_property(sub, UGSubscriptionPropertyWindow, &win);
	assert_int_equal(win, 42);
	grail_subscription_set_property(sub, UGSubscriptionPropertyMask, &mask);
	grail_subscription_get_property(sub, UGSubscriptionPropertyMask, &m);
	assert_int_equal(m, mask);
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesStart, &start);
	grail_subscription_get_property(sub, UGSubscriptionPropertyTouchesStart, &v);
	assert_int_equal(v, 3);
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesMinimum, &min);
	grail_subscription_get_property(sub, UGSubscriptionPropertyTouchesMinimum, &v);
	assert_int_equal(v, 2);
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesMaximum, &max);
	grail_subscription_get_property(sub, UGSubscriptionPropertyTouchesMaximum, &v);
	assert_int_equal(v, 4);
	grail_subscription_set_property(sub, UGSubscriptionPropertyAtomicGestures, &atomic);
	grail_subscription_get_property(sub, UGSubscriptionPropertyAtomicGestures, &a);
	assert_int_equal(a, 1);
	grail_subscription_delete(sub);
	fx_free(fx);
}

static void
test_default_subscription_limits(void **state)
{
	(void)state;
	UGSubscription sub;
	uint64_t t = 0;
	float f = 0;

	assert_int_equal(grail_subscription_new(&sub), UGStatusSuccess);
	grail_subscription_get_property(sub, UGSubscriptionPropertyDragTimeout, &t);
	assert_int_equal(t, 300);
	grail_subscription_get_property(sub, UGSubscriptionPropertyDragThreshold, &f);
	FLOAT_EQ(f, 0.0026, 1e-7);
	grail_subscription_get_property(sub, UGSubscriptionPropertyPinchTimeout, &t);
	assert_int_equal(t, 300);
	grail_subscription_get_property(sub, UGSubscriptionPropertyPinchThreshold, &f);
	FLOAT_EQ(f, 1.1, 1e-6);
	grail_subscription_get_property(sub, UGSubscriptionPropertyRotateTimeout, &t);
	assert_int_equal(t, 500);
	grail_subscription_get_property(sub, UGSubscriptionPropertyRotateThreshold, &f);
	FLOAT_EQ(f, 2 * M_PI / 50, 1e-6);
	grail_subscription_get_property(sub, UGSubscriptionPropertyTapTimeout, &t);
	assert_int_equal(t, 300);
	grail_subscription_get_property(sub, UGSubscriptionPropertyTapThreshold, &f);
	FLOAT_EQ(f, 0.0026, 1e-7);
	grail_subscription_delete(sub);
}

static void
test_set_get_subscription_limits(void **state)
{
	(void)state;
	static const UGSubscriptionProperty tprops[] = {
		UGSubscriptionPropertyDragTimeout, UGSubscriptionPropertyPinchTimeout,
		UGSubscriptionPropertyRotateTimeout, UGSubscriptionPropertyTapTimeout};
	static const UGSubscriptionProperty fprops[] = {
		UGSubscriptionPropertyDragThreshold, UGSubscriptionPropertyPinchThreshold,
		UGSubscriptionPropertyRotateThreshold, UGSubscriptionPropertyTapThreshold};
	UGSubscription sub;

	assert_int_equal(grail_subscription_new(&sub), UGStatusSuccess);
	for (unsigned int i = 0; i < 4; i++) {
		uint64_t t = 1000 + i, back = 0;
		float f = 0.5f + (float)i, fback = 0;
		assert_int_equal(grail_subscription_set_property(sub, tprops[i], &t),
				 UGStatusSuccess);
		assert_int_equal(grail_subscription_get_property(sub, tprops[i], &back),
				 UGStatusSuccess);
		assert_int_equal(back, 1000 + i);
		assert_int_equal(grail_subscription_set_property(sub, fprops[i], &f),
				 UGStatusSuccess);
		assert_int_equal(grail_subscription_get_property(sub, fprops[i], &fback),
				 UGStatusSuccess);
		FLOAT_EQ(fback, 0.5f + (float)i, 1e-6);
	}
	grail_subscription_delete(sub);
}

static void
test_subscription_validation(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription sub;
	UFDevice nodev = NULL;
	UFWindowId nowin = 0, win = FX_WINDOW;
	UGGestureTypeMask nomask = 0, mask = UGGestureTypeDrag;
	unsigned int zero = 0, six = 6, three = 3, two = 2, four = 4;
	float neg = -1.0f, nan_value = NAN;

	assert_int_equal(grail_subscription_new(NULL), UGStatusErrorInvalidValue);
	assert_int_equal(grail_subscription_new(&sub), UGStatusSuccess);
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyDevice,
							 &nodev),
			 UGStatusErrorInvalidValue);
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyWindow,
							 &nowin),
			 UGStatusErrorInvalidValue);
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyMask,
							 &nomask),
			 UGStatusErrorInvalidValue);
	assert_int_equal(grail_subscription_set_property(
				 sub, UGSubscriptionPropertyTouchesStart, &zero),
			 UGStatusErrorInvalidValue);
	assert_int_equal(grail_subscription_set_property(
				 sub, UGSubscriptionPropertyTouchesMaximum, &six),
			 UGStatusErrorInvalidValue);
	assert_int_equal(grail_subscription_set_property(
				 sub, UGSubscriptionPropertyDragThreshold, &neg),
			 UGStatusErrorInvalidValue);
	assert_int_equal(grail_subscription_set_property(
				 sub, UGSubscriptionPropertyPinchThreshold, &nan_value),
			 UGStatusErrorInvalidValue);
	{
		float inf = INFINITY, minus_inf = -INFINITY;

		for (UGSubscriptionProperty p = UGSubscriptionPropertyDragThreshold;
		     p <= UGSubscriptionPropertyTapThreshold; p++) {
			if (p == UGSubscriptionPropertyDragTimeout ||
			    p == UGSubscriptionPropertyPinchTimeout ||
			    p == UGSubscriptionPropertyRotateTimeout ||
			    p == UGSubscriptionPropertyTapTimeout)
				continue;
			assert_int_equal(grail_subscription_set_property(sub, p, &inf),
					 UGStatusErrorInvalidValue);
			assert_int_equal(grail_subscription_set_property(sub, p, &minus_inf),
					 UGStatusErrorInvalidValue);
		}
	}
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyMask, NULL),
			 UGStatusErrorInvalidValue);
	assert_int_equal(grail_subscription_set_property(sub, (UGSubscriptionProperty)99,
							 &mask),
			 UGStatusErrorUnknownProperty);
	assert_int_equal(grail_subscription_get_property(sub, (UGSubscriptionProperty)99,
							 &mask),
			 UGStatusErrorUnknownProperty);

	/* incomplete: no device, window or mask yet */
	assert_int_equal(grail_subscription_activate(fx->grail, sub),
			 UGStatusErrorInvalidSubscription);
	grail_subscription_set_property(sub, UGSubscriptionPropertyDevice, &fx->device);
	assert_int_equal(grail_subscription_activate(fx->grail, sub),
			 UGStatusErrorInvalidSubscription);
	grail_subscription_set_property(sub, UGSubscriptionPropertyWindow, &win);
	assert_int_equal(grail_subscription_activate(fx->grail, sub),
			 UGStatusErrorInvalidSubscription);
	grail_subscription_set_property(sub, UGSubscriptionPropertyMask, &mask);

	/* start outside [min, max] */
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesStart, &three);
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesMaximum, &two);
	assert_int_equal(grail_subscription_activate(fx->grail, sub),
			 UGStatusErrorInvalidSubscription);
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesMaximum, &four);
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesMinimum, &four);
	assert_int_equal(grail_subscription_activate(fx->grail, sub),
			 UGStatusErrorInvalidSubscription);
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesMinimum, &two);
	assert_int_equal(grail_subscription_activate(fx->grail, sub), UGStatusSuccess);
	assert_int_equal(grail_subscription_activate(fx->grail, sub), UGStatusSuccess);
	assert_int_equal(grail_subscription_activate(NULL, sub), UGStatusErrorInvalidValue);

	/* a second subscription with other atomicity on the same window */
	UGSubscription other = fx_subscribe(fx, UGGestureTypeTap, 1, 0, 0);
	UGSubscription atomic;
	int one = 1;
	assert_int_equal(grail_subscription_new(&atomic), UGStatusSuccess);
	grail_subscription_set_property(atomic, UGSubscriptionPropertyDevice, &fx->device);
	grail_subscription_set_property(atomic, UGSubscriptionPropertyWindow, &win);
	grail_subscription_set_property(atomic, UGSubscriptionPropertyMask, &mask);
	grail_subscription_set_property(atomic, UGSubscriptionPropertyAtomicGestures, &one);
	assert_int_equal(grail_subscription_activate(fx->grail, atomic),
			 UGStatusErrorAtomicity);
	/* once the window has no subscriptions left, the other kind is fine */
	grail_subscription_deactivate(fx->grail, sub);
	grail_subscription_deactivate(fx->grail, other);
	assert_int_equal(grail_subscription_activate(fx->grail, atomic), UGStatusSuccess);

	grail_subscription_delete(sub);
	grail_subscription_delete(atomic); /* still active: detaches itself */
	/* deactivating what was deleted since finds it nowhere and does not
	 * read it (it read the freed subscription: ASan) */
	grail_subscription_deactivate(fx->grail, atomic);
	grail_subscription_deactivate(fx->grail, sub);
	fx_free(fx);
	UT_CLIENT_BUGS_END(3);
}

/* ------------------------------------------------------------------ */
/* ports of the grail 3.1 regression tests                             */

/*
 * LP #1023397: a 3-touch gesture loses a touch and gains a new one within
 * the composition time.  The old gesture has physically ended, so it must
 * not be expanded; the only new gesture is the match {19, 20, 21}.
 */
static void
test_intermittent_3touch(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeTouch, 3, 0, 3);

	fx_begin_owned(fx, 18, 1000, 1000);
	fx->time += 1;
	fx_begin_owned(fx, 19, 2000, 1000);
	fx->time += 1;
	fx_begin_owned(fx, 20, 3000, 1000);
	assert_true(gesture_seen(fx, 0));
	fx->time += 1;
	fx_end(fx, 18);
	fx->time += 1;
	fx_begin_owned(fx, 21, 4000, 1000);
	fx->time += 1;
	fx_move(fx, 21, 4010, 1000);

	assert_int_equal(fx_count_gestures(fx), 2);
	const struct fx_slice *s = fx_first_of(fx, 1);
	assert_non_null(s);
	const UFTouchId ids[] = {19, 20, 21};
	assert_true(slice_has_touches(s, 3, ids));
	assert_int_equal(s->state, UGGestureStateBegin);

	/* no timer is due (Touch has no timeout), but once the client
	 * updates the time, gesture 0 finishes construction and ends */
	assert_int_equal(grail_next_timeout(fx->grail), 0);
	fx_update_time(fx, fx->time + 100);
	assert_int_equal(fx_count(fx, 0, UGGestureStateEnd), 1);
	assert_int_equal(fx_count(fx, 1, UGGestureStateEnd), 0);

	fx->time += 10;
	fx_end(fx, 19);
	fx_end(fx, 20);
	fx_end(fx, 21);
	assert_int_equal(fx_count_gestures(fx), 2);
	fx_check_all_ended(fx);
	fx_free(fx);
}

/* LP #1020315: a touch that ends before the composition time. */
static void
test_quick_tap_ends_with_construction_finished(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeTouch, 1, 1, 1);

	fx_begin(fx, 1, 5000, 5000);
	assert_int_equal(fx->nslices, 0); /* not owned yet */
	fx_own(fx, 1);
	assert_int_equal(fx->nslices, 2);
	assert_int_equal(fx->slices[0].state, UGGestureStateBegin);
	assert_int_equal(fx->slices[0].cf, 0);
	assert_int_equal(fx->slices[1].state, UGGestureStateUpdate);
	assert_int_equal(fx->slices[1].cf, 0);
	fx->time += 20;
	fx_end(fx, 1);
	assert_int_equal(fx->nslices, 4);
	assert_int_equal(fx->slices[3].state, UGGestureStateEnd);
	assert_int_equal(fx->slices[3].cf, 1);
	assert_int_equal(fx->slices[3].recognized, UGGestureTypeTouch);
	fx_free(fx);
	/* nobody accepted it, so deleting the handle rejected the touch */
}

/* LP #1026962: a pending-end touch keeps the gesture quiet until owned. */
static void
test_pending_end_impedes_gestures(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeTouch, 3, 0, 0);

	fx_begin(fx, 1, 1000, 1000);
	fx_begin(fx, 2, 2000, 1000);
	fx_begin(fx, 3, 3000, 1000);
	fx_own(fx, 1);
	fx_own(fx, 2);
	fx_pending_end(fx, 3);
	fx->time += 100;
	fx_update_time(fx, fx->time);
	assert_int_equal(fx->nslices, 0);

	fx_own(fx, 3);
	fx_end(fx, 3);
	assert_int_equal(fx_count_gestures(fx), 1);
	assert_int_equal(fx_count(fx, 0, UGGestureStateEnd), 1);
	assert_int_equal(fx->slices[fx->nslices - 1].state, UGGestureStateEnd);
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_free(fx);
}

/*
 * Two touches begin at @start; grail_update_time() at @back (before
 * @start) finishes their construction (@past) or not, and a time 100 ms
 * after @start finishes it in any case.
 */
static void
check_update_time_back(uint64_t start, uint64_t back, bool past)
{
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeTouch, 2, 0, 0);

	fx->time = start;
	fx_begin_owned(fx, 1, 1000, 1000);
	fx_begin_owned(fx, 2, 2000, 1000);
	assert_int_equal(fx->nslices, 1);
	assert_int_equal(fx->slices[0].cf, 0);
	fx_update_time(fx, start - 10);
	fx_update_time(fx, back);
	assert_int_equal(fx->nslices, past ? 2 : 1);
	fx_update_time(fx, start + 100);
	assert_int_equal(fx->nslices, 2);
	assert_int_equal(fx->slices[1].state, UGGestureStateUpdate);
	assert_int_equal(fx->slices[1].cf, 1);
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_check_all_ended(fx);
	fx_free(fx);
}

/*
 * grail_update_time() with a time up to GR_CLOCK_SLACK (10 s) before the
 * touches began is "not yet": nothing finishes construction, no timeout
 * fires.  grail 3.1 computed time - start unsigned, so any earlier time
 * wrapped into "long past" (doc/grail.md, differences).
 */
static void
test_update_time_before_start_is_not_yet(void **state)
{
	(void)state;
	check_update_time_back(50000, 40000, false);
}

/*
 * A time more than 10 s before the touches began is a clock that jumped
 * back (or another clock): it counts as long past, as in grail 3.1, so
 * construction finishes at once instead of hours later.  grail 3.1's own
 * StillGestureFinishesConstruction relies on this (its touches carry the
 * previous test's time, 3.8 hours after its grail_update_time(1354)).
 */
static void
test_update_time_far_before_start_is_past(void **state)
{
	(void)state;
	check_update_time_back(13688880, 1354, true);
	check_update_time_back(50000, 50000 - 10001, true);
}

static void
test_still_gesture_finishes_construction(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeTouch, 2, 0, 0);

	fx_begin_owned(fx, 1, 1000, 1000);
	fx_begin_owned(fx, 2, 2000, 1000);
	assert_int_equal(fx->nslices, 1);
	assert_int_equal(fx->slices[0].cf, 0);
	fx_update_time(fx, fx->time + 100);
	assert_int_equal(fx->nslices, 2);
	assert_int_equal(fx->slices[1].state, UGGestureStateUpdate);
	assert_int_equal(fx->slices[1].cf, 1);
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_check_all_ended(fx);
	fx_free(fx);
}

/* ------------------------------------------------------------------ */
/* scenarios                                                           */

/*
 * Four touches in a square, A(0) B(1) C(2) D(3), A-C and B-D diagonals.
 * B and D slide together, so every side changes length and both
 * diagonals keep theirs.
 */
static void
play_square(struct fixture *fx, unsigned int steps)
{
	fx_begin_owned(fx, 1, 2000, 2000); /* A */
	fx->time += 5;
	fx_begin_owned(fx, 2, 6000, 2000); /* B */
	fx->time += 5;
	fx_begin_owned(fx, 3, 6000, 6000); /* C */
	fx->time += 5;
	fx_begin_owned(fx, 4, 2000, 6000); /* D */
	for (unsigned int i = 1; i <= steps; i++) {
		float d = 300.0f * (float)i;
		UFTouchId ids[] = {2, 4};
		float xs[] = {6000 + d, 2000 + d};
		float ys[] = {2000 + d, 6000 + d};
		fx->time += 20;
		fx_move_many(fx, 2, ids, xs, ys);
	}
}

static void
test_seed_example_pinch_pairs(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypePinch, 2, 0, 0);

	play_square(fx, 5);
	/* ids: 0 AB, 1 AC, 2 BC, 3 AD, 4 BD, 5 CD */
	assert_true(gesture_seen(fx, 0));
	assert_false(gesture_seen(fx, 1));
	assert_true(gesture_seen(fx, 2));
	assert_true(gesture_seen(fx, 3));
	assert_false(gesture_seen(fx, 4));
	assert_true(gesture_seen(fx, 5));
	const UFTouchId ab[] = {1, 2}, bc[] = {2, 3}, ad[] = {1, 4}, cd[] = {3, 4};
	assert_true(slice_has_touches(fx_first_of(fx, 0), 2, ab));
	assert_true(slice_has_touches(fx_first_of(fx, 2), 2, bc));
	assert_true(slice_has_touches(fx_first_of(fx, 3), 2, ad));
	assert_true(slice_has_touches(fx_first_of(fx, 5), 2, cd));
	assert_int_equal(fx_last_of(fx, 0)->recognized, UGGestureTypePinch);
	/* the diagonals time out after 300 ms and are rejected quietly */
	fx_run_timers(fx, fx->time + 400);
	assert_false(gesture_seen(fx, 1));
	assert_false(gesture_seen(fx, 4));
	assert_int_equal(grail_reject_gesture(fx->grail, 1), UGStatusErrorInvalidGesture);
	fx_free(fx);
}

static void
test_bug_pinch_game(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypePinch, 2, 0, 0);

	play_square(fx, 5);
	unsigned int before = fx->nslices;
	assert_int_equal(grail_accept_gesture(fx->grail, 0), UGStatusSuccess); /* AB */
	assert_int_equal(grail_accept_gesture(fx->grail, 5), UGStatusSuccess); /* CD */
	/* AD and BC were implicitly rejected */
	assert_int_equal(grail_accept_gesture(fx->grail, 2), UGStatusErrorInvalidGesture);
	assert_int_equal(grail_accept_gesture(fx->grail, 3), UGStatusErrorInvalidGesture);
	fx_process(fx);
	assert_true(fx->nslices > before);
	/* the client had seen AD and BC, so each got a cancelled End */
	const struct fx_slice *e2 = fx_last_of(fx, 2), *e3 = fx_last_of(fx, 3);
	assert_int_equal(e2->state, UGGestureStateEnd);
	assert_int_equal(e2->canceled, 1);
	assert_int_equal(e3->state, UGGestureStateEnd);
	assert_int_equal(e3->canceled, 1);
	for (UFTouchId t = 1; t <= 4; t++) {
		assert_int_equal(fx->accepted[t], 1);
		assert_int_equal(fx->rejected[t], 0);
	}
	fx->time += 20;
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_end(fx, 3);
	fx_end(fx, 4);
	assert_int_equal(fx_last_of(fx, 0)->state, UGGestureStateEnd);
	assert_int_equal(fx_last_of(fx, 0)->canceled, 0);
	assert_int_equal(fx_last_of(fx, 5)->state, UGGestureStateEnd);
	fx_check_all_ended(fx);
	fx_free(fx);
}

static void
test_construction_finished_example(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription one = fx_subscribe(fx, UGGestureTypeDrag, 1, 0, 0);
	UGSubscription two = fx_subscribe(fx, UGGestureTypeDrag, 2, 0, 0);

	fx_begin_owned(fx, 1, 2000, 2000);
	fx->time += 10;
	fx_begin_owned(fx, 2, 3000, 2000);
	for (int i = 1; i <= 10; i++) {
		UFTouchId ids[] = {1, 2};
		float xs[] = {2000.0f + 200.0f * (float)i, 3000.0f + 200.0f * (float)i};
		float ys[] = {2000, 2000};
		fx->time += 15;
		fx_move_many(fx, 2, ids, xs, ys);
	}
	unsigned int n1 = 0, n2 = 0, begin2 = UINT32_MAX;
	for (unsigned int i = 0; i < fx->nslices; i++) {
		const struct fx_slice *s = &fx->slices[i];
		if (s->state == UGGestureStateBegin && s->sub == one)
			n1++;
		if (s->state == UGGestureStateBegin && s->sub == two) {
			n2++;
			begin2 = i;
		}
	}
	assert_int_equal(n1, 2);
	assert_int_equal(n2, 1);
	for (unsigned int i = 0; i < begin2; i++)
		if (fx->slices[i].sub == one)
			assert_int_equal(fx->slices[i].cf, 0);
	fx_free(fx);
}

static void
test_swipe_thresholds(void **state)
{
	(void)state;
	for (int fast = 0; fast <= 1; fast++) {
		struct fixture *fx = fx_new();
		UGSubscription sub = fx_subscribe(fx, UGGestureTypeDrag, 2, 0, 0);
		float thr = 100.0f / 3764.70f; /* 100 px */
		uint64_t to = 500;
		grail_subscription_set_property(sub, UGSubscriptionPropertyDragThreshold, &thr);
		grail_subscription_set_property(sub, UGSubscriptionPropertyDragTimeout, &to);

		fx_begin_owned(fx, 1, 2000, 5000);
		fx_begin_owned(fx, 2, 3000, 5000);
		/* 1200 units = 123 px; fast: within 0.2 s, slow: over 1.2 s */
		for (int i = 1; i <= 12; i++) {
			UFTouchId ids[] = {1, 2};
			float xs[] = {2000.0f + 100.0f * (float)i, 3000.0f + 100.0f * (float)i};
			float ys[] = {5000, 5000};
			fx_run_timers(fx, fx->time + (fast ? 16 : 100));
			fx_move_many(fx, 2, ids, xs, ys);
		}
		if (fast) {
			assert_true(gesture_seen(fx, 0));
			assert_int_equal(fx_last_of(fx, 0)->recognized, UGGestureTypeDrag);
		} else {
			assert_int_equal(fx->nslices, 0);
			assert_int_equal(grail_accept_gesture(fx->grail, 0),
					 UGStatusErrorInvalidGesture);
			/* both touches were given back */
			assert_int_equal(fx->rejected[1], 1);
			assert_int_equal(fx->rejected[2], 1);
		}
		fx_free(fx);
	}
}

static void
test_three_touch_move_zero_threshold(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription sub = fx_subscribe(fx, UGGestureTypeDrag, 3, 0, 0);
	float zero = 0.0f;
	grail_subscription_set_property(sub, UGSubscriptionPropertyDragThreshold, &zero);

	fx_begin_owned(fx, 1, 1000, 1000);
	fx_begin_owned(fx, 2, 2000, 1000);
	fx_begin_owned(fx, 3, 3000, 1000);
	assert_int_equal(fx->nslices, 0);
	fx->time += 5;
	fx_move(fx, 1, 1010, 1000);
	assert_int_equal(fx->nslices, 2);
	assert_int_equal(fx->slices[0].state, UGGestureStateBegin);
	assert_int_equal(fx->slices[1].recognized, UGGestureTypeDrag);
	FLOAT_EQ(fx->slices[1].T[0][2], 10.0 * 1024.0 / 10000.0 / 3.0, 1e-3);
	fx_free(fx);
}

static void
play_rotation(struct fixture *fx, double total)
{
	fx_begin_owned(fx, 1, 4000, 5000);
	fx_begin_owned(fx, 2, 6000, 5000);
	for (int i = 1; i <= 10; i++) {
		double a = total * i / 10.0;
		UFTouchId ids[] = {1, 2};
		/* rotate about (5000, 5000) in window pixels, i.e. anisotropic units */
		float dx = (float)(1000.0 * cos(a)), dy = (float)(1000.0 * sin(a));
		float xs[] = {5000 - dx, 5000 + dx};
		float ys[] = {5000 - dy * 1024.0f / 768.0f, 5000 + dy * 1024.0f / 768.0f};
		fx->time += 20;
		fx_move_many(fx, 2, ids, xs, ys);
	}
}

static void
test_rotate_default_threshold(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeRotate, 2, 0, 0);
	play_rotation(fx, 2 * M_PI / 40); /* 9 degrees within 0.2 s */
	assert_true(gesture_seen(fx, 0));
	const struct fx_slice *s = fx_last_of(fx, 0);
	assert_int_equal(s->recognized, UGGestureTypeRotate);
	/* the cumulative transform is the rotation */
	FLOAT_EQ(atan2(s->T[1][0], s->T[0][0]), 2 * M_PI / 40, 1e-3);
	FLOAT_EQ(hypot(s->T[0][0], s->T[1][0]), 1.0, 1e-3);
	fx_free(fx);

	fx = fx_new();
	fx_subscribe(fx, UGGestureTypeRotate, 2, 0, 0);
	play_rotation(fx, 2 * M_PI / 72); /* 5 degrees: below 1/50 rev */
	assert_false(gesture_seen(fx, 0));
	fx_free(fx);
}

static void
test_tap_vs_drag(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription tap = fx_subscribe(fx, UGGestureTypeTap, 1, 0, 0);
	UGSubscription drag = fx_subscribe(fx, UGGestureTypeDrag, 1, 0, 0);

	fx_begin_owned(fx, 1, 5000, 5000);
	fx->time += 80;
	fx_end(fx, 1);
	/* gesture 0 is the tap subscription's */
	assert_true(gesture_seen(fx, 0));
	assert_ptr_equal(fx_first_of(fx, 0)->sub, tap);
	assert_int_equal(fx_last_of(fx, 0)->recognized, UGGestureTypeTap);
	assert_int_equal(fx_last_of(fx, 0)->state, UGGestureStateEnd);
	assert_false(gesture_seen(fx, 1));

	/* now a drag: no tap */
	fx->time += 1000;
	fx_begin_owned(fx, 2, 5000, 5000);
	for (int i = 1; i <= 5; i++) {
		fx->time += 20;
		fx_move(fx, 2, 5000.0f + 200.0f * (float)i, 5000);
	}
	fx_end(fx, 2);
	assert_false(gesture_seen(fx, 2));
	assert_true(gesture_seen(fx, 3));
	assert_ptr_equal(fx_first_of(fx, 3)->sub, drag);
	assert_int_equal(fx_last_of(fx, 3)->recognized, UGGestureTypeDrag);
	fx_free(fx);
}

static void
test_tap_timeout_zero_means_no_limit(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription tap = fx_subscribe(fx, UGGestureTypeTap, 1, 0, 0);
	uint64_t zero = 0;
	grail_subscription_set_property(tap, UGSubscriptionPropertyTapTimeout, &zero);

	fx_begin_owned(fx, 1, 5000, 5000);
	assert_int_equal(grail_next_timeout(fx->grail), 0); /* no time limit */
	fx->time += 2000;
	fx_end(fx, 1);
	assert_int_equal(fx_last_of(fx, 0)->recognized, UGGestureTypeTap);
	fx_free(fx);
}

/*
 * An atomic gesture whose touch lifts in one frame and whose new touch
 * lands in the next keeps its touch count, so its slices go on without a
 * new start; their touch ids must still follow the change (grail writes
 * them again only when the gesture's touches changed).
 */
static void
test_atomic_touch_swap_keeps_ids_current(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe_atomic(fx, UGGestureTypeTouch, 2, 1, 5);

	fx_begin_owned(fx, 1, 1000, 1000);
	fx_begin_owned(fx, 2, 2000, 1000);
	fx_run_timers(fx, fx->time + 100);
	assert_true(fx->nslices >= 1);
	unsigned int id = fx->slices[0].id;
	const struct fx_slice *s = fx_last_of(fx, id);
	assert_int_equal(s->num_touches, 2);
	assert_int_equal(s->touches[0], 1);
	assert_int_equal(s->touches[1], 2);

	fx->time += 10;
	fx_end(fx, 2);
	fx->time += 10;
	fx_begin_owned(fx, 3, 3000, 1000);
	fx->time += 10;
	fx_move(fx, 3, 3000, 1100);
	s = fx_last_of(fx, id);
	assert_int_equal(s->state, UGGestureStateUpdate);
	assert_int_equal(s->num_touches, 2);
	assert_int_equal(s->touches[0], 1);
	assert_int_equal(s->touches[1], 3);

	fx->time += 10;
	fx_end(fx, 1);
	fx_end(fx, 3);
	fx_check_all_ended(fx);
	fx_free(fx);
}

static void
test_atomic_mode(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe_atomic(fx, UGGestureTypeTouch, 2, 2, 2);
	fx_subscribe_atomic(fx, UGGestureTypeTouch, 3, 3, 3);

	fx_begin_owned(fx, 1, 1000, 1000);
	fx->time += 5;
	fx_begin_owned(fx, 2, 2000, 1000);
	fx->time += 5;
	fx_begin_owned(fx, 3, 3000, 1000);
	/* nothing before the composition time is over */
	assert_int_equal(fx->nslices, 0);
	assert_int_equal(grail_next_timeout(fx->grail), 1000 + 10 + 60);
	fx_run_timers(fx, fx->time + 100);
	/* only the 3-touch gesture survived and was accepted by grail */
	assert_true(fx->nslices >= 2);
	for (unsigned int i = 0; i < fx->nslices; i++)
		assert_int_equal(fx->slices[i].num_touches, 3);
	unsigned int id = fx->slices[0].id;
	assert_int_equal(fx->slices[fx->nslices - 1].cf, 1);
	assert_int_equal(fx->accepted[1], 1);
	assert_int_equal(fx->accepted[3], 1);
	assert_int_equal(grail_accept_gesture(fx->grail, id), UGStatusErrorInvalidGesture);
	fx->time += 10;
	fx_end(fx, 1);
	assert_int_equal(fx_last_of(fx, id)->state, UGGestureStateEnd);
	fx_end(fx, 2);
	fx_end(fx, 3);
	fx_check_all_ended(fx);
	fx_free(fx);
}

/* ------------------------------------------------------------------ */
/* cut-off input (a recording or stream that stops with fingers down)  */

/* Issue 26.8: one finger lands and the recording stops.  The end that
 * closes the touch is no lift: grail 3.1 never saw it and delivered
 * nothing; a tap recognized from it would be invented. */
static void
test_cut_off_invents_no_tap(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeTap, 1, 1, 0);
	const UFTouchId one[] = {1};

	fx_begin_owned(fx, 1, 5000, 5000);
	fx->time += 30;
	fx_cut_off(fx, 1, one);
	assert_int_equal(fx->nslices, 0);
	fx_run_timers(fx, fx->time + 2000);
	assert_int_equal(fx->nslices, 0);
	assert_int_equal(fx->rejected[1], 1);
	assert_int_equal(fx->accepted[1], 0);
	assert_int_equal(grail_next_timeout(fx->grail), 0);

	/* the same touch lifted for real is a tap */
	fx->time += 1000;
	fx_begin_owned(fx, 2, 5000, 5000);
	fx->time += 30;
	fx_end(fx, 2);
	assert_true(fx->nslices > 0);
	assert_int_equal(fx->slices[fx->nslices - 1].recognized, UGGestureTypeTap);
	assert_int_equal(fx->slices[fx->nslices - 1].state, UGGestureStateEnd);
	assert_int_equal(fx->slices[fx->nslices - 1].canceled, 0);
	fx_free(fx);
}

/* Nor a hold later, nor anything from a two-finger tap cut short. */
static void
test_cut_off_invents_no_hold_or_two_finger_tap(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeHold | UGGestureTypeTap, 1, 1, 0);
	fx_subscribe(fx, UGGestureTypeTap, 2, 2, 2);
	const UFTouchId both[] = {1, 2};

	fx_begin_owned(fx, 1, 5000, 5000);
	fx->time += 10;
	fx_begin_owned(fx, 2, 5500, 5000);
	fx->time += 40;
	fx_cut_off(fx, 2, both);
	fx_run_timers(fx, fx->time + 2000);
	assert_int_equal(fx->nslices, 0);
	assert_int_equal(fx->rejected[1], 1);
	assert_int_equal(fx->rejected[2], 1);
	fx_free(fx);
}

/* A drag the client saw ends (a cancelled End: it did not complete), with
 * nothing recognized from the cut: the events it already had stay. */
static void
test_cut_off_ends_seen_drag(void **state)
{
	(void)state;
	for (int accept = 0; accept <= 1; accept++) {
		struct fixture *fx = fx_new();
		fx->policy = accept ? FX_POLICY_ACCEPT : FX_POLICY_NONE;
		fx_subscribe(fx, UGGestureTypeDrag | UGGestureTypeTap, 1, 1, 0);
		const UFTouchId one[] = {1};

		fx_begin_owned(fx, 1, 5000, 5000);
		for (int i = 1; i <= 5; i++) {
			fx->time += 10;
			fx_move(fx, 1, 5000.0f + 100.0f * (float)i, 5000);
		}
		assert_true(gesture_seen(fx, 0));
		unsigned int before = fx->nslices;
		int cf = fx->slices[before - 1].cf;
		fx->time += 10;
		fx_cut_off(fx, 1, one);
		assert_int_equal(fx->nslices, before + 1);
		const struct fx_slice *e = &fx->slices[before];
		assert_int_equal(e->id, 0);
		assert_int_equal(e->state, UGGestureStateEnd);
		assert_int_equal(e->canceled, 1);
		assert_int_equal(e->recognized, UGGestureTypeDrag);
		assert_int_equal(e->cf, cf);
		/* the last real slice's values, at the time of the cut */
		assert_int_equal(e->time, fx->time);
		FLOAT_EQ(e->T[0][2], fx->slices[before - 1].T[0][2], 1e-3);
		FLOAT_EQ(e->T[0][2], fx->slices[before - 1].T[0][2], 1e-3);
		fx_run_timers(fx, fx->time + 2000);
		assert_int_equal(fx->nslices, before + 1);
		fx_check_all_ended(fx);
		assert_int_equal(fx->accepted[1], accept ? 1 : 0);
		assert_int_equal(fx->rejected[1], accept ? 0 : 1);
		fx_free(fx);
	}
}

/* Atomic mode: the gesture grail had not accepted yet never shows. */
static void
test_cut_off_atomic(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe_atomic(fx, UGGestureTypeTouch | UGGestureTypeTap, 1, 1, 1);
	const UFTouchId one[] = {1};

	fx_begin_owned(fx, 1, 5000, 5000);
	fx->time += 20;
	fx_cut_off(fx, 1, one);
	fx_run_timers(fx, fx->time + 1000);
	assert_int_equal(fx->nslices, 0);
	assert_int_equal(fx->rejected[1], 1);
	fx_free(fx);
}

/* Only the touches the cut ends: a gesture of touches that lifted before
 * and waits for construction to finish ends as usual. */
static void
test_cut_off_spares_lifted_touches(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeTap, 1, 1, 1);
	const UFTouchId two[] = {2};

	fx_begin_owned(fx, 1, 2000, 5000);
	fx->time += 20;
	fx_end(fx, 1);      /* a real tap, construction not finished yet */
	fx->time += 100;
	fx_begin_owned(fx, 2, 8000, 5000);
	fx->time += 10;
	fx_cut_off(fx, 1, two);
	fx_run_timers(fx, fx->time + 1000);
	assert_true(gesture_seen(fx, 0));
	const struct fx_slice *e = fx_last_of(fx, 0);
	assert_int_equal(e->state, UGGestureStateEnd);
	assert_int_equal(e->recognized, UGGestureTypeTap);
	assert_int_equal(e->canceled, 0);
	assert_int_equal(fx_count_gestures(fx), 1);
	fx_free(fx);
}

/* ------------------------------------------------------------------ */
/* bug fixes                                                           */

static void
test_center_of_rotation(void **state)
{
	(void)state;
	/*
	 * grail describes a slice step as p' = M (p - q) + q + t, with M a
	 * rotation by 0.3 rad scaled by 1.2, q the current centroid and t the
	 * centroid's motion.  Pick the fixed point P = (100, 50) and derive t
	 * = (I - M)(P - q); the centre of rotation must give P back (grail 3.1
	 * used t.x in place of t.y and got the y coordinate wrong).
	 */
	double th = 0.3, sc = 1.2, px = 100, py = 50, qx = 300, qy = 200;
	double a = sc * cos(th), b = sc * sin(th);
	double tx = (1 - a) * (px - qx) + b * (py - qy);
	double ty = -b * (px - qx) + (1 - a) * (py - qy);
	float cx, cy;
	gr_center_of_rotation((float)a, (float)b, (float)tx, (float)ty, (float)qx, (float)qy,
			      &cx, &cy);
	FLOAT_EQ(cx, px, 0.01);
	FLOAT_EQ(cy, py, 0.01);
	/* no rotation and no scale: no fixed point, reported as (0, 0) */
	gr_center_of_rotation(1.0f, 0.0f, 5.0f, 7.0f, (float)qx, (float)qy, &cx, &cy);
	assert_true(cx == 0.0f && cy == 0.0f);

	/* end to end: a rotation with cor checked against the fixed point */
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeRotate, 2, 0, 0);
	play_rotation(fx, 2 * M_PI / 20);
	const struct fx_slice *last = NULL;
	for (unsigned int i = 0; i < fx->nslices; i++)
		if (fx->slices[i].state == UGGestureStateUpdate &&
		    fabsf(fx->slices[i].dT[1][0]) > 1e-3f)
			last = &fx->slices[i];
	assert_non_null(last);
	/* the touches turn around the window point (512, 384) */
	FLOAT_EQ(last->corx, 512.0, 1.0);
	FLOAT_EQ(last->cory, 384.0, 1.0);
	fx_free(fx);
}

static void
test_circular_mean(void **state)
{
	(void)state;
	const float straddle[] = {(float)M_PI - 0.1f, -(float)M_PI + 0.1f};
	float m = gr_angle_mean(straddle, 2);
	FLOAT_EQ(fabsf(m), M_PI, 1e-4);
	const float three[] = {(float)M_PI - 0.2f, -(float)M_PI + 0.1f, (float)M_PI - 0.05f};
	m = gr_angle_mean(three, 3);
	FLOAT_EQ(m, M_PI - 0.05, 1e-4);
	const float plain[] = {0.1f, 0.5f};
	FLOAT_EQ(gr_angle_mean(plain, 2), 0.3, 1e-5);
	assert_true(gr_angle_mean(plain, 0) == 0.0f);
}

static void
test_deactivate_leaves_others_alone(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription touch = fx_subscribe(fx, UGGestureTypeTouch, 1, 0, 0);
	UGSubscription drag = fx_subscribe(fx, UGGestureTypeTouch, 2, 0, 0);

	fx_begin_owned(fx, 1, 1000, 1000);
	fx_begin_owned(fx, 2, 2000, 1000);
	/* 0: touch {1}, 1: touch {2}, 2: two-touch {1,2} */
	assert_true(gesture_seen(fx, 0));
	assert_true(gesture_seen(fx, 2));
	assert_ptr_equal(fx_first_of(fx, 2)->sub, drag);

	grail_subscription_deactivate(fx->grail, drag);
	fx_process(fx);
	const struct fx_slice *e = fx_last_of(fx, 2);
	assert_int_equal(e->state, UGGestureStateEnd);
	assert_int_equal(e->canceled, 1);

	unsigned int before = fx->nslices;
	fx->time += 20;
	fx_move(fx, 1, 1100, 1000);
	assert_true(fx->nslices > before);
	assert_ptr_equal(fx->slices[fx->nslices - 1].sub, touch);
	assert_int_equal(fx->slices[fx->nslices - 1].id, 0);
	assert_int_equal(grail_accept_gesture(fx->grail, 0), UGStatusSuccess);
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_free(fx);
}

static void
test_canceled_end_after_extension(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeTouch, 1, 1, 2);

	fx_begin_owned(fx, 1, 1000, 1000);
	assert_int_equal(grail_accept_gesture(fx->grail, 0), UGStatusSuccess);
	fx_process(fx);
	fx->time += 100;
	fx_begin_owned(fx, 2, 2000, 1000);
	/* 1: the extension {1,2} of gesture 0 (expansion comes first); 2: {2} */
	const UFTouchId both[] = {1, 2};
	assert_true(slice_has_touches(fx_first_of(fx, 1), 2, both));
	assert_int_equal(grail_accept_gesture(fx->grail, 1), UGStatusSuccess);
	fx_process(fx);
	const struct fx_slice *e = fx_last_of(fx, 0);
	assert_int_equal(e->state, UGGestureStateEnd);
	assert_int_equal(e->canceled, 1);
	assert_int_equal(fx->accepted[1], 1);
	assert_int_equal(fx->accepted[2], 1);
	fx->time += 10;
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_check_all_ended(fx);
	fx_free(fx);
}

static void
test_timers_and_fd(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeDrag, 2, 0, 0);
	int fd = grail_get_fd(fx->grail);
	struct pollfd p = {.fd = fd, .events = POLLIN};

	assert_int_equal(poll(&p, 1, 0), 0);
	fx_begin(fx, 1, 1000, 1000);
	/* a lone free touch expires after the composition time */
	assert_int_equal(grail_next_timeout(fx->grail), 1000 + 60);
	fx->time += 10;
	fx_begin(fx, 2, 2000, 1000);
	/* now the gesture's drag timeout counts, from the newest touch */
	assert_int_equal(grail_next_timeout(fx->grail), 1010 + 300);
	fx_own(fx, 1);
	fx_own(fx, 2);

	/* queue events without draining to see the fd become readable */
	UFTouchId ids[] = {1, 2};
	float xs[] = {1500, 2500}, ys[] = {1000, 1000};
	fx->policy = FX_POLICY_NONE;
	fx->time += 20;
	fx_move_many_queued(fx, 2, ids, xs, ys);

	assert_int_equal(poll(&p, 1, 0), 1);
	assert_true(p.revents & POLLIN);
	/* recognized: no more timeout */
	assert_int_equal(grail_next_timeout(fx->grail), 0);
	fx_process(fx);
	assert_true(fx->nslices >= 2);
	/* cleared lazily: the second NoEvent in a row clears the fd */
	UGEvent none = NULL;
	p.revents = 0;
	assert_int_equal(grail_get_event(fx->grail, &none), UGStatusErrorNoEvent);
	assert_int_equal(poll(&p, 1, 0), 0);
	/* a new batch makes it readable again */
	fx->time += 20;
	fx_move(fx, 2, 2600, 1000);
	assert_int_equal(grail_get_event(fx->grail, &none), UGStatusErrorNoEvent);
	assert_int_equal(grail_get_event(fx->grail, &none), UGStatusErrorNoEvent);
	fx->time += 20;
	fx_move_many_queued(fx, 1, &ids[1], (float[]){2700}, &ys[1]);
	p.revents = 0;
	assert_int_equal(poll(&p, 1, 0), 1);
	fx_process(fx);

	/* events outlive the handle */
	fx->time += 20;
	fx_move(fx, 1, 1600, 1000);
	fx_free(fx);
}

/* A candidate's time limit follows the subscription's mask and timeouts
 * when they change while it waits (the longest timeout of the types in
 * the mask, each set property counts). */
static void
test_timeout_follows_subscription(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription sub = fx_subscribe(fx, UGGestureTypeDrag, 2, 0, 0);

	fx_begin(fx, 1, 1000, 1000);
	fx->time += 10;
	fx_begin(fx, 2, 2000, 1000);
	assert_int_equal(grail_next_timeout(fx->grail), 1010 + 300);
	uint64_t t = 700;
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyDragTimeout, &t),
			 UGStatusSuccess);
	assert_int_equal(grail_next_timeout(fx->grail), 1010 + 700);
	/* rotate (500 ms by default) joins: still the drag's 700 */
	UGGestureTypeMask mask = UGGestureTypeDrag | UGGestureTypeRotate;
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyMask, &mask),
			 UGStatusSuccess);
	assert_int_equal(grail_next_timeout(fx->grail), 1010 + 700);
	/* rotate alone: its 500 */
	mask = UGGestureTypeRotate;
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyMask, &mask),
			 UGStatusSuccess);
	assert_int_equal(grail_next_timeout(fx->grail), 1010 + 500);
	/* a rejected value changes nothing */
	mask = 0;
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyMask, &mask),
			 UGStatusErrorInvalidValue);
	assert_int_equal(grail_next_timeout(fx->grail), 1010 + 500);
	/* no limit for rotate: the candidate waits without one (and its
	 * touches, being in it, have no composition time left to run) */
	t = 0;
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyRotateTimeout, &t),
			 UGStatusSuccess);
	assert_int_equal(grail_next_timeout(fx->grail), 0);
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_free(fx);
}

static void
test_unsubscribed_window_rejects(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_begin(fx, 1, 1000, 1000);
	assert_int_equal(fx->rejected[1], 1);
	fx_end(fx, 1);
	assert_int_equal(fx->rejected[1], 1);
	fx_free(fx);
}

static void
log_counter(void *data, int level, const char *msg)
{
	(void)level;
	assert_non_null(msg);
	(*(int *)data)++;
}

/* A log handler that deletes its handle: the call that logged (frame
 * processing) went on with the freed handle (use after free under ASan).
 * The delete is refused as a client bug and the handle keeps working. */
struct deleter {
	UGHandle grail;
	int tried;
};

static void
deleting_log(void *data, int level, const char *msg)
{
	struct deleter *d = data;

	(void)level;
	(void)msg;
	if (!d->tried) {
		d->tried = 1;
		grail_delete(d->grail);
	}
}

static void
test_log_handler_cannot_delete(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	(void)state;
	struct fixture *fx = fx_new();
	struct deleter d = { fx->grail, 0 };
	UFTouchId ids[] = {1, 2};
	float xs[] = {1000, 2000}, ys[] = {1000, 1000};

	grail_set_log_handler(fx->grail, deleting_log, &d);
	fx->policy = FX_POLICY_ACCEPT;
	fx_subscribe(fx, UGGestureTypeDrag, 2, 0, 0);
	fx_begin_many(fx, 2, ids, xs, ys);
	assert_int_equal(d.tried, 1);
	fx->time += 20;
	fx_move_many(fx, 2, ids, (float[]){1500, 2500}, ys);
	assert_true(fx_count_gestures(fx) >= 1);
	fx->time += 20;
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_check_all_ended(fx);
	grail_set_log_handler(fx->grail, NULL, NULL);
	fx_free(fx);
	UT_CLIENT_BUGS_END(1);
}

static void
test_log_handler(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	int n = 0;
	grail_set_log_handler(fx->grail, log_counter, &n);
	fx_subscribe(fx, UGGestureTypeDrag, 1, 0, 0);
	fx_begin_owned(fx, 1, 1000, 1000);
	assert_true(n > 0);
	grail_set_log_handler(fx->grail, NULL, NULL);
	fx_free(fx);
}

static void
test_fd_made_on_first_use(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeDrag, 2, 0, 0);
	fx_begin_owned(fx, 1, 1000, 1000);
	fx->time += 10;
	fx_begin_owned(fx, 2, 2000, 1000);

	/* events queued before the client first asks for the descriptor:
	 * it is readable as soon as it exists */
	UFTouchId ids[] = {1, 2};
	float xs[] = {1500, 2500}, ys[] = {1000, 1000};
	fx->time += 20;
	fx_move_many_queued(fx, 2, ids, xs, ys);
	int fd = grail_get_fd(fx->grail);
	assert_true(fd >= 0);
	assert_int_equal(grail_get_fd(fx->grail), fd);
	struct pollfd p = {.fd = fd, .events = POLLIN};
	assert_int_equal(poll(&p, 1, 0), 1);
	fx_process(fx);
	assert_true(fx->nslices >= 2);
	UGEvent none = NULL;
	assert_int_equal(grail_get_event(fx->grail, &none), UGStatusErrorNoEvent);
	p.revents = 0;
	assert_int_equal(poll(&p, 1, 0), 0);
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_check_all_ended(fx);
	fx_free(fx);

	/* no descriptor to be had: -1 and an error; a later call makes it,
	 * readable when events wait */
	fx = fx_new();
	struct ut_test_log rec = {0};
	grail_set_log_handler(fx->grail, ut_test_log_record, &rec);
	fx_subscribe(fx, UGGestureTypeTouch, 1, 0, 0);
	fx_begin_owned(fx, 1, 1000, 1000);
	fx->time += 10;
	fx_move_many_queued(fx, 1, ids, (float[]){1200}, ys);
	struct rlimit old, none_left;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	none_left = old;
	none_left.rlim_cur = 0;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &none_left), 0);
	rec.n = 0;
	int failed = grail_get_fd(fx->grail);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(failed, -1);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.level, 1);
	assert_non_null(strstr(rec.msg, "grail_get_fd: eventfd: "));
	fd = grail_get_fd(fx->grail);
	assert_true(fd >= 0);
	p.fd = fd;
	p.revents = 0;
	assert_int_equal(poll(&p, 1, 0), 1);
	assert_int_equal(rec.n, 1);
	grail_set_log_handler(fx->grail, NULL, NULL);
	fx_end(fx, 1);
	fx_free(fx);
}

/*
 * A subscription activated again after its device changed lives in two
 * recognizers of the handle.  When the first device goes, the second
 * recognizer still holds it: the subscription stays attached to the
 * handle, so that deleting it later takes it out of that recognizer
 * (which would otherwise keep a freed subscription).
 */
static void
test_subscription_on_two_devices(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription sub = fx_subscribe(fx, UGGestureTypeDrag, 2, 0, 0);
	UFBackendDevice second = frame_backend_device_new();
	assert_non_null(second);
	frame_backend_device_set_direct(second, 1);
	fx_device_event(fx, UFEventTypeDeviceAdded, second);

	UFDevice dev = frame_backend_device_get_device(second);
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyDevice, &dev),
			 UGStatusSuccess);
	assert_int_equal(grail_subscription_activate(fx->grail, sub), UGStatusSuccess);
	assert_int_equal(sub->nhandles, 1);

	fx_device_event(fx, UFEventTypeDeviceRemoved, fx->bdev);
	assert_int_equal(sub->nhandles, 1); /* the second device's recognizer has it */
	assert_false(ut_list_empty(&fx->grail->recognizers));

	grail_subscription_delete(sub);
	fx->nsubs = 0;
	/* its recognizer had no other subscription and went with it */
	assert_true(ut_list_empty(&fx->grail->recognizers));
	frame_backend_device_delete(second);
	fx_free(fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handle_basics),
		cmocka_unit_test(test_default_subscription),
		cmocka_unit_test(test_get_set_subscription),
		cmocka_unit_test(test_default_subscription_limits),
		cmocka_unit_test(test_set_get_subscription_limits),
		cmocka_unit_test(test_subscription_validation),
		cmocka_unit_test(test_intermittent_3touch),
		cmocka_unit_test(test_quick_tap_ends_with_construction_finished),
		cmocka_unit_test(test_pending_end_impedes_gestures),
		cmocka_unit_test(test_still_gesture_finishes_construction),
		cmocka_unit_test(test_update_time_before_start_is_not_yet),
		cmocka_unit_test(test_update_time_far_before_start_is_past),
		cmocka_unit_test(test_seed_example_pinch_pairs),
		cmocka_unit_test(test_bug_pinch_game),
		cmocka_unit_test(test_construction_finished_example),
		cmocka_unit_test(test_swipe_thresholds),
		cmocka_unit_test(test_three_touch_move_zero_threshold),
		cmocka_unit_test(test_rotate_default_threshold),
		cmocka_unit_test(test_tap_vs_drag),
		cmocka_unit_test(test_tap_timeout_zero_means_no_limit),
		cmocka_unit_test(test_atomic_mode),
		cmocka_unit_test(test_center_of_rotation),
		cmocka_unit_test(test_circular_mean),
		cmocka_unit_test(test_deactivate_leaves_others_alone),
		cmocka_unit_test(test_canceled_end_after_extension),
		cmocka_unit_test(test_timers_and_fd),
		cmocka_unit_test(test_timeout_follows_subscription),
		cmocka_unit_test(test_fd_made_on_first_use),
		cmocka_unit_test(test_unsubscribed_window_rejects),
		cmocka_unit_test(test_log_handler),
		cmocka_unit_test(test_log_handler_cannot_delete),
		cmocka_unit_test(test_cut_off_invents_no_tap),
		cmocka_unit_test(test_cut_off_invents_no_hold_or_two_finger_tap),
		cmocka_unit_test(test_cut_off_ends_seen_drag),
		cmocka_unit_test(test_cut_off_atomic),
		cmocka_unit_test(test_cut_off_spares_lifted_touches),
		cmocka_unit_test(test_atomic_touch_swap_keeps_ids_current),
		cmocka_unit_test(test_subscription_on_two_devices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
