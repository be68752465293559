/*
 * utouch-gestured: key combinations ("ctrl+alt+Left") and sending them
 * with the XTest extension.
 */
#ifndef GD_KEYS_H
#define GD_KEYS_H

#include <stddef.h>

/** Most keys in one combination. */
#define GD_KEYS_MAX 8

/**
 * Split a combination into X keysyms (X11 builds; without X11 it fails): "+"-separated names, modifiers
 * first (ctrl/control, alt, shift, super/meta/win, altgr), then keysym
 * names as X knows them (Left, Page_Down, F5, a, XF86AudioRaiseVolume).
 *
 * @param keys the combination
 * @param syms where the keysyms go (GD_KEYS_MAX of them)
 * @param err buffer for the reason it is refused
 * @param errlen size of @p err
 * @return the number of keys (> 0), or -1 with @p err set
 */
int gd_keys_parse(const char *keys, unsigned long *syms, char *err, size_t errlen);

/**
 * Split a combination into Linux key codes (KEY_*), for the uinput
 * keyboard of sessions without X: the same names as gd_keys_parse() (the
 * common X keysym names map to their keys; letters and digits are the
 * keys of a US layout), or Linux key names ("KEY_VOLUMEUP").
 *
 * @return the number of keys (> 0), or -1 with @p err set
 */
int gd_keys_parse_evdev(const char *keys, int *codes, char *err, size_t errlen);

#endif /* GD_KEYS_H */
