/*
 * Live evdev touch devices -> frame events.  See evdev-live.h and
 * doc/evdev-live.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>

#include "geis/evdev-live.h"
#include "util/array.h"
#include "util/clock.h"
#include "util/list.h"
#include "util/log.h"
#include "input/evdev/evstream.h"
#include "input/evdev/framer.h"
#include "input/recording/recording.h"

#define DEFAULT_DIR "/dev/input"
#define OPEN_FLAGS (O_RDONLY | O_NONBLOCK | O_CLOEXEC)
#define RAW_BATCH 64          /* input_events per read() of a raw stream */
#define RAW_READS 16          /* read()s per dispatch before yielding */
#define EPOLL_BATCH 16

enum dev_kind {
	KIND_EVDEV,   /* a real node read through libevdev */
	KIND_RAW,     /* a stream of struct input_event */
};

struct ut_evdev_live_device {
	struct ut_evdev_live *owner;
	struct ut_list link;        /* owner's devices, or dead once removed */
	char *path;                 /* NULL for add_fd streams */
	char *name;
	int fd;
	int restricted;             /* fd came from open_restricted */
	enum dev_kind kind;
	struct libevdev *evdev;     /* KIND_EVDEV: bound to fd */
	struct libevdev *caps;      /* the capabilities (== evdev for EVDEV) */
	struct ut_evstream *stream;
	UFBackendDevice bdev;

	/* slot tracking of what was pushed into the stream (protocol B), so
	 * that active touches can be ended */
	int cur_slot;
	int32_t tracking[UT_EVSTREAM_MAX_SLOTS];

	uint64_t last_usec;         /* time of the last event pushed */
	int have_time;
	int warned_contacts;        /* told about an oversized protocol A report */
	int grabbed;                /* we hold its EVIOCGRAB */
	int dropping;               /* raw: skip events up to a SYN_REPORT */

	unsigned char buf[sizeof(struct input_event)];
	size_t buflen;              /* bytes of a partial event in buf */

	int dead;                   /* removed; freed at the end of dispatch */
	int remove_requested;       /* removal asked from a callback */
	FILE *save;                 /* config save_path: its evemu recording */
};

struct ut_evdev_live {
	char *dir;
	const struct utouch_geis_open_interface *iface;
	void *iface_data;
	const struct libevdev *(*caps_for_path)(const char *, void *);
	int grab;
	char *skip_suffix;
	int hotplug;
	double screen_w, screen_h;
	int split_begins;
	float window_res;
	char *save_path;               /* config save_path */
	unsigned int nsaved;           /* devices saved so far */

	struct ut_evdev_live_callbacks cb;
	void *data;

	int epfd;
	int inofd;
	struct ut_list devices;        /* in order of adding */
	struct ut_list dead;           /* removed, not yet freed */
	int in_callback;
	int in_dispatch;
	int pending_removals;
	char error[512];
	struct ut_log log;             /* domain "evdev" */
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

uint64_t
ut_evdev_live_now_ms(void)
{
	return ut_mono_ms();
}

__attribute__((format(printf, 4, 5)))
static void
report(struct ut_evdev_live *l, const char *path, int err, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (err)
		snprintf(l->error, sizeof(l->error), "%s: %s: %s",
			 path ? path : "(stream)", msg, strerror(err));
	else
		snprintf(l->error, sizeof(l->error), "%s: %s",
			 path ? path : "(stream)", msg);
	/* the owner of a log callback reports it (geis: its error stack and
	 * log handler), so that each problem is logged once */
	if (!l->cb.log)
		ut_log(&l->log, UT_LOG_WARNING, "%s", l->error);
	if (l->cb.log) {
		l->in_callback++;
		l->cb.log(l->data, path, err, l->error);
		l->in_callback--;
	}
}

/* A DeviceAdded or DeviceRemoved event of @p d to the frame_event callback. */
static void
device_event(struct ut_evdev_live *l, struct ut_evdev_live_device *d, UFEventType type,
	     uint64_t time_ms)
{
	UFEvent ev;

	if (utouch_frame_device_event_new(d->bdev, type, time_ms, &ev) != UFStatusSuccess) {
		report(l, d->path, ENOMEM, "device event lost");
		return;
	}
	if (l->cb.frame_event) {
		l->in_callback++;
		l->cb.frame_event(l->data, ev);
		l->in_callback--;
	}
	frame_event_unref(ev);
}

static void
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0 && !(fl & O_NONBLOCK))
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void
close_fd(struct ut_evdev_live *l, int fd, int restricted)
{
	if (fd < 0)
		return;
	if (restricted)
		l->iface->close_restricted(fd, l->iface_data);
	else
		close(fd);
}

static int
is_touch(const struct libevdev *caps)
{
	return libevdev_has_event_code(caps, EV_ABS, ABS_MT_POSITION_X) &&
	       libevdev_has_event_code(caps, EV_ABS, ABS_MT_POSITION_Y);
}

/* A libevdev context without descriptor holding the capabilities of
 * @p src: name, ids, properties, event codes and axis ranges. */
static struct libevdev *
caps_copy(const struct libevdev *src)
{
	struct libevdev *d = libevdev_new();

	if (!d)
		return NULL;
	libevdev_set_name(d, libevdev_get_name(src) ? libevdev_get_name(src) : "");
	libevdev_set_id_bustype(d, libevdev_get_id_bustype(src));
	libevdev_set_id_vendor(d, libevdev_get_id_vendor(src));
	libevdev_set_id_product(d, libevdev_get_id_product(src));
	libevdev_set_id_version(d, libevdev_get_id_version(src));
	for (unsigned int p = 0; p <= INPUT_PROP_MAX; p++)
		if (libevdev_has_property(src, p) &&
		    libevdev_enable_property(d, p) != 0)
			goto fail;
	for (unsigned int t = 1; t <= EV_MAX; t++) {
		int max;

		if (!libevdev_has_event_type(src, t))
			continue;
		if (libevdev_enable_event_type(d, t) != 0)
			goto fail;
		max = libevdev_event_type_get_max(t);
		for (int c = 0; c <= max; c++) {
			const void *extra = NULL;
			int rep = 0;

			if (!libevdev_has_event_code(src, t, (unsigned int)c))
				continue;
			if (t == EV_ABS)
				extra = libevdev_get_abs_info(src, (unsigned int)c);
			else if (t == EV_REP) {
				libevdev_get_repeat(src, c == REP_DELAY ? &rep : NULL,
						    c == REP_PERIOD ? &rep : NULL);
				extra = &rep;
			}
			if (libevdev_enable_event_code(d, t, (unsigned int)c, extra) != 0)
				goto fail;
		}
	}
	return d;
fail:
	libevdev_free(d);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Events -> stream -> frames                                          */

static void
on_frame(void *data, uint64_t usec, const struct ut_touch_op *ops, size_t nops)
{
	struct ut_evdev_live_device *d = data;
	struct ut_evdev_live *l = d->owner;

	if (!l->cb.frame_ops)
		return;
	l->in_callback++;
	l->cb.frame_ops(l->data, d, usec / 1000, ops, nops);
	l->in_callback--;
}

/* ------------------------------------------------------------------ */
/* Saving what a device sends (config save_path)                       */

/* The file of the @p n-th device saved (0: the first): PATH itself, then
 * PATH with "-2", "-3", ... before its extension. */
static char *
save_name(const char *path, unsigned int n)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	char *out;

	if (n == 0)
		return strdup(path);
	if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
		dot = path + strlen(path);
	if (asprintf(&out, "%.*s-%u%s", (int)(dot - path), path, n + 1, dot) < 0)
		return NULL;
	return out;
}

static void
save_start(struct ut_evdev_live *l, struct ut_evdev_live_device *d)
{
	char *name = save_name(l->save_path, l->nsaved);
	char comment[256];
	int fd;

	if (!name) {
		report(l, d->path, ENOMEM, "cannot save %s: out of memory", d->name);
		return;
	}
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	d->save = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!d->save) {
		report(l, d->path, errno, "cannot save %s to %s: %s", d->name, name,
		       strerror(errno));
		if (fd >= 0)
			close(fd);
		free(name);
		return;
	}
	snprintf(comment, sizeof(comment), "saved by utouch from %s", d->path ? d->path : d->name);
	if (ut_evemu_write_device(d->save, d->caps, comment) < 0) {
		report(l, d->path, EIO, "cannot write to %s", name);
		fclose(d->save);
		d->save = NULL;
	} else {
		l->nsaved++;
	}
	free(name);
}

static void
save_event(struct ut_evdev_live_device *d, const struct input_event *ev)
{
	if (ut_evemu_write_event(d->save, ut_input_event_usec(ev), ev->type, ev->code,
				 ev->value) < 0 ||
	    (ev->type == EV_SYN && ev->code == SYN_REPORT && fflush(d->save) != 0)) {
		report(d->owner, d->path, EIO, "writing the saved recording of %s failed; "
		       "saving stops", d->name);
		fclose(d->save);
		d->save = NULL;
	}
}

/* Every event reaches the stream through here, so that the slot state of
 * the stream is known. */
static void
push(struct ut_evdev_live_device *d, const struct input_event *ev)
{
	unsigned long dropped;

	if (ev->type == EV_ABS && d->stream &&
	    ut_evstream_protocol(d->stream) == 'B') {
		if (ev->code == ABS_MT_SLOT)
			d->cur_slot = ev->value >= 0 &&
				      ev->value < UT_EVSTREAM_MAX_SLOTS ? ev->value : -1;
		else if (ev->code == ABS_MT_TRACKING_ID && d->cur_slot >= 0)
			d->tracking[d->cur_slot] = ev->value < 0 ? -1 : ev->value;
	}
	d->last_usec = ut_input_event_usec(ev);
	d->have_time = 1;
	if (d->save)
		save_event(d, ev);
	dropped = ut_evstream_dropped(d->stream);
	ut_evstream_push(d->stream, ev);
	if (ut_evstream_dropped(d->stream) > dropped && !d->warned_contacts) {
		d->warned_contacts = 1;
		report(d->owner, d->path, 0,
		       "a protocol A report lists more than %d contacts; the rest are left out",
		       ut_evstream_max_contacts(d->stream));
	}
	if (d->owner->cb.raw_event) {
		d->owner->in_callback++;
		d->owner->cb.raw_event(d->owner->data, d, ev);
		d->owner->in_callback--;
	}
}

static void
push3(struct ut_evdev_live_device *d, uint64_t usec, uint16_t type,
      uint16_t code, int32_t value)
{
	struct input_event ev;

	memset(&ev, 0, sizeof(ev));
	ut_input_event_set_usec(&ev, usec);
	ev.type = type;
	ev.code = code;
	ev.value = value;
	push(d, &ev);
}

/* The time synthetic events of a device get: its own clock for streams,
 * the monotonic clock (never before the last event) for real nodes. */
static uint64_t
device_usec(const struct ut_evdev_live_device *d)
{
	uint64_t now;

	if (d->kind == KIND_RAW && d->have_time)
		return d->last_usec;
	now = ut_mono_us();
	return d->have_time && d->last_usec > now ? d->last_usec : now;
}

/* End every touch the stream holds, whatever state it is in. */
static void
end_all_touches(struct ut_evdev_live_device *d, uint64_t usec)
{
	if (!d->stream)
		return;
	ut_evstream_end_all(d->stream, usec);
	for (int i = 0; i < UT_EVSTREAM_MAX_SLOTS; i++)
		d->tracking[i] = -1;
	d->last_usec = usec;
	d->have_time = 1;
}

/* A real node opened while fingers are down: announce the touches the
 * kernel already has, and start at its current slot. */
static void
replay_initial_state(struct ut_evdev_live_device *d)
{
	uint64_t usec = ut_mono_us();
	int nslots = libevdev_get_num_slots(d->evdev);
	int any = 0;

	if (ut_evstream_protocol(d->stream) != 'B' || nslots <= 0)
		return;
	if (nslots > UT_EVSTREAM_MAX_SLOTS)
		nslots = UT_EVSTREAM_MAX_SLOTS;
	for (int s = 0; s < nslots; s++) {
		int id = libevdev_get_slot_value(d->evdev, (unsigned int)s,
						 ABS_MT_TRACKING_ID);

		if (id < 0)
			continue;
		any = 1;
		push3(d, usec, EV_ABS, ABS_MT_SLOT, s);
		push3(d, usec, EV_ABS, ABS_MT_TRACKING_ID, id);
		for (unsigned int c = ABS_MT_TOUCH_MAJOR; c <= ABS_MT_TOOL_Y; c++) {
			if (c == ABS_MT_SLOT || c == ABS_MT_TRACKING_ID ||
			    !libevdev_has_event_code(d->evdev, EV_ABS, c))
				continue;
			push3(d, usec, EV_ABS, (uint16_t)c,
			      libevdev_get_slot_value(d->evdev, (unsigned int)s, c));
		}
	}
	if (any)
		push3(d, usec, EV_SYN, SYN_REPORT, 0);
	push3(d, usec, EV_ABS, ABS_MT_SLOT, libevdev_get_current_slot(d->evdev));
	d->have_time = 0;
}

/* ------------------------------------------------------------------ */
/* Devices                                                             */

static void
device_free(struct ut_evdev_live_device *d)
{
	if (d->save)
		fclose(d->save);
	ut_evstream_destroy(d->stream);
	frame_backend_device_delete(d->bdev);
	if (d->caps != d->evdev)
		libevdev_free(d->caps);
	libevdev_free(d->evdev);
	free(d->path);
	free(d->name);
	free(d);
}

static struct ut_evdev_live_device *
device_of(struct ut_list *link)
{
	return ut_container_of(link, struct ut_evdev_live_device, link);
}

/* Whether @p d is one of @p l's devices in service. */
static int
device_listed(const struct ut_evdev_live *l, const struct ut_evdev_live_device *d)
{
	ut_list_for_each(pos, &l->devices) {
		if (device_of(pos) == d)
			return 1;
	}
	return 0;
}

/* Take a device out of service: end its touches, report it, close it.
 * Its memory stays until reap() so that epoll events already fetched for
 * it can be skipped safely. */
static void
device_remove(struct ut_evdev_live *l, struct ut_evdev_live_device *d)
{
	if (d->dead)
		return;
	if (l->in_callback) {
		if (!d->remove_requested)
			l->pending_removals++;
		d->remove_requested = 1;
		return;
	}
	if (d->remove_requested) {
		d->remove_requested = 0;
		l->pending_removals--;
	}
	d->dead = 1;
	end_all_touches(d, device_usec(d));
	device_event(l, d, UFEventTypeDeviceRemoved, device_usec(d) / 1000);
	if (l->cb.device_removed) {
		l->in_callback++;
		l->cb.device_removed(l->data, d,
				     frame_backend_device_get_device(d->bdev));
		l->in_callback--;
	}
	if (d->fd >= 0) {
		epoll_ctl(l->epfd, EPOLL_CTL_DEL, d->fd, NULL);
		if (d->evdev && d->grabbed && d->kind == KIND_EVDEV)
			libevdev_grab(d->evdev, LIBEVDEV_UNGRAB);
		close_fd(l, d->fd, d->restricted);
		d->fd = -1;
	}
	ut_list_remove(&d->link);
	ut_list_insert_after(&l->dead, &d->link);
}

static void
reap(struct ut_evdev_live *l)
{
	ut_list_for_each_safe(pos, tmp, &l->dead) {
		ut_list_remove(pos);
		device_free(device_of(pos));
	}
}

/* Removals asked for from inside callbacks. */
static void
run_pending_removals(struct ut_evdev_live *l)
{
	while (l->pending_removals > 0 && !l->in_callback) {
		struct ut_evdev_live_device *d = NULL;

		ut_list_for_each(pos, &l->devices) {
			if (device_of(pos)->remove_requested) {
				d = device_of(pos);
				break;
			}
		}
		if (!d) {
			l->pending_removals = 0;
			break;
		}
		device_remove(l, d);
	}
}

/*
 * Set up a device around an open descriptor.  @p evdev (bound to @p fd) is
 * used when given; otherwise @p caps is copied and the descriptor is read
 * as a raw stream.  On failure the descriptor is closed and NULL returned
 * with errno set.
 */
static struct ut_evdev_live_device *
device_new(struct ut_evdev_live *l, int fd, int restricted, const char *path,
	   struct libevdev *evdev, const struct libevdev *caps, const char *name)
{
	struct ut_evstream_opts sopts = {
		.own = UT_OWN_BEGIN,
		.direct = -1,
		.split_begins = l->split_begins,
		.screen_w = l->screen_w,
		.screen_h = l->screen_h,
	};
	struct ut_device_opts dopts;
	struct ut_evdev_live_device *d = calloc(1, sizeof(*d));
	struct epoll_event ee;
	int err = ENOMEM;

	if (!d) {
		libevdev_free(evdev);
		close_fd(l, fd, restricted);
		errno = ENOMEM;
		return NULL;
	}
	d->owner = l;
	ut_list_init(&d->link);
	d->fd = fd;
	d->restricted = restricted;
	d->cur_slot = 0;
	for (int i = 0; i < UT_EVSTREAM_MAX_SLOTS; i++)
		d->tracking[i] = -1;
	if (evdev) {
		d->kind = KIND_EVDEV;
		d->evdev = evdev;
		d->caps = evdev;
	} else {
		d->kind = KIND_RAW;
		d->caps = caps_copy(caps);
		if (!d->caps)
			goto fail;
	}
	if (path && !(d->path = strdup(path)))
		goto fail;
	if (!name || !*name)
		name = libevdev_get_name(d->caps);
	d->name = strdup(name && *name ? name : "utouch device");
	if (!d->name)
		goto fail;

	d->stream = ut_evstream_new(d->caps, &sopts, on_frame, d);
	if (!d->stream) {
		err = errno;
		goto fail;
	}
	dopts.name = d->name;
	dopts.direct = ut_evstream_is_direct(d->stream);
	dopts.window_res = l->window_res;
	d->bdev = ut_framer_device_new(d->caps, &dopts);
	if (!d->bdev)
		goto fail;

	memset(&ee, 0, sizeof(ee));
	ee.events = EPOLLIN;
	ee.data.ptr = d;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &ee) != 0) {
		err = errno;
		goto fail;
	}

	if (l->save_path)
		save_start(l, d);

	/* append: devices stay in the order they were added */
	ut_list_insert_before(&l->devices, &d->link);
	if (l->cb.device_added) {
		l->in_callback++;
		l->cb.device_added(l->data, d, frame_backend_device_get_device(d->bdev));
		l->in_callback--;
	}
	device_event(l, d, UFEventTypeDeviceAdded, ut_evdev_live_now_ms());
	if (d->kind == KIND_EVDEV)
		replay_initial_state(d);
	return d;

fail:
	close_fd(l, fd, restricted);
	d->fd = -1;
	device_free(d);
	errno = err;
	return NULL;
}

static struct ut_evdev_live_device *
find_path(struct ut_evdev_live *l, const char *path)
{
	ut_list_for_each(pos, &l->devices) {
		struct ut_evdev_live_device *d = device_of(pos);

		if (d->path && strcmp(d->path, path) == 0 && !d->dead)
			return d;
	}
	return NULL;
}

/* A device a touch proxy made (its name ends in the skip suffix). */
static int
is_skipped(const struct ut_evdev_live *l, const struct libevdev *caps)
{
	const char *name = libevdev_get_name(caps);
	size_t n = name ? strlen(name) : 0, s = l->skip_suffix ? strlen(l->skip_suffix) : 0;

	return s > 0 && n >= s && strcmp(name + n - s, l->skip_suffix) == 0;
}

/* "evtest (pid 812), touchegg (pid 901)": the processes of this user
 * that have @p path open, found in /proc (the kernel does not say who
 * holds a grab; one of these does). */
static void
holders(const char *path, char *buf, size_t size)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	size_t len = 0;

	buf[0] = '\0';
	if (!proc)
		return;
	while ((e = readdir(proc)) && len + 1 < size) {
		char dir[64], link[PATH_MAX], comm[64] = "?";
		int pid = atoi(e->d_name);

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
		DIR *fds = opendir(dir);
		struct dirent *f;
		int found = 0;

		if (!fds)
			continue;
		while (!found && (f = readdir(fds))) {
			char fdpath[64 + sizeof(f->d_name)];
			ssize_t n;

			snprintf(fdpath, sizeof(fdpath), "%s/%s", dir, f->d_name);
			n = readlink(fdpath, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = '\0';
			found = strcmp(link, path) == 0;
		}
		closedir(fds);
		if (!found)
			continue;
		snprintf(dir, sizeof(dir), "/proc/%d/comm", pid);
		FILE *fp = fopen(dir, "re");

		if (fp) {
			if (fgets(comm, sizeof(comm), fp))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(fp);
		}
		len += (size_t)snprintf(buf + len, size - len, "%s%s (pid %d)", len ? ", " : "",
					comm, pid);
	}
	closedir(proc);
}

static void
report_grab_failure(struct ut_evdev_live *l, const char *path, int err)
{
	char who[256];

	if (err != EBUSY) {
		report(l, path, err, "cannot grab");
		return;
	}
	holders(path, who, sizeof(who));
	report(l, path, EBUSY, "cannot grab: another program holds the device (%s%s), stop it "
	       "to let utouch have the device or leave the device to it",
	       *who ? "it is open in " : "not one of this user's", *who ? who : "");
}

/* Open a node and use it when it is a touch device. */
static void
open_path(struct ut_evdev_live *l, const char *path)
{
	struct libevdev *evdev = NULL;
	const struct libevdev *caps = NULL;
	int restricted = l->iface != NULL;
	int fd, rc;

	if (find_path(l, path))
		return;
	if (l->iface) {
		l->in_callback++;
		fd = l->iface->open_restricted(path, OPEN_FLAGS, l->iface_data);
		l->in_callback--;
		if (fd < 0) {
			if (fd > -4096)
				report(l, path, -fd, "cannot open");
			else
				report(l, path, EINVAL, "open_restricted returned %d", fd);
			return;
		}
	} else {
		fd = open(path, OPEN_FLAGS);
		if (fd < 0) {
			report(l, path, errno, "cannot open");
			return;
		}
	}
	set_nonblock(fd);

	rc = libevdev_new_from_fd(fd, &evdev);
	if (rc != 0) {
		evdev = NULL;
		if (l->caps_for_path) {
			l->in_callback++;
			caps = l->caps_for_path(path, l->iface_data);
			l->in_callback--;
		}
		if (!caps) {
			report(l, path, -rc, "not an evdev device");
			close_fd(l, fd, restricted);
			return;
		}
	}
	if (!is_touch(evdev ? evdev : caps) || is_skipped(l, evdev ? evdev : caps)) {
		/* keyboards, mice, ... are none of our business, nor are the
		 * clones of a touch proxy */
		libevdev_free(evdev);
		close_fd(l, fd, restricted);
		return;
	}
	int grabbed = 0;

	if (evdev) {
		if (libevdev_set_clock_id(evdev, CLOCK_MONOTONIC) != 0)
			report(l, path, 0, "cannot switch to CLOCK_MONOTONIC; "
			       "event times may use another clock");
		if (l->grab && (rc = libevdev_grab(evdev, LIBEVDEV_GRAB)) != 0)
			report_grab_failure(l, path, rc < 0 ? -rc : EBUSY);
		else
			grabbed = l->grab;
	}
	struct ut_evdev_live_device *d = device_new(l, fd, restricted, path, evdev, caps, NULL);

	if (!d)
		report(l, path, errno, "cannot set up the device");
	else
		d->grabbed = grabbed;
}

static int
is_event_name(const char *name)
{
	return strncmp(name, "event", 5) == 0;
}

static char *
join(const char *dir, const char *name)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

static int
cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Open every event node of the directory that is not open yet. */
static void
scan_dir(struct ut_evdev_live *l)
{
	DIR *dir = opendir(l->dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!dir) {
		report(l, l->dir, errno, "cannot read the directory");
		return;
	}
	while ((de = readdir(dir))) {
		if (!is_event_name(de->d_name))
			continue;
		if (!UT_ARRAY_RESERVE(names, cap, n + 1, 16))
			break;
		if (!(names[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(dir);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		char *path = join(l->dir, names[i]);

		if (path)
			open_path(l, path);
		free(path);
		free(names[i]);
	}
	free(names);
}

/* After an inotify overflow: drop devices whose node is gone, open new
 * ones. */
static void
rescan(struct ut_evdev_live *l)
{
	ut_list_for_each_safe(pos, tmp, &l->devices) {
		struct ut_evdev_live_device *d = device_of(pos);
		struct stat st;

		if (d->path && stat(d->path, &st) != 0 && errno == ENOENT)
			device_remove(l, d);
	}
	scan_dir(l);
}

static void
handle_inotify(struct ut_evdev_live *l)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));

	for (;;) {
		ssize_t len = read(l->inofd, buf, sizeof(buf));

		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			return;
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *ie = (const void *)p;

			p += sizeof(*ie) + ie->len;
			if (ie->mask & IN_Q_OVERFLOW) {
				rescan(l);
				continue;
			}
			if (!ie->len || !is_event_name(ie->name))
				continue;
			char *path = join(l->dir, ie->name);

			if (!path)
				continue;
			if (ie->mask & (IN_DELETE | IN_MOVED_FROM)) {
				struct ut_evdev_live_device *d = find_path(l, path);

				if (d)
					device_remove(l, d);
			} else if (ie->mask & (IN_CREATE | IN_ATTRIB | IN_MOVED_TO)) {
				open_path(l, path);
			}
			free(path);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */

static void
read_evdev(struct ut_evdev_live *l, struct ut_evdev_live_device *d)
{
	for (;;) {
		struct input_event ev;
		int rc = libevdev_next_event(d->evdev, LIBEVDEV_READ_FLAG_NORMAL, &ev);

		if (rc == LIBEVDEV_READ_STATUS_SUCCESS) {
			push(d, &ev);
		} else if (rc == LIBEVDEV_READ_STATUS_SYNC) {
			/* events were lost: libevdev hands out the difference
			 * between what we saw and the device's state now, ending
			 * touches that lifted meanwhile; the deltas are relative
			 * to everything already delivered, including an
			 * unfinished report */
			do {
				rc = libevdev_next_event(d->evdev,
							 LIBEVDEV_READ_FLAG_SYNC, &ev);
				if (rc == LIBEVDEV_READ_STATUS_SYNC)
					push(d, &ev);
			} while (rc == LIBEVDEV_READ_STATUS_SYNC);
			if (rc != -EAGAIN && rc < 0) {
				report(l, d->path, -rc, "read failed while resyncing");
				device_remove(l, d);
				return;
			}
		} else if (rc == -EAGAIN) {
			return;
		} else if (rc == -EINTR) {
			continue;
		} else {
			if (rc != -ENODEV)
				report(l, d->path, rc < 0 ? -rc : EIO, "read failed");
			device_remove(l, d);
			return;
		}
		if (d->dead || d->remove_requested)
			return;
	}
}

/* One event of a raw stream, with SYN_DROPPED handling: the stream cannot
 * be asked for its state, so every touch ends and the rest of the broken
 * report is skipped. */
static void
raw_event(struct ut_evdev_live_device *d, const struct input_event *ev)
{
	if (ev->type == EV_SYN && ev->code == SYN_DROPPED) {
		uint64_t usec = ut_input_event_usec(ev);

		end_all_touches(d, usec);
		d->dropping = 1;
		return;
	}
	if (d->dropping) {
		if (ev->type == EV_SYN && ev->code == SYN_REPORT)
			d->dropping = 0;
		return;
	}
	push(d, ev);
}

static void
read_raw(struct ut_evdev_live *l, struct ut_evdev_live_device *d)
{
	for (int n = 0; n < RAW_READS; n++) {
		struct input_event evs[RAW_BATCH];
		unsigned char *bytes = (unsigned char *)evs;
		size_t have = d->buflen;
		ssize_t len;

		memcpy(bytes, d->buf, have);
		len = read(d->fd, bytes + have, sizeof(evs) - have);
		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (len <= 0) {
			if (len < 0 && errno != ENODEV)
				report(l, d->path, errno, "read failed");
			device_remove(l, d);
			return;
		}
		have += (size_t)len;
		d->buflen = have % sizeof(struct input_event);
		memcpy(d->buf, bytes + have - d->buflen, d->buflen);
		for (size_t i = 0; i < have / sizeof(struct input_event); i++) {
			raw_event(d, &evs[i]);
			if (d->dead || d->remove_requested)
				return;
		}
	}
}

static void
handle_device(struct ut_evdev_live *l, struct ut_evdev_live_device *d,
	      uint32_t events)
{
	if (d->dead || d->remove_requested)
		return;
	if (d->kind == KIND_RAW) {
		/* a hang-up may come with data still buffered: only the end
		 * of file, seen by read(), ends a raw stream */
		read_raw(l, d);
		return;
	}
	read_evdev(l, d);
	/* an unplugged node reports a hang-up and fails reads with ENODEV;
	 * everything readable has been read by now */
	if (!d->dead && !d->remove_requested && (events & (EPOLLHUP | EPOLLERR)))
		device_remove(l, d);
}

/* ------------------------------------------------------------------ */
/* Context                                                             */

struct ut_evdev_live *
ut_evdev_live_new(const struct ut_evdev_live_config *cfg,
		  const struct ut_evdev_live_callbacks *cb, void *data)
{
	struct ut_evdev_live *l;
	int err;

	if (!cfg || !cb || (cfg->dir && !*cfg->dir) ||
	    (cfg->iface && (!cfg->iface->open_restricted ||
			    !cfg->iface->close_restricted)) ||
	    !isfinite(cfg->screen_w) || !isfinite(cfg->screen_h) ||
	    cfg->screen_w < 0 || cfg->screen_h < 0 ||
	    !isfinite(cfg->window_res) || cfg->window_res < 0) {
		errno = EINVAL;
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		errno = ENOMEM;
		return NULL;
	}
	ut_log_init(&l->log, "evdev");
	ut_list_init(&l->devices);
	ut_list_init(&l->dead);
	l->epfd = -1;
	l->inofd = -1;
	l->dir = strdup(cfg->dir ? cfg->dir : DEFAULT_DIR);
	if (!l->dir || (cfg->save_path && !(l->save_path = strdup(cfg->save_path)))) {
		err = ENOMEM;
		goto fail;
	}
	l->iface = cfg->iface;
	l->iface_data = cfg->iface_data;
	l->caps_for_path = cfg->caps_for_path;
	l->grab = cfg->grab;
	if (cfg->skip_name_suffix && !(l->skip_suffix = strdup(cfg->skip_name_suffix))) {
		err = ENOMEM;
		goto fail;
	}
	l->hotplug = cfg->hotplug;
	l->split_begins = cfg->split_begins;
	l->screen_w = cfg->screen_w > 0 ? cfg->screen_w : 1024;
	l->screen_h = cfg->screen_h > 0 ? cfg->screen_h : 768;
	l->window_res = cfg->window_res;
	l->cb = *cb;
	l->data = data;

	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (l->epfd < 0) {
		err = errno;
		goto fail;
	}
	if (l->hotplug) {
		struct epoll_event ee;

		l->inofd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (l->inofd < 0) {
			err = errno;
			goto fail;
		}
		memset(&ee, 0, sizeof(ee));
		ee.events = EPOLLIN;
		ee.data.ptr = NULL;
		if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->inofd, &ee) != 0) {
			err = errno;
			goto fail;
		}
		/* watch before scanning so that no node slips through */
		if (inotify_add_watch(l->inofd, l->dir,
				      IN_CREATE | IN_ATTRIB | IN_DELETE |
				      IN_MOVED_TO | IN_MOVED_FROM | IN_ONLYDIR) < 0)
			report(l, l->dir, errno, "cannot watch the directory");
	}
	scan_dir(l);
	run_pending_removals(l);
	reap(l);
	return l;

fail:
	if (l->inofd >= 0)
		close(l->inofd);
	if (l->epfd >= 0)
		close(l->epfd);
	free(l->dir);
	free(l->skip_suffix);
	free(l->save_path);
	free(l);
	errno = err;
	return NULL;
}

void
ut_evdev_live_destroy(struct ut_evdev_live *l)
{
	if (!l)
		return;
	l->in_callback = 0;
	while (!ut_list_empty(&l->devices))
		device_remove(l, device_of(l->devices.next));
	reap(l);
	if (l->inofd >= 0)
		close(l->inofd);
	close(l->epfd);
	free(l->dir);
	free(l->skip_suffix);
	free(l->save_path);
	free(l);
}

int
ut_evdev_live_get_fd(struct ut_evdev_live *l)
{
	return l ? l->epfd : -1;
}

int
ut_evdev_live_dispatch(struct ut_evdev_live *l)
{
	struct epoll_event evs[EPOLL_BATCH];
	int n;

	if (!l)
		return -EINVAL;
	if (l->in_callback || l->in_dispatch)
		return -EBUSY;
	do
		n = epoll_wait(l->epfd, evs, EPOLL_BATCH, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	l->in_dispatch = 1;
	for (int i = 0; i < n; i++) {
		if (!evs[i].data.ptr)
			handle_inotify(l);
		else
			handle_device(l, evs[i].data.ptr, evs[i].events);
		run_pending_removals(l);
	}
	l->in_dispatch = 0;
	reap(l);
	return 0;
}

struct ut_evdev_live_device *
ut_evdev_live_add_fd(struct ut_evdev_live *l, int fd,
		     const struct libevdev *caps, const char *name)
{
	struct ut_evdev_live_device *d;

	if (!l || !caps || fd < 0 || !is_touch(caps) || l->in_callback) {
		int err = l && caps && fd >= 0 && is_touch(caps) ? EBUSY : EINVAL;

		if (fd >= 0)
			close(fd);
		errno = err;
		return NULL;
	}
	set_nonblock(fd);
	d = device_new(l, fd, 0, NULL, NULL, caps, name);
	if (!d)
		return NULL;
	run_pending_removals(l);
	/* the device may have been removed by its own device_added */
	if (device_listed(l, d)) {
		reap(l);
		return d;
	}
	reap(l);
	errno = ENODEV;
	return NULL;
}

void
ut_evdev_live_remove_device(struct ut_evdev_live *l,
			    struct ut_evdev_live_device *dev)
{
	if (!l || !dev || !device_listed(l, dev))
		return;
	device_remove(l, dev);
	if (!l->in_callback && !l->in_dispatch)
		reap(l);
}

size_t
ut_evdev_live_num_devices(const struct ut_evdev_live *l)
{
	size_t n = 0;

	if (!l)
		return 0;
	ut_list_for_each(pos, &l->devices)
		n++;
	return n;
}

struct ut_evdev_live_device *
ut_evdev_live_get_device(const struct ut_evdev_live *l, size_t index)
{
	if (!l)
		return NULL;
	ut_list_for_each(pos, &l->devices) {
		if (index-- == 0)
			return device_of(pos);
	}
	return NULL;
}

const char *
ut_evdev_live_last_error(const struct ut_evdev_live *l)
{
	return l ? l->error : "";
}

const char *
ut_evdev_live_device_get_path(const struct ut_evdev_live_device *dev)
{
	return dev ? dev->path : NULL;
}

const char *
ut_evdev_live_device_get_name(const struct ut_evdev_live_device *dev)
{
	return dev ? dev->name : NULL;
}

UFDevice
ut_evdev_live_device_get_device(const struct ut_evdev_live_device *dev)
{
	return dev ? frame_backend_device_get_device(dev->bdev) : NULL;
}

UFBackendDevice
ut_evdev_live_device_get_backend_device(const struct ut_evdev_live_device *dev)
{
	return dev ? dev->bdev : NULL;
}

const struct libevdev *
ut_evdev_live_device_get_caps(const struct ut_evdev_live_device *dev)
{
	return dev ? dev->caps : NULL;
}

char
ut_evdev_live_device_get_protocol(const struct ut_evdev_live_device *dev)
{
	return dev ? ut_evstream_protocol(dev->stream) : 0;
}

int
ut_evdev_live_device_is_grabbed(const struct ut_evdev_live_device *dev)
{
	return dev && dev->grabbed;
}

int
ut_evdev_live_device_touches_down(const struct ut_evdev_live_device *dev)
{
	int n = 0;

	if (!dev || dev->dead || dev->kind != KIND_EVDEV || !dev->evdev)
		return 0;
	for (int s = 0; s < libevdev_get_num_slots(dev->evdev); s++)
		n += libevdev_get_slot_value(dev->evdev, (unsigned int)s,
					     ABS_MT_TRACKING_ID) >= 0;
	return n;
}

int
ut_evdev_live_device_grab(struct ut_evdev_live_device *dev, int on)
{
	int rc;

	if (!dev || dev->dead)
		return -EINVAL;
	if (dev->kind != KIND_EVDEV || !dev->evdev || dev->grabbed == !!on)
		return 0;
	rc = libevdev_grab(dev->evdev, on ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB);
	if (rc != 0) {
		rc = rc < 0 ? rc : -EBUSY;
		if (on)
			report_grab_failure(dev->owner, dev->path, -rc);
		return rc;
	}
	dev->grabbed = !!on;
	return 0;
}

int
ut_evdev_live_device_is_evdev(const struct ut_evdev_live_device *dev)
{
	return dev && dev->kind == KIND_EVDEV;
}
