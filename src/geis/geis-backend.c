/*
 * The geis backends in one table, and the one place that picks one.
 *
 * geis_new() hands every init argument it does not know itself to
 * gs_backend_init_arg(), which fills a struct geis_backend_request:
 * the arguments that name a backend, and the options of a backend
 * (virtual time, evdev grab, directory, open interface).  When no init
 * argument named a backend, gs_backend_choose() reads
 * UTOUCH_GEIS_BACKEND and then applies the default (<utouch/geis.h>
 * documents the rules); gs_backend_create() runs the chosen
 * constructor once the instance is ready for it.
 *
 * A new backend is one row of backends[] (and its options, if any, rows
 * of options[]).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geis-private.h"
#include "backend-evdev.h"
#ifdef UTOUCH_GEIS_HAVE_X11
#include "backend-x11.h"
#endif

/* One way of choosing a backend. */
struct geis_backend_entry {
	const char *name;      /* for messages */
	/* needs_path: the backend reads a file; its init argument is
	 * followed by a const char * path, its environment token (which
	 * ends in ':') by a non-empty path */
	int needs_path;
	/* geis_new() argument that chooses it (NULL: none) */
	const char *init_arg;
	/* UTOUCH_GEIS_BACKEND value that chooses it (NULL: none); env_fast:
	 * the token asks for virtual time */
	const char *env_token;
	int env_fast;
	/* 1 when this backend is the default now (NULL: never); the first
	 * row in table order that says so wins */
	int (*is_default)(void);
	/* NULL when this build lacks the backend */
	struct geis_backend *(*create)(Geis geis, const struct geis_backend_request *req);
};

static struct geis_backend *
create_recording(Geis geis, const struct geis_backend_request *req)
{
	return gs_backend_recording_new(geis, &req->evdev.proxy, req->path, req->fast);
}

static struct geis_backend *
create_evdev(Geis geis, const struct geis_backend_request *req)
{
	return gs_backend_evdev_new_config(geis, &req->evdev);
}

static struct geis_backend *
create_mock(Geis geis, const struct geis_backend_request *req)
{
	return gs_backend_mock_new(geis);
}

static int
always(void)
{
	return 1;
}

#ifdef UTOUCH_GEIS_HAVE_X11
static struct geis_backend *
create_x11(Geis geis, const struct geis_backend_request *req)
{
	return gs_backend_x11_new(geis, NULL);
}

static int
display_is_set(void)
{
	const char *display = getenv("DISPLAY");

	return display && *display;
}
#else
#define create_x11 NULL
#define display_is_set NULL
#endif

static const struct geis_backend_entry backends[] = {
	/* name, needs_path, init_arg, env_token, env_fast, is_default, create */
	{ "recording", 1, UTOUCH_GEIS_INIT_RECORDING, "recording:", 0, NULL, create_recording },
	{ "recording", 1, NULL, "recording-fast:", 1, NULL, create_recording },
	{ "X11", 0, UTOUCH_GEIS_INIT_X11, "x11", 0, display_is_set, create_x11 },
	{ "evdev", 0, UTOUCH_GEIS_INIT_EVDEV, "evdev", 0, always, create_evdev },
	{ "mock", 0, UTOUCH_GEIS_INIT_MOCK, NULL, 0, NULL, create_mock },
};
#define NUM_BACKENDS (sizeof(backends) / sizeof(backends[0]))

/* ---- options: init arguments that tune a backend ---- */

static void
opt_fast(struct geis_backend_request *req, va_list *ap)
{
	req->fast = 1;
}

static void
opt_grab(struct geis_backend_request *req, va_list *ap)
{
	req->evdev.grab = 1;
}

static void
opt_proxy(struct geis_backend_request *req, va_list *ap)
{
	req->evdev.proxy.enabled = 1;
	req->evdev.grab = 1;
}

static void
opt_proxy_output(struct geis_backend_request *req, va_list *ap)
{
	opt_proxy(req, ap);
	req->evdev.proxy.output = va_arg(*ap, const char *);
}

static void
opt_proxy_uinput(struct geis_backend_request *req, va_list *ap)
{
	req->evdev.proxy.uinput = va_arg(*ap, const char *);
}

static void
opt_dir(struct geis_backend_request *req, va_list *ap)
{
	req->evdev.dir = (char *)va_arg(*ap, const char *);
}

static void
opt_save(struct geis_backend_request *req, va_list *ap)
{
	req->evdev.save = (char *)va_arg(*ap, const char *);
}

static void
opt_open_interface(struct geis_backend_request *req, va_list *ap)
{
	const struct utouch_geis_open_interface *iface =
		va_arg(*ap, const struct utouch_geis_open_interface *);
	void *user_data = va_arg(*ap, void *);

	if (iface && iface->open_restricted && iface->close_restricted) {
		req->evdev.iface = iface;
		req->evdev.user_data = user_data;
	} else {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_new: the open interface needs both "
				"functions; using open(2)/close(2)");
	}
}

/* geis 2.2's backend names: the default selection applies */
static void
opt_default(struct geis_backend_request *req, va_list *ap)
{
}

/* geis 2.2's names of its X11 backend (gs_backend_choose()) */
static void
opt_x11_named(struct geis_backend_request *req, va_list *ap)
{
	req->x11_named = 1;
}

static void
opt_dbus(struct geis_backend_request *req, va_list *ap)
{
	gs_error_push(NULL, GEIS_STATUS_NOT_SUPPORTED,
			"geis_new: there is no DBus backend; using the "
			"default backend");
}

static const struct {
	const char *init_arg;
	void (*apply)(struct geis_backend_request *req, va_list *ap);
} options[] = {
	{ UTOUCH_GEIS_INIT_RECORDING_FAST, opt_fast },
	{ UTOUCH_GEIS_INIT_EVDEV_GRAB, opt_grab },
	{ UTOUCH_GEIS_INIT_EVDEV_DIR, opt_dir },
	{ UTOUCH_GEIS_INIT_PROXY, opt_proxy },
	{ UTOUCH_GEIS_INIT_PROXY_OUTPUT, opt_proxy_output },
	{ UTOUCH_GEIS_INIT_PROXY_UINPUT, opt_proxy_uinput },
	{ UTOUCH_GEIS_INIT_EVDEV_SAVE, opt_save },
	{ UTOUCH_GEIS_INIT_EVDEV_OPEN_INTERFACE, opt_open_interface },
	{ GEIS_INIT_SERVICE_PROVIDER, opt_default },
	{ GEIS_INIT_GRAIL_BACKEND, opt_x11_named },
	{ GEIS_INIT_XCB_BACKEND, opt_x11_named },
	{ GEIS_INIT_DBUS_BACKEND, opt_dbus },
};

int
gs_backend_init_arg(struct geis_backend_request *req, const char *arg, va_list *ap)
{
	for (size_t i = 0; i < NUM_BACKENDS; i++) {
		if (backends[i].init_arg && strcmp(arg, backends[i].init_arg) == 0) {
			req->backend = &backends[i];
			if (backends[i].needs_path)
				req->path = va_arg(*ap, const char *);
			return 1;
		}
	}
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		if (strcmp(arg, options[i].init_arg) == 0) {
			options[i].apply(req, ap);
			return 1;
		}
	}
	return 0;
}

/* Does @p v choose @p b?  Sets the path of a token with one. */
static int
env_matches(const struct geis_backend_entry *b, const char *v, const char **path)
{
	size_t n = strlen(b->env_token);

	if (!b->needs_path)
		return strcmp(v, b->env_token) == 0;
	if (strncmp(v, b->env_token, n) != 0 || !v[n])
		return 0;
	*path = v + n;
	return 1;
}

/* The accepted values of UTOUCH_GEIS_BACKEND, for the error message:
 * "recording:PATH, ..., evdev or x11". */
static void
env_tokens(char *buf, size_t size)
{
	size_t count = 0, seen = 0, len = 0;

	for (size_t i = 0; i < NUM_BACKENDS; i++)
		count += backends[i].env_token != NULL;
	buf[0] = '\0';
	for (size_t i = 0; i < NUM_BACKENDS && len < size; i++) {
		const char *t = backends[i].env_token;

		if (!t)
			continue;
		seen++;
		len += (size_t)snprintf(buf + len, size - len, "%s%s%s",
					seen == 1 ? "" : seen == count ? " or " : ", ", t,
					backends[i].needs_path ? "PATH" : "");
	}
}

/* Rule 2: the environment.  0 (chosen or not set), -1 for a bad value. */
static int
choose_from_env(struct geis_backend_request *req)
{
	const char *v = getenv(UTOUCH_GEIS_BACKEND_ENV);
	char tokens[160];

	if (!v || !*v)
		return 0;
	for (size_t i = 0; i < NUM_BACKENDS; i++) {
		if (backends[i].env_token && env_matches(&backends[i], v, &req->path)) {
			req->backend = &backends[i];
			req->fast |= backends[i].env_fast;
			return 0;
		}
	}
	env_tokens(tokens, sizeof(tokens));
	gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "%s=\"%s\" is not %s",
			UTOUCH_GEIS_BACKEND_ENV, v, tokens);
	return -1;
}

int
gs_backend_choose(struct geis_backend_request *req)
{
	if (!req->backend && choose_from_env(req) < 0)
		return -1;
#ifdef UTOUCH_GEIS_HAVE_X11
	/* geis 2.2 had only its X11 backend: a program that names it gets
	 * X11 wherever Xlib opens its default display, DISPLAY set or not
	 * (an Xlib stand-in needs no DISPLAY); evdev only where it cannot */
	if (!req->backend && req->x11_named &&
	    (display_is_set() || gs_backend_x11_can_open())) {
		for (size_t i = 0; !req->backend && i < NUM_BACKENDS; i++)
			if (backends[i].create == create_x11)
				req->backend = &backends[i];
	}
#endif
	for (size_t i = 0; !req->backend && i < NUM_BACKENDS; i++) {
		if (backends[i].create && backends[i].is_default &&
		    backends[i].is_default())
			req->backend = &backends[i];
	}
	if (!req->backend->create) {
		gs_error_push(NULL, GEIS_STATUS_NOT_SUPPORTED,
				"geis_new: this build has no %s backend", req->backend->name);
		return -1;
	}
	if (req->backend->needs_path && !req->path) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_new: the %s backend needs a path", req->backend->name);
		return -1;
	}
	return 0;
}

struct geis_backend *
gs_backend_create(Geis geis, const struct geis_backend_request *req)
{
	return req->backend->create(geis, req);
}
