/*
 * utouch-gestured: the uinput keyboard and pointer (gd-uinput.h).
 */
#include "gd-uinput.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/uinput.h>

#define ABS_RANGE 65535

struct gd_uinput {
	char *node;
	int kbd, ptr;         /* descriptors, -1 until made */
};

struct gd_uinput *
gd_uinput_new(const char *node)
{
	struct gd_uinput *u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->node = strdup(node ? node : "/dev/uinput");
	if (!u->node) {
		free(u);
		return NULL;
	}
	u->kbd = u->ptr = -1;
	return u;
}

void
gd_uinput_free(struct gd_uinput *u)
{
	if (!u)
		return;
	for (int i = 0; i < 2; i++) {
		int fd = i ? u->ptr : u->kbd;
		if (fd >= 0) {
			ioctl(fd, UI_DEV_DESTROY);
			close(fd);
		}
	}
	free(u->node);
	free(u);
}

/* Make a device: every key in [first, last], with absolute X and Y when
 * @p pointer. */
static int
make(struct gd_uinput *u, const char *name, int first, int last, int pointer, char *err,
     size_t errlen)
{
	int fd = open(u->node, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0)
		goto fail;
	for (int code = first; code <= last; code++)
		if (ioctl(fd, UI_SET_KEYBIT, code) < 0)
			goto fail;
	if (pointer) {
		if (ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0 || ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_POINTER) < 0)
			goto fail;
		for (int axis = ABS_X; axis <= ABS_Y; axis++) {
			struct uinput_abs_setup abs = { .code = (__u16)axis,
							.absinfo = { .maximum = ABS_RANGE } };
			if (ioctl(fd, UI_SET_ABSBIT, axis) < 0 || ioctl(fd, UI_ABS_SETUP, &abs) < 0)
				goto fail;
		}
	}
	struct uinput_setup setup = { .id = { .bustype = BUS_VIRTUAL } };
	snprintf(setup.name, sizeof(setup.name), "%s", name);
	if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0)
		goto fail;
	return fd;
fail:
	snprintf(err, errlen, "cannot make the %s through %s: %s%s", name, u->node,
		 strerror(errno), errno == EACCES ? " (see \"uinput\" in utouch-gestured(1))" : "");
	if (fd >= 0)
		close(fd);
	return -1;
}

static int
emit(int fd, int type, int code, int value)
{
	struct input_event ev[2] = {
		{ .type = (__u16)type, .code = (__u16)code, .value = value },
		{ .type = EV_SYN, .code = SYN_REPORT },
	};
	return write(fd, ev, sizeof(ev)) == (ssize_t)sizeof(ev) ? 0 : -1;
}

int
gd_uinput_keys(struct gd_uinput *u, const int *codes, int n, char *err, size_t errlen)
{
	if (u->kbd < 0 &&
	    (u->kbd = make(u, "utouch-gestured keyboard", KEY_ESC, KEY_MICMUTE, 0, err, errlen)) < 0)
		return -1;
	int rc = 0;
	for (int i = 0; i < n; i++)
		rc |= emit(u->kbd, EV_KEY, codes[i], 1);
	for (int i = n - 1; i >= 0; i--)
		rc |= emit(u->kbd, EV_KEY, codes[i], 0);
	if (rc < 0)
		snprintf(err, errlen, "writing to the uinput keyboard failed: %s", strerror(errno));
	return rc;
}

int
gd_uinput_click(struct gd_uinput *u, int button, double fx, double fy, char *err,
		size_t errlen)
{
	if (u->ptr < 0 &&
	    (u->ptr = make(u, "utouch-gestured pointer", BTN_LEFT, BTN_MIDDLE, 1, err, errlen)) < 0)
		return -1;
	int rc = 0;
	if (fx >= 0) {
		struct input_event ev[3] = {
			{ .type = EV_ABS, .code = ABS_X,
			  .value = (int)(fx < 1 ? fx * ABS_RANGE + 0.5 : ABS_RANGE) },
			{ .type = EV_ABS, .code = ABS_Y,
			  .value = (int)(fy < 1 ? (fy > 0 ? fy : 0) * ABS_RANGE + 0.5 : ABS_RANGE) },
			{ .type = EV_SYN, .code = SYN_REPORT },
		};
		rc |= write(u->ptr, ev, sizeof(ev)) == (ssize_t)sizeof(ev) ? 0 : -1;
	}
	rc |= emit(u->ptr, EV_KEY, button, 1);
	rc |= emit(u->ptr, EV_KEY, button, 0);
	if (rc < 0)
		snprintf(err, errlen, "writing to the uinput pointer failed: %s", strerror(errno));
	return rc;
}
