/*
 * A "painting" client for the X11 end-to-end tests: an override-redirect
 * window of its own that selects raw XI 2.2 touch events (no grab) and
 * records every TouchBegin/Update/End it receives, the way a drawing
 * application would.  Tests check which touches reached it, in which
 * order, where, and when.
 */
#ifndef UTOUCH_TESTS_XH_PAINTER_H
#define UTOUCH_TESTS_XH_PAINTER_H

#include <stddef.h>

#include <X11/Xlib.h>

/** One raw touch event the painting client received. */
struct raw_touch {
	int type;          /**< XI_TouchBegin / XI_TouchUpdate / XI_TouchEnd */
	unsigned int id;   /**< X touch id */
	double x, y;       /**< window coordinates */
	double t;          /**< CLOCK_MONOTONIC ms when the client read it */
};

/** A painting client and what it received. */
struct painter {
	Display *dpy;      /**< its own connection */
	Window win;        /**< its window */
	int xi_opcode;
	struct raw_touch ev[512];
	int n;             /**< events in ev (later ones are dropped) */
};

/**
 * Connect to @p display, create and map the window at (x, y) with size
 * w x h on the root window, select touch events on it.
 *
 * @param p the client (reinitialised)
 * @param display the display name
 * @param wm_class instance and class name of the window, NULL for none
 * @param err buffer for the reason of a failure
 * @param errlen size of @p err
 * @return 0, or -1 with @p err set
 */
int painter_open_at(struct painter *p, const char *display, int x, int y, int w, int h,
		    const char *wm_class, char *err, size_t errlen);

/** Read every touch event that arrived so far (after an XSync). */
void painter_pump(struct painter *p);

/** How many events of @p type (XI_TouchBegin, ...) were received. */
int painter_count(const struct painter *p, int type);

/** Close the connection (the window goes with it); safe to call twice. */
void painter_close(struct painter *p);

#endif /* UTOUCH_TESTS_XH_PAINTER_H */
