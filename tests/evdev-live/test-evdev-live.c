/*
 * Tests for the live evdev module (src/geis/evdev-live.c).
 *
 * There is no /dev/uinput here, so devices are pipes: the events of a
 * recording are written into a pipe whose read end is given to the module,
 * either directly (ut_evdev_live_add_fd) or as a node of a temporary
 * directory that the test's open_restricted maps to the pipe and whose
 * capabilities the test's caps_for_path hook supplies (taken from the
 * recording's header).  The frames of touch operations that come out are
 * built into frame events as geis's router does (live-frames.h) and
 * compared with what ut_evstream + ut_framer_build() give when driven with
 * the same events directly, the way tools/replay drives them.
 */
#include <dirent.h>
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libevdev/libevdev.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>

#include "geis/evdev-live.h"
#include "input/evdev/evstream.h"
#include "input/evdev/framer.h"
#include "input/recording/recording.h"
#include "live-frames.h"
#include "test-support.h"


/* ------------------------------------------------------------------ */
/* What came out: frame events reduced to plain values                 */

#define MAX_TOUCHES 16

struct trec {
	uint32_t id;
	int state;
	float wx, wy;
	float dx, dy;
};

struct erec {
	int type;
	uint64_t time;
	UFWindowId window;
	unsigned int ntouches;
	unsigned int active;
	struct trec t[MAX_TOUCHES];
};

struct sink {
	struct erec *ev;
	size_t n, cap;
	int added, removed;            /* device callbacks */
	struct ut_evdev_live_device *last_added, *last_removed;
	UFDevice added_device, removed_device;
	int nlog;
	int last_log_err;
	char last_log[512];
	/* remove this device from inside the frame callback once the frame
	 * count reaches remove_at */
	struct ut_evdev_live *live;
	struct ut_evdev_live_device *remove_dev;
	size_t remove_at;
	int remove_in_added;          /* device_added removes the device */
	struct live_frames frames;    /* builds the frames of the operations */
};

static void
sink_record(struct sink *s, UFEvent ev)
{
	struct erec *e;

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->ev = realloc(s->ev, s->cap * sizeof(*s->ev));
		assert_non_null(s->ev);
	}
	e = &s->ev[s->n++];
	memset(e, 0, sizeof(*e));
	e->type = (int)frame_event_get_type(ev);
	e->time = frame_event_get_time(ev);
	if (e->type == UFEventTypeFrame) {
		UFFrame fr = NULL;

		assert_int_equal(frame_event_get_property(ev, UFEventPropertyFrame, &fr),
				 UFStatusSuccess);
		e->window = frame_frame_get_window_id(fr);
		e->ntouches = frame_frame_get_num_touches(fr);
		assert_int_equal(frame_frame_get_property(fr, UFFramePropertyActiveTouches,
							  &e->active), UFStatusSuccess);
		assert_true(e->ntouches <= MAX_TOUCHES);
		for (unsigned int i = 0; i < e->ntouches; i++) {
			UFTouch t = NULL;

			assert_int_equal(frame_frame_get_touch_by_index(fr, i, &t),
					 UFStatusSuccess);
			e->t[i].id = (uint32_t)frame_touch_get_id(t);
			e->t[i].state = (int)frame_touch_get_state(t);
			e->t[i].wx = frame_touch_get_window_x(t);
			e->t[i].wy = frame_touch_get_window_y(t);
			e->t[i].dx = frame_touch_get_device_x(t);
			e->t[i].dy = frame_touch_get_device_y(t);
		}
	}
}

static void
sink_free(struct sink *s)
{
	live_frames_fini(&s->frames);
	free(s->ev);
	memset(s, 0, sizeof(*s));
}

static size_t
count_type(const struct sink *s, int type)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->ev[i].type == type;
	return n;
}

/* touches in state @p state over all frames */
static size_t
count_state(const struct sink *s, int state)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		for (unsigned int k = 0; k < s->ev[i].ntouches; k++)
			n += s->ev[i].t[k].state == state;
	return n;
}

/* ------------------------------------------------------------------ */
/* Callbacks                                                           */

static int
fd_is_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

static void
cb_added(void *data, struct ut_evdev_live_device *dev, UFDevice device)
{
	struct sink *s = data;

	assert_non_null(dev);
	assert_non_null(device);
	assert_ptr_equal(ut_evdev_live_device_get_device(dev), device);
	s->added++;
	s->last_added = dev;
	s->added_device = device;
	if (s->remove_in_added)
		ut_evdev_live_remove_device(s->live, dev);
}

static void
cb_removed(void *data, struct ut_evdev_live_device *dev, UFDevice device)
{
	struct sink *s = data;

	assert_non_null(dev);
	assert_ptr_equal(ut_evdev_live_device_get_device(dev), device);
	/* the DeviceRemoved event came first */
	assert_true(s->n > 0);
	assert_int_equal(s->ev[s->n - 1].type, UFEventTypeDeviceRemoved);
	s->removed++;
	s->last_removed = dev;
	s->removed_device = device;
	live_frames_forget(&s->frames, dev);
}

static void
cb_frame(void *data, UFEvent ev)
{
	struct sink *s = data;

	sink_record(s, ev);
	if (s->remove_dev && count_type(s, UFEventTypeFrame) == s->remove_at) {
		struct libevdev *caps = (struct libevdev *)
			ut_evdev_live_device_get_caps(s->remove_dev);
		int p[2];

		/* no re-entry from a callback */
		assert_int_equal(ut_evdev_live_dispatch(s->live), -EBUSY);
		assert_int_equal(pipe(p), 0);
		errno = 0;
		assert_null(ut_evdev_live_add_fd(s->live, p[0], caps, NULL));
		assert_int_equal(errno, EBUSY);
		assert_false(fd_is_open(p[0]));
		close(p[1]);
		ut_evdev_live_remove_device(s->live, s->remove_dev);
		/* carried out after this callback, not inside it */
		assert_int_equal(s->removed, 0);
		s->remove_dev = NULL;
	}
}

static void
cb_ops(void *data, struct ut_evdev_live_device *dev, uint64_t time_ms,
       const struct ut_touch_op *ops, size_t nops)
{
	struct sink *s = data;

	live_frames_build(&s->frames, dev, time_ms, ops, nops, cb_frame, s);
}

static void
cb_log(void *data, const char *path, int err, const char *message)
{
	struct sink *s = data;

	assert_non_null(message);
	s->nlog++;
	s->last_log_err = err;
	snprintf(s->last_log, sizeof(s->last_log), "%s", message);
}

static const struct ut_evdev_live_callbacks callbacks = {
	.device_added = cb_added,
	.device_removed = cb_removed,
	.frame_event = cb_frame,
	.frame_ops = cb_ops,
	.log = cb_log,
};

/* ------------------------------------------------------------------ */
/* Recordings and the reference path                                   */

struct ref {
	struct ut_frame_builder framer;
	struct sink *sink;
};

static void
ref_frame(void *data, uint64_t usec, const struct ut_touch_op *ops, size_t nops)
{
	struct ref *r = data;
	UFEvent ev = ut_framer_build(&r->framer, usec / 1000, ops, nops);

	assert_non_null(ev);
	sink_record(r->sink, ev);
	frame_event_unref(ev);
}

/* Frames of the first @p nevents events of @p rec through ut_evstream and
 * ut_framer_build() directly, with the module's settings (owned at begin, window
 * 1, 1024x768). */
static void
reference(const struct ut_recording *rec, size_t nevents, struct sink *out)
{
	struct ut_evstream_opts sopts = {
		.own = UT_OWN_BEGIN, .direct = -1, .screen_w = 1024, .screen_h = 768,
	};
	struct ref r = { .sink = out };
	struct ut_device_opts dopts = { .name = NULL, .window_res = 0 };
	struct ut_evstream *st = ut_evstream_new(rec->dev, &sopts, ref_frame, &r);
	UFBackendDevice dev;

	assert_non_null(st);
	dopts.direct = ut_evstream_is_direct(st);
	dev = ut_framer_device_new(rec->dev, &dopts);
	assert_non_null(dev);
	ut_frame_builder_init(&r.framer, dev, 1, 1);
	for (size_t i = 0; i < nevents && i < rec->nevents; i++) {
		struct input_event ev;

		ev = ut_test_recorded_event(rec, i);
		ut_evstream_push(st, &ev);
	}
	ut_evstream_destroy(st);
	ut_frame_builder_fini(&r.framer);
	frame_backend_device_delete(dev);
}

/* ------------------------------------------------------------------ */
/* Environment                                                         */

static int
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

struct tmpdir {
	char path[256];
};

static void
tmpdir_make(struct tmpdir *t)
{
	const char *base = getenv("TMPDIR");

	snprintf(t->path, sizeof(t->path), "%s/ut-evdev-live-XXXXXX",
		 base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(t->path));
}

static void
tmpdir_touch(struct tmpdir *t, const char *name, const char *content)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", t->path, name);
	f = fopen(p, "w");
	assert_non_null(f);
	if (content)
		fputs(content, f);
	fclose(f);
}

static void
tmpdir_unlink(struct tmpdir *t, const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", t->path, name);
	assert_int_equal(unlink(p), 0);
}

static void
tmpdir_remove(struct tmpdir *t)
{
	DIR *d = opendir(t->path);
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d))) {
		char p[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", t->path, de->d_name);
		unlink(p);
	}
	closedir(d);
	assert_int_equal(rmdir(t->path), 0);
}

/* The open interface of the tests: "eventN" in the directory maps to the
 * read end of a pipe the test made; a path can be made to fail. */
#define MAX_NODES 8

struct node {
	char name[32];
	int rfd, wfd;                /* the pipe; rfd is handed out */
	int fail;                    /* open fails with this errno */
	const struct libevdev *caps; /* caps_for_path answer */
	int opened, closed;
};

struct fake {
	struct node nodes[MAX_NODES];
	int nnodes;
	int open_calls, close_calls;
};

static struct node *
fake_find(struct fake *f, const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (int i = 0; i < f->nnodes; i++)
		if (strcmp(f->nodes[i].name, base) == 0)
			return &f->nodes[i];
	return NULL;
}

static struct node *
fake_add(struct fake *f, const char *name, const struct libevdev *caps)
{
	struct node *n = &f->nodes[f->nnodes++];
	int p[2];

	assert_true(f->nnodes <= MAX_NODES);
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	assert_int_equal(pipe(p), 0);
	n->rfd = p[0];
	n->wfd = p[1];
	n->caps = caps;
	return n;
}

static int
fake_open(const char *path, int flags, void *data)
{
	struct fake *f = data;
	struct node *n = fake_find(f, path);

	struct stat st;

	f->open_calls++;
	assert_int_equal(flags, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (stat(path, &st) != 0)
		return -errno;
	if (!n)
		return -ENOENT;
	if (n->fail)
		return -n->fail;
	assert_int_equal(n->opened, n->closed); /* never opened twice at once */
	n->opened++;
	return n->rfd;
}

static void
fake_close(int fd, void *data)
{
	struct fake *f = data;

	f->close_calls++;
	for (int i = 0; i < f->nnodes; i++) {
		if (f->nodes[i].rfd == fd && f->nodes[i].opened > f->nodes[i].closed) {
			f->nodes[i].closed++;
			close(fd);
			f->nodes[i].rfd = -1;
			return;
		}
	}
	fail_msg("close_restricted of fd %d that open_restricted did not give", fd);
}

static const struct libevdev *
fake_caps(const char *path, void *data)
{
	struct node *n = fake_find(data, path);

	return n ? n->caps : NULL;
}

static const struct utouch_geis_open_interface fake_iface = {
	.open_restricted = fake_open,
	.close_restricted = fake_close,
};

static void
fake_release(struct fake *f)
{
	for (int i = 0; i < f->nnodes; i++) {
		/* every descriptor handed out came back */
		assert_int_equal(f->nodes[i].opened, f->nodes[i].closed);
		if (f->nodes[i].rfd >= 0)
			close(f->nodes[i].rfd);
		if (f->nodes[i].wfd >= 0)
			close(f->nodes[i].wfd);
	}
}

/* ------------------------------------------------------------------ */
/* Writing events and dispatching                                      */

static int
readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0);
}

/* Dispatch until the epoll descriptor stays quiet. */
static void
settle(struct ut_evdev_live *l)
{
	for (int i = 0; i < 1000; i++) {
		if (readable(ut_evdev_live_get_fd(l)) == 0)
			return;
		assert_int_equal(ut_evdev_live_dispatch(l), 0);
	}
	fail_msg("the context never settled");
}

/* Write events [from, to) of @p rec into @p fd in chunks, dispatching
 * between them. */
static void
feed(struct ut_evdev_live *l, int fd, const struct ut_recording *rec,
     size_t from, size_t to)
{
	while (from < to) {
		struct input_event evs[50];
		size_t n = 0;

		while (n < 50 && from < to)
			evs[n++] = ut_test_recorded_event(rec, from++);
		ut_test_write_events(fd, evs, n);
		settle(l);
	}
}

static struct ut_evdev_live *
new_live(struct tmpdir *t, struct sink *s, const struct utouch_geis_open_interface *iface,
	 void *iface_data, int hotplug)
{
	struct ut_evdev_live_config cfg = {
		.dir = t->path,
		.iface = iface,
		.iface_data = iface_data,
		.hotplug = hotplug,
		.caps_for_path = iface ? fake_caps : NULL,
	};
	struct ut_evdev_live *l = ut_evdev_live_new(&cfg, &callbacks, s);

	assert_non_null(l);
	s->live = l;
	return l;
}

/* The frame events of @p got from index @p from equal @p want's. */
static void
assert_frames_equal(const struct sink *got, size_t from, const struct sink *want)
{
	size_t k = from;

	for (size_t i = 0; i < want->n; i++, k++) {
		const struct erec *a = &got->ev[k], *b = &want->ev[i];

		assert_true(k < got->n);
		assert_int_equal(a->type, UFEventTypeFrame);
		assert_int_equal(a->time, b->time);
		assert_int_equal(a->window, 1);
		assert_int_equal(a->ntouches, b->ntouches);
		assert_int_equal(a->active, b->active);
		for (unsigned int t = 0; t < a->ntouches; t++) {
			assert_int_equal(a->t[t].id, b->t[t].id);
			assert_int_equal(a->t[t].state, b->t[t].state);
			assert_true(a->t[t].wx == b->t[t].wx);
			assert_true(a->t[t].wy == b->t[t].wy);
			assert_true(a->t[t].dx == b->t[t].dx);
			assert_true(a->t[t].dy == b->t[t].dy);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void
test_bad_arguments(void **state)
{
	struct ut_evdev_live_config cfg = { .dir = "/nonexistent-ut-dir" };
	struct utouch_geis_open_interface half = { .open_restricted = fake_open };
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct libevdev *kbd = libevdev_new();
	struct sink s = { 0 };
	struct ut_evdev_live *l;
	int p[2];

	errno = 0;
	assert_null(ut_evdev_live_new(NULL, &callbacks, NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ut_evdev_live_new(&cfg, NULL, NULL));
	assert_int_equal(errno, EINVAL);
	cfg.dir = "";
	errno = 0;
	assert_null(ut_evdev_live_new(&cfg, &callbacks, NULL));
	assert_int_equal(errno, EINVAL);
	cfg.dir = "/nonexistent-ut-dir";
	cfg.iface = &half;
	errno = 0;
	assert_null(ut_evdev_live_new(&cfg, &callbacks, NULL));
	assert_int_equal(errno, EINVAL);
	cfg.iface = NULL;
	cfg.screen_w = -1;
	errno = 0;
	assert_null(ut_evdev_live_new(&cfg, &callbacks, NULL));
	assert_int_equal(errno, EINVAL);
	cfg.screen_w = 0;

	/* NULL context everywhere */
	assert_int_equal(ut_evdev_live_get_fd(NULL), -1);
	assert_int_equal(ut_evdev_live_dispatch(NULL), -EINVAL);
	assert_int_equal(ut_evdev_live_num_devices(NULL), 0);
	assert_null(ut_evdev_live_get_device(NULL, 0));
	assert_string_equal(ut_evdev_live_last_error(NULL), "");
	assert_null(ut_evdev_live_device_get_path(NULL));
	assert_null(ut_evdev_live_device_get_name(NULL));
	assert_null(ut_evdev_live_device_get_device(NULL));
	assert_null(ut_evdev_live_device_get_backend_device(NULL));
	assert_null(ut_evdev_live_device_get_caps(NULL));
	assert_int_equal(ut_evdev_live_device_get_protocol(NULL), 0);
	assert_int_equal(ut_evdev_live_device_is_evdev(NULL), 0);
	ut_evdev_live_remove_device(NULL, NULL);
	ut_evdev_live_destroy(NULL);
	assert_int_equal(pipe(p), 0);
	errno = 0;
	assert_null(ut_evdev_live_add_fd(NULL, p[0], rec->dev, NULL));
	assert_int_equal(errno, EINVAL);
	assert_false(fd_is_open(p[0])); /* taken even on failure */
	close(p[1]);

	/* a missing directory leaves a context without devices */
	l = ut_evdev_live_new(&cfg, &callbacks, &s);
	assert_non_null(l);
	assert_int_equal(ut_evdev_live_num_devices(l), 0);
	assert_non_null(strstr(ut_evdev_live_last_error(l), "/nonexistent-ut-dir"));
	assert_int_equal(s.last_log_err, ENOENT);
	assert_int_equal(ut_evdev_live_dispatch(l), 0);

	/* add_fd: bad descriptor, no caps, caps without multitouch */
	errno = 0;
	assert_null(ut_evdev_live_add_fd(l, -1, rec->dev, NULL));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(pipe(p), 0);
	errno = 0;
	assert_null(ut_evdev_live_add_fd(l, p[0], NULL, NULL));
	assert_int_equal(errno, EINVAL);
	assert_false(fd_is_open(p[0]));
	close(p[1]);
	assert_int_equal(pipe(p), 0);
	libevdev_set_name(kbd, "keyboard");
	libevdev_enable_event_code(kbd, EV_KEY, KEY_A, NULL);
	errno = 0;
	assert_null(ut_evdev_live_add_fd(l, p[0], kbd, NULL));
	assert_int_equal(errno, EINVAL);
	assert_false(fd_is_open(p[0]));
	close(p[1]);
	assert_int_equal(ut_evdev_live_num_devices(l), 0);
	assert_int_equal(s.added, 0);
	/* a device of no context is ignored */
	ut_evdev_live_remove_device(l, (struct ut_evdev_live_device *)&s);
	ut_evdev_live_destroy(l);
	assert_int_equal(s.removed, 0);

	libevdev_free(kbd);
	ut_recording_free(rec);
	sink_free(&s);
	(void)state;
}

/* A whole recording through a pipe gives the frames of the direct path,
 * then a clean removal at end of file. */
static void
check_recording(const char *rel, char protocol, int direct, size_t touches)
{
	struct ut_recording *rec = ut_test_load_recording(rel);
	struct sink want = { 0 }, got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	struct ut_evdev_live_device *dev;
	int p[2], fds0 = count_fds();
	int on_dev;

	reference(rec, rec->nevents, &want);
	assert_true(want.n > 10);
	assert_int_equal(count_state(&want, UFTouchStateBegin), touches);
	assert_int_equal(count_state(&want, UFTouchStateEnd), touches);

	tmpdir_make(&t);
	l = new_live(&t, &got, NULL, NULL, 0);
	assert_int_equal(pipe(p), 0);
	dev = ut_evdev_live_add_fd(l, p[0], rec->dev, NULL);
	assert_non_null(dev);
	assert_int_equal(got.added, 1);
	assert_ptr_equal(got.last_added, dev);
	assert_int_equal(ut_evdev_live_num_devices(l), 1);
	assert_ptr_equal(ut_evdev_live_get_device(l, 0), dev);
	assert_null(ut_evdev_live_get_device(l, 1));
	assert_null(ut_evdev_live_device_get_path(dev));
	assert_string_equal(ut_evdev_live_device_get_name(dev),
			    libevdev_get_name(rec->dev));
	assert_int_equal(ut_evdev_live_device_get_protocol(dev), protocol);
	assert_int_equal(ut_evdev_live_device_is_evdev(dev), 0);
	assert_true(libevdev_has_event_code(ut_evdev_live_device_get_caps(dev),
					    EV_ABS, ABS_MT_POSITION_X));
	assert_int_equal(frame_device_get_property(got.added_device,
						   UFDevicePropertyDirect, &on_dev),
			 UFStatusSuccess);
	assert_int_equal(on_dev, direct);
	/* DeviceAdded first */
	assert_int_equal(got.n, 1);
	assert_int_equal(got.ev[0].type, UFEventTypeDeviceAdded);

	feed(l, p[1], rec, 0, rec->nevents);
	assert_int_equal(got.n, 1 + want.n);
	assert_frames_equal(&got, 1, &want);
	assert_int_equal(got.removed, 0);

	close(p[1]);
	settle(l);
	assert_int_equal(got.removed, 1);
	assert_ptr_equal(got.removed_device, got.added_device);
	/* every touch had ended: no extra frames before DeviceRemoved */
	assert_int_equal(got.n, 2 + want.n);
	assert_int_equal(got.ev[got.n - 1].type, UFEventTypeDeviceRemoved);
	/* removal time = time of the last event of the stream */
	assert_int_equal(got.ev[got.n - 1].time,
			 rec->events[rec->nevents - 1].usec / 1000);
	assert_int_equal(ut_evdev_live_num_devices(l), 0);

	ut_evdev_live_destroy(l);
	assert_int_equal(got.removed, 1);
	assert_int_equal(count_fds(), fds0);
	tmpdir_remove(&t);
	ut_recording_free(rec);
	sink_free(&want);
	sink_free(&got);
}

static void
test_recording_touchscreen_b(void **state)
{
	check_recording("touchscreen/drag-2.evemu", 'B', 1, 2);
	(void)state;
}

static void
test_recording_touchscreen_a(void **state)
{
	check_recording("touchscreen-a/drag-2.evemu", 'A', 1, 2);
	(void)state;
}

static void
test_recording_touchpad(void **state)
{
	check_recording("touchpad/pinch-2.evemu", 'B', 0, 2);
	(void)state;
}

static void
test_recording_many_touches(void **state)
{
	check_recording("touchscreen/storm-10.evemu", 'B', 1, 10);
	(void)state;
}

/* Index of the first event after which @p n touches are down (the
 * reference frame count at that point is returned in @p nframes). */
static size_t
split_point(const struct ut_recording *rec, unsigned int n, size_t *nframes)
{
	for (size_t i = 1; i <= rec->nevents; i++) {
		struct sink s = { 0 };

		reference(rec, i, &s);
		if (s.n > 0 && s.ev[s.n - 1].active == n &&
		    count_state(&s, UFTouchStateUpdate) > 4) {
			*nframes = s.n;
			sink_free(&s);
			return i;
		}
		sink_free(&s);
	}
	fail_msg("no point with %u touches", n);
	return 0;
}

/* The last frame before DeviceRemoved ends every touch that was down. */
static void
assert_all_ended(const struct sink *s, size_t first_new, unsigned int n,
		 uint64_t time)
{
	const struct erec *e;

	assert_true(s->n >= first_new + 2);
	assert_int_equal(s->ev[s->n - 1].type, UFEventTypeDeviceRemoved);
	e = &s->ev[s->n - 2];
	assert_int_equal(e->type, UFEventTypeFrame);
	assert_int_equal(e->time, time);
	assert_int_equal(e->ntouches, n);
	for (unsigned int k = 0; k < n; k++)
		assert_int_equal(e->t[k].state, UFTouchStateEnd);
	/* ... and begins and ends balance */
	assert_int_equal(count_state(s, UFTouchStateBegin),
			 count_state(s, UFTouchStateEnd));
}

/* End of file in the middle of a gesture ends its touches. */
static void
check_eof_mid_gesture(const char *rel)
{
	struct ut_recording *rec = ut_test_load_recording(rel);
	struct sink want = { 0 }, got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	size_t nframes, cut = split_point(rec, 2, &nframes);
	int p[2];

	reference(rec, cut, &want);
	tmpdir_make(&t);
	l = new_live(&t, &got, NULL, NULL, 0);
	assert_int_equal(pipe(p), 0);
	assert_non_null(ut_evdev_live_add_fd(l, p[0], rec->dev, "cut"));
	feed(l, p[1], rec, 0, cut);
	assert_frames_equal(&got, 1, &want);
	assert_int_equal(got.n, 1 + nframes);
	/* half an event stays buffered and is dropped at the end */
	assert_int_equal(write(p[1], "\x01\x02\x03", 3), 3);
	close(p[1]);
	settle(l);
	assert_int_equal(got.removed, 1);
	assert_int_equal(got.n, 1 + nframes + 2);
	assert_all_ended(&got, 1 + nframes, 2, rec->events[cut - 1].usec / 1000);
	assert_int_equal(got.ev[got.n - 2].t[0].id, 1);
	assert_int_equal(got.ev[got.n - 2].t[1].id, 2);
	ut_evdev_live_destroy(l);
	tmpdir_remove(&t);
	ut_recording_free(rec);
	sink_free(&want);
	sink_free(&got);
}

static void
test_eof_ends_touches_b(void **state)
{
	check_eof_mid_gesture("touchscreen/drag-2.evemu");
	(void)state;
}

static void
test_eof_ends_touches_a(void **state)
{
	check_eof_mid_gesture("touchscreen-a/drag-2.evemu");
	(void)state;
}

/* ut_evdev_live_destroy() and ut_evdev_live_remove_device() end touches
 * too. */
static void
test_remove_and_destroy_end_touches(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct sink got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	struct ut_evdev_live_device *a, *b;
	size_t nframes, cut = split_point(rec, 2, &nframes);
	int p[2], q[2], fds0 = count_fds();

	tmpdir_make(&t);
	l = new_live(&t, &got, NULL, NULL, 0);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(q), 0);
	a = ut_evdev_live_add_fd(l, p[0], rec->dev, "first");
	b = ut_evdev_live_add_fd(l, q[0], rec->dev, "second");
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(ut_evdev_live_device_get_name(b), "second");
	assert_int_equal(ut_evdev_live_num_devices(l), 2);
	assert_ptr_equal(ut_evdev_live_get_device(l, 1), b);

	feed(l, p[1], rec, 0, cut);
	assert_int_equal(got.n, 2 + nframes);
	ut_evdev_live_remove_device(l, a);
	assert_int_equal(got.removed, 1);
	assert_ptr_equal(got.last_removed, a);
	assert_all_ended(&got, 2 + nframes, 2, rec->events[cut - 1].usec / 1000);
	assert_false(fd_is_open(p[0]));
	assert_int_equal(ut_evdev_live_num_devices(l), 1);
	assert_ptr_equal(ut_evdev_live_get_device(l, 0), b);

	got.n = 0;
	feed(l, q[1], rec, 0, cut);
	assert_int_equal(got.n, nframes);
	ut_evdev_live_destroy(l);
	assert_int_equal(got.removed, 2);
	assert_int_equal(got.n, nframes + 2);
	assert_all_ended(&got, nframes, 2, rec->events[cut - 1].usec / 1000);
	close(p[1]);
	close(q[1]);
	assert_int_equal(count_fds(), fds0);
	tmpdir_remove(&t);
	ut_recording_free(rec);
	sink_free(&got);
	(void)state;
}

/* Removal asked for from inside the frame callback. */
static void
test_remove_from_callback(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct sink got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	int p[2];

	tmpdir_make(&t);
	l = new_live(&t, &got, NULL, NULL, 0);
	assert_int_equal(pipe(p), 0);
	got.remove_dev = ut_evdev_live_add_fd(l, p[0], rec->dev, NULL);
	got.remove_at = 5;
	assert_non_null(got.remove_dev);
	/* everything in one go: the removal cuts the rest off */
	{
		struct input_event evs[200];

		for (size_t i = 0; i < 200; i++)
			evs[i] = ut_test_recorded_event(rec, i);
		ut_test_write_events(p[1], evs, 200);
	}
	settle(l);
	assert_int_equal(got.removed, 1);
	assert_int_equal(count_type(&got, UFEventTypeDeviceRemoved), 1);
	/* 5 frames, the frame ending the touches, the removal */
	assert_int_equal(count_type(&got, UFEventTypeFrame), 6);
	assert_int_equal(count_state(&got, UFTouchStateBegin),
			 count_state(&got, UFTouchStateEnd));
	assert_int_equal(ut_evdev_live_num_devices(l), 0);
	ut_evdev_live_destroy(l);
	close(p[1]);
	tmpdir_remove(&t);
	ut_recording_free(rec);
	sink_free(&got);
	(void)state;
}

/* device_added may refuse a device by removing it. */
static void
test_remove_in_device_added(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct sink got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	int p[2], fds0 = count_fds();

	tmpdir_make(&t);
	l = new_live(&t, &got, NULL, NULL, 0);
	got.remove_in_added = 1;
	assert_int_equal(pipe(p), 0);
	errno = 0;
	assert_null(ut_evdev_live_add_fd(l, p[0], rec->dev, NULL));
	assert_int_equal(errno, ENODEV);
	assert_int_equal(got.added, 1);
	assert_int_equal(got.removed, 1);
	assert_ptr_equal(got.removed_device, got.added_device);
	assert_int_equal(got.n, 2);
	assert_int_equal(got.ev[0].type, UFEventTypeDeviceAdded);
	assert_int_equal(got.ev[1].type, UFEventTypeDeviceRemoved);
	assert_false(fd_is_open(p[0]));
	assert_int_equal(ut_evdev_live_num_devices(l), 0);
	ut_evdev_live_destroy(l);
	close(p[1]);
	assert_int_equal(count_fds(), fds0);
	tmpdir_remove(&t);
	ut_recording_free(rec);
	sink_free(&got);
	(void)state;
}

/* The epoll descriptor is readable exactly when a stream has data. */
static void
test_epoll_readiness(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct sink got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	int p[2], fd;

	tmpdir_make(&t);
	l = new_live(&t, &got, NULL, NULL, 1);
	fd = ut_evdev_live_get_fd(l);
	assert_true(fd >= 0);
	assert_int_equal(readable(fd), 0);
	assert_int_equal(pipe(p), 0);
	assert_non_null(ut_evdev_live_add_fd(l, p[0], rec->dev, NULL));
	assert_int_equal(readable(fd), 0);
	/* nothing ready: dispatch returns at once */
	assert_int_equal(ut_evdev_live_dispatch(l), 0);
	assert_int_equal(got.n, 1);

	ut_test_write_event(p[1], 1000000, EV_ABS, ABS_MT_SLOT, 0);
	assert_int_equal(readable(fd), 1);
	assert_int_equal(ut_evdev_live_dispatch(l), 0);
	assert_int_equal(readable(fd), 0);
	assert_int_equal(got.n, 1);

	/* half an event: readable, but no event yet */
	{
		struct input_event ev;
		const char *b = (const char *)&ev;

		memset(&ev, 0, sizeof(ev));
		ev.input_event_sec = 1;
		ev.type = EV_ABS;
		ev.code = ABS_MT_TRACKING_ID;
		ev.value = 10;
		assert_int_equal(write(p[1], b, 10), 10);
		assert_int_equal(readable(fd), 1);
		assert_int_equal(ut_evdev_live_dispatch(l), 0);
		assert_int_equal(readable(fd), 0);
		assert_int_equal(write(p[1], b + 10, sizeof(ev) - 10),
				 (ssize_t)(sizeof(ev) - 10));
	}
	ut_test_write_event(p[1], 1000000, EV_ABS, ABS_MT_POSITION_X, 2100);
	ut_test_write_event(p[1], 1000000, EV_ABS, ABS_MT_POSITION_Y, 1400);
	ut_test_write_event(p[1], 1000000, EV_SYN, SYN_REPORT, 0);
	assert_int_equal(readable(fd), 1);
	assert_int_equal(ut_evdev_live_dispatch(l), 0);
	assert_int_equal(readable(fd), 0);
	assert_int_equal(got.n, 2);
	assert_int_equal(got.ev[1].type, UFEventTypeFrame);
	assert_int_equal(got.ev[1].time, 1000);
	assert_int_equal(got.ev[1].ntouches, 1);
	assert_int_equal(got.ev[1].t[0].id, 1);
	assert_int_equal(got.ev[1].t[0].state, UFTouchStateBegin);
	/* 2100 of 0..4200 and 1400 of 0..2800 -> the middle of 1024x768 */
	assert_true(got.ev[1].t[0].wx == 512.f);
	assert_true(got.ev[1].t[0].wy == 384.f);

	/* a hang-up is readable too, and ends the touch */
	close(p[1]);
	assert_int_equal(readable(fd), 1);
	assert_int_equal(ut_evdev_live_dispatch(l), 0);
	assert_int_equal(readable(fd), 0);
	assert_int_equal(got.n, 4);
	assert_int_equal(got.ev[2].t[0].state, UFTouchStateEnd);
	assert_int_equal(got.ev[2].time, 1000);
	assert_int_equal(got.ev[3].type, UFEventTypeDeviceRemoved);

	ut_evdev_live_destroy(l);
	tmpdir_remove(&t);
	ut_recording_free(rec);
	sink_free(&got);
	(void)state;
}

/* SYN_DROPPED in a raw stream: the touches end, the rest of the broken
 * report is skipped, and touches after it start fresh. */
static void
test_syn_dropped_stream(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct sink got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	int p[2];
	const struct erec *e;

	tmpdir_make(&t);
	l = new_live(&t, &got, NULL, NULL, 0);
	assert_int_equal(pipe(p), 0);
	assert_non_null(ut_evdev_live_add_fd(l, p[0], rec->dev, NULL));
	/* two touches in slots 0 and 1 */
	ut_test_write_event(p[1], 2000000, EV_ABS, ABS_MT_SLOT, 0);
	ut_test_write_event(p[1], 2000000, EV_ABS, ABS_MT_TRACKING_ID, 40);
	ut_test_write_event(p[1], 2000000, EV_ABS, ABS_MT_POSITION_X, 0);
	ut_test_write_event(p[1], 2000000, EV_ABS, ABS_MT_POSITION_Y, 0);
	ut_test_write_event(p[1], 2000000, EV_ABS, ABS_MT_SLOT, 1);
	ut_test_write_event(p[1], 2000000, EV_ABS, ABS_MT_TRACKING_ID, 41);
	ut_test_write_event(p[1], 2000000, EV_ABS, ABS_MT_POSITION_X, 4200);
	ut_test_write_event(p[1], 2000000, EV_ABS, ABS_MT_POSITION_Y, 2800);
	ut_test_write_event(p[1], 2000000, EV_SYN, SYN_REPORT, 0);
	/* half a report, then the drop */
	ut_test_write_event(p[1], 2010000, EV_ABS, ABS_MT_POSITION_X, 4000);
	ut_test_write_event(p[1], 2012000, EV_SYN, SYN_DROPPED, 0);
	/* the rest of the broken report: skipped */
	ut_test_write_event(p[1], 2013000, EV_ABS, ABS_MT_SLOT, 0);
	ut_test_write_event(p[1], 2013000, EV_ABS, ABS_MT_TRACKING_ID, -1);
	ut_test_write_event(p[1], 2013000, EV_SYN, SYN_REPORT, 0);
	/* a complete report updating slot 1: its touch is gone for us */
	ut_test_write_event(p[1], 2020000, EV_ABS, ABS_MT_SLOT, 1);
	ut_test_write_event(p[1], 2020000, EV_ABS, ABS_MT_POSITION_X, 3000);
	ut_test_write_event(p[1], 2020000, EV_SYN, SYN_REPORT, 0);
	/* a new touch */
	ut_test_write_event(p[1], 2030000, EV_ABS, ABS_MT_SLOT, 2);
	ut_test_write_event(p[1], 2030000, EV_ABS, ABS_MT_TRACKING_ID, 42);
	ut_test_write_event(p[1], 2030000, EV_ABS, ABS_MT_POSITION_X, 2100);
	ut_test_write_event(p[1], 2030000, EV_ABS, ABS_MT_POSITION_Y, 1400);
	ut_test_write_event(p[1], 2030000, EV_SYN, SYN_REPORT, 0);
	settle(l);

	assert_int_equal(got.n, 4);
	e = &got.ev[1];
	assert_int_equal(e->time, 2000);
	assert_int_equal(e->ntouches, 2);
	assert_int_equal(e->t[0].state, UFTouchStateBegin);
	assert_int_equal(e->t[1].state, UFTouchStateBegin);
	/* the drop ends both, at its own time */
	e = &got.ev[2];
	assert_int_equal(e->time, 2012);
	assert_int_equal(e->ntouches, 2);
	assert_int_equal(e->t[0].id, 1);
	assert_int_equal(e->t[0].state, UFTouchStateEnd);
	assert_int_equal(e->t[1].id, 2);
	assert_int_equal(e->t[1].state, UFTouchStateEnd);
	/* slot 1 had moved to 4000 before the drop; the end carries it */
	assert_true(e->t[1].dx == 4000.f || e->t[0].dx == 4000.f);
	/* the new touch */
	e = &got.ev[3];
	assert_int_equal(e->time, 2030);
	assert_int_equal(e->ntouches, 1);
	assert_int_equal(e->t[0].id, 3);
	assert_int_equal(e->t[0].state, UFTouchStateBegin);
	assert_true(e->t[0].wx == 512.f);
	ut_evdev_live_destroy(l);
	/* the touch that was still down ended at destruction */
	assert_int_equal(got.n, 6);
	assert_int_equal(got.ev[4].t[0].id, 3);
	assert_int_equal(got.ev[4].t[0].state, UFTouchStateEnd);
	close(p[1]);
	tmpdir_remove(&t);
	ut_recording_free(rec);
	sink_free(&got);
	(void)state;
}

/* Nodes found at start, nodes appearing and disappearing, paths that fail
 * to open, nodes that are not touch devices. */
static void
test_hotplug(void **state)
{
	struct ut_recording *ts = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct ut_recording *tp = ut_test_load_recording("touchpad/drag-2.evemu");
	struct libevdev *kbd = libevdev_new();
	struct sink got = { 0 }, want = { 0 };
	struct fake f = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	struct ut_evdev_live_device *d0, *d1;
	struct node *n0, *n1, *n2, *n3;
	size_t nframes, cut = split_point(tp, 2, &nframes);
	char path[512];
	int fds0 = count_fds();

	libevdev_set_name(kbd, "keyboard");
	libevdev_enable_event_code(kbd, EV_KEY, KEY_A, NULL);
	tmpdir_make(&t);
	n0 = fake_add(&f, "event0", ts->dev);
	n1 = fake_add(&f, "event1", tp->dev);
	n2 = fake_add(&f, "event2", ts->dev);
	n2->fail = EACCES;
	n3 = fake_add(&f, "event3", kbd);
	tmpdir_touch(&t, "event0", NULL);
	tmpdir_touch(&t, "mouse0", NULL);   /* not an event node: not opened */
	tmpdir_touch(&t, "event9", NULL);   /* unknown to the opener */

	l = new_live(&t, &got, &fake_iface, &f, 1);
	assert_int_equal(got.added, 1);
	assert_int_equal(ut_evdev_live_num_devices(l), 1);
	d0 = got.last_added;
	snprintf(path, sizeof(path), "%s/event0", t.path);
	assert_string_equal(ut_evdev_live_device_get_path(d0), path);
	assert_string_equal(ut_evdev_live_device_get_name(d0), "utouch-synth touchscreen");
	assert_int_equal(n0->opened, 1);
	/* event9: open_restricted failed with ENOENT, logged */
	assert_int_equal(f.open_calls, 2);
	assert_int_equal(got.nlog, 1);
	assert_int_equal(got.last_log_err, ENOENT);
	assert_non_null(strstr(ut_evdev_live_last_error(l), "event9"));
	assert_int_equal(readable(ut_evdev_live_get_fd(l)), 0);

	/* a touchpad appears */
	tmpdir_touch(&t, "event1", NULL);
	assert_int_equal(readable(ut_evdev_live_get_fd(l)), 1);
	settle(l);
	assert_int_equal(got.added, 2);
	d1 = got.last_added;
	snprintf(path, sizeof(path), "%s/event1", t.path);
	assert_string_equal(ut_evdev_live_device_get_path(d1), path);
	assert_int_equal(ut_evdev_live_num_devices(l), 2);
	assert_int_equal(n1->opened, 1);
	{
		int direct = -1;

		assert_int_equal(frame_device_get_property(got.added_device,
							   UFDevicePropertyDirect,
							   &direct), UFStatusSuccess);
		assert_int_equal(direct, 0);
	}

	/* it is used, then unplugged with two fingers down */
	got.n = 0;
	feed(l, n1->wfd, tp, 0, cut);
	reference(tp, cut, &want);
	assert_int_equal(got.n, nframes);
	assert_frames_equal(&got, 0, &want);
	tmpdir_unlink(&t, "event1");
	settle(l);
	assert_int_equal(got.removed, 1);
	assert_ptr_equal(got.last_removed, d1);
	assert_all_ended(&got, nframes, 2, tp->events[cut - 1].usec / 1000);
	assert_int_equal(n1->closed, 1);
	assert_int_equal(ut_evdev_live_num_devices(l), 1);

	/* a node that cannot be opened yet is skipped and recorded */
	got.nlog = 0;
	tmpdir_touch(&t, "event2", NULL);
	settle(l);
	assert_int_equal(got.added, 2);
	assert_true(got.nlog >= 1);
	assert_int_equal(got.last_log_err, EACCES);
	assert_non_null(strstr(ut_evdev_live_last_error(l), "event2"));
	assert_non_null(strstr(ut_evdev_live_last_error(l), strerror(EACCES)));
	assert_int_equal(n2->opened, 0);
	/* ... until its permissions change */
	n2->fail = 0;
	snprintf(path, sizeof(path), "%s/event2", t.path);
	assert_int_equal(chmod(path, 0600), 0);
	settle(l);
	assert_int_equal(got.added, 3);
	assert_int_equal(n2->opened, 1);
	assert_int_equal(ut_evdev_live_num_devices(l), 2);
	/* a second attribute change does not open it twice */
	assert_int_equal(chmod(path, 0644), 0);
	settle(l);
	assert_int_equal(n2->opened, 1);
	assert_int_equal(got.added, 3);

	/* a keyboard is opened, looked at and closed again */
	tmpdir_touch(&t, "event3", NULL);
	settle(l);
	assert_int_equal(n3->opened, 1);
	assert_int_equal(n3->closed, 1);
	assert_int_equal(got.added, 3);

	ut_evdev_live_destroy(l);
	assert_int_equal(got.removed, 3);
	assert_int_equal(n0->closed, 1);
	assert_int_equal(n2->closed, 1);
	assert_int_equal(f.close_calls, 4);
	fake_release(&f);
	assert_int_equal(count_fds(), fds0);
	tmpdir_remove(&t);
	libevdev_free(kbd);
	ut_recording_free(ts);
	ut_recording_free(tp);
	sink_free(&got);
	sink_free(&want);
	(void)state;
}

/* The default opener on files that are not evdev nodes: skipped, the
 * reason recorded, nothing leaked. */
static void
test_default_open_non_evdev(void **state)
{
	struct sink got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	int fds0 = count_fds();
	char path[512];

	tmpdir_make(&t);
	tmpdir_touch(&t, "event0", "this is not a device\n");
	snprintf(path, sizeof(path), "%s/event1", t.path);
	assert_int_equal(mkfifo(path, 0600), 0);  /* opening never blocks */
	l = new_live(&t, &got, NULL, NULL, 1);
	assert_int_equal(ut_evdev_live_num_devices(l), 0);
	assert_int_equal(got.added, 0);
	assert_int_equal(got.nlog, 2);
	assert_int_equal(got.last_log_err, ENOTTY);
	assert_non_null(strstr(ut_evdev_live_last_error(l), "event1"));
	assert_non_null(strstr(ut_evdev_live_last_error(l), "not an evdev device"));
	assert_int_equal(count_fds(), fds0 + 2); /* epoll + inotify */

	/* the same for one that appears later */
	tmpdir_touch(&t, "event2", "x");
	settle(l);
	assert_int_equal(got.nlog, 3);
	assert_non_null(strstr(ut_evdev_live_last_error(l), "event2"));
	assert_int_equal(ut_evdev_live_num_devices(l), 0);
	assert_int_equal(count_fds(), fds0 + 2);
	ut_evdev_live_destroy(l);
	assert_int_equal(count_fds(), fds0);
	tmpdir_remove(&t);
	sink_free(&got);
	(void)state;
}

/* config save_path: each device's events are saved as an evemu recording
 * that loads back with the same capabilities and events; a second device
 * goes to PATH-2.EXT; an unwritable path is reported and changes nothing
 * else. */
static void
test_save(void **state)
{
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	struct ut_recording *tp = ut_test_load_recording("touchpad/pinch-2.evemu");
	struct ut_recording *back = NULL, *back2 = NULL;
	struct sink got = { 0 };
	struct tmpdir t;
	struct ut_evdev_live *l;
	char save[512], save2[512], err[512];
	int p[2], q[2];

	tmpdir_make(&t);
	snprintf(save, sizeof(save), "%s/saved.evemu", t.path);
	snprintf(save2, sizeof(save2), "%s/saved-2.evemu", t.path);
	struct ut_evdev_live_config cfg = { .dir = t.path, .save_path = save };
	l = ut_evdev_live_new(&cfg, &callbacks, &got);
	assert_non_null(l);
	got.live = l;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(q), 0);
	assert_non_null(ut_evdev_live_add_fd(l, p[0], rec->dev, NULL));
	assert_non_null(ut_evdev_live_add_fd(l, q[0], tp->dev, NULL));
	feed(l, p[1], rec, 0, rec->nevents);
	feed(l, q[1], tp, 0, tp->nevents / 2);
	/* complete up to the last report while the program still runs */
	assert_int_equal(ut_recording_load(save2, NULL, &back2, err, sizeof(err)), 0);
	assert_true(back2->nevents > 0 && back2->nevents <= tp->nevents / 2);
	ut_recording_free(back2);
	back2 = NULL;
	feed(l, q[1], tp, tp->nevents / 2, tp->nevents);
	close(p[1]);
	close(q[1]);
	settle(l);
	ut_evdev_live_destroy(l);

	assert_int_equal(ut_recording_load(save, NULL, &back, err, sizeof(err)), 0);
	assert_int_equal(back->format, UT_RECORDING_EVEMU_2);
	assert_string_equal(libevdev_get_name(back->dev), libevdev_get_name(rec->dev));
	assert_int_equal(libevdev_get_id_vendor(back->dev), libevdev_get_id_vendor(rec->dev));
	assert_int_equal(libevdev_has_property(back->dev, INPUT_PROP_DIRECT), 1);
	for (unsigned int code = 0; code <= ABS_MAX; code++) {
		const struct input_absinfo *a = libevdev_get_abs_info(rec->dev, code);
		const struct input_absinfo *b = libevdev_get_abs_info(back->dev, code);

		assert_int_equal(a != NULL, b != NULL);
		if (a) {
			assert_int_equal(a->minimum, b->minimum);
			assert_int_equal(a->maximum, b->maximum);
			assert_int_equal(a->resolution, b->resolution);
		}
	}
	assert_int_equal(back->nevents, rec->nevents);
	for (size_t i = 0; i < rec->nevents; i++) {
		assert_int_equal(back->events[i].usec, rec->events[i].usec);
		assert_int_equal(back->events[i].type, rec->events[i].type);
		assert_int_equal(back->events[i].code, rec->events[i].code);
		assert_int_equal(back->events[i].value, rec->events[i].value);
	}
	assert_int_equal(ut_recording_load(save2, NULL, &back2, err, sizeof(err)), 0);
	assert_int_equal(back2->nevents, tp->nevents);
	assert_int_equal(libevdev_has_property(back2->dev, INPUT_PROP_DIRECT), 0);
	ut_recording_free(back);
	ut_recording_free(back2);

	/* a path that cannot be written: reported, the device still works */
	struct sink bad = { 0 };
	snprintf(save, sizeof(save), "%s/no-such-dir/saved.evemu", t.path);
	l = ut_evdev_live_new(&cfg, &callbacks, &bad);
	assert_non_null(l);
	bad.live = l;
	assert_int_equal(pipe(p), 0);
	assert_non_null(ut_evdev_live_add_fd(l, p[0], rec->dev, NULL));
	assert_int_equal(bad.nlog, 1);
	assert_int_equal(bad.last_log_err, ENOENT);
	assert_non_null(strstr(ut_evdev_live_last_error(l), "cannot save"));
	feed(l, p[1], rec, 0, rec->nevents);
	assert_true(bad.n > 10);
	close(p[1]);
	settle(l);
	ut_evdev_live_destroy(l);

	tmpdir_remove(&t);
	ut_recording_free(rec);
	ut_recording_free(tp);
	sink_free(&got);
	sink_free(&bad);
	(void)state;
}

static void
test_clock(void **state)
{
	uint64_t a = ut_evdev_live_now_ms();
	uint64_t b = ut_evdev_live_now_ms();
	struct timespec ts;

	uint64_t c;

	assert_true(b >= a);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c = (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
	assert_true(c >= b);
	assert_true(c - b < 2000);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_recording_touchscreen_b),
		cmocka_unit_test(test_recording_touchscreen_a),
		cmocka_unit_test(test_recording_touchpad),
		cmocka_unit_test(test_recording_many_touches),
		cmocka_unit_test(test_eof_ends_touches_b),
		cmocka_unit_test(test_eof_ends_touches_a),
		cmocka_unit_test(test_remove_and_destroy_end_touches),
		cmocka_unit_test(test_remove_from_callback),
		cmocka_unit_test(test_remove_in_device_added),
		cmocka_unit_test(test_epoll_readiness),
		cmocka_unit_test(test_syn_dropped_stream),
		cmocka_unit_test(test_hotplug),
		cmocka_unit_test(test_default_open_non_evdev),
		cmocka_unit_test(test_save),
		cmocka_unit_test(test_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
