/*
 * Internal interface of the geis X11 backend (backend-x11.c).
 */
#ifndef UTOUCH_GEIS_X11_H
#define UTOUCH_GEIS_X11_H

#include <oif/frame.h>
#include <geis/geis.h>

struct geis_backend;

/**
 * Create the X11 backend for @p display_name (NULL: $DISPLAY).  The
 * connection is opened by ops->start.  NULL when out of memory.
 */
struct geis_backend *gs_backend_x11_new(Geis geis, const char *display_name);

/**
 * The root window of the backend's screen as a frame window id (starts
 * the backend if needed); 0 when @p be is not an X11 backend or the
 * display cannot be opened.
 */
UFWindowId gs_backend_x11_root(struct geis_backend *be);

/**
 * Whether Xlib opens its default display (XOpenDisplay(NULL), closed at
 * once).  With DISPLAY unset a real Xlib refuses at once, without a
 * connection; an Xlib stand-in may not.
 */
int gs_backend_x11_can_open(void);

#endif
