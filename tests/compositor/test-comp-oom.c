/*
 * Out of memory in the compositor library (with grail and frame below it,
 * linked statically, their heap calls wrapped: heap-count.h): a seat takes
 * a three-finger swipe, a three-finger tap and a lone touch while the
 * first heap call fails in one run, the second in the next, and so on
 * until a run makes no call that could fail.
 *
 * The compositor does what a real one would: a call that returns -ENOMEM
 * changed nothing (compositor.h), so it makes it again.  The rules hold in
 * every run: each client sees every touch of its surfaces as down, motion,
 * up (or a cancel), never a motion or up of a touch it was not given, and
 * no touch twice; every gesture that began ends; at the end nothing is
 * left in the context; nothing leaks (ASan).  The test keeps off the heap.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <utouch/compositor.h>

#include "frame/frame-private.h"
#include "heap-count.h"

#define TOUCHES 4
#define MAX_GESTURES 64

struct run {
	struct utouch_comp *comp;
	struct utouch_comp_device *dev;
	int clients[2]; /* left and right half of a 1024x768 screen */
	uint64_t time;  /* us */
	/* per client, per touch id: down and not yet up or cancelled */
	bool down[2][TOUCHES];
	bool begun[MAX_GESTURES], ended[MAX_GESTURES];
	unsigned int touch_events, gesture_events;
	char violation[160];
};

static void
violate(struct run *r, const char *what, int id)
{
	if (!r->violation[0])
		snprintf(r->violation, sizeof(r->violation), "%s (%d)", what, id);
}

static void
client_event(struct run *r, const struct utouch_comp_event *ev)
{
	int c = ev->touch.client == &r->clients[1];
	int32_t id = ev->touch.id;

	r->touch_events++;
	if (ev->type == UTOUCH_COMP_EVENT_TOUCH_CANCEL) {
		memset(r->down[c], 0, sizeof(r->down[c]));
		return;
	}
	if (id < 0 || id >= TOUCHES) {
		violate(r, "a touch id the seat never had", id);
		return;
	}
	switch (ev->type) {
	case UTOUCH_COMP_EVENT_TOUCH_DOWN:
		if (r->down[c][id])
			violate(r, "a second down of touch", id);
		r->down[c][id] = true;
		break;
	case UTOUCH_COMP_EVENT_TOUCH_MOTION:
		if (!r->down[c][id])
			violate(r, "a motion of a touch the client was not given", id);
		break;
	default: /* up */
		if (!r->down[c][id])
			violate(r, "an up of a touch the client was not given", id);
		r->down[c][id] = false;
		break;
	}
}

static void
gesture_event(struct run *r, const struct utouch_comp_event *ev)
{
	unsigned int id = ev->gesture.id;

	r->gesture_events++;
	if (id >= MAX_GESTURES) {
		violate(r, "gesture id out of range", (int)id);
		return;
	}
	if (r->ended[id])
		violate(r, "an event after the End of gesture", (int)id);
	if (ev->type == UTOUCH_COMP_EVENT_GESTURE_BEGIN) {
		if (r->begun[id])
			violate(r, "a second Begin of gesture", (int)id);
		r->begun[id] = true;
	} else if (!r->begun[id]) {
		violate(r, "an event before the Begin of gesture", (int)id);
	}
	if (ev->type == UTOUCH_COMP_EVENT_GESTURE_END)
		r->ended[id] = true;
}

static void
drain(struct run *r)
{
	struct utouch_comp_event ev;

	while (utouch_comp_next_event(r->comp, &ev)) {
		switch (ev.type) {
		case UTOUCH_COMP_EVENT_TOUCH_DOWN:
		case UTOUCH_COMP_EVENT_TOUCH_MOTION:
		case UTOUCH_COMP_EVENT_TOUCH_UP:
		case UTOUCH_COMP_EVENT_TOUCH_CANCEL:
			client_event(r, &ev);
			break;
		case UTOUCH_COMP_EVENT_GESTURE_BEGIN:
		case UTOUCH_COMP_EVENT_GESTURE_UPDATE:
		case UTOUCH_COMP_EVENT_GESTURE_END:
			gesture_event(r, &ev);
			break;
		default:
			break;
		}
	}
}

enum call { DOWN, MOTION, UP, FRAME, WAIT };

/* One input call, made again while it runs out of memory (a failed call
 * changed nothing); then the events it made are taken. */
static void
input(struct run *r, enum call call, int32_t id, double x, double y)
{
	int c = x >= 512.0, rc = -ENOMEM;

	for (int tries = 0; tries < 3 && rc == -ENOMEM; tries++) {
		switch (call) {
		case DOWN:
			rc = utouch_comp_touch_down(r->comp, r->dev, id, r->time, x, y,
						    &r->clients[c], &r->clients[c],
						    x - 512.0 * c, y);
			break;
		case MOTION:
			rc = utouch_comp_touch_motion(r->comp, r->dev, id, r->time, x, y,
						      x - 512.0 * c, y);
			break;
		case UP:
			rc = utouch_comp_touch_up(r->comp, r->dev, id, r->time);
			break;
		case FRAME:
			rc = utouch_comp_touch_frame(r->comp, r->dev, r->time);
			break;
		case WAIT:
			rc = utouch_comp_advance_time(r->comp, r->time);
			break;
		}
	}
	if (rc != 0)
		violate(r, "an input call failed", -rc);
	drain(r);
}

static void
frame(struct run *r)
{
	input(r, FRAME, 0, 0, 0);
	r->time += 10000;
}

static void
wait_ms(struct run *r, uint64_t ms)
{
	r->time += ms * 1000;
	input(r, WAIT, 0, 0, 0);
}

/* The seat's input: a three-finger swipe on the left (the system
 * gesture's), a three-finger tap, then a two-finger stroke and a lone
 * touch on the right (the client's). */
static void
script(struct run *r)
{
	for (int i = 0; i < 3; i++)
		input(r, DOWN, i, 100, 100 + 50 * i);
	frame(r);
	for (int step = 1; step <= 10; step++) {
		for (int i = 0; i < 3; i++)
			input(r, MOTION, i, 100 + 12 * step, 100 + 50 * i);
		frame(r);
	}
	for (int i = 0; i < 3; i++)
		input(r, UP, i, 0, 0);
	frame(r);
	wait_ms(r, 400);
	for (int i = 0; i < 3; i++)
		input(r, DOWN, i, 100 + 40 * i, 300);
	frame(r);
	for (int i = 0; i < 3; i++)
		input(r, UP, i, 0, 0);
	frame(r);
	wait_ms(r, 400);
	for (int i = 0; i < 2; i++)
		input(r, DOWN, i, 600 + 60 * i, 200);
	frame(r);
	for (int step = 1; step <= 5; step++) {
		for (int i = 0; i < 2; i++)
			input(r, MOTION, i, 600 + 60 * i + 8 * step, 200);
		frame(r);
	}
	for (int i = 0; i < 2; i++)
		input(r, UP, i, 0, 0);
	frame(r);
	wait_ms(r, 400);
	input(r, DOWN, 3, 700, 300);
	frame(r);
	wait_ms(r, 100);
	input(r, MOTION, 3, 720, 310);
	frame(r);
	input(r, UP, 3, 0, 0);
	frame(r);
	wait_ms(r, 1000);
}

/* A subscription, for the left half of the screen only with @left (its
 * own zone: a touch there is in two zones, so in two of grail's frames). */
static bool
subscribe(struct run *r, UGGestureTypeMask mask, unsigned int touches, bool left)
{
	struct utouch_comp_subscription_params p;
	struct utouch_comp_subscription *sub = NULL;

	utouch_comp_subscription_params_init(&p);
	p.name = "oom";
	p.mask = mask;
	p.touches_start = touches;
	p.policy = UTOUCH_COMP_POLICY_HOLD;
	if (left)
		p.region = (struct utouch_comp_rect){ 0, 0, 512, 768 };
	return utouch_comp_subscribe(r->comp, &p, &sub) == 0;
}

/* One seat's life with the @fail_at-th heap call failing (0: none);
 * false when the setup failed (nothing to check then). */
static bool
one_run(struct run *r, bool zones, uint64_t fail_at)
{
	struct utouch_comp_device_info info;
	bool complete = false;

	memset(r, 0, sizeof(*r));
	r->time = 1000000;
	ut_test_heap_fail_at(fail_at);
	r->comp = utouch_comp_new("seat0");
	if (!r->comp)
		goto out;
	memset(&info, 0, sizeof(info));
	info.name = "oom touchscreen";
	info.direct = 1;
	info.width_mm = 270;
	info.height_mm = 203;
	info.resolution = 1024.0 / 270.0;
	info.max_touches = 10;
	r->dev = utouch_comp_device_add(r->comp, &info);
	if (!r->dev || !subscribe(r, UGGestureTypeDrag, 3, false) ||
	    !subscribe(r, UGGestureTypeTap, 3, false) ||
	    (zones && !subscribe(r, UGGestureTypePinch, 2, true)))
		goto out;
	script(r);
	complete = true;
	for (int c = 0; c < 2; c++)
		for (int id = 0; id < TOUCHES; id++)
			if (r->down[c][id])
				violate(r, "a client's touch never went up", id);
	for (unsigned int id = 0; id < MAX_GESTURES; id++)
		if (r->begun[id] && !r->ended[id])
			violate(r, "a gesture without an End", (int)id);
	if (utouch_comp_get_touch_count(r->comp) != 0 || utouch_comp_get_held_count(r->comp) != 0)
		violate(r, "touches left in the context", 0);
out:
	utouch_comp_destroy(r->comp);
	ut_test_heap_fail_at(0);
	return complete;
}

struct sweep {
	bool zones;
	struct run r;
	unsigned int complete; /* runs that got through the script */
};

static void
sweep_run(void *data, uint64_t fail_at)
{
	struct sweep *s = data;
	s->complete += one_run(&s->r, s->zones, fail_at);
	if (s->r.violation[0])
		fail_msg("heap call %llu failing: %s", (unsigned long long)fail_at, s->r.violation);
}

static void
sweep(bool zones)
{
	struct run r;

	one_run(&r, zones, 0); /* fills what the libraries keep */
	uint64_t before = ut_test_heap_calls();
	assert_true(one_run(&r, zones, 0));
	uint64_t calls = ut_test_heap_calls() - before;
	assert_string_equal(r.violation, "");
	assert_true(r.touch_events > 15);
	assert_true(r.gesture_events > 5);
	assert_true(calls > 10);
	print_message("reference: %llu heap calls, %u touch and %u gesture events\n",
		      (unsigned long long)calls, r.touch_events, r.gesture_events);

	static struct sweep s;
	s = (struct sweep){ .zones = zones };
	uint64_t failed = ut_test_heap_sweep(sweep_run, &s);
	assert_true(failed >= calls);
	assert_true(s.complete > 0);
	print_message("%llu runs, each with one failing heap call; %u ran to the end\n",
		      (unsigned long long)failed, s.complete);
}

static void
test_every_allocation_may_fail(void **state)
{
	(void)state;
	sweep(false);
}

/* the same with a second zone on the left half: its touches are in two of
 * grail's frames, one of which may be missed while the other is not */
static void
test_two_zones(void **state)
{
	(void)state;
	sweep(true);
}

/* Only a frame grail missed sets the timer at once: touches changed and
 * waiting for the compositor's frame call do not, and a missed frame is
 * made by advance_time. */
static void
test_timer_only_for_missed_frames(void **state)
{
	(void)state;
	struct run r;
	struct utouch_comp_device_info info = { .name = "timer", .direct = 1,
						.width_mm = 270, .height_mm = 203,
						.resolution = 1024.0 / 270.0, .max_touches = 10 };

	memset(&r, 0, sizeof(r));
	r.time = 1000000;
	r.comp = utouch_comp_new("seat0");
	assert_non_null(r.comp);
	r.dev = utouch_comp_device_add(r.comp, &info);
	assert_non_null(r.dev);
	assert_true(subscribe(&r, UGGestureTypeDrag, 3, false));
	for (int i = 0; i < 3; i++)
		input(&r, DOWN, i, 100, 100 + 50 * i);
	assert_int_equal(utouch_comp_next_timeout(r.comp), 0);
	frame(&r);
	assert_true(utouch_comp_next_timeout(r.comp) > r.time); /* grail's own */

	/* the next frame for grail fails: the timer is due a millisecond on */
	for (int i = 0; i < 2; i++)
		input(&r, MOTION, i, 130, 100 + 50 * i);
	uint64_t failures = ut_test_heap_failures();
	uint64_t calls = ut_test_heap_calls();
	ut_frame_pool_trim(); /* the frame's objects must come from the heap */
	ut_test_heap_fail_at(1);
	assert_int_equal(utouch_comp_touch_frame(r.comp, r.dev, r.time), 0);
	ut_test_heap_fail_at(0);
	assert_int_equal(ut_test_heap_failures(), failures + 1);
	assert_true(ut_test_heap_calls() > calls);
	drain(&r);
	uint64_t due = utouch_comp_next_timeout(r.comp);
	assert_true(due > 0 && due <= r.time + 1000);
	input(&r, WAIT, 0, 0, 0); /* r.time: the frame is made now */
	r.time = due;
	input(&r, WAIT, 0, 0, 0);
	assert_true(utouch_comp_next_timeout(r.comp) == 0 ||
		    utouch_comp_next_timeout(r.comp) > due);
	utouch_comp_destroy(r.comp);
	assert_string_equal(r.violation, "");
}

int
main(void)
{
	/* every run's "out of memory" messages: quiet (a client bug still
	 * fails the test) */
	setenv("UTOUCH_DEBUG", "none", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_allocation_may_fail),
		cmocka_unit_test(test_two_zones),
		cmocka_unit_test(test_timer_only_for_missed_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
