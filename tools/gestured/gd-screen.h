/*
 * utouch-gestured: how the screen is turned, for "orientation: auto".
 *
 * The state (the orientation and size of the screen the touchscreens show)
 * is kept here whether or not an X server is there; with libXrandr and a
 * display, gd_screen_connect() follows the server: the output a
 * touchscreen maps to is read at the start and again on every RandR screen,
 * CRTC or output change.  The choice of that output and the rotation →
 * orientation mapping are plain functions, tested on their own.
 */
#ifndef GD_SCREEN_H
#define GD_SCREEN_H

#include <stddef.h>

#include "gd-config.h"

/** The most outputs read from one server. */
#define GD_SCREEN_MAX_OUTPUTS 16

/** One output of the server, as RandR describes it. */
struct gd_screen_output {
	char name[32];        /**< connector name ("eDP-1", "HDMI-1") */
	int active;           /**< connected and showing part of the screen (has a CRTC) */
	int primary;          /**< the server's primary output */
	unsigned rotation;    /**< its CRTC's rotation: RR_Rotate_0/90/180/270 (1, 2, 4, 8),
	                           reflection bits ignored */
};

/**
 * The orientation a RandR rotation stands for, as xrandr names them:
 * RR_Rotate_0 normal, RR_Rotate_90 left, RR_Rotate_180 inverted,
 * RR_Rotate_270 right; anything else (no rotation bit) normal.
 */
enum gd_orientation gd_screen_orientation_of(unsigned rotation);

/**
 * The output a touchscreen most likely maps to, among the active ones: a
 * built-in panel (connector eDP, LVDS or DSI), else the primary output,
 * else the first active one.
 *
 * @return its index in @p outs, -1 when no output is active
 */
int gd_screen_pick(const struct gd_screen_output *outs, size_t n);

struct gd_screen;

/**
 * Reads the server's outputs for gd_screen_dispatch() (a test's stand-in
 * for a server that cannot rotate): fills at most @p max outputs and the
 * screen size in pixels.
 *
 * @return the number of outputs, -1 when the server could not say
 */
typedef int (*gd_screen_query)(void *data, struct gd_screen_output *outs, size_t max,
			       double *width, double *height);

/** A screen state: normal, size unknown, not connected.  NULL when out of memory. */
struct gd_screen *gd_screen_new(void);

/** Close the connection and free (NULL is ignored). */
void gd_screen_free(struct gd_screen *s);

/**
 * Follow the RandR state of an X server: read it now and select its
 * screen, CRTC and output change events.
 *
 * @param s the screen
 * @param display the display name, NULL for $DISPLAY
 * @param err buffer for the reason of a failure
 * @param errlen size of @p err
 * @return 0, or -1 with @p err set (no server, no RandR 1.2, or built
 *         without libXrandr); the state is then left as it was
 */
int gd_screen_connect(struct gd_screen *s, const char *display, char *err, size_t errlen);

/** Whether gd_screen_connect() succeeded and the server is still there. */
int gd_screen_connected(const struct gd_screen *s);

/** The connection's descriptor to poll, -1 when not connected. */
int gd_screen_fd(const struct gd_screen *s);

/**
 * Read the server's events; after a RandR change, read its outputs again
 * and update the state.
 *
 * @return 1 when the orientation or the size changed, 0 when not, -1 once
 *         the server is gone (the state keeps its last values)
 */
int gd_screen_dispatch(struct gd_screen *s);

/**
 * Replace how gd_screen_dispatch() and gd_screen_connect() read the
 * outputs (NULL: from the server).  For tests.
 */
void gd_screen_set_query(struct gd_screen *s, gd_screen_query query, void *data);

/**
 * Set the state from a server's outputs: the orientation of the output
 * gd_screen_pick() chooses (normal when none is active) and the screen size.
 *
 * @return 1 when the orientation or the size changed, else 0
 */
int gd_screen_update(struct gd_screen *s, const struct gd_screen_output *outs, size_t n,
		     double width, double height);

/** The orientation of the output followed (normal until known). */
enum gd_orientation gd_screen_orientation(const struct gd_screen *s);

/** The name of the output followed, "" when none. */
const char *gd_screen_output_name(const struct gd_screen *s);

/**
 * The screen size in pixels.
 * @return 0, or -1 while it is unknown (both left untouched)
 */
int gd_screen_size(const struct gd_screen *s, double *width, double *height);

#endif /* GD_SCREEN_H */
