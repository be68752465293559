/*
 * Internal configuration of the geis evdev backend (backend-evdev.c),
 * filled from geis_new() init arguments.
 */
#ifndef UTOUCH_GEIS_EVDEV_H
#define UTOUCH_GEIS_EVDEV_H

#include <geis/geis.h>
#include <utouch/geis.h>

#include "geis/geis-proxy.h"

struct geis_backend;
struct libevdev;

/** Options of the evdev backend; zero means the default. */
struct geis_evdev_config {
	char *dir;       /**< device directory; NULL: /dev/input */
	int grab;        /**< EVIOCGRAB every device */
	int no_hotplug;  /**< do not watch the directory */
	double screen_w, screen_h; /**< window size of direct devices (0: 1024x768) */
	/** Device opening (both functions set); NULL: open(2)/close(2). */
	const struct utouch_geis_open_interface *iface;
	void *user_data; /**< passed to the iface functions */
	/** The touch proxy (UTOUCH_GEIS_INIT_PROXY*): the strings are not
	 * copied here; backends copy them. */
	struct geis_proxy_config proxy;
	char *save;      /**< save each device's events here (evemu); NULL: no */
};

/** Create the evdev backend with @p cfg (copied; NULL: defaults). */
struct geis_backend *gs_backend_evdev_new_config(Geis geis,
						   const struct geis_evdev_config *cfg);

/**
 * Add a stream of struct input_event (a pipe, a socket) as a device with
 * the capabilities @p caps; the backend takes @p fd (closed on failure
 * too).  Starts the backend
 * if needed.  GEIS_STATUS_BAD_ARGUMENT when @p be is not an evdev backend.
 */
GeisStatus gs_backend_evdev_add_fd(struct geis_backend *be, int fd,
				     const struct libevdev *caps, const char *name);

#endif
