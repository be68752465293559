/*
 * utouch-gestured: key combination names.
 */
#include "gd-keys.h"
#include "gd-config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#ifdef GD_HAVE_X11
#include <X11/Xlib.h>
#include <X11/keysym.h>

static const struct { const char *name; KeySym sym; } modifiers[] = {
	{ "ctrl", XK_Control_L }, { "control", XK_Control_L }, { "alt", XK_Alt_L },
	{ "shift", XK_Shift_L }, { "super", XK_Super_L }, { "meta", XK_Super_L },
	{ "win", XK_Super_L }, { "altgr", XK_ISO_Level3_Shift },
};

int
gd_keys_parse(const char *keys, unsigned long *syms, char *err, size_t errlen)
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
		KeySym sym = NoSymbol;
		for (size_t i = 0; i < sizeof(modifiers) / sizeof(modifiers[0]); i++)
			if (!strcasecmp(tok, modifiers[i].name))
				sym = modifiers[i].sym;
		if (sym == NoSymbol)
			sym = XStringToKeysym(tok);
		if (sym == NoSymbol) {
			snprintf(err, errlen, "unknown key \"%s\" (X keysym names: Left, F5, a, "
				 "Page_Down, XF86AudioRaiseVolume, ...)", tok);
			return -1;
		}
		syms[n++] = sym;
	}
	if (n == 0) {
		snprintf(err, errlen, "no keys given");
		return -1;
	}
	return n;
}

#else

int
gd_keys_parse(const char *keys, unsigned long *syms, char *err, size_t errlen)
{
	(void)keys;
	(void)syms;
	snprintf(err, errlen, "key actions need X11 and this utouch-gestured was built "
		 "without it (-Dx11=disabled); use \"command\"");
	return -1;
}

#endif

int
gd_keys_check(const char *keys, char *err, size_t errlen)
{
	unsigned long syms[GD_KEYS_MAX];
	return gd_keys_parse(keys, syms, err, errlen) < 0 ? -1 : 0;
}
