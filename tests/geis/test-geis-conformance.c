/*
 * geis 2.2 conformance: the per-frame attributes not covered by
 * test-geis-recording (indirect devices, frame matrix, centroid, tap time,
 * windows, construction finished) against independent values, and the
 * behaviour of filters (device terms with every operation, special terms,
 * clones, removal), subscription configuration (thresholds and timeouts
 * changing recognition), the CONT flag, and bad arguments of every public
 * function.
 */
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "geis-test.h"
#include "test-support.h"
#include "geis/geis-private.h"

/* The model snapshot an event was built from (the last positions when the
 * touches lifted in that very frame). */
static const struct gt_snap *
snap_for(const struct gt_snap *snaps, size_t n, const struct gt_event *e)
{
	const struct gt_snap *s = gt_model_at(snaps, n, e->timestamp);

	assert_non_null(s);
	while (s->n == 0 && s > snaps)
		s--;
	return s;
}

/* ------------------------------------------------------------------ */
/* attributes                                                          */
/* ------------------------------------------------------------------ */

/* A touchpad (indirect device): touch coordinates and the bounding box
 * are device coordinates, the focus is the window position of the last
 * touch, and the device says it is not direct. */
static void
test_indirect_attributes(void **state)
{
	const char *path = gt_recording("touchpad/drag-2.evemu");
	Geis geis = gt_open_recording("touchpad/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	struct gt_log log = { 0 };
	struct gt_snap *snaps;
	size_t nsnaps = gt_model(path, &snaps);
	GeisDevice dev;
	size_t checked = 0;

	assert_int_equal(geis_subscription_activate(gt_subscription(geis, 0, NULL, 2)), 0);
	gt_run_fast(geis, &log);
	dev = geis_get_device(geis, 1);
	assert_non_null(dev);
	assert_int_equal(geis_attr_value_to_boolean(
		geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH)), GEIS_FALSE);
	assert_true(log.n > 20);
	for (size_t i = 0; i < log.n; i++) {
		const struct gt_event *e = &log.ev[i];
		const struct gt_snap *s;
		int last;
		float x1, y1, x2, y2;

		if (e->type == GEIS_EVENT_GESTURE_END)
			continue;
		s = snap_for(snaps, nsnaps, e);
		assert_int_equal(s->n, 2);
		assert_int_equal(e->touches, 2);
		x1 = fminf(s->dx[0], s->dx[1]);
		y1 = fminf(s->dy[0], s->dy[1]);
		x2 = fmaxf(s->dx[0], s->dx[1]);
		y2 = fmaxf(s->dy[0], s->dy[1]);
		assert_float_equal(e->bbox[0], x1, 1e-3);
		assert_float_equal(e->bbox[1], y1, 1e-3);
		assert_float_equal(e->bbox[2], x2, 1e-3);
		assert_float_equal(e->bbox[3], y2, 1e-3);
		for (int t = 0; t < 2; t++) {
			int k = gt_find_touch(s, e->touch_id[t]);

			assert_true(k >= 0);
			assert_float_equal(e->touch_x[t], s->dx[k], 1e-3);
			assert_float_equal(e->touch_y[t], s->dy[k], 1e-3);
		}
		/* the focus: window coordinates of the last touch */
		last = gt_find_touch(s, e->touch_id[1]);
		assert_float_equal(e->focus_x, s->x[last], 1e-3);
		assert_float_equal(e->focus_y, s->y[last], 1e-3);
		/* and the position is in device coordinates (grail works in
		 * them on indirect devices): the touches' mean */
		assert_float_equal(e->pos_x, (s->dx[0] + s->dx[1]) / 2, 1e-2);
		assert_float_equal(e->pos_y, (s->dy[0] + s->dy[1]) / 2, 1e-2);
		checked++;
	}
	assert_true(checked > 20);
	free(snaps);
	gt_log_free(&log);
	geis_delete(geis);
}

/* "touch N id/x/y" for N up to 3 on a four-finger drag: the model's
 * touches; there is no "touch 4" attribute without a fifth touch. */
static void
test_touch_n_attributes(void **state)
{
	const char *path = gt_recording("touchscreen/drag-4.evemu");
	Geis geis = gt_open_recording("touchscreen/drag-4.evemu", GEIS_INIT_TRACK_DEVICES);
	struct gt_log log = { 0 };
	struct gt_snap *snaps;
	size_t nsnaps = gt_model(path, &snaps);
	size_t checked = 0;

	assert_int_equal(geis_subscription_activate(gt_subscription(geis, 0, NULL, 4)), 0);
	gt_run_fast(geis, &log);
	assert_true(log.n > 10);
	for (size_t i = 0; i < log.n; i++) {
		const struct gt_event *e = &log.ev[i];
		const struct gt_snap *s;
		int seen[16] = { 0 };

		assert_int_equal(e->touches, 4);
		assert_int_equal(e->touch_id[4], -1);
		assert_true(isnan(e->touch_x[4]));
		if (e->type == GEIS_EVENT_GESTURE_END)
			continue;
		s = snap_for(snaps, nsnaps, e);
		assert_int_equal(s->n, 4);
		for (int t = 0; t < 4; t++) {
			int k = gt_find_touch(s, e->touch_id[t]);

			assert_true(k >= 0);
			assert_false(seen[k]);   /* four different touches */
			seen[k] = 1;
			assert_float_equal(e->touch_x[t], s->x[k], 1e-3);
			assert_float_equal(e->touch_y[t], s->y[k], 1e-3);
		}
		checked++;
	}
	assert_true(checked > 10);
	free(snaps);
	gt_log_free(&log);
	geis_delete(geis);
}

/* The frame matrix is the cumulative transform: its translation is the
 * movement of the touches' centroid since the gesture's touches began,
 * its linear part the rotation and scale the attributes report; the
 * window ids are the root (1), the event window (1) and no child. */
static void
check_matrix(const char *name, const char *klass)
{
	const char *path = gt_recording(name);
	Geis geis = gt_open_recording(name, GEIS_INIT_TRACK_DEVICES);
	struct gt_log log = { 0 };
	struct gt_snap *snaps;
	size_t nsnaps = gt_model(path, &snaps);
	const struct gt_snap *s0 = NULL;
	size_t checked = 0;

	assert_int_equal(geis_subscription_activate(gt_subscription(geis, 0, klass, 2)), 0);
	gt_run_fast(geis, &log);
	assert_true(log.n > 10);
	/* the original centre: where the two touches were when both were down */
	for (size_t i = 0; i < nsnaps && !s0; i++)
		if (snaps[i].n == 2)
			s0 = &snaps[i];
	assert_non_null(s0);
	for (size_t i = 0; i < log.n; i++) {
		const struct gt_event *e = &log.ev[i];
		const float *m = e->matrix;
		const struct gt_snap *s;
		float cx, cy, c0x, c0y;

		assert_int_equal(e->root_window, 1);
		assert_int_equal(e->window, 1);
		/* geis 2.2.17 (seen on Xorg): the child window is the event window */
		assert_int_equal(e->child_window, e->window);
		assert_int_equal(e->tap_time, -1);   /* only taps have one */
		assert_float_equal(m[6], 0.0, 0.0);
		assert_float_equal(m[7], 0.0, 0.0);
		assert_float_equal(m[8], 1.0, 0.0);
		/* a similarity: [a -b; b a] */
		assert_float_equal(m[4], m[0], 1e-5);
		assert_float_equal(m[3], -m[1], 1e-5);
		assert_float_equal(e->radius, hypotf(m[0], m[1]), 1e-5);
		assert_float_equal(e->angle, atan2f(m[1], m[0]), 1e-5);
		/* position = translation + original centre */
		gt_centroid(s0, &c0x, &c0y);
		assert_float_equal(e->pos_x, m[2] + c0x, 1e-2);
		assert_float_equal(e->pos_y, m[5] + c0y, 1e-2);
		if (e->type == GEIS_EVENT_GESTURE_END)
			continue;
		s = snap_for(snaps, nsnaps, e);
		gt_centroid(s, &cx, &cy);
		assert_float_equal(m[2], cx - c0x, 1e-2);
		assert_float_equal(m[5], cy - c0y, 1e-2);
		checked++;
	}
	assert_true(checked > 10);
	free(snaps);
	gt_log_free(&log);
	geis_delete(geis);
}

static void
test_frame_matrix(void **state)
{
	check_matrix("touchscreen/drag-2.evemu", GEIS_GESTURE_DRAG);
	check_matrix("touchscreen/rotate-2.evemu", GEIS_GESTURE_ROTATE);
	check_matrix("touchscreen/pinch-2.evemu", GEIS_GESTURE_PINCH);
}

/* The centroid of a rotation is grail's centre of rotation: for two
 * fingers turning around their midpoint, that midpoint.  Without Rotate
 * it is the position (documented fallback). */
static void
test_centroid(void **state)
{
	const char *path = gt_recording("touchscreen/rotate-2.evemu");
	Geis geis = gt_open_recording("touchscreen/rotate-2.evemu", GEIS_INIT_TRACK_DEVICES);
	struct gt_log log = { 0 };
	struct gt_snap *snaps;
	size_t nsnaps = gt_model(path, &snaps);
	size_t checked = 0;

	assert_int_equal(geis_subscription_activate(
		gt_subscription(geis, 0, GEIS_GESTURE_ROTATE, 2)), 0);
	gt_run_fast(geis, &log);
	assert_true(log.n > 10);
	for (size_t i = 0; i < log.n; i++) {
		const struct gt_event *e = &log.ev[i];
		const struct gt_snap *s;
		float cx, cy;

		assert_int_equal(e->mask, 4u);   /* Rotate */
		if (e->type == GEIS_EVENT_GESTURE_END)
			continue;
		s = snap_for(snaps, nsnaps, e);
		gt_centroid(s, &cx, &cy);
		/* rounding of the per-frame rotation: well under a pixel */
		assert_float_equal(e->centroid_x, cx, 0.5);
		assert_float_equal(e->centroid_y, cy, 0.5);
		checked++;
	}
	assert_true(checked > 10);
	free(snaps);
	gt_log_free(&log);
	geis_delete(geis);

	geis = gt_open_recording("touchscreen/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	assert_int_equal(geis_subscription_activate(
		gt_subscription(geis, 0, GEIS_GESTURE_DRAG, 2)), 0);
	gt_run_fast(geis, &log);
	assert_true(log.n > 10);
	for (size_t i = 0; i < log.n; i++) {
		assert_float_equal(log.ev[i].centroid_x, log.ev[i].pos_x, 0.0);
		assert_float_equal(log.ev[i].centroid_y, log.ev[i].pos_y, 0.0);
	}
	gt_log_free(&log);
	geis_delete(geis);
}

/* The tap time is the time from the first touch down to the tap event. */
static void
check_tap_time(const char *name, int touches)
{
	const char *path = gt_recording(name);
	Geis geis = gt_open_recording(name, GEIS_INIT_TRACK_DEVICES);
	struct gt_log log = { 0 };
	struct gt_snap *snaps;
	size_t nsnaps = gt_model(path, &snaps);
	int64_t down = -1;

	assert_int_equal(geis_subscription_activate(
		gt_subscription(geis, 0, GEIS_GESTURE_TAP, touches)), 0);
	gt_run_fast(geis, &log);
	for (size_t i = 0; i < nsnaps && down < 0; i++)
		if (snaps[i].n > 0)
			down = snaps[i].time;
	assert_true(down >= 1000);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.ev[0].type, GEIS_EVENT_GESTURE_UPDATE);
	assert_int_equal(log.ev[0].mask, 8u);
	assert_int_equal(log.ev[0].touches, touches);
	assert_true(log.ev[0].tap_time > 0);
	assert_int_equal(log.ev[0].tap_time, log.ev[0].timestamp - down);
	free(snaps);
	gt_log_free(&log);
	geis_delete(geis);
}

static void
test_tap_time(void **state)
{
	check_tap_time("touchscreen/tap-1.evemu", 1);
	check_tap_time("touchscreen/tap-2.evemu", 2);
	check_tap_time("touchpad/tap-2.evemu", 2);
}

/* "construction finished" is grail's flag: false while other gestures may
 * still be built from the touches (grail's 60 ms composition time from the
 * first touch), then true for the rest of the gesture. */
static void
test_construction_finished(void **state)
{
	const char *path = gt_recording("touchscreen/drag-2.evemu");
	Geis geis = gt_open_recording("touchscreen/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	struct gt_log log = { 0 };
	struct gt_snap *snaps;
	size_t nsnaps = gt_model(path, &snaps);
	int64_t down = -1;
	int seen_false = 0, seen_true = 0;

	assert_int_equal(geis_subscription_activate(gt_subscription(geis, 0, NULL, 2)), 0);
	gt_run_fast(geis, &log);
	for (size_t i = 0; i < nsnaps && down < 0; i++)
		if (snaps[i].n > 0)
			down = snaps[i].time;
	assert_true(log.n > 20);
	for (size_t i = 0; i < log.n; i++) {
		const struct gt_event *e = &log.ev[i];

		if (e->timestamp - down < 60)
			assert_false(e->construction_finished);
		if (e->timestamp - down >= 70)
			assert_true(e->construction_finished);
		/* never goes back */
		if (i > 0 && log.ev[i - 1].construction_finished)
			assert_true(e->construction_finished);
		seen_false |= !e->construction_finished;
		seen_true |= e->construction_finished;
	}
	assert_true(seen_false && seen_true);
	free(snaps);
	gt_log_free(&log);
	geis_delete(geis);
}

/* Updates with no time difference to the gesture's previous event are
 * dropped unless GEIS_INIT_SEND_SYNCHRONOS_EVENTS asks for them. */
static void
test_synchronous_events(void **state)
{
	size_t counts[2];
	int same_time[2];

	for (int sync = 0; sync <= 1; sync++) {
		Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING,
				     gt_recording("touchscreen/staggered-3.evemu"),
				     UTOUCH_GEIS_INIT_RECORDING_FAST, GEIS_INIT_NO_ATOMIC_GESTURES,
				     sync ? GEIS_INIT_SEND_SYNCHRONOS_EVENTS : NULL, NULL);
		struct gt_log log = { 0 };

		assert_non_null(geis);
		assert_int_equal(geis_subscription_activate(gt_subscription(geis, 0, NULL, 0)), 0);
		gt_run_fast(geis, &log);
		same_time[sync] = 0;
		for (size_t i = 0; i < log.n; i++) {
			if (log.ev[i].type != GEIS_EVENT_GESTURE_UPDATE)
				continue;
			for (size_t j = i; j-- > 0;) {
				if (log.ev[j].id != log.ev[i].id)
					continue;
				if (log.ev[j].timestamp == log.ev[i].timestamp)
					same_time[sync]++;
				break;
			}
		}
		counts[sync] = log.n;
		gt_log_free(&log);
		geis_delete(geis);
	}
	assert_int_equal(same_time[0], 0);
	assert_true(same_time[1] > 0);
	assert_true(counts[1] > counts[0]);
}

/* ------------------------------------------------------------------ */
/* filters                                                             */
/* ------------------------------------------------------------------ */

static int
cmp_int(int a, int b)
{
	return a < b ? -1 : a > b;
}

static int
op_holds(GeisFilterOperation op, int c)
{
	switch (op) {
	case GEIS_FILTER_OP_EQ: return c == 0;
	case GEIS_FILTER_OP_NE: return c != 0;
	case GEIS_FILTER_OP_GT: return c > 0;
	case GEIS_FILTER_OP_GE: return c >= 0;
	case GEIS_FILTER_OP_LT: return c < 0;
	case GEIS_FILTER_OP_LE: return c <= 0;
	}
	return 0;
}

/* Number of gesture events a drag-2 replay gives with one device term. */
static size_t
events_with_device_term(const char *attr, GeisFilterOperation op, ...)
{
	Geis geis = gt_open_recording("touchscreen/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	GeisSubscription sub = geis_subscription_new(geis, "dev", 0);
	GeisFilter f = geis_filter_new(geis, "dev");
	struct gt_log log = { 0 };
	size_t n;
	va_list ap;
	GeisStatus st;

	va_start(ap, op);
	if (strcmp(attr, GEIS_DEVICE_ATTRIBUTE_NAME) == 0)
		st = geis_filter_add_term(f, GEIS_FILTER_DEVICE, attr, op,
					  va_arg(ap, const char *), NULL);
	else
		st = geis_filter_add_term(f, GEIS_FILTER_DEVICE, attr, op, va_arg(ap, int), NULL);
	va_end(ap);
	assert_int_equal(st, GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_add_filter(sub, f), 0);
	assert_int_equal(geis_subscription_activate(sub), 0);
	gt_run_fast(geis, &log);
	n = log.n;
	gt_log_free(&log);
	geis_delete(geis);
	return n;
}

/* Device terms with every operation on integer, float, string and boolean
 * attributes select devices by comparing the device's value with the
 * term's; strings and booleans only know EQ and NE. */
static void
test_device_term_ops(void **state)
{
	Geis geis = gt_open_recording("touchscreen/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	GeisDevice d;
	GeisInteger touches;
	GeisFloat max_x;
	const char *name;

	/* the device appears with the first dispatch */
	geis_dispatch_events(geis);
	d = geis_get_device(geis, 1);
	assert_non_null(d);
	assert_int_equal(geis_device_id(d), 1);
	touches = geis_attr_value_to_integer(geis_device_attr_by_name(d,
		GEIS_DEVICE_ATTRIBUTE_TOUCHES));
	max_x = geis_attr_value_to_float(geis_device_attr_by_name(d,
		GEIS_DEVICE_ATTRIBUTE_MAX_X));
	name = geis_device_name(d);
	assert_true(touches >= 2);
	assert_true(max_x > 100.0f);
	assert_non_null(name);

	for (int op = GEIS_FILTER_OP_EQ; op <= GEIS_FILTER_OP_LE; op++) {
		for (int delta = -1; delta <= 1; delta++) {
			GeisFilter f = geis_filter_new(geis, "ops");

			/* integer attributes: the id and the touch count */
			assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_DEVICE,
				GEIS_DEVICE_ATTRIBUTE_ID, op, 1 + delta, NULL), 0);
			assert_int_equal(gs_filter_match_device(f, d) != 0,
					 op_holds((GeisFilterOperation)op, cmp_int(1, 1 + delta)));
			geis_filter_delete(f);
			f = geis_filter_new(geis, "ops");
			assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_DEVICE,
				GEIS_DEVICE_ATTRIBUTE_TOUCHES, op, touches + delta, NULL), 0);
			assert_int_equal(gs_filter_match_device(f, d) != 0,
					 op_holds((GeisFilterOperation)op,
						  cmp_int(touches, touches + delta)));
			geis_filter_delete(f);
			/* a float attribute (the value is passed as a double) */
			f = geis_filter_new(geis, "ops");
			assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_DEVICE,
				GEIS_DEVICE_ATTRIBUTE_MAX_X, op,
				(double)max_x + 10.0 * delta, NULL), 0);
			assert_int_equal(gs_filter_match_device(f, d) != 0,
					 op_holds((GeisFilterOperation)op, -delta));
			geis_filter_delete(f);
		}
		/* strings: EQ and NE compare, the orderings are refused */
		{
			GeisFilter f = geis_filter_new(geis, "str");
			GeisStatus st = geis_filter_add_term(f, GEIS_FILTER_DEVICE,
				GEIS_DEVICE_ATTRIBUTE_NAME, op, name, NULL);

			if (op == GEIS_FILTER_OP_EQ || op == GEIS_FILTER_OP_NE) {
				assert_int_equal(st, GEIS_STATUS_SUCCESS);
				assert_int_equal(f->nterms, 1);
				assert_int_equal(gs_filter_match_device(f, d) != 0,
						 op == GEIS_FILTER_OP_EQ);
				geis_filter_delete(f);
				f = geis_filter_new(geis, "str");
				assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_DEVICE,
					GEIS_DEVICE_ATTRIBUTE_NAME, op, "another device", NULL), 0);
				assert_int_equal(gs_filter_match_device(f, d) != 0,
						 op == GEIS_FILTER_OP_NE);
			} else {
				assert_int_equal(st, GEIS_STATUS_BAD_ARGUMENT);
				assert_int_equal(f->nterms, 0);
				assert_non_null(strstr(geis_error_message(geis, 0),
						       GEIS_DEVICE_ATTRIBUTE_NAME));
			}
			geis_filter_delete(f);
		}
		/* booleans likewise */
		{
			GeisFilter f = geis_filter_new(geis, "bool");
			GeisStatus st = geis_filter_add_term(f, GEIS_FILTER_DEVICE,
				GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH, op, GEIS_TRUE, NULL);

			if (op == GEIS_FILTER_OP_EQ || op == GEIS_FILTER_OP_NE) {
				assert_int_equal(st, GEIS_STATUS_SUCCESS);
				/* the recording is a touchscreen: direct */
				assert_int_equal(gs_filter_match_device(f, d) != 0,
						 op == GEIS_FILTER_OP_EQ);
			} else {
				assert_int_equal(st, GEIS_STATUS_BAD_ARGUMENT);
			}
			geis_filter_delete(f);
		}
	}
	geis_delete(geis);

	/* and end to end: a device term that excludes the only device gives
	 * no gestures, one that holds gives them */
	assert_int_equal(events_with_device_term(GEIS_DEVICE_ATTRIBUTE_ID, GEIS_FILTER_OP_GT, 1), 0);
	assert_int_equal(events_with_device_term(GEIS_DEVICE_ATTRIBUTE_ID, GEIS_FILTER_OP_NE, 1), 0);
	assert_true(events_with_device_term(GEIS_DEVICE_ATTRIBUTE_ID, GEIS_FILTER_OP_LE, 1) > 20);
	assert_true(events_with_device_term(GEIS_DEVICE_ATTRIBUTE_ID, GEIS_FILTER_OP_GE, 1) > 20);
	assert_true(events_with_device_term(GEIS_DEVICE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_LT, 100) > 20);
	assert_int_equal(events_with_device_term(GEIS_DEVICE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_LT, 2), 0);
	assert_int_equal(events_with_device_term(GEIS_DEVICE_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ,
						 "no such device"), 0);
	assert_true(events_with_device_term(GEIS_DEVICE_ATTRIBUTE_NAME, GEIS_FILTER_OP_NE,
					    "no such device") > 20);
}

/* Special terms: the two names geis 2.2 knew are accepted (EQ/NE) and do
 * not change the gestures; anything else is refused. */
static void
test_special_terms(void **state)
{
	Geis geis = gt_open_recording("touchscreen/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	GeisSubscription sub = geis_subscription_new(geis, "special", 0);
	GeisFilter f = geis_filter_new(geis, "special");
	struct gt_log log = { 0 };

	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_SPECIAL,
		GEIS_GESTURE_TYPE_SYSTEM, GEIS_FILTER_OP_EQ, GEIS_TRUE,
		UTOUCH_GEIS_SPECIAL_GRAB, GEIS_FILTER_OP_NE, GEIS_FALSE, NULL),
		GEIS_STATUS_SUCCESS);
	assert_int_equal(f->nterms, 2);
	assert_int_equal(f->terms[0].facility, GEIS_FILTER_SPECIAL);
	assert_int_equal(f->terms[0].type, GEIS_ATTR_TYPE_BOOLEAN);
	assert_int_equal(f->terms[0].v.b, GEIS_TRUE);
	/* unknown special names, names of other facilities, orderings */
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_SPECIAL,
		"org.example.special", GEIS_FILTER_OP_EQ, 1, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_non_null(strstr(geis_error_message(geis, 0), "org.example.special"));
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_SPECIAL,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, "Drag", NULL),
		GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_SPECIAL,
		GEIS_GESTURE_TYPE_SYSTEM, GEIS_FILTER_OP_GT, 0, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		UTOUCH_GEIS_SPECIAL_GRAB, GEIS_FILTER_OP_EQ, 1, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(f->nterms, 2);
	/* a class filter next to them still decides */
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL), 0);
	assert_int_equal(geis_subscription_add_filter(sub, f), 0);
	assert_int_equal(geis_subscription_activate(sub), 0);
	gt_run_fast(geis, &log);
	assert_true(log.n > 20);
	for (size_t i = 0; i < log.n; i++)
		assert_int_equal(log.ev[i].mask, 1u);
	gt_log_free(&log);
	geis_delete(geis);
}

/* A clone carries every term (of every facility) and lives on its own. */
static void
test_clone(void **state)
{
	Geis geis = gt_open_recording("touchscreen/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	GeisSubscription sub = geis_subscription_new(geis, "clone", 0);
	GeisFilter f = geis_filter_new(geis, "original"), c;
	struct gt_log log = { 0 };

	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL), 0);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_DEVICE,
		GEIS_DEVICE_ATTRIBUTE_ID, GEIS_FILTER_OP_EQ, 1, NULL), 0);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_REGION,
		GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ, 7, NULL), 0);
	c = geis_filter_clone(f, "clone");
	assert_non_null(c);
	assert_ptr_not_equal(c, f);
	assert_string_equal(geis_filter_name(c), "clone");
	assert_int_equal(c->nterms, 4);
	for (GeisSize i = 0; i < c->nterms; i++) {
		assert_int_equal(c->terms[i].facility, f->terms[i].facility);
		assert_int_equal(c->terms[i].op, f->terms[i].op);
		assert_string_equal(c->terms[i].name, f->terms[i].name);
	}
	/* the original changes and goes; the clone stays as it was */
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_GE, 3, NULL), 0);
	assert_int_equal(geis_filter_delete(f), 0);
	assert_int_equal(c->nterms, 4);
	/* a clone of a clone, with a NULL name */
	f = geis_filter_clone(c, NULL);
	assert_non_null(f);
	assert_int_equal(f->nterms, 4);
	geis_filter_delete(f);
	/* the clone filters: Drag with two touches, in window 7 (the original's
	 * later "touches >= 3" would have made it impossible) */
	assert_int_equal(geis_subscription_add_filter(sub, c), 0);
	assert_int_equal(geis_subscription_activate(sub), 0);
	gt_run_fast(geis, &log);
	assert_true(log.n > 10);
	for (size_t i = 0; i < log.n; i++) {
		assert_int_equal(log.ev[i].mask, 1u);
		assert_int_equal(log.ev[i].touches, 2);
		assert_int_equal(log.ev[i].window, 7);
	}
	gt_log_free(&log);
	geis_delete(geis);
}

/* Removing a filter by name changes what an activation subscribes. */
static void
test_remove_filter(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	Geis geis = gt_open_recording("touchscreen/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	GeisSubscription sub = geis_subscription_new(geis, "two", 0);
	GeisSubscription other = geis_subscription_new(geis, "other", 0);
	GeisFilter drag = geis_filter_new(geis, "drag"), touch = geis_filter_new(geis, "touch");
	GeisFilter dup = geis_filter_new(geis, "drag");
	struct gt_log log = { 0 };
	int drags = 0;

	geis_filter_add_term(drag, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
			     GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG,
			     GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL);
	geis_filter_add_term(touch, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
			     GEIS_FILTER_OP_EQ, GEIS_GESTURE_TOUCH,
			     GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL);
	assert_int_equal(geis_subscription_add_filter(sub, drag), 0);
	assert_int_equal(geis_subscription_add_filter(sub, touch), 0);
	assert_int_equal(geis_subscription_add_filter(sub, dup), 0);
	/* the first filter of that name */
	assert_ptr_equal(geis_subscription_filter_by_name(sub, "drag"), drag);
	assert_ptr_equal(geis_subscription_filter_by_name(sub, "touch"), touch);
	assert_null(geis_subscription_filter_by_name(sub, "pinch"));
	assert_null(geis_subscription_filter_by_name(sub, NULL));
	assert_null(geis_subscription_filter_by_name(other, "drag"));
	/* remove by name; the caller owns the filter again */
	assert_int_equal(geis_subscription_remove_filter(sub,
		geis_subscription_filter_by_name(sub, "touch")), 0);
	assert_null(geis_subscription_filter_by_name(sub, "touch"));
	assert_int_equal(geis_subscription_remove_filter(sub, touch), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_remove_filter(sub, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_remove_filter(other, drag), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_remove_filter(sub, dup), 0);
	assert_ptr_equal(geis_subscription_filter_by_name(sub, "drag"), drag);
	assert_int_equal(geis_filter_delete(dup), 0);
	/* the removed filter may go to another subscription */
	assert_int_equal(geis_subscription_add_filter(other, touch), 0);
	{
		GeisSize count = 99;

		assert_int_equal(geis_subscription_get_configuration(sub,
			GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &count), 0);
		assert_int_equal(count, 0);   /* not active yet */
	}
	assert_int_equal(geis_subscription_set_configuration(sub,
		GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &drags), GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_subscription_activate(sub), 0);
	gt_run_fast(geis, &log);
	/* only the drag filter is left: no Touch-only frames */
	assert_true(log.n > 10);
	for (size_t i = 0; i < log.n; i++) {
		assert_int_equal(log.ev[i].mask & 1u, 1u);
		drags++;
	}
	assert_true(drags > 10);
	gt_log_free(&log);
	geis_delete(geis);
	UT_CLIENT_BUGS_END(2);
}

/* ------------------------------------------------------------------ */
/* subscription configuration changes recognition                      */
/* ------------------------------------------------------------------ */

struct run_result {
	size_t n;
	int64_t first;   /* timestamp of the first event, -1 without */
};

static struct run_result
run_configured(const char *rec, const char *klass, int touches, const char *item,
	       const void *value)
{
	Geis geis = gt_open_recording(rec, GEIS_INIT_TRACK_DEVICES);
	GeisSubscription sub = gt_subscription(geis, 0, klass, touches);
	struct gt_log log = { 0 };
	struct run_result r;

	if (item)
		assert_int_equal(geis_subscription_set_configuration(sub, item,
			(GeisPointer)value), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_activate(sub), 0);
	gt_run_fast(geis, &log);
	r.n = log.n;
	r.first = log.n ? log.ev[0].timestamp : -1;
	for (size_t i = 0; i < log.n; i++)
		if (klass && strcmp(klass, GEIS_GESTURE_DRAG) == 0)
			assert_int_equal(log.ev[i].mask, 1u);
	gt_log_free(&log);
	geis_delete(geis);
	return r;
}

static void
test_thresholds_and_timeouts(void **state)
{
	const char *drag2 = "touchscreen/drag-2.evemu";
	GeisFloat huge = 10.0f, tiny = 0.0001f;
	GeisInteger short_timeout = 20, zero = 0;
	struct run_result def, r;

	/* the default: a two-finger drag is recognized some frames in */
	def = run_configured(drag2, GEIS_GESTURE_DRAG, 2, NULL, NULL);
	assert_true(def.n > 20);
	assert_true(def.first > 1000);
	/* a 10 m drag threshold: never a drag */
	r = run_configured(drag2, GEIS_GESTURE_DRAG, 2, GEIS_CONFIG_DRAG_THRESHOLD, &huge);
	assert_int_equal(r.n, 0);
	/* a tiny one: the drag begins earlier, with more events */
	r = run_configured(drag2, GEIS_GESTURE_DRAG, 2, GEIS_CONFIG_DRAG_THRESHOLD, &tiny);
	assert_true(r.first >= 1000);
	assert_true(r.first < def.first);
	assert_true(r.n > def.n);
	/* a 20 ms drag timeout: the drag (recognized 30 ms in by default)
	 * times out first */
	r = run_configured(drag2, GEIS_GESTURE_DRAG, 2, GEIS_CONFIG_DRAG_TIMEOUT, &short_timeout);
	assert_int_equal(r.n, 0);
	/* 0 is grail's "no limit" */
	r = run_configured(drag2, GEIS_GESTURE_DRAG, 2, GEIS_CONFIG_DRAG_TIMEOUT, &zero);
	assert_int_equal(r.n, def.n);
	assert_int_equal(r.first, def.first);

	/* a tap lasting 60 ms is no tap with a 20 ms tap timeout */
	def = run_configured("touchscreen/tap-1.evemu", GEIS_GESTURE_TAP, 1, NULL, NULL);
	assert_int_equal(def.n, 1);
	r = run_configured("touchscreen/tap-1.evemu", GEIS_GESTURE_TAP, 1,
			   GEIS_CONFIG_TAP_TIMEOUT, &short_timeout);
	assert_int_equal(r.n, 0);
	/* a pinch threshold (a scale ratio) close to 1 makes the pinch
	 * recording a pinch sooner, a huge one never */
	def = run_configured("touchscreen/pinch-2.evemu", GEIS_GESTURE_PINCH, 2, NULL, NULL);
	assert_true(def.n > 5);
	{
		GeisFloat ratio = 1.0001f;

		r = run_configured("touchscreen/pinch-2.evemu", GEIS_GESTURE_PINCH, 2,
				   GEIS_CONFIG_PINCH_THRESHOLD, &ratio);
		assert_true(r.first < def.first);
		ratio = 100.0f;
		r = run_configured("touchscreen/pinch-2.evemu", GEIS_GESTURE_PINCH, 2,
				   GEIS_CONFIG_PINCH_THRESHOLD, &ratio);
		assert_int_equal(r.n, 0);
	}
	/* rotation: a threshold of more than a half turn keeps the rotate
	 * recording from being a rotation */
	def = run_configured("touchscreen/rotate-2.evemu", GEIS_GESTURE_ROTATE, 2, NULL, NULL);
	assert_true(def.n > 5);
	{
		GeisFloat angle = 4.0f;

		r = run_configured("touchscreen/rotate-2.evemu", GEIS_GESTURE_ROTATE, 2,
				   GEIS_CONFIG_ROTATE_THRESHOLD, &angle);
		assert_int_equal(r.n, 0);
	}
}

/* ------------------------------------------------------------------ */
/* subscription flags                                                  */
/* ------------------------------------------------------------------ */

static void
grail_touches(GeisSubscription sub, unsigned *start, unsigned *min, unsigned *max)
{
	assert_false(ut_list_empty(&sub->bindings));
	UGSubscription ug = gs_binding_of(sub->bindings.next)->ug;
	assert_int_equal(grail_subscription_get_property(ug,
		UGSubscriptionPropertyTouchesStart, start), UGStatusSuccess);
	assert_int_equal(grail_subscription_get_property(ug,
		UGSubscriptionPropertyTouchesMinimum, min), UGStatusSuccess);
	assert_int_equal(grail_subscription_get_property(ug,
		UGSubscriptionPropertyTouchesMaximum, max), UGStatusSuccess);
}

/* CONT without tentative events and without Tap: min 1, max start (the
 * gesture may lose touches and go on); otherwise the filter's counts. GRAB
 * changes nothing in the grail subscription. */
static void
test_cont_and_grab(void **state)
{
	static const struct {
		GeisSubscriptionFlags flags;
		const char *klass;
		int tentative;
		unsigned start, min, max;
	} cases[] = {
		{ GEIS_SUBSCRIPTION_NONE, GEIS_GESTURE_DRAG, 0, 3, 3, 3 },
		{ GEIS_SUBSCRIPTION_GRAB, GEIS_GESTURE_DRAG, 0, 3, 3, 3 },
		{ GEIS_SUBSCRIPTION_CONT, GEIS_GESTURE_DRAG, 0, 3, 1, 3 },
		{ GEIS_SUBSCRIPTION_CONT | GEIS_SUBSCRIPTION_GRAB, GEIS_GESTURE_PINCH, 0, 3, 1, 3 },
		{ GEIS_SUBSCRIPTION_CONT, GEIS_GESTURE_TAP, 0, 3, 3, 3 },
		{ GEIS_SUBSCRIPTION_CONT, NULL, 0, 3, 3, 3 },   /* all classes: Tap */
		{ GEIS_SUBSCRIPTION_CONT, GEIS_GESTURE_DRAG, 1, 3, 3, 3 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		Geis geis = gt_open_recording("touchscreen/drag-3.evemu", GEIS_INIT_TRACK_DEVICES);
		GeisSubscription sub;
		GeisBoolean tentative = cases[i].tentative ? GEIS_TRUE : GEIS_FALSE;
		unsigned start, min, max;

		geis_dispatch_events(geis);   /* the device */
		assert_int_equal(geis_set_configuration(geis, GEIS_CONFIG_SEND_TENTATIVE_EVENTS,
							&tentative), 0);
		sub = gt_subscription(geis, cases[i].flags, cases[i].klass, 3);
		assert_int_equal(geis_subscription_activate(sub), 0);
		{
			/* one grail subscription: one filter, device and window */
			GeisSize count = 99;

			assert_int_equal(geis_subscription_get_configuration(sub,
				GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &count), 0);
			assert_int_equal(count, 1);
		}
		grail_touches(sub, &start, &min, &max);
		assert_int_equal(start, cases[i].start);
		assert_int_equal(min, cases[i].min);
		assert_int_equal(max, cases[i].max);
		geis_delete(geis);
	}

	/* end to end: a three-finger drag subscribed with CONT keeps its id
	 * while fingers lift (min 1), and without CONT it ends when the
	 * touch count changes */
	for (int cont = 0; cont <= 1; cont++) {
		Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING,
				     gt_recording("touchscreen/drag-2-to-1.evemu"),
				     UTOUCH_GEIS_INIT_RECORDING_FAST, GEIS_INIT_NO_ATOMIC_GESTURES,
				     NULL);
		GeisSubscription sub;
		struct gt_log log = { 0 };
		int fewer = 0;

		assert_non_null(geis);
		sub = gt_subscription(geis, cont ? GEIS_SUBSCRIPTION_CONT : 0, GEIS_GESTURE_DRAG, 2);
		assert_int_equal(geis_subscription_activate(sub), 0);
		gt_run_fast(geis, &log);
		assert_true(log.n > 5);
		for (size_t i = 0; i < log.n; i++)
			if (log.ev[i].id == log.ev[0].id && log.ev[i].touches < 2)
				fewer++;
		if (cont)
			assert_true(fewer > 0);
		else
			assert_int_equal(fewer, 0);
		gt_log_free(&log);
		geis_delete(geis);
	}
}

/*
 * When the touch count of a gesture changes (a CONT drag going from two
 * touches to one), geis 2.2 starts the motion afresh: "delta x/y" are 0 on
 * that event (the centroid jumps half the finger distance, which is no
 * motion), and the scale and rotation deltas restart from the neutral
 * values, so they equal "radius" and "angle".
 */
static void
test_touch_count_change_restarts_motion(void **state)
{
	Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING,
			     gt_recording("touchscreen/drag-2-to-1.evemu"),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	struct gt_log log = { 0 };
	int changes = 0;

	assert_non_null(geis);
	assert_int_equal(geis_subscription_activate(
		gt_subscription(geis, GEIS_SUBSCRIPTION_CONT, GEIS_GESTURE_DRAG, 2)), 0);
	gt_run_fast(geis, &log);
	for (size_t i = 1; i < log.n; i++) {
		const struct gt_event *p = &log.ev[i - 1], *e = &log.ev[i];

		if (e->id != log.ev[0].id || p->id != e->id || e->touches == p->touches)
			continue;
		changes++;
		/* the centroid did jump: the test means something */
		assert_true(fabsf(e->pos_x - p->pos_x) + fabsf(e->pos_y - p->pos_y) > 10.0f);
		assert_float_equal(e->delta_x, 0.0, 0.0);
		assert_float_equal(e->delta_y, 0.0, 0.0);
		assert_float_equal(e->vel_x, 0.0, 0.0);
		assert_float_equal(e->vel_y, 0.0, 0.0);
		assert_float_equal(e->radius_delta, e->radius, 1e-6);
		assert_float_equal(e->angle_delta, e->angle, 1e-6);
		/* and the next event moves from there again */
		if (i + 1 < log.n && log.ev[i + 1].touches == e->touches &&
		    log.ev[i + 1].type == GEIS_EVENT_GESTURE_UPDATE)
			assert_float_equal(log.ev[i + 1].delta_x,
					   log.ev[i + 1].pos_x - e->pos_x, 1e-3);
	}
	assert_int_equal(changes, 1);
	gt_log_free(&log);
	geis_delete(geis);
}

/*
 * GESTURE_BEGIN carries the scale and rotation accumulated since the
 * touches began as its deltas (geis 2.2: "radius delta" 1.2 on a pinch
 * that began at 1.2), not the neutral 1 and 0; "delta x/y" are 0.
 */
static void
test_begin_deltas_accumulated(void **state)
{
	static const struct {
		const char *rec, *klass;
	} runs[] = {
		{ "touchscreen/pinch-2.evemu", GEIS_GESTURE_PINCH },
		{ "touchscreen/rotate-2.evemu", GEIS_GESTURE_ROTATE },
	};

	for (size_t r = 0; r < 2; r++) {
		Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, gt_recording(runs[r].rec),
				     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
		struct gt_log log = { 0 };

		assert_non_null(geis);
		assert_int_equal(geis_subscription_activate(
			gt_subscription(geis, 0, runs[r].klass, 2)), 0);
		gt_run_fast(geis, &log);
		assert_true(log.n > 2);
		assert_int_equal(log.ev[0].type, GEIS_EVENT_GESTURE_BEGIN);
		if (r == 0)
			assert_true(fabsf(log.ev[0].radius - 1.0f) > 0.01f);
		else
			assert_true(fabsf(log.ev[0].angle) > 0.01f);
		assert_float_equal(log.ev[0].radius_delta, log.ev[0].radius, 1e-6);
		assert_float_equal(log.ev[0].angle_delta, log.ev[0].angle, 1e-6);
		assert_float_equal(log.ev[0].delta_x, 0.0, 0.0);
		assert_float_equal(log.ev[0].delta_y, 0.0, 0.0);
		/* the first update's delta is relative to the begin again */
		assert_float_equal(log.ev[1].radius_delta,
				   log.ev[1].radius / log.ev[0].radius, 1e-4);
		gt_log_free(&log);
		geis_delete(geis);
	}
}

/* ------------------------------------------------------------------ */
/* bad arguments                                                       */
/* ------------------------------------------------------------------ */

/* Every public function with NULL handles: a clear status or an empty
 * value, no crash, and (for status-returning functions) a message on the
 * global error stack. */
static void
test_null_table(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	GeisEvent ev = (GeisEvent)1;   /* must stay untouched */
	GeisInstance inst = (GeisInstance)1;
	int value = 0;
	GeisInputFuncs ifuncs = { NULL, NULL, NULL };
	GeisGestureFuncs gfuncs = { NULL, NULL, NULL, NULL, NULL };
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisXcbWinInfo xcb = { NULL, NULL, 1 };
	GeisWinInfo win = { GEIS_XCB_FULL_WINDOW, &xcb };
	GeisWinInfo bad_win = { 0x12345678u, &xcb };
	struct {
		const char *name;
		GeisStatus got, want;
	} st[] = {
#define S(call, want) { #call, call, want }
		S(geis_init(NULL, &inst), GEIS_BAD_ARGUMENT),
		S(geis_init(&win, NULL), GEIS_BAD_ARGUMENT),
		S(geis_init(&bad_win, &inst), GEIS_BAD_ARGUMENT),
		S(geis_finish(NULL), GEIS_BAD_ARGUMENT),
		S(geis_configuration_supported(NULL, GEIS_CONFIG_UNIX_FD), GEIS_BAD_ARGUMENT),
		S(geis_configuration_get_value(NULL, GEIS_CONFIG_UNIX_FD, &value), GEIS_BAD_ARGUMENT),
		S(geis_configuration_set_value(NULL, GEIS_CONFIG_UNIX_FD, &value), GEIS_BAD_ARGUMENT),
		S(geis_event_dispatch(NULL), GEIS_BAD_ARGUMENT),
		S(geis_input_devices(NULL, &ifuncs, NULL), GEIS_BAD_ARGUMENT),
		S(geis_subscribe(NULL, NULL, types, &gfuncs, NULL), GEIS_BAD_ARGUMENT),
		S(geis_unsubscribe(NULL, NULL), GEIS_BAD_ARGUMENT),
		S(geis_delete(NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_error_code(NULL, 100000), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_get_configuration(NULL, GEIS_CONFIGURATION_FD, &value), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_set_configuration(NULL, GEIS_CONFIG_MAX_EVENTS, &value), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_dispatch_events(NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_next_event(NULL, &ev), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_region_delete(NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_filter_delete(NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_filter_add_term(NULL, GEIS_FILTER_CLASS, NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_filter_add_term(NULL, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
				       GEIS_FILTER_OP_EQ, "Drag", NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_subscription_delete(NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_subscription_activate(NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_subscription_deactivate(NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_subscription_add_filter(NULL, NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_subscription_remove_filter(NULL, NULL), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_subscription_get_configuration(NULL, GEIS_CONFIG_DRAG_TIMEOUT, &value),
		  GEIS_STATUS_BAD_ARGUMENT),
		S(geis_subscription_set_configuration(NULL, GEIS_CONFIG_DRAG_TIMEOUT, &value),
		  GEIS_STATUS_BAD_ARGUMENT),
		S(geis_gesture_accept(NULL, NULL, 1), GEIS_STATUS_BAD_ARGUMENT),
		S(geis_gesture_reject(NULL, NULL, 1), GEIS_STATUS_BAD_ARGUMENT),
#undef S
	};

	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		if (st[i].got != st[i].want)
			fail_msg("%s returned %d, expected %d", st[i].name, (int)st[i].got,
				 (int)st[i].want);
	}
	assert_ptr_equal(ev, (GeisEvent)1);

	/* the v2 functions that return a status push a message on the global
	 * stack when the handle is NULL */
	assert_int_equal(geis_subscription_activate(NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_true(geis_error_count(NULL) >= 1);
	assert_int_equal(geis_error_code(NULL, 0), GEIS_STATUS_BAD_ARGUMENT);
	assert_non_null(geis_error_message(NULL, 0));

	/* value-returning functions: empty values */
	assert_null(geis_attr_name(NULL));
	assert_int_equal(geis_attr_type(NULL), GEIS_ATTR_TYPE_UNKNOWN);
	assert_int_equal(geis_attr_value_to_boolean(NULL), GEIS_FALSE);
	assert_float_equal(geis_attr_value_to_float(NULL), 0.0, 0.0);
	assert_int_equal(geis_attr_value_to_integer(NULL), 0);
	assert_null(geis_attr_value_to_pointer(NULL));
	assert_null(geis_attr_value_to_string(NULL));
	geis_event_delete(NULL);
	assert_int_equal(geis_event_type(NULL), 0);
	assert_int_equal(geis_event_attr_count(NULL), 0);
	assert_null(geis_event_attr(NULL, 0));
	assert_null(geis_event_attr_by_name(NULL, GEIS_EVENT_ATTRIBUTE_GROUPSET));
	assert_null(geis_event_attr_by_name(NULL, NULL));
	geis_register_event_callback(NULL, NULL, NULL);
	geis_register_device_callback(NULL, NULL, NULL);
	geis_register_class_callback(NULL, NULL, NULL);
	assert_null(geis_get_device(NULL, 1));
	assert_null(geis_device_ref(NULL));
	geis_device_unref(NULL);
	assert_null(geis_device_name(NULL));
	assert_int_equal(geis_device_id(NULL), 0);
	assert_int_equal(geis_device_attr_count(NULL), 0);
	assert_null(geis_device_attr(NULL, 0));
	assert_null(geis_device_attr_by_name(NULL, GEIS_DEVICE_ATTRIBUTE_ID));
	geis_gesture_class_ref(NULL);
	geis_gesture_class_unref(NULL);
	assert_null(geis_gesture_class_name(NULL));
	assert_int_equal(geis_gesture_class_id(NULL), -1);
	assert_int_equal(geis_gesture_class_attr_count(NULL), 0);
	assert_null(geis_gesture_class_attr(NULL, 0));
	assert_null(geis_region_new(NULL, "r", GEIS_REGION_X11_ROOT, NULL));
	assert_null(geis_region_name(NULL));
	assert_null(geis_filter_new(NULL, "f"));
	assert_null(geis_filter_clone(NULL, "f"));
	assert_null(geis_filter_name(NULL));
	assert_null(geis_subscription_new(NULL, "s", 0));
	assert_null(geis_subscription_name(NULL));
	assert_int_equal(geis_subscription_id(NULL), -1);
	assert_null(geis_subscription_filter_by_name(NULL, "f"));
	assert_int_equal(geis_groupset_group_count(NULL), 0);
	assert_null(geis_groupset_group(NULL, 0));
	assert_int_equal(geis_group_id(NULL), -1);
	assert_int_equal(geis_group_frame_count(NULL), 0);
	assert_null(geis_group_frame(NULL, 0));
	geis_group_reject(NULL);
	assert_int_equal(geis_touchset_touch_count(NULL), 0);
	assert_null(geis_touchset_touch(NULL, 0));
	assert_null(geis_touchset_touch_by_id(NULL, 1));
	assert_int_equal(geis_touch_id(NULL), 0);
	assert_int_equal(geis_touch_attr_count(NULL), 0);
	assert_null(geis_touch_attr(NULL, 0));
	assert_null(geis_touch_attr_by_name(NULL, GEIS_TOUCH_ATTRIBUTE_X));
	assert_int_equal(geis_frame_id(NULL), GEIS_NO_GESTURE_ID);
	assert_int_equal(geis_frame_is_class(NULL, NULL), GEIS_FALSE);
	assert_int_equal(geis_frame_attr_count(NULL), 0);
	assert_null(geis_frame_attr(NULL, 0));
	assert_null(geis_frame_attr_by_name(NULL, GEIS_GESTURE_ATTRIBUTE_ANGLE));
	assert_null(geis_frame_matrix(NULL));
	assert_int_equal(geis_frame_touchid_count(NULL), 0);
	assert_int_equal(geis_frame_touchid(NULL, 0), 0);
	UT_CLIENT_BUGS_END(47);
}

static void
count_class(Geis geis, GeisEvent ev, void *ctx)
{
	GeisGestureClass *keep = ctx;
	GeisGestureClass c = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));

	if (c && !*keep) {
		geis_gesture_class_ref(c);
		*keep = c;
	}
	geis_event_delete(ev);
}

/* Live objects with bad indices, unknown names, NULL names and values,
 * and handles that belong elsewhere. */
static void
test_unknown_and_out_of_range(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	Geis geis = geis_new(GEIS_INIT_TRACK_DEVICES, GEIS_INIT_TRACK_GESTURE_CLASSES,
			     UTOUCH_GEIS_INIT_RECORDING, gt_recording("touchscreen/drag-2.evemu"),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
	Geis other = gt_open_recording("touchscreen/drag-2.evemu", GEIS_INIT_TRACK_DEVICES);
	GeisSubscription sub, osub;
	GeisFilter f, of;
	GeisDevice d;
	GeisGestureClass klass = NULL;
	GeisEvent ev, gesture = NULL;
	GeisInteger i = 0;
	GeisFloat fl = 0;

	assert_non_null(geis);
	geis_register_class_callback(geis, count_class, &klass);
	sub = geis_subscription_new(geis, "sub", 0);
	osub = geis_subscription_new(other, "osub", 0);
	f = geis_filter_new(geis, "f");
	of = geis_filter_new(other, "of");
	assert_non_null(sub);
	assert_non_null(f);
	assert_int_equal(geis_subscription_activate(sub), 0);
	geis_dispatch_events(geis);
	while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
		if (!gesture && geis_event_type(ev) == GEIS_EVENT_GESTURE_BEGIN)
			gesture = ev;
		else
			geis_event_delete(ev);
	}
	assert_non_null(gesture);
	assert_non_null(klass);

	/* errors: out-of-range error index */
	assert_int_equal(geis_error_code(geis, 1000), GEIS_STATUS_BAD_ARGUMENT);
	assert_null(geis_error_message(geis, 1000));

	/* configuration: unknown names, NULL names and values */
	assert_int_equal(geis_get_configuration(geis, "org.example.x", &i), GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_set_configuration(geis, "org.example.x", &i), GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_get_configuration(geis, NULL, &i), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_set_configuration(geis, NULL, &i), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_set_configuration(geis, GEIS_CONFIG_MAX_EVENTS, NULL),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_next_event(geis, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_get_configuration(sub, "org.example.x", &i),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_subscription_set_configuration(sub, "org.example.x", &i),
			 GEIS_STATUS_NOT_SUPPORTED);
	assert_int_equal(geis_subscription_get_configuration(sub, NULL, &i),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_get_configuration(sub, GEIS_CONFIG_DRAG_THRESHOLD, NULL),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_set_configuration(sub, GEIS_CONFIG_DRAG_THRESHOLD, NULL),
			 GEIS_STATUS_BAD_ARGUMENT);
	/* every threshold: finite and not negative, as in grail; infinity is
	 * refused, not taken as "never" */
	{
		static const char *const thresholds[] = {
			GEIS_CONFIG_DRAG_THRESHOLD, GEIS_CONFIG_PINCH_THRESHOLD,
			GEIS_CONFIG_ROTATE_THRESHOLD, GEIS_CONFIG_TAP_THRESHOLD,
		};
		const GeisFloat bad[] = { NAN, INFINITY, -INFINITY, -1.0f };

		for (size_t k = 0; k < 4; k++) {
			GeisFloat before, after;

			assert_int_equal(geis_subscription_get_configuration(sub, thresholds[k],
									     &before), 0);
			for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
				fl = bad[b];
				assert_int_equal(geis_subscription_set_configuration(
							 sub, thresholds[k], &fl),
						 GEIS_STATUS_BAD_ARGUMENT);
				assert_int_equal(geis_error_count(geis), 1);
			}
			assert_int_equal(geis_subscription_get_configuration(sub, thresholds[k],
									     &after), 0);
			assert_true(before == after);
		}
		i = -1;
		assert_int_equal(geis_subscription_set_configuration(sub, GEIS_CONFIG_DRAG_TIMEOUT,
								     &i),
				 GEIS_STATUS_BAD_ARGUMENT);
	}
	/* a subscription configuration item is not an instance one */
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIG_DRAG_TIMEOUT, &i),
			 GEIS_STATUS_NOT_SUPPORTED);

	/* devices: unknown ids, indices, names */
	assert_null(geis_get_device(geis, 0));
	assert_null(geis_get_device(geis, 999));
	assert_null(geis_get_device(geis, -1));
	d = geis_get_device(geis, 1);
	assert_non_null(d);
	assert_null(geis_device_attr(d, geis_device_attr_count(d)));
	assert_null(geis_device_attr(d, (GeisSize)-1));
	assert_null(geis_device_attr_by_name(d, "org.example.x"));
	assert_null(geis_device_attr_by_name(d, NULL));

	/* classes */
	assert_null(geis_gesture_class_attr(klass, -1));
	assert_null(geis_gesture_class_attr(klass, (int)geis_gesture_class_attr_count(klass)));
	assert_non_null(geis_gesture_class_name(klass));
	geis_gesture_class_unref(klass);

	/* events, groups, frames, touches */
	{
		GeisGroupSet gs = geis_attr_value_to_pointer(
			geis_event_attr_by_name(gesture, GEIS_EVENT_ATTRIBUTE_GROUPSET));
		GeisTouchSet ts = geis_attr_value_to_pointer(
			geis_event_attr_by_name(gesture, GEIS_EVENT_ATTRIBUTE_TOUCHSET));
		GeisGroup g;
		GeisFrame fr;
		GeisTouch t;

		assert_null(geis_event_attr(gesture, geis_event_attr_count(gesture)));
		assert_null(geis_event_attr_by_name(gesture, "org.example.x"));
		assert_null(geis_event_attr_by_name(gesture, NULL));
		/* a pointer attribute read as another type */
		assert_int_equal(geis_attr_value_to_integer(
			geis_event_attr_by_name(gesture, GEIS_EVENT_ATTRIBUTE_GROUPSET)), 0);
		assert_null(geis_attr_value_to_string(
			geis_event_attr_by_name(gesture, GEIS_EVENT_ATTRIBUTE_GROUPSET)));
		assert_non_null(gs);
		assert_non_null(ts);
		assert_null(geis_groupset_group(gs, geis_groupset_group_count(gs)));
		g = geis_groupset_group(gs, 0);
		assert_null(geis_group_frame(g, geis_group_frame_count(g)));
		fr = geis_group_frame(g, 0);
		assert_null(geis_frame_attr(fr, geis_frame_attr_count(fr)));
		assert_null(geis_frame_attr_by_name(fr, "org.example.x"));
		assert_null(geis_frame_attr_by_name(fr, NULL));
		assert_int_equal(geis_frame_touchid(fr, geis_frame_touchid_count(fr)), 0);
		assert_int_equal(geis_frame_is_class(fr, NULL), GEIS_FALSE);
		assert_null(geis_touchset_touch(ts, geis_touchset_touch_count(ts)));
		assert_null(geis_touchset_touch_by_id(ts, 100000));
		t = geis_touchset_touch(ts, 0);
		assert_non_null(t);
		assert_null(geis_touch_attr(t, geis_touch_attr_count(t)));
		assert_null(geis_touch_attr_by_name(t, "org.example.x"));
		assert_null(geis_touch_attr_by_name(t, NULL));
	}
	geis_event_delete(gesture);

	/* accept / reject of unknown gestures */
	assert_int_equal(geis_gesture_accept(geis, NULL, GEIS_NO_GESTURE_ID), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_gesture_reject(geis, NULL, GEIS_NO_GESTURE_ID), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_gesture_accept(geis, NULL, 123456), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_gesture_reject(geis, NULL, 123456), GEIS_STATUS_BAD_ARGUMENT);
	assert_true(geis_error_count(geis) >= 1);
	assert_non_null(strstr(geis_error_message(geis, 0), "123456"));

	/* regions: unknown kinds, NULL names */
	assert_null(geis_region_new(geis, "x", "org.example.region", NULL));
	assert_null(geis_region_new(geis, "x", NULL, NULL));

	/* filters: unknown facility, names, operations, NULL names/values */
	assert_int_equal(geis_filter_add_term(f, (GeisFilterFacility)0, NULL),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS, "org.example.x",
		GEIS_FILTER_OP_EQ, 1, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
		(GeisFilterOperation)-1, "Drag", NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
		GEIS_FILTER_OP_EQ, (const char *)NULL, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_REGION,
		GEIS_DEVICE_ATTRIBUTE_ID, GEIS_FILTER_OP_EQ, 1, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS, NULL), GEIS_STATUS_SUCCESS);
	assert_int_equal(f->nterms, 0);

	/* handles of another instance or owner */
	assert_int_equal(geis_subscription_add_filter(sub, of), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_add_filter(sub, NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_add_filter(osub, f), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_add_filter(sub, f), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_add_filter(sub, f), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_subscription_remove_filter(osub, f), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(geis_filter_delete(f), GEIS_STATUS_BAD_ARGUMENT);   /* owned */

	/* subscriptions: bad flags */
	assert_null(geis_subscription_new(geis, "bad", 0x80));
	assert_null(geis_subscription_new(geis, "bad", -1));

	geis_delete(other);
	geis_delete(geis);
	UT_CLIENT_BUGS_END(3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_indirect_attributes),
		cmocka_unit_test(test_touch_n_attributes),
		cmocka_unit_test(test_frame_matrix),
		cmocka_unit_test(test_centroid),
		cmocka_unit_test(test_tap_time),
		cmocka_unit_test(test_construction_finished),
		cmocka_unit_test(test_synchronous_events),
		cmocka_unit_test(test_device_term_ops),
		cmocka_unit_test(test_special_terms),
		cmocka_unit_test(test_clone),
		cmocka_unit_test(test_remove_filter),
		cmocka_unit_test(test_thresholds_and_timeouts),
		cmocka_unit_test(test_cont_and_grab),
		cmocka_unit_test(test_touch_count_change_restarts_motion),
		cmocka_unit_test(test_begin_deltas_accumulated),
		cmocka_unit_test(test_null_table),
		cmocka_unit_test(test_unknown_and_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
