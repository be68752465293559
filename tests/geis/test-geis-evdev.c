/*
 * geis on the evdev backend, driven through the same code path live
 * devices use: `struct input_event` streams in pipes (this machine has no
 * /dev/uinput), with device capabilities from a recording's header, written
 * at the recorded pace with CLOCK_MONOTONIC timestamps.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <libevdev/libevdev.h>

#include "geis-test.h"
#include "input/recording/recording.h"
#include "test-support.h"
#include "util/clock.h"

/* signed, for differences */
static int64_t
mono_us(void)
{
	return (int64_t)ut_mono_us();
}

/* ---- a writer thread playing a recording into a pipe ---- */

struct player {
	struct ut_recording *rec;
	int fd;
	pthread_t thread;
};

static void *
play(void *data)
{
	struct player *p = data;
	int64_t base = mono_us();
	uint64_t first = p->rec->nevents ? p->rec->events[0].usec : 0;

	for (size_t i = 0; i < p->rec->nevents; i++) {
		int64_t at = base + (int64_t)(p->rec->events[i].usec - first);
		int64_t wait = at - mono_us();
		if (wait > 0) {
			struct timespec ts = { wait / 1000000, (wait % 1000000) * 1000 };
			nanosleep(&ts, NULL);
		}
		struct input_event ev = {
			.input_event_sec = at / 1000000,
			.input_event_usec = at % 1000000,
			.type = p->rec->events[i].type,
			.code = p->rec->events[i].code,
			.value = p->rec->events[i].value,
		};
		if (write(p->fd, &ev, sizeof(ev)) != (ssize_t)sizeof(ev))
			break;
	}
	close(p->fd);   /* end of file: the device goes away */
	return NULL;
}

static void
player_start(struct player *p, const char *path, int fd)
{
	char err[256];
	assert_int_equal(ut_recording_load(path, NULL, &p->rec, err, sizeof(err)), 0);
	p->fd = fd;
	assert_int_equal(pthread_create(&p->thread, NULL, play, p), 0);
}

static void
player_join(struct player *p)
{
	pthread_join(p->thread, NULL);
	ut_recording_free(p->rec);
}

static GeisSubscription
subscribe(Geis geis, const char *cls, int touches)
{
	GeisSubscription sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, cls, touches);

	assert_int_equal(geis_subscription_activate(sub), 0);
	return sub;
}

struct counts {
	int available, unavailable;
};

/* Poll the geis fd only; stop when @p done says so or after @p max_ms. */
static void
pump(Geis geis, struct gt_log *log, struct counts *c, int max_ms,
     int (*done)(const struct gt_log *, const struct counts *))
{
	int fd = gt_fd(geis);
	int64_t start = mono_us();
	while (mono_us() - start < (int64_t)max_ms * 1000) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 20) <= 0)
			continue;
		geis_dispatch_events(geis);
		GeisEvent ev;
		while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
			GeisEventType t = geis_event_type(ev);
			if (t == GEIS_EVENT_DEVICE_AVAILABLE)
				c->available++;
			else if (t == GEIS_EVENT_DEVICE_UNAVAILABLE)
				c->unavailable++;
			gt_log_add(log, geis, ev);
			geis_event_delete(ev);
		}
		if (done && done(log, c))
			break;
	}
}

static int
device_gone(const struct gt_log *log, const struct counts *c)
{
	(void)log;
	return c->unavailable > 0;
}

/* An empty directory, so that the backend finds no real device. */
static char tmpdir[64];

static int
setup_dir(void **state)
{
	(void)state;
	return gt_empty_dir(tmpdir, sizeof(tmpdir));
}

static int
remove_dir(void **state)
{
	(void)state;
	return gt_remove_dir(tmpdir, "event0");
}

/* Play the recording @p path in real time through a pipe, as a device of
 * @p geis, and read the events until the device is gone (10 s at most). */
static void
play_through_pipe(Geis geis, const char *path, struct gt_log *got, struct counts *c)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(utouch_geis_add_input_fd(geis, fds[0], path), GEIS_STATUS_SUCCESS);
	struct player pl;
	player_start(&pl, path, fds[1]);
	pump(geis, got, c, 10000, device_gone);
	player_join(&pl);
}

/*
 * UTOUCH_GEIS_INIT_EVDEV_SAVE: what the device sends is saved as an evemu
 * recording that plays back as the same events (utouch-events --save).
 */
static void
test_save_input(void **state)
{
	(void)state;
	const char *path = gt_recording("touchscreen/drag-2.evemu");
	char save[] = "/tmp/utouch-save-XXXXXX", file[64], err[256];
	struct ut_recording *rec = NULL, *back = NULL;

	assert_non_null(mkdtemp(save));
	snprintf(file, sizeof(file), "%s/mine.evemu", save);
	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			     UTOUCH_GEIS_INIT_EVDEV_SAVE, file, GEIS_INIT_TRACK_DEVICES, NULL);
	assert_non_null(geis);
	struct gt_log got = { 0 };
	struct counts c = { 0 };
	play_through_pipe(geis, path, &got, &c);
	geis_delete(geis);

	assert_int_equal(ut_recording_load(path, NULL, &rec, err, sizeof(err)), 0);
	assert_int_equal(ut_recording_load(file, NULL, &back, err, sizeof(err)), 0);
	assert_string_equal(libevdev_get_name(back->dev), libevdev_get_name(rec->dev));
	assert_int_equal(back->nevents, rec->nevents);
	for (size_t i = 0; i < rec->nevents && i < back->nevents; i++) {
		assert_int_equal(back->events[i].type, rec->events[i].type);
		assert_int_equal(back->events[i].code, rec->events[i].code);
		assert_int_equal(back->events[i].value, rec->events[i].value);
	}
	ut_recording_free(rec);
	ut_recording_free(back);
	gt_log_free(&got);
	unlink(file);
	rmdir(save);
}

/*
 * A two-finger drag played live through a pipe gives the same gesture as
 * the recording backend playing the file: same number of events, same
 * positions; the device comes with DEVICE_AVAILABLE and leaves at the end
 * of the stream with DEVICE_UNAVAILABLE.
 */
static void
test_pipe_matches_recording(void **state)
{
	(void)state;
	const char *path = gt_recording("touchscreen/drag-2.evemu");

	/* reference: the recording backend, virtual time */
	Geis ref = geis_new(UTOUCH_GEIS_INIT_RECORDING, path, UTOUCH_GEIS_INIT_RECORDING_FAST,
			    GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	assert_non_null(ref);
	subscribe(ref, GEIS_GESTURE_DRAG, 2);
	struct gt_log want = { 0 };
	gt_run_fast(ref, &want);
	geis_delete(ref);
	assert_true(want.n > 10);

	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			     GEIS_INIT_TRACK_DEVICES, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	assert_non_null(geis);
	subscribe(geis, GEIS_GESTURE_DRAG, 2);
	struct gt_log got = { 0 };
	struct counts c = { 0 };
	play_through_pipe(geis, path, &got, &c);
	/* the gesture's end may follow the device removal */
	pump(geis, &got, &c, 300, NULL);

	assert_int_equal(c.available, 1);
	assert_int_equal(c.unavailable, 1);
	assert_int_equal(got.n, want.n);
	for (size_t i = 0; i < got.n && i < want.n; i++) {
		assert_int_equal(got.ev[i].type, want.ev[i].type);
		assert_int_equal(got.ev[i].touches, 2);
		assert_true(fabsf(got.ev[i].pos_x - want.ev[i].pos_x) < 0.01f);
		assert_true(fabsf(got.ev[i].pos_y - want.ev[i].pos_y) < 0.01f);
		assert_true(fabsf(got.ev[i].delta_x - want.ev[i].delta_x) < 0.01f);
	}
	assert_int_equal(got.ev[0].type, GEIS_EVENT_GESTURE_BEGIN);
	assert_int_equal(got.ev[got.n - 1].type, GEIS_EVENT_GESTURE_END);
	/* timestamps are the stream's CLOCK_MONOTONIC times, in ms, as 32 bits */
	int64_t span = got.ev[got.n - 1].timestamp - got.ev[0].timestamp;
	int64_t want_span = want.ev[want.n - 1].timestamp - want.ev[0].timestamp;
	assert_true(span >= want_span - 1 && span <= want_span + 1);
	gt_log_free(&want);
	gt_log_free(&got);
	geis_delete(geis);
}

/*
 * Live devices have windows too: a rectangle region gets the drag of the
 * touches that began in it, in its own coordinates, like the whole screen
 * gets it in screen coordinates.
 */
static void
test_pipe_rect_region(void **state)
{
	(void)state;
	const char *path = gt_recording("touchscreen/drag-2.evemu");
	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			     GEIS_INIT_TRACK_DEVICES, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	assert_non_null(geis);
	GeisRegion rect = geis_region_new(geis, "r", UTOUCH_GEIS_REGION_RECT, 200, 100, 400, 600,
					  NULL);
	assert_non_null(rect);
	int rw = utouch_geis_region_window_id(rect);
	subscribe(geis, GEIS_GESTURE_DRAG, 2);   /* the whole screen, window 1 */
	GeisSubscription sub = geis_subscription_new(geis, "rect", GEIS_SUBSCRIPTION_NONE);
	GeisFilter f = geis_filter_new(geis, "rect");
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS,
		GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG,
		GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2, NULL), 0);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_REGION,
		GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ, rw, NULL), 0);
	assert_int_equal(geis_subscription_add_filter(sub, f), 0);
	assert_int_equal(geis_subscription_activate(sub), 0);

	struct gt_log got = { 0 };
	struct counts c = { 0 };
	play_through_pipe(geis, path, &got, &c);
	pump(geis, &got, &c, 300, NULL);

	size_t n1 = 0, nr = 0;
	const struct gt_event *screen[128], *inrect[128];
	for (size_t i = 0; i < got.n; i++) {
		if (got.ev[i].window == 1 && n1 < 128)
			screen[n1++] = &got.ev[i];
		else if (got.ev[i].window == rw && nr < 128)
			inrect[nr++] = &got.ev[i];
	}
	assert_true(n1 > 10);
	assert_int_equal(nr, n1);
	for (size_t i = 0; i < n1; i++) {
		assert_int_equal(inrect[i]->type, screen[i]->type);
		assert_true(fabsf(inrect[i]->pos_x - (screen[i]->pos_x - 200.0f)) < 0.01f);
		assert_true(fabsf(inrect[i]->pos_y - (screen[i]->pos_y - 100.0f)) < 0.01f);
	}
	gt_log_free(&got);
	geis_delete(geis);
}

static int
seen_begin(const struct gt_log *log, const struct counts *c)
{
	(void)c;
	return log->n > 0;
}

static int
seen_end(const struct gt_log *log, const struct counts *c)
{
	(void)c;
	return log->n > 0 && log->ev[log->n - 1].type == GEIS_EVENT_GESTURE_END;
}

/*
 * One finger put down and held: with geis' default (atomic) gestures the
 * touch gesture is held back for the composition time, and only geis'
 * own timer can release it.  Nothing is written until the BEGIN arrived.
 */
static void
test_timeout_without_input(void **state)
{
	(void)state;
	const char *caps = gt_recording("touchscreen/drag-2.evemu");
	int64_t before_ms = mono_us() / 1000;
	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir, NULL);
	assert_non_null(geis);
	subscribe(geis, GEIS_GESTURE_TOUCH, 1);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(utouch_geis_add_input_fd(geis, fds[0], caps), GEIS_STATUS_SUCCESS);

	int64_t t0 = mono_us();
	struct input_event down[] = {
		ut_test_event(t0, EV_ABS, ABS_MT_SLOT, 0),
		ut_test_event(t0, EV_ABS, ABS_MT_TRACKING_ID, 7),
		ut_test_event(t0, EV_ABS, ABS_MT_POSITION_X, 4000),
		ut_test_event(t0, EV_ABS, ABS_MT_POSITION_Y, 3000),
		ut_test_event(t0, EV_KEY, BTN_TOUCH, 1),
		ut_test_event(t0, EV_SYN, SYN_REPORT, 0),
	};
	ut_test_write_events(fds[1], down, sizeof(down) / sizeof(down[0]));
	struct gt_log log = { 0 };
	struct counts c = { 0 };
	pump(geis, &log, &c, 3000, seen_begin);
	int64_t waited_ms = (mono_us() - t0) / 1000;
	assert_true(log.n >= 1);
	assert_int_equal(log.ev[0].type, GEIS_EVENT_GESTURE_BEGIN);
	assert_int_equal(log.ev[0].touches, 1);
	assert_true(waited_ms >= 50);    /* not before the composition time */
	assert_true(waited_ms < 1000);
	/* the gesture's time is the touch's begin, counted from one second
	 * before the instance started */
	assert_true(log.ev[0].timestamp >= 1000 - waited_ms);
	assert_true(log.ev[0].timestamp <= 1000 + (t0 / 1000 - before_ms));

	int64_t t1 = mono_us();
	struct input_event up[] = {
		ut_test_event(t1, EV_ABS, ABS_MT_TRACKING_ID, -1),
		ut_test_event(t1, EV_KEY, BTN_TOUCH, 0),
		ut_test_event(t1, EV_SYN, SYN_REPORT, 0),
	};
	ut_test_write_events(fds[1], up, sizeof(up) / sizeof(up[0]));
	pump(geis, &log, &c, 3000, seen_end);
	assert_int_equal(log.ev[log.n - 1].type, GEIS_EVENT_GESTURE_END);
	close(fds[1]);
	gt_log_free(&log);
	geis_delete(geis);
}

/*
 * A stream whose clock is far from the instance's (74 days of uptime, past
 * the 2^31 ms a GeisInteger holds): the "timestamp" attribute counts from
 * the instance's start, wrapped to 0 .. 2^31 - 1, so it stays positive and
 * its steps are the frames' steps.  geis 2.2 truncated the 64-bit time.
 */
static void
test_timestamp_far_clock(void **state)
{
	(void)state;
	const char *caps = gt_recording("touchscreen/drag-2.evemu");
	int64_t before_ms = mono_us() / 1000;
	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			     GEIS_INIT_SYNCHRONOUS_START, NULL);
	int64_t after_ms = mono_us() / 1000;
	assert_non_null(geis);
	subscribe(geis, GEIS_GESTURE_TOUCH, 1);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(utouch_geis_add_input_fd(geis, fds[0], caps), GEIS_STATUS_SUCCESS);

	/* the origin lies in [before - 1000, after - 1000] ms */
	int64_t base_ms = before_ms + 3 * (INT64_C(1) << 31) + (INT64_C(1) << 30);
	int64_t b = base_ms * 1000;
	struct input_event evs[] = {
		ut_test_event(b, EV_ABS, ABS_MT_SLOT, 0),
		ut_test_event(b, EV_ABS, ABS_MT_TRACKING_ID, 7),
		ut_test_event(b, EV_ABS, ABS_MT_POSITION_X, 4000),
		ut_test_event(b, EV_ABS, ABS_MT_POSITION_Y, 3000),
		ut_test_event(b, EV_SYN, SYN_REPORT, 0),
		ut_test_event(b + 100000, EV_ABS, ABS_MT_POSITION_X, 4100),
		ut_test_event(b + 100000, EV_SYN, SYN_REPORT, 0),
		ut_test_event(b + 200000, EV_ABS, ABS_MT_POSITION_X, 4200),
		ut_test_event(b + 200000, EV_SYN, SYN_REPORT, 0),
		ut_test_event(b + 300000, EV_ABS, ABS_MT_TRACKING_ID, -1),
		ut_test_event(b + 300000, EV_SYN, SYN_REPORT, 0),
	};
	ut_test_write_events(fds[1], evs, sizeof(evs) / sizeof(evs[0]));
	struct gt_log log = { 0 };
	struct counts c = { 0 };
	pump(geis, &log, &c, 3000, seen_end);
	assert_true(log.n >= 2);
	assert_int_equal(log.ev[log.n - 1].type, GEIS_EVENT_GESTURE_END);
	GeisInteger lo = (GeisInteger)((INT64_C(1) << 30) + 1000 - (after_ms - before_ms));
	GeisInteger hi = (GeisInteger)((INT64_C(1) << 30) + 1000);
	assert_true(log.ev[0].timestamp >= lo);
	assert_true(log.ev[0].timestamp <= hi);
	for (size_t i = 1; i < log.n; i++)
		assert_true(log.ev[i].timestamp >= log.ev[i - 1].timestamp);
	assert_int_equal(log.ev[log.n - 1].timestamp - log.ev[0].timestamp, 300);
	close(fds[1]);
	gt_log_free(&log);
	geis_delete(geis);
}

/* geis_delete() with a stream still attached, its touch down and its
 * DEVICE_AVAILABLE read: the DEVICE_UNAVAILABLE the teardown produces is
 * freed with the instance (the sanitizer and valgrind runs see leaks). */
static void
test_delete_with_stream_attached(void **state)
{
	(void)state;
	const char *caps = gt_recording("touchscreen/drag-2.evemu");
	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			     GEIS_INIT_TRACK_DEVICES, GEIS_INIT_SYNCHRONOUS_START, NULL);
	assert_non_null(geis);
	subscribe(geis, GEIS_GESTURE_TOUCH, 1);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(utouch_geis_add_input_fd(geis, fds[0], caps), GEIS_STATUS_SUCCESS);
	int64_t t0 = mono_us();
	struct input_event down[] = {
		ut_test_event(t0, EV_ABS, ABS_MT_SLOT, 0),
		ut_test_event(t0, EV_ABS, ABS_MT_TRACKING_ID, 7),
		ut_test_event(t0, EV_ABS, ABS_MT_POSITION_X, 4000),
		ut_test_event(t0, EV_ABS, ABS_MT_POSITION_Y, 3000),
		ut_test_event(t0, EV_SYN, SYN_REPORT, 0),
	};
	ut_test_write_events(fds[1], down, sizeof(down) / sizeof(down[0]));
	for (int i = 0; i < 5; i++) {
		GeisEvent ev;

		GeisStatus st;

		geis_dispatch_events(geis);
		while ((st = geis_next_event(geis, &ev)) == GEIS_STATUS_SUCCESS ||
		       st == GEIS_STATUS_CONTINUE)
			geis_event_delete(ev);
	}
	geis_delete(geis);
	close(fds[1]);
}

static int
fd_is_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

static void
test_add_input_fd_errors(void **state)
{
	(void)state;
	int fds[2];
	const char *caps = gt_recording("touchscreen/drag-2.evemu");

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(utouch_geis_add_input_fd(NULL, fds[0], caps), GEIS_STATUS_BAD_ARGUMENT);
	assert_false(fd_is_open(fds[0]));   /* taken, also on failure */
	close(fds[1]);

	/* not an evdev instance */
	Geis rec = geis_new(UTOUCH_GEIS_INIT_RECORDING, caps, UTOUCH_GEIS_INIT_RECORDING_FAST,
			    NULL);
	assert_non_null(rec);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(utouch_geis_add_input_fd(rec, fds[0], caps), GEIS_STATUS_BAD_ARGUMENT);
	assert_false(fd_is_open(fds[0]));
	assert_true(geis_error_count(rec) > 0);
	close(fds[1]);
	geis_delete(rec);

	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir, NULL);
	assert_non_null(geis);
	assert_int_equal(utouch_geis_add_input_fd(geis, -1, caps), GEIS_STATUS_BAD_ARGUMENT);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(utouch_geis_add_input_fd(geis, fds[0], NULL), GEIS_STATUS_BAD_ARGUMENT);
	assert_false(fd_is_open(fds[0]));
	close(fds[1]);
	/* a capabilities file that is not a recording: the message names it */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(utouch_geis_add_input_fd(geis, fds[0], "/nonexistent/caps.evemu"),
			 GEIS_STATUS_BAD_ARGUMENT);
	assert_false(fd_is_open(fds[0]));
	close(fds[1]);
	int found = 0;
	for (GeisSize i = 0; i < geis_error_count(geis); i++)
		found |= strstr(geis_error_message(geis, i), "/nonexistent/caps.evemu") != NULL;
	assert_true(found);
	geis_delete(geis);
}

/* ---- the open interface ---- */

struct opener {
	int opened, closed;
	char last[256];
};

static int
test_open(const char *path, int flags, void *user_data)
{
	struct opener *o = user_data;
	int fd = open(path, flags);
	if (fd < 0)
		return -errno;
	o->opened++;
	snprintf(o->last, sizeof(o->last), "%s", path);
	return fd;
}

static void
test_close(int fd, void *user_data)
{
	struct opener *o = user_data;
	o->closed++;
	close(fd);
}

/*
 * Device nodes are opened through the caller's interface and every
 * descriptor it handed out is given back to it; a node that is not an
 * evdev device is skipped without failing the instance.
 */
static void
test_open_interface(void **state)
{
	(void)state;
	static const struct utouch_geis_open_interface iface = {
		.open_restricted = test_open,
		.close_restricted = test_close,
	};
	struct opener o = { 0 };
	char path[128];
	snprintf(path, sizeof(path), "%s/event0", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a device\n", f);
	fclose(f);

	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			     UTOUCH_GEIS_INIT_EVDEV_OPEN_INTERFACE, &iface, &o,
			     GEIS_INIT_TRACK_DEVICES, GEIS_INIT_SYNCHRONOUS_START, NULL);
	assert_non_null(geis);
	struct gt_log log = { 0 };
	struct counts c = { 0 };
	pump(geis, &log, &c, 200, NULL);
	assert_int_equal(o.opened, 1);
	assert_string_equal(o.last, path);
	assert_int_equal(c.available, 0);   /* not a touch device */
	geis_delete(geis);
	assert_int_equal(o.closed, o.opened);
	gt_log_free(&log);
	unlink(path);

	/* half an interface is refused with a message, open(2) is used */
	static const struct utouch_geis_open_interface half = { .open_restricted = test_open };
	geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			UTOUCH_GEIS_INIT_EVDEV_OPEN_INTERFACE, &half, &o, NULL);
	assert_non_null(geis);
	geis_delete(geis);
}

static int
refuse_open(const char *path, int flags, void *user_data)
{
	(void)path;
	(void)flags;
	(void)user_data;
	return -EACCES;
}

struct log_count {
	int n, warnings;
	char last[512];
};

static void
count_log(void *data, enum utouch_geis_log_priority priority, const char *message)
{
	struct log_count *lc = data;

	lc->n++;
	lc->warnings += priority == UTOUCH_GEIS_LOG_WARNING;
	snprintf(lc->last, sizeof(lc->last), "%s", message);
}

/*
 * A node that cannot be opened is skipped and reported once: on the error
 * stack and to the instance's log handler, at warning priority, with its
 * path and the system error each named once; nothing of it on stderr.
 */
static void
test_skipped_node_logged_once(void **state)
{
	(void)state;
	static const struct utouch_geis_open_interface iface = {
		.open_restricted = refuse_open,
		.close_restricted = test_close,
	};
	char path[128], errpath[160];
	snprintf(path, sizeof(path), "%s/event0", tmpdir);
	snprintf(errpath, sizeof(errpath), "%s/stderr", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);

	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			     UTOUCH_GEIS_INIT_EVDEV_OPEN_INTERFACE, &iface, NULL, NULL);
	assert_non_null(geis);
	struct log_count lc = { 0 };
	utouch_geis_set_log_handler(geis, count_log, &lc);

	/* the backend starts (and scans the directory) in the first dispatch */
	fflush(stderr);
	int saved = dup(2), errfd = open(errpath, O_CREAT | O_TRUNC | O_RDWR, 0600);
	assert_true(saved >= 0 && errfd >= 0);
	dup2(errfd, 2);
	geis_dispatch_events(geis);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);

	assert_int_equal(lc.n, 1);
	assert_int_equal(lc.warnings, 1);
	assert_non_null(strstr(lc.last, path));
	assert_non_null(strstr(lc.last, strerror(EACCES)));
	assert_null(strstr(strstr(lc.last, path) + 1, path));
	assert_null(strstr(strstr(lc.last, strerror(EACCES)) + 1, strerror(EACCES)));
	assert_int_equal(geis_error_count(geis), 1);
	assert_string_equal(geis_error_message(geis, 0), lc.last);
	char buf[512] = "";
	ssize_t n = pread(errfd, buf, sizeof(buf) - 1, 0);
	close(errfd);
	assert_true(n >= 0);
	assert_null(strstr(buf, path));
	geis_delete(geis);
	unlink(path);
	unlink(errpath);
}

/* Write all of the recording @p path into a pipe at once, at monotonic
 * times ending now, and add the pipe to @p geis as a device. */
static void
add_stream_at_once(Geis geis, const char *path)
{
	struct input_event *evs;
	size_t n = gt_input_events(path, &evs);

	assert_int_equal(gt_add_stream(geis, evs, n, path), GEIS_STATUS_SUCCESS);
	free(evs);
}

/*
 * A stream added with input already waiting is read by the application's
 * dispatch, not by utouch_geis_add_input_fd(): a subscription made right
 * after adding it sees those touches, exactly as one made before.
 */
static void
test_subscribe_after_add(void **state)
{
	(void)state;
	const char *path = gt_recording("touchscreen/drag-2.evemu");
	struct gt_log before = { 0 }, after = { 0 };
	struct counts cb = { 0 }, ca = { 0 };

	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			     GEIS_INIT_TRACK_DEVICES, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	assert_non_null(geis);
	subscribe(geis, GEIS_GESTURE_DRAG, 2);
	add_stream_at_once(geis, path);
	pump(geis, &before, &cb, 3000, device_gone);
	pump(geis, &before, &cb, 100, NULL);
	geis_delete(geis);

	geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, tmpdir,
			GEIS_INIT_TRACK_DEVICES, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	assert_non_null(geis);
	add_stream_at_once(geis, path);
	subscribe(geis, GEIS_GESTURE_DRAG, 2);
	pump(geis, &after, &ca, 3000, device_gone);
	pump(geis, &after, &ca, 100, NULL);
	geis_delete(geis);

	assert_int_equal(cb.available, 1);
	assert_int_equal(ca.available, 1);
	assert_int_equal(ca.unavailable, 1);
	assert_true(before.n > 10);
	assert_int_equal(after.n, before.n);
	for (size_t i = 0; i < after.n && i < before.n; i++) {
		assert_int_equal(after.ev[i].type, before.ev[i].type);
		assert_true(fabsf(after.ev[i].pos_x - before.ev[i].pos_x) < 0.001f);
	}
	assert_int_equal(after.ev[0].type, GEIS_EVENT_GESTURE_BEGIN);
	assert_int_equal(after.ev[after.n - 1].type, GEIS_EVENT_GESTURE_END);
	gt_log_free(&before);
	gt_log_free(&after);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subscribe_after_add),
		cmocka_unit_test(test_skipped_node_logged_once),
		cmocka_unit_test(test_pipe_matches_recording),
		cmocka_unit_test(test_pipe_rect_region),
		cmocka_unit_test(test_timeout_without_input),
		cmocka_unit_test(test_timestamp_far_clock),
		cmocka_unit_test(test_delete_with_stream_attached),
		cmocka_unit_test(test_add_input_fd_errors),
		cmocka_unit_test(test_open_interface),
		cmocka_unit_test(test_save_input),
	};
	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
