/*
 * utouch-gestured: the daemon's own X connection, used to find the
 * application under a gesture (WM_CLASS), to send key combinations
 * (XTest) and to notice that the X server went away.  Only built with
 * X11 support.
 */
#ifndef GD_X11_H
#define GD_X11_H

#include <stddef.h>

struct gd_x11;

/**
 * Connect to an X server.
 *
 * @param display the display name, NULL for $DISPLAY
 * @param err buffer for the reason of a failure
 * @param errlen size of @p err
 * @return the connection, or NULL with @p err set
 */
struct gd_x11 *gd_x11_open(const char *display, char *err, size_t errlen);

/** Close the connection (NULL is ignored). */
void gd_x11_close(struct gd_x11 *x);

/** The connection's file descriptor, to poll for the server going away. */
int gd_x11_fd(const struct gd_x11 *x);

/**
 * Read what the server sent.
 *
 * @param x the connection
 * @return 0, or -1 once the server is gone (the connection is then dead)
 */
int gd_x11_dispatch(struct gd_x11 *x);

/** Whether the server went away. */
int gd_x11_dead(const struct gd_x11 *x);

/** Millimetres per screen pixel across and down (from the screen's size in mm). */
void gd_x11_mm_per_px(const struct gd_x11 *x, double *mm_x, double *mm_y);

/** The screen size in pixels. */
void gd_x11_screen_size(const struct gd_x11 *x, double *w, double *h);

/**
 * The WM_CLASS of the top-level window at a root position: the first
 * window with a WM_CLASS on the way from the top-level child of the root
 * down to the deepest window at that point.
 *
 * @param x the connection
 * @param rx root X in pixels
 * @param ry root Y in pixels
 * @param inst buffer for the instance name ("" when there is none)
 * @param cls buffer for the class name ("" when there is none)
 * @param len size of each buffer
 * @return 0 when a WM_CLASS was found, -1 otherwise (both buffers empty)
 */
int gd_x11_class_at(struct gd_x11 *x, double rx, double ry, char *inst, char *cls, size_t len);

/**
 * Where the pointer is on the root window.
 *
 * @param x the connection
 * @param rx root X in pixels
 * @param ry root Y in pixels
 * @return 0, or -1 when the server could not say
 */
int gd_x11_pointer(struct gd_x11 *x, double *rx, double *ry);

/**
 * Press and release a key combination with XTest: every key pressed in
 * order, released in reverse order.
 *
 * @param x the connection
 * @param keys the combination ("ctrl+alt+Left")
 * @param err buffer for the reason of a failure
 * @param errlen size of @p err
 * @return 0, or -1 with @p err set
 */
int gd_x11_send_keys(struct gd_x11 *x, const char *keys, char *err, size_t errlen);

/**
 * Click mouse button @p button (1 left, 2 middle, 3 right) with XTest, at
 * root position (@p rx, @p ry), or where the pointer is when @p rx < 0.
 * @return 0, or -1 with @p err set
 */
int gd_x11_click(struct gd_x11 *x, int button, double rx, double ry, char *err, size_t errlen);

#endif /* GD_X11_H */
