/*
 * The control socket (--control PATH): a line protocol that drives virtual
 * touch devices on the headless backend and answers questions for tests.
 * Every command gets one reply line, "ok ..." or "error ...".
 *
 *   add-touch                 -> ok N        a new touchscreen, number N
 *   remove-touch N            -> ok
 *   down N ID X Y             -> ok          X, Y in layout pixels
 *   motion N ID X Y           -> ok
 *   up N ID                   -> ok
 *   cancel N ID               -> ok
 *   frame N                   -> ok
 *   clock MS                  -> ok          touch events from now on happen MS ms after
 *                                            the first clock command; timers run to it
 *   barrier SIZE              -> ok          every window is asked to be SIZE x SIZE
 *   stats                     -> ok points=P touches=T held=H actions=A windows=W
 *   quit                      -> ok          the compositor exits
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/interfaces/wlr_input_device.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/util/log.h>

#include "wlcomp.h"

#define LINE_MAX_BYTES 512

struct control_client {
	struct wl_list link;
	struct server *server;
	int fd;
	struct wl_event_source *source;
	char buf[LINE_MAX_BYTES];
	size_t len;
};

static struct wlr_backend *
headless_backend(struct server *server)
{
	return server->headless ? server->backend : NULL;
}

static struct touch_device *
find_touch(struct server *server, int number)
{
	struct touch_device *td;

	wl_list_for_each(td, &server->touch_devices, link)
		if (td->number == number)
			return td;
	return NULL;
}

static bool
normalise(struct server *server, double x, double y, double *nx, double *ny)
{
	struct wlr_box box;

	if (!output_layout_box(server, &box))
		return false;
	*nx = (x - box.x) / box.width;
	*ny = (y - box.y) / box.height;
	return true;
}

static void
reply(struct control_client *c, const char *fmt, ...)
{
	char out[LINE_MAX_BYTES];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, sizeof(out) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(out) - 2)
		n = sizeof(out) - 2;
	out[n++] = '\n';
	if (write(c->fd, out, (size_t)n) < 0)
		wlr_log(WLR_DEBUG, "control: reply lost: %s", strerror(errno));
}

/*
 * `clock MS`: the touch clock becomes manual.  The first command takes the
 * current CLOCK_MONOTONIC time as its origin (so input time never goes
 * back) and stops the gesture timers of the context's fd; from then on
 * touch events carry origin + MS and the timers run up to it here, so a
 * test's gestures do not depend on how fast the compositor runs.
 */
static void
set_clock(struct control_client *c, const char *arg)
{
	struct server *server = c->server;
	uint64_t origin = server->manual_clock ? server->clock_base_us : input_time_us(server);
	unsigned long long ms;
	char *end;

	while (*arg == ' ' || *arg == '\t')
		arg++;
	errno = 0;
	ms = strtoull(arg, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*arg < '0' || *arg > '9' || errno || *end ||
	    ms > (UINT64_MAX - origin) / 1000u) {
		reply(c, "error usage: clock MS (milliseconds, a whole number)");
		return;
	}
	if (server->manual_clock && origin + ms * 1000u < server->clock_us) {
		reply(c, "error clock %llu is before the current time %llu", ms,
		      (unsigned long long)((server->clock_us - server->clock_base_us) / 1000u));
		return;
	}
	if (!server->manual_clock) {
		server->clock_base_us = origin;
		server->manual_clock = true;
		/* the timers now run only here */
		gestures_stop(server);
	}
	server->clock_us = server->clock_base_us + ms * 1000u;
	utouch_comp_advance_time(server->gestures, server->clock_us);
	input_run_gesture_events(server);
	reply(c, "ok");
}

static void
command(struct control_client *c, char *line)
{
	struct server *server = c->server;
	char cmd[32];
	int n = 0, id = 0, consumed = 0;
	double x = 0, y = 0, nx, ny;
	struct touch_device *td;
	uint32_t msec = (uint32_t)(input_time_us(server) / 1000u);

	if (sscanf(line, "%31s%n", cmd, &consumed) != 1)
		return;
	line += consumed;
	if (!strcmp(cmd, "add-touch")) {
		struct wlr_backend *hb = headless_backend(server);
		struct wlr_input_device *dev;

		if (!hb) {
			reply(c, "error virtual touch devices need the headless backend");
			return;
		}
		dev = wlr_headless_add_input_device(hb, WLR_INPUT_DEVICE_TOUCH);
		if (!dev) {
			reply(c, "error cannot create a device");
			return;
		}
		/* the backend announced it through new_input: it is the last one */
		td = wl_container_of(server->touch_devices.prev, td, link);
		if (wl_list_empty(&server->touch_devices) || td->device != dev) {
			reply(c, "error the device was not taken");
			return;
		}
		td->virtual = true;
		reply(c, "ok %d", td->number);
	} else if (!strcmp(cmd, "remove-touch")) {
		if (sscanf(line, "%d", &n) != 1 || !(td = find_touch(server, n)) || !td->virtual) {
			reply(c, "error no virtual touch device %d", n);
			return;
		}
		wlr_input_device_destroy(td->device);
		reply(c, "ok");
	} else if (!strcmp(cmd, "down") || !strcmp(cmd, "motion")) {
		if (sscanf(line, "%d %d %lf %lf", &n, &id, &x, &y) != 4 ||
		    !(td = find_touch(server, n)) || !normalise(server, x, y, &nx, &ny)) {
			reply(c, "error usage: %s DEVICE ID X Y", cmd);
			return;
		}
		if (cmd[0] == 'd') {
			struct wlr_event_touch_down ev = {
				.device = td->device, .time_msec = msec, .touch_id = id,
				.x = nx, .y = ny,
			};
			wl_signal_emit(&td->device->touch->events.down, &ev);
		} else {
			struct wlr_event_touch_motion ev = {
				.device = td->device, .time_msec = msec, .touch_id = id,
				.x = nx, .y = ny,
			};
			wl_signal_emit(&td->device->touch->events.motion, &ev);
		}
		reply(c, "ok");
	} else if (!strcmp(cmd, "up") || !strcmp(cmd, "cancel")) {
		if (sscanf(line, "%d %d", &n, &id) != 2 || !(td = find_touch(server, n))) {
			reply(c, "error usage: %s DEVICE ID", cmd);
			return;
		}
		if (cmd[0] == 'u') {
			struct wlr_event_touch_up ev = {
				.device = td->device, .time_msec = msec, .touch_id = id,
			};
			wl_signal_emit(&td->device->touch->events.up, &ev);
		} else {
			struct wlr_event_touch_cancel ev = {
				.device = td->device, .time_msec = msec, .touch_id = id,
			};
			wl_signal_emit(&td->device->touch->events.cancel, &ev);
		}
		reply(c, "ok");
	} else if (!strcmp(cmd, "frame")) {
		if (sscanf(line, "%d", &n) != 1 || !(td = find_touch(server, n))) {
			reply(c, "error usage: frame DEVICE");
			return;
		}
		wl_signal_emit(&td->device->touch->events.frame, NULL);
		reply(c, "ok");
	} else if (!strcmp(cmd, "clock")) {
		set_clock(c, line);
	} else if (!strcmp(cmd, "barrier")) {
		struct view *v;

		if (sscanf(line, "%d", &n) != 1 || n <= 0) {
			reply(c, "error usage: barrier SIZE");
			return;
		}
		wl_list_for_each(v, &server->views, link)
			if (v->mapped)
				wlr_xdg_toplevel_set_size(v->xdg, (uint32_t)n, (uint32_t)n);
		reply(c, "ok");
	} else if (!strcmp(cmd, "stats")) {
		struct view *v;
		int windows = 0;

		wl_list_for_each(v, &server->views, link)
			windows += v->mapped;
		reply(c, "ok points=%d touches=%zu held=%zu actions=%lu windows=%d",
		      wlr_seat_touch_num_points(server->seat),
		      utouch_comp_get_touch_count(server->gestures),
		      utouch_comp_get_held_count(server->gestures), server->actions_run, windows);
	} else if (!strcmp(cmd, "quit")) {
		reply(c, "ok");
		wl_display_terminate(server->display);
	} else {
		reply(c, "error unknown command '%s'", cmd);
	}
}

static void
client_close(struct control_client *c)
{
	wl_event_source_remove(c->source);
	close(c->fd);
	wl_list_remove(&c->link);
	free(c);
}

static int
on_client(int fd, uint32_t mask, void *data)
{
	struct control_client *c = data;
	ssize_t n;

	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		client_close(c);
		return 0;
	}
	n = read(fd, c->buf + c->len, sizeof(c->buf) - c->len);
	if (n <= 0) {
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		client_close(c);
		return 0;
	}
	c->len += (size_t)n;
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		size_t used;

		if (!nl) {
			if (c->len == sizeof(c->buf)) {
				reply(c, "error line too long");
				c->len = 0;
			}
			break;
		}
		*nl = '\0';
		used = (size_t)(nl - c->buf) + 1;
		command(c, c->buf);
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
	}
	return 0;
}

static int
on_listen(int fd, uint32_t mask, void *data)
{
	struct server *server = data;
	struct control_client *c;
	int cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (cfd < 0)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(cfd);
		return 0;
	}
	c->server = server;
	c->fd = cfd;
	c->source = wl_event_loop_add_fd(server->loop, cfd, WL_EVENT_READABLE, on_client, c);
	if (!c->source) {
		close(cfd);
		free(c);
		return 0;
	}
	wl_list_insert(&server->control_clients, &c->link);
	return 0;
}

int
control_init(struct server *server, const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	wl_list_init(&server->control_clients);
	server->control_fd = -1;
	if (!path)
		return 0;
	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "utouch-wlcomp: control socket path too long: %s\n", path);
		return -1;
	}
	strcpy(addr.sun_path, path);
	server->control_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	unlink(path);
	if (server->control_fd < 0 ||
	    bind(server->control_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(server->control_fd, 4) < 0) {
		fprintf(stderr, "utouch-wlcomp: control socket %s: %s\n", path, strerror(errno));
		return -1;
	}
	server->control_path = strdup(path);
	server->control_source = wl_event_loop_add_fd(server->loop, server->control_fd,
						      WL_EVENT_READABLE, on_listen, server);
	return server->control_source && server->control_path ? 0 : -1;
}

void
control_finish(struct server *server)
{
	struct control_client *c, *tmp;

	wl_list_for_each_safe(c, tmp, &server->control_clients, link)
		client_close(c);
	if (server->control_source)
		wl_event_source_remove(server->control_source);
	if (server->control_fd >= 0)
		close(server->control_fd);
	if (server->control_path)
		unlink(server->control_path);
	free(server->control_path);
	server->control_path = NULL;
	server->control_fd = -1;
}
