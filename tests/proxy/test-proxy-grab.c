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

#include "fake-evdev.h"
#include "fake-uinput.h"
#include "input/recording/recording.h"
#include "test-support.h"

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

	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, devdir,
			     UTOUCH_GEIS_INIT_PROXY, UTOUCH_GEIS_INIT_PROXY_UINPUT, node,
			     GEIS_INIT_SYNCHRONOUS_START, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
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
	int fd = -1;
	assert_int_equal(geis_get_configuration(geis, GEIS_CONFIGURATION_FD, &fd),
			 GEIS_STATUS_SUCCESS);
	for (int i = 0; i < 200; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 1) > 0)
			geis_dispatch_events(geis);
	}
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
