/*
 * The touch proxy's uinput path (UTOUCH_GEIS_INIT_PROXY), without
 * /dev/uinput: the "uinput node" is a regular file, and this program's
 * own ioctl() answers the uinput ioctls on it and records them, so the
 * test sees the ioctl sequence that creates the clone and, in the file,
 * exactly the events written to it.  The device is an input stream (a
 * pipe) with the capabilities of a bundled recording.
 */
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
#include <libevdev/libevdev.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#include "evdev-check.h"
#include "fake-uinput.h"
#include "geis-test.h"
#include "input/recording/recording.h"
#include "geis/evdev-live.h"
#include "test-support.h"
#include "util/clock.h"

static char dir[64], node[128], devdir[128];

/* ---- driving the instance ---- */

static Geis
open_proxy(void)
{
	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, devdir,
			     UTOUCH_GEIS_INIT_PROXY, UTOUCH_GEIS_INIT_PROXY_UINPUT, node,
			     GEIS_INIT_SYNCHRONOUS_START, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);

	assert_non_null(geis);
	return geis;
}

/* A pipe as a device with the bundled touchscreen's description: the
 * instance reads p[0], the test writes p[1]. */
static void
add_device(Geis geis, int p[2])
{
	assert_int_equal(pipe(p), 0);
	assert_int_equal(utouch_geis_add_input_fd(geis, p[0], ut_test_recording_path(
							   "touchscreen/drag-2.evemu")),
			 GEIS_STATUS_SUCCESS);
}

/* What the recording's device sends, written to the pipe at once with
 * times of now (so grail's timeouts make sense). */
static void
feed(int wfd, const struct ut_recording *rec)
{
	uint64_t t0 = ut_mono_us(), r0 = rec->nevents ? rec->events[0].usec : 0;

	for (size_t i = 0; i < rec->nevents; i++) {
		struct input_event ev = ut_test_recorded_event(rec, i);
		uint64_t us = t0 + (rec->events[i].usec - r0);

		ev.input_event_sec = (time_t)(us / 1000000u);
		ev.input_event_usec = (suseconds_t)(us % 1000000u);
		ut_test_write_events(wfd, &ev, 1);
	}
}

static struct ec_touches orig, got;

/* The original events as a stream, for the checker. */
static void
read_original(const struct ut_recording *rec)
{
	struct input_event *ev = calloc(rec->nevents, sizeof(*ev));

	assert_non_null(ev);
	for (size_t i = 0; i < rec->nevents; i++)
		ev[i] = ut_test_recorded_event(rec, i);
	ec_read(rec->dev, ev, rec->nevents, &orig, 0);
	free(ev);
}

/* The clone is created through uinput like the device, then carries
 * every touch at once when nobody subscribed; it is destroyed with the
 * device. */
static void
test_create_forward_destroy(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	int p[2];

	(void)state;
	assert_int_equal(fu_reset(), 0);
	Geis geis = open_proxy();

	add_device(geis, p);
	/* the ioctl sequence: every property, type, code and axis, then the
	 * setup, then the creation */
	int create = fu_find(UI_DEV_CREATE, -1, 0), setup = fu_find(UI_DEV_SETUP, -1, 0);

	assert_true(create > 0 && setup >= 0 && setup < create);
	assert_true(fu_find(UI_SET_PROPBIT, INPUT_PROP_DIRECT, 0) >= 0);
	assert_true(fu_find(UI_SET_EVBIT, EV_ABS, 0) >= 0);
	assert_true(fu_find(UI_SET_EVBIT, EV_KEY, 0) >= 0);
	assert_true(fu_find(UI_SET_KEYBIT, BTN_TOUCH, 0) >= 0);
	for (unsigned int code = 0; code <= ABS_MAX; code++) {
		if (!libevdev_has_event_code(rec->dev, EV_ABS, code))
			continue;
		int bit = fu_find(UI_SET_ABSBIT, (int)code, 0);
		int abs = fu_find(UI_ABS_SETUP, (int)code, 0);

		assert_true(bit >= 0 && abs > bit && abs < setup);
		const struct input_absinfo *a = libevdev_get_abs_info(rec->dev, code);

		assert_int_equal(fu_calls[abs].abs.minimum, a->minimum);
		assert_int_equal(fu_calls[abs].abs.maximum, a->maximum);
		assert_int_equal(fu_calls[abs].abs.resolution, a->resolution);
	}
	char want[UINPUT_MAX_NAME_SIZE];

	snprintf(want, sizeof(want), "%s (utouch proxy)", libevdev_get_name(rec->dev));
	assert_string_equal(fu_calls[setup].name, want);
	assert_int_equal(fu_calls[setup].id.vendor, libevdev_get_id_vendor(rec->dev));
	assert_int_equal(fu_calls[setup].id.product, libevdev_get_id_product(rec->dev));
	assert_int_equal(fu_calls[setup].id.bustype, libevdev_get_id_bustype(rec->dev));
	assert_int_equal(fu_find(UI_DEV_DESTROY, -1, 0), -1);
	/* the clone's descriptor does not survive exec: an action the
	 * daemon starts cannot keep the clone (or a grab) alive after the
	 * daemon died */
	int cloned = 0;

	for (int fd = 0; fd < 1024; fd++) {
		if (!fu_is_node(fd))
			continue;
		cloned++;
		assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	}
	assert_int_equal(cloned, 1);

	feed(p[1], rec);
	gt_pump(geis, 50);
	close(p[1]);   /* unplugged */
	gt_pump(geis, 20);
	assert_true(fu_find(UI_DEV_DESTROY, -1, create) > create);

	size_t n;
	struct input_event *ev = fu_written(&n);

	assert_non_null(ev);

	read_original(rec);
	ec_read(rec->dev, ev, n, &got, 1);
	ec_assert_whole(&orig, &got, 1);
	free(ev);
	geis_delete(geis);
	ut_recording_free(rec);
}

struct decide {
	Geis geis;
	int accept;
	int decided;
};

static void
on_event(Geis geis, GeisEvent ev, void *data)
{
	struct decide *d = data;
	GeisEventType type = geis_event_type(ev);

	if (d->accept >= 0 &&
	    (type == GEIS_EVENT_GESTURE_BEGIN || type == GEIS_EVENT_GESTURE_UPDATE)) {
		GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
		GeisGroupSet gs = geis_attr_value_to_pointer(a);

		for (GeisSize i = 0; i < geis_groupset_group_count(gs); i++) {
			GeisGroup g = geis_groupset_group(gs, i);

			for (GeisSize j = 0; j < geis_group_frame_count(g); j++) {
				GeisGestureId id = geis_frame_id(geis_group_frame(g, j));

				if (d->accept)
					geis_gesture_accept(geis, NULL, id);
				else
					geis_gesture_reject(geis, NULL, id);
				d->decided++;
			}
		}
	}
	geis_event_delete(ev);
}

/* A subscription's gesture, accepted (1) or rejected (0) by the client,
 * or never decided (-1) and cut off by the device going away halfway. */
static void
run_decided(int accept)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct decide d = { .accept = accept };
	int p[2];

	assert_int_equal(fu_reset(), 0);
	d.geis = open_proxy();
	geis_register_event_callback(d.geis, on_event, &d);
	GeisSubscription sub = geis_subscription_new(d.geis, "drag", GEIS_SUBSCRIPTION_NONE);
	GeisFilter f = geis_filter_new(d.geis, "drag");

	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
					      GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG,
					      GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2,
					      NULL),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_add_filter(sub, f), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_SUCCESS);
	add_device(d.geis, p);
	gt_pump(d.geis, 5);
	if (accept < 0) {
		/* the first half of the drag, then the device is unplugged */
		struct ut_recording half = *rec;

		half.nevents = rec->nevents / 2;
		while (half.nevents > 0 && rec->events[half.nevents - 1].type != EV_SYN)
			half.nevents--;
		feed(p[1], &half);
	} else {
		feed(p[1], rec);
	}
	gt_pump(d.geis, 100);
	close(p[1]);
	gt_pump(d.geis, 20);
	assert_true(accept < 0 ? d.decided == 0 : d.decided > 0);

	size_t n;
	struct input_event *ev = fu_written(&n);

	assert_non_null(ev);

	ec_read(rec->dev, ev, n, &got, 1);
	if (accept > 0) {
		/* consumed: nothing of its touches on the clone */
		assert_int_equal(n, 0);
	} else if (accept < 0) {
		/* held until the device went: both touches replayed from
		 * where they began, and ended */
		read_original(rec);
		assert_int_equal(got.n, 2);
		for (int i = 0; i < 2; i++) {
			assert_true(got.ended[i]);
			assert_int_equal(got.x[i][0], orig.x[i][0]);
			assert_int_equal(got.y[i][0], orig.y[i][0]);
		}
		assert_true(fu_find(UI_DEV_DESTROY, -1, 0) > 0);
	} else {
		read_original(rec);
		ec_assert_whole(&orig, &got, 0);
	}
	free(ev);
	geis_subscription_delete(sub);
	geis_delete(d.geis);
	ut_recording_free(rec);
}

static void
test_accepted_consumed(void **state)
{
	(void)state;
	run_decided(1);
}

static void
test_rejected_replayed(void **state)
{
	(void)state;
	run_decided(0);
}

static void
test_removed_mid_gesture(void **state)
{
	(void)state;
	run_decided(-1);
}

/* A copy of a bundled recording in @p path with its "A:" line of @p code
 * rewritten by @p edit (min, max, fuzz, flat, resolution). */
static void
copy_recording(const char *rel, const char *path, void (*edit)(unsigned int code, int *v))
{
	char line[512];
	FILE *in = fopen(ut_test_recording_path(rel), "r");
	FILE *out = fopen(path, "w");

	assert_non_null(in);
	assert_non_null(out);
	while (fgets(line, sizeof(line), in)) {
		unsigned int code;
		int v[5];

		if (sscanf(line, "A: %x %d %d %d %d %d", &code, &v[0], &v[1], &v[2], &v[3],
			   &v[4]) == 6) {
			edit(code, v);
			fprintf(out, "A: %02x %d %d %d %d %d\n", code, v[0], v[1], v[2], v[3], v[4]);
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	fclose(out);
}

/* A proxy on a pipe whose device is the bundled recording @p rel with its
 * axes edited (the copy in @p path, PATH_MAX bytes; p[1] the test's end). */
static Geis
open_edited(const char *rel, void (*edit)(unsigned int code, int *v), char *path, int p[2])
{
	snprintf(path, PATH_MAX, "%s/edited.evemu", dir);
	copy_recording(rel, path, edit);
	assert_int_equal(fu_reset(), 0);
	Geis geis = open_proxy();

	assert_int_equal(pipe(p), 0);
	assert_int_equal(utouch_geis_add_input_fd(geis, p[0], path), GEIS_STATUS_SUCCESS);
	return geis;
}

/* End the device's report at @p usec, let the proxy take it; the events
 * on the clone so far. */
static size_t
report_done(Geis geis, int wfd, uint64_t usec)
{
	size_t n;

	ut_test_write_event(wfd, usec, EV_SYN, SYN_REPORT, 0);
	gt_pump(geis, 20);
	free(fu_written(&n));
	return n;
}

static void
two_slots(unsigned int code, int *v)
{
	if (code == ABS_MT_SLOT)
		v[1] = 1;
}

/* the value of @p code in the clone's last report that set it before
 * event @p upto, -1 when none did */
static int
last_value(const struct input_event *ev, size_t upto, unsigned int code)
{
	int v = -1;

	for (size_t i = 0; i < upto; i++)
		if (ev[i].type == EV_KEY && ev[i].code == code)
			v = ev[i].value;
	return v;
}

/*
 * A device whose axes have a fuzz (some touchscreens: eGalax and 3M ones
 * in hid-multitouch, touchscreen-fuzz-x in a device tree): the clone's
 * axes have none.  The kernel filters every device's
 * values with its axes' fuzz, a uinput device's too, so a clone with the
 * device's fuzz had the device's already filtered positions smoothed a
 * second time: a slow drag whose filtered steps stay under half the fuzz
 * did not move on the clone at all.
 * Ranges and resolutions stay the device's.
 */
static void
fuzz_8(unsigned int code, int *v)
{
	if (code != ABS_MT_SLOT && code != ABS_MT_TRACKING_ID)
		v[2] = 8;
}

static void
test_clone_unfuzzed(void **state)
{
	char path[PATH_MAX];
	int p[2];

	(void)state;
	Geis geis = open_edited("touchscreen/drag-2.evemu", fuzz_8, path, p);
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	int axes = 0;

	for (unsigned int code = 0; code <= ABS_MAX; code++) {
		if (!libevdev_has_event_code(rec->dev, EV_ABS, code))
			continue;
		int abs = fu_find(UI_ABS_SETUP, (int)code, 0);
		const struct input_absinfo *a = libevdev_get_abs_info(rec->dev, code);

		assert_true(abs >= 0);
		assert_int_equal(fu_calls[abs].abs.fuzz, 0);
		assert_int_equal(fu_calls[abs].abs.minimum, a->minimum);
		assert_int_equal(fu_calls[abs].abs.maximum, a->maximum);
		assert_int_equal(fu_calls[abs].abs.resolution, a->resolution);
		axes++;
	}
	assert_int_equal(axes, 7);
	close(p[1]);
	gt_pump(geis, 10);
	geis_delete(geis);
	ut_recording_free(rec);
	unlink(path);
}

/*
 * A touchpad with 2 slots that counts 3 fingers with BTN_TOOL_TRIPLETAP
 * (older PS/2 touchpads): with both tracked touches on the clone, the
 * clone counts the third finger too, in the report it landed in (which
 * moves no touch) and until it lifts.  Before, the clone said
 * BTN_TOOL_DOUBLETAP throughout, and libinput's three-finger tap (the
 * middle click) and swipes never happened on such a touchpad.
 */
static void
test_untracked_fingers_counted(void **state)
{
	char path[PATH_MAX];
	int p[2];

	(void)state;
	Geis geis = open_edited("touchpad/drag-3.evemu", two_slots, path, p);
	uint64_t t = ut_mono_us();
	size_t n[5];
	struct input_event *ev;

	/* two fingers */
	ut_test_write_touch(p[1], t, 0, 1, 1000, 1000);
	ut_test_write_touch(p[1], t, 1, 2, 1500, 1000);
	ut_test_write_event(p[1], t, EV_KEY, BTN_TOUCH, 1);
	ut_test_write_event(p[1], t, EV_KEY, BTN_TOOL_DOUBLETAP, 1);
	n[0] = report_done(geis, p[1], t);
	/* a third, untracked: only the count changes */
	ut_test_write_event(p[1], t + 10000, EV_KEY, BTN_TOOL_DOUBLETAP, 0);
	ut_test_write_event(p[1], t + 10000, EV_KEY, BTN_TOOL_TRIPLETAP, 1);
	n[1] = report_done(geis, p[1], t + 10000);
	/* they move */
	ut_test_write_touch(p[1], t + 20000, 0, 0, 1100, 1000);
	n[2] = report_done(geis, p[1], t + 20000);
	/* the third lifts */
	ut_test_write_event(p[1], t + 30000, EV_KEY, BTN_TOOL_TRIPLETAP, 0);
	ut_test_write_event(p[1], t + 30000, EV_KEY, BTN_TOOL_DOUBLETAP, 1);
	n[3] = report_done(geis, p[1], t + 30000);
	/* the two lift */
	ut_test_write_event(p[1], t + 40000, EV_ABS, ABS_MT_SLOT, 0);
	ut_test_write_event(p[1], t + 40000, EV_ABS, ABS_MT_TRACKING_ID, -1);
	ut_test_write_event(p[1], t + 40000, EV_ABS, ABS_MT_SLOT, 1);
	ut_test_write_event(p[1], t + 40000, EV_ABS, ABS_MT_TRACKING_ID, -1);
	ut_test_write_event(p[1], t + 40000, EV_KEY, BTN_TOUCH, 0);
	ut_test_write_event(p[1], t + 40000, EV_KEY, BTN_TOOL_DOUBLETAP, 0);
	n[4] = report_done(geis, p[1], t + 40000);
	ev = fu_written(&n[4]);
	assert_non_null(ev);
	/* each step is one report of the clone, with the count of the device */
	assert_int_equal(last_value(ev, n[0], BTN_TOOL_DOUBLETAP), 1);
	assert_true(n[1] > n[0]);
	assert_int_equal(ev[n[1] - 1].type, EV_SYN);
	assert_int_equal(last_value(ev, n[1], BTN_TOOL_TRIPLETAP), 1);
	assert_int_equal(last_value(ev, n[1], BTN_TOOL_DOUBLETAP), 0);
	assert_int_equal(last_value(ev, n[2], BTN_TOOL_TRIPLETAP), 1);
	assert_int_equal(last_value(ev, n[3], BTN_TOOL_TRIPLETAP), 0);
	assert_int_equal(last_value(ev, n[3], BTN_TOOL_DOUBLETAP), 1);
	assert_int_equal(last_value(ev, n[4], BTN_TOOL_DOUBLETAP), 0);
	assert_int_equal(last_value(ev, n[4], BTN_TOUCH), 0);
	free(ev);
	close(p[1]);
	gt_pump(geis, 10);
	geis_delete(geis);
	unlink(path);
}

/* A node that cannot be opened: a clear message, and the device is still
 * read but not grabbed (no clone, no crash, nobody locked out). */
static void
test_no_uinput(void **state)
{
	(void)state;
	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, devdir,
			     UTOUCH_GEIS_INIT_PROXY, UTOUCH_GEIS_INIT_PROXY_UINPUT,
			     "/nonexistent/uinput", GEIS_INIT_SYNCHRONOUS_START, NULL);
	int p[2];

	assert_non_null(geis);
	add_device(geis, p);
	int found = 0;

	for (GeisSize i = 0; i < geis_error_count(geis); i++)
		found |= strstr(geis_error_message(geis, i),
				"cannot open /nonexistent/uinput: No such file or directory "
				"(is the uinput module loaded?)") != NULL;
	assert_true(found);
	/* and the device is still read, not grabbed */
	found = 0;
	for (GeisSize i = 0; i < geis_error_count(geis); i++)
		found |= strstr(geis_error_message(geis, i),
				"is left to the desktop (not grabbed)") != NULL;
	assert_true(found);
	close(p[1]);
	gt_pump(geis, 10);
	geis_delete(geis);
}

/* A SYN_DROPPED on the device: its touches end (a stream cannot be asked
 * for its state) and the clone's stream stays valid. */
static void
test_syn_dropped(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct ut_recording part = *rec;
	int p[2];

	(void)state;
	assert_int_equal(fu_reset(), 0);
	Geis geis = open_proxy();

	add_device(geis, p);
	part.nevents = rec->nevents / 2;
	feed(p[1], &part);
	struct input_event drop = ut_test_event(ut_mono_us(), EV_SYN, SYN_DROPPED, 0);

	ut_test_write_events(p[1], &drop, 1);
	part.events = rec->events + rec->nevents / 2 + 3;
	part.nevents = rec->nevents - rec->nevents / 2 - 3;
	feed(p[1], &part);
	gt_pump(geis, 50);
	close(p[1]);
	gt_pump(geis, 20);
	size_t n;
	struct input_event *ev = fu_written(&n);

	assert_non_null(ev);
	ec_read(rec->dev, ev, n, &got, 1);   /* valid, every touch ended */
	assert_true(got.n >= 2);
	free(ev);
	geis_delete(geis);
	ut_recording_free(rec);
}

/* The proxy's clones are never opened (or grabbed): a node whose name
 * ends in the suffix is skipped, its twin without the suffix is used. */
static struct ut_recording *caps_clone, *caps_real;
static char path_clone[200], path_real[200];
static int added;

static const struct libevdev *
caps_of(const char *path, void *data)
{
	(void)data;
	if (!strcmp(path, path_clone))
		return caps_clone->dev;
	if (!strcmp(path, path_real))
		return caps_real->dev;
	return NULL;
}

static void
on_added(void *data, struct ut_evdev_live_device *dev, UFDevice device)
{
	(void)data;
	(void)device;
	added++;
	assert_string_equal(ut_evdev_live_device_get_name(dev), "real touchscreen");
}

static void
test_clones_skipped(void **state)
{
	static const struct ut_evdev_live_callbacks cb = { .device_added = on_added };
	char sub[100];

	(void)state;
	snprintf(sub, sizeof(sub), "%s/nodes", dir);
	mkdir(sub, 0700);
	snprintf(path_clone, sizeof(path_clone), "%s/event0", sub);
	snprintf(path_real, sizeof(path_real), "%s/event1", sub);
	/* FIFOs: not evdev nodes, so the hook gives their capabilities */
	assert_int_equal(mkfifo(path_clone, 0600), 0);
	assert_int_equal(mkfifo(path_real, 0600), 0);
	caps_clone = ut_test_load_recording("touchscreen/drag-2.evemu");
	caps_real = ut_test_load_recording("touchscreen/drag-2.evemu");
	libevdev_set_name(caps_clone->dev, "real touchscreen (utouch proxy)");
	libevdev_set_name(caps_real->dev, "real touchscreen");
	struct ut_evdev_live_config cfg = {
		.dir = sub,
		.caps_for_path = caps_of,
		.skip_name_suffix = " (utouch proxy)",
	};
	struct ut_evdev_live *l = ut_evdev_live_new(&cfg, &cb, NULL);

	assert_non_null(l);
	assert_int_equal(added, 1);
	ut_evdev_live_destroy(l);
	ut_recording_free(caps_clone);
	ut_recording_free(caps_real);
	unlink(path_clone);
	unlink(path_real);
	rmdir(sub);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_forward_destroy),
		cmocka_unit_test(test_accepted_consumed),
		cmocka_unit_test(test_rejected_replayed),
		cmocka_unit_test(test_removed_mid_gesture),
		cmocka_unit_test(test_no_uinput),
		cmocka_unit_test(test_clone_unfuzzed),
		cmocka_unit_test(test_untracked_fingers_counted),
		cmocka_unit_test(test_clones_skipped),
		cmocka_unit_test(test_syn_dropped),
	};
	snprintf(dir, sizeof(dir), "/tmp/proxy-uinput-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(node, sizeof(node), "%s/uinput", dir);
	snprintf(devdir, sizeof(devdir), "%s/dev", dir);
	mkdir(devdir, 0700);
	fu_set_node(node);
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	unlink(node);
	rmdir(devdir);
	rmdir(dir);
	return rc;
}
