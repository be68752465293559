/*
 * The touch proxy when the grab fails after the clone was made: the
 * device directory holds two FIFOs that this program's ioctl() presents as
 * evdev touchscreens (fake-evdev.h) and the uinput node is a regular file
 * (fake-uinput.h).  The first device's EVIOCGRAB fails (EBUSY while another
 * process has it open, or ENODEV: it went away between the clone and the
 * grab); the test checks the message, that its clone is destroyed again
 * and its descriptor closed, that nothing leaks, and that the second
 * device is grabbed and proxied as usual.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/uinput.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#include "evdev-check.h"
#include "fake-evdev.h"
#include "geis-test.h"
#include "fake-uinput.h"
#include "input/recording/recording.h"
#include "test-support.h"
#include "util/clock.h"

static char dir[64], node[128], devdir[128];
static struct fe_fifo fifos[2] = { { .wfd = -1 }, { .wfd = -1 } };   /* event0 fails its grab */
static pid_t holder;   /* the process holding event0 open, 0: none */

static int
has_error(Geis geis, const char *text)
{
	for (GeisSize i = 0; i < geis_error_count(geis); i++)
		if (strstr(geis_error_message(geis, i), text))
			return 1;
	return 0;
}

static void
dump_errors(Geis geis)
{
	for (GeisSize i = 0; i < geis_error_count(geis); i++)
		fprintf(stderr, "geis error: %s\n", geis_error_message(geis, i));
}

/* an instance proxying the devices of devdir to the fake node */
static Geis
open_proxy(void)
{
	return geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, devdir,
			UTOUCH_GEIS_INIT_PROXY, UTOUCH_GEIS_INIT_PROXY_UINPUT, node,
			GEIS_INIT_SYNCHRONOUS_START, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
}

static void
run(int grab_errno)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	assert_int_equal(fu_reset(), 0);
	fe_reset();
	fe_fifo_open(fifos, 2, devdir, rec->dev);
	struct fe_device *bad = fifos[0].dev, *good = fifos[1].dev;
	bad->fail_grab = grab_errno;
	holder = grab_errno == EBUSY ? fe_hold_open(fifos[0].path) : 0;
	int fds_before = fe_open_fds(NULL);

	Geis geis = open_proxy();
	assert_non_null(geis);
	/* (the devices were opened in geis_new(): its stack has their errors
	 * until the next call clears it) */

	/* both devices were cloned, the first one's grab failed once */
	assert_int_equal(fu_count(UI_DEV_CREATE), 2);
	assert_int_equal(bad->grab_calls, 1);
	assert_int_equal(bad->grab, 0);
	assert_int_equal(good->grab, 1);
	/* the message names the device and, for EBUSY, who has it open */
	char want[600];
	if (grab_errno == EBUSY) {
		snprintf(want, sizeof(want), "%s: cannot grab: another program holds the device "
			 "(it is open in ", fifos[0].path);
		int found = has_error(geis, want);
		snprintf(want, sizeof(want), " (pid %d)), stop it to let utouch have the device or "
			 "leave the device to it: Device or resource busy", (int)holder);
		found = found && has_error(geis, want);
		if (!found)
			dump_errors(geis);
		assert_true(found);
	} else {
		snprintf(want, sizeof(want), "%s: cannot grab: No such device", fifos[0].path);
		if (!has_error(geis, want))
			dump_errors(geis);
		assert_true(has_error(geis, want));
	}
	assert_false(has_error(geis, fifos[1].path));
	/* its clone was destroyed again: one UI_DEV_DESTROY, after the first
	 * creation, and one clone descriptor left (the second device's) */
	int c1 = fu_find(UI_DEV_CREATE, -1, 0);
	assert_int_equal(fu_count(UI_DEV_DESTROY), 1);
	assert_true(fu_find(UI_DEV_DESTROY, -1, c1) > c1);
	assert_int_equal(fe_open_fds(node), 1);

	/* the other device goes on through its clone: a drag no one
	 * subscribed to reaches it whole */
	size_t nbefore = 0;
	free(fu_written(&nbefore));
	for (size_t i = 0; i < rec->nevents; i++) {
		struct input_event ev = ut_test_recorded_event(rec, i);
		ut_test_write_events(fifos[1].wfd, &ev, 1);
	}
	gt_pump(geis, 200);
	size_t nafter = 0;
	free(fu_written(&nafter));
	assert_true(nafter > nbefore + 10);

	/* everything goes with the instance: both clones' descriptors and
	 * the devices' */
	geis_delete(geis);
	assert_int_equal(fu_count(UI_DEV_DESTROY), 2);
	assert_int_equal(fe_open_fds(node), 0);
	assert_int_equal(fe_open_fds(NULL), fds_before);
	fe_fifo_close(fifos, 2);
	ut_recording_free(rec);
}

static struct ec_touches got;

/*
 * A real node (libevdev) loses events (SYN_DROPPED) and is then unplugged
 * (its reads fail with ENODEV), with touches on the clone (@p held 0: no
 * subscription) or held for a 2-finger drag nobody decides (@p held 1).
 * The kernel's state after the drop: the first touch lifted, the second
 * moved, a third landed.  The clone's stream stays valid, and it gets
 * each of the three touches once, from where it landed to its end, the
 * second through the position of the resync to its last one, and is
 * destroyed after its touches ended.
 */
static void
run_resync_unplug(int held)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");

	assert_int_equal(fu_reset(), 0);
	fe_reset();
	fe_fifo_open(fifos, 1, devdir, rec->dev);
	struct fe_device *dev = fifos[0].dev;
	int w = fifos[0].wfd;
	Geis geis = open_proxy();
	GeisSubscription sub = NULL;

	assert_non_null(geis);
	assert_int_equal(dev->grab, 1);
	if (held) {
		sub = gt_subscription(geis, GEIS_SUBSCRIPTION_NONE, GEIS_GESTURE_DRAG, 2);
		assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_SUCCESS);
		gt_pump(geis, 5);
	}
	uint64_t t = ut_mono_us();

	ut_test_write_touch(w, t, 0, 200, 1000, 1000);
	ut_test_write_touch(w, t, 1, 201, 2000, 1000);
	ut_test_write_event(w, t, EV_SYN, SYN_REPORT, 0);
	ut_test_write_touch(w, t + 10000, 1, 0, 2100, 1000);
	ut_test_write_event(w, t + 10000, EV_SYN, SYN_REPORT, 0);
	gt_pump(geis, 30);
	size_t before;

	free(fu_written(&before));
	/* forwarded at once, or held by the undecided drag */
	assert_true(held ? before == 0 : before > 0);
	/* the kernel's state after events were lost */
	dev->cur_slot = 1;
	dev->tracking[0] = -1;
	dev->tracking[1] = 201;
	dev->x[1] = 2500;
	dev->y[1] = 1000;
	dev->tracking[2] = 202;
	dev->x[2] = 3000;
	dev->y[2] = 2000;
	ut_test_write_event(w, t + 20000, EV_SYN, SYN_DROPPED, 0);
	ut_test_write_event(w, t + 20000, EV_ABS, ABS_MT_POSITION_Y, 5);
	ut_test_write_event(w, t + 20000, EV_SYN, SYN_REPORT, 0);
	gt_pump(geis, 20);
	/* on from the synced state (slot 1 current) */
	ut_test_write_event(w, t + 30000, EV_ABS, ABS_MT_POSITION_X, 2600);
	ut_test_write_event(w, t + 30000, EV_SYN, SYN_REPORT, 0);
	gt_pump(geis, 20);
	dev->unplugged = 1;
	ut_test_write_event(w, t + 40000, EV_SYN, SYN_REPORT, 0);   /* wakes it up */
	gt_pump(geis, 30);
	assert_int_equal(fu_count(UI_DEV_DESTROY), 1);
	assert_false(has_error(geis, "read failed"));

	size_t n;
	struct input_event *ev = fu_written(&n);

	assert_non_null(ev);
	ec_read(rec->dev, ev, n, &got, 1);   /* valid, every touch ended */
	assert_int_equal(got.n, 3);
	static const int first[3][2] = { { 1000, 1000 }, { 2000, 1000 }, { 3000, 2000 } };
	static const int last[3][2] = { { 1000, 1000 }, { 2600, 1000 }, { 3000, 2000 } };

	for (int i = 0; i < 3; i++) {
		int np = got.npos[i];

		assert_true(got.ended[i]);
		assert_int_equal(got.x[i][0], first[i][0]);
		assert_int_equal(got.y[i][0], first[i][1]);
		assert_int_equal(got.x[i][np - 1], last[i][0]);
		assert_int_equal(got.y[i][np - 1], last[i][1]);
	}
	assert_int_equal(got.npos[1], 4);   /* 2000, 2100, 2500 (resync), 2600 */
	assert_int_equal(got.x[1][2], 2500);
	free(ev);
	if (sub)
		geis_subscription_delete(sub);
	geis_delete(geis);
	assert_int_equal(fe_open_fds(node), 0);
	fe_fifo_close(fifos, 1);
	ut_recording_free(rec);
}

static void
test_resync_unplug_forwarded(void **state)
{
	(void)state;
	run_resync_unplug(0);
}

static void
test_resync_unplug_held(void **state)
{
	(void)state;
	run_resync_unplug(1);
}

/*
 * The device is opened with a finger down (the daemon starts, or the
 * device appears, while someone touches it).  The desktop saw that finger
 * land; a grab now would keep its lift from the desktop (a touch stuck
 * down there) and the clone would carry it a second time.  So the device
 * is grabbed only once the finger lifted, nothing of that finger reaches
 * the clone, and the next touch goes through the clone as usual.
 */
static void
test_finger_down_at_open(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");

	(void)state;
	assert_int_equal(fu_reset(), 0);
	fe_reset();
	fe_fifo_open(fifos, 1, devdir, rec->dev);
	struct fe_device *dev = fifos[0].dev;
	int w = fifos[0].wfd;

	dev->tracking[0] = 300;
	dev->x[0] = 1000;
	dev->y[0] = 1000;
	Geis geis = open_proxy();

	assert_non_null(geis);
	assert_int_equal(fu_count(UI_DEV_CREATE), 1);
	gt_pump(geis, 10);
	assert_int_equal(dev->grab_calls, 0);
	uint64_t t = ut_mono_us();

	ut_test_write_touch(w, t, 0, 0, 1100, 1000);
	ut_test_write_event(w, t, EV_SYN, SYN_REPORT, 0);
	gt_pump(geis, 20);
	assert_int_equal(dev->grab, 0);   /* still down: the desktop's */
	ut_test_write_event(w, t + 10000, EV_ABS, ABS_MT_TRACKING_ID, -1);
	ut_test_write_event(w, t + 10000, EV_SYN, SYN_REPORT, 0);
	gt_pump(geis, 20);
	assert_int_equal(dev->grab, 1);   /* lifted: grabbed */
	assert_int_equal(dev->grab_calls, 1);

	size_t n;

	free(fu_written(&n));
	assert_int_equal(n, 0);           /* nothing of that finger on the clone */
	ut_test_write_touch(w, t + 20000, 0, 301, 2000, 1000);
	ut_test_write_event(w, t + 20000, EV_SYN, SYN_REPORT, 0);
	ut_test_write_touch(w, t + 30000, 0, 0, 2100, 1000);
	ut_test_write_event(w, t + 30000, EV_SYN, SYN_REPORT, 0);
	ut_test_write_event(w, t + 40000, EV_ABS, ABS_MT_TRACKING_ID, -1);
	ut_test_write_event(w, t + 40000, EV_SYN, SYN_REPORT, 0);
	gt_pump(geis, 30);

	struct input_event *ev = fu_written(&n);

	assert_non_null(ev);
	ec_read(rec->dev, ev, n, &got, 1);
	assert_int_equal(got.n, 1);       /* the next touch, whole */
	assert_true(got.ended[0]);
	assert_int_equal(got.npos[0], 2);
	assert_int_equal(got.x[0][0], 2000);
	assert_int_equal(got.x[0][1], 2100);
	free(ev);
	geis_delete(geis);
	fe_fifo_close(fifos, 1);
	ut_recording_free(rec);
}

/* also after a failed check: no process or FIFO left behind */
static int
teardown(void **state)
{
	(void)state;
	fe_hold_stop(&holder);
	fe_fifo_close(fifos, 2);
	return 0;
}

/* someone else holds the device */
static void
test_grab_busy(void **state)
{
	(void)state;
	run(EBUSY);
}

/* the device went away between its clone and its grab */
static void
test_grab_gone(void **state)
{
	(void)state;
	run(ENODEV);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_grab_busy, teardown),
		cmocka_unit_test_teardown(test_grab_gone, teardown),
		cmocka_unit_test_teardown(test_resync_unplug_forwarded, teardown),
		cmocka_unit_test_teardown(test_resync_unplug_held, teardown),
		cmocka_unit_test_teardown(test_finger_down_at_open, teardown),
	};
	snprintf(dir, sizeof(dir), "/tmp/proxy-grab-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(node, sizeof(node), "%s/uinput", dir);
	snprintf(devdir, sizeof(devdir), "%s/dev", dir);
	mkdir(devdir, 0700);
	fu_set_node(node);
	fu_set_chain(fe_try_ioctl);
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	unlink(node);
	rmdir(devdir);
	rmdir(dir);
	return rc;
}
