/*
 * grail extensions (issue 15, part 2): windowed velocity and release
 * velocity, hold, multi-tap and edge swipe, with their ambiguous cases: an
 * edge touch without velocity is no edge swipe, a hold that moves becomes a
 * drag, a slow second tap is two single taps.
 *
 * The fixture's window is 1024x768 pixels at 3764.7 px/m (3.76 px/mm) and
 * its device axes run 0..10000 at 3764.7 units/m; positions here are given
 * in window pixels unless said otherwise.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "grail-fixture.h"
#include "grail/grail-private.h"
#include "test-support.h"

#define FLOAT_EQ(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) < (eps))

static float
dev_x(float wx)
{
	return wx * 10000.0f / 1024.0f;
}

static float
dev_y(float wy)
{
	return wy * 10000.0f / 768.0f;
}

static void
begin_px(struct fixture *fx, UFTouchId id, float x, float y)
{
	fx_begin_owned(fx, id, dev_x(x), dev_y(y));
}

static void
move_px(struct fixture *fx, UFTouchId id, float x, float y)
{
	fx_move(fx, id, dev_x(x), dev_y(y));
}

static UGSubscription
subscribe(struct fixture *fx, UGGestureTypeMask mask, unsigned int touches)
{
	return fx_subscribe(fx, mask, touches, 0, 0);
}

/* Set a property of a subscription that is already active. */
static void
set(UGSubscription sub, UGSubscriptionProperty p, const void *v)
{
	assert_int_equal(grail_subscription_set_property(sub, p, v), UGStatusSuccess);
}

/* ------------------------------------------------------------------ */
/* properties                                                          */

static void
test_extension_defaults_and_validation(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	(void)state;
	UGSubscription s;
	uint64_t t;
	float f;
	unsigned int u;

	assert_int_equal(grail_subscription_new(&s), UGStatusSuccess);
	assert_int_equal(grail_subscription_get_property(s, UGSubscriptionPropertyHoldTimeout, &t),
			 UGStatusSuccess);
	assert_int_equal(t, 500);
	grail_subscription_get_property(s, UGSubscriptionPropertyHoldThreshold, &f);
	FLOAT_EQ(f, 0.0026, 1e-7);
	grail_subscription_get_property(s, UGSubscriptionPropertyMultiTapTimeout, &t);
	assert_int_equal(t, 400);
	grail_subscription_get_property(s, UGSubscriptionPropertyMultiTapThreshold, &f);
	FLOAT_EQ(f, 0.010, 1e-7);
	grail_subscription_get_property(s, UGSubscriptionPropertyMultiTapMaximum, &u);
	assert_int_equal(u, 3);
	grail_subscription_get_property(s, UGSubscriptionPropertyEdgeSwipeEdges, &u);
	assert_int_equal(u, UGEdgeLeft | UGEdgeRight | UGEdgeTop | UGEdgeBottom);
	grail_subscription_get_property(s, UGSubscriptionPropertyEdgeSwipeMargin, &f);
	FLOAT_EQ(f, 0.005, 1e-7);
	grail_subscription_get_property(s, UGSubscriptionPropertyEdgeSwipeVelocity, &f);
	FLOAT_EQ(f, 0.03, 1e-7);
	grail_subscription_get_property(s, UGSubscriptionPropertyVelocityWindow, &t);
	assert_int_equal(t, 150);

	/* the original properties keep their defaults */
	grail_subscription_get_property(s, UGSubscriptionPropertyTapTimeout, &t);
	assert_int_equal(t, 300);
	assert_int_equal(UGSubscriptionPropertyAtomicGestures, 14);
	assert_int_equal(UGSubscriptionPropertyHoldTimeout, 15);
	assert_int_equal(UGSlicePropertyCanceled, 14);
	assert_int_equal(UGSlicePropertyVelocityX, 15);
	assert_int_equal(UGGestureTypeTouch, 0x10);
	assert_int_equal(UGGestureTypeHold, 0x20);

	/* round trips and errors */
	t = 800;
	set(s, UGSubscriptionPropertyHoldTimeout, &t);
	t = 0;
	grail_subscription_get_property(s, UGSubscriptionPropertyHoldTimeout, &t);
	assert_int_equal(t, 800);
	t = 0;
	assert_int_equal(grail_subscription_set_property(s, UGSubscriptionPropertyHoldTimeout, &t),
			 UGStatusErrorInvalidValue);
	assert_int_equal(
		grail_subscription_set_property(s, UGSubscriptionPropertyVelocityWindow, &t),
		UGStatusErrorInvalidValue);
	/* multi-tap timeout 0: the next tap must begin at the very time */
	set(s, UGSubscriptionPropertyMultiTapTimeout, &t);
	f = -1.0f;
	assert_int_equal(grail_subscription_set_property(s, UGSubscriptionPropertyHoldThreshold, &f),
			 UGStatusErrorInvalidValue);
	f = NAN;
	assert_int_equal(
		grail_subscription_set_property(s, UGSubscriptionPropertyEdgeSwipeMargin, &f),
		UGStatusErrorInvalidValue);
	f = 0.5f;
	set(s, UGSubscriptionPropertyEdgeSwipeVelocity, &f);
	u = 0;
	assert_int_equal(
		grail_subscription_set_property(s, UGSubscriptionPropertyMultiTapMaximum, &u),
		UGStatusErrorInvalidValue);
	assert_int_equal(
		grail_subscription_set_property(s, UGSubscriptionPropertyEdgeSwipeEdges, &u),
		UGStatusErrorInvalidValue);
	u = 0x10;
	assert_int_equal(
		grail_subscription_set_property(s, UGSubscriptionPropertyEdgeSwipeEdges, &u),
		UGStatusErrorInvalidValue);
	u = UGEdgeTop;
	set(s, UGSubscriptionPropertyEdgeSwipeEdges, &u);
	u = 0;
	grail_subscription_get_property(s, UGSubscriptionPropertyEdgeSwipeEdges, &u);
	assert_int_equal(u, UGEdgeTop);
	assert_int_equal(grail_subscription_set_property(s, UGSubscriptionPropertyEdgeSwipeEdges,
							 NULL),
			 UGStatusErrorInvalidValue);
	grail_subscription_delete(s);

	/* slice getters on NULL */
	assert_true(grail_slice_get_velocity_x(NULL) == 0.0f);
	assert_true(grail_slice_get_velocity_y(NULL) == 0.0f);
	assert_int_equal(grail_slice_get_tap_count(NULL), 0);
	assert_int_equal(grail_slice_get_edge(NULL), 0);
	UT_CLIENT_BUGS_END(5);
}

/* ------------------------------------------------------------------ */
/* velocity                                                            */

/* A one-touch drag at @speed px/ms along x, frames every 10 ms, with a
 * deterministic ±@noise px error on each position. */
static void
drag_at(struct fixture *fx, float speed, float noise, unsigned int frames)
{
	begin_px(fx, 1, 100, 300);
	uint64_t t0 = fx->time;
	for (unsigned int i = 1; i <= frames; i++) {
		fx->time = t0 + 10 * i;
		float err = (i % 2 ? noise : -noise) * ((i % 3) ? 1.0f : -0.5f);
		move_px(fx, 1, 100 + speed * 10.0f * (float)i + err, 300);
	}
}

static void
test_velocity_windowed(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeDrag, 1);
	drag_at(fx, 0.5f, 1.0f, 40);

	float worst = 0.0f, worst_diff = 0.0f;
	const struct fx_slice *prev = NULL;
	for (unsigned int i = 0; i < fx->nslices; i++) {
		const struct fx_slice *s = &fx->slices[i];
		if (s->state != UGGestureStateUpdate)
			continue;
		/* after 150 ms the window is full */
		if (s->time - fx->slices[0].time >= 150) {
			if (fabsf(s->vx - 0.5f) > worst)
				worst = fabsf(s->vx - 0.5f);
			FLOAT_EQ(s->vy, 0.0, 1e-4);
			if (prev && s->time > prev->time) {
				float diff = (s->T[0][2] - prev->T[0][2]) / (float)(s->time - prev->time);
				if (fabsf(diff - 0.5f) > worst_diff)
					worst_diff = fabsf(diff - 0.5f);
			}
		}
		prev = s;
	}
	print_message("windowed error %.3f px/ms, frame difference error %.3f px/ms\n", worst,
		      worst_diff);
	assert_true(worst < 0.05f);
	/* the single-frame difference is what the window avoids */
	assert_true(worst_diff > 0.15f);
	fx_free(fx);
}

static void
test_release_velocity(void **state)
{
	(void)state;
	/* a fling: the touch lifts right after moving at 1.2 px/ms */
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeDrag, 1);
	drag_at(fx, 1.2f, 0.0f, 20);
	fx->time += 10;
	fx_end(fx, 1);
	const struct fx_slice *e = fx_last_of(fx, 0);
	assert_int_equal(e->state, UGGestureStateEnd);
	FLOAT_EQ(e->vx, 1.2, 1e-3);
	FLOAT_EQ(e->vy, 0.0, 1e-4);
	fx_free(fx);

	/* the touch stops and lifts 300 ms later: no release velocity */
	fx = fx_new();
	subscribe(fx, UGGestureTypeDrag, 1);
	drag_at(fx, 1.2f, 0.0f, 20);
	fx->time += 300;
	fx_end(fx, 1);
	e = fx_last_of(fx, 0);
	assert_int_equal(e->state, UGGestureStateEnd);
	assert_true(e->vx == 0.0f && e->vy == 0.0f);
	fx_free(fx);

	/* a shorter window forgets sooner: 150 ms keeps the motion of a stop
	 * 100 ms ago, 50 ms does not */
	for (int w = 0; w < 2; w++) {
		fx = fx_new();
		UGSubscription sub = subscribe(fx, UGGestureTypeDrag, 1);
		uint64_t win = w ? 50 : 150;
		set(sub, UGSubscriptionPropertyVelocityWindow, &win);
		drag_at(fx, 1.2f, 0.0f, 20);
		fx->time += 100;
		fx_end(fx, 1);
		e = fx_last_of(fx, 0);
		if (w)
			assert_true(e->vx == 0.0f);
		else
			assert_true(e->vx > 1.0f);
		fx_free(fx);
	}
}

static void
test_velocity_forgets_on_touch_count_change(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeDrag, 2, 1, 0);
	begin_px(fx, 1, 100, 300);
	begin_px(fx, 2, 300, 300);
	uint64_t t0 = fx->time;
	for (unsigned int i = 1; i <= 10; i++) {
		fx->time = t0 + 10 * i;
		UFTouchId ids[] = {1, 2};
		float xs[] = {dev_x(100 + 5.0f * i), dev_x(300 + 5.0f * i)};
		float ys[] = {dev_y(300), dev_y(300)};
		fx_move_many(fx, 2, ids, xs, ys);
	}
	/* touch 2 lifts: the centroid jumps by 100 px, which is no motion */
	fx->time += 10;
	fx_end(fx, 2);
	fx->time += 10;
	move_px(fx, 1, 155, 300);
	const struct fx_slice *s = fx_last_of(fx, 0);
	assert_int_equal(s->num_touches, 1);
	assert_true(fabsf(s->vx) < 0.01f);
	fx->time += 10;
	move_px(fx, 1, 160, 300);
	s = fx_last_of(fx, 0);
	FLOAT_EQ(s->vx, 0.5, 1e-3);
	fx_free(fx);
}

/* The least-squares slope of the positions xs at times ts (ms), as the
 * velocity's definition has it, computed apart from grail. */
static double
slope_of(const double *ts, const double *xs, unsigned int n)
{
	double st = 0, sx = 0, stt = 0, stx = 0;
	for (unsigned int i = 0; i < n; i++) {
		st += ts[i];
		sx += xs[i];
		stt += ts[i] * ts[i];
		stx += ts[i] * xs[i];
	}
	return (n * stx - st * sx) / (n * stt - st * st);
}

/*
 * A client may keep slices and read their velocity long after they were
 * made: after the gesture's log of positions filled up and went on in a
 * new log or moved its newest positions to its front, and after the
 * handle was deleted.  A one-touch drag accelerates
 * (x = 100 + 0.002 t^2 px, a frame every 10 ms, so every window has
 * another slope) for 150 frames; the client keeps every third slice
 * for the first 75 frames (the log is then still read when full) and none
 * after (it is then moved to the front), and reads no velocity until the
 * end.  Each kept slice's velocity is the slope of its own window: its
 * last 16 positions, 150 ms.
 */
static void
test_velocity_of_kept_slices(void **state)
{
	(void)state;
	enum { FRAMES = 150, WINDOW = 16 };
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeDrag, 1);
	begin_px(fx, 1, 100, 300);
	uint64_t t0 = fx->time;
	UGEvent kept[FRAMES];
	unsigned int frame_of[FRAMES], nkept = 0;
	for (unsigned int i = 1; i <= FRAMES; i++) {
		fx->time = t0 + 10 * i;
		double t = 10.0 * i;
		UFTouchId id = 1;
		float x = dev_x((float)(100.0 + 0.002 * t * t)), y = dev_y(300);
		fx_move_many_queued(fx, 1, &id, &x, &y);
		UGEvent ev;
		while (grail_get_event(fx->grail, &ev) == UGStatusSuccess) {
			/* (the first slices wait until the drag is recognized) */
			unsigned int f = (unsigned int)((grail_event_get_time(ev) - t0) / 10);
			if (grail_event_get_type(ev) == UGEventTypeSlice && f >= 1 &&
			    f <= FRAMES / 2 && f % 3 == 0) {
				frame_of[nkept] = f;
				kept[nkept++] = ev;
			} else {
				grail_event_unref(ev);
			}
		}
	}
	assert_int_equal(nkept, FRAMES / 2 / 3);

	/* half of them read while the handle lives, half after (the fixture
	 * saw none of the gesture's slices: no checks of its own) */
	for (unsigned int pass = 0; pass < 2; pass++) {
		if (pass == 1)
			fx_free_nocheck(fx);
		for (unsigned int k = pass; k < nkept; k += 2) {
			UGSlice slice;
			assert_int_equal(grail_event_get_property(kept[k], UGEventPropertySlice,
								  &slice),
					 UGStatusSuccess);
			unsigned int i = frame_of[k], n = i + 1 < WINDOW ? i + 1 : WINDOW;
			double ts[WINDOW], xs[WINDOW];
			for (unsigned int j = 0; j < n; j++) {
				ts[j] = 10.0 * (i + 1 - n + j);
				xs[j] = 100.0 + 0.002 * ts[j] * ts[j];
			}
			double want = slope_of(ts, xs, n);
			FLOAT_EQ(grail_slice_get_velocity_x(slice), want, 2e-3);
			FLOAT_EQ(grail_slice_get_velocity_y(slice), 0.0, 1e-4);
			/* the velocity grows with the frame: windows differ */
			assert_true(want > 0.004 * 10.0 * i - 0.004 * 80.0);
			grail_event_unref(kept[k]);
		}
	}
}

/* ------------------------------------------------------------------ */
/* dispatch                                                            */

static void
test_touch_in_a_far_slot_moves_its_gesture(void **state)
{
	(void)state;
	/*
	 * 64 touches down: the last one's slot (63) is beyond those with a
	 * bit of their own in the slot masks that tell which gestures a
	 * frame concerns, and shares one.  Moving it, and then the first,
	 * drags their gestures and nothing else.
	 */
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeDrag, 1);
	enum { N = 64 };
	UFTouchId ids[N];
	float xs[N], ys[N];
	for (unsigned int i = 0; i < N; i++) {
		ids[i] = i;
		xs[i] = dev_x(100.0f + 10.0f * (float)i);
		ys[i] = dev_y(300.0f);
	}
	fx_begin_many(fx, N, ids, xs, ys);
	for (unsigned int f = 1; f <= 10; f++) {
		fx->time += 10;
		move_px(fx, N - 1, 100.0f + 10.0f * (N - 1), 300.0f + 10.0f * (float)f);
	}
	assert_int_equal(fx_count_gestures(fx), 1);
	const struct fx_slice *s = &fx->slices[fx->nslices - 1];
	assert_int_equal(s->num_touches, 1);
	assert_int_equal(s->touches[0], N - 1);
	assert_int_equal(s->recognized, UGGestureTypeDrag);
	for (unsigned int f = 1; f <= 10; f++) {
		fx->time += 10;
		move_px(fx, 0, 100.0f, 300.0f + 10.0f * (float)f);
	}
	assert_int_equal(fx_count_gestures(fx), 2);
	s = &fx->slices[fx->nslices - 1];
	assert_int_equal(s->touches[0], 0);
	assert_int_equal(s->recognized, UGGestureTypeDrag);
	for (unsigned int i = 0; i < N; i++)
		fx_end(fx, i);
	fx_check_all_ended(fx);
	fx_free(fx);
}

/* ------------------------------------------------------------------ */
/* hold                                                                */

static void
test_hold_recognized_while_held(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeHold, 1);
	begin_px(fx, 1, 400, 300);
	uint64_t t0 = fx->time;
	assert_int_equal(grail_next_timeout(fx->grail), t0 + 500);
	/* jitter well inside the 2.6 mm (9.8 px) threshold */
	fx->time = t0 + 100;
	move_px(fx, 1, 401, 299);
	fx->time = t0 + 200;
	move_px(fx, 1, 399, 301);
	fx_run_timers(fx, t0 + 499);
	assert_int_equal(fx_count_gestures(fx), 0);
	fx_run_timers(fx, t0 + 600);
	assert_int_equal(fx_count_gestures(fx), 1);
	const struct fx_slice *s = fx_last_of(fx, 0);
	assert_int_equal(s->recognized, UGGestureTypeHold);
	assert_int_equal(s->state, UGGestureStateUpdate);
	assert_int_equal(s->time, t0 + 500);
	assert_int_equal(fx_first_of(fx, 0)->state, UGGestureStateBegin);
	/* the touch is still down; lifting ends the gesture */
	fx->time = t0 + 900;
	fx_end(fx, 1);
	assert_int_equal(fx_last_of(fx, 0)->state, UGGestureStateEnd);
	fx_free(fx);
}

static void
test_hold_added_to_an_active_mask(void **state)
{
	(void)state;
	/* a mask changed while the subscription is active counts from the
	 * next frame on (grail remembers whether anyone wants holds) */
	struct fixture *fx = fx_new();
	UGSubscription sub = subscribe(fx, UGGestureTypeDrag, 1);
	begin_px(fx, 1, 400, 300);
	fx->time += 700;
	fx_run_timers(fx, fx->time);
	fx_end(fx, 1);
	assert_int_equal(fx_count_gestures(fx), 0);

	UGGestureTypeMask mask = UGGestureTypeDrag | UGGestureTypeHold;
	set(sub, UGSubscriptionPropertyMask, &mask);
	fx->time += 1000;
	begin_px(fx, 2, 400, 300);
	uint64_t t0 = fx->time;
	assert_int_equal(grail_next_timeout(fx->grail), t0 + 500);
	fx_run_timers(fx, t0 + 600);
	assert_int_equal(fx_count_gestures(fx), 1);
	/* (gesture 0 was the first touch's drag candidate, never seen) */
	const struct fx_slice *s = fx_last_of(fx, 1);
	assert_non_null(s);
	assert_int_equal(s->recognized, UGGestureTypeHold);
	assert_int_equal(s->time, t0 + 500);

	/* and taken away again: no hold */
	fx->time = t0 + 1000;
	fx_end(fx, 2);
	mask = UGGestureTypeDrag;
	set(sub, UGSubscriptionPropertyMask, &mask);
	fx->time += 1000;
	begin_px(fx, 3, 400, 300);
	t0 = fx->time;
	fx_run_timers(fx, t0 + 600);
	assert_int_equal(fx_count_gestures(fx), 1);
	fx_free(fx);
}

static void
test_hold_that_moves_becomes_a_drag(void **state)
{
	(void)state;
	/* moves before the hold time: a drag, never a hold */
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeHold | UGGestureTypeDrag, 1);
	begin_px(fx, 1, 400, 300);
	uint64_t t0 = fx->time;
	for (unsigned int i = 1; i <= 10; i++) {
		fx->time = t0 + 20 * i;
		move_px(fx, 1, 400 + 3.0f * i, 300);
	}
	fx_run_timers(fx, t0 + 1000);
	assert_int_equal(fx_count_gestures(fx), 1);
	for (unsigned int i = 0; i < fx->nslices; i++)
		assert_false(fx->slices[i].recognized & UGGestureTypeHold);
	assert_int_equal(fx_last_of(fx, 0)->recognized, UGGestureTypeDrag);
	fx->time = t0 + 1100;
	fx_end(fx, 1);
	fx_free(fx);

	/* a hold-only subscription gets nothing from that */
	fx = fx_new();
	subscribe(fx, UGGestureTypeHold, 1);
	begin_px(fx, 1, 400, 300);
	t0 = fx->time;
	fx->time = t0 + 100;
	move_px(fx, 1, 420, 300);
	fx->time = t0 + 200;
	move_px(fx, 1, 400, 300); /* back where it began: still ruled out */
	fx_run_timers(fx, t0 + 1000);
	assert_int_equal(fx_count_gestures(fx), 0);
	fx->time = t0 + 1100;
	fx_end(fx, 1);
	assert_int_equal(fx_count_gestures(fx), 0);
	assert_int_equal(fx->rejected[1], 1);
	fx_free(fx);

	/* held first, then moved: hold, then drag as well */
	fx = fx_new();
	subscribe(fx, UGGestureTypeHold | UGGestureTypeDrag, 1);
	set(fx->subs[0], UGSubscriptionPropertyDragTimeout, &(uint64_t){0});
	begin_px(fx, 1, 400, 300);
	t0 = fx->time;
	fx_run_timers(fx, t0 + 550);
	assert_int_equal(fx_last_of(fx, 0)->recognized, UGGestureTypeHold);
	fx->time = t0 + 600;
	move_px(fx, 1, 430, 300);
	assert_int_equal(fx_last_of(fx, 0)->recognized, UGGestureTypeHold | UGGestureTypeDrag);
	fx->time = t0 + 700;
	fx_end(fx, 1);
	fx_free(fx);
}

static void
test_hold_lifted_early_and_two_fingers(void **state)
{
	(void)state;
	/* lifted before the hold time: nothing */
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeHold, 1);
	begin_px(fx, 1, 400, 300);
	uint64_t t0 = fx->time;
	fx->time = t0 + 400;
	fx_end(fx, 1);
	fx_run_timers(fx, t0 + 1000);
	assert_int_equal(fx_count_gestures(fx), 0);
	assert_int_equal(grail_next_timeout(fx->grail), 0);
	fx_free(fx);

	/* two fingers, a shorter hold time */
	fx = fx_new();
	UGSubscription sub = subscribe(fx, UGGestureTypeHold, 2);
	uint64_t ht = 250;
	set(sub, UGSubscriptionPropertyHoldTimeout, &ht);
	begin_px(fx, 1, 400, 300);
	fx->time += 10;
	begin_px(fx, 2, 460, 300);
	t0 = fx->time;
	assert_int_equal(grail_next_timeout(fx->grail), t0 + 250);
	fx_run_timers(fx, t0 + 300);
	const struct fx_slice *s = fx_last_of(fx, 0);
	assert_non_null(s);
	assert_int_equal(s->num_touches, 2);
	assert_int_equal(s->recognized, UGGestureTypeHold);
	assert_int_equal(s->time, t0 + 250);
	fx->time = t0 + 400;
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_check_all_ended(fx);
	fx_free(fx);
}

/* ------------------------------------------------------------------ */
/* multi-tap                                                           */

/* A tap of @n touches at (x, y) lasting 60 ms, starting at fx->time. */
static void
tap_at(struct fixture *fx, UFTouchId first, unsigned int n, float x, float y)
{
	for (unsigned int i = 0; i < n; i++)
		begin_px(fx, first + i, x + 40.0f * i, y);
	fx->time += 60;
	for (unsigned int i = 0; i < n; i++)
		fx_end(fx, first + i);
}

/* Tap counts of the gestures that recognized a tap, in order. */
static unsigned int
tap_counts(const struct fixture *fx, unsigned int *counts, unsigned int max)
{
	unsigned int n = 0;
	for (unsigned int id = 0; id < FX_MAX_GESTURES && n < max; id++) {
		const struct fx_slice *s = fx_last_of(fx, id);
		if (s && (s->recognized & UGGestureTypeTap))
			counts[n++] = s->taps;
	}
	return n;
}

static void
test_multi_tap_counts(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeTap, 1);
	for (unsigned int i = 0; i < 5; i++) {
		tap_at(fx, 1 + i, 1, 400 + (float)i, 300);
		fx->time += 150;
	}
	unsigned int c[8];
	assert_int_equal(tap_counts(fx, c, 8), 5);
	/* 1, 2, 3 and then from 1 again (maximum 3) */
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 2);
	assert_int_equal(c[2], 3);
	assert_int_equal(c[3], 1);
	assert_int_equal(c[4], 2);
	/* every slice of a tap carries the count, including the End */
	const struct fx_slice *e = fx_last_of(fx, 1);
	assert_int_equal(e->state, UGGestureStateEnd);
	assert_int_equal(e->taps, 2);
	fx_free(fx);
}

/* Two one-finger taps, the second @gap ms after the first lifts and
 * @dx px to the right, with multi-tap maximum @max; their tap counts. */
static void
two_taps(uint64_t gap, float dx, unsigned int max, unsigned int *c)
{
	struct fixture *fx = fx_new();
	UGSubscription sub = subscribe(fx, UGGestureTypeTap, 1);
	set(sub, UGSubscriptionPropertyMultiTapMaximum, &max);
	tap_at(fx, 1, 1, 400, 300);
	fx->time += gap;
	tap_at(fx, 2, 1, 400 + dx, 300);
	assert_int_equal(tap_counts(fx, c, 2), 2);
	fx_free(fx);
}

static void
test_slow_or_distant_second_tap_is_a_single_tap(void **state)
{
	(void)state;
	unsigned int c[2];
	/* the reference: 100 ms later, 1 px away: a double tap */
	two_taps(100, 1, 3, c);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 2);
	/* 500 ms between the taps: more than the 400 ms multi-tap timeout */
	two_taps(500, 0, 3, c);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 1);
	/* in time, but 15 mm (56 px) away: more than the 10 mm threshold */
	two_taps(100, 56, 3, c);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 1);
	/* multi-tap maximum 1 turns counting off */
	two_taps(100, 0, 1, c);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 1);
}

static void
test_two_finger_double_tap(void **state)
{
	(void)state;
	unsigned int c[4];
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeTap, 2);
	tap_at(fx, 1, 2, 400, 300);
	fx->time += 200;
	tap_at(fx, 3, 2, 402, 301);
	assert_int_equal(tap_counts(fx, c, 4), 2);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 2);
	fx_free(fx);
}

static void
swipe(struct fixture *fx, float dx0, float dy0, uint64_t rest, float vx, float vy,
      unsigned int frames)
{
	fx_begin_owned(fx, 1, dx0, dy0);
	float wx = dx0 * 1024.0f / 10000.0f, wy = dy0 * 768.0f / 10000.0f;
	fx->time += rest;
	for (unsigned int i = 1; i <= frames; i++) {
		fx->time += 10;
		move_px(fx, 1, wx + vx * (float)i, wy + vy * (float)i);
	}
	fx->time += 10;
	fx_end(fx, 1);
}

static unsigned int
edge_of_swipe(struct fixture *fx)
{
	unsigned int edge = 0;
	for (unsigned int i = 0; i < fx->nslices; i++) {
		if (fx->slices[i].recognized & UGGestureTypeEdgeSwipe) {
			assert_int_not_equal(fx->slices[i].edge, 0);
			edge = fx->slices[i].edge;
		} else {
			assert_int_equal(fx->slices[i].edge, 0);
		}
	}
	return edge;
}

static unsigned int
edge_swipe(float dx0, float dy0, uint64_t rest, float vx, float vy, unsigned int edges)
{
	struct fixture *fx = fx_new();
	UGSubscription sub = subscribe(fx, UGGestureTypeEdgeSwipe, 1);
	if (edges)
		set(sub, UGSubscriptionPropertyEdgeSwipeEdges, &edges);
	swipe(fx, dx0, dy0, rest, vx, vy, 10);
	unsigned int e = edge_of_swipe(fx);
	fx_free(fx);
	return e;
}

static void
test_edge_swipe_from_each_edge(void **state)
{
	(void)state;
	/* 5 mm is 18.8 device units; 4 px per 10 ms is 106 mm/s */
	assert_int_equal(edge_swipe(10, 5000, 0, 4, 0, 0), UGEdgeLeft);
	assert_int_equal(edge_swipe(9990, 5000, 0, -4, 0, 0), UGEdgeRight);
	assert_int_equal(edge_swipe(5000, 10, 0, 0, 4, 0), UGEdgeTop);
	assert_int_equal(edge_swipe(5000, 9990, 0, 0, -4, 0), UGEdgeBottom);
	/* within 30 degrees of the normal */
	assert_int_equal(edge_swipe(10, 5000, 0, 4, 2, 0), UGEdgeLeft);
	/* a corner: the direction decides */
	assert_int_equal(edge_swipe(10, 10, 0, 1, 4, 0), UGEdgeTop);
}

static void
test_edge_touch_without_velocity_is_no_edge_swipe(void **state)
{
	(void)state;
	/* rests 200 ms at the edge, then moves as fast as before: the initial
	 * velocity (2.6 mm in > 200 ms) is under 30 mm/s */
	assert_int_equal(edge_swipe(10, 5000, 200, 4, 0, 0), 0);
	/* slow from the start: 0.3 px per 10 ms is 8 mm/s */
	assert_int_equal(edge_swipe(10, 5000, 0, 0.3f, 0, 0), 0);
	/* ... but both are drags */
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeEdgeSwipe | UGGestureTypeDrag, 1);
	set(fx->subs[0], UGSubscriptionPropertyDragTimeout, &(uint64_t){0});
	swipe(fx, 10, 5000, 200, 4, 0, 10);
	assert_int_equal(edge_of_swipe(fx), 0);
	assert_int_equal(fx_last_of(fx, 0)->recognized, UGGestureTypeDrag);
	fx_free(fx);
	/* a touch that only starts near the edge and stays: nothing */
	fx = fx_new();
	subscribe(fx, UGGestureTypeEdgeSwipe, 1);
	swipe(fx, 10, 5000, 500, 0, 0, 0);
	fx_run_timers(fx, fx->time + 1000);
	assert_int_equal(fx_count_gestures(fx), 0);
	fx_free(fx);
}

static void
test_edge_swipe_ruled_out(void **state)
{
	(void)state;
	/* begins 10 mm from the edge (38 units): outside the 5 mm margin */
	assert_int_equal(edge_swipe(38, 5000, 0, 4, 0, 0), 0);
	/* along the edge, outward, or too oblique */
	assert_int_equal(edge_swipe(10, 5000, 0, 0, 4, 0), 0);
	assert_int_equal(edge_swipe(10, 5000, 0, -4, 0, 0), 0);
	assert_int_equal(edge_swipe(10, 5000, 0, 4, 3, 0), 0);
	/* the edge is not enabled */
	assert_int_equal(edge_swipe(10, 5000, 0, 4, 0, UGEdgeRight | UGEdgeTop), 0);
	assert_int_equal(edge_swipe(9990, 5000, 0, -4, 0, UGEdgeRight | UGEdgeTop), UGEdgeRight);
}

/* Two touches beginning at device y0 and y1 (x 3000 and 3400) move up
 * 4 px per 10 ms; the edge of the edge swipe, or 0. */
static unsigned int
two_finger_swipe_up(float y0, float y1)
{
	struct fixture *fx = fx_new();
	subscribe(fx, UGGestureTypeEdgeSwipe, 2);
	fx_begin_owned(fx, 1, 3000, y0);
	fx_begin_owned(fx, 2, 3400, y1);
	for (unsigned int i = 1; i <= 10; i++) {
		fx->time += 10;
		UFTouchId ids[] = {1, 2};
		float xs[] = {3000, 3400};
		float ys[] = {dev_y(y0 * 0.0768f - 4.0f * i), dev_y(y1 * 0.0768f - 4.0f * i)};
		fx_move_many(fx, 2, ids, xs, ys);
	}
	unsigned int edge = edge_of_swipe(fx);
	fx->time += 10;
	fx_end(fx, 1);
	fx_end(fx, 2);
	fx_free(fx);
	return edge;
}

static void
test_two_finger_edge_swipe(void **state)
{
	(void)state;
	assert_int_equal(two_finger_swipe_up(9995, 9990), UGEdgeBottom);
	/* one of the two fingers far from the edge: no edge swipe */
	assert_int_equal(two_finger_swipe_up(9995, 9000), 0);
}


/* ------------------------------------------------------------------ */
/* whole-hand gestures                                                 */

static void
test_whole_hand_property(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	(void)state;
	UGSubscription s;
	int v = -1;

	assert_int_equal(grail_subscription_new(&s), UGStatusSuccess);
	assert_int_equal(grail_subscription_get_property(s, UGSubscriptionPropertyWholeHand, &v),
			 UGStatusSuccess);
	assert_int_equal(v, 0);
	v = 7; /* a boolean: any non-zero value reads back as 1 */
	set(s, UGSubscriptionPropertyWholeHand, &v);
	v = -1;
	grail_subscription_get_property(s, UGSubscriptionPropertyWholeHand, &v);
	assert_int_equal(v, 1);
	v = 0;
	set(s, UGSubscriptionPropertyWholeHand, &v);
	grail_subscription_get_property(s, UGSubscriptionPropertyWholeHand, &v);
	assert_int_equal(v, 0);
	assert_int_equal(grail_subscription_set_property(s, UGSubscriptionPropertyWholeHand, NULL),
			 UGStatusErrorInvalidValue);
	assert_int_equal(UGSubscriptionPropertyWholeHand, UGSubscriptionPropertyVelocityWindow + 1);
	grail_subscription_delete(s);
	UT_CLIENT_BUGS_END(1);
}

/* A drag subscription for @start touches, whole-hand if @whole. */
static UGSubscription
subscribe_hand(struct fixture *fx, unsigned int start, unsigned int max, int whole)
{
	UGSubscription sub = fx_subscribe(fx, UGGestureTypeDrag, start, 0, max);
	set(sub, UGSubscriptionPropertyWholeHand, &whole);
	return sub;
}

/* Touches 1..@n land 5 ms apart (or in one frame), 80 px apart, and
 * swipe right 6 px per 10 ms for 20 frames. */
static void
hand_swipe(struct fixture *fx, unsigned int n, bool one_frame)
{
	UFTouchId ids[10];
	float xs[10], ys[10];
	assert_true(n <= 10);
	for (unsigned int i = 0; i < n; i++) {
		ids[i] = i + 1;
		xs[i] = 200.0f + 80.0f * (float)i;
		ys[i] = 300.0f + 10.0f * (float)(i % 2);
	}
	if (one_frame) {
		float bx[10], by[10];
		for (unsigned int i = 0; i < n; i++) {
			bx[i] = dev_x(xs[i]);
			by[i] = dev_y(ys[i]);
		}
		fx_begin_many(fx, n, ids, bx, by);
	} else {
		for (unsigned int i = 0; i < n; i++) {
			if (i)
				fx->time += 5;
			begin_px(fx, ids[i], xs[i], ys[i]);
		}
	}
	for (unsigned int f = 0; f < 20; f++) {
		fx->time += 10;
		float dx[10], dy[10];
		for (unsigned int i = 0; i < n; i++) {
			dx[i] = dev_x(xs[i] + 6.0f * (float)(f + 1));
			dy[i] = dev_y(ys[i]);
		}
		fx_move_many(fx, n, ids, dx, dy);
	}
	fx->time += 10;
	for (unsigned int i = 0; i < n; i++)
		fx_end(fx, ids[i]);
	fx_run_timers(fx, fx->time + 1000);
}

/* Fingers 1..n of a row 80 px apart at y 300, started at x 200: the first
 * @n land (one frame each), then frames @from..@to move the first @n
 * 6 px per frame to the right, and finally fingers 1..@up lift. */
static void
row_begin(struct fixture *fx, unsigned int first, unsigned int n)
{
	for (unsigned int i = first; i < first + n; i++)
		begin_px(fx, i + 1, 200.0f + 80.0f * (float)i, 300);
}

static void
row_move(struct fixture *fx, unsigned int n, unsigned int from, unsigned int to)
{
	UFTouchId ids[GR_MAX_TOUCHES];
	float xs[GR_MAX_TOUCHES], ys[GR_MAX_TOUCHES];

	assert_true(n <= GR_MAX_TOUCHES);
	for (unsigned int f = from; f <= to; f++) {
		fx->time += 10;
		for (unsigned int i = 0; i < n; i++) {
			ids[i] = i + 1;
			xs[i] = dev_x(200.0f + 80.0f * (float)i + 6.0f * (float)f);
			ys[i] = dev_y(300);
		}
		fx_move_many(fx, n, ids, xs, ys);
	}
}

static void
row_lift(struct fixture *fx, unsigned int n)
{
	fx->time += 10;
	for (UFTouchId id = 1; id <= n; id++)
		fx_end(fx, id);
	fx_run_timers(fx, fx->time + 1000);
}

/* Gestures the client saw with @n touches at their Begin. */
static unsigned int
count_begun_with(const struct fixture *fx, unsigned int n)
{
	unsigned int count = 0;
	for (unsigned int i = 0; i < fx->nslices; i++)
		if (fx->slices[i].state == UGGestureStateBegin && fx->slices[i].num_touches == n)
			count++;
	return count;
}

static unsigned int
whole_hand_swipe(unsigned int touches, unsigned int start, int whole, bool one_frame)
{
	struct fixture *fx = fx_new();
	subscribe_hand(fx, start, 0, whole);
	hand_swipe(fx, touches, one_frame);
	unsigned int n = fx_count_gestures(fx);
	assert_int_equal(count_begun_with(fx, start), n);
	fx_check_all_ended(fx);
	/* with nothing taken, every touch goes back to the client, once */
	if (n == 0)
		for (UFTouchId id = 1; id <= touches; id++) {
			assert_int_equal(fx->rejected[id], 1);
			assert_int_equal(fx->accepted[id], 0);
		}
	fx_free(fx);
	return n;
}

static void
test_whole_hand_counts(void **state)
{
	(void)state;
	/* grail 3.1: each of the 4 three-touch subsets of four fingers */
	assert_int_equal(whole_hand_swipe(4, 3, 0, false), 4);
	assert_int_equal(whole_hand_swipe(4, 3, 0, true), 4);
	/* whole hand: none, whether the fingers land together or not */
	assert_int_equal(whole_hand_swipe(4, 3, 1, false), 0);
	assert_int_equal(whole_hand_swipe(4, 3, 1, true), 0);
	/* three fingers are the whole hand: one gesture either way */
	assert_int_equal(whole_hand_swipe(3, 3, 0, false), 1);
	assert_int_equal(whole_hand_swipe(3, 3, 1, false), 1);
	assert_int_equal(whole_hand_swipe(3, 3, 1, true), 1);
	/* a 10-finger palm and a 3-finger subscription: 120 subsets, or none */
	assert_int_equal(whole_hand_swipe(10, 3, 0, true), 120);
	assert_int_equal(whole_hand_swipe(10, 3, 1, true), 0);
	assert_int_equal(whole_hand_swipe(10, 3, 1, false), 0);
	/* two fingers and a three-finger subscription: nothing either way */
	assert_int_equal(whole_hand_swipe(2, 3, 1, false), 0);
}

/* A finger resting on the device (let go by grail long ago) is part of the
 * hand: three more fingers are not a three-finger gesture. */
static unsigned int
resting_finger_then_three(int whole, int atomic)
{
	struct fixture *fx = fx_new();
	UGSubscription sub = atomic ? fx_subscribe_atomic(fx, UGGestureTypeDrag, 3, 0, 3)
				    : fx_subscribe(fx, UGGestureTypeDrag, 3, 0, 0);
	set(sub, UGSubscriptionPropertyWholeHand, &whole);
	begin_px(fx, 9, 100, 600);
	fx_run_timers(fx, fx->time + 200);
	fx->time += 200;
	assert_int_equal(fx->rejected[9], 1);
	row_begin(fx, 0, 3);
	row_move(fx, 3, 1, 20);
	fx_end(fx, 9);
	row_lift(fx, 3);
	unsigned int n = fx_count_gestures(fx);
	fx_free(fx);
	return n;
}

static void
test_whole_hand_counts_resting_fingers(void **state)
{
	(void)state;
	assert_int_equal(resting_finger_then_three(0, 0), 1);
	assert_int_equal(resting_finger_then_three(1, 0), 0);
	assert_int_equal(resting_finger_then_three(0, 1), 1);
	assert_int_equal(resting_finger_then_three(1, 1), 0);
}

/* A fourth finger landing on a three-finger candidate the client has seen:
 * the candidate ends cancelled; with TouchesMaximum 4 its expansion to the
 * whole hand takes over. */
static void
test_whole_hand_late_finger(void **state)
{
	(void)state;
	for (unsigned int max = 0; max <= 4; max += 4) {
		struct fixture *fx = fx_new();
		subscribe_hand(fx, 3, max, 1);
		row_begin(fx, 0, 3);
		row_move(fx, 3, 1, 5);
		assert_int_equal(fx_count_gestures(fx), 1);
		unsigned int first = fx->slices[0].id;
		assert_int_equal(fx->slices[0].num_touches, 3);
		assert_false(fx->g_ended[first]);

		fx->time += 10;
		row_begin(fx, 3, 1);
		const struct fx_slice *last = fx_last_of(fx, first);
		assert_int_equal(last->state, UGGestureStateEnd);
		assert_int_equal(last->canceled, 1);
		row_move(fx, 4, 6, 15);
		row_lift(fx, 4);
		fx_check_all_ended(fx);
		if (max == 4) {
			/* the expansion: four touches, from the first one's start */
			assert_int_equal(fx_count_gestures(fx), 2);
			assert_int_equal(count_begun_with(fx, 4), 1);
		} else {
			assert_int_equal(fx_count_gestures(fx), 1);
			for (UFTouchId id = 1; id <= 4; id++)
				assert_int_equal(fx->rejected[id], 1);
		}
		fx_free(fx);
	}
}

/* An accepted whole-hand gesture keeps going when more fingers land. */
static void
test_whole_hand_accepted_keeps_going(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	fx->policy = FX_POLICY_ACCEPT;
	subscribe_hand(fx, 3, 0, 1);
	row_begin(fx, 0, 3);
	row_move(fx, 3, 1, 5);
	row_begin(fx, 3, 1);
	row_move(fx, 3, 6, 15);
	row_lift(fx, 4);
	assert_int_equal(fx_count_gestures(fx), 1);
	const struct fx_slice *last = fx_last_of(fx, fx->slices[0].id);
	assert_int_equal(last->state, UGGestureStateEnd);
	assert_int_equal(last->canceled, 0);
	assert_true(fx_count(fx, fx->slices[0].id, UGGestureStateUpdate) >= 14);
	for (UFTouchId id = 1; id <= 3; id++)
		assert_int_equal(fx->accepted[id], 1);
	assert_int_equal(fx->rejected[4], 1);
	fx_free(fx);
}

/* Whole-hand and ordinary subscriptions side by side: the ordinary one
 * still sees its subsets. */
static void
test_whole_hand_beside_ordinary(void **state)
{
	(void)state;
	struct fixture *fx = fx_new();
	UGSubscription whole = subscribe_hand(fx, 3, 0, 1);
	UGSubscription part = subscribe_hand(fx, 3, 0, 0);
	hand_swipe(fx, 4, false);
	unsigned int nwhole = 0, npart = 0;
	for (unsigned int i = 0; i < fx->nslices; i++) {
		if (fx->slices[i].state != UGGestureStateBegin)
			continue;
		if (fx->slices[i].sub == whole)
			nwhole++;
		else if (fx->slices[i].sub == part)
			npart++;
	}
	assert_int_equal(nwhole, 0);
	assert_int_equal(npart, 4);
	fx_check_all_ended(fx);
	fx_free(fx);
}

/* ------------------------------------------------------------------ */
/* when touches no gesture takes are let go of (issue 23 point 8)      */

/*
 * @n fingers land 10 ms apart from time 1000 (80 px apart) and rest until
 * 2000 without a client decision, on a drag subscription for @start
 * touches (whole-hand if @whole; with @other, beside an ordinary one for
 * 5 touches).  Returns the fixture for the times of fx->rejected_at[].
 */
static struct fixture *
fingers_rest_mode(unsigned int n, unsigned int start, int whole, bool other, int atomic)
{
	struct fixture *fx = fx_new();
	if (atomic) {
		UGSubscription sub = fx_subscribe_atomic(fx, UGGestureTypeDrag, start, 0, 0);
		set(sub, UGSubscriptionPropertyWholeHand, &whole);
	} else {
		subscribe_hand(fx, start, 0, whole);
	}
	if (other)
		subscribe_hand(fx, 5, 0, 0);
	for (unsigned int i = 0; i < n; i++) {
		fx_run_timers(fx, 1000 + 10 * i);
		begin_px(fx, i + 1, 200.0f + 80.0f * (float)i, 300);
	}
	fx_run_timers(fx, 2000);
	for (UFTouchId id = 1; id <= n; id++)
		assert_int_equal(fx->rejected[id], 1);
	return fx;
}

static struct fixture *
fingers_rest(unsigned int n, unsigned int start, int whole, bool other)
{
	return fingers_rest_mode(n, start, whole, other, 0);
}

static void
test_release_palm_at_once(void **state)
{
	(void)state;
	/* five fingers on whole-hand 3-finger rules: the first four go when
	 * the fourth lands, the fifth as it lands */
	struct fixture *fx = fingers_rest(5, 3, 1, false);
	for (UFTouchId id = 1; id <= 4; id++)
		assert_int_equal(fx->rejected_at[id], 1030);
	assert_int_equal(fx->rejected_at[5], 1040);
	assert_int_equal(fx_count_gestures(fx), 0);
	fx_free(fx);

	/* grail 3.1's rules: each waits the drag timeout of its candidates */
	fx = fingers_rest(5, 3, 0, false);
	for (UFTouchId id = 1; id <= 5; id++)
		assert_true(fx->rejected_at[id] > 1300);
	fx_free(fx);

	/* atomic mode: the same */
	fx = fingers_rest_mode(5, 3, 1, false, 1);
	for (UFTouchId id = 1; id <= 4; id++)
		assert_int_equal(fx->rejected_at[id], 1030);
	assert_int_equal(fx->rejected_at[5], 1040);
	assert_int_equal(fx_count_gestures(fx), 0);
	fx_free(fx);

	/* beside an ordinary subscription (five fingers may be its
	 * gesture), nothing is let go of early either */
	fx = fingers_rest(5, 3, 1, true);
	for (UFTouchId id = 1; id <= 5; id++)
		assert_true(fx->rejected_at[id] > 1060);
	fx_free(fx);
}

static void
test_release_what_remains(void **state)
{
	(void)state;
	/* one finger on a 3-finger rule: more may still land within the
	 * composition time (60 ms) */
	struct fixture *fx = fingers_rest(1, 3, 1, false);
	assert_int_equal(fx->rejected_at[1], 1060);
	fx_free(fx);
	/* three resting fingers on a 3-finger drag: it may still start until
	 * the drag timeout (300 ms) has passed */
	fx = fingers_rest(3, 3, 1, false);
	for (UFTouchId id = 1; id <= 3; id++)
		assert_int_equal(fx->rejected_at[id], 1020 + 301);
	fx_free(fx);
	/* four fingers on whole-hand rules for up to four: the fourth is
	 * still the whole hand of the 4-finger rule */
	fx = fx_new();
	subscribe_hand(fx, 3, 4, 1);
	for (unsigned int i = 0; i < 4; i++) {
		fx_run_timers(fx, 1000 + 10 * i);
		begin_px(fx, i + 1, 200.0f + 80.0f * (float)i, 300);
	}
	fx_run_timers(fx, 2000);
	assert_true(fx->rejected_at[1] > 1060);
	fx_free(fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extension_defaults_and_validation),
		cmocka_unit_test(test_velocity_windowed),
		cmocka_unit_test(test_release_velocity),
		cmocka_unit_test(test_velocity_forgets_on_touch_count_change),
		cmocka_unit_test(test_velocity_of_kept_slices),
		cmocka_unit_test(test_hold_recognized_while_held),
		cmocka_unit_test(test_touch_in_a_far_slot_moves_its_gesture),
		cmocka_unit_test(test_hold_added_to_an_active_mask),
		cmocka_unit_test(test_hold_that_moves_becomes_a_drag),
		cmocka_unit_test(test_hold_lifted_early_and_two_fingers),
		cmocka_unit_test(test_multi_tap_counts),
		cmocka_unit_test(test_slow_or_distant_second_tap_is_a_single_tap),
		cmocka_unit_test(test_two_finger_double_tap),
		cmocka_unit_test(test_edge_swipe_from_each_edge),
		cmocka_unit_test(test_edge_touch_without_velocity_is_no_edge_swipe),
		cmocka_unit_test(test_edge_swipe_ruled_out),
		cmocka_unit_test(test_two_finger_edge_swipe),
		cmocka_unit_test(test_whole_hand_property),
		cmocka_unit_test(test_whole_hand_counts),
		cmocka_unit_test(test_whole_hand_counts_resting_fingers),
		cmocka_unit_test(test_whole_hand_late_finger),
		cmocka_unit_test(test_whole_hand_accepted_keeps_going),
		cmocka_unit_test(test_whole_hand_beside_ordinary),
		cmocka_unit_test(test_release_palm_at_once),
		cmocka_unit_test(test_release_what_remains),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
