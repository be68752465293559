#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <libevdev/libevdev.h>

#include "input/recording/recording.h"
#include "geis-test.h"
#include "test-support.h"
#include "util/clock.h"

const char *
gt_recording(const char *name)
{
	static char buf[4][4096];
	static int k;
	char *b = buf[k++ & 3];

	snprintf(b, sizeof(buf[0]), "%s", ut_test_recording_path(name));
	return b;
}

Geis
gt_open_recording(const char *name, GeisString flag)
{
	Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, gt_recording(name),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, flag, NULL);

	assert_non_null(geis);
	return geis;
}

GeisSubscription
gt_subscription(Geis geis, GeisSubscriptionFlags flags, const char *klass, int touches)
{
	GeisSubscription sub = geis_subscription_new(geis, "sub", flags);
	GeisFilter f = geis_filter_new(geis, "filter");

	assert_non_null(sub);
	assert_non_null(f);
	if (klass)
		assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
						      GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ,
						      klass, NULL),
				 GEIS_STATUS_SUCCESS);
	if (touches)
		assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
						      GEIS_GESTURE_ATTRIBUTE_TOUCHES,
						      GEIS_FILTER_OP_EQ, touches, NULL),
				 GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_add_filter(sub, f), GEIS_STATUS_SUCCESS);
	return sub;
}

int
gt_fd(Geis geis)
{
	int fd = -1;

	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIGURATION_FD, &fd),
			 GEIS_STATUS_SUCCESS);
	assert_true(fd >= 0);
	return fd;
}

void
gt_pump(Geis geis, int ms)
{
	int fd = gt_fd(geis);

	for (int i = 0; i < ms; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 1) > 0)
			geis_dispatch_events(geis);
	}
}

static float
fattr(GeisFrame f, const char *name)
{
	GeisAttr a = geis_frame_attr_by_name(f, name);

	return a ? geis_attr_value_to_float(a) : NAN;
}

static int
iattr(GeisFrame f, const char *name)
{
	GeisAttr a = geis_frame_attr_by_name(f, name);

	return a ? geis_attr_value_to_integer(a) : -1;
}

void
gt_log_add(struct gt_log *log, Geis geis, GeisEvent ev)
{
	static const char *const tid[5] = { GEIS_GESTURE_ATTRIBUTE_TOUCH_0_ID,
		GEIS_GESTURE_ATTRIBUTE_TOUCH_1_ID, GEIS_GESTURE_ATTRIBUTE_TOUCH_2_ID,
		GEIS_GESTURE_ATTRIBUTE_TOUCH_3_ID, GEIS_GESTURE_ATTRIBUTE_TOUCH_4_ID };
	static const char *const tx[5] = { GEIS_GESTURE_ATTRIBUTE_TOUCH_0_X,
		GEIS_GESTURE_ATTRIBUTE_TOUCH_1_X, GEIS_GESTURE_ATTRIBUTE_TOUCH_2_X,
		GEIS_GESTURE_ATTRIBUTE_TOUCH_3_X, GEIS_GESTURE_ATTRIBUTE_TOUCH_4_X };
	static const char *const ty[5] = { GEIS_GESTURE_ATTRIBUTE_TOUCH_0_Y,
		GEIS_GESTURE_ATTRIBUTE_TOUCH_1_Y, GEIS_GESTURE_ATTRIBUTE_TOUCH_2_Y,
		GEIS_GESTURE_ATTRIBUTE_TOUCH_3_Y, GEIS_GESTURE_ATTRIBUTE_TOUCH_4_Y };
	static const char *const classes[5] = { GEIS_GESTURE_DRAG, GEIS_GESTURE_PINCH,
		GEIS_GESTURE_ROTATE, GEIS_GESTURE_TAP, GEIS_GESTURE_TOUCH };
	GeisAttr gsa = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	GeisGroupSet gs;
	GeisFrame f;
	struct gt_event *e;

	if (!gsa) {
		log->other++;
		return;
	}
	gs = geis_attr_value_to_pointer(gsa);
	assert_int_equal(geis_groupset_group_count(gs), 1);
	assert_int_equal(geis_group_frame_count(geis_groupset_group(gs, 0)), 1);
	f = geis_group_frame(geis_groupset_group(gs, 0), 0);
	assert_non_null(f);
	if (log->n == log->cap) {
		log->cap = log->cap ? log->cap * 2 : 64;
		log->ev = realloc(log->ev, log->cap * sizeof(*log->ev));
		assert_non_null(log->ev);
	}
	e = &log->ev[log->n++];
	memset(e, 0, sizeof(*e));
	e->type = geis_event_type(ev);
	e->id = geis_frame_id(f);
	e->touches = iattr(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES);
	e->timestamp = iattr(f, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP);
	e->pos_x = fattr(f, GEIS_GESTURE_ATTRIBUTE_POSITION_X);
	e->pos_y = fattr(f, GEIS_GESTURE_ATTRIBUTE_POSITION_Y);
	e->delta_x = fattr(f, GEIS_GESTURE_ATTRIBUTE_DELTA_X);
	e->delta_y = fattr(f, GEIS_GESTURE_ATTRIBUTE_DELTA_Y);
	e->vel_x = fattr(f, GEIS_GESTURE_ATTRIBUTE_VELOCITY_X);
	e->vel_y = fattr(f, GEIS_GESTURE_ATTRIBUTE_VELOCITY_Y);
	e->radius = fattr(f, GEIS_GESTURE_ATTRIBUTE_RADIUS);
	e->radius_delta = fattr(f, GEIS_GESTURE_ATTRIBUTE_RADIUS_DELTA);
	e->radial_velocity = fattr(f, GEIS_GESTURE_ATTRIBUTE_RADIAL_VELOCITY);
	e->angle = fattr(f, GEIS_GESTURE_ATTRIBUTE_ANGLE);
	e->angle_delta = fattr(f, GEIS_GESTURE_ATTRIBUTE_ANGLE_DELTA);
	e->angular_velocity = fattr(f, GEIS_GESTURE_ATTRIBUTE_ANGULAR_VELOCITY);
	e->focus_x = fattr(f, GEIS_GESTURE_ATTRIBUTE_FOCUS_X);
	e->focus_y = fattr(f, GEIS_GESTURE_ATTRIBUTE_FOCUS_Y);
	e->bbox[0] = fattr(f, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X1);
	e->bbox[1] = fattr(f, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y1);
	e->bbox[2] = fattr(f, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X2);
	e->bbox[3] = fattr(f, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y2);
	e->centroid_x = fattr(f, GEIS_GESTURE_ATTRIBUTE_CENTROID_X);
	e->centroid_y = fattr(f, GEIS_GESTURE_ATTRIBUTE_CENTROID_Y);
	e->root_window = iattr(f, GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID);
	e->child_window = iattr(f, GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID);
	e->tap_time = iattr(f, GEIS_GESTURE_ATTRIBUTE_TAP_TIME);
	{
		const GeisFloat *m = geis_frame_matrix(f);

		assert_non_null(m);
		memcpy(e->matrix, m, sizeof(e->matrix));
	}
	e->window = iattr(f, GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID);
	e->device = iattr(f, GEIS_GESTURE_ATTRIBUTE_DEVICE_ID);
	for (int i = 0; i < 5; i++) {
		e->touch_id[i] = iattr(f, tid[i]);
		e->touch_x[i] = fattr(f, tx[i]);
		e->touch_y[i] = fattr(f, ty[i]);
	}
	e->construction_finished = geis_attr_value_to_boolean(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CONSTRUCTION_FINISHED));
	{
		const char *name = geis_attr_value_to_string(
			geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME));

		for (int c = 0; c < 5; c++)
			if (name && strcmp(name, classes[c]) == 0)
				e->mask |= 1u << c;
	}
	/* the touch set agrees with the per-touch frame attributes */
	{
		GeisTouchSet ts = geis_attr_value_to_pointer(
			geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_TOUCHSET));

		assert_non_null(ts);
		assert_int_equal(geis_touchset_touch_count(ts), (size_t)e->touches);
		assert_int_equal(geis_frame_touchid_count(f), (size_t)e->touches);
		for (int i = 0; i < e->touches && i < 5; i++) {
			GeisTouch t = geis_touchset_touch_by_id(ts, geis_frame_touchid(f, (size_t)i));

			assert_non_null(t);
			assert_int_equal(geis_touch_id(t), (size_t)e->touch_id[i]);
			assert_float_equal(geis_attr_value_to_float(
				geis_touch_attr_by_name(t, GEIS_TOUCH_ATTRIBUTE_X)), e->touch_x[i], 1e-4);
			assert_float_equal(geis_attr_value_to_float(
				geis_touch_attr_by_name(t, GEIS_TOUCH_ATTRIBUTE_Y)), e->touch_y[i], 1e-4);
		}
	}
	(void)geis;
}

void
gt_log_free(struct gt_log *log)
{
	free(log->ev);
	memset(log, 0, sizeof(*log));
}

void
gt_run_fast_each(Geis geis, void (*fn)(void *data, GeisEvent ev), void *data)
{
	for (int round = 0; round < 100; round++) {
		GeisStatus st = geis_dispatch_events(geis);
		GeisEvent ev;
		int got = 0;

		assert_true(st == GEIS_STATUS_SUCCESS || st == GEIS_STATUS_CONTINUE);
		while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
			fn(data, ev);
			geis_event_delete(ev);
			got++;
		}
		if (st == GEIS_STATUS_SUCCESS && !got && utouch_geis_playback_finished(geis))
			return;
	}
	fail_msg("the recording did not finish");
}

struct log_target {
	Geis geis;
	struct gt_log *log;
};

static void
log_one(void *data, GeisEvent ev)
{
	struct log_target *t = data;

	gt_log_add(t->log, t->geis, ev);
}

void
gt_run_fast(Geis geis, struct gt_log *log)
{
	struct log_target t = { geis, log };

	gt_run_fast_each(geis, log_one, &t);
}

/* ---- independent model ---- */

size_t
gt_model(const char *path, struct gt_snap **out)
{
	struct ut_recording *rec = NULL;
	char err[256];
	struct gt_snap cur, *snaps = NULL;
	size_t n = 0, cap = 0;
	int slot = 0, next_id = 1;
	int tracking[16], sid[16], present[16];
	float sx[16], sy[16], rx[16], ry[16];
	const struct input_absinfo *ax, *ay;
	uint64_t usec0;

	assert_int_equal(ut_recording_load(path, NULL, &rec, err, sizeof(err)), 0);
	ax = libevdev_get_abs_info(rec->dev, ABS_MT_POSITION_X);
	ay = libevdev_get_abs_info(rec->dev, ABS_MT_POSITION_Y);
	assert_non_null(ax);
	assert_non_null(ay);
	memset(present, 0, sizeof(present));
	memset(tracking, 0, sizeof(tracking));
	usec0 = rec->nevents ? rec->events[0].usec : 0;
	for (size_t i = 0; i < rec->nevents; i++) {
		const struct ut_raw_event *e = &rec->events[i];

		if (e->type == EV_ABS && e->code == ABS_MT_SLOT) {
			slot = e->value >= 0 && e->value < 16 ? e->value : 0;
		} else if (e->type == EV_ABS && e->code == ABS_MT_TRACKING_ID) {
			if (e->value >= 0) {
				present[slot] = 1;
				tracking[slot] = e->value;
				sid[slot] = next_id++;
			} else {
				present[slot] = 0;
			}
		} else if (e->type == EV_ABS && e->code == ABS_MT_POSITION_X) {
			sx[slot] = (float)((double)(e->value - ax->minimum) * 1024.0 /
					   (double)(ax->maximum - ax->minimum));
			rx[slot] = (float)e->value;
		} else if (e->type == EV_ABS && e->code == ABS_MT_POSITION_Y) {
			sy[slot] = (float)((double)(e->value - ay->minimum) * 768.0 /
					   (double)(ay->maximum - ay->minimum));
			ry[slot] = (float)e->value;
		} else if (e->type == EV_SYN && e->code == SYN_REPORT) {
			memset(&cur, 0, sizeof(cur));
			cur.time = (int64_t)(e->usec / 1000u - usec0 / 1000u) + 1000;
			for (int s = 0; s < 16; s++) {
				if (!present[s])
					continue;
				cur.id[cur.n] = sid[s];
				cur.x[cur.n] = sx[s];
				cur.y[cur.n] = sy[s];
				cur.dx[cur.n] = rx[s];
				cur.dy[cur.n] = ry[s];
				cur.n++;
			}
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				snaps = realloc(snaps, cap * sizeof(*snaps));
				assert_non_null(snaps);
			}
			snaps[n++] = cur;
		}
	}
	(void)tracking;
	ut_recording_free(rec);
	*out = snaps;
	return n;
}

const struct gt_snap *
gt_model_at(const struct gt_snap *s, size_t n, int64_t time)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].time == time)
			return &s[i];
	return NULL;
}

void
gt_centroid(const struct gt_snap *s, float *x, float *y)
{
	*x = *y = 0;
	for (int i = 0; i < s->n; i++) {
		*x += s->x[i];
		*y += s->y[i];
	}
	*x /= (float)s->n;
	*y /= (float)s->n;
}

int
gt_find_touch(const struct gt_snap *s, int id)
{
	for (int i = 0; i < s->n; i++)
		if (s->id[i] == id)
			return i;
	return -1;
}

size_t
gt_input_events(const char *path, struct input_event **out)
{
	struct ut_recording *rec = NULL;
	char err[256];

	assert_int_equal(ut_recording_load(path, NULL, &rec, err, sizeof(err)), 0);
	assert_true(rec->nevents > 0);
	struct input_event *evs = calloc(rec->nevents, sizeof(*evs));
	assert_non_null(evs);
	uint64_t first = rec->events[0].usec, last = rec->events[rec->nevents - 1].usec;
	uint64_t base = ut_mono_us() - (last - first);
	for (size_t i = 0; i < rec->nevents; i++) {
		ut_input_event_set_usec(&evs[i], base + rec->events[i].usec - first);
		evs[i].type = rec->events[i].type;
		evs[i].code = rec->events[i].code;
		evs[i].value = rec->events[i].value;
	}
	size_t n = rec->nevents;
	ut_recording_free(rec);
	*out = evs;
	return n;
}

GeisStatus
gt_add_stream(Geis geis, const struct input_event *evs, size_t n, const char *caps_path)
{
	size_t len = n * sizeof(*evs);
	int fds[2];

	assert_true(len <= 60000); /* written before it is read: fits the pipe */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], evs, len), (ssize_t)len);
	close(fds[1]); /* end of file: the device goes away */
	return utouch_geis_add_input_fd(geis, fds[0], caps_path);
}

int
gt_empty_dir(char *buf, size_t size)
{
	snprintf(buf, size, "/tmp/utouch-geis-test-XXXXXX");
	return mkdtemp(buf) ? 0 : -1;
}

int
gt_remove_dir(const char *dir, const char *leftover)
{
	if (leftover) {
		char path[256];
		snprintf(path, sizeof(path), "%s/%s", dir, leftover);
		unlink(path);
	}
	return rmdir(dir);
}
