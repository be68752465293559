/*
 * geis backend for live Linux input devices.
 *
 * The device work (scanning /dev/input, hotplug through inotify, opening
 * nodes through the caller's open/close interface, libevdev reading,
 * protocol A through mtdev) lives in the evdev-live module
 * (evdev-live.c, next to this file).  This file connects it to the geis
 * core: one epoll fd in the geis multiplexor, device events forwarded,
 * CLOCK_MONOTONIC as the time base, and the device's frames of touch
 * operations built per window by a router (geis-router.c), so that
 * subscriptions on window ids and rectangle regions get their touches.
 *
 * Touches on evdev have no other claimant, so they are owned from their
 * begin and accept/reject have nothing to tell the kernel; grabbing the
 * device (EVIOCGRAB) is the way to keep other readers away, and it is an
 * option (UTOUCH_GEIS_INIT_EVDEV_GRAB).  With UTOUCH_GEIS_INIT_PROXY each
 * grabbed device gets a touch proxy (geis-proxy.c): a clone that carries
 * every touch no accepted gesture took, so other readers still get them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "geis/evdev-live.h"
#include "geis/geis-backend.h"
#include "geis/backend-evdev.h"
#include "geis/geis-router.h"
#include "util/list.h"

/* one per device: its windows */
struct evdev_dev {
	struct ut_list link;      /* evdev_backend.devs, newest first */
	struct ut_evdev_live_device *dev;
	UFDevice uf;
	struct geis_router router;
	struct geis_proxy *proxy;  /* NULL without UTOUCH_GEIS_INIT_PROXY */
	int grab_pending;          /* opened with fingers down: grabbed once they lift */
};

struct evdev_backend {
	struct geis_backend base;
	struct ut_list devs;
	struct geis_evdev_config cfg;
	struct ut_evdev_live *live;
	int fd;
	char *proxy_output, *proxy_uinput;  /* cfg.proxy's strings, copied */
	unsigned int nproxies;              /* proxies made so far */
};

static struct evdev_dev *
dev_find(struct evdev_backend *be, UFDevice uf)
{
	ut_list_for_each(pos, &be->devs) {
		struct evdev_dev *d = ut_container_of(pos, struct evdev_dev, link);

		if (d->uf == uf)
			return d;
	}
	return NULL;
}

static void
dev_free(struct evdev_dev *d)
{
	ut_list_remove(&d->link);
	gs_proxy_destroy(d->proxy);
	gs_router_fini(&d->router);
	free(d);
}

/* The grab, once the device's clone exists and no finger is down on it;
 * a device someone else holds is left to them, its clone removed. */
static void
take_grab(struct evdev_dev *d)
{
	d->grab_pending = 0;
	if (ut_evdev_live_device_grab(d->dev, 1) < 0) {
		gs_proxy_destroy(d->proxy);
		d->proxy = NULL;
		return;
	}
	gs_proxy_set_bypass(d->proxy, 0);
}

/*
 * A new device: the backend's record (router, proxy and grab), then the
 * core's (DEVICE_AVAILABLE, bindings).  The backend tells the core of its
 * devices here and in on_device_removed(), not through evdev-live's
 * DeviceAdded/DeviceRemoved events (it takes none), so that a device
 * either cannot take (out of memory) is dropped again and no input is
 * read for a device the application never hears of; while
 * ut_evdev_live_new() scans, evdev_start() drops it once the context
 * exists.
 */
static void
on_device_added(void *data, struct ut_evdev_live_device *dev, UFDevice device)
{
	struct evdev_backend *be = data;
	Geis geis = be->base.geis;
	struct evdev_dev *d = calloc(1, sizeof(*d));
	if (!d) {
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"evdev: out of memory for a device");
		ut_evdev_live_remove_device(be->live, dev);
		return;
	}
	d->dev = dev;
	d->uf = device;
	gs_router_init(&d->router, geis, ut_evdev_live_device_get_backend_device(dev));
	ut_list_insert_after(&be->devs, &d->link);
	if (be->cfg.proxy.enabled) {
		/* the clone first, then the grab: the user never loses a
		 * device, neither when no clone can be made (it is then only
		 * read, as without the proxy) nor when someone else holds it
		 * (the log says who; the clone goes again) */
		d->proxy = gs_proxy_new(geis, &be->cfg.proxy, ut_evdev_live_device_get_caps(dev),
					  ut_evdev_live_device_get_backend_device(dev),
					  ++be->nproxies);
		if (!d->proxy) {
			gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR,
					"proxy: %s is left to the desktop (not grabbed)",
					ut_evdev_live_device_get_name(dev));
		} else if (ut_evdev_live_device_touches_down(dev) > 0) {
			/* fingers the desktop saw land: a grab now would keep
			 * their lifts from it (a touch stuck down there), and
			 * the clone would give them a second time; the device
			 * stays the desktop's until they lifted */
			d->grab_pending = 1;
			gs_proxy_set_bypass(d->proxy, 1);
		} else {
			take_grab(d);
		}
	}
	if (gs_core_device_added(geis, device, 0) < 0) {
		dev_free(d);
		ut_evdev_live_remove_device(be->live, dev);
	}
}

/* after the device's touches ended: the core's record, then ours */
static void
on_device_removed(void *data, struct ut_evdev_live_device *dev, UFDevice device)
{
	struct evdev_backend *be = data;
	gs_core_device_removed(be->base.geis, device);
	ut_list_for_each(pos, &be->devs) {
		struct evdev_dev *d = ut_container_of(pos, struct evdev_dev, link);

		if (d->dev == dev) {
			dev_free(d);
			return;
		}
	}
}

static void
on_frame_ops(void *data, struct ut_evdev_live_device *dev, uint64_t time_ms,
	     const struct ut_touch_op *ops, size_t nops)
{
	struct evdev_backend *be = data;
	ut_list_for_each(pos, &be->devs) {
		struct evdev_dev *d = ut_container_of(pos, struct evdev_dev, link);

		if (d->dev == dev) {
			if (d->proxy)
				gs_proxy_frame(d->proxy, &d->router, time_ms, ops, nops);
			gs_router_feed(&d->router, time_ms, ops, nops);
			if (d->grab_pending && ut_evdev_live_device_touches_down(dev) == 0)
				take_grab(d);
			return;
		}
	}
}

static void
on_raw_event(void *data, struct ut_evdev_live_device *dev, const struct input_event *ev)
{
	struct evdev_backend *be = data;
	ut_list_for_each(pos, &be->devs) {
		struct evdev_dev *d = ut_container_of(pos, struct evdev_dev, link);

		if (d->dev == dev) {
			if (d->proxy)
				gs_proxy_raw_event(d->proxy, ev);
			return;
		}
	}
}

static int
evdev_grab(struct geis_backend *base, UFDevice device, UFWindowId window, int on)
{
	struct evdev_dev *d = dev_find((struct evdev_backend *)base, device);
	if (!d)
		return 0;
	gs_router_grab(&d->router, window, on);
	if (d->proxy && !on && !gs_router_has_window(&d->router, window))
		gs_proxy_window_gone(d->proxy, window);
	return 0;
}

/* evdev-live's problems (a device skipped or lost): on the error stack
 * and in the instance's log, once, at warning priority; @p message
 * already names the path and the system error. */
static void
on_log(void *data, const char *path, int err, const char *message)
{
	struct evdev_backend *be = data;
	(void)path;
	(void)err;
	gs_core_warning(be->base.geis, GEIS_STATUS_UNKNOWN_ERROR, "evdev: %s", message);
}

static void
on_readable(void *data, int fd, uint32_t events)
{
	struct evdev_backend *be = data;
	(void)fd;
	(void)events;
	int r = ut_evdev_live_dispatch(be->live);
	if (r < 0)
		gs_core_error(be->base.geis, GEIS_STATUS_UNKNOWN_ERROR,
				"evdev: reading input failed: %s", strerror(-r));
}

static int
evdev_start(struct geis_backend *base)
{
	struct evdev_backend *be = (struct evdev_backend *)base;
	static const struct ut_evdev_live_callbacks cb = {
		.device_added = on_device_added,
		.device_removed = on_device_removed,
		.frame_ops = on_frame_ops,
		.log = on_log,
		.raw_event = on_raw_event,
	};
	struct ut_evdev_live_config lc = {
		.dir = be->cfg.dir,
		/* the proxy grabs each device itself, once its clone exists */
		.grab = be->cfg.grab && !be->cfg.proxy.enabled,
		.hotplug = !be->cfg.no_hotplug,
		.split_begins = 1,
		.screen_w = be->cfg.screen_w,
		.screen_h = be->cfg.screen_h,
		.skip_name_suffix = be->cfg.proxy.enabled ? GEIS_PROXY_NAME_SUFFIX : NULL,
		.save_path = be->cfg.save,
	};

	if (be->live)
		return 0;
	if (be->cfg.iface) {
		lc.iface = be->cfg.iface;
		lc.iface_data = be->cfg.user_data;
	}
	be->live = ut_evdev_live_new(&lc, &cb, be);
	if (!be->live) {
		int err = errno ? errno : ENOMEM;
		gs_core_error(base->geis, GEIS_STATUS_UNKNOWN_ERROR,
				"evdev: cannot watch %s: %s",
				be->cfg.dir ? be->cfg.dir : "/dev/input", strerror(err));
		return -err;
	}
	/* devices of the scan that could not be taken (on_device_added) */
	for (size_t i = ut_evdev_live_num_devices(be->live); i-- > 0;) {
		struct ut_evdev_live_device *dev = ut_evdev_live_get_device(be->live, i);
		struct evdev_dev *d = dev_find(be, ut_evdev_live_device_get_device(dev));
		if (!d)
			ut_evdev_live_remove_device(be->live, dev);
	}
	be->fd = ut_evdev_live_get_fd(be->live);
	int r = gs_mux_add(base->geis, be->fd, EPOLLIN, on_readable, be);
	if (r < 0) {
		ut_evdev_live_destroy(be->live);
		be->live = NULL;
		be->fd = -1;
		return r;
	}
	/* devices found by the initial scan */
	ut_evdev_live_dispatch(be->live);
	return 0;
}

static void
evdev_destroy(struct geis_backend *base)
{
	struct evdev_backend *be = (struct evdev_backend *)base;
	if (be->live) {
		gs_mux_remove(base->geis, be->fd);
		ut_evdev_live_destroy(be->live);   /* removes every device */
	}
	while (!ut_list_empty(&be->devs))
		dev_free(ut_container_of(be->devs.next, struct evdev_dev, link));
	free(be->cfg.dir);
	free(be->proxy_output);
	free(be->proxy_uinput);
	free(be->cfg.save);
	free(be);
}

static uint64_t
evdev_now(struct geis_backend *base)
{
	(void)base;
	return ut_evdev_live_now_ms();
}

static const struct geis_backend_ops evdev_ops = {
	.name = "evdev",
	.start = evdev_start,
	.destroy = evdev_destroy,
	.now = evdev_now,
	.grab = evdev_grab,
};

struct geis_backend *
gs_backend_evdev_new_config(Geis geis, const struct geis_evdev_config *cfg)
{
	struct evdev_backend *be = calloc(1, sizeof(*be));
	if (!be)
		return NULL;
	be->base.ops = &evdev_ops;
	be->base.geis = geis;
	ut_list_init(&be->devs);
	be->fd = -1;
	if (cfg) {
		be->cfg = *cfg;
		be->cfg.dir = NULL;
		be->cfg.proxy.output = be->cfg.proxy.uinput = NULL;
		be->cfg.save = NULL;
		if ((cfg->dir && !(be->cfg.dir = strdup(cfg->dir))) ||
		    (cfg->save && !(be->cfg.save = strdup(cfg->save))) ||
		    (cfg->proxy.output && !(be->proxy_output = strdup(cfg->proxy.output))) ||
		    (cfg->proxy.uinput && !(be->proxy_uinput = strdup(cfg->proxy.uinput)))) {
			free(be->cfg.dir);
			free(be->cfg.save);
			free(be->proxy_output);
			free(be);
			return NULL;
		}
		be->cfg.proxy.output = be->proxy_output;
		be->cfg.proxy.uinput = be->proxy_uinput;
	}
	return &be->base;
}

GeisStatus
gs_backend_evdev_add_fd(struct geis_backend *base, int fd,
			  const struct libevdev *caps, const char *name)
{
	if (!base || base->ops != &evdev_ops || fd < 0 || !caps) {
		if (fd >= 0)
			close(fd);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	struct evdev_backend *be = (struct evdev_backend *)base;
	if (!be->live && evdev_start(base) < 0) {
		close(fd);
		return GEIS_STATUS_UNKNOWN_ERROR;
	}
	/* takes the fd, also when it fails; the device is announced now, and
	 * what the stream holds is read by the application's next dispatch,
	 * so that subscriptions it makes in between see those touches */
	if (!ut_evdev_live_add_fd(be->live, fd, caps, name))
		return GEIS_STATUS_UNKNOWN_ERROR;
	return GEIS_STATUS_SUCCESS;
}
