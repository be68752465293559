/*
 * Windows for backends that have none (recordings, evdev devices).
 *
 * Such a device reports touches in screen coordinates.  geis binds
 * subscriptions to (device, window) pairs; a router keeps one frame
 * builder per window a subscription asked for and builds each window's
 * frames from the device's frames of touch operations (ut_framer_build()):
 *
 * - window 1 (the whole screen, also the "root"): every touch, as it is;
 * - a rectangle region (UTOUCH_GEIS_REGION_RECT): the touches that began
 *   inside the rectangle, for their whole life, with coordinates relative
 *   to its top-left corner (as an X server reports them to a window);
 * - any other window id: every touch, as it is (a window id on these
 *   backends only names where gestures are reported).
 *
 * The frames go to gs_core_frame_event().
 */
#ifndef UTOUCH_GEIS_ROUTER_H
#define UTOUCH_GEIS_ROUTER_H

#include <stddef.h>
#include <stdint.h>

#include <oif/frame_backend.h>
#include <geis/geis.h>

#include "input/evdev/evstream.h"
#include "input/evdev/framer.h"
#include "util/list.h"

struct geis_router_window;

/** The windows of one device. */
struct geis_router {
	Geis geis;
	UFBackendDevice device;           /**< not owned */
	struct ut_list windows;           /* struct geis_router_window, newest first */
	int feeding;   /* inside gs_router_feed: windows are freed after it */
};

/** Start with no windows. */
void gs_router_init(struct geis_router *r, Geis geis, UFBackendDevice device);

/** Drop every window (their last frames are released).  A router that
 * was zeroed and never initialised is accepted too (no windows). */
void gs_router_fini(struct geis_router *r);

/**
 * A subscription bound (@p on = 1) or released (0) @p window; windows are
 * reference counted.  The rectangle of a rectangle region is looked up
 * when the window first appears.  Returns 0, or -1 when out of memory
 * (recorded on the geis error stack).
 */
int gs_router_grab(struct geis_router *r, UFWindowId window, int on);

/** Build and feed the frames of every window for one frame of operations. */
void gs_router_feed(struct geis_router *r, uint64_t time_ms,
		      const struct ut_touch_op *ops, size_t nops);

/**
 * The windows that will get (and so decide) a touch beginning at window
 * position (@p wx, @p wy) of the device: every window a subscription
 * holds, rectangles only when the point is inside.  At most @p max ids
 * are stored in @p out.  @return the number stored
 */
size_t gs_router_touch_windows(const struct geis_router *r, float wx, float wy,
				 UFWindowId *out, size_t max);

/** 1 when a subscription still holds @p window. */
int gs_router_has_window(const struct geis_router *r, UFWindowId window);

#endif
