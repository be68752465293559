/*
 * utouch-gestured: the daemon's own virtual devices, for actions in
 * sessions without X (Wayland, consoles): a keyboard for "keys" and an
 * absolute pointer for "click".  Made through uinput the first time an
 * action needs them.
 */
#ifndef GD_UINPUT_H
#define GD_UINPUT_H

#include <stddef.h>

struct gd_uinput;

/** Devices to be made through the uinput node @p node (NULL: /dev/uinput). */
struct gd_uinput *gd_uinput_new(const char *node);

/** Remove the devices and free (NULL is ignored). */
void gd_uinput_free(struct gd_uinput *u);

/**
 * Press @p n Linux keys in order and release them in reverse order.
 * @return 0, or -1 with @p err set (the device cannot be made or written)
 */
int gd_uinput_keys(struct gd_uinput *u, const int *codes, int n, char *err, size_t errlen);

/**
 * Click @p button (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE) at @p fx, @p fy, the
 * fractions (0..1) of the screen's width and height (the pointer device
 * is absolute, mapped like a touchscreen to the whole output); a negative
 * @p fx clicks where the pointer is.
 * @return 0, or -1 with @p err set
 */
int gd_uinput_click(struct gd_uinput *u, int button, double fx, double fy, char *err,
		    size_t errlen);

#endif /* GD_UINPUT_H */
