/*
 * Unit tests of the routing policies of the compositor API: hold,
 * forward-then-cancel, replay, timeouts, simultaneous gestures, surfaces,
 * clients and devices going away, manual accept/reject, errors.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "comp-harness.h"
#include "test-support.h"

#define E_DOWN UTOUCH_COMP_EVENT_TOUCH_DOWN
#define E_MOTION UTOUCH_COMP_EVENT_TOUCH_MOTION
#define E_UP UTOUCH_COMP_EVENT_TOUCH_UP
#define E_FRAME UTOUCH_COMP_EVENT_TOUCH_FRAME
#define E_CANCEL UTOUCH_COMP_EVENT_TOUCH_CANCEL
#define E_GBEGIN UTOUCH_COMP_EVENT_GESTURE_BEGIN
#define E_GUPDATE UTOUCH_COMP_EVENT_GESTURE_UPDATE
#define E_GEND UTOUCH_COMP_EVENT_GESTURE_END

/* Three touches on the left surface swipe 100 px to the right in 10 frames. */
static void
swipe3(struct harness *h, double x0)
{
	for (int i = 0; i < 3; i++)
		h_down(h, i, x0, 100 + 50 * i);
	h_frame(h);
	for (int step = 1; step <= 10; step++) {
		for (int i = 0; i < 3; i++)
			h_move(h, i, x0 + 10 * step, 100 + 50 * i);
		h_frame(h);
	}
	for (int i = 0; i < 3; i++)
		h_up(h, i);
	h_frame(h);
}

static void
test_hold_swipe_client_sees_nothing(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	swipe3(h, 100);
	h_wait(h, 1000);
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(h_count(h, E_FRAME), 0);
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	assert_true(h_count(h, E_GUPDATE) >= 5);
	assert_int_equal(h_count(h, E_GEND), 1);
	/* the gesture moved the centroid by the swipe */
	for (size_t i = h->nlog; i-- > 0;) {
		if (h->log[i].type == E_GEND) {
			assert_int_equal(h->log[i].gesture.num_touches, 3);
			assert_true(h->log[i].gesture.delta_x > 90 && h->log[i].gesture.delta_x < 101);
			assert_true(h->log[i].gesture.delta_y > -1 && h->log[i].gesture.delta_y < 1);
			assert_int_equal(h->log[i].gesture.canceled, 0);
			break;
		}
	}
	h_assert_idle(h);
	h_free(h);
}

static void
test_forward_then_cancel_swipe(void **state)
{
	struct harness *h = h_new();
	size_t cancel_at = 0;

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL);
	swipe3(h, 100);
	h_wait(h, 1000);
	assert_int_equal(h_count(h, E_DOWN), 3);
	assert_int_equal(h_count(h, E_CANCEL), 1);
	assert_int_equal(h_count(h, E_UP), 0);
	/* the first 10 px step recognizes the drag: its motions never reach
	 * the client */
	assert_int_equal(h_count(h, E_MOTION), 0);
	for (size_t i = 0; i < h->nlog; i++)
		if (h->log[i].type == E_CANCEL)
			cancel_at = i;
	assert_ptr_equal(h->log[cancel_at].touch.surface, &h->left);
	assert_ptr_equal(h->log[cancel_at].touch.client, &h->clients[0]);
	/* the downs came first and at once, nothing for the client after the cancel */
	assert_int_equal(h->log[0].type, E_DOWN);
	assert_int_equal(h->log[0].touch.replayed, 0);
	for (size_t i = cancel_at + 1; i < h->nlog; i++)
		assert_true(h->log[i].type >= E_GBEGIN);
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	assert_int_equal(utouch_comp_get_touch_count(h->comp), 0);
	h_free(h);
}

static void
test_tap_is_replayed_in_order(void **state)
{
	struct harness *h = h_new();
	static const enum utouch_comp_event_type want[] = {
		E_DOWN, E_DOWN, E_DOWN, E_FRAME, E_MOTION, E_FRAME, E_UP, E_UP, E_UP, E_FRAME,
	};

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	h_down(h, 0, 100, 100);
	h_down(h, 1, 150, 120);
	h_down(h, 2, 600, 140);
	h_frame(h);
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 0), UTOUCH_COMP_ROUTE_HOLD);
	h_move(h, 0, 101, 101);
	h_frame(h);
	assert_int_equal(h_count(h, 0), 0);
	h_up(h, 0);
	h_up(h, 1);
	h_up(h, 2);
	h_frame(h);
	/* the gesture ended without recognizing anything: everything is
	 * replayed in the original order and frames, on the right surfaces */
	assert_int_equal(h->nlog, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < h->nlog; i++) {
		assert_int_equal(h->log[i].type, want[i]);
		if (want[i] != E_FRAME)
			assert_int_equal(h->log[i].touch.replayed, 1);
	}
	for (int i = 0; i < 3; i++)
		assert_int_equal(h->log[i].touch.id, i);
	assert_true(h->log[0].touch.sx == 100 && h->log[0].touch.sy == 100);
	assert_ptr_equal(h->log[0].touch.surface, &h->left);
	assert_true(h->log[2].touch.sx == 88 && h->log[2].touch.sy == 140);
	assert_ptr_equal(h->log[2].touch.surface, &h->right);
	assert_true(h->log[4].touch.sx == 101 && h->log[4].touch.sy == 101);
	assert_int_equal(h->log[0].time, 1000000);
	assert_int_equal(h->log[6].time, 1020000);
	h_assert_idle(h);
	h_free(h);
}

static void
test_rejected_touches_then_pass_live(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	h_down(h, 0, 100, 100);
	h_down(h, 1, 150, 120);
	h_down(h, 2, 200, 140);
	h_frame(h);
	/* still touches: the drag timeout rejects the gesture */
	h->time = 1000000;
	h_wait(h, 301);
	assert_int_equal(h->nlog, 4);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(h->log[i].type, E_DOWN);
		assert_int_equal(h->log[i].touch.id, i);
	}
	assert_int_equal(h->log[3].type, E_FRAME);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 1),
			 UTOUCH_COMP_ROUTE_DELIVER);
	h_move(h, 1, 160, 130);
	assert_int_equal(h->log[4].type, E_MOTION);
	assert_int_equal(h->log[4].touch.replayed, 0);
	assert_true(h->log[4].touch.sx == 160);
	h_frame(h);
	assert_int_equal(h->log[5].type, E_FRAME);
	h_up(h, 0);
	h_up(h, 1);
	h_up(h, 2);
	h_frame(h);
	assert_int_equal(h_count(h, E_UP), 3);
	assert_int_equal(h->nlog, 10);
	assert_int_equal(utouch_comp_get_touch_count(h->comp), 0);
	h_free(h);
}

static void
test_lone_touch_released_after_60ms(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	h_down(h, 0, 100, 100);
	h_frame(h);
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(utouch_comp_next_timeout(h->comp), 1000000 + 60000);
	h->time = 1000000;
	h_wait(h, 59);
	assert_int_equal(h_count(h, 0), 0);
	h_wait(h, 1);
	assert_int_equal(h_count(h, E_DOWN), 1);
	assert_int_equal(h->log[0].touch.replayed, 1);
	assert_int_equal(h->log[1].type, E_FRAME);
	assert_int_equal(utouch_comp_next_timeout(h->comp), 0);
	h_free(h);
}

static void
test_still_touch_released_by_gesture_timeout(void **state)
{
	struct harness *h = h_new();

	/* a one-finger drag (an edge swipe, say): the gesture exists at once
	 * and keeps the touch until its 300 ms drag timeout */
	h_subscribe(h, UGGestureTypeDrag, 1, UTOUCH_COMP_POLICY_HOLD);
	h_down(h, 0, 100, 100);
	h_frame(h);
	h->time = 1000000;
	h_wait(h, 300);
	assert_int_equal(h_count(h, 0), 0);
	h_wait(h, 1);
	assert_int_equal(h_count(h, E_DOWN), 1);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 0),
			 UTOUCH_COMP_ROUTE_DELIVER);
	h_free(h);
}

static void
test_timeout_through_the_fd(void **state)
{
	struct harness *h = h_new();
	struct timespec ts;
	struct pollfd pfd;
	uint64_t now;

	h_subscribe(h, UGGestureTypeDrag, 1, UTOUCH_COMP_POLICY_HOLD);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	h->time = now;
	h_down(h, 0, 100, 100);
	h_frame(h);
	pfd.fd = utouch_comp_get_fd(h->comp);
	pfd.events = POLLIN;
	assert_true(pfd.fd >= 0);
	assert_int_equal(poll(&pfd, 1, 0), 0);
	/* the 300 ms timeout wakes the fd with no further input */
	for (int i = 0; i < 20 && h_count(h, E_DOWN) == 0; i++) {
		if (poll(&pfd, 1, 2000) == 1) {
			assert_int_equal(utouch_comp_dispatch(h->comp), 0);
			h_drain(h);
		}
	}
	assert_int_equal(h_count(h, E_DOWN), 1);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	assert_true((uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u >= now + 300000);
	assert_int_equal(poll(&pfd, 1, 0), 0);
	h_free(h);
}

/* A raw touch on the left, then two fingers on the right: with whole-hand
 * off (grail 3.1's subsets) the two are a system pinch while the raw touch
 * goes on; with the default, whole hand, three fingers are down and the
 * pinch is no gesture: the right client gets its two touches whole. */
static void
raw_touch_beside_pinch(int whole)
{
	struct harness *h = h_new();
	size_t raw = 0, right = 0;

	h_subscribe_whole(h, UGGestureTypePinch, 2, UTOUCH_COMP_POLICY_HOLD, whole);
	/* a raw touch on the left client */
	h_down(h, 5, 100, 300);
	h_frame(h);
	h_wait(h, 70);
	assert_int_equal(h_count(h, E_DOWN), 1);
	/* a pinch on the right while the raw touch keeps moving */
	h_down(h, 0, 700, 300);
	h_down(h, 1, 900, 300);
	h_frame(h);
	for (int step = 1; step <= 8; step++) {
		h_move(h, 0, 700 + 10 * step, 300);
		h_move(h, 1, 900 - 10 * step, 300);
		h_move(h, 5, 100 + 5 * step, 300);
		h_frame(h);
	}
	h_up(h, 0);
	h_up(h, 1);
	h_up(h, 5);
	h_frame(h);
	h_wait(h, 500);
	for (size_t i = 0; i < h->nlog; i++) {
		const struct utouch_comp_event *e = &h->log[i];

		if (e->type < E_DOWN || e->type > E_UP)
			continue;
		if (e->touch.id == 5) {
			assert_ptr_equal(e->touch.surface, &h->left);
			raw++;
		} else {
			assert_ptr_equal(e->touch.surface, &h->right);
			right++;
		}
	}
	assert_int_equal(raw, 1 + 8 + 1);
	assert_int_equal(h_count(h, E_CANCEL), 0);
	if (whole) {
		assert_int_equal(h_count(h, E_GBEGIN), 0);
		/* both fingers whole: down, 8 motions and up each */
		assert_int_equal(right, 2 * (1 + 8 + 1));
	} else {
		assert_int_equal(right, 0);
		assert_int_equal(h_count(h, E_GBEGIN), 1);
		assert_int_equal(h_count(h, E_GEND), 1);
		for (size_t i = 0; i < h->nlog; i++)
			if (h->log[i].type == E_GEND)
				assert_true(h->log[i].gesture.scale < 0.5f);
	}
	h_assert_idle(h);
	h_free(h);
}

static void
test_raw_touch_beside_system_pinch(void **state)
{
	(void)state;
	raw_touch_beside_pinch(0);
	raw_touch_beside_pinch(1);
}

/* Issue 23: a ten-finger palm swipe and a three-finger system drag.  The
 * drag never fires and the client gets all ten touches, every event of
 * each; grail 3.1's subsets fired it and left the client a few. */
static size_t
palm_swipe(int whole, size_t *gestures)
{
	struct harness *h = h_new();
	size_t ids_down = 0;
	int seen[10] = { 0 };

	h_subscribe_whole(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD, whole);
	for (int i = 0; i < 10; i++)
		h_down(h, i, 550 + 40 * i, 300 + 15 * (i % 3));
	h_frame(h);
	for (int step = 1; step <= 10; step++) {
		for (int i = 0; i < 10; i++)
			h_move(h, i, 550 + 40 * i - 30 * step, 300 + 15 * (i % 3));
		h_frame(h);
	}
	for (int i = 0; i < 10; i++)
		h_up(h, i);
	h_frame(h);
	h_wait(h, 500);
	for (size_t i = 0; i < h->nlog; i++) {
		const struct utouch_comp_event *e = &h->log[i];

		if (e->type == E_DOWN && !seen[e->touch.id]++)
			ids_down++;
	}
	*gestures = h_count(h, E_GBEGIN);
	if (whole) {
		assert_int_equal(h_count(h, E_DOWN), 10);
		assert_int_equal(h_count(h, E_MOTION), 10 * 10);
		assert_int_equal(h_count(h, E_UP), 10);
		assert_int_equal(h_count(h, E_CANCEL), 0);
	}
	h_assert_idle(h);
	h_free(h);
	return ids_down;
}

static void
test_palm_swipe_reaches_client_whole(void **state)
{
	size_t gestures = 0;

	(void)state;
	assert_int_equal(palm_swipe(1, &gestures), 10);
	assert_int_equal(gestures, 0);
	/* grail 3.1's subsets, as the issue saw them: three drags of three of
	 * the fingers, and the client got 1 of the 10 touches */
	assert_int_equal(palm_swipe(0, &gestures), 1);
	assert_int_equal(gestures, 3);
}

static void
test_two_clients_and_disconnect(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	/* one touch on each surface and one more on the left: a tap */
	h_down(h, 0, 100, 100);
	h_down(h, 1, 600, 100);
	h_down(h, 2, 150, 100);
	h_frame(h);
	/* the right client disconnects while its touch is held */
	utouch_comp_client_destroyed(h->comp, &h->clients[1]);
	h_drain(h);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 1),
			 UTOUCH_COMP_ROUTE_CANCELLED);
	h_up(h, 0);
	h_up(h, 1);
	h_up(h, 2);
	h_frame(h);
	h_wait(h, 500);
	/* the left client got its two touches replayed, the right one nothing */
	for (size_t i = 0; i < h->nlog; i++) {
		if (h->log[i].type >= E_DOWN && h->log[i].type <= E_UP) {
			assert_ptr_equal(h->log[i].touch.surface, &h->left);
			assert_int_not_equal(h->log[i].touch.id, 1);
		}
	}
	assert_int_equal(h_count(h, E_DOWN), 2);
	assert_int_equal(h_count(h, E_UP), 2);
	h_assert_idle(h);
	h_free(h);
}

static void
test_device_removed_mid_gesture(void **state)
{
	struct harness *h = h_new();
	struct utouch_comp_device_info info;

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL);
	h_subscribe(h, UGGestureTypePinch, 2, UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL);
	h_down(h, 0, 100, 100);
	h_down(h, 1, 150, 100);
	h_frame(h);
	h_move(h, 0, 101, 100);
	h_frame(h);
	assert_int_equal(h_count(h, E_DOWN), 2);
	utouch_comp_device_remove(h->comp, h->dev);
	h_drain(h);
	assert_int_equal(h_count(h, E_CANCEL), 1);
	assert_int_equal(utouch_comp_get_touch_count(h->comp), 0);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 0);
	/* a new device works normally */
	memset(&info, 0, sizeof(info));
	info.direct = 1;
	h->dev = utouch_comp_device_add(h->comp, &info);
	assert_non_null(h->dev);
	h->nlog = 0;
	swipe3(h, 100);
	assert_int_equal(h_count(h, E_CANCEL), 1);
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	h_free(h);
}

static void
test_device_removed_while_held(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	for (int i = 0; i < 3; i++)
		h_down(h, i, 100 + 30 * i, 100);
	h_frame(h);
	for (int i = 0; i < 3; i++)
		h_move(h, i, 140 + 30 * i, 100);
	h_frame(h);
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	utouch_comp_device_remove(h->comp, h->dev);
	h->dev = NULL;
	h_drain(h);
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(h->log[h->nlog - 1].type, E_GEND);
	assert_int_equal(h->log[h->nlog - 1].gesture.canceled, 1);
	h_assert_idle(h);
	h_free(h);
}

/*
 * Two devices with three-finger gestures in flight (one touch moved but not
 * framed yet) are removed one after the other, as utouch-wlcomp does when
 * its touchscreens go away: every event handed out after a removal names
 * only devices that still exist, and nothing is left behind.
 */
static void
remove_two_devices(enum utouch_comp_policy policy)
{
	struct harness *h = h_new();
	struct utouch_comp_device *devs[2];
	struct utouch_comp_event ev;
	int mark;

	h_subscribe(h, UGGestureTypeDrag, 3, policy);
	h_subscribe(h, UGGestureTypePinch, 4, policy);
	devs[0] = h->dev;
	devs[1] = h_add_device(h, "second touchscreen", &mark);
	for (int d = 0; d < 2; d++) {
		h->dev = devs[d];
		for (int i = 0; i < 3; i++)
			h_down(h, i, 100 + 30 * i + 500 * d, 100);
		h_frame(h);
		for (int s = 1; s <= 3; s++) {
			for (int i = 0; i < 3; i++)
				h_move(h, i, 100 + 30 * i + 500 * d + 5 * s, 100 + 20 * s);
			h_frame(h);
		}
		h_move(h, 0, 100 + 500 * d + 30, 190);   /* not framed */
	}
	assert_int_equal(h_count(h, E_GBEGIN), 2);
	for (int d = 0; d < 2; d++) {
		h->no_drain = 1;
		utouch_comp_device_remove(h->comp, devs[d]);
		h->no_drain = 0;
		while (utouch_comp_next_event(h->comp, &ev)) {
			struct utouch_comp_device *named =
				ev.type >= UTOUCH_COMP_EVENT_GESTURE_BEGIN ? ev.gesture.device
				: ev.touch.device;

			/* a removed device is never handed out again */
			for (int r = 0; r <= d; r++)
				if (named == devs[r])
					fail_msg("event %s names removed device %d",
						 utouch_comp_event_type_name(ev.type), r);
			if (named)
				assert_ptr_equal(utouch_comp_device_get_user_data(named), &mark);
			h->log[h->nlog++] = ev;
		}
		h_wait(h, 1000);
	}
	h->dev = NULL;
	assert_int_equal(h_count(h, E_GEND), 2);
	h_assert_idle(h);
	h_free(h);
}

static void
test_two_devices_removed_hold(void **state)
{
	remove_two_devices(UTOUCH_COMP_POLICY_HOLD);
}

static void
test_two_devices_removed_forward(void **state)
{
	remove_two_devices(UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL);
}

static void
test_surface_destroyed_drops_held(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	h_down(h, 0, 100, 100);
	h_frame(h);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 1);
	utouch_comp_surface_destroyed(h->comp, &h->left);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 0);
	h_wait(h, 100);
	h_up(h, 0);
	h_frame(h);
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(utouch_comp_get_touch_count(h->comp), 0);
	h_free(h);
}

static void
test_manual_accept_and_reject(void **state)
{
	struct harness *h = h_new();
	struct utouch_comp_subscription_params p;
	struct utouch_comp_subscription *sub;
	unsigned int id = 0;

	utouch_comp_subscription_params_init(&p);
	p.mask = UGGestureTypeDrag;
	p.touches_start = 2;
	p.accept = UTOUCH_COMP_ACCEPT_MANUAL;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), 0);
	h_down(h, 0, 100, 100);
	h_down(h, 1, 200, 100);
	h_frame(h);
	for (int step = 1; step <= 3; step++) {
		h_move(h, 0, 100 + 20 * step, 100);
		h_move(h, 1, 200 + 20 * step, 100);
		h_frame(h);
	}
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	for (size_t i = 0; i < h->nlog; i++)
		if (h->log[i].type == E_GBEGIN)
			id = h->log[i].gesture.id;
	assert_ptr_equal(h->log[0].gesture.subscription, sub);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 0), UTOUCH_COMP_ROUTE_HOLD);
	/* the compositor says no: both touches are replayed with every motion */
	assert_int_equal(utouch_comp_gesture_reject(h->comp, id), 0);
	h_drain(h);
	/* they could still join another gesture for 60 ms after they began */
	assert_int_equal(h_count(h, E_DOWN), 0);
	h->time = 1000000;
	h_wait(h, 60);
	assert_int_equal(h_count(h, E_DOWN), 2);
	assert_int_equal(h_count(h, E_MOTION), 6);
	assert_int_equal(utouch_comp_gesture_reject(h->comp, id), -ENOENT);
	assert_int_equal(utouch_comp_gesture_accept(h->comp, id), -ENOENT);
	h_up(h, 0);
	h_up(h, 1);
	h_frame(h);

	/* and now yes */
	h->nlog = 0;
	h_down(h, 0, 100, 100);
	h_down(h, 1, 200, 100);
	h_frame(h);
	for (int step = 1; step <= 3; step++) {
		h_move(h, 0, 100 + 20 * step, 100);
		h_move(h, 1, 200 + 20 * step, 100);
		h_frame(h);
	}
	for (size_t i = 0; i < h->nlog; i++)
		if (h->log[i].type == E_GBEGIN)
			id = h->log[i].gesture.id;
	assert_int_equal(utouch_comp_gesture_accept(h->comp, id), 0);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 0),
			 UTOUCH_COMP_ROUTE_SYSTEM);
	h_up(h, 0);
	h_up(h, 1);
	h_frame(h);
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 0);
	h_free(h);
}

static void
test_region_limits_subscription(void **state)
{
	struct harness *h = h_new();
	struct utouch_comp_subscription_params p;
	struct utouch_comp_subscription *edge;

	/* a one-finger swipe from the left edge */
	utouch_comp_subscription_params_init(&p);
	p.mask = UGGestureTypeDrag;
	p.touches_start = 1;
	p.region = (struct utouch_comp_rect){ 0, 0, 20, 768 };
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &edge), 0);
	/* a touch away from the edge is not a candidate: delivered at once */
	h_down(h, 0, 300, 100);
	assert_int_equal(h_count(h, E_DOWN), 1);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 0),
			 UTOUCH_COMP_ROUTE_DELIVER);
	h_up(h, 0);
	h_frame(h);
	h->nlog = 0;
	/* one at the edge that swipes in is the system's */
	h_down(h, 1, 5, 100);
	h_frame(h);
	for (int step = 1; step <= 5; step++) {
		h_move(h, 1, 5 + 30 * step, 100);
		h_frame(h);
	}
	h_up(h, 1);
	h_frame(h);
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	assert_ptr_equal(h->log[0].gesture.subscription, edge);
	h_free(h);
}

static void
test_unsubscribe_releases_held(void **state)
{
	struct harness *h = h_new();
	struct utouch_comp_subscription *sub;

	sub = h_subscribe(h, UGGestureTypeDrag, 1, UTOUCH_COMP_POLICY_HOLD);
	h_down(h, 0, 100, 100);
	h_frame(h);
	assert_int_equal(h_count(h, 0), 0);
	utouch_comp_unsubscribe(h->comp, sub);
	h_drain(h);
	assert_int_equal(h_count(h, E_DOWN), 1);
	assert_null(utouch_comp_get_subscription(h->comp, 0));
	h_move(h, 0, 120, 100);
	assert_int_equal(h_count(h, E_MOTION), 1);
	h_free(h);
}

static void
test_errors(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct harness *h = h_new();
	struct utouch_comp_subscription_params p;
	struct utouch_comp_subscription *sub;
	struct utouch_comp *other = utouch_comp_new(NULL);
	struct utouch_comp_event ev;

	assert_string_equal(utouch_comp_get_seat_name(h->comp), "seat0");
	assert_string_equal(utouch_comp_get_seat_name(other), "");
	assert_string_equal(utouch_comp_device_get_name(h->dev), "test touchscreen");
	assert_int_equal(utouch_comp_touch_down(NULL, h->dev, 0, 1, 0, 0, NULL, NULL, 0, 0),
			 -EINVAL);
	assert_int_equal(utouch_comp_touch_down(other, h->dev, 0, 1, 0, 0, NULL, NULL, 0, 0),
			 -EINVAL);
	assert_int_equal(utouch_comp_touch_motion(h->comp, h->dev, 7, 1, 0, 0, 0, 0), -ENOENT);
	assert_int_equal(utouch_comp_touch_up(h->comp, h->dev, 7, 1), -ENOENT);
	assert_int_equal(utouch_comp_touch_cancel(h->comp, h->dev, 7, 1), -ENOENT);
	assert_int_equal(utouch_comp_touch_down(h->comp, h->dev, 0, 1, 0, 0, &h->left, NULL, 0, 0),
			 0);
	assert_int_equal(utouch_comp_touch_down(h->comp, h->dev, 0, 1, 0, 0, &h->left, NULL, 0, 0),
			 -EEXIST);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 0),
			 UTOUCH_COMP_ROUTE_DELIVER);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 1), UTOUCH_COMP_ROUTE_NONE);
	assert_int_equal(utouch_comp_next_event(h->comp, NULL), 0);
	assert_int_equal(utouch_comp_next_event(h->comp, &ev), 1);
	assert_int_equal(ev.type, E_DOWN);

	utouch_comp_subscription_params_init(&p);
	p.mask = 0;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), -EINVAL);
	p.mask = 0x40;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), -EINVAL);
	p.mask = UGGestureTypeDrag;
	p.touches_start = 6;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), -EINVAL);
	p.touches_start = 3;
	p.touches_maximum = 2;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), -EINVAL);
	p.touches_maximum = 0;
	p.drag_threshold = -1;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), -EINVAL);
	p.drag_threshold = 0.01f;
	p.policy = 7;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), -EINVAL);
	p.policy = UTOUCH_COMP_POLICY_HOLD;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), 0);
	p.atomic = 1;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), -EBUSY);
	assert_int_equal(utouch_comp_gesture_accept(h->comp, 12345), -ENOENT);
	assert_string_equal(utouch_comp_route_name(UTOUCH_COMP_ROUTE_HOLD), "hold");
	assert_string_equal(utouch_comp_event_type_name(E_CANCEL), "touch-cancel");
	assert_null(utouch_comp_device_add(h->comp, NULL));
	assert_int_equal(errno, EINVAL);

	/* options */
	sub = utouch_comp_get_subscription(h->comp, 0);
	assert_non_null(sub);
	assert_int_equal(utouch_comp_subscription_set_option(sub, "action", "close"), 0);
	assert_int_equal(utouch_comp_subscription_set_option(sub, "action", "minimize"), 0);
	assert_string_equal(utouch_comp_subscription_get_option(sub, "action"), "minimize");
	assert_int_equal(utouch_comp_subscription_set_option(sub, "action", NULL), 0);
	assert_null(utouch_comp_subscription_get_option(sub, "action"));
	assert_int_equal(utouch_comp_get_fd(NULL), -1);
	utouch_comp_destroy(other);
	utouch_comp_destroy(NULL);
	h_free(h);
	UT_CLIENT_BUGS_END(3);
}

/* A finite position beyond float's range (a compositor's broken transform)
 * is refused like infinity: let through, it reached the frame as infinity,
 * the frame refused the touch and the touch stayed undecided and held for
 * ever. */
static void
test_position_beyond_float(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct harness *h = h_new();
	struct h_surface *s = &h->left;
	void *c = &h->clients[s->client];

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	assert_int_equal(utouch_comp_touch_down(h->comp, h->dev, 0, h->time, 1e39, 10, s, c,
						10, 10), -EINVAL);
	assert_int_equal(utouch_comp_touch_down(h->comp, h->dev, 0, h->time, 10, -1e300, s, c,
						10, 10), -EINVAL);
	assert_int_equal(utouch_comp_get_touch_count(h->comp), 0);
	/* the largest float still works */
	assert_int_equal(utouch_comp_touch_down(h->comp, h->dev, 1, h->time, 3e38, 10, s, c,
						10, 10), 0);
	h_down(h, 0, 100, 100);
	h_frame(h);
	assert_int_equal(utouch_comp_touch_motion(h->comp, h->dev, 0, h->time, 1e39, 100, 10,
						  10), -EINVAL);
	h_move(h, 0, 110, 100);
	h_frame(h);
	h_up(h, 0);
	h_up(h, 1);
	h_frame(h);
	h_wait(h, 1000);
	h_assert_idle(h);
	assert_int_equal(h_count(h, E_DOWN), 2);
	assert_int_equal(h_count(h, E_UP), 2);
	h_free(h);
	UT_CLIENT_BUGS_END(3);
}

/* The input clock steps back by seconds (a device's clock reset) while a
 * touch is held: grail's timer for it was armed in the old clock and fired
 * that much late, the touches held for seconds (advance_time() to the new
 * clock was ignored as "before the latest input"). */
static void
test_clock_steps_back(void **state)
{
	struct harness *h = h_new();
	uint64_t frame, next;

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	h->time = 100000000;
	h_down(h, 0, 100, 100);
	h_frame(h);
	h->time -= 5000000;
	frame = h->time;
	h_down(h, 1, 200, 100);
	h_frame(h);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 2);
	/* the 60 ms grouping window, in the input clock */
	next = utouch_comp_next_timeout(h->comp);
	assert_true(next > frame && next <= frame + 61000);
	h_wait(h, 60);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 0);
	assert_int_equal(h_count(h, E_DOWN), 2);
	/* microseconds back, as hardware does, change nothing */
	h->time -= 10003;
	h_move(h, 0, 110, 100);
	h_frame(h);
	h_up(h, 0);
	h_up(h, 1);
	h_frame(h);
	h_wait(h, 1000);
	assert_int_equal(h_count(h, E_UP), 2);
	h_assert_idle(h);
	h_free(h);
}

/* Times at the end of the clock: grail's timers for a touch stamped within
 * its timeout of 2^64 us lay beyond any time the compositor could give, and
 * the touch stayed held for ever.  The clock may come back from there. */
static void
test_clock_at_its_end(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	h->time = UINT64_MAX - 30000;
	h_down(h, 0, 100, 100);
	h_down(h, 1, 200, 100);
	assert_int_equal(utouch_comp_touch_frame(h->comp, h->dev, h->time), 0);
	h_drain(h);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 2);
	assert_true(utouch_comp_next_timeout(h->comp) != 0);
	assert_int_equal(utouch_comp_advance_time(h->comp, UINT64_MAX), 0);
	h_drain(h);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 0);
	assert_int_equal(h_count(h, E_DOWN), 2);
	assert_int_equal(utouch_comp_touch_up(h->comp, h->dev, 0, UINT64_MAX), 0);
	assert_int_equal(utouch_comp_touch_up(h->comp, h->dev, 1, UINT64_MAX), 0);
	assert_int_equal(utouch_comp_touch_frame(h->comp, h->dev, UINT64_MAX), 0);
	h_drain(h);
	assert_int_equal(h_count(h, E_UP), 2);
	h_assert_idle(h);

	/* and back to the start of the clock */
	h->time = 1000000;
	h_down(h, 2, 100, 100);
	h_frame(h);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 1);
	h_wait(h, 100);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 0);
	h_up(h, 2);
	h_frame(h);
	h_wait(h, 1000);
	assert_int_equal(h_count(h, E_DOWN), 3);
	assert_int_equal(h_count(h, E_UP), 3);
	h_assert_idle(h);
	h_free(h);
}

/* Handles of a removed device and of a removed subscription: the calls
 * that take the context find them gone without reading them (the device
 * check read the freed device: heap-use-after-free under ASan). */
static void
test_removed_handles(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct harness *h = h_new();
	struct utouch_comp_device *gone = h_add_device(h, "gone", NULL);
	struct utouch_comp_subscription *sub = h_subscribe(h, UGGestureTypeDrag, 3,
							   UTOUCH_COMP_POLICY_HOLD);

	assert_int_equal(utouch_comp_touch_down(h->comp, gone, 1, h->time, 10, 10, &h->left,
						NULL, 10, 10), 0);
	utouch_comp_device_remove(h->comp, gone);
	assert_int_equal(utouch_comp_touch_down(h->comp, gone, 2, h->time, 10, 10, &h->left,
						NULL, 10, 10), -EINVAL);
	assert_int_equal(utouch_comp_touch_motion(h->comp, gone, 1, h->time, 10, 10, 10, 10),
			 -EINVAL);
	assert_int_equal(utouch_comp_touch_up(h->comp, gone, 1, h->time), -EINVAL);
	assert_int_equal(utouch_comp_touch_cancel(h->comp, gone, 1, h->time), -EINVAL);
	assert_int_equal(utouch_comp_touch_frame(h->comp, gone, h->time), -EINVAL);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, gone, 1), UTOUCH_COMP_ROUTE_NONE);
	utouch_comp_device_remove(h->comp, gone);
	utouch_comp_unsubscribe(h->comp, sub);
	utouch_comp_unsubscribe(h->comp, sub);
	assert_null(utouch_comp_get_subscription(h->comp, 0));
	/* the other device goes on */
	h_down(h, 0, 100, 100);
	h_frame(h);
	h_up(h, 0);
	h_frame(h);
	h_wait(h, 1000);
	h_assert_idle(h);
	h_free(h);
	UT_CLIENT_BUGS_END(7);
}

static void
test_touch_cancel_from_device(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL);
	h_down(h, 0, 100, 100);
	h_frame(h);
	assert_int_equal(utouch_comp_touch_cancel(h->comp, h->dev, 0, h->time), 0);
	h_drain(h);
	h_frame(h);
	assert_int_equal(h_count(h, E_DOWN), 1);
	assert_int_equal(h_count(h, E_CANCEL), 1);
	h_wait(h, 500);
	assert_int_equal(utouch_comp_get_touch_count(h->comp), 0);
	h_free(h);
}


/* ---- order across decisions: a touch released while an earlier touch of
 * its device is still held waits behind it ---- */

struct want {
	enum utouch_comp_event_type type;
	int32_t id;
	uint64_t ms;   /* the event's time, ms after 1 s (frames: not checked) */
};

/* The log is exactly @want: types, touch ids, original times, and every
 * touch event marked replayed (it was held back). */
static void
assert_log(const struct harness *h, const struct want *want, size_t n)
{
	if (h->nlog != n)
		h_dump(h);
	assert_int_equal(h->nlog, n);
	for (size_t i = 0; i < n; i++) {
		const struct utouch_comp_event *e = &h->log[i];

		if (e->type != want[i].type)
			h_dump(h);
		assert_int_equal(e->type, want[i].type);
		if (want[i].type == E_FRAME)
			continue;
		assert_int_equal(e->touch.id, want[i].id);
		assert_int_equal(e->time, 1000000 + want[i].ms * 1000);
		assert_int_equal(e->touch.replayed, 1);
	}
}

/* The input clock at @ms after 1 s; what is due runs first, as the
 * context's fd would have made the compositor do. */
static void
at(struct harness *h, uint64_t ms)
{
	h->time = 1000000 + ms * 1000;
	assert_int_equal(utouch_comp_advance_time(h->comp, h->time), 0);
	h_drain(h);
}

/* The report from utouch-wlcomp with GTK 3 and Qt 6: a two-finger tap (A
 * at 0 ms, B at 20, A lifts at 40, B at 60) on three-finger subscriptions.
 * A is rejected when it ends, B only later: A's down and up were replayed
 * before B's down, and the toolkit saw two single taps. */
static void
test_two_finger_tap_keeps_order(void **state)
{
	struct harness *h = h_new();
	static const struct want want[] = {
		{ E_DOWN, 0, 0 }, { E_FRAME, 0, 0 }, { E_DOWN, 1, 20 }, { E_FRAME, 0, 0 },
		{ E_UP, 0, 40 }, { E_FRAME, 0, 0 }, { E_UP, 1, 60 }, { E_FRAME, 0, 0 },
	};

	(void)state;
	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	at(h, 0);
	h_down(h, 0, 100, 100);
	h_frame(h);
	at(h, 20);
	h_down(h, 1, 200, 100);
	h_frame(h);
	at(h, 40);
	h_up(h, 0);
	h_frame(h);
	/* A is decided, B is not: nothing of A after B's down goes out */
	assert_int_equal(h_count(h, E_UP), 0);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 1), UTOUCH_COMP_ROUTE_HOLD);
	at(h, 60);
	h_up(h, 1);
	h_frame(h);
	h_wait(h, 500);
	assert_log(h, want, sizeof(want) / sizeof(want[0]));
	assert_true(h->log[2].touch.sx == 200 && h->log[2].touch.sy == 100);
	h_assert_idle(h);
	h_free(h);
}

/* A client's own two-finger pinch whose fingers land 5 ms apart: A is
 * released 60 ms after it began, B 5 ms later; A's motions since B's down
 * went out before B's down.  Now the client gets the input order, frame by
 * frame. */
static void
test_staggered_pinch_keeps_order(void **state)
{
	struct harness *h = h_new();
	struct want want[64];
	size_t n = 0;

	(void)state;
	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	at(h, 0);
	h_down(h, 0, 300, 300);
	h_frame(h);
	want[n++] = (struct want){ E_DOWN, 0, 0 };
	want[n++] = (struct want){ E_FRAME, 0, 0 };
	at(h, 5);
	h_down(h, 1, 330, 300);
	h_frame(h);
	want[n++] = (struct want){ E_DOWN, 1, 5 };
	want[n++] = (struct want){ E_FRAME, 0, 0 };
	for (int step = 1; step <= 9; step++) {
		uint64_t ms = 5 + 8 * (uint64_t)step;   /* 13 .. 77: past both releases */

		at(h, ms);
		h_move(h, 0, 300 - 8 * step, 300);
		h_move(h, 1, 330 + 8 * step, 300);
		h_frame(h);
		want[n++] = (struct want){ E_MOTION, 0, ms };
		want[n++] = (struct want){ E_MOTION, 1, ms };
		want[n++] = (struct want){ E_FRAME, 0, 0 };
	}
	at(h, 90);
	h_up(h, 0);
	h_up(h, 1);
	h_frame(h);
	want[n++] = (struct want){ E_UP, 0, 90 };
	want[n++] = (struct want){ E_UP, 1, 90 };
	want[n++] = (struct want){ E_FRAME, 0, 0 };
	h_wait(h, 500);
	/* the last motions and the ups came after both releases: live */
	for (size_t i = 0; i < h->nlog; i++)
		if (h->log[i].type != E_FRAME && h->log[i].time >= 1069000)
			h->log[i].touch.replayed = 1;
	assert_log(h, want, n);
	h_assert_idle(h);
	h_free(h);
}

/* A one-finger drag from the left edge (a 16 px strip), as utouch-wlcomp's. */
static void
subscribe_edge(struct harness *h)
{
	struct utouch_comp_subscription_params p;
	struct utouch_comp_subscription *edge;

	utouch_comp_subscription_params_init(&p);
	p.mask = UGGestureTypeDrag;
	p.touches_start = 1;
	p.region = (struct utouch_comp_rect){ 0, 0, 16, 768 };
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &edge), 0);
}

/* An edge swipe (a one-finger system drag in a 16 px strip) and, on three-
 * finger subscriptions everywhere, a touch A in the middle that lands
 * first: A ends while the edge finger B is undecided, so A's up waits
 * behind B's down (ms after 1 s: A 0-20, B from 10).  Both surfaces are
 * the left one's client's here: events wait only behind an undecided
 * touch of their own client. */
static void
edge_and_tap(struct harness *h, double ax)
{
	h->right.client = 0;
	subscribe_edge(h);
	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	at(h, 0);
	h_down(h, 0, ax, 300);
	h_frame(h);
	at(h, 10);
	h_down(h, 1, 5, 400);
	h_frame(h);
	at(h, 20);
	h_up(h, 0);
	h_frame(h);
	/* A was released at its end: its down came before B's and went out,
	 * its up waits for B */
	assert_int_equal(h->nlog, 2);
	assert_int_equal(h->log[0].type, E_DOWN);
	assert_int_equal(h->log[0].touch.id, 0);
	assert_int_equal(h->log[1].type, E_FRAME);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 2);
}

/* The blocker is accepted by a system gesture: its events are dropped and
 * A's up goes out, with its time. */
static void
test_blocker_accepted(void **state)
{
	struct harness *h = h_new();
	size_t up = 0;

	(void)state;
	edge_and_tap(h, 300);
	for (int step = 1; step <= 4; step++) {
		at(h, 20 + 10 * (uint64_t)step);
		h_move(h, 1, 5 + 30 * step, 400);
		h_frame(h);
	}
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	assert_int_equal(utouch_comp_touch_get_route(h->comp, h->dev, 1),
			 UTOUCH_COMP_ROUTE_SYSTEM);
	assert_int_equal(h_count(h, E_UP), 1);
	for (size_t i = 0; i < h->nlog; i++) {
		const struct utouch_comp_event *e = &h->log[i];

		if (e->type != E_FRAME && e->type <= E_CANCEL)
			assert_int_equal(e->touch.id, 0);
		if (e->type == E_UP)
			up = i;
	}
	assert_int_equal(h->log[up].time, 1020000);
	assert_int_equal(h->log[up].touch.replayed, 1);
	assert_int_equal(h->log[up + 1].type, E_FRAME);
	at(h, 80);
	h_up(h, 1);
	h_frame(h);
	h_wait(h, 500);
	assert_int_equal(h_count(h, 0), 2);
	h_assert_idle(h);
	h_free(h);
}

/* A's surface goes away while A's up waits: nothing more reaches it; B is
 * released by its drag timeout and goes to its own surface. */
static void
test_blocked_touch_client_gone(void **state)
{
	struct harness *h = h_new();
	size_t right = 0;

	(void)state;
	edge_and_tap(h, 600);
	utouch_comp_surface_destroyed(h->comp, &h->right);
	h_drain(h);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 1);
	h_wait(h, 400);
	at(h, 500);
	h_up(h, 1);
	h_frame(h);
	h_wait(h, 500);
	for (size_t i = 0; i < h->nlog; i++) {
		const struct utouch_comp_event *e = &h->log[i];

		if (e->type == E_FRAME || e->type > E_CANCEL)
			continue;
		if (e->touch.surface == &h->right)
			right++;
		else
			assert_int_equal(e->touch.id, 1);
	}
	assert_int_equal(right, 1);
	assert_int_equal(h_count(h, E_DOWN), 2);
	assert_int_equal(h_count(h, E_UP), 1);
	assert_int_equal(h_count(h, E_CANCEL), 0);
	h_assert_idle(h);
	h_free(h);
}

/* The device goes away while A's up waits: A's client saw its down, so it
 * gets a cancel (its up never comes); the held B was never seen. */
static void
test_blocked_touch_device_removed(void **state)
{
	struct harness *h = h_new();

	(void)state;
	edge_and_tap(h, 600);
	utouch_comp_device_remove(h->comp, h->dev);
	h->dev = NULL;
	h_drain(h);
	assert_int_equal(h_count(h, E_CANCEL), 1);
	assert_ptr_equal(h->log[h->nlog - 1].touch.client, &h->clients[0]);
	assert_int_equal(h_count(h, 0), 2);
	h_assert_idle(h);
	h_free(h);
}

/* Destroyed with events waiting behind an undecided touch: nothing leaks
 * (the ASan build checks). */
static void
test_destroy_with_blocked_events(void **state)
{
	struct harness *h = h_new();

	(void)state;
	edge_and_tap(h, 600);
	h_free(h);
}

/* Devices are independent: a touch of a second screen is live while the
 * first screen's A waits behind its held edge finger; a new touch of the
 * first screen that no subscription holds waits as well. */
static void
test_blocked_per_device(void **state)
{
	struct harness *h = h_new();
	struct utouch_comp_device *first = h->dev;
	struct utouch_comp_device *second = h_add_device(h, "second touchscreen", NULL);

	(void)state;
	subscribe_edge(h);
	at(h, 0);
	h_down(h, 1, 5, 400);   /* held: the edge */
	h_frame(h);
	at(h, 10);
	h_down(h, 0, 300, 300); /* in no region, behind the edge finger */
	h_frame(h);
	h->dev = second;
	h_down(h, 0, 300, 300); /* in no region, another device */
	h_frame(h);
	assert_int_equal(h->nlog, 2);
	assert_ptr_equal(h->log[0].touch.device, second);
	assert_int_equal(h->log[0].touch.replayed, 0);
	h->dev = first;
	/* the edge finger stays still: its drag timeout releases it */
	h_wait(h, 400);
	assert_int_equal(h_count(h, E_DOWN), 3);
	assert_int_equal(h->log[2].touch.id, 1);
	assert_ptr_equal(h->log[2].touch.device, first);
	/* in their own frames, as they came */
	assert_int_equal(h->log[3].type, E_FRAME);
	assert_int_equal(h->log[4].touch.id, 0);
	assert_ptr_equal(h->log[4].touch.device, first);
	assert_int_equal(h->log[4].time, 1010000);
	assert_int_equal(h->log[4].touch.replayed, 1);
	/* then both are live */
	h_move(h, 0, 310, 300);
	assert_int_equal(h->log[h->nlog - 1].type, E_MOTION);
	assert_int_equal(h->log[h->nlog - 1].touch.replayed, 0);
	h_up(h, 0);
	h_up(h, 1);
	h_frame(h);
	h->dev = second;
	h_up(h, 0);
	h_frame(h);
	h_wait(h, 500);
	assert_int_equal(h_count(h, E_UP), 3);
	h_assert_idle(h);
	h_free(h);
}

/* Clients are independent too: while the edge finger of the left
 * surface's client is undecided, a touch of the right surface's client
 * on the same screen goes out live, and one of the left surface's client
 * waits behind the edge finger. */
static void
test_blocked_per_client(void **state)
{
	struct harness *h = h_new();

	(void)state;
	subscribe_edge(h);
	at(h, 0);
	h_down(h, 1, 5, 400);   /* held: the edge, left client */
	h_frame(h);
	at(h, 10);
	h_down(h, 2, 700, 300); /* in no region, right client: live */
	h_frame(h);
	assert_int_equal(h->nlog, 2);
	assert_int_equal(h->log[0].type, E_DOWN);
	assert_int_equal(h->log[0].touch.id, 2);
	assert_ptr_equal(h->log[0].touch.client, &h->clients[1]);
	assert_int_equal(h->log[0].time, 1010000);
	assert_int_equal(h->log[0].touch.replayed, 0);
	assert_int_equal(h->log[1].type, E_FRAME);
	at(h, 20);
	h_down(h, 0, 300, 300); /* in no region, left client: waits */
	h_move(h, 2, 710, 300);
	h_frame(h);
	assert_int_equal(h->nlog, 4);
	assert_int_equal(h->log[2].type, E_MOTION);
	assert_int_equal(h->log[2].touch.id, 2);
	assert_int_equal(h->log[2].touch.replayed, 0);
	assert_int_equal(h->log[3].type, E_FRAME);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 2);
	at(h, 30);
	h_up(h, 2);
	h_frame(h);
	assert_int_equal(h_count(h, E_UP), 1);
	/* the edge finger stays still: its drag timeout releases it, then
	 * the left client's touch follows in its own frame */
	h_wait(h, 400);
	assert_int_equal(h_count(h, E_DOWN), 3);
	assert_int_equal(h->log[6].type, E_DOWN);
	assert_int_equal(h->log[6].touch.id, 1);
	assert_int_equal(h->log[7].type, E_FRAME);
	assert_int_equal(h->log[8].type, E_DOWN);
	assert_int_equal(h->log[8].touch.id, 0);
	assert_ptr_equal(h->log[8].touch.client, &h->clients[0]);
	assert_int_equal(h->log[8].time, 1020000);
	assert_int_equal(h->log[8].touch.replayed, 1);
	h_up(h, 0);
	h_up(h, 1);
	h_frame(h);
	h_wait(h, 500);
	assert_int_equal(h_count(h, E_UP), 3);
	h_assert_idle(h);
	h_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold_swipe_client_sees_nothing),
		cmocka_unit_test(test_forward_then_cancel_swipe),
		cmocka_unit_test(test_tap_is_replayed_in_order),
		cmocka_unit_test(test_rejected_touches_then_pass_live),
		cmocka_unit_test(test_lone_touch_released_after_60ms),
		cmocka_unit_test(test_still_touch_released_by_gesture_timeout),
		cmocka_unit_test(test_timeout_through_the_fd),
		cmocka_unit_test(test_raw_touch_beside_system_pinch),
		cmocka_unit_test(test_palm_swipe_reaches_client_whole),
		cmocka_unit_test(test_two_clients_and_disconnect),
		cmocka_unit_test(test_device_removed_mid_gesture),
		cmocka_unit_test(test_device_removed_while_held),
		cmocka_unit_test(test_two_devices_removed_hold),
		cmocka_unit_test(test_two_devices_removed_forward),
		cmocka_unit_test(test_surface_destroyed_drops_held),
		cmocka_unit_test(test_manual_accept_and_reject),
		cmocka_unit_test(test_region_limits_subscription),
		cmocka_unit_test(test_unsubscribe_releases_held),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_position_beyond_float),
		cmocka_unit_test(test_clock_steps_back),
		cmocka_unit_test(test_clock_at_its_end),
		cmocka_unit_test(test_removed_handles),
		cmocka_unit_test(test_touch_cancel_from_device),
		cmocka_unit_test(test_two_finger_tap_keeps_order),
		cmocka_unit_test(test_staggered_pinch_keeps_order),
		cmocka_unit_test(test_blocker_accepted),
		cmocka_unit_test(test_blocked_touch_client_gone),
		cmocka_unit_test(test_blocked_touch_device_removed),
		cmocka_unit_test(test_destroy_with_blocked_events),
		cmocka_unit_test(test_blocked_per_device),
		cmocka_unit_test(test_blocked_per_client),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
