/*
 * Evdev nodes without a kernel (fake-evdev.h).
 */
#include "fake-evdev.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/input.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

struct fe_device fe_devices[FE_MAX];

void
fe_reset(void)
{
	memset(fe_devices, 0, sizeof(fe_devices));
	for (int i = 0; i < FE_MAX; i++)
		fe_devices[i].fd = -1;
}

struct fe_device *
fe_add(int fd, const char *path, const struct libevdev *caps)
{
	for (int i = 0; i < FE_MAX; i++) {
		struct fe_device *f = &fe_devices[i];

		if (f->caps)
			continue;
		memset(f, 0, sizeof(*f));
		f->fd = path ? -1 : fd;
		snprintf(f->path, sizeof(f->path), "%s", path ? path : "");
		f->caps = caps;
		for (int s = 0; s < FE_SLOTS; s++)
			f->tracking[s] = -1;
		return f;
	}
	return NULL;
}

/* the file @p fd is open on matches @p path */
static int
open_on(int fd, const char *path)
{
	char link[64], target[PATH_MAX];

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	return strcmp(target, path) == 0;
}

struct fe_device *
fe_of(int fd)
{
	if (fd < 0)
		return NULL;
	for (int i = 0; i < FE_MAX; i++) {
		struct fe_device *f = &fe_devices[i];

		if (f->caps && (*f->path ? open_on(fd, f->path) : f->fd == fd))
			return f;
	}
	return NULL;
}

static void
set_bit(void *buf, size_t size, unsigned int bit)
{
	if (bit / 8 < size)
		((unsigned char *)buf)[bit / 8] |= (unsigned char)(1u << (bit % 8));
}

static int32_t
slot_value(const struct fe_device *f, int slot, unsigned int code)
{
	if (slot < 0 || slot >= FE_SLOTS)
		return 0;
	switch (code) {
	case ABS_MT_TRACKING_ID: return f->tracking[slot];
	case ABS_MT_POSITION_X: return f->x[slot];
	case ABS_MT_POSITION_Y: return f->y[slot];
	default: return 0;
	}
}

static int
answer(struct fe_device *f, unsigned long req, void *arg)
{
	unsigned int nr = _IOC_NR(req);
	size_t size = _IOC_SIZE(req);

	if (_IOC_TYPE(req) != 'E') {
		errno = ENOTTY;
		return -1;
	}
	if (req == EVIOCGRAB) {
		f->grab_calls++;
		if (f->fail_grab) {
			errno = f->fail_grab;
			return -1;
		}
		f->grab = (int)(intptr_t)arg;
		return 0;
	}
	if (req == EVIOCSCLOCKID) {
		f->clock_calls++;
		f->clock = *(const int *)arg;
		return 0;
	}
	if (req == EVIOCGVERSION) {
		*(int *)arg = 0x010001;
		return 0;
	}
	if (req == EVIOCGID) {
		struct input_id *id = arg;

		id->bustype = (uint16_t)libevdev_get_id_bustype(f->caps);
		id->vendor = (uint16_t)libevdev_get_id_vendor(f->caps);
		id->product = (uint16_t)libevdev_get_id_product(f->caps);
		id->version = (uint16_t)libevdev_get_id_version(f->caps);
		return 0;
	}
	if (_IOC_DIR(req) != _IOC_READ) {
		errno = EINVAL;
		return -1;
	}
	if (nr == 0x06) { /* EVIOCGNAME */
		const char *name = libevdev_get_name(f->caps);
		size_t n = strlen(name) + 1;

		if (n > size)
			n = size;
		memcpy(arg, name, n);
		return (int)n;
	}
	if (nr == 0x07 || nr == 0x08) { /* EVIOCGPHYS, EVIOCGUNIQ */
		errno = ENOENT;
		return -1;
	}
	if (nr == 0x09) { /* EVIOCGPROP */
		memset(arg, 0, size);
		for (unsigned int p = 0; p <= INPUT_PROP_MAX; p++)
			if (libevdev_has_property(f->caps, p))
				set_bit(arg, size, p);
		return (int)size;
	}
	if (nr == 0x0a) { /* EVIOCGMTSLOTS */
		uint32_t code;
		int32_t *values = (int32_t *)arg + 1;
		size_t n = size / sizeof(int32_t) - 1;

		f->mtslots_calls++;
		memcpy(&code, arg, sizeof(code));
		for (size_t s = 0; s < n; s++)
			values[s] = (int)s < FE_SLOTS ? slot_value(f, (int)s, code) : 0;
		return 0;
	}
	if (nr >= 0x18 && nr <= 0x1b) { /* EVIOCGKEY, LED, SND, SW */
		memset(arg, 0, size);
		return (int)size;
	}
	if (nr >= 0x20 && nr < 0x40) { /* EVIOCGBIT */
		unsigned int type = nr - 0x20;

		memset(arg, 0, size);
		if (type == 0) {
			for (unsigned int t = 0; t <= EV_MAX; t++)
				if (libevdev_has_event_type(f->caps, t))
					set_bit(arg, size, t);
		} else if (type <= EV_MAX && libevdev_has_event_type(f->caps, type)) {
			int max = libevdev_event_type_get_max(type);

			for (int c = 0; c <= max; c++)
				if (libevdev_has_event_code(f->caps, type, (unsigned int)c))
					set_bit(arg, size, (unsigned int)c);
		}
		return (int)size;
	}
	if (nr >= 0x40 && nr < 0x40 + ABS_CNT) { /* EVIOCGABS */
		unsigned int code = nr - 0x40;
		const struct input_absinfo *a = libevdev_get_abs_info(f->caps, code);
		struct input_absinfo *out = arg;

		if (!a) {
			errno = EINVAL;
			return -1;
		}
		*out = *a;
		if (code == ABS_MT_SLOT)
			out->value = f->cur_slot;
		else if (code >= ABS_MT_TOUCH_MAJOR)
			out->value = slot_value(f, f->cur_slot, code);
		else
			out->value = 0;
		return 0;
	}
	errno = EINVAL;
	return -1;
}


int
fe_try_ioctl(int fd, unsigned long req, void *arg, int *rc)
{
	struct fe_device *f = fe_of(fd);

	if (!f)
		return 0;
	*rc = answer(f, req, arg);
	return 1;
}

/* descriptors open on @p path (NULL: all of this process's) */
int
fe_open_fds(const char *path)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char link[300], target[PATH_MAX];

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		ssize_t len = readlink(link, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		n += !path || strcmp(target, path) == 0;
	}
	closedir(d);
	return n - (path ? 0 : 1);   /* not the directory stream itself */
}

/* another process that has @p path open (what holds a grab, as far as
 * /proc can tell) */
pid_t
fe_hold_open(const char *path)
{
	int ready[2];

	assert_int_equal(pipe(ready), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(path, O_RDWR | O_NONBLOCK);
		char c = fd >= 0 ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	char c = 0;
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	assert_int_equal(c, 'y');
	return pid;
}


void
fe_hold_stop(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
	}
	*pid = 0;
}

void
fe_fifo_open(struct fe_fifo *f, size_t n, const char *dir, const struct libevdev *caps)
{
	for (size_t i = 0; i < n; i++) {
		snprintf(f[i].path, sizeof(f[i].path), "%s/event%zu", dir, i);
		assert_int_equal(mkfifo(f[i].path, 0600), 0);
		f[i].wfd = open(f[i].path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		assert_true(f[i].wfd >= 0);
		f[i].dev = fe_add(-1, f[i].path, caps);
		assert_non_null(f[i].dev);
	}
}

void
fe_fifo_close(struct fe_fifo *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (f[i].wfd >= 0)
			close(f[i].wfd);
		f[i].wfd = -1;
		unlink(f[i].path);
	}
}

/* (fake-evdev.h) reads of an unplugged fake node fail with ENODEV */
__attribute__((visibility("default")))
ssize_t
read(int fd, void *buf, size_t count)
{
	static ssize_t (*real)(int, void *, size_t);
	struct fe_device *f = fe_of(fd);

	if (f && f->unplugged) {
		errno = ENODEV;
		return -1;
	}
	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	return real(fd, buf, count);
}
