/*
 * A touch proxy's clone: a uinput device or an evemu recording; see
 * proxy-output.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/uinput.h>

#include <libevdev/libevdev.h>

#include "geis/proxy-output.h"
#include "input/recording/recording.h"
#include "util/clock.h"

struct proxy_output {
	int fd;     /* uinput */
	FILE *fp;   /* evemu */
};

/* EV_* type -> the uinput ioctl that enables one of its codes */
static unsigned long
code_ioctl(unsigned int type)
{
	switch (type) {
	case EV_KEY: return UI_SET_KEYBIT;
	case EV_REL: return UI_SET_RELBIT;
	case EV_ABS: return UI_SET_ABSBIT;
	case EV_MSC: return UI_SET_MSCBIT;
	case EV_SW: return UI_SET_SWBIT;
	case EV_LED: return UI_SET_LEDBIT;
	default: return 0;
	}
}

struct proxy_output *
proxy_output_uinput(const char *node, const struct libevdev *desc, char *err, size_t errlen)
{
	struct proxy_output *o = calloc(1, sizeof(*o));
	const char *step = "open";

	if (!o) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	o->fd = open(node, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (o->fd < 0)
		goto fail;
	step = "describe the device to";
	for (unsigned int prop = 0; prop <= INPUT_PROP_MAX; prop++)
		if (libevdev_has_property(desc, prop) && ioctl(o->fd, UI_SET_PROPBIT, prop) < 0)
			goto fail;
	for (unsigned int type = EV_KEY; type <= EV_SW; type++) {
		unsigned long req = code_ioctl(type);
		int max = libevdev_event_type_get_max(type);

		if (!req || !libevdev_has_event_type(desc, type))
			continue;
		if (ioctl(o->fd, UI_SET_EVBIT, type) < 0)
			goto fail;
		for (int code = 0; code <= max; code++) {
			if (!libevdev_has_event_code(desc, type, (unsigned int)code))
				continue;
			if (ioctl(o->fd, req, code) < 0)
				goto fail;
			if (type != EV_ABS)
				continue;
			struct uinput_abs_setup abs = { .code = (__u16)code };

			abs.absinfo = *libevdev_get_abs_info(desc, (unsigned int)code);
			abs.absinfo.value = 0;
			if (ioctl(o->fd, UI_ABS_SETUP, &abs) < 0)
				goto fail;
		}
	}
	struct uinput_setup setup = {
		.id = {
			.bustype = (__u16)libevdev_get_id_bustype(desc),
			.vendor = (__u16)libevdev_get_id_vendor(desc),
			.product = (__u16)libevdev_get_id_product(desc),
			.version = (__u16)libevdev_get_id_version(desc),
		},
	};
	snprintf(setup.name, sizeof(setup.name), "%s", libevdev_get_name(desc));
	if (ioctl(o->fd, UI_DEV_SETUP, &setup) < 0)
		goto fail;
	if (libevdev_get_phys(desc) && ioctl(o->fd, UI_SET_PHYS, libevdev_get_phys(desc)) < 0)
		goto fail;
	step = "create the device with";
	if (ioctl(o->fd, UI_DEV_CREATE) < 0)
		goto fail;
	return o;
fail:
	snprintf(err, errlen, "cannot %s %s: %s%s", step, node, strerror(errno),
		 errno == ENOENT ? " (is the uinput module loaded?)"
		 : errno == EACCES ? " (the user needs write access to it: see the udev rule "
				     "in utouch-gestured(1))"
				   : "");
	if (o->fd >= 0)
		close(o->fd);
	free(o);
	return NULL;
}

struct proxy_output *
proxy_output_evemu(const char *path, const struct libevdev *desc, char *err, size_t errlen)
{
	struct proxy_output *o = calloc(1, sizeof(*o));

	if (!o) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	o->fd = -1;
	o->fp = fopen(path, "we");
	if (!o->fp) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(o);
		return NULL;
	}
	FILE *fp = o->fp;

	ut_evemu_write_device(fp, desc, "what utouch's touch proxy gave the clone of this device");
	if (fflush(fp) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		fclose(fp);
		free(o);
		return NULL;
	}
	return o;
}

int
proxy_output_write(struct proxy_output *o, const struct input_event *evs, size_t n)
{
	if (o->fp) {
		for (size_t i = 0; i < n; i++)
			ut_evemu_write_event(o->fp, ut_input_event_usec(&evs[i]), evs[i].type,
					     evs[i].code, evs[i].value);
		return fflush(o->fp) == 0 ? 0 : -errno;
	}
	size_t len = n * sizeof(*evs);
	const char *b = (const char *)evs;

	while (len > 0) {
		ssize_t w = write(o->fd, b, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		b += w;
		len -= (size_t)w;
	}
	return 0;
}

void
proxy_output_close(struct proxy_output *o)
{
	if (!o)
		return;
	if (o->fp)
		fclose(o->fp);
	if (o->fd >= 0) {
		ioctl(o->fd, UI_DEV_DESTROY);
		close(o->fd);
	}
	free(o);
}
