/*
 * The touch proxy of the evdev and recording backends
 * (UTOUCH_GEIS_INIT_PROXY, doc/gestured.md "Proxy mode").
 *
 * A proxy stands between one grabbed device and its clone: a uinput
 * device with the same description, or an evemu recording of what the
 * clone would emit.  It gives the X11 touch-grab semantics at the kernel
 * boundary:
 *
 * - a touch that begins where no subscription can see it (no window of
 *   the device's router takes it) goes to the clone at once;
 * - any other touch is held until grail has decided it in every window
 *   that got it (frame_accept_touch / frame_reject_touch reach the
 *   proxy through the backend device's touch handler);
 * - accepted in one window: consumed, it never appears on the clone;
 * - rejected in all of them: its held history is replayed to the clone
 *   (touches rejected in the same step interleaved in their original
 *   order), then its live events follow.
 *
 * The clone's stream is built from touch operations, so it is a valid
 * evdev stream whatever the source did: slots and tracking ids of its
 * own, BTN_TOUCH and BTN_TOOL_* from the number of touches it carries,
 * single-touch ABS_X/ABS_Y (and ABS_PRESSURE) from its oldest touch,
 * MSC_TIMESTAMP, SYN_REPORT framing.  Events of the source that are no
 * touch state (buttons of a clickpad, switches, relative axes) pass
 * through in the report they came in.
 */
#ifndef UTOUCH_GEIS_PROXY_H
#define UTOUCH_GEIS_PROXY_H

#include <stddef.h>
#include <stdint.h>
#include <linux/input.h>

#include <oif/frame_backend.h>
#include <geis/geis.h>

#include "input/evdev/evstream.h"

struct libevdev;
struct geis_router;
struct geis_proxy;

/** Suffix of a clone's name; the evdev backend never opens such devices. */
#define GEIS_PROXY_NAME_SUFFIX " (utouch proxy)"

/** Where clones go (part of the evdev backend's configuration). */
struct geis_proxy_config {
	int enabled;           /**< UTOUCH_GEIS_INIT_PROXY */
	const char *output;    /**< evemu file instead of uinput (NULL: uinput) */
	const char *uinput;    /**< the uinput node; NULL: /dev/uinput */
};

/**
 * Start proxying a device: create its clone (uinput device or the
 * recording file: the first device writes @p cfg->output, the n-th
 * (n > 1) "OUTPUT.n") and take the backend device's touch handler.
 *
 * @param geis the instance (errors, time, the multiplexor)
 * @param cfg  the configuration (not kept)
 * @param caps the device's description
 * @param device the backend device whose touch decisions to follow
 * @param index 1 for the first device proxied, 2 for the next ...
 * @return the proxy, or NULL with the reason on the geis error stack
 */
struct geis_proxy *gs_proxy_new(Geis geis, const struct geis_proxy_config *cfg,
				  const struct libevdev *caps, UFBackendDevice device,
				  unsigned int index);

/**
 * Replay every held touch, end every touch on the clone, remove the
 * clone (close the file) and free the proxy.  NULL is ignored.
 */
void gs_proxy_destroy(struct geis_proxy *p);

/**
 * One frame of touch operations of the device, before the router feeds
 * it to grail.  @p router tells which windows will decide a new touch.
 */
void gs_proxy_frame(struct geis_proxy *p, const struct geis_router *router,
		      uint64_t time_ms, const struct ut_touch_op *ops, size_t nops);

/**
 * A raw event of the device (after the touch stream saw it): events that
 * are no touch state pass through to the clone; a SYN_REPORT sends what
 * passed through since the last report.
 */
void gs_proxy_raw_event(struct geis_proxy *p, const struct input_event *ev);

/** The last subscription of @p window went: it decides nothing any more. */
void gs_proxy_window_gone(struct geis_proxy *p, UFWindowId window);

/**
 * While @p on, the device is not grabbed (the desktop reads it): touches
 * that begin are the desktop's, never held and never on the clone, to
 * their end, and the device's other events do not pass through either.
 * The evdev backend grabs a device opened with fingers down only once
 * they have lifted, so that the desktop sees the lift of every touch it
 * saw land.
 */
void gs_proxy_set_bypass(struct geis_proxy *p, int on);

/** Replay every touch that is still held (SIGTERM, the end of a recording). */
void gs_proxy_release(struct geis_proxy *p);

/** Number of touches held now (tests, benchmarks). */
size_t gs_proxy_held(const struct geis_proxy *p);

#endif
