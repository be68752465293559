/*
 * utouch-gestured: key combination names, as X keysyms (XTest) and as
 * Linux key codes (the uinput keyboard of sessions without X).
 */
#include "gd-keys.h"
#include "gd-config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <libevdev/libevdev.h>

#ifdef GD_HAVE_X11
#include <X11/Xlib.h>
#include <X11/keysym.h>
#endif

/* the modifiers by name: X keysym and Linux key code */
static const struct {
	const char *name;
	unsigned long sym;
	int code;
} modifiers[] = {
#ifdef GD_HAVE_X11
#define SYM(s) s
#else
#define SYM(s) 0
#endif
	{ "ctrl", SYM(XK_Control_L), KEY_LEFTCTRL }, { "control", SYM(XK_Control_L), KEY_LEFTCTRL },
	{ "alt", SYM(XK_Alt_L), KEY_LEFTALT }, { "shift", SYM(XK_Shift_L), KEY_LEFTSHIFT },
	{ "super", SYM(XK_Super_L), KEY_LEFTMETA }, { "meta", SYM(XK_Super_L), KEY_LEFTMETA },
	{ "win", SYM(XK_Super_L), KEY_LEFTMETA }, { "altgr", SYM(XK_ISO_Level3_Shift), KEY_RIGHTALT },
#undef SYM
};

/* X keysym names whose Linux key is not KEY_<NAME> */
static const struct {
	const char *name;
	int code;
} evdev_names[] = {
	{ "Return", KEY_ENTER }, { "Escape", KEY_ESC }, { "Prior", KEY_PAGEUP },
	{ "Next", KEY_PAGEDOWN }, { "period", KEY_DOT }, { "Print", KEY_SYSRQ },
	{ "XF86AudioRaiseVolume", KEY_VOLUMEUP }, { "XF86AudioLowerVolume", KEY_VOLUMEDOWN },
	{ "XF86AudioMute", KEY_MUTE }, { "XF86AudioPlay", KEY_PLAYPAUSE },
	{ "XF86AudioNext", KEY_NEXTSONG }, { "XF86AudioPrev", KEY_PREVIOUSSONG },
	{ "XF86MonBrightnessUp", KEY_BRIGHTNESSUP },
	{ "XF86MonBrightnessDown", KEY_BRIGHTNESSDOWN }, { "XF86Back", KEY_BACK },
	{ "XF86Forward", KEY_FORWARD }, { "XF86Calculator", KEY_CALC },
	{ "grave", KEY_GRAVE }, { "bracketleft", KEY_LEFTBRACE },
	{ "bracketright", KEY_RIGHTBRACE },
};

/* The Linux key of a name: a modifier, a keysym name of the table, an
 * evdev name ("KEY_VOLUMEUP") or KEY_ + the name in capitals without
 * underscores ("Page_Down" -> KEY_PAGEDOWN, "F5", "a", "Left").  -1: none. */
static int
evdev_code(const char *name)
{
	char buf[64];
	size_t n = 0;

	for (size_t i = 0; i < sizeof(modifiers) / sizeof(modifiers[0]); i++)
		if (!strcasecmp(name, modifiers[i].name))
			return modifiers[i].code;
	for (size_t i = 0; i < sizeof(evdev_names) / sizeof(evdev_names[0]); i++)
		if (!strcmp(name, evdev_names[i].name))
			return evdev_names[i].code;
	if (!strncmp(name, "KEY_", 4) || !strncmp(name, "BTN_", 4))
		return libevdev_event_code_from_name(EV_KEY, name);
	n = (size_t)snprintf(buf, sizeof(buf), "KEY_");
	for (const char *s = name; *s && n + 1 < sizeof(buf); s++)
		if (*s != '_')
			buf[n++] = (char)toupper((unsigned char)*s);
	buf[n] = '\0';
	return libevdev_event_code_from_name(EV_KEY, buf);
}

static unsigned long
x_keysym(const char *name)
{
#ifdef GD_HAVE_X11
	for (size_t i = 0; i < sizeof(modifiers) / sizeof(modifiers[0]); i++)
		if (!strcasecmp(name, modifiers[i].name))
			return modifiers[i].sym;
	return XStringToKeysym(name);
#else
	(void)name;
	return 0;
#endif
}

/* Split "ctrl + alt+Left" into its names, each looked up with @p lookup
 * (evdev: a code >= 0; X: a keysym != 0). */
static int
split(const char *keys, long *out, int evdev, char *err, size_t errlen)
{
	char buf[256];
	int n = 0;

	if (!keys || !*keys) {
		snprintf(err, errlen, "no keys given");
		return -1;
	}
	if (strlen(keys) >= sizeof(buf)) {
		snprintf(err, errlen, "the combination is too long");
		return -1;
	}
	strcpy(buf, keys);
	for (char *tok = buf, *next; tok; tok = next) {
		next = strchr(tok, '+');
		if (next)
			*next++ = '\0';
		while (*tok == ' ')
			tok++;
		size_t l = strlen(tok);
		while (l && tok[l - 1] == ' ')
			tok[--l] = '\0';
		if (!*tok) {
			snprintf(err, errlen, "empty key name in \"%s\"", keys);
			return -1;
		}
		if (n == GD_KEYS_MAX) {
			snprintf(err, errlen, "more than %d keys in \"%s\"", GD_KEYS_MAX, keys);
			return -1;
		}
		long v = evdev ? evdev_code(tok) : (long)x_keysym(tok);
		if (evdev ? v < 0 : v == 0) {
			snprintf(err, errlen, "unknown key \"%s\" (X keysym names: Left, F5, a, "
				 "Page_Down, XF86AudioRaiseVolume, ...%s)", tok,
				 evdev ? "; or Linux key names: KEY_VOLUMEUP" : "");
			return -1;
		}
		out[n++] = v;
	}
	return n;
}

int
gd_keys_parse(const char *keys, unsigned long *syms, char *err, size_t errlen)
{
#ifdef GD_HAVE_X11
	long v[GD_KEYS_MAX];
	int n = split(keys, v, 0, err, errlen);
	for (int i = 0; i < n; i++)
		syms[i] = (unsigned long)v[i];
	return n;
#else
	(void)keys;
	(void)syms;
	snprintf(err, errlen, "this utouch-gestured was built without X11 (-Dx11=disabled)");
	return -1;
#endif
}

int
gd_keys_parse_evdev(const char *keys, int *codes, char *err, size_t errlen)
{
	long v[GD_KEYS_MAX];
	int n = split(keys, v, 1, err, errlen);
	for (int i = 0; i < n; i++)
		codes[i] = (int)v[i];
	return n;
}

int
gd_keys_check(const char *keys, char *err, size_t errlen)
{
	int codes[GD_KEYS_MAX];
	if (gd_keys_parse_evdev(keys, codes, err, errlen) > 0)
		return 0;
#ifdef GD_HAVE_X11
	/* an X keysym with no Linux key works on X11 only */
	unsigned long syms[GD_KEYS_MAX];
	char xerr[200];
	if (gd_keys_parse(keys, syms, xerr, sizeof(xerr)) > 0)
		return 0;
#endif
	return -1;
}
