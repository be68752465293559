/*
 * The libevdev path of the live evdev module, without a kernel device.
 *
 * This test program defines its own ioctl(): for descriptors registered
 * here (read ends of pipes) it answers the evdev ioctls libevdev issues
 * (EVIOCGBIT, EVIOCGABS, EVIOCGMTSLOTS, EVIOCGNAME, EVIOCGRAB,
 * EVIOCSCLOCKID, ...) from a recording's capabilities and a slot state the
 * test controls; every other descriptor goes to the real ioctl().  libevdev
 * therefore accepts the pipe as an evdev node, reads events from it with
 * read(), and on SYN_DROPPED asks the "device" for its current state, so
 * the module's real-device code is exercised: clock selection, grabbing,
 * touches already down when the node is opened, resynchronisation after a
 * drop and removal on hang-up.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libevdev/libevdev.h>

#include <oif/frame.h>

#include "geis/evdev-live.h"
#include "input/recording/recording.h"
#include "fake-evdev.h"
#include "live-frames.h"
#include "test-support.h"


/* ------------------------------------------------------------------ */
/* The fake evdev node (tests/support/fake-evdev.h), reached through    */
/* this program's ioctl() and read()                                    */

/* Interposes the C library's ioctl() for everything in this program,
 * libevdev included. */
__attribute__((visibility("default")))
int
ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;
	int rc;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fe_try_ioctl(fd, req, arg, &rc))
		return rc;
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}

/* (read() is fake-evdev's: an unplugged node's reads fail with ENODEV) */

/* ------------------------------------------------------------------ */
/* Opening through the fake                                            */

struct opener {
	struct fe_device *dev;    /* what "event0" opens */
	int opened, closed;
};

static int
op_open(const char *path, int flags, void *data)
{
	struct opener *o = data;

	if (!strstr(path, "/event0"))
		return -ENOENT;
	o->opened++;
	return o->dev->fd;
}

static void
op_close(int fd, void *data)
{
	struct opener *o = data;

	assert_int_equal(fd, o->dev->fd);
	o->closed++;
	o->dev->fd = -1;
	close(fd);
}

static const struct utouch_geis_open_interface op_iface = {
	.open_restricted = op_open,
	.close_restricted = op_close,
};

/* ------------------------------------------------------------------ */
/* Collected frames                                                    */

struct tr {
	uint32_t id;
	int state;
	float wx, wy;
};

struct fr {
	int type;
	uint64_t time;
	unsigned int n;
	struct tr t[8];
};

struct sink {
	struct fr ev[64];
	size_t n;
	int added, removed, nlog;
	int last_err;
	struct ut_evdev_live_device *dev;
	struct live_frames frames;    /* builds the frames of the operations */
};

static void
on_frame(void *data, UFEvent ev)
{
	struct sink *s = data;
	struct fr *f;

	assert_true(s->n < 64);
	f = &s->ev[s->n++];
	memset(f, 0, sizeof(*f));
	f->type = (int)frame_event_get_type(ev);
	f->time = frame_event_get_time(ev);
	if (f->type == UFEventTypeFrame) {
		UFFrame frame = NULL;

		assert_int_equal(frame_event_get_property(ev, UFEventPropertyFrame, &frame),
				 UFStatusSuccess);
		f->n = frame_frame_get_num_touches(frame);
		assert_true(f->n <= 8);
		for (unsigned int i = 0; i < f->n; i++) {
			UFTouch t = NULL;

			assert_int_equal(frame_frame_get_touch_by_index(frame, i, &t),
					 UFStatusSuccess);
			f->t[i].id = (uint32_t)frame_touch_get_id(t);
			f->t[i].state = (int)frame_touch_get_state(t);
			f->t[i].wx = frame_touch_get_window_x(t);
			f->t[i].wy = frame_touch_get_window_y(t);
		}
	}
}

static void
on_added(void *data, struct ut_evdev_live_device *dev, UFDevice device)
{
	struct sink *s = data;

	s->added++;
	s->dev = dev;
}

static void
on_removed(void *data, struct ut_evdev_live_device *dev, UFDevice device)
{
	struct sink *s = data;

	s->removed++;
	live_frames_forget(&s->frames, dev);
}

static void
on_ops(void *data, struct ut_evdev_live_device *dev, uint64_t time_ms,
       const struct ut_touch_op *ops, size_t nops)
{
	struct sink *s = data;

	live_frames_build(&s->frames, dev, time_ms, ops, nops, on_frame, s);
}

static void
on_log(void *data, const char *path, int err, const char *msg)
{
	struct sink *s = data;

	s->nlog++;
	s->last_err = err;
}

static const struct ut_evdev_live_callbacks cbs = {
	.device_added = on_added,
	.device_removed = on_removed,
	.frame_event = on_frame,
	.frame_ops = on_ops,
	.log = on_log,
};

/* the touch @p id in frame @p f, or NULL */
static const struct tr *
touch(const struct fr *f, uint32_t id)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (f->t[i].id == id)
			return &f->t[i];
	return NULL;
}

static void
settle(struct ut_evdev_live *l)
{
	for (int i = 0; i < 100; i++) {
		struct pollfd p = { .fd = ut_evdev_live_get_fd(l), .events = POLLIN };

		if (poll(&p, 1, 0) == 0)
			return;
		assert_int_equal(ut_evdev_live_dispatch(l), 0);
	}
	fail_msg("never settled");
}

struct env {
	struct ut_recording *rec;
	char dir[256];
	char node[300];
	int wfd;
	struct opener op;
};

static void
env_setup(struct env *e, int fail_grab)
{
	int p[2];
	int fd;

	memset(e, 0, sizeof(*e));
	e->rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	snprintf(e->dir, sizeof(e->dir), "/tmp/ut-evdev-live-lib-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->node, sizeof(e->node), "%s/event0", e->dir);
	fd = open(e->node, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pipe(p), 0);
	fe_reset();
	e->op.dev = fe_add(p[0], NULL, e->rec->dev);
	e->op.dev->fail_grab = fail_grab;
	e->wfd = p[1];
}

static void
env_teardown(struct env *e)
{
	assert_int_equal(e->op.opened, e->op.closed);
	if (e->wfd >= 0)
		close(e->wfd);
	unlink(e->node);
	rmdir(e->dir);
	ut_recording_free(e->rec);
}

static struct ut_evdev_live *
live_new(struct env *e, struct sink *s)
{
	struct ut_evdev_live_config cfg = {
		.dir = e->dir,
		.iface = &op_iface,
		.iface_data = &e->op,
		.grab = 1,
	};
	struct ut_evdev_live *l = ut_evdev_live_new(&cfg, &cbs, s);

	assert_non_null(l);
	return l;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void
test_open_clock_grab_initial_touch(void **state)
{
	struct env e;
	struct sink s = { 0 };
	struct ut_evdev_live *l;
	uint64_t t0 = ut_evdev_live_now_ms();
	uint64_t now_us;

	env_setup(&e, 0);
	/* a finger is down in slot 0 when the node is opened */
	fe_devices[0].tracking[0] = 100;
	fe_devices[0].x[0] = 1050;
	fe_devices[0].y[0] = 700;
	l = live_new(&e, &s);
	assert_int_equal(s.added, 1);
	assert_int_equal(ut_evdev_live_device_is_evdev(s.dev), 1);
	assert_int_equal(ut_evdev_live_device_get_protocol(s.dev), 'B');
	assert_string_equal(ut_evdev_live_device_get_name(s.dev), "utouch-synth touchscreen");
	assert_int_equal(fe_devices[0].clock_calls, 1);
	assert_int_equal(fe_devices[0].clock, CLOCK_MONOTONIC);
	assert_int_equal(fe_devices[0].grab_calls, 1);
	assert_int_equal(fe_devices[0].grab, 1);
	assert_int_equal(s.nlog, 0);

	/* DeviceAdded, then the touch that was already down */
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ev[0].type, UFEventTypeDeviceAdded);
	assert_int_equal(s.ev[1].type, UFEventTypeFrame);
	assert_int_equal(s.ev[1].n, 1);
	assert_int_equal(s.ev[1].t[0].id, 1);
	assert_int_equal(s.ev[1].t[0].state, UFTouchStateBegin);
	assert_true(s.ev[1].t[0].wx == 256.f);
	assert_true(s.ev[1].t[0].wy == 192.f);
	assert_true(s.ev[1].time >= t0 && s.ev[1].time <= ut_evdev_live_now_ms());

	/* the kernel's current slot is 0 and the stream starts there: an
	 * update without ABS_MT_SLOT moves touch 1 */
	now_us = ut_evdev_live_now_ms() * 1000u;
	ut_test_write_event(e.wfd, now_us, EV_ABS, ABS_MT_POSITION_X, 2100);
	ut_test_write_event(e.wfd, now_us, EV_SYN, SYN_REPORT, 0);
	settle(l);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.ev[2].time, now_us / 1000);
	assert_int_equal(s.ev[2].t[0].state, UFTouchStateUpdate);
	assert_true(s.ev[2].t[0].wx == 512.f);

	ut_evdev_live_destroy(l);
	assert_int_equal(s.removed, 1);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.ev[3].t[0].state, UFTouchStateEnd);
	assert_int_equal(s.ev[4].type, UFEventTypeDeviceRemoved);
	/* the grab was released before closing */
	assert_int_equal(fe_devices[0].grab_calls, 2);
	assert_int_equal(fe_devices[0].grab, 0);
	env_teardown(&e);
	(void)state;
}

/* SYN_DROPPED: libevdev drains the broken events, asks the device for its
 * state and hands out the difference; a touch that lifted during the drop
 * ends, one that moved is updated, a new one begins. */
static void
test_syn_dropped_resync(void **state)
{
	struct env e;
	struct sink s = { 0 };
	struct ut_evdev_live *l;
	const struct fr *last;
	size_t before;
	int ended1 = 0;

	env_setup(&e, 0);
	l = live_new(&e, &s);
	assert_int_equal(s.n, 1);
	ut_test_write_event(e.wfd, 5000000, EV_ABS, ABS_MT_TRACKING_ID, 200);
	ut_test_write_event(e.wfd, 5000000, EV_ABS, ABS_MT_POSITION_X, 0);
	ut_test_write_event(e.wfd, 5000000, EV_ABS, ABS_MT_POSITION_Y, 0);
	ut_test_write_event(e.wfd, 5000000, EV_ABS, ABS_MT_SLOT, 1);
	ut_test_write_event(e.wfd, 5000000, EV_ABS, ABS_MT_TRACKING_ID, 201);
	ut_test_write_event(e.wfd, 5000000, EV_ABS, ABS_MT_POSITION_X, 2100);
	ut_test_write_event(e.wfd, 5000000, EV_ABS, ABS_MT_POSITION_Y, 1400);
	ut_test_write_event(e.wfd, 5000000, EV_SYN, SYN_REPORT, 0);
	settle(l);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ev[1].n, 2);
	assert_int_equal(s.ev[1].time, 5000);

	/* the kernel state after events were lost */
	fe_devices[0].cur_slot = 1;
	fe_devices[0].tracking[0] = -1;          /* touch 1 lifted */
	fe_devices[0].tracking[1] = 201;
	fe_devices[0].x[1] = 3150;               /* touch 2 moved */
	fe_devices[0].y[1] = 1400;
	fe_devices[0].tracking[2] = 202;         /* a new touch */
	fe_devices[0].x[2] = 4200;
	fe_devices[0].y[2] = 2800;
	ut_test_write_event(e.wfd, 5010000, EV_SYN, SYN_DROPPED, 0);
	/* what is left of the broken report is discarded by libevdev */
	ut_test_write_event(e.wfd, 5010000, EV_ABS, ABS_MT_POSITION_Y, 5);
	ut_test_write_event(e.wfd, 5010000, EV_SYN, SYN_REPORT, 0);
	before = s.n;
	settle(l);
	assert_true(fe_devices[0].mtslots_calls > 0);
	assert_true(s.n > before);
	for (size_t i = before; i < s.n; i++) {
		const struct tr *t = touch(&s.ev[i], 1);

		assert_int_equal(s.ev[i].type, UFEventTypeFrame);
		if (t && t->state == UFTouchStateEnd)
			ended1++;
	}
	assert_int_equal(ended1, 1);
	last = &s.ev[s.n - 1];
	assert_non_null(touch(last, 2));
	assert_true(touch(last, 2)->wx == 768.f);
	assert_true(touch(last, 2)->wy == 384.f);
	assert_non_null(touch(last, 3));
	assert_int_equal(touch(last, 3)->state, UFTouchStateBegin);
	assert_true(touch(last, 3)->wx == 1024.f);
	assert_true(touch(last, 3)->wy == 768.f);
	assert_null(touch(last, 1));

	/* normal events go on from the synced state (current slot 1) */
	ut_test_write_event(e.wfd, 5020000, EV_ABS, ABS_MT_POSITION_X, 4200);
	ut_test_write_event(e.wfd, 5020000, EV_SYN, SYN_REPORT, 0);
	settle(l);
	last = &s.ev[s.n - 1];
	assert_int_equal(last->time, 5020);
	assert_true(touch(last, 2)->wx == 1024.f);
	assert_int_equal(touch(last, 2)->state, UFTouchStateUpdate);

	/* the writer goes away: a hang-up removes the node, touches end */
	close(e.wfd);
	e.wfd = -1;
	settle(l);
	assert_int_equal(s.removed, 1);
	assert_int_equal(e.op.closed, 1);
	assert_int_equal(ut_evdev_live_num_devices(l), 0);
	last = &s.ev[s.n - 2];
	assert_int_equal(last->n, 2);
	assert_int_equal(touch(last, 2)->state, UFTouchStateEnd);
	assert_int_equal(touch(last, 3)->state, UFTouchStateEnd);
	assert_int_equal(s.ev[s.n - 1].type, UFEventTypeDeviceRemoved);
	ut_evdev_live_destroy(l);
	assert_int_equal(s.removed, 1);
	env_teardown(&e);
	(void)state;
}

/* A node unplugged with a finger down: the read fails with ENODEV, the
 * touch ends, the device goes, nothing is logged. */
static void
test_unplug_enodev(void **state)
{
	struct env e;
	struct sink s = { 0 };
	struct ut_evdev_live *l;
	uint64_t t0;

	env_setup(&e, 0);
	l = live_new(&e, &s);
	ut_test_write_event(e.wfd, 7000000, EV_ABS, ABS_MT_TRACKING_ID, 300);
	ut_test_write_event(e.wfd, 7000000, EV_ABS, ABS_MT_POSITION_X, 4200);
	ut_test_write_event(e.wfd, 7000000, EV_ABS, ABS_MT_POSITION_Y, 0);
	ut_test_write_event(e.wfd, 7000000, EV_SYN, SYN_REPORT, 0);
	settle(l);
	assert_int_equal(s.n, 2);
	fe_devices[0].unplugged = 1;
	/* something to wake the context up */
	ut_test_write_event(e.wfd, 7010000, EV_SYN, SYN_REPORT, 0);
	t0 = ut_evdev_live_now_ms();
	settle(l);
	assert_int_equal(s.removed, 1);
	assert_int_equal(s.nlog, 0);
	assert_int_equal(e.op.closed, 1);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.ev[2].n, 1);
	assert_int_equal(s.ev[2].t[0].id, 1);
	assert_int_equal(s.ev[2].t[0].state, UFTouchStateEnd);
	assert_true(s.ev[2].t[0].wx == 1024.f);
	/* a real node's removal is timed by the monotonic clock */
	assert_true(s.ev[2].time >= t0);
	assert_true(s.ev[2].time <= ut_evdev_live_now_ms());
	assert_int_equal(s.ev[3].type, UFEventTypeDeviceRemoved);
	ut_evdev_live_destroy(l);
	env_teardown(&e);
	(void)state;
}

/* A grab that fails is recorded; the device is used anyway. */
static void
test_grab_failure(void **state)
{
	struct env e;
	struct sink s = { 0 };
	struct ut_evdev_live *l;

	env_setup(&e, EBUSY);
	l = live_new(&e, &s);
	assert_int_equal(s.added, 1);
	assert_int_equal(s.nlog, 1);
	assert_int_equal(s.last_err, EBUSY);
	assert_non_null(strstr(ut_evdev_live_last_error(l), "grab"));
	assert_non_null(strstr(ut_evdev_live_last_error(l), "another program holds the device"));
	ut_evdev_live_destroy(l);
	assert_int_equal(s.removed, 1);
	env_teardown(&e);
	(void)state;
}

/* Whether libevdev's ioctl() calls reach the fake (they do when the
 * program's ioctl() is exported and preempts the C library's). */
static int
interposed(void)
{
	char err[256];
	struct ut_recording *rec = NULL;
	struct libevdev *dev = NULL;
	int p[2], ok;

	if (ut_recording_load(ut_test_recording_path("touchscreen/drag-2.evemu"), NULL, &rec,
			      err, sizeof(err)) != 0 || pipe(p) != 0)
		return 0;
	fe_reset();
	fe_add(p[0], NULL, rec->dev);
	ok = libevdev_new_from_fd(p[0], &dev) == 0 &&
	     libevdev_has_event_code(dev, EV_ABS, ABS_MT_POSITION_X) &&
	     libevdev_get_num_slots(dev) == FE_SLOTS;
	libevdev_free(dev);
	fe_reset();
	close(p[0]);
	close(p[1]);
	ut_recording_free(rec);
	return ok;
}

int
main(void)
{
	if (!interposed()) {
		fprintf(stderr, "ioctl() cannot be interposed here; skipping\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_clock_grab_initial_touch),
		cmocka_unit_test(test_syn_dropped_resync),
		cmocka_unit_test(test_unplug_enodev),
		cmocka_unit_test(test_grab_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
